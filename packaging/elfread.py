"""Just enough ELF reading for the packaging steps: which libraries a file links (DT_NEEDED),
which glibc symbol versions it needs, and which sections it has.

Standard library only, so the spec, the bundle checks and the tests need nothing extra.
Reads 64-bit little-endian ELF (x86-64 and arm64 Linux), the only kind Parley's Linux
bundle holds; anything else raises NotElf.
"""

from __future__ import annotations

import mmap
import re
import struct
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

SHT_DYNAMIC = 6
SHT_GNU_VERNEED = 0x6FFFFFFE
DT_NEEDED = 1
_SECTION_HEADER = struct.Struct("<IIQQQQIIQQ")  # Elf64_Shdr
_DYN = struct.Struct("<qQ")  # Elf64_Dyn
_VERNEED = struct.Struct("<HHIII")  # Elf64_Verneed
_VERNAUX = struct.Struct("<IHHII")  # Elf64_Vernaux


class NotElf(ValueError):
    """The file is not a 64-bit little-endian ELF file (or is cut short)."""


@dataclass(frozen=True)
class Section:
    name: str
    type: int
    offset: int
    size: int
    link: int
    info: int


def is_elf(path: str | Path) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(4) == b"\x7fELF"
    except OSError:
        return False


@contextmanager
def _mapped(path: str | Path) -> Iterator[mmap.mmap]:
    with open(path, "rb") as fh:
        try:
            data = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        except ValueError as exc:  # an empty file
            raise NotElf(f"{path}: empty") from exc
        with data:
            yield data


def _sections(data: mmap.mmap, path: str | Path) -> list[Section]:
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise NotElf(f"{path}: not a 64-bit little-endian ELF file")
    try:
        (shoff,) = struct.unpack_from("<Q", data, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
        raw = [_SECTION_HEADER.unpack_from(data, shoff + i * shentsize) for i in range(shnum)]
        names_at = raw[shstrndx][4] if shnum else 0
        return [Section(_string(data, names_at + h[0]), h[1], h[4], h[5], h[6], h[7]) for h in raw]
    except (struct.error, IndexError) as exc:
        raise NotElf(f"{path}: truncated ELF headers") from exc


def _string(data: mmap.mmap, offset: int) -> str:
    end = data.find(b"\0", offset)
    return data[offset:end].decode("utf-8", "replace")


def section_names(path: str | Path) -> list[str]:
    with _mapped(path) as data:
        return [s.name for s in _sections(data, path)]


def needed(path: str | Path) -> list[str]:
    """The sonames ``path`` links directly (its DT_NEEDED entries), in order."""
    with _mapped(path) as data:
        sections = _sections(data, path)
        out = []
        for section in sections:
            if section.type != SHT_DYNAMIC:
                continue
            strings = sections[section.link].offset
            for i in range(section.size // _DYN.size):
                tag, value = _DYN.unpack_from(data, section.offset + i * _DYN.size)
                if tag == DT_NEEDED:
                    out.append(_string(data, strings + value))
                elif tag == 0:  # DT_NULL ends the table
                    break
        return out


def required_versions(path: str | Path) -> dict[str, set[str]]:
    """Symbol versions ``path`` needs, by library (``{"libc.so.6": {"GLIBC_2.34", ...}}``)."""
    with _mapped(path) as data:
        sections = _sections(data, path)
        out: dict[str, set[str]] = {}
        for section in sections:
            if section.type != SHT_GNU_VERNEED:
                continue
            strings = sections[section.link].offset
            at = section.offset
            for _ in range(section.info):
                _version, count, file_at, aux_at, next_at = _VERNEED.unpack_from(data, at)
                versions = out.setdefault(_string(data, strings + file_at), set())
                aux = at + aux_at
                for _ in range(count):
                    _hash, _flags, _other, name_at, aux_next = _VERNAUX.unpack_from(data, aux)
                    versions.add(_string(data, strings + name_at))
                    aux += aux_next
                if not next_at:
                    break
                at += next_at
        return out


def glibc_versions(path: str | Path) -> set[tuple[int, ...]]:
    """The GLIBC_x.y[.z] versions ``path`` needs, as tuples of numbers."""
    found = set()
    for versions in required_versions(path).values():
        for version in versions:
            match = re.fullmatch(r"GLIBC_(\d+(?:\.\d+)+)", version)
            if match:
                found.add(tuple(int(p) for p in match[1].split(".")))
    return found
