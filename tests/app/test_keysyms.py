"""Shortcut texts from the settings as the X server's keysyms and modifier masks."""

from __future__ import annotations

import pytest

from parley.app.desktop.keysyms import CONTROL_MASK, MOD1_MASK, MOD4_MASK, SHIFT_MASK, char_keysym, parse_shortcut


@pytest.mark.parametrize(
    ("text", "keysym", "modifiers"),
    [
        ("Ctrl+Alt+Space", 0x20, CONTROL_MASK | MOD1_MASK),
        ("Ctrl+Alt+Return", 0xFF0D, CONTROL_MASK | MOD1_MASK),
        ("Meta+Shift+D", ord("d"), MOD4_MASK | SHIFT_MASK),
        ("F9", 0xFFC6, 0),
        ("Shift+F12", 0xFFC9, SHIFT_MASK),
        ("Ctrl++", ord("+"), CONTROL_MASK),
        ("Alt+PgDown", 0xFF56, MOD1_MASK),
    ],
)
def test_shortcuts_become_keysyms_and_masks(text: str, keysym: int, modifiers: int) -> None:
    combo = parse_shortcut(text)
    assert (combo.keysym, combo.modifiers, combo.text) == (keysym, modifiers, text)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "is not a shortcut"),
        ("Space", "needs Ctrl, Alt or Meta"),
        ("Shift+A", "needs Ctrl, Alt or Meta"),
        ("Hyper+Space", "is not a modifier"),
        ("Ctrl+Launch(0)", "is not a key"),
        ("Ctrl+", "is not a shortcut"),
    ],
)
def test_unusable_shortcuts_say_why(text: str, says: str) -> None:
    with pytest.raises(ValueError, match=says.replace("(", r"\(")):
        parse_shortcut(text)


def test_characters_become_latin1_or_unicode_keysyms() -> None:
    assert [char_keysym(c) for c in "a~é\n\t"] == [0x61, 0x7E, 0xE9, 0xFF0D, 0xFF09]
    assert char_keysym("日") == 0x01000000 | 0x65E5
    assert char_keysym("😀") == 0x01000000 | 0x1F600
