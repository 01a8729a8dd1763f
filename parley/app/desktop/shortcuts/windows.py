"""System-wide shortcuts on Windows: ``RegisterHotKey`` (user32, through ctypes; Qt-free).

A thread of its own owns the hotkeys: Windows posts ``WM_HOTKEY`` to the message queue of the
thread that registered them, so that thread registers them, then runs the message loop.

- **Press:** ``WM_HOTKEY``.  ``MOD_NOREPEAT`` keeps auto-repeat from posting it again while
  the key is held; where it is not honoured (Wine), a ``WM_HOTKEY`` while the shortcut is still
  held is ignored.
- **Release:** Windows has no hotkey-release message, so while a shortcut is down the thread
  asks ``GetAsyncKeyState`` about its key every ``POLL_S``, and the release is reported once
  the key is up.
- **Taken shortcuts:** ``RegisterHotKey`` fails with ``ERROR_HOTKEY_ALREADY_REGISTERED`` when
  another program holds the combination; ``grab`` says so, in words, for that shortcut.
- **Focus:** the foreground window at the press (``GetForegroundWindow``) is handed on, so the
  words go back to it.

The key mapping is tested everywhere; the calls themselves run in the Windows Python under Wine
in tests/app/test_desktop_wine.py (on Linux), and where Windows runs them.
"""

from __future__ import annotations

import ctypes
import logging
import sys
import threading
from collections.abc import Callable
from typing import Any

from ..keysyms import CONTROL_MASK, MOD1_MASK, MOD4_MASK, SHIFT_MASK, KeyCombo

log = logging.getLogger("parley.keys")

POLL_S = 0.01  # how often a held shortcut's key is looked at
START_TIMEOUT_S = 5.0

MOD_ALT, MOD_CONTROL, MOD_SHIFT, MOD_WIN, MOD_NOREPEAT = 0x0001, 0x0002, 0x0004, 0x0008, 0x4000
WM_QUIT, WM_HOTKEY, WM_APP = 0x0012, 0x0312, 0x8000
PM_NOREMOVE, PM_REMOVE = 0x0000, 0x0001
ERROR_HOTKEY_ALREADY_REGISTERED = 1409
QS_ALLINPUT = 0x04FF
MWMO_INPUTAVAILABLE = 0x0004

# X keysyms (what ``KeyCombo`` holds) as Windows virtual-key codes (WinUser.h).
_VIRTUAL_KEYS = {
    0x0020: 0x20,  # space
    0xFF0D: 0x0D,  # Return
    0xFF8D: 0x0D,  # the keypad's Enter: the same virtual key
    0xFF09: 0x09,  # Tab
    0xFF08: 0x08,  # BackSpace
    0xFF1B: 0x1B,  # Escape
    0xFF63: 0x2D,  # Insert
    0xFFFF: 0x2E,  # Delete
    0xFF50: 0x24,  # Home
    0xFF57: 0x23,  # End
    0xFF55: 0x21,  # Page Up
    0xFF56: 0x22,  # Page Down
    0xFF51: 0x25,  # Left
    0xFF52: 0x26,  # Up
    0xFF53: 0x27,  # Right
    0xFF54: 0x28,  # Down
    0xFF13: 0x13,  # Pause
    0xFF61: 0x2C,  # Print (Snapshot)
    0xFF67: 0x5D,  # Menu (Apps)
    0xFF14: 0x91,  # Scroll Lock
}
_F1_KEYSYM, _VK_F1, _F_KEYS = 0xFFBE, 0x70, 24


def hotkey(combo: KeyCombo, char_key: Callable[[str], int | None]) -> tuple[int, int] | None:
    """``combo`` as RegisterHotKey's (modifiers, virtual key), or None when Windows has no key
    for it.  ``char_key(char)``: the virtual key that types a punctuation character in the
    user's layout (``VkKeyScanW``), None when none does."""
    keysym = combo.keysym
    if keysym in _VIRTUAL_KEYS:
        vk: int | None = _VIRTUAL_KEYS[keysym]
    elif _F1_KEYSYM <= keysym < _F1_KEYSYM + _F_KEYS:
        vk = _VK_F1 + keysym - _F1_KEYSYM
    elif 0x61 <= keysym <= 0x7A or 0x30 <= keysym <= 0x39:
        vk = ord(chr(keysym).upper())  # letters and digits: their upper-case ASCII code
    elif 0x21 <= keysym <= 0x7E:
        vk = char_key(chr(keysym))
    else:
        vk = None
    if vk is None:
        return None
    modifiers = MOD_NOREPEAT
    for mask, flag in (
        (CONTROL_MASK, MOD_CONTROL),
        (MOD1_MASK, MOD_ALT),
        (SHIFT_MASK, MOD_SHIFT),
        (MOD4_MASK, MOD_WIN),
    ):
        if combo.modifiers & mask:
            modifiers |= flag
    return modifiers, vk


class WindowsUnavailable(RuntimeError):
    """Not on Windows, or user32 could not be used."""


class WindowsHotKeys:
    """The shortcuts of one Parley, registered by a thread of its own (same interface as
    ``X11HotKeys``: ``grab``, ``start``, ``close``)."""

    def __init__(self, on_press: Callable[[str, int], None], on_release: Callable[[str], None]) -> None:
        self._on_press, self._on_release = on_press, on_release
        self._user32: Any = user32()  # WindowsUnavailable elsewhere
        self._kernel32: Any = kernel32()
        self._wanted: dict[str, KeyCombo] = {}
        self._problems: dict[str, str] = {}
        self._registered: dict[int, tuple[str, int]] = {}  # hotkey id -> (name, virtual key)
        self._held: dict[str, int] = {}  # name -> virtual key, while it is down
        self._thread: threading.Thread | None = None
        self._thread_id = 0
        self._ready = threading.Event()

    def grab(self, combos: dict[str, KeyCombo]) -> dict[str, str]:
        """Listen for these shortcuts; returns the problem of each that could not be registered.
        Call once, before ``start``: the registering is done by the thread ``start`` begins,
        which waits here for its outcome."""
        self._wanted = dict(combos)
        self._thread = threading.Thread(target=self._run, name="parley-windows-keys", daemon=True)
        self._thread.start()
        if not self._ready.wait(START_TIMEOUT_S):
            return dict.fromkeys(combos, "Windows did not answer when Parley registered its shortcuts.")
        return dict(self._problems)

    def start(self) -> None:
        """The thread already runs (``grab`` started it, since it must own the hotkeys)."""

    def close(self) -> None:
        if self._thread is None:
            return
        if self._thread_id:
            self._user32.PostThreadMessageW(self._thread_id, WM_QUIT, 0, 0)
        self._thread.join(timeout=2.0)
        self._thread = None

    # ------------------------------------------------------------------ the listener thread

    def _run(self) -> None:
        user32 = self._user32
        msg = _MSG()
        user32.PeekMessageW(ctypes.byref(msg), None, 0, 0, PM_NOREMOVE)  # makes this thread's queue
        self._thread_id = self._kernel32.GetCurrentThreadId()
        try:
            self._register_all()
        finally:
            self._ready.set()
        try:
            while True:
                if self._held:
                    self._poll_releases()
                if self._held:
                    # Wait for a message or the next poll, whichever comes first.  The queue is
                    # read after every wait, and MWMO_INPUTAVAILABLE also wakes for messages
                    # already queued: without it the wait sleeps through a message left behind
                    # by the previous one (two queued at once, say a WM_HOTKEY and close()'s
                    # WM_QUIT), and close() would wait for the keys to be let go.
                    user32.MsgWaitForMultipleObjectsEx(0, None, int(POLL_S * 1000), QS_ALLINPUT, MWMO_INPUTAVAILABLE)
                    if not user32.PeekMessageW(ctypes.byref(msg), None, 0, 0, PM_REMOVE):
                        continue
                    if msg.message == WM_QUIT:
                        break
                elif user32.GetMessageW(ctypes.byref(msg), None, 0, 0) <= 0:
                    break  # WM_QUIT (0) or an error (-1)
                if msg.message == WM_HOTKEY:
                    self._pressed(int(msg.wParam))
        finally:
            for hotkey_id in self._registered:
                user32.UnregisterHotKey(None, hotkey_id)
            self._registered.clear()

    def _register_all(self) -> None:
        user32 = self._user32

        def char_key(char: str) -> int | None:
            scan = user32.VkKeyScanW(char)
            return None if scan == -1 or scan & 0xFF == 0xFF else scan & 0xFF

        for hotkey_id, (name, combo) in enumerate(self._wanted.items(), start=1):
            mapped = hotkey(combo, char_key)
            if mapped is None:
                self._problems[name] = f"No key on this keyboard makes {combo.text}."
                continue
            modifiers, vk = mapped
            if user32.RegisterHotKey(None, hotkey_id, modifiers, vk):
                self._registered[hotkey_id] = (name, vk)
                continue
            error = ctypes.get_last_error()  # type: ignore[attr-defined]
            if error == ERROR_HOTKEY_ALREADY_REGISTERED:
                self._problems[name] = (
                    f"{combo.text} is already taken by another program, so Parley cannot use it. "
                    "Choose another shortcut in Settings > Voice."
                )
            else:
                self._problems[name] = f"Windows refused {combo.text} (error {error})."

    def _pressed(self, hotkey_id: int) -> None:
        found = self._registered.get(hotkey_id)
        if found is None or found[0] in self._held:
            return
        name, vk = found
        self._held[name] = vk
        focus = self._user32.GetForegroundWindow() or 0
        self._on_press(name, int(focus))

    def _poll_releases(self) -> None:
        for name, vk in list(self._held.items()):
            if not self._user32.GetAsyncKeyState(vk) & 0x8000:
                del self._held[name]
                self._on_release(name)


def user32() -> Any:
    """user32 with the prototypes Parley calls (handles and SHORT results must not be read as
    ``int``, the default)."""
    if sys.platform != "win32":
        raise WindowsUnavailable("not Windows")
    lib = ctypes.WinDLL("user32", use_last_error=True)
    c = ctypes
    handle, uint, ptr = c.c_void_p, c.c_uint32, c.c_void_p
    prototypes: dict[str, tuple[Any, list[Any]]] = {
        "RegisterHotKey": (c.c_int, [handle, c.c_int, uint, uint]),
        "UnregisterHotKey": (c.c_int, [handle, c.c_int]),
        "GetMessageW": (c.c_int, [ptr, handle, uint, uint]),
        "PeekMessageW": (c.c_int, [ptr, handle, uint, uint, uint]),
        "PostThreadMessageW": (c.c_int, [uint, uint, c.c_size_t, c.c_ssize_t]),
        "MsgWaitForMultipleObjectsEx": (uint, [uint, ptr, uint, uint, uint]),
        "GetAsyncKeyState": (c.c_short, [c.c_int]),
        "VkKeyScanW": (c.c_short, [c.c_wchar]),
        "GetForegroundWindow": (handle, []),
        "SetForegroundWindow": (c.c_int, [handle]),
        "SendInput": (uint, [uint, ptr, c.c_int]),
    }
    for name, (restype, argtypes) in prototypes.items():
        function = getattr(lib, name)
        function.restype, function.argtypes = restype, argtypes
    return lib


def kernel32() -> Any:
    if sys.platform != "win32":
        raise WindowsUnavailable("not Windows")
    lib = ctypes.WinDLL("kernel32", use_last_error=True)
    lib.GetCurrentThreadId.restype, lib.GetCurrentThreadId.argtypes = ctypes.c_uint32, []
    return lib


class _MSG(ctypes.Structure):
    _fields_ = [
        ("hwnd", ctypes.c_void_p),
        ("message", ctypes.c_uint32),
        ("wParam", ctypes.c_size_t),
        ("lParam", ctypes.c_ssize_t),
        ("time", ctypes.c_uint32),
        ("pt_x", ctypes.c_int32),
        ("pt_y", ctypes.c_int32),
        ("lPrivate", ctypes.c_uint32),
    ]
