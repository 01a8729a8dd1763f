"""Parley's portal clients on a real KDE Plasma 5.27 desktop, headless (``tests/support/kde.py``):
kwin_wayland, xdg-desktop-portal and xdg-desktop-portal-kde, with keys pressed through the
portal's RemoteDesktop keyboard, which kwin treats like a real keyboard.

Each test has a desktop of its own (a fresh runtime folder, so no keys bound by an earlier run).
Plasma 5.27's portal binds only the shortcuts given in ``CreateSession`` and names their owner
after the session token: the first test binds, presses and releases Ctrl+Alt+Space, held past
kwin's key repeat, then starts Parley again on the same desktop, which must get the key again.
Not covered: a sandboxed (Flatpak) Parley, for which KDE would show its dialogs.
"""

from __future__ import annotations

import queue
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from parley.app.desktop.keysyms import parse_shortcut
from parley.app.desktop.shortcuts.portal import SESSION_TOKEN, PortalShortcuts
from parley.app.desktop.typing.portal import PortalKeyboard
from tests.support.kde import (
    KEY_LEFTALT,
    KEY_LEFTCTRL,
    KEY_SPACE,
    KdeSession,
    PortalKeys,
    kde_desktop,
    receiving_terminal,
)

pytestmark = pytest.mark.wayland
CHORD = [KEY_LEFTCTRL, KEY_LEFTALT, KEY_SPACE]
KGLOBALACCEL_COMPONENT = "org.kde.kglobalaccel.Component"


@pytest.fixture
def kde() -> Iterator[KdeSession]:
    with kde_desktop() as session:
        yield session


class Heard:
    """What Parley's PortalShortcuts reports, in order, from its thread."""

    def __init__(self, session: KdeSession) -> None:
        self.events: queue.Queue[object] = queue.Queue()
        self.client = PortalShortcuts(
            lambda name, _time: self.events.put(("press", name)),
            lambda name: self.events.put(("release", name)),
            lambda problems: self.events.put(("bound", problems)),
            bus_address=session.bus,
        )
        self.client.start({"dictate": parse_shortcut("Ctrl+Alt+Space")})

    def next(self, timeout: float = 10.0) -> object:
        try:
            return self.events.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"Parley reported nothing within {timeout:g} s") from None

    def nothing_more(self, wait_s: float = 0.3) -> bool:
        try:
            extra = self.events.get(timeout=wait_s)
        except queue.Empty:
            return True
        raise AssertionError(f"Parley reported more: {extra}")


class ShortcutSpy:
    """Counts kwin's own ``globalShortcutPressed`` for Parley's shortcut owner (one per repeat)."""

    def __init__(self, session: KdeSession) -> None:
        from jeepney import MatchRule

        from parley.app.desktop import portal as portal_bus

        self.conn = portal_bus.open_bus(session.bus, AssertionError)
        self.rule = MatchRule(
            type="signal",
            interface=KGLOBALACCEL_COMPONENT,
            member="globalShortcutPressed",
            path=f"/component/{SESSION_TOKEN}",
        )
        portal_bus.add_match(self.conn, self.rule)

    def pressed(self) -> int:
        count = 0
        with self.conn.filter(self.rule, bufsize=1000) as signals:
            while True:
                try:
                    msg: Any = self.conn.recv_until_filtered(signals, timeout=0.3)
                except TimeoutError:
                    return count
                count += msg.body[1] == "dictate"

    def close(self) -> None:
        self.conn.close()


def test_dictate_key_held_on_kde_is_one_press_and_one_release_run_after_run(kde: KdeSession) -> None:
    keys, spy = PortalKeys(kde), ShortcutSpy(kde)
    try:
        for run in (1, 2):  # the second run finds the first one's owner, and its key
            heard = Heard(kde)
            try:
                assert heard.next() == ("bound", {}), f"run {run}"
                keys.chord(CHORD, hold_s=1.0)  # past kwin's repeat delay (0.6 s): Activated repeats
                assert heard.next() == ("press", "dictate"), f"run {run}"
                assert heard.next() == ("release", "dictate"), f"run {run}"
                assert heard.nothing_more()
            finally:
                heard.client.close()
            assert spy.pressed() > 3, f"run {run}: kwin did not repeat the held shortcut"
    finally:
        spy.close()
        keys.close()


def test_portal_keyboard_types_a_sentence_into_the_focused_app_on_kde(kde: KdeSession, tmp_path: Path) -> None:
    sentence = "Hello from Parley, (1+1=2) & 'quotes'? #ok\n"
    with receiving_terminal(kde) as terminal:
        keyboard = PortalKeyboard(bus_address=kde.bus, token_file=tmp_path / "token")
        try:
            assert keyboard.type_text(sentence) == len(sentence)
        finally:
            keyboard.close()
        assert terminal.wait_for(sentence) == sentence
