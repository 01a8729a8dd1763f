"""Owning native resources: each freed once, the last made first, also when making them fails.

``Owner`` is the one implementation of ``close``, ``with`` and ``__del__`` in the engine.  What it
makes, it registers on its ``ExitStack`` the moment it exists (a free function, or another owner
to close), so ``close`` only unwinds that stack, and ``_building`` unwinds it when a load fails
half-way.  The engines (``ChatModel``, ``SpeechModel``, ...) are owners of owners.

``NativeHandle`` is an owner of exactly one native object.  Its ``handle`` raises
ModelClosedError once it is closed, so a call after ``close`` is a Parley error, not a crash.
An object that others were made from (a llama model that contexts use, a whisper context and
its state) is freed only after the last of them: ``close`` on it marks it closed at once, and the
free follows when its last user closes.  Whatever order ``close`` or the garbage collector's
finalisers run in, a context is never freed after its model.

An owner does not serialise calls: the engine that uses it holds its own lock around each
native call and around ``close``.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import Any, ClassVar, TypeVar

from ..errors import ModelClosedError

_O = TypeVar("_O", bound="Owner")


class Owner:
    """Frees what it registered on ``_resources``, once, in reverse order."""

    def __init__(self) -> None:
        self._resources = contextlib.ExitStack()
        self._closed = False

    @property
    def closed(self) -> bool:
        return self._closed

    @contextlib.contextmanager
    def _building(self) -> Iterator[None]:
        """Around the making of the resources: a failure frees what was made, then goes on."""
        try:
            yield
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        self._closed = True
        self._resources.close()

    def __enter__(self: _O) -> _O:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # a half-made object, or the interpreter shutting down
            pass


class NativeHandle(Owner):
    """Exactly one native object: made by the subclass, handed to ``_adopt`` with its free."""

    what: ClassVar[str] = "native object"  # for messages: "the llama.cpp context is closed"

    def __init__(self, *uses: NativeHandle) -> None:
        """``uses``: the owners this object is made from; each stays allocated until it closes."""
        super().__init__()
        self._guard = threading.Lock()
        self._users = 0
        self._freed = False
        self._handle: Any = None
        with self._building():
            for used in uses:
                used._add_user()
                self._resources.callback(used._remove_user)

    def _adopt(self, handle: Any, free: Callable[[Any], object]) -> None:
        """``handle`` is ours: ``free(handle)`` runs when this closes (before its ``uses`` are let go)."""
        self._handle = handle
        self._resources.callback(free, handle)

    @property
    def handle(self) -> Any:
        """The native pointer (ModelClosedError once closed)."""
        if self._closed:
            raise ModelClosedError(f"the {self.what} is closed")
        return self._handle

    def _check_open(self) -> None:
        """ModelClosedError once closed (before a call on something the handle owns)."""
        if self._closed:
            raise ModelClosedError(f"the {self.what} is closed")

    def close(self) -> None:
        """Mark it closed; free it now, or when the last object made from it closes."""
        with self._guard:
            self._closed = True
            if self._users:
                return
        self._free()

    def _free(self) -> None:
        with self._guard:
            if self._freed:
                return
            self._freed = True
        self._resources.close()

    def _add_user(self) -> None:
        with self._guard:
            if self._closed:
                raise ModelClosedError(f"the {self.what} is closed")
            self._users += 1

    def _remove_user(self) -> None:
        with self._guard:
            self._users -= 1
            last = self._closed and self._users == 0
        if last:
            self._free()
