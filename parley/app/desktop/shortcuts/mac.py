"""System-wide shortcuts on macOS: a Quartz event tap (CoreGraphics, through ctypes; Qt-free).

A thread of its own runs a CFRunLoop with an event tap on the session's key events.  The tap
sees each key press and release before any application does: a shortcut's press, its
auto-repeats and its release are taken out of the stream (the app under the cursor never sees
them) and reported, everything else passes untouched.

- **Permission:** macOS lets a process filter key events only once the user has allowed it
  in System Settings > Privacy & Security > Accessibility (and Input Monitoring).  Without
  that, ``CGEventTapCreate`` returns nothing; Parley then asks macOS to show its prompt and
  ``grab`` reports, in words, where to allow it.  The permission counts from the next start.
- **Auto-repeat:** a repeat carries ``kCGKeyboardEventAutorepeat``; a shortcut already held is
  never pressed again.
- **Timeouts:** macOS disables a tap whose callback is slow; the tap is enabled again at once.
- **Shortcut names** follow Qt's convention on macOS: "Ctrl" is the Command key, "Meta" the
  Control key, "Alt" the Option key.  A tap cannot tell whether another program also uses a
  combination: Parley's tap simply sees it first.

Written to Apple's documentation of these calls; the key mapping is tested everywhere, the
calls themselves only on a Mac.
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

START_TIMEOUT_S = 5.0

K_CG_SESSION_EVENT_TAP, K_CG_HEAD_INSERT_EVENT_TAP, K_CG_EVENT_TAP_OPTION_DEFAULT = 1, 0, 0
K_CG_EVENT_KEY_DOWN, K_CG_EVENT_KEY_UP = 10, 11
K_CG_EVENT_TAP_DISABLED_BY_TIMEOUT, K_CG_EVENT_TAP_DISABLED_BY_USER_INPUT = 0xFFFFFFFE, 0xFFFFFFFF
K_CG_KEYBOARD_EVENT_AUTOREPEAT, K_CG_KEYBOARD_EVENT_KEYCODE = 8, 9
FLAG_SHIFT, FLAG_CONTROL, FLAG_OPTION, FLAG_COMMAND = 0x20000, 0x40000, 0x80000, 0x100000
FLAGS = FLAG_SHIFT | FLAG_CONTROL | FLAG_OPTION | FLAG_COMMAND

PERMISSION = (
    "macOS has not allowed Parley to watch the keyboard. Allow Parley in System Settings > "
    "Privacy & Security > Accessibility and > Input Monitoring, then start Parley again."
)

_ANSI_CHARS = "asdfhgzxcvbqweryt123465=97-80]ou[iplj'k;\\,/nm.`"
_ANSI_CODES = (*range(0x00, 0x0A), *range(0x0B, 0x24), *range(0x25, 0x30), 0x32)  # kVK_ANSI_A ... _Grave

# X keysyms (what ``KeyCombo`` holds) as macOS virtual key codes (Carbon's Events.h, kVK_*):
# the named keys, and the letters, digits and punctuation by their place on an ANSI keyboard.
_KEY_CODES = {
    0x0020: 0x31,  # space
    0xFF0D: 0x24,  # Return
    0xFF8D: 0x4C,  # the keypad's Enter
    0xFF09: 0x30,  # Tab
    0xFF08: 0x33,  # BackSpace (Delete)
    0xFF1B: 0x35,  # Escape
    0xFFFF: 0x75,  # Delete (Forward Delete)
    0xFF50: 0x73,  # Home
    0xFF57: 0x77,  # End
    0xFF55: 0x74,  # Page Up
    0xFF56: 0x79,  # Page Down
    0xFF51: 0x7B,  # Left
    0xFF52: 0x7E,  # Up
    0xFF53: 0x7C,  # Right
    0xFF54: 0x7D,  # Down
    **{ord(c): code for c, code in zip(_ANSI_CHARS, _ANSI_CODES, strict=True)},
}
_F_KEY_CODES: tuple[int, ...] = (0x7A, 0x78, 0x63, 0x76, 0x60, 0x61, 0x62, 0x64, 0x65, 0x6D, 0x67, 0x6F)
_F_KEY_CODES += (0x69, 0x6B, 0x71, 0x6A, 0x40, 0x4F, 0x50, 0x5A)  # F13-F20
_F1_KEYSYM = 0xFFBE


def tap_key(combo: KeyCombo) -> tuple[int, int] | None:
    """``combo`` as (macOS key code, modifier flags), or None when no key makes it."""
    keysym = combo.keysym
    if keysym in _KEY_CODES:
        code = _KEY_CODES[keysym]
    elif _F1_KEYSYM <= keysym < _F1_KEYSYM + len(_F_KEY_CODES):
        code = _F_KEY_CODES[keysym - _F1_KEYSYM]
    else:
        return None
    flags = 0
    # Qt's names on macOS: Ctrl is Command, Meta is Control.
    for mask, flag in (
        (CONTROL_MASK, FLAG_COMMAND),
        (MOD4_MASK, FLAG_CONTROL),
        (MOD1_MASK, FLAG_OPTION),
        (SHIFT_MASK, FLAG_SHIFT),
    ):
        if combo.modifiers & mask:
            flags |= flag
    return code, flags


class MacUnavailable(RuntimeError):
    """Not on macOS, or its frameworks could not be loaded."""


def frameworks() -> tuple[Any, Any]:
    """(ApplicationServices, CoreFoundation) with the prototypes Parley calls."""
    if sys.platform != "darwin":
        raise MacUnavailable("not macOS")
    try:
        quartz = ctypes.CDLL("/System/Library/Frameworks/ApplicationServices.framework/ApplicationServices")
        cf = ctypes.CDLL("/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation")
    except OSError as exc:
        raise MacUnavailable(f"the macOS frameworks could not be loaded: {exc}") from exc
    c, ptr = ctypes, ctypes.c_void_p
    prototypes: dict[tuple[Any, str], tuple[Any, list[Any]]] = {
        (quartz, "CGEventTapCreate"): (ptr, [c.c_uint32, c.c_uint32, c.c_uint32, c.c_uint64, ptr, ptr]),
        (quartz, "CGEventTapEnable"): (None, [ptr, c.c_bool]),
        (quartz, "CGEventGetIntegerValueField"): (c.c_int64, [ptr, c.c_uint32]),
        (quartz, "CGEventGetFlags"): (c.c_uint64, [ptr]),
        (quartz, "CGEventSetFlags"): (None, [ptr, c.c_uint64]),
        (quartz, "CGEventCreateKeyboardEvent"): (ptr, [ptr, c.c_uint16, c.c_bool]),
        (quartz, "CGEventKeyboardSetUnicodeString"): (None, [ptr, c.c_ulong, ptr]),
        (quartz, "CGEventPost"): (None, [c.c_uint32, ptr]),
        (quartz, "CGEventSourceFlagsState"): (c.c_uint64, [c.c_int32]),
        (quartz, "CGPreflightPostEventAccess"): (c.c_bool, []),
        (quartz, "CGRequestPostEventAccess"): (c.c_bool, []),
        (quartz, "CGRequestListenEventAccess"): (c.c_bool, []),
        (cf, "CFMachPortCreateRunLoopSource"): (ptr, [ptr, ptr, c.c_long]),
        (cf, "CFMachPortInvalidate"): (None, [ptr]),
        (cf, "CFRunLoopGetCurrent"): (ptr, []),
        (cf, "CFRunLoopAddSource"): (None, [ptr, ptr, ptr]),
        (cf, "CFRunLoopRun"): (None, []),
        (cf, "CFRunLoopStop"): (None, [ptr]),
        (cf, "CFRunLoopWakeUp"): (None, [ptr]),
        (cf, "CFRelease"): (None, [ptr]),
    }
    for (lib, name), (restype, argtypes) in prototypes.items():
        function = getattr(lib, name)
        function.restype, function.argtypes = restype, argtypes
    return quartz, cf


_TAP_CALLBACK = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p, ctypes.c_void_p)


class MacHotKeys:
    """The shortcuts of one Parley, seen by an event tap on a thread of its own (same interface
    as ``X11HotKeys``: ``grab``, ``start``, ``close``)."""

    def __init__(self, on_press: Callable[[str, int], None], on_release: Callable[[str], None]) -> None:
        self._on_press, self._on_release = on_press, on_release
        self._keys: dict[tuple[int, int], str] = {}  # (key code, flags) -> name
        self._held: dict[int, str] = {}  # key code -> name, while it is down
        self._problem: str | None = None
        self._loop: Any = None
        self._tap: Any = None
        self._callback = _TAP_CALLBACK(self._event)  # kept: the tap calls it for as long as it lives
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None
        self._quartz, self._cf = frameworks()  # MacUnavailable elsewhere

    def grab(self, combos: dict[str, KeyCombo]) -> dict[str, str]:
        """Listen for these shortcuts; returns the problem of each that cannot be had.  Call
        once: the tap's thread starts here, and this waits until the tap exists or failed."""
        problems: dict[str, str] = {}
        for name, combo in combos.items():
            mapped = tap_key(combo)
            if mapped is None:
                problems[name] = f"No key on this keyboard makes {combo.text}."
            else:
                self._keys[mapped] = name
        if not self._keys:
            return problems
        self._thread = threading.Thread(target=self._run, name="parley-mac-keys", daemon=True)
        self._thread.start()
        if not self._ready.wait(START_TIMEOUT_S):
            self._problem = "macOS did not answer when Parley set up its shortcuts."
        if self._problem is not None:
            problems.update(dict.fromkeys(self._keys.values(), self._problem))
        return problems

    def start(self) -> None:
        """The tap already runs (``grab`` started it)."""

    def close(self) -> None:
        loop = self._loop
        if loop is not None:
            self._cf.CFRunLoopStop(loop)
            self._cf.CFRunLoopWakeUp(loop)
        if self._thread is not None:
            self._thread.join(timeout=2.0)
            self._thread = None

    def _run(self) -> None:
        quartz, cf = self._quartz, self._cf
        mask = (1 << K_CG_EVENT_KEY_DOWN) | (1 << K_CG_EVENT_KEY_UP)
        tap = quartz.CGEventTapCreate(
            K_CG_SESSION_EVENT_TAP,
            K_CG_HEAD_INSERT_EVENT_TAP,
            K_CG_EVENT_TAP_OPTION_DEFAULT,
            mask,
            self._callback,
            None,
        )
        if not tap:
            quartz.CGRequestListenEventAccess()  # macOS shows its prompts (once)
            quartz.CGRequestPostEventAccess()
            self._problem = PERMISSION
            self._ready.set()
            return
        source = cf.CFMachPortCreateRunLoopSource(None, tap, 0)
        self._loop = cf.CFRunLoopGetCurrent()
        common_modes = ctypes.c_void_p.in_dll(cf, "kCFRunLoopCommonModes")
        cf.CFRunLoopAddSource(self._loop, source, common_modes)
        self._tap = tap
        quartz.CGEventTapEnable(tap, True)
        self._ready.set()
        try:
            cf.CFRunLoopRun()  # until close() stops it
        finally:
            quartz.CGEventTapEnable(tap, False)
            cf.CFMachPortInvalidate(tap)
            cf.CFRelease(source)
            cf.CFRelease(tap)
            self._tap = None
            self._loop = None

    def _event(self, _proxy: Any, kind: int, event: Any, _refcon: Any) -> Any:
        """The tap's callback, on the tap's thread: None takes the event out of the stream."""
        quartz = self._quartz
        if kind in (K_CG_EVENT_TAP_DISABLED_BY_TIMEOUT, K_CG_EVENT_TAP_DISABLED_BY_USER_INPUT):
            if self._tap is not None:
                quartz.CGEventTapEnable(self._tap, True)
            return event
        code = int(quartz.CGEventGetIntegerValueField(event, K_CG_KEYBOARD_EVENT_KEYCODE))
        try:
            if kind == K_CG_EVENT_KEY_UP:
                name = self._held.pop(code, None)
                if name is None:
                    return event
                self._on_release(name)
                return None
            if code in self._held:
                return None  # auto-repeat of a held shortcut
            name = self._keys.get((code, int(quartz.CGEventGetFlags(event)) & FLAGS))
            if name is None:
                return event
            if not quartz.CGEventGetIntegerValueField(event, K_CG_KEYBOARD_EVENT_AUTOREPEAT):
                self._held[code] = name
                self._on_press(name, 0)
            return None
        except Exception:  # noqa: BLE001 - an exception must not leave the callback (native frames)
            log.warning("the shortcut tap failed on an event", exc_info=True)
            return event
