"""Dictation typed into another app on Wayland: a real headless sway (wlroots, which offers a
virtual keyboard) with foot as the other app, Parley's Typist in a Qt app on that compositor;
weston, which offers none, for the message; and hostile compositors for the wire reader."""

from __future__ import annotations

import os
import socket
import struct
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from parley.app.desktop.typing import wayland
from tests.support.wayland import compositor, receiving_terminal

pytestmark = pytest.mark.wayland
REPO = Path(__file__).resolve().parents[2]
WORDS = "Grüße aus Köln, ½ price: 東京 ✓ 😀 — naïve café"


def _typist_in_a_qt_app(env: dict[str, str], text: str, method: str = "type") -> subprocess.CompletedProcess[str]:
    script = textwrap.dedent(
        f"""
        import sys
        from PySide6.QtCore import QTimer
        from PySide6.QtGui import QGuiApplication
        from parley.app.desktop.typing.typist import Typist, can_type
        app = QGuiApplication([])
        print("platform", app.platformName(), "can_type", repr(can_type()), flush=True)
        typist = Typist()
        typist.finished.connect(lambda text, problem: (print("problem", repr(problem), flush=True), app.quit()))
        QTimer.singleShot(0, lambda: typist.type({text!r}, method={method!r}))
        QTimer.singleShot(20000, app.quit)
        app.exec()
        """
    )
    full = {**os.environ, **env, "QT_QPA_PLATFORM": "wayland", "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-c", script], env=full, capture_output=True, text=True, timeout=60)


def test_a_dictation_is_typed_into_the_focused_app_on_sway() -> None:
    with compositor("sway") as session, receiving_terminal(session) as out:
        done = _typist_in_a_qt_app(session.env(), WORDS + "\n")
        assert done.returncode == 0, done.stderr[-2000:]
        assert "platform wayland can_type None" in done.stdout, done.stdout + done.stderr[-2000:]
        assert "problem ''" in done.stdout, done.stdout + done.stderr[-2000:]
        deadline = time.monotonic() + 5
        while out.read_text("utf-8") != WORDS + "\n" and time.monotonic() < deadline:
            time.sleep(0.05)
        assert out.read_text("utf-8") == WORDS + "\n", "every character arrives as it is, in any layout"
        # The paste setting: a Wayland app without the focus cannot set the clipboard, so it types.
        again = _typist_in_a_qt_app(session.env(), "second take\n", method="paste")
        assert "problem ''" in again.stdout, again.stdout + again.stderr[-2000:]
        while out.read_text("utf-8").count("\n") < 2 and time.monotonic() < deadline + 5:
            time.sleep(0.05)
        assert out.read_text("utf-8") == WORDS + "\nsecond take\n"


def test_a_long_text_with_more_distinct_characters_than_one_keymap_holds() -> None:
    text = "".join(chr(0x4E00 + i) for i in range(wayland.MAX_KEYS_PER_KEYMAP + 40)) + "\n"
    with compositor("sway") as session, receiving_terminal(session) as out:
        keyboard = wayland.VirtualKeyboard(session.socket)
        try:
            assert keyboard.type_text(text) == len(text)
        finally:
            keyboard.close()
        deadline = time.monotonic() + 5
        while out.read_text("utf-8") != text and time.monotonic() < deadline:
            time.sleep(0.05)
        assert out.read_text("utf-8") == text


def test_a_desktop_without_a_virtual_keyboard_is_said_plainly() -> None:
    with compositor("weston") as session:
        problem = wayland.virtual_keyboard_problem(session.socket)
        assert problem == wayland.NO_VIRTUAL_KEYBOARD
        with pytest.raises(wayland.WaylandTypingError, match="offers no virtual keyboard"):
            wayland.VirtualKeyboard(session.socket)
        done = _typist_in_a_qt_app(session.env(), "hello")
        problem = next(line for line in done.stdout.splitlines() if line.startswith("problem"))
        assert "This Wayland desktop offers no virtual keyboard" in problem, done.stdout + done.stderr
        assert "cannot type into other apps here" in problem
    with compositor("sway") as session:
        assert wayland.virtual_keyboard_problem(session.socket) is None


def _hostile(tmp_path: Path, answer: Callable[[socket.socket], None]) -> Path:
    path = tmp_path / "hostile"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen(1)

    def serve() -> None:
        conn, _ = server.accept()
        try:
            conn.recv(4096)
            answer(conn)
            conn.settimeout(10)
            while conn.recv(4096):  # open until the client gives up and hangs up
                pass
        except OSError:
            pass
        finally:
            conn.close()
            server.close()

    threading.Thread(target=serve, daemon=True).start()
    return path


def _message(obj: int, opcode: int, payload: bytes) -> bytes:
    return struct.pack("<II", obj, ((8 + len(payload)) << 16) | opcode) + payload


@pytest.mark.parametrize(
    ("answer", "problem"),
    [
        (lambda c: c.sendall(struct.pack("<II", 2, (4 << 16) | 0)), "malformed message"),
        (lambda c: c.sendall(struct.pack("<II", 2, (65532 << 16) | 0)), "malformed message"),
        (lambda c: c.sendall(_message(2, 0, struct.pack("<II", 1, 64) + b"wl_seat\0")), "truncated|malformed"),
        (lambda c: c.sendall(_message(2, 0, struct.pack("<II", 1, 4) + b"abcd" + b"\0\0\0\0")), "malformed string"),
        (lambda c: [c.sendall(_message(9, 0, b"")) for _ in range(wayland.MAX_EVENTS + 1)], "more events"),
        (lambda c: None, "did not answer in time"),  # a peer that stalls
        (lambda c: c.shutdown(socket.SHUT_RDWR), "closed the connection"),
        (lambda c: c.sendall(_message(1, 0, struct.pack("<II", 1, 3) + struct.pack("<I", 4) + b"bad\0")), "refused"),
    ],
)
def test_a_hostile_compositor_is_a_clear_error_not_a_hang(
    tmp_path: Path, answer: Callable[[socket.socket], None], problem: str
) -> None:
    path = _hostile(tmp_path, answer)
    started = time.monotonic()
    with pytest.raises(wayland.WaylandTypingError, match=problem):
        wayland.VirtualKeyboard(path, timeout=1.0)
    assert time.monotonic() - started < 5


def test_on_wayland_settings_says_the_modes_per_application_cannot_work() -> None:
    """No Wayland app may know which window has the focus: the per-application modes say so in
    Settings > Dictation, and no dictation is given an application."""
    script = textwrap.dedent(
        """
        from PySide6.QtWidgets import QApplication
        from parley.app.desktop.typing.typist import app_modes_problem, focused_application
        from parley.app.settings_flow import dictation_help
        from parley.app.ui.dictation_settings import DictationPage
        from parley.config.settings import Settings
        app = QApplication([])
        page = DictationPage(Settings(), dictation_help(Settings()))
        print("platform", app.platformName(), flush=True)
        print("focused", repr(focused_application()), flush=True)
        print("told", page.app_modes_problem.text(), flush=True)
        """
    )
    with compositor("sway") as session:
        full = {**os.environ, **session.env(), "QT_QPA_PLATFORM": "wayland", "PYTHONPATH": str(REPO)}
        done = subprocess.run([sys.executable, "-c", script], env=full, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "platform wayland" in done.stdout and "focused None" in done.stdout, done.stdout
    assert "told On Wayland no application may know which window has the focus" in done.stdout, done.stdout
