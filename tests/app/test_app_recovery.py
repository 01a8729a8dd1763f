"""Nothing lost on a crash: a real Parley process killed with SIGKILL while a reply streams.

The app runs in a child process on the tiny random-weight llama (a reply that never ends by
itself) with its data folder in the test's temporary folder; it is killed mid-reply, then the
test starts the app again on the same database, as the user would.

The child kills itself, from its UI thread, right after it notes the reply it has shown: the
database then holds exactly what a kill at that moment leaves, so the loss measures the
checkpoints' promise (at most about a second of the reply), not how long a kill sent from
another process takes to arrive while the reply goes on.  Lengths are Python's: the random
model writes NUL characters, where SQLite's ``length()`` stops counting.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import Qt

from tests.support.app_helpers import (  # noqa: F401 - fixtures
    make_controller,
    tiny_chat_model,
    tiny_settings,
    wait_idle,
)

REPO = Path(__file__).resolve().parents[2]
STREAM_S = 3.0  # the child streams this long, then is killed
PROMISE_S = 1.0  # at most about this much of the reply may be lost

_CHILD = """
import json, os, signal, sys, time
from PySide6.QtCore import QTimer
from parley.app.bootstrap import create_app, create_window, start_controller
from parley.config.settings import Settings

mode, model = sys.argv[1], sys.argv[2]
app = create_app(sys.argv[:1])
window = create_window()
controller = start_controller(window, settings=Settings(chat_model=model, context_length=8192,
                                                        max_tokens=8192, threads=1))
first_text = []

def ready(_model):
    controller.replies.send("Tell me a long story")
    if mode == "before-reply":          # the message is saved; no token has reached the window yet
        os.kill(os.getpid(), signal.SIGKILL)
    controller.reply_progress.connect(lambda _piece: first_text or first_text.append(time.monotonic()))
    def check():
        if first_text and time.monotonic() - first_text[0] >= STREAM_S:
            shown = {"text": controller.replies.text, "seconds": time.monotonic() - first_text[0]}
            print(json.dumps(shown), flush=True)
            os.kill(os.getpid(), signal.SIGKILL)        # as a crash would, with nothing more saved
    timer = QTimer(interval=50)
    timer.timeout.connect(check)
    timer.start()
    controller._keep_timer = timer

controller.chat_ready.connect(ready)
controller.load_failed.connect(lambda _role, message: (print(message, file=sys.stderr), app.exit(3)))
app.exec()
"""


def _run_and_kill(tmp_path: Path, model: Path, mode: str) -> tuple[str, float] | None:
    """Run the child until it kills itself; mid-reply: the reply it had shown, and for how many
    seconds it had been streaming."""
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "PARLEY_DATA_DIR": str(tmp_path),
        "PARLEY_CONFIG_DIR": str(tmp_path / "config"),
        "PYTHONPATH": str(REPO),
    }
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD.replace("STREAM_S", repr(STREAM_S)), mode, str(model)],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        out, err = child.communicate(timeout=120)
        assert child.returncode == -signal.SIGKILL, err
        if mode == "before-reply":
            return None
        shown = json.loads(out)
        return shown["text"], shown["seconds"]
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def test_a_reply_killed_mid_stream_is_kept_and_can_be_continued_or_retried(qtbot, tmp_path, tiny_chat_model):
    shown, seconds = _run_and_kill(tmp_path, tiny_chat_model, "mid-reply")
    # The database as the killed process left it: the reply checkpointed, still marked streaming.
    raw = sqlite3.connect(tmp_path / "conversations.sqlite3")
    rows = raw.execute("SELECT role, content, state FROM messages ORDER BY id").fetchall()
    raw.close()
    assert [(r, s) for r, _, s in rows] == [("user", "complete"), ("assistant", "streaming")]
    kept = rows[1][1]
    assert shown.startswith(kept)
    streamed = len(shown)
    rate = streamed / seconds  # characters a second, as shown
    print(
        f"\nstreamed {streamed} characters in {seconds:.2f} s, stored {len(kept)}: "
        f"{(streamed - len(kept)) / rate:.2f} s of the reply lost"
    )
    assert streamed - len(kept) <= PROMISE_S * rate, "more than about a second of the reply was lost"

    controller = make_controller(qtbot, tmp_path, **tiny_settings(tiny_chat_model, max_tokens=30))
    messages = controller.book.current.messages
    assert [(m.role, m.state) for m in messages] == [("user", "complete"), ("assistant", "interrupted")]
    widget = controller.window.conversation_view.messages[-1]
    assert "interrupted" in widget.footer_label.text()
    assert not widget.continue_button.isHidden() and not widget.regenerate_button.isHidden()
    assert widget.regenerate_button.text() == "Retry"
    assert "did not close properly" in controller.window.statusBar().currentMessage()
    before = messages[-1].content

    qtbot.mouseClick(widget.continue_button, Qt.MouseButton.LeftButton)  # Continue
    wait_idle(qtbot, controller)
    continued = controller.book.current.messages[-1]
    assert continued.state == "complete" and continued.content.startswith(before)
    assert len(continued.content) > len(before) and widget.text == continued.content
    assert widget.continue_button.isHidden() and widget.regenerate_button.text() == "Regenerate"
    continued_text = continued.content

    controller.replies.regenerate()  # and Retry writes a new one
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
    assert [(m.role, m.state) for m in controller.book.current.messages] == [
        ("user", "complete"),
        ("assistant", "complete"),
    ]
    assert widget.reply_button.isHidden() and controller.book.current.messages[-1].content
