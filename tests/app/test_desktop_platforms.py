"""The Windows and macOS halves of "Parley from anywhere", as far as they can be checked off
those systems: each shortcut's key and modifiers as the system's calls take them, the key event
records (their layout is what ``SendInput`` checks), the UTF-16 units of what is typed.  The
calls themselves run only on Windows (``test_desktop_wine.py`` runs them under Wine) and macOS.
"""

from __future__ import annotations

import ctypes
import sys

import pytest

from parley.app.desktop.keysyms import parse_shortcut
from parley.app.desktop.shortcuts import mac as mac_keys, windows as windows_keys
from parley.app.desktop.typing import mac as mac_typing, windows as windows_typing


def no_punctuation(_char: str) -> int | None:
    return None


@pytest.mark.parametrize(
    ("text", "modifiers", "vk"),
    [
        ("Ctrl+Alt+Space", windows_keys.MOD_CONTROL | windows_keys.MOD_ALT, 0x20),
        ("Ctrl+Alt+Return", windows_keys.MOD_CONTROL | windows_keys.MOD_ALT, 0x0D),
        ("Meta+F9", windows_keys.MOD_WIN, 0x78),
        ("Ctrl+Shift+K", windows_keys.MOD_CONTROL | windows_keys.MOD_SHIFT, 0x4B),
        ("Alt+7", windows_keys.MOD_ALT, 0x37),
        ("F24", 0, 0x87),
    ],
)
def test_windows_hotkeys_are_virtual_keys_with_no_repeat(text: str, modifiers: int, vk: int) -> None:
    assert windows_keys.hotkey(parse_shortcut(text), no_punctuation) == (modifiers | windows_keys.MOD_NOREPEAT, vk)


def test_windows_punctuation_comes_from_the_user_s_layout() -> None:
    asked: list[str] = []

    def layout(char: str) -> int | None:
        asked.append(char)
        return 0xBC if char == "," else None  # VK_OEM_COMMA on a US layout

    assert windows_keys.hotkey(parse_shortcut("Ctrl+,"), layout) == (
        windows_keys.MOD_CONTROL | windows_keys.MOD_NOREPEAT,
        0xBC,
    )
    assert windows_keys.hotkey(parse_shortcut("Ctrl+;"), layout) is None
    assert asked == [",", ";"]


def test_windows_characters_are_unicode_events_and_line_breaks_keys() -> None:
    down, up = windows_typing.KEYEVENTF_UNICODE, windows_typing.KEYEVENTF_UNICODE | windows_typing.KEYEVENTF_KEYUP
    assert windows_typing.char_events("é") == [(0, 0xE9, down), (0, 0xE9, up)]
    assert windows_typing.char_events("😀") == [(0, 0xD83D, down), (0, 0xD83D, up), (0, 0xDE00, down), (0, 0xDE00, up)]
    assert windows_typing.char_events("\n") == [(0x0D, 0, 0), (0x0D, 0, windows_typing.KEYEVENTF_KEYUP)]
    assert [vk for vk, _, _ in windows_typing.paste_events()] == [0x11, 0x56, 0x56, 0x11]


def test_windows_input_records_have_the_system_s_layout() -> None:
    """``SendInput`` refuses records whose size is not ``sizeof(INPUT)``: 40 bytes on 64-bit
    Windows, 28 on 32-bit; the keyboard part starts after the 4-byte type, aligned to 8 (4)."""
    pointer = ctypes.sizeof(ctypes.c_void_p)
    assert ctypes.sizeof(windows_typing.INPUT) == (40 if pointer == 8 else 28)
    assert windows_typing.INPUT.u.offset == pointer
    assert ctypes.sizeof(windows_typing.KEYBDINPUT) == (24 if pointer == 8 else 16)
    records = windows_typing.input_records(windows_typing.char_events("ß"))
    assert len(records) == 2 and records[0].type == windows_typing.INPUT_KEYBOARD
    assert (records[1].u.ki.wVk, records[1].u.ki.wScan, records[1].u.ki.dwFlags) == (0, 0xDF, 0x6)
    assert ctypes.sizeof(windows_keys._MSG) == (48 if pointer == 8 else 28)


@pytest.mark.parametrize(
    ("text", "code", "flags"),
    [
        ("Ctrl+Alt+Space", 0x31, mac_keys.FLAG_COMMAND | mac_keys.FLAG_OPTION),  # Qt: Ctrl is Command
        ("Meta+Alt+Return", 0x24, mac_keys.FLAG_CONTROL | mac_keys.FLAG_OPTION),  # and Meta is Control
        ("Alt+Space", 0x31, mac_keys.FLAG_OPTION),
        ("Ctrl+Shift+K", 0x28, mac_keys.FLAG_COMMAND | mac_keys.FLAG_SHIFT),
        ("Alt+5", 0x17, mac_keys.FLAG_OPTION),
        ("Alt+`", 0x32, mac_keys.FLAG_OPTION),
        ("F5", 0x60, 0),
    ],
)
def test_mac_shortcuts_are_key_codes_and_flags(text: str, code: int, flags: int) -> None:
    assert mac_keys.tap_key(parse_shortcut(text)) == (code, flags)


def test_mac_key_codes_are_one_per_key() -> None:
    codes = list(mac_keys._KEY_CODES.values())
    assert len(codes) == len(set(codes)), "two keys share a key code"
    assert mac_keys.tap_key(parse_shortcut("Alt+F21")) is None


def test_mac_characters_are_their_utf16_units() -> None:
    assert mac_typing.utf16_units("a") == [0x61]
    assert mac_typing.utf16_units("日") == [0x65E5]
    assert mac_typing.utf16_units("😀") == [0xD83D, 0xDE00]


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="this checks what happens elsewhere")
def test_elsewhere_the_platform_listeners_say_they_cannot_run() -> None:
    with pytest.raises(windows_keys.WindowsUnavailable):
        windows_keys.WindowsHotKeys(lambda *_: None, lambda *_: None)
    with pytest.raises(mac_keys.MacUnavailable):
        mac_keys.MacHotKeys(lambda *_: None, lambda *_: None)
