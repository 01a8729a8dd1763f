"""Opening a model file for validation: every reason it cannot be read becomes a ModelFileError.

Shared by the GGUF, whisper.cpp and legacy GPT-2 readers, which all map the file read-only and
walk its headers without reading tensor data.
"""

from __future__ import annotations

import mmap
import os
import stat
from pathlib import Path

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
