"""Reading files Parley does not control: bounded, regular files only, never blocking.

Settings, records and other programs' folders (the Hugging Face cache, Ollama's manifests) can
hold anything: a FIFO that never ends, a symbolic link to ``/dev/zero``, a symlink loop, a file
of gigabytes, JSON nested thousands deep (``json`` raises ``RecursionError``) or an integer of
thousands of digits (``int`` raises ``ValueError`` past 4,300).  Each read here checks what the
path is before reading it, reads at most a stated number of bytes, and turns every such case
into ``UntrustedFileError`` with a one-line reason, for the caller to report for that entry.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path
from typing import Any

from .errors import UntrustedFileError

MAX_JSON_BYTES = 4 << 20  # settings, records, manifests are a few kilobytes
MAX_JSON_DEPTH = 64  # none of ours nests deeper than 5
MAX_INT_DIGITS = 40  # sizes and counts fit in 20 digits


def open_regular(path: str | Path) -> int:
    """A read-only descriptor for ``path`` when it is a regular file (symbolic links followed).

    Opened with ``O_NONBLOCK`` so a FIFO cannot block the open, then checked with ``fstat`` on
    that same descriptor (no window for a swap between a check and the open); on Windows with
    ``O_BINARY``, so the bytes read are the file's.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    flags |= getattr(os, "O_BINARY", 0)  # Windows opens a descriptor in text mode otherwise: \r\n read as \n
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UntrustedFileError(f"{path}: a loop of symbolic links") from None
        raise UntrustedFileError(f"{path}: {exc.strerror or exc}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise UntrustedFileError(f"{path}: not a regular file ({_kind(mode)})")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def is_regular_file(path: str | Path) -> bool:
    """True for a regular file (through symbolic links); False for anything else or an error
    (a loop, a dangling link, no permission); never blocks and never raises."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def read_bytes(path: str | Path, max_bytes: int) -> bytes:
    """The whole of a regular file of at most ``max_bytes`` bytes."""
    fd = open_regular(path)
    try:
        size = os.fstat(fd).st_size
        if size > max_bytes:
            raise UntrustedFileError(f"{path}: {size} bytes, more than the {max_bytes} expected")
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > max_bytes:  # grew while being read
                raise UntrustedFileError(f"{path}: more than the {max_bytes} bytes expected")
        return b"".join(chunks)
    except OSError as exc:
        raise UntrustedFileError(f"{path}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def parse_json(text: str | bytes, *, what: str = "the document", max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``json.loads`` that refuses deep nesting, huge integers, NaN and invalid text with
    UntrustedFileError instead of RecursionError, ValueError or MemoryError."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise UntrustedFileError(f"{what}: not UTF-8 text") from None
    depth = _max_depth(text, max_depth)
    if depth > max_depth:
        raise UntrustedFileError(f"{what}: nested more than {max_depth} levels deep")
    try:
        return json.loads(text, parse_int=_bounded_int, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError is a ValueError
        raise UntrustedFileError(f"{what}: not valid JSON ({_first_line(exc)})") from None


def load_json(path: str | Path, *, max_bytes: int = MAX_JSON_BYTES, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """A JSON file read with ``read_bytes`` and parsed with ``parse_json``."""
    return parse_json(read_bytes(path, max_bytes), what=str(path), max_depth=max_depth)


def _max_depth(text: str, limit: int) -> int:
    """The deepest nesting of ``[`` and ``{`` outside strings (stops counting past ``limit``)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
        elif ch in "]}":
            depth -= 1
    return deepest


def _bounded_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise ValueError(f"an integer of {len(digits)} digits")
    return int(digits)


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def _kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a file"


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
