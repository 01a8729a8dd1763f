"""System-wide shortcuts on X11: passive key grabs on the root window (python-xlib, Qt-free).

A connection of its own and a thread of its own: the grabs live as long as the connection,
and the thread reads the key events and hands ``on_press(name, focus)`` / ``on_release(name)``
on (``focus``: the X window that had the keyboard focus at the press, where the words go).

- **Auto-repeat:** while a key is held the X server sends KeyRelease + KeyPress pairs about
  25 times a second, both halves with the same time.  A release counts only if the server says
  the key is up (QueryKeymap), the rule the in-window key follows (``ui/push_to_talk_keys.py``); a press of a
  key already held is the second half of such a pair.  The key may have been let go after a
  pair was sent and before this thread read it: QueryKeymap then says up for the pair's release
  too.  So a release whose next event is a press of the same key at the same time is a repeat
  however the keymap reads; that press is always there to see, because the server sent it
  before its reply to QueryKeymap.  (Without this, a long hold let go while the thread was
  behind became a release, then a new press and release: a phantom tap.)
- **The release is never lost:** a passive grab makes the server send every key event to us
  from the press until that key is released, whatever window has the focus.
- **Lock keys:** each shortcut is grabbed with and without Caps Lock and Num Lock, which would
  otherwise make it dead while they are on.
- **Taken shortcuts:** a grab another client holds fails with BadAccess; ``grab`` says so, in
  words, for that shortcut.
- **Layout changes** (MappingNotify) grab again on the new key codes.
"""

from __future__ import annotations

import logging
import os
import select
import threading
from collections.abc import Callable
from typing import Any

from ..keysyms import LOCK_MASK, MOD2_MASK, KeyCombo

log = logging.getLogger("parley.keys")

_LOCK_VARIANTS = (0, LOCK_MASK, MOD2_MASK, LOCK_MASK | MOD2_MASK)


class X11Unavailable(RuntimeError):
    """No X server could be reached (or python-xlib is missing)."""


class X11HotKeys:
    """Grabs shortcuts on the X server named by ``display`` (None: ``$DISPLAY``)."""

    def __init__(
        self,
        on_press: Callable[[str, int], None],
        on_release: Callable[[str], None],
        display: str | None = None,
    ) -> None:
        try:
            from Xlib import X, display as xdisplay, error
        except ImportError as exc:
            raise X11Unavailable("python-xlib is not installed") from exc
        self._X, self._error = X, error
        try:
            self._display = xdisplay.Display(display)
        except (error.DisplayError, error.ConnectionClosedError, OSError) as exc:
            raise X11Unavailable(f"cannot reach the X server: {exc}") from exc
        self._root = self._display.screen().root
        self._on_press, self._on_release = on_press, on_release
        self._combos: dict[str, KeyCombo] = {}
        self._grabbed: dict[tuple[int, int], str] = {}  # (keycode, modifiers) -> name
        self._held: dict[int, str] = {}  # keycode -> name, while it is down
        self._grab_errors: list[object] = []
        self._following: object | None = None  # an event read ahead, handled next
        self._wake_read, self._wake_write = os.pipe()
        self._closing = False
        self._thread: threading.Thread | None = None

    def grab(self, combos: dict[str, KeyCombo]) -> dict[str, str]:
        """Listen for these shortcuts (by name) instead of any before; returns the problem of each
        one that could not be grabbed.  Call before ``start`` or, later, only from ``on_*``."""
        self._ungrab_all()
        self._combos = dict(combos)
        return self._grab_all()

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="parley-x11-keys", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Release the grabs and end the thread."""
        self._closing = True
        os.write(self._wake_write, b"x")
        if self._thread is not None:
            self._thread.join(timeout=2.0)
        try:
            self._display.close()
        except Exception:  # noqa: BLE001 - the server may be gone; the grabs went with it
            log.debug("closing the X connection", exc_info=True)
        os.close(self._wake_read)
        os.close(self._wake_write)

    def _grab_all(self) -> dict[str, str]:
        problems: dict[str, str] = {}
        for name, combo in self._combos.items():
            codes = sorted({code for code, _index in self._display.keysym_to_keycodes(combo.keysym)})
            if not codes:
                problems[name] = f"No key on this keyboard makes {combo.text}."
                continue
            self._grab_errors.clear()
            for code in codes:
                for extra in _LOCK_VARIANTS:
                    self._root.grab_key(
                        code,
                        combo.modifiers | extra,
                        False,
                        self._X.GrabModeAsync,
                        self._X.GrabModeAsync,
                        onerror=self._grab_failed,
                    )
                    self._grabbed[(code, combo.modifiers | extra)] = name
            self._display.sync()  # errors arrive by now
            if self._grab_errors:
                self._ungrab(name)
                problems[name] = (
                    f"{combo.text} is already taken by another program, so Parley cannot use it. "
                    "Choose another shortcut in Settings > Voice."
                )
        return problems

    def _grab_failed(self, error: object, *_request: object) -> None:
        """python-xlib's error handler: BadAccess when another client holds the key."""
        self._grab_errors.append(error)

    def _ungrab(self, name: str) -> None:
        for key in [k for k, n in self._grabbed.items() if n == name]:
            self._root.ungrab_key(key[0], key[1])
            del self._grabbed[key]
        self._display.sync()

    def _ungrab_all(self) -> None:
        for code, modifiers in self._grabbed:
            self._root.ungrab_key(code, modifiers)
        self._grabbed.clear()
        self._display.sync()

    def _run(self) -> None:
        display, X = self._display, self._X
        try:
            while not self._closing:
                event: Any = self._following
                self._following = None
                if event is None:
                    if not display.pending_events():
                        ready, _, _ = select.select([display.fileno(), self._wake_read], [], [])
                        if self._wake_read in ready:
                            break
                        if not display.pending_events():
                            continue
                    event = display.next_event()
                if event.type == X.KeyPress:
                    self._pressed(event.detail, event.state)
                elif event.type == X.KeyRelease:
                    self._released(event.detail, event.time)
                elif event.type == X.MappingNotify:
                    display.refresh_keyboard_mapping(event)
                    if event.request == X.MappingKeyboard and self._combos:
                        self._ungrab_all()
                        for name, problem in self._grab_all().items():
                            log.warning("after a keyboard layout change: %s (%s)", problem, name)
        except (self._error.ConnectionClosedError, OSError) as exc:
            if not self._closing:
                log.warning("the X server connection for the global shortcuts closed: %s", exc)

    def _pressed(self, code: int, state: int) -> None:
        if code in self._held:
            return  # auto-repeat: the key is still held
        name = self._grabbed.get((code, state & 0xFF))
        if name is None:
            return
        self._held[code] = name
        focus = self._display.get_input_focus().focus
        self._on_press(name, focus if isinstance(focus, int) else int(focus.id))

    def _released(self, code: int, when: int) -> None:
        name = self._held.get(code)
        if name is None:
            return
        keymap = self._display.query_keymap()
        if keymap[code // 8] & (1 << (code % 8)):
            return  # auto-repeat's release: the server still has the key down
        if self._display.pending_events():
            following = self._display.next_event()
            if following.type == self._X.KeyPress and following.detail == code and following.time == when:
                return  # an auto-repeat pair sent before the key was let go: its release follows
            self._following = following
        del self._held[code]
        self._on_release(name)
