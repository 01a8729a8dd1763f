"""Typing into other apps through the desktop portal's RemoteDesktop keyboard (GNOME, KDE on
Wayland), against the documented interface.

GNOME's and KDE's portal backends need their compositors and a user session, so the
conversation is tested against ``tests/support/fake_portal.py`` on a private session bus (a
portal that follows the documentation: sessions, Request/Response, the restore token), and the
whole path in a Qt app on weston, a real compositor that, like GNOME and KDE, offers no virtual
keyboard.  Not run: a real desktop's portal and its consent dialog.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from parley.app.desktop.typing.portal import PortalKeyboard, PortalTypingUnavailable, portal_keyboard_problem
from tests.app.test_portal_shortcuts import Portal, bus  # noqa: F401 - fixture
from tests.support.wayland import compositor

REPO = Path(__file__).resolve().parents[2]


def _keysyms(portal: Portal, count: int) -> list[str]:
    return [portal.lines.next(10).strip() for _ in range(count)]


def test_each_character_is_sent_as_its_keysym_and_the_desktop_s_answer_is_remembered(
    bus: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    portal = Portal(bus)
    token = tmp_path / "token"
    try:
        keyboard = PortalKeyboard(bus_address=bus, token_file=token)
        assert portal.lines.next(10).strip() == "select restore=-"
        assert portal.lines.next(10).strip() == "started"
        assert keyboard.type_text("Kö ✓\n") == 5
        keyboard.close()
        expected = [f"keysym {k:x} {s}" for k in (0x4B, 0xF6, 0x20, 0x1002713, 0xFF0D) for s in (1, 0)]
        assert _keysyms(portal, 10) == expected
        assert token.read_text() == "token-1"
        assert portal.lines.next(10).strip() == "closed", "the session ends with the dictation"
        PortalKeyboard(bus_address=bus, token_file=token).close()
        assert portal.lines.next(10).strip() == "select restore=token-1", "the next session starts without asking"
    finally:
        portal.stop()


def test_declining_in_the_desktop_s_dialog_is_said(bus: str, tmp_path: Path) -> None:  # noqa: F811
    portal = Portal(bus, "--decline")
    try:
        with pytest.raises(PortalTypingUnavailable, match="you declined"):
            PortalKeyboard(bus_address=bus, token_file=tmp_path / "token")
        assert not (tmp_path / "token").exists()
    finally:
        portal.stop()


def test_a_portal_without_a_remote_keyboard(bus: str, tmp_path: Path) -> None:  # noqa: F811
    portal = Portal(bus, "--no-remote-desktop")
    try:
        assert portal_keyboard_problem(bus) == "the desktop portal offers no remote keyboard"
        with pytest.raises(PortalTypingUnavailable, match="no remote keyboard"):
            PortalKeyboard(bus_address=bus, token_file=tmp_path / "token")
    finally:
        portal.stop()


@pytest.mark.parametrize("content", [b"", b"bad token with spaces", b"x" * 5000, b"\xff\xfe"])
def test_a_damaged_restore_token_is_not_sent(bus: str, tmp_path: Path, content: bytes) -> None:  # noqa: F811
    portal = Portal(bus)
    token = tmp_path / "token"
    token.write_bytes(content)
    try:
        PortalKeyboard(bus_address=bus, token_file=token).close()
        assert portal.lines.next(10).strip() == "select restore=-"
        assert token.read_text() == "token-1", "replaced by the desktop's new one"
    finally:
        portal.stop()


@pytest.mark.wayland
def test_on_a_desktop_without_a_virtual_keyboard_the_dictation_goes_through_the_portal(
    bus: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    """A Qt app on weston (no virtual keyboard, like GNOME and KDE): can_type finds the portal's
    keyboard and the Typist types through it."""
    portal = Portal(bus)
    script = textwrap.dedent(
        """
        from PySide6.QtCore import QTimer
        from PySide6.QtGui import QGuiApplication
        from parley.app.desktop.typing.typist import Typist, can_type
        app = QGuiApplication([])
        print("can_type", repr(can_type()), flush=True)
        typist = Typist()
        typist.finished.connect(lambda text, problem: (print("problem", repr(problem), flush=True), app.quit()))
        QTimer.singleShot(0, lambda: typist.type("Hé!"))
        QTimer.singleShot(20000, app.quit)
        app.exec()
        """
    )
    try:
        with compositor("weston") as session:
            env = {
                **os.environ,
                **session.env(),
                "QT_QPA_PLATFORM": "wayland",
                "PYTHONPATH": str(REPO),
                "DBUS_SESSION_BUS_ADDRESS": bus,
                "PARLEY_CACHE_DIR": str(tmp_path),
            }
            done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60)
        assert "can_type None" in done.stdout and "problem ''" in done.stdout, done.stdout + done.stderr[-2000:]
        assert portal.lines.next(10).strip() == "select restore=-"
        assert portal.lines.next(10).strip() == "started"
        assert _keysyms(portal, 6) == [f"keysym {k:x} {s}" for k in (0x48, 0xE9, 0x21) for s in (1, 0)]
        assert (tmp_path / "remote-desktop-token").read_text() == "token-1"
    finally:
        portal.stop()


def test_a_restore_token_that_is_a_fifo_is_not_read(bus: str, tmp_path: Path) -> None:  # noqa: F811
    portal = Portal(bus)
    token = tmp_path / "token"
    os.mkfifo(token)
    try:
        PortalKeyboard(bus_address=bus, token_file=token).close()
        assert portal.lines.next(10).strip() == "select restore=-", "a FIFO never blocks the dictation"
    finally:
        portal.stop()
