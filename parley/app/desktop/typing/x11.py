"""Typing into the focused application on X11 with XTEST (python-xlib, Qt-free).

The X server handles XTEST key events as it handles the keyboard's, so the text reaches
whatever window has the focus, in any application and any keyboard layout:

- a character the layout has on its first two levels is typed with its key (and Shift);
- any other character (accents the layout lacks, CJK, emoji) is typed on a spare key code, one
  that no keysym uses, mapped for the moment to that character's Unicode keysym and restored
  afterwards.  Up to as many distinct characters as there are spare codes share one mapping
  change.  A client reads a new mapping only when it gets to the notice of the change, so
  the mapping settles before the keys that use it and stays until they have been read;
- modifiers still held from the shortcut (the user's Ctrl and Alt) would turn letters into
  commands, so typing waits until they are let go.

One ``X11Keyboard`` is used by one thread at a time (a worker thread: typing sleeps).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from ..keysyms import char_keysym

log = logging.getLogger("parley.typing")

MAPPING_SETTLE_S = 0.05  # for clients to fetch a changed mapping, and to read keys before it changes again
MAX_SPARE_CODES = 16
MODIFIER_WAIT_S = 3.0  # the longest the user may keep the shortcut's modifiers down
MAX_TYPED_CHARS = 20_000  # a transcript is far shorter; anything longer is cut, not typed forever
_MODIFIER_KEYSYMS = (0xFFE1, 0xFFE2, 0xFFE3, 0xFFE4, 0xFFE9, 0xFFEA, 0xFFEB, 0xFFEC, 0xFE03)  # Shift..Super, AltGr
_SHIFT_L, _CONTROL_L = 0xFFE1, 0xFFE3
_V = 0x0076


class X11Keyboard:
    """A connection to the X server named by ``display`` (None: ``$DISPLAY``) for XTEST input."""

    def __init__(self, display: str | None = None) -> None:
        from Xlib import X, display as xdisplay
        from Xlib.ext import xtest

        self._X, self._xtest = X, xtest
        self._display = xdisplay.Display(display)
        if not self._display.has_extension("XTEST"):
            self._display.close()
            raise RuntimeError("the X server has no XTEST extension, so Parley cannot type into other apps")

    def close(self) -> None:
        self._display.close()

    def focus(self) -> int:
        """The window that has the keyboard focus (its X id; 0 or 1 for none or PointerRoot)."""
        focus = self._display.get_input_focus().focus
        return focus if isinstance(focus, int) else int(focus.id)

    def set_focus(self, window: int) -> None:
        """Give the focus back to ``window`` (the app that had it when a quick ask began): asked of
        the window manager (``_NET_ACTIVE_WINDOW``) where one runs, and set directly as well."""
        if window <= 1:
            return
        from Xlib import protocol

        display = self._display
        target = display.create_resource_object("window", window)
        root = display.screen().root
        active = display.intern_atom("_NET_ACTIVE_WINDOW")
        event = protocol.event.ClientMessage(window=target, client_type=active, data=(32, [2, 0, 0, 0, 0]))
        mask = self._X.SubstructureRedirectMask | self._X.SubstructureNotifyMask
        root.send_event(event, event_mask=mask)
        target.set_input_focus(self._X.RevertToParent, self._X.CurrentTime, onerror=lambda *_: None)
        display.sync()

    def wait_for_modifiers_up(self, timeout: float = MODIFIER_WAIT_S) -> bool:
        """Wait until no modifier key is held; False if one still was at ``timeout``."""
        codes = {c for sym in _MODIFIER_KEYSYMS for c, _ in self._display.keysym_to_keycodes(sym)}
        deadline = time.monotonic() + timeout
        while True:
            keymap = self._display.query_keymap()
            if not any(keymap[c // 8] & (1 << (c % 8)) for c in codes):
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.02)

    def type_text(self, text: str, delay_s: float = 0.0, cancelled: Callable[[], bool] = lambda: False) -> int:
        """Type ``text`` into the focused window, ``delay_s`` between characters; returns how many
        characters were typed (fewer if ``cancelled()`` became true)."""
        text = text[:MAX_TYPED_CHARS]
        spare = self._spare_keycodes()
        typed = 0
        remapped = False
        try:
            i = 0
            while i < len(text):
                if cancelled():
                    break
                chunk, mapped = self._next_chunk(text, i, spare)
                if mapped:
                    if remapped:
                        time.sleep(MAPPING_SETTLE_S)  # the keys typed on the old mapping are read first
                    for code, keysym in zip(spare, mapped, strict=False):
                        self._display.change_keyboard_mapping(code, [(keysym, keysym)])
                    self._display.sync()
                    time.sleep(MAPPING_SETTLE_S)
                    remapped = True
                for code, shifted in chunk:
                    self._tap(code, shifted)
                    typed += 1
                    if delay_s:
                        time.sleep(delay_s)
                i += len(chunk)
        finally:
            if remapped:
                time.sleep(MAPPING_SETTLE_S)
                for code in spare:
                    self._display.change_keyboard_mapping(code, [(0, 0)])
                self._display.sync()
        return typed

    def paste(self, keys: str = "ctrl+v") -> None:
        """Ctrl+V (``keys`` "ctrl+shift+v": Ctrl+Shift+V, a terminal's paste) in the focused
        window (the clipboard holds the text by then)."""
        control = self._display.keysym_to_keycode(_CONTROL_L)
        v = self._display.keysym_to_keycode(_V)
        self._key(control, True)
        self._tap(v, keys == "ctrl+shift+v")
        self._key(control, False)
        self._display.sync()

    def _next_chunk(self, text: str, start: int, spare: list[int]) -> tuple[list[tuple[int, bool]], list[int]]:
        """Key taps for the characters from ``start`` on, until the spare codes run out; and the
        keysyms to map onto the spare codes first (empty: none needed)."""
        taps: list[tuple[int, bool]] = []
        mapped: list[int] = []
        for char in text[start:]:
            keysym = char_keysym(char)
            direct = next(
                ((code, index == 1) for code, index in self._display.keysym_to_keycodes(keysym) if index in (0, 1)),
                None,
            )
            if direct is not None and direct[0] not in spare:
                taps.append(direct)
                continue
            if keysym not in mapped:
                if len(mapped) == len(spare):
                    break  # the next mapping change starts here
                mapped.append(keysym)
            taps.append((spare[mapped.index(keysym)], False))
        if not taps and not spare:
            raise RuntimeError("this keyboard has no spare key code to type characters its layout lacks")
        return taps, mapped

    def _spare_keycodes(self) -> list[int]:
        """Key codes with no keysym at all, highest first (where keyboards have no keys)."""
        info = self._display.display.info
        first, count = info.min_keycode, info.max_keycode - info.min_keycode + 1
        mapping = self._display.get_keyboard_mapping(first, count)
        spare = [first + offset for offset in range(count - 1, -1, -1) if not any(mapping[offset])]
        return spare[:MAX_SPARE_CODES]

    def _tap(self, code: int, shifted: bool) -> None:
        if shifted:
            self._key(self._display.keysym_to_keycode(_SHIFT_L), True)
        self._key(code, True)
        self._key(code, False)
        if shifted:
            self._key(self._display.keysym_to_keycode(_SHIFT_L), False)
        self._display.sync()

    def _key(self, code: int, down: bool) -> None:
        self._xtest.fake_input(self._display, self._X.KeyPress if down else self._X.KeyRelease, code)
