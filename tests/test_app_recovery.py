"""Nothing lost on a crash: a real Parley process killed with SIGKILL while a reply streams.

The app runs in a child process on the tiny random-weight llama (a reply that never ends by
itself) with its data folder in the test's temporary folder; the test kills it mid-reply, then
starts the app again on the same database, as the user would.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import Qt

from tests.app_helpers import (  # noqa: F401 - fixtures
    make_controller,
    tiny_chat_model,
    tiny_settings,
    wait_idle,
)

REPO = Path(__file__).resolve().parents[1]
STREAM_S = 3.0              # the child streams this long before saying so (and is killed)

_CHILD = """
import os, signal, sys, time
from PySide6.QtCore import QTimer
from parley.app.bootstrap import create_app, create_window, start_controller
from parley.app.settings import Settings

mode, model = sys.argv[1], sys.argv[2]
app = create_app(sys.argv[:1])
window = create_window()
controller = start_controller(window, settings=Settings(chat_model=model, context_length=8192,
                                                        max_tokens=8192, threads=1))
pieces = []

def ready(_model):
    controller.replies.send("Tell me a long story")
    if mode == "before-reply":          # the message is saved; no token has reached the window yet
        os.kill(os.getpid(), signal.SIGKILL)
    started = time.monotonic()
    def check():
        if time.monotonic() - started >= STREAM_S:
            print(len(controller.replies.text), flush=True)
            timer.stop()
    timer = QTimer(interval=50)
    timer.timeout.connect(check)
    timer.start()
    controller._keep_timer = timer

controller.chat_ready.connect(ready)
controller.load_failed.connect(lambda _role, message: (print(message, file=sys.stderr), app.exit(3)))
app.exec()
"""


def _run_and_kill(tmp_path: Path, model: Path, mode: str) -> int | None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PARLEY_DATA_DIR": str(tmp_path),
           "PARLEY_CONFIG_DIR": str(tmp_path / "config"), "PYTHONPATH": str(REPO)}
    child = subprocess.Popen([sys.executable, "-c", _CHILD.replace("STREAM_S", repr(STREAM_S)), mode, str(model)],
                             cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        if mode == "before-reply":
            child.wait(timeout=120)
            assert child.returncode == -signal.SIGKILL, child.stderr.read()
            return None
        line = child.stdout.readline()
        assert line.strip().isdigit(), child.stderr.read() if child.poll() is not None else line
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        return int(line)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def test_a_reply_killed_mid_stream_is_kept_and_can_be_continued_or_retried(qtbot, tmp_path, tiny_chat_model):
    streamed = _run_and_kill(tmp_path, tiny_chat_model, "mid-reply")
    # The database as the killed process left it: the reply checkpointed, still marked streaming.
    raw = sqlite3.connect(tmp_path / "conversations.sqlite3")
    rows = raw.execute("SELECT role, length(content), state FROM messages ORDER BY id").fetchall()
    raw.close()
    print(f"\nstreamed {streamed} characters in {STREAM_S} s before the kill; stored: {rows}")
    assert [(r, s) for r, _, s in rows] == [("user", "complete"), ("assistant", "streaming")]
    kept = rows[1][1]
    rate = streamed / STREAM_S                                   # characters a second
    assert streamed - kept <= 1.5 * rate + 50, "more than about a second of the reply was lost"

    controller = make_controller(qtbot, tmp_path, **tiny_settings(tiny_chat_model, max_tokens=30))
    messages = controller.book.current.messages
    assert [(m.role, m.state) for m in messages] == [("user", "complete"), ("assistant", "interrupted")]
    widget = controller.window.conversation_view.messages[-1]
    assert "interrupted" in widget.footer_label.text()
    assert not widget.continue_button.isHidden() and not widget.regenerate_button.isHidden()
    assert widget.regenerate_button.text() == "Retry"
    assert "did not close properly" in controller.window.statusBar().currentMessage()
    before = messages[-1].content

    qtbot.mouseClick(widget.continue_button, Qt.MouseButton.LeftButton)      # Continue
    wait_idle(qtbot, controller)
    continued = controller.book.current.messages[-1]
    assert continued.state == "complete" and continued.content.startswith(before)
    assert len(continued.content) > len(before) and widget.text == continued.content
    assert widget.continue_button.isHidden() and widget.regenerate_button.text() == "Regenerate"
    continued_text = continued.content

    controller.replies.regenerate()                                          # and Retry writes a new one
    wait_idle(qtbot, controller)
    assert controller.book.current.messages[-1].content not in ("", continued_text)
    stored = controller.book.store.load_conversation(controller.book.current.id).messages
    assert [(m.role, m.state) for m in stored] == [("user", "complete"), ("assistant", "complete")]


def test_a_message_left_without_a_reply_offers_reply(qtbot, tmp_path, tiny_chat_model):
    _run_and_kill(tmp_path, tiny_chat_model, "before-reply")
    controller = make_controller(qtbot, tmp_path, **tiny_settings(tiny_chat_model, max_tokens=12))
    assert [(m.role, m.content) for m in controller.book.current.messages] == [("user", "Tell me a long story")]
    widget = controller.window.conversation_view.messages[-1]
    assert widget.role == "user" and not widget.reply_button.isHidden()
    qtbot.mouseClick(widget.reply_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, controller)
    assert [(m.role, m.state) for m in controller.book.current.messages] == [("user", "complete"),
                                                                             ("assistant", "complete")]
    assert widget.reply_button.isHidden() and controller.book.current.messages[-1].content
