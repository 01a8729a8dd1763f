"""Typing into the focused application on macOS: Quartz keyboard events (CoreGraphics, through
ctypes; Qt-free).

Each character is a key press and release that carries the character itself
(``CGEventKeyboardSetUnicodeString``), so the keyboard layout does not matter and accents,
CJK and emoji arrive as they are; a line break and a tab are the Return and Tab keys.  The
events carry no modifier flags, so a key the user still holds does not combine with them.

macOS lets a process post key events only once the user has allowed it in System Settings >
Privacy & Security > Accessibility; until then Parley asks macOS to show its prompt and says
where to allow it.

Same interface as ``X11Keyboard`` (``set_focus``, ``wait_for_modifiers_up``, ``type_text``,
``paste``, ``close``).  Written to Apple's documentation; the UTF-16 units are tested
everywhere, the calls themselves only on a Mac.
"""

from __future__ import annotations

import ctypes
import time
from collections.abc import Callable
from typing import Any

from ..shortcuts.mac import FLAG_COMMAND, FLAGS, frameworks

K_CG_HID_EVENT_TAP = 0
K_CG_EVENT_SOURCE_STATE_HID_SYSTEM = 1
KEY_RETURN, KEY_TAB, KEY_V = 0x24, 0x30, 0x09
_KEYS = {"\n": KEY_RETURN, "\r": KEY_RETURN, "\t": KEY_TAB}
MODIFIER_WAIT_S = 2.0
NOT_ALLOWED = (
    "macOS has not allowed Parley to type into other apps. Allow Parley in System Settings > "
    "Privacy & Security > Accessibility, then start Parley again"
)


class MacTypingError(RuntimeError):
    """macOS refused the key events."""


def utf16_units(char: str) -> list[int]:
    """The UTF-16 code units of ``char`` (two for a character beyond the Basic Multilingual Plane)."""
    data = char.encode("utf-16-le")
    return [int.from_bytes(data[i : i + 2], "little") for i in range(0, len(data), 2)]


class MacKeyboard:
    """Key events into whatever window has the focus."""

    def __init__(self) -> None:
        self._quartz, self._cf = frameworks()
        if not self._quartz.CGPreflightPostEventAccess():
            self._quartz.CGRequestPostEventAccess()  # macOS shows its prompt (once)
            raise MacTypingError(NOT_ALLOWED)

    def close(self) -> None:
        """Nothing is held open."""

    def set_focus(self, window: int) -> None:
        """The focus is not moved on macOS: the words go to the app in front."""

    def wait_for_modifiers_up(self, timeout: float = MODIFIER_WAIT_S) -> bool:
        deadline = time.monotonic() + timeout
        while self._quartz.CGEventSourceFlagsState(K_CG_EVENT_SOURCE_STATE_HID_SYSTEM) & FLAGS:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.01)
        return True

    def type_text(self, text: str, delay_s: float = 0.0, cancelled: Callable[[], bool] = lambda: False) -> int:
        """Type ``text``; returns how many characters were sent (fewer when cancelled)."""
        for count, char in enumerate(text):
            if cancelled():
                return count
            if char in _KEYS:
                self._key(_KEYS[char], 0)
            else:
                self._char(char)
            if delay_s:
                time.sleep(delay_s)
        return len(text)

    def paste(self) -> None:
        self._key(KEY_V, FLAG_COMMAND)

    def _char(self, char: str) -> None:
        units = utf16_units(char)
        buffer = (ctypes.c_uint16 * len(units))(*units)
        for down in (True, False):
            self._post(
                0, 0, down, lambda event: self._quartz.CGEventKeyboardSetUnicodeString(event, len(units), buffer)
            )

    def _key(self, code: int, flags: int) -> None:
        for down in (True, False):
            self._post(code, flags, down)

    def _post(self, code: int, flags: int, down: bool, fill: Callable[[Any], None] | None = None) -> None:
        event = self._quartz.CGEventCreateKeyboardEvent(None, code, down)
        if not event:
            raise MacTypingError("macOS could not make a key event")
        try:
            self._quartz.CGEventSetFlags(event, flags)
            if fill is not None:
                fill(event)
            self._quartz.CGEventPost(K_CG_HID_EVENT_TAP, event)
        finally:
            self._cf.CFRelease(event)
