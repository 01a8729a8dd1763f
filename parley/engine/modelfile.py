"""Opening a model file for validation, and reading it with every read bounds-checked.

Shared by the GGUF, whisper.cpp and legacy GPT-2 readers, which all map the file read-only and
walk its headers without reading tensor data.  Every reason a file cannot be opened becomes a
ModelFileError; a read past its end raises ``Truncated``, which each parser turns into a
ModelFileError saying where the file ends.
"""

from __future__ import annotations

import mmap
import os
import stat
import struct
from pathlib import Path
from typing import Any

from .errors import ModelFileError


def map_readonly(path: Path) -> tuple[mmap.mmap, int]:
    """Memory-map a model file read-only; return the map and the file size.  Every reason it
    cannot be (missing, a directory or pipe, permissions, empty) becomes a ModelFileError."""
    try:
        mode = path.stat().st_mode
        if stat.S_ISDIR(mode):
            raise ModelFileError(path, "this is a directory, not a model file")
        if not stat.S_ISREG(mode):  # opening a pipe would block
            raise ModelFileError(path, "this is not a regular file (a device, pipe or socket)")
        with path.open("rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            if size == 0:
                raise ModelFileError(path, "the file is empty (0 bytes), not a model")
            return mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ), size
    except FileNotFoundError:
        raise ModelFileError(path, "the file does not exist") from None
    except PermissionError:
        raise ModelFileError(path, "the file cannot be read: permission denied") from None
    except OSError as exc:
        raise ModelFileError(path, f"the file cannot be read: {exc.strerror or exc}") from None


class Truncated(Exception):
    """A read ran past the end of the file."""


class Cursor:
    """Little-endian reads from a mapped file; a read past its end raises ``Truncated``."""

    def __init__(self, buf: Any, size: int) -> None:
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
        return self.buf[start:start + n]
