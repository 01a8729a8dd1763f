"""X11 names for what Parley's settings hold: a shortcut's key and modifiers, a character's keysym.

Qt-free and pure: the settings store shortcuts as Qt's portable text ("Ctrl+Alt+Space"), and the
X server speaks keysyms and modifier masks.
"""

from __future__ import annotations

from dataclasses import dataclass

# Core protocol modifier masks (X.h).
SHIFT_MASK = 1 << 0
LOCK_MASK = 1 << 1
CONTROL_MASK = 1 << 2
MOD1_MASK = 1 << 3  # Alt
MOD2_MASK = 1 << 4  # Num Lock on common layouts
MOD4_MASK = 1 << 6  # Super ("Meta" in Qt's names)

MODIFIERS = {"ctrl": CONTROL_MASK, "shift": SHIFT_MASK, "alt": MOD1_MASK, "meta": MOD4_MASK}

# Qt's key names where X's differ (keysymdef.h); letters, digits and the rest map by character.
_NAMED_KEYS = {
    "space": 0x0020,
    "return": 0xFF0D,
    "enter": 0xFF8D,  # the keypad's
    "tab": 0xFF09,
    "backspace": 0xFF08,
    "esc": 0xFF1B,
    "escape": 0xFF1B,
    "ins": 0xFF63,
    "insert": 0xFF63,
    "del": 0xFFFF,
    "delete": 0xFFFF,
    "home": 0xFF50,
    "end": 0xFF57,
    "pgup": 0xFF55,
    "pgdown": 0xFF56,
    "left": 0xFF51,
    "up": 0xFF52,
    "right": 0xFF53,
    "down": 0xFF54,
    "pause": 0xFF13,
    "print": 0xFF61,
    "menu": 0xFF67,
    "scrolllock": 0xFF14,
}
_F1 = 0xFFBE
_SPECIAL_CHARS = {"\n": 0xFF0D, "\t": 0xFF09}  # typed as Return and Tab


@dataclass(frozen=True)
class KeyCombo:
    """A shortcut as the X server sees it: one keysym and a mask of modifiers."""

    keysym: int
    modifiers: int
    text: str  # as the user set it, for messages


def parse_shortcut(text: str) -> KeyCombo:
    """Qt's portable text of a one-key shortcut ("Ctrl+Alt+Space", "Meta+F9") as a ``KeyCombo``;
    ValueError says what is wrong.  Needs at least one modifier unless the key is a function key:
    a grab of a plain letter would take it from every application."""
    parts = [p.strip() for p in text.split("+")] if text.strip() else []
    if text.endswith("++"):  # "Ctrl++": the plus key itself
        parts = [*parts[:-2], "+"]
    if not parts or any(not p for p in parts):
        raise ValueError(f"{text!r} is not a shortcut")
    *mods, key = parts
    mask = 0
    for mod in mods:
        if mod.lower() not in MODIFIERS:
            raise ValueError(f"{mod!r} in {text!r} is not a modifier (Ctrl, Alt, Shift or Meta)")
        mask |= MODIFIERS[mod.lower()]
    keysym = _key_keysym(key)
    if keysym is None:
        raise ValueError(f"{key!r} in {text!r} is not a key Parley can listen for")
    is_function_key = _F1 <= keysym <= _F1 + 34
    if not mask & ~SHIFT_MASK and not is_function_key:
        raise ValueError(f"{text!r} needs Ctrl, Alt or Meta: without one it would take the key from every application")
    return KeyCombo(keysym, mask, text)


def _key_keysym(key: str) -> int | None:
    lowered = key.lower()
    if lowered in _NAMED_KEYS:
        return _NAMED_KEYS[lowered]
    if len(lowered) > 1 and lowered[0] == "f" and lowered[1:].isdigit() and 1 <= int(lowered[1:]) <= 35:
        return _F1 + int(lowered[1:]) - 1
    if len(key) == 1:
        return char_keysym(lowered)
    return None


def char_keysym(char: str) -> int:
    """The keysym that types ``char``: Latin-1 by code, the rest as Unicode keysyms (0x01000000 +
    the code point), which every XKB client understands."""
    if char in _SPECIAL_CHARS:
        return _SPECIAL_CHARS[char]
    code = ord(char)
    if 0x20 <= code <= 0x7E or 0xA0 <= code <= 0xFF:
        return code
    return 0x01000000 | code


_PUNCTUATION = {
    "+": "plus",
    "-": "minus",
    ",": "comma",
    ".": "period",
    "/": "slash",
    ";": "semicolon",
    "'": "apostrophe",
    "[": "bracketleft",
    "]": "bracketright",
    "\\": "backslash",
    "`": "grave",
    "=": "equal",
}
_XKB_NAMES = {
    0x0020: "space",
    0xFF0D: "Return",
    0xFF8D: "KP_Enter",
    0xFF09: "Tab",
    0xFF08: "BackSpace",
    0xFF1B: "Escape",
    0xFF63: "Insert",
    0xFFFF: "Delete",
    0xFF50: "Home",
    0xFF57: "End",
    0xFF55: "Prior",
    0xFF56: "Next",
    0xFF51: "Left",
    0xFF52: "Up",
    0xFF53: "Right",
    0xFF54: "Down",
    0xFF13: "Pause",
    0xFF61: "Print",
    0xFF67: "Menu",
    0xFF14: "Scroll_Lock",
    **{ord(c): name for c, name in _PUNCTUATION.items()},
}


def xkb_name(keysym: int) -> str:
    """The keysym's name as XKB (and the XDG shortcuts specification) writes it."""
    if keysym in _XKB_NAMES:
        return _XKB_NAMES[keysym]
    if _F1 <= keysym <= _F1 + 34:
        return f"F{keysym - _F1 + 1}"
    if 0x30 <= keysym <= 0x39 or 0x61 <= keysym <= 0x7A:
        return chr(keysym)
    return f"U{keysym & 0xFFFFFF:04X}"
