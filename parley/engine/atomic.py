"""Replacing a file atomically: readers see the old file or the whole new one, never a part.

The new contents go into a temporary file beside the destination (same file system, so the
rename is atomic), which is flushed to disk, renamed over the destination, and the folder is
flushed so that the rename survives a crash.  On any failure (or a cancel raised from inside
the block) the temporary file is removed and the destination is left as it was.  The engine's
converters and the model library use it.  A full disk (or quota), met by the block's writes or by
the steps here, is a ``DiskFullError`` naming the folder; any other failure is the ``OSError`` of
the failing step, for the caller to explain (permissions, a missing folder).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from . import notes
from .errors import DiskFullError, is_disk_full
from .notes import Note


@contextmanager
def atomic_path(dst: str | Path) -> Iterator[Path]:
    """A new empty file beside ``dst`` for the block to write into (by path, e.g. for a writer
    that opens files itself); replaces ``dst`` when the block ends without an exception."""
    dst = Path(dst)
    try:
        tmp = _new_temp_beside(dst)
        try:
            yield tmp
            _fsync_file(tmp)
            os.replace(tmp, dst)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        _fsync_dir(dst.parent)
    except OSError as exc:
        if is_disk_full(exc):
            raise DiskFullError(Note(notes.DISK_FULL_WRITING, folder=dst.parent, name=dst.name)) from exc
        raise


@contextmanager
def atomic_write(dst: str | Path, mode: str = "wb", encoding: str | None = None) -> Iterator[IO[Any]]:
    """``open(dst, mode)`` that replaces ``dst`` only when the block ends without an exception."""
    if not mode.startswith("w"):
        raise ValueError(f"atomic_write writes a new file; mode {mode!r} is not a write mode")
    with atomic_path(dst) as tmp, open(tmp, mode, encoding=encoding) as f:
        yield f


def _new_temp_beside(dst: Path) -> Path:
    """Create an empty, uniquely named hidden file next to ``dst`` (with the permissions a new
    file gets from the umask, unlike ``tempfile.mkstemp``'s owner-only ones)."""
    for _ in range(100):
        tmp = dst.with_name(f".{dst.name}.{secrets.token_hex(4)}.tmp")
        try:
            os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
            return tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"cannot create a temporary file next to {dst}")


def _fsync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDWR)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_dir(folder: Path) -> None:
    """Make a rename durable (POSIX); Windows cannot open folders and does not need it."""
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
