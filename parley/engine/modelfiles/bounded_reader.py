"""Opening a model file for validation, and reading it with every read bounds-checked.

Shared by the GGUF, whisper.cpp and legacy GPT-2 readers, which all map the file read-only and
walk its headers without reading tensor data.  Every reason a file cannot be opened becomes a
ModelFileError; a read past its end raises ``Truncated``, which each parser turns into a
ModelFileError saying where the file ends.
"""

from __future__ import annotations

import errno
import mmap
import os
import stat
import struct
from pathlib import Path
from typing import Any

from .. import notes
from ..errors import ModelFileError, UntrustedFileError
from ..notes import Note
from ..untrusted import open_regular


def open_model(path: Path) -> int:
    """A read-only descriptor for a model file that is a regular file.  Every reason it is not
    (missing, a directory, a FIFO or device, a symbolic link loop, no permission) becomes a
    ModelFileError.

    The file kind is checked on the descriptor itself (``untrusted.open_regular``), so a FIFO can
    neither block the open nor be swapped in after the check; ``os.stat`` first only words the
    common cases the way a user reads them.
    """
    _refuse_non_regular(path)
    try:
        return open_regular(path)
    except UntrustedFileError as exc:
        reason = str(exc).removeprefix(f"{path}: ")
        raise ModelFileError(path, f"the file cannot be read: {reason[:1].lower()}{reason[1:]}") from None


def _refuse_non_regular(path: Path) -> None:
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        problem = Note(notes.FILE_BROKEN_LINK if os.path.islink(path) else notes.FILE_MISSING)
        raise ModelFileError(path, problem) from None
    except PermissionError:
        raise ModelFileError(path, "the file cannot be read: permission denied") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise ModelFileError(path, "this is a loop of symbolic links, not a model file") from None
        raise ModelFileError(path, f"the file cannot be read: {exc.strerror or exc}") from None
    except ValueError:  # a NUL character in the path
        raise ModelFileError(path, "this is not a valid file name") from None
    if stat.S_ISDIR(mode):
        raise ModelFileError(path, "this is a directory, not a model file")
    if not stat.S_ISREG(mode):
        raise ModelFileError(path, Note(notes.FILE_NOT_REGULAR))


def read_head(path: Path, n: int) -> bytes:
    """The first ``n`` bytes (fewer for a shorter file) of a model file, which must be a regular
    file; ModelFileError otherwise."""
    fd = open_model(path)
    try:
        return os.read(fd, n)
    except OSError as exc:
        raise ModelFileError(path, f"the file cannot be read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def map_readonly(path: Path) -> tuple[mmap.mmap, int]:
    """Memory-map a model file read-only; return the map and the file size.  Every reason it
    cannot be (see ``open_model``, and an empty file) becomes a ModelFileError."""
    fd = open_model(path)
    try:
        size = os.fstat(fd).st_size
        if size == 0:
            raise ModelFileError(path, "the file is empty (0 bytes), not a model")
        return mmap.mmap(fd, 0, access=mmap.ACCESS_READ), size
    except (OSError, ValueError) as exc:  # ValueError: emptied since the fstat
        reason = exc.strerror if isinstance(exc, OSError) else None  # a ValueError has no strerror
        raise ModelFileError(path, f"the file cannot be read: {reason or exc}") from None
    finally:
        os.close(fd)


class Truncated(Exception):
    """A read ran past the end of the file."""


class Cursor:
    """Little-endian reads from a mapped file; a read past its end raises ``Truncated``."""

    def __init__(self, buf: mmap.mmap | bytes, size: int) -> None:
        self.buf = buf
        self.size = size
        self.pos = 0

    def skip(self, n: int) -> int:
        """Move past ``n`` bytes; return where they start."""
        start = self.pos
        if n < 0 or start + n > self.size:
            raise Truncated
        self.pos = start + n
        return start

    def unpack(self, fmt: struct.Struct) -> Any:
        """The one value of ``fmt`` at the current position."""
        return fmt.unpack_from(self.buf, self.skip(fmt.size))[0]

    def raw(self, n: int) -> bytes:
        start = self.skip(n)
        return self.buf[start : start + n]
