"""The whole app, as a user meets it: start, talk, read the reply, close, open again.

Also ``parley --self-test`` and a GPU backend that fails to load, each in its own process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication

from parley.app.bootstrap import create_window, start_controller
from parley.app.conversations.store import Store
from parley.config.settings import Settings, save_settings
from parley.engine.textmetrics import word_error_rate
from tests.support.app_helpers import (  # noqa: F401 - fixtures
    LOAD_TIMEOUT_MS,
    QUESTION,
    REPLY_TIMEOUT_MS,
    broken_chat_config,
    idle,
    play,
    question_clip,
    run_python,
    tiny_chat_model,
)

REPO = Path(__file__).resolve().parents[2]


def _ctrl_space(window, kind):
    """What the keyboard sends for the default push-to-talk shortcut, Ctrl+Space."""
    QApplication.sendEvent(
        window.conversation_view, QKeyEvent(kind, Qt.Key.Key_Space, Qt.KeyboardModifier.ControlModifier, " ")
    )


@pytest.fixture
def app_folders(tmp_path, monkeypatch):
    """The app's data and config folders, in the test's temporary folder."""
    data, config = tmp_path / "data", tmp_path / "config"
    monkeypatch.setenv("PARLEY_DATA_DIR", str(data))
    monkeypatch.setenv("PARLEY_CONFIG_DIR", str(config))
    return data, config


@pytest.mark.slow
def test_talk_get_a_streamed_reply_close_and_find_it_again(qtbot, app_folders, mic, question_clip):
    """Default models, the real microphone path, the app's own start-up and its database."""
    data, _config = app_folders
    save_settings(Settings(microphone="pulse", max_tokens=40))
    window = create_window()
    qtbot.addWidget(window)
    controller = start_controller(window)  # loads the models once the window is up
    talk = window.input_bar.talk_button
    qtbot.waitUntil(talk.isEnabled, timeout=LOAD_TIMEOUT_MS)
    qtbot.waitUntil(lambda: controller.chat.model is not None, timeout=LOAD_TIMEOUT_MS)
    assert controller.speech.model.name == "whisper tiny.en"
    pieces, levels = [], []
    controller.reply_progress.connect(pieces.append)
    window.input_bar.level_meter.valueChanged.connect(levels.append)

    _ctrl_space(window, QEvent.Type.KeyPress)
    assert controller.talk.recorder is not None and window.input_bar.recording_row.isVisible()
    play(qtbot, mic, question_clip)
    with qtbot.waitSignal(controller.reply_finished, timeout=REPLY_TIMEOUT_MS) as finished:
        _ctrl_space(window, QEvent.Type.KeyRelease)
        assert not window.input_bar.recording_row.isVisible()
    reply, finish = finished.args
    qtbot.waitUntil(lambda: idle(controller))

    view = window.conversation_view
    (role_q, heard), (role_a, shown) = [(w.role, w.text) for w in view.messages]
    print(
        f"\nheard: {heard!r} (WER {word_error_rate(QUESTION, heard):.2f})\nreply ({len(pieces)} pieces, "
        f"{finish}): {reply!r}"
    )
    assert role_q == "user" and word_error_rate(QUESTION, heard) < 0.35
    assert role_a == "assistant" and shown == reply and reply.strip()
    assert len(pieces) > 1 and "".join(pieces).strip() == reply.strip()  # streamed, piece by piece
    assert finish in ("eog", "max_tokens") and max(levels) > 300
    assert window.windowTitle() == f"{heard} — Parley"
    stats = controller.book.store.load_conversation(controller.book.current.id).messages[1].stats
    assert stats["model"] == controller.chat.model.name and stats["generated_tokens"] > 1

    window.close()
    assert controller.stopped_cleanly is True
    assert (data / "conversations.sqlite3").is_file()

    window2 = create_window()
    qtbot.addWidget(window2)
    controller2 = start_controller(window2)
    qtbot.waitUntil(lambda: len(window2.conversation_view.messages) == 2)
    assert [(w.role, w.text) for w in window2.conversation_view.messages] == [("user", heard), ("assistant", reply)]
    assert window2.conversation_list.currentItem().text() == heard
    assert [(e.role, e.content, e.complete) for e in controller2.book.current.messages] == [
        ("user", heard, True),
        ("assistant", reply, True),
    ]
    qtbot.waitUntil(lambda: idle(controller2) and controller2.chat.model is not None, timeout=LOAD_TIMEOUT_MS)
    window2.close()
    assert controller2.stopped_cleanly is True
    store = Store(data / "conversations.sqlite3")
    assert len(store.list_conversations()) == 1
    store.close()


@pytest.mark.slow
def test_self_test_command(tmp_path):
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "PARLEY_DATA_DIR": str(tmp_path / "data"),
        "PARLEY_CONFIG_DIR": str(tmp_path / "config"),
    }
    started = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "parley", "--self-test"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    print(f"\n{proc.stdout}(took {time.perf_counter() - started:.1f} s)")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    # With a model pack installed, Parley starts on the starter, measures, and may load the
    # pack it chose: a second chat model load, after a "model choice" line.
    chose = any(line.strip().startswith("model choice") for line in lines)
    loads = sum(line.strip().startswith("chat model load") for line in lines)
    assert loads == 1 or (chose and loads == 2), proc.stdout
    for stage in (
        "window visible",
        "speech model load",
        "transcription",
        "first token",
        "full reply",
        "device",
    ):
        assert sum(line.strip().startswith(stage) for line in lines) == 1, stage
    transcription = next(line for line in lines if line.strip().startswith("transcription"))
    assert "What is the capital of France?" in transcription and "WER" in transcription
    assert lines[-1] == "self-test passed"
    assert not (tmp_path / "data").exists() and not (tmp_path / "config").exists()  # nothing written


def test_self_test_fails_with_the_reason(tmp_path):
    """A chat model that cannot be loaded: exit status 1 and the engine's reason on stderr."""
    config = broken_chat_config(tmp_path)
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "PARLEY_CONFIG_DIR": str(config),
        "PARLEY_DATA_DIR": str(tmp_path / "data"),
    }
    proc = subprocess.run(
        [sys.executable, "-m", "parley", "--self-test"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "self-test FAILED" in proc.stderr and "The chat model could not be loaded" in proc.stderr
    assert "broken.gguf" in proc.stderr


_WATCH_START = """
import json, sys
from PySide6.QtCore import QTimer
from parley.app.bootstrap import create_app, create_window, start_controller

app = create_app(sys.argv)
window = create_window()
messages = []
window.statusBar().messageChanged.connect(messages.append)
controller = start_controller(window)
ready = set()

def report():
    print(json.dumps({
        "messages": messages, "current": window.statusBar().currentMessage(),
        "device": window.device_label.text(), "device_tooltip": window.device_label.toolTip(),
        "fallbacks": [
            controller.speech.model.device.fallback_reason,
            controller.chat.model.device.fallback_reason,
        ],
        "devices": [controller.speech.model.device.device.name, controller.chat.model.device.device.name],
    }))
    window.close()
    app.quit()

def loaded(role):
    ready.add(role)
    if ready == {"speech", "chat"}:
        QTimer.singleShot(0, report)

controller.speech_ready.connect(lambda _model: loaded("speech"))
controller.chat_ready.connect(lambda _model: loaded("chat"))
controller.load_failed.connect(lambda _role, message: (print(message, file=sys.stderr), app.exit(3)))
sys.exit(app.exec())
"""


def _start_and_watch(tmp_path: Path, tiny_chat_model: Path, env: dict[str, str]) -> dict:
    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.json").write_text(json.dumps({"chat_model": str(tiny_chat_model)}))
    proc = run_python(
        _WATCH_START,
        env={
            "QT_QPA_PLATFORM": "offscreen",
            "PARLEY_CONFIG_DIR": str(config),
            "PARLEY_DATA_DIR": str(tmp_path / "data"),
            **env,
        },
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_a_gpu_backend_that_fails_to_load_means_the_cpu_said_once(tmp_path, tiny_chat_model, broken_gpu_libdir):
    seen = _start_and_watch(tmp_path, tiny_chat_model, {"PARLEY_LIB_DIR": str(broken_gpu_libdir)})

    reason = seen["fallbacks"][0]
    assert seen["devices"] == ["CPU", "CPU"] and seen["fallbacks"] == [reason, reason]
    assert "CUDA backend (libggml-cuda.so) failed to load" in reason and reason.endswith("using the CPU")
    told = [m for m in seen["messages"] if "failed to load" in m]
    assert told == [reason]  # both engines fell back: said once
    assert seen["current"] == reason  # and not replaced by "model ready" notes
    assert seen["device"] == "Device: CPU (fallback)" and reason in seen["device_tooltip"]


def test_without_a_fallback_nothing_is_said_about_one(tmp_path, tiny_chat_model):
    seen = _start_and_watch(tmp_path, tiny_chat_model, {})
    assert seen["fallbacks"] == [None, None]
    assert not [m for m in seen["messages"] if "failed to load" in m or "using the CPU" in m]
    assert "fallback" not in seen["device"] and seen["device"] == f"Device: {seen['devices'][1]}"
