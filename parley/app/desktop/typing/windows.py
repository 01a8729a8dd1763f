"""Typing into the focused application on Windows: ``SendInput`` (user32, through ctypes; Qt-free).

Each character is sent as Unicode key events (``KEYEVENTF_UNICODE``): Windows hands the
character itself to the application, whatever the keyboard layout, so accents, CJK and emoji
(two UTF-16 code units, each sent in turn) arrive as they are.  A line break and a tab are
sent as the Return and Tab keys, which applications treat as keys rather than characters.
One character's events go in one ``SendInput`` call, so the user's own typing cannot land
between them.

Windows refuses key events aimed at an application that runs with higher rights than Parley
(User Interface Privilege Isolation: an administrator's window); ``SendInput`` then inserts
nothing, and that is reported rather than lost.

Same interface as ``X11Keyboard`` (``set_focus``, ``wait_for_modifiers_up``, ``type_text``,
``paste``, ``close``).  The event records are tested everywhere; the calls themselves run in
the Windows Python under Wine in tests/app/test_desktop_wine.py (on Linux), and where Windows runs them.
"""

from __future__ import annotations

import ctypes
import time
from collections.abc import Callable
from typing import Any

from ..shortcuts.windows import user32

INPUT_KEYBOARD = 1
KEYEVENTF_KEYUP, KEYEVENTF_UNICODE = 0x0002, 0x0004
VK_RETURN, VK_TAB, VK_CONTROL, VK_V = 0x0D, 0x09, 0x11, 0x56
_MODIFIER_KEYS = (0x10, 0x11, 0x12, 0x5B, 0x5C)  # Shift, Ctrl, Alt, the Windows keys
MODIFIER_WAIT_S = 2.0
_KEYS = {"\n": VK_RETURN, "\r": VK_RETURN, "\t": VK_TAB}

Event = tuple[int, int, int]  # (virtual key, scan code or UTF-16 unit, flags)


class WindowsTypingError(RuntimeError):
    """Windows refused the key events."""


def char_events(char: str) -> list[Event]:
    """The key events that type ``char``: a key for a line break or a tab, else a down and an
    up per UTF-16 code unit (two units for a character beyond the Basic Multilingual Plane)."""
    if char in _KEYS:
        vk = _KEYS[char]
        return [(vk, 0, 0), (vk, 0, KEYEVENTF_KEYUP)]
    data = char.encode("utf-16-le")
    events: list[Event] = []
    for i in range(0, len(data), 2):
        unit = int.from_bytes(data[i : i + 2], "little")
        events += [(0, unit, KEYEVENTF_UNICODE), (0, unit, KEYEVENTF_UNICODE | KEYEVENTF_KEYUP)]
    return events


def paste_events() -> list[Event]:
    """Ctrl+V."""
    return [(VK_CONTROL, 0, 0), (VK_V, 0, 0), (VK_V, 0, KEYEVENTF_KEYUP), (VK_CONTROL, 0, KEYEVENTF_KEYUP)]


class KEYBDINPUT(ctypes.Structure):
    _fields_ = [
        ("wVk", ctypes.c_uint16),
        ("wScan", ctypes.c_uint16),
        ("dwFlags", ctypes.c_uint32),
        ("time", ctypes.c_uint32),
        ("dwExtraInfo", ctypes.c_size_t),
    ]


class MOUSEINPUT(ctypes.Structure):  # only for the union's size: SendInput checks it
    _fields_ = [
        ("dx", ctypes.c_int32),
        ("dy", ctypes.c_int32),
        ("mouseData", ctypes.c_uint32),
        ("dwFlags", ctypes.c_uint32),
        ("time", ctypes.c_uint32),
        ("dwExtraInfo", ctypes.c_size_t),
    ]


class _INPUTUNION(ctypes.Union):
    _fields_ = [("ki", KEYBDINPUT), ("mi", MOUSEINPUT)]


class INPUT(ctypes.Structure):
    _fields_ = [("type", ctypes.c_uint32), ("u", _INPUTUNION)]


def input_records(events: list[Event]) -> ctypes.Array[INPUT]:
    """``events`` as the array ``SendInput`` takes."""
    records = (INPUT * len(events))()
    for record, (vk, scan, flags) in zip(records, events, strict=True):
        record.type = INPUT_KEYBOARD
        record.u.ki = KEYBDINPUT(vk, scan, flags, 0, 0)
    return records


class WindowsKeyboard:
    """Key events into whatever window has the focus."""

    def __init__(self) -> None:
        self._user32: Any = user32()

    def close(self) -> None:
        """Nothing is held open."""

    def focus(self) -> int:
        return int(self._user32.GetForegroundWindow() or 0)

    def set_focus(self, window: int) -> None:
        """Give the focus back to ``window`` (the app the user was in).  Windows lets a process
        that the user just interacted with do this; otherwise it flashes the window instead."""
        self._user32.SetForegroundWindow(window)

    def wait_for_modifiers_up(self, timeout: float = MODIFIER_WAIT_S) -> bool:
        """Wait until the user has let go of Shift, Ctrl, Alt and the Windows keys (else they
        would combine with the characters); False if they are still held at the timeout."""
        deadline = time.monotonic() + timeout
        while any(self._user32.GetAsyncKeyState(vk) & 0x8000 for vk in _MODIFIER_KEYS):
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.01)
        return True

    def type_text(self, text: str, delay_s: float = 0.0, cancelled: Callable[[], bool] = lambda: False) -> int:
        """Type ``text``; returns how many characters were sent (fewer when cancelled)."""
        for count, char in enumerate(text):
            if cancelled():
                return count
            self._send(char_events(char))
            if delay_s:
                time.sleep(delay_s)
        return len(text)

    def paste(self) -> None:
        self._send(paste_events())

    def _send(self, events: list[Event]) -> None:
        records = input_records(events)
        sent = self._user32.SendInput(len(events), records, ctypes.sizeof(INPUT))
        if sent != len(events):
            raise WindowsTypingError(
                "Windows refused the key events (the app you are in may run as administrator, "
                "which Parley's typing cannot reach)"
            )
