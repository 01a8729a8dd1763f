"""A cancel flag shared between Python threads and native abort callbacks."""

from __future__ import annotations

from typing import Any, Protocol

from . import native


class CancelFlag(Protocol):
    """What a long Python-side job (a model conversion) polls between chunks; ``CancelToken``
    provides it, and so can any object with a ``cancelled`` property."""

    @property
    def cancelled(self) -> bool: ...


class CancelToken:
    """Thread-safe cancel flag.

    The flag is a C ``int`` that ``parley_abort_flag_cb`` reads without the GIL from ggml's
    compute loop, so a cancel from the UI thread stops whisper or llama between graph nodes.
    """

    def __init__(self) -> None:
        self._flag = native.ffi().new("int *", 0)

    def cancel(self) -> None:
        self._flag[0] = 1

    def reset(self) -> None:
        self._flag[0] = 0

    @property
    def cancelled(self) -> bool:
        return bool(self._flag[0])

    @property
    def c_pointer(self) -> Any:
        """``void *`` to hand to a native abort callback as its user data."""
        return native.ffi().cast("void *", self._flag)
