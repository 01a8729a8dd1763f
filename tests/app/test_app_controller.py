"""The controller on the real engines: talk, type, stop, regenerate, close, and what goes wrong.

Every test runs the real window (offscreen) and ``LocalEngines``: Whisper tiny.en, a chat model
(the tiny random-weight llama unless the words matter), and, where a test is about audio, the
PortAudio ``pulse`` device recording the PulseAudio virtual microphone.
"""

from __future__ import annotations

import time

import pytest
from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication

from parley.app.conversations.store import Store
from parley.app.engines import LocalEngines
from parley.app.voice.read_aloud import ReadAloud
from parley.config.settings import Settings, load_settings
from parley.engine.modelfiles.defaults import default_chat_model_path, default_speech_model_path
from parley.engine.textmetrics import word_error_rate
from tests.support.app_helpers import (  # noqa: F401 - fixtures
    LOAD_TIMEOUT_MS,
    QUESTION,
    idle,
    make_controller,
    play,
    question_clip,
    read_clip,
    speak,
    start_endless_reply,
    status,
    stored,
    tiny_chat_model,
    tiny_settings,
    wait_idle,
    write_tiny_chat_model,
)
from tests.support.requirements import require

NO_PULSE = "unix:/nonexistent/parley-test/native"  # a PulseAudio server address nothing listens on


def _space(controller, kind):
    view = controller.window.conversation_view
    QApplication.sendEvent(view, QKeyEvent(kind, Qt.Key.Key_Space, Qt.KeyboardModifier.NoModifier, " "))


def _user_texts(controller):
    return [e.content for e in controller.book.current.messages if e.role == "user"]


def _truncated_copy(source, target, size):
    with open(source, "rb") as f:
        target.write_bytes(f.read(size))
    return target


# ---------------------------------------------------------------- start-up


def test_models_load_after_the_window_then_talk_and_send_are_enabled(qtbot, tmp_path, tiny_chat_model, mic):
    controller = make_controller(
        qtbot, tmp_path, wait_ready=False, microphone="pulse", **tiny_settings(tiny_chat_model)
    )
    messages = []
    controller.window.statusBar().messageChanged.connect(messages.append)
    bar = controller.window.input_bar
    assert not bar.talk_button.isEnabled() and "loading" in bar.talk_button.toolTip()
    assert bar.send_button.toolTip() == "The chat model is still loading…"
    wait_idle(qtbot, controller, LOAD_TIMEOUT_MS)
    assert bar.talk_button.isEnabled(), bar.talk_button.toolTip()
    bar.edit.setPlainText("hi")
    assert bar.send_button.isEnabled()
    window = controller.window
    assert window.models_label.text() == "tiny-llama · whisper tiny.en"  # the file, not its metadata name
    assert "Chat: tiny-llama-0 (" in window.models_label.toolTip()
    device = controller.chat.model.device.device.name
    assert controller.chat.model.device.fallback_reason is None
    assert window.device_label.text() == f"Device: {device}"  # no "(fallback)" without one
    assert not [m for m in messages if "fallback" in m.lower() or "using the CPU" in m]
    assert "pulse" in controller.microphones.names
    assert controller.devices_in_use() == [f"Speech: {device}", f"Chat: {device}"]  # no GPU here: nothing to explain


# ---------------------------------------------------------------- push-to-talk


def test_send_on_release_off_puts_the_transcript_in_the_text_box(qtbot, tmp_path, tiny_chat_model, mic, question_clip):
    controller = make_controller(
        qtbot, tmp_path, microphone="pulse", send_on_release=False, **tiny_settings(tiny_chat_model)
    )
    levels = []
    controller.window.input_bar.level_meter.valueChanged.connect(levels.append)
    speak(qtbot, controller, mic, question_clip)
    edit = controller.window.input_bar.edit
    qtbot.waitUntil(lambda: edit.toPlainText() != "", timeout=30_000)
    assert word_error_rate(QUESTION, edit.toPlainText()) < 0.35, edit.toPlainText()
    assert controller.book.current.messages == []
    assert max(levels) > 300  # the meter followed the speech (-60..0 dBFS shown as 0..1000)


def test_silence_is_not_transcribed_and_sends_nothing(qtbot, tmp_path, tiny_chat_model, mic):
    """Whisper makes up words for silence ("you"): a silent take is never transcribed."""
    controller = make_controller(qtbot, tmp_path, microphone="pulse", **tiny_settings(tiny_chat_model))
    heard = []
    controller.transcribed.connect(heard.append)
    controller.spoken_turn.pressed()
    recorder = controller.talk.recorder
    qtbot.waitUntil(lambda: recorder.elapsed >= 1.0, timeout=30_000)  # a second of the idle microphone
    controller.spoken_turn.released()
    assert heard == [""] and "No speech was heard" in status(controller)
    assert not controller.speech.busy
    assert controller.book.current.messages == [] and controller.window.conversation_view.messages == []


def test_a_too_short_clip_is_not_transcribed(qtbot, tmp_path, tiny_chat_model, mic):
    controller = make_controller(qtbot, tmp_path, microphone="pulse", **tiny_settings(tiny_chat_model))
    controller.spoken_turn.pressed()
    assert controller.talk.recorder is not None
    controller.spoken_turn.released()
    assert "too short" in status(controller)
    assert not controller.speech.busy and controller.book.current.messages == []


def test_a_recording_that_reaches_the_limit_is_sent_as_if_released(
    qtbot, tmp_path, tiny_chat_model, mic, question_clip
):
    controller = make_controller(
        qtbot, tmp_path, microphone="pulse", send_on_release=False, **tiny_settings(tiny_chat_model)
    )
    controller.talk.max_seconds = 1.5
    heard, messages = [], []
    controller.transcribed.connect(heard.append)
    controller.window.statusBar().messageChanged.connect(messages.append)
    controller.spoken_turn.pressed()
    recording_row = controller.window.input_bar.recording_row
    player = mic.play(question_clip, wait=False)  # 3.7 s: longer than the limit
    qtbot.waitUntil(lambda: not recording_row.isVisible(), timeout=30_000)
    assert player.poll() is None  # stopped by the limit, not by the end of the clip
    assert [m for m in messages if m.startswith("Recordings stop after 1.5 s")]
    qtbot.waitUntil(lambda: bool(heard), timeout=30_000)
    qtbot.waitUntil(lambda: player.poll() is not None, timeout=30_000)
    controller.spoken_turn.released()  # the key is let go later: nothing more happens
    text = controller.window.input_bar.edit.toPlainText()
    assert heard == [text] and text.split()[0].lower().startswith("how")
    assert word_error_rate(QUESTION, text) > 0.3  # only the start of the question was kept
    assert not controller.speech.busy


# ---------------------------------------------------------------- replies


def test_stop_keeps_the_partial_reply_marked_incomplete(qtbot, tmp_path, tiny_chat_model):
    controller = make_controller(qtbot, tmp_path, **tiny_settings(tiny_chat_model))
    widget = start_endless_reply(qtbot, controller)
    bar = controller.window.input_bar
    assert bar.send_button.text() == "Stop"
    finished = []
    controller.reply_finished.connect(lambda text, finish: finished.append((text, finish)))
    qtbot.mouseClick(bar.send_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not controller.replies.busy)
    role, content, complete = stored(controller)[-1]
    assert role == "assistant" and not complete and len(content) >= 20
    assert finished == [(content, "cancelled")]
    message = controller.book.store.load_conversation(controller.book.current.id).messages[-1]
    assert message.stats["finish"] == "cancelled" and message.stats["generated_tokens"] < 8192
    assert widget.text == content and "stopped" in widget.footer_label.text()
    assert bar.send_button.text() == "Send"


def test_push_to_talk_during_a_reply_stops_it_first(qtbot, tmp_path, tiny_chat_model, mic, question_clip):
    controller = make_controller(qtbot, tmp_path, microphone="pulse", **tiny_settings(tiny_chat_model))
    start_endless_reply(qtbot, controller)
    controller.spoken_turn.pressed()
    assert controller.talk.recorder is not None
    qtbot.waitUntil(lambda: not controller.replies.busy)
    assert stored(controller)[-1][2] is False  # the interrupted reply, kept as partial
    play(qtbot, mic, question_clip)
    controller.spoken_turn.released()
    # >= 3: the tiny model's reply may add the 4th message in the same turn of the event loop
    qtbot.waitUntil(lambda: len(controller.book.current.messages) >= 3, timeout=30_000)
    assert controller.book.current.messages[2].role == "user"
    assert controller.replies.busy  # the new question is being answered
    qtbot.waitUntil(lambda: bool(controller.replies.text))
    controller.stop()
    wait_idle(qtbot, controller)
    assert [r for r, _, _ in stored(controller)] == ["user", "assistant", "user", "assistant"]
    assert word_error_rate(QUESTION, stored(controller)[2][1]) < 0.35


def test_a_transcript_that_arrives_while_a_reply_streams_is_sent_after_it(
    qtbot, tmp_path, tiny_chat_model, question_clip
):
    controller = make_controller(qtbot, tmp_path, **tiny_settings(tiny_chat_model))
    start_endless_reply(qtbot, controller)
    with qtbot.waitSignal(controller.transcribed, timeout=30_000) as heard:
        assert controller.spoken_turn.recorded(read_clip(question_clip))
    assert controller.replies.busy and controller.replies.queued == [heard.args[0]]  # held back, not dropped
    controller.stop()
    qtbot.waitUntil(lambda: len(controller.book.current.messages) >= 3)  # the reply may add the 4th at once
    assert controller.book.current.messages[2].content == heard.args[0]
    qtbot.waitUntil(lambda: bool(controller.replies.text))
    controller.stop()
    wait_idle(qtbot, controller)
    assert [r for r, _, _ in stored(controller)] == ["user", "assistant", "user", "assistant"]


def test_the_model_reads_the_conversation_before_the_message_comes(qtbot, tmp_path, tiny_chat_model):
    """Read when the model is ready, and when another conversation is opened: the reply then
    reads little more than the message, not the system prompt and the turns before it."""
    controller = make_controller(qtbot, tmp_path, **tiny_settings(tiny_chat_model, max_tokens=8))
    model, text = controller.chat.model, "Name a colour"
    system = len(model.tokenize(controller.settings.system_prompt))
    assert system > 30, system
    for turn in range(2):
        qtbot.waitUntil(lambda: controller.replies.synced, timeout=30_000)
        wait_idle(qtbot, controller)
        assert controller.replies.send(text)
        wait_idle(qtbot, controller)
        read = controller.book.current.messages[-1].stats["prompt_tokens"]
        assert read < system and read <= len(model.tokenize(text)) + 24, (turn, read, system)
        first = controller.book.current.id
        controller.book.new()  # then the first conversation again: its turn is read too
        assert controller.book.current.id != first
        controller.book.open(first)
        assert controller.book.current.id == first


def test_regenerate_replaces_the_last_reply(qtbot, tmp_path, tiny_chat_model):
    controller = make_controller(qtbot, tmp_path, **tiny_settings(tiny_chat_model, max_tokens=12))
    controller.replies.send("Name a colour")
    wait_idle(qtbot, controller)
    first_text = controller.book.current.messages[-1].content
    first_id = controller.book.current.messages[-1].id
    widget = controller.window.conversation_view.messages[-1]
    assert not widget.regenerate_button.isHidden()
    qtbot.mouseClick(widget.regenerate_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, controller)
    new_text = controller.book.current.messages[-1].content
    assert new_text and new_text != first_text
    assert stored(controller) == [("user", "Name a colour", True), ("assistant", new_text, True)]
    assert controller.book.current.messages[-1].id == first_id
    assert len(controller.window.conversation_view.messages) == 2 and widget.text == new_text
    assert [(m.role, m.content) for m in controller.chat.session.messages[-2:]] == [
        ("user", "Name a colour"),
        ("assistant", new_text),
    ]


def test_a_failed_reply_is_reported_and_can_be_retried(qtbot, tmp_path, tiny_chat_model):
    """A message too long for the context: the engine's own error, then a retry with more room."""
    controller = make_controller(qtbot, tmp_path, **tiny_settings(tiny_chat_model, max_tokens=12, context_length=256))
    long_message = "Please read this. " * 80
    controller.replies.send(long_message)
    wait_idle(qtbot, controller)
    assert "too many for the 256-token context" in controller.window.notice.label.text()
    widget = controller.window.conversation_view.messages[-1]
    assert widget.role == "assistant" and "No reply" in widget.footer_label.text()
    assert stored(controller) == [("user", long_message.strip(), True)]

    bigger = controller.settings.copy()
    bigger.context_length = 4096
    controller.settings_flow.apply(bigger)
    wait_idle(qtbot, controller, LOAD_TIMEOUT_MS)
    controller.replies.regenerate()
    wait_idle(qtbot, controller)
    role, reply, complete = stored(controller)[-1]
    assert role == "assistant" and reply and complete
    assert len(controller.window.conversation_view.messages) == 2
    assert [(m.role, m.content) for m in controller.chat.session.messages[-2:]] == [
        ("user", long_message.strip()),
        ("assistant", reply),
    ]


def test_switching_conversations_gives_the_session_that_conversations_history(qtbot, tmp_path, tiny_chat_model):
    controller = make_controller(qtbot, tmp_path, **tiny_settings(tiny_chat_model, max_tokens=8))
    controller.replies.send("first chat")
    wait_idle(qtbot, controller)
    first = controller.book.current.id
    controller.book.new()
    controller.replies.send("second chat")
    wait_idle(qtbot, controller)
    controller.book.open(first)
    controller.replies.send("back again")
    wait_idle(qtbot, controller)
    session = controller.chat.session
    assert [m.content for m in session.messages if m.role == "user"] == ["first chat", "back again"]
    assert [m.content for m in session.messages if m.role == "assistant"] == [
        e.content for e in controller.book.current.messages if e.role == "assistant"
    ]


# ---------------------------------------------------------------- closing


def test_closing_mid_reply_saves_the_partial_reply_and_stops_the_engines(qtbot, tmp_path, tiny_chat_model):
    controller = make_controller(qtbot, tmp_path, **tiny_settings(tiny_chat_model))
    widget = start_endless_reply(qtbot, controller)
    shown = widget.text
    conversation_id = controller.book.current.id
    chat_model, speech_model = controller.chat.model, controller.speech.model
    started = time.perf_counter()
    controller.window.close()
    elapsed = time.perf_counter() - started
    print(f"\nclosing mid-reply took {elapsed * 1000:.0f} ms")
    assert controller.stopped_cleanly is True
    assert not controller.host.running
    assert chat_model.closed and speech_model.closed  # both engines closed
    store = Store(tmp_path / "conversations.sqlite3")
    messages = store.load_conversation(conversation_id).messages
    store.close()
    assert [(m.role, m.complete) for m in messages] == [("user", True), ("assistant", False)]
    assert messages[1].content.startswith(shown)


class _PacedConversion(LocalEngines):
    """The real engines, with the first-use conversion of the speech model held after each
    chunk until the job is cancelled (30 s at most): however fast this machine converts, the
    window closes while the conversion is still running, and only a close that cancels the
    conversion lets it end early."""

    def speech_model_path(self, setting, progress, cancel=None):  # noqa: ANN001, ANN201 - Engines' signature
        def paced(fraction: float) -> None:
            progress(fraction)
            deadline = time.monotonic() + 30
            while not cancel.cancelled and time.monotonic() < deadline:
                time.sleep(0.01)

        return super().speech_model_path(setting, paced, cancel)


def test_closing_while_the_speech_model_is_prepared_leaves_no_partial_file(
    qtbot, tmp_path, tiny_chat_model, monkeypatch
):
    """First use converts the speech model; closing then stops the conversion between chunks."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("PARLEY_CACHE_DIR", str(cache))
    controller = make_controller(
        qtbot, tmp_path, wait_ready=False, engines=_PacedConversion(), **tiny_settings(tiny_chat_model)
    )
    closed = []

    def close_on_first_progress(text):
        if text.startswith("Preparing the speech model (first use only)") and not closed:
            closed.append(True)
            QTimer.singleShot(0, controller.window.close)  # as a click on the close button would, between events

    controller.window.statusBar().messageChanged.connect(close_on_first_progress)
    qtbot.waitUntil(lambda: controller.stopped_cleanly is not None, timeout=LOAD_TIMEOUT_MS)
    assert closed and controller.stopped_cleanly is True and controller.speech.model is None
    assert "could not be loaded" not in controller.window.notice.label.text()
    models = cache / "models"
    assert not models.exists() or list(models.iterdir()) == []  # stopped: no partial file, and no finished one


# ---------------------------------------------------------------- microphones


def test_no_microphone_disables_push_to_talk_but_not_typing(qtbot, tmp_path, tiny_chat_model, monkeypatch):
    """No sound server answers (PulseAudio not running): PortAudio finds no input device."""
    from parley.engine.audio.capture import list_input_devices

    monkeypatch.setenv("PULSE_SERVER", NO_PULSE)
    if list_input_devices(refresh=True):
        pytest.skip("this machine has a hardware microphone")
    controller = make_controller(qtbot, tmp_path, **tiny_settings(tiny_chat_model, max_tokens=8))
    talk = controller.window.input_bar.talk_button
    assert controller.microphones.names == []
    assert not talk.isEnabled() and "No microphone was found" in talk.toolTip()
    assert "Type a message" in controller.window.conversation_view.hint_label.text()
    _space(controller, QEvent.Type.KeyPress)
    _space(controller, QEvent.Type.KeyRelease)
    assert controller.talk.recorder is None and "No microphone was found" in status(controller)
    wait_idle(qtbot, controller)  # the press looked for microphones again: still none
    assert not talk.isEnabled()
    assert controller.replies.send("typed instead")
    wait_idle(qtbot, controller)
    assert [(r, c) for r, _, c in stored(controller)] == [("user", True), ("assistant", True)]
    assert stored(controller)[1][1]


def test_a_microphone_that_cannot_be_opened_is_reported_and_found_again(
    qtbot, tmp_path, tiny_chat_model, mic, monkeypatch
):
    controller = make_controller(qtbot, tmp_path, microphone="pulse", **tiny_settings(tiny_chat_model))
    talk = controller.window.input_bar.talk_button
    assert talk.isEnabled()
    monkeypatch.setenv("PULSE_SERVER", NO_PULSE)  # the sound server goes away after the app started
    controller.spoken_turn.pressed()
    assert controller.talk.recorder is None
    assert "could not be opened" in status(controller) and "'pulse'" in status(controller)
    assert not talk.isEnabled() and "could not be opened" in talk.toolTip()
    assert not controller.window.input_bar.recording_row.isVisible()

    monkeypatch.delenv("PULSE_SERVER")  # it is back: the next press looks again
    controller.spoken_turn.pressed()
    qtbot.waitUntil(talk.isEnabled, timeout=30_000)
    controller.spoken_turn.pressed()
    assert controller.talk.recorder is not None
    controller.spoken_turn.released()


@pytest.mark.parametrize("recorded", ["the question", "nothing"])
def test_losing_the_microphone_mid_recording(qtbot, tmp_path, tiny_chat_model, mic, question_clip, recorded):
    controller = make_controller(qtbot, tmp_path, microphone="pulse", **tiny_settings(tiny_chat_model, max_tokens=8))
    heard = []
    controller.transcribed.connect(heard.append)
    controller.spoken_turn.pressed()
    recorder = controller.talk.recorder
    assert recorder is not None
    if recorded == "the question":
        play(qtbot, mic, question_clip)
    else:
        qtbot.waitUntil(lambda: recorder.elapsed > 0, timeout=30_000)  # the stream is connected
    mic.unload_source()  # unplugged while the key is still held
    notice = controller.window.notice
    qtbot.waitUntil(lambda: "stopped working" in notice.label.text(), timeout=30_000)
    assert not controller.window.input_bar.recording_row.isVisible()
    controller.spoken_turn.released()  # the key is let go afterwards: nothing more happens
    if recorded == "the question":
        assert "What it recorded until then is transcribed" in notice.label.text()
        qtbot.waitUntil(lambda: len(controller.book.current.messages) == 2, timeout=30_000)
        wait_idle(qtbot, controller)
        assert word_error_rate(QUESTION, _user_texts(controller)[0]) < 0.35
    else:
        assert "Nothing was heard" in notice.label.text()
        wait_idle(qtbot, controller)
        assert heard == [] and controller.book.current.messages == []
    # The app carries on: the microphones were looked for again, and typing works.
    wait_idle(qtbot, controller)
    assert controller.microphones.names is not None
    assert controller.replies.send("still here")
    wait_idle(qtbot, controller)
    assert _user_texts(controller)[-1] == "still here" and stored(controller)[-1][0] == "assistant"


# ---------------------------------------------------------------- model files


def test_a_bad_speech_model_leaves_typed_chat_working(qtbot, tmp_path, tiny_chat_model):
    broken = _truncated_copy(default_speech_model_path(), tmp_path / "whisper-broken.bin", 1 << 20)
    controller = make_controller(
        qtbot, tmp_path, speech_model=str(broken), **tiny_settings(tiny_chat_model, max_tokens=8)
    )
    bar = controller.window.input_bar
    notice = controller.window.notice.label.text()
    assert "The speech model could not be loaded" in notice and "whisper-broken.bin" in notice
    assert "Typed chat still works" in notice
    assert not bar.talk_button.isEnabled() and "whisper-broken.bin" in bar.talk_button.toolTip()
    assert "Speech model unavailable" in controller.window.models_label.text()
    assert controller.replies.send("still works")
    wait_idle(qtbot, controller)
    assert [r for r, _, _ in stored(controller)] == ["user", "assistant"]


def test_a_bad_chat_model_disables_sending_and_keeps_transcripts(qtbot, tmp_path, question_clip):
    broken = _truncated_copy(default_chat_model_path(), tmp_path / "chat-broken.gguf", 2 << 20)
    controller = make_controller(qtbot, tmp_path, chat_model=str(broken))
    bar = controller.window.input_bar
    notice = controller.window.notice.label.text()
    assert "The chat model could not be loaded" in notice and "chat-broken.gguf" in notice
    bar.edit.setPlainText("hello")
    assert not bar.send_button.isEnabled() and "chat-broken.gguf" in bar.send_button.toolTip()
    assert not controller.replies.send("hello")
    bar.edit.clear()
    assert controller.spoken_turn.recorded(read_clip(question_clip))  # speech still works
    qtbot.waitUntil(lambda: bar.edit.toPlainText() != "", timeout=30_000)
    assert word_error_rate(QUESTION, bar.edit.toPlainText()) < 0.35
    assert controller.book.current.messages == []
    problem = controller.settings_flow.validate(controller.settings)  # the dialog refuses it up front
    assert problem and "chat-broken.gguf cannot be used" in problem


def test_settings_are_validated_applied_and_saved(qtbot, tmp_path, tiny_chat_model):
    controller = make_controller(qtbot, tmp_path, **tiny_settings(tiny_chat_model, max_tokens=8))
    broken = _truncated_copy(tiny_chat_model, tmp_path / "broken.gguf", 4096)
    problem = controller.settings_flow.validate(Settings(chat_model=str(broken)))
    assert problem.startswith(f"The chat model {broken} cannot be used: ")
    not_speech = controller.settings_flow.validate(Settings(speech_model=str(tiny_chat_model)))
    assert "not a whisper.cpp model" in not_speech
    assert "not a key combination" in controller.settings_flow.validate(Settings(ptt_shortcut=""))

    other = write_tiny_chat_model(tmp_path / "other.gguf", seed=1)
    old_chat, old_speech = controller.chat.model, controller.speech.model
    new = controller.settings.copy()
    new.chat_model, new.temperature, new.ptt_shortcut = str(other), 0.2, "Ctrl+Shift+T"
    assert controller.settings_flow.validate(new) is None
    controller.settings_flow.apply(new)
    wait_idle(qtbot, controller, LOAD_TIMEOUT_MS)
    assert controller.chat.model.name == "tiny-llama-1" and old_chat.closed  # the old one was closed
    assert controller.speech.model is old_speech  # untouched: its settings did not change
    assert load_settings(tmp_path / "settings.json").settings == new
    assert controller.window.models_label.text() == "other · whisper tiny.en"
    controller.replies.send("uses the new model")
    wait_idle(qtbot, controller)
    assert controller.chat.session.model is controller.chat.model and stored(controller)[-1][0] == "assistant"


def test_the_multilingual_base_speech_model_can_be_chosen(qtbot, tmp_path, tiny_chat_model, question_clip, monkeypatch):
    from parley.engine.errors import ModelFileError
    from parley.engine.modelfiles.defaults import base_speech_sources

    try:
        base_speech_sources()
    except ModelFileError:
        require(False, "the optional Whisper base packages are not installed")
    monkeypatch.setenv("PARLEY_CACHE_DIR", str(tmp_path / "cache"))  # converted here, not in the user's cache
    controller = make_controller(qtbot, tmp_path, send_on_release=False, **tiny_settings(tiny_chat_model))
    assert controller.settings_flow.validate(Settings(speech_model="base")) is None
    new = controller.settings.copy()
    new.speech_model, new.language = "base", "en"
    controller.settings_flow.apply(new)
    wait_idle(qtbot, controller, LOAD_TIMEOUT_MS)
    assert controller.speech.model.name == "whisper base" and controller.speech.model.multilingual
    assert controller.spoken_turn.recorded(read_clip(question_clip))
    edit = controller.window.input_bar.edit
    qtbot.waitUntil(lambda: edit.toPlainText() != "", timeout=60_000)
    assert word_error_rate(QUESTION, edit.toPlainText()) < 0.35


# ---------------------------------------------------------------- storage and reading aloud


def test_a_full_disk_keeps_the_conversation_and_saves_it_later(qtbot, tmp_path, tiny_chat_model):
    controller = make_controller(qtbot, tmp_path, **tiny_settings(tiny_chat_model, max_tokens=8))
    controller.replies.send("first")
    wait_idle(qtbot, controller)
    connection = controller.book.store._conn
    pages = connection.execute("PRAGMA page_count").fetchone()[0]
    connection.execute(f"PRAGMA max_page_count = {pages}")  # the disk is full from now on
    big = ("second " + "word " * 1500).strip()
    controller.replies.send(big)
    wait_idle(qtbot, controller)
    assert "disk is full" in controller.window.notice.label.text()
    assert len(controller.window.conversation_view.messages) == 4
    assert [e.dirty for e in controller.book.current.messages] == [False, False, True, True]
    assert len(stored(controller)) == 2

    connection.execute("PRAGMA max_page_count = 1000000")  # space was freed
    controller.replies.send("third")
    wait_idle(qtbot, controller)
    entries = controller.book.current.messages
    assert stored(controller) == [(e.role, e.content, True) for e in entries]
    assert [c for r, c, _ in stored(controller) if r == "user"] == ["first", big, "third"]
    assert not any(e.dirty for e in entries)


def test_the_talk_key_interrupts_a_reply_read_aloud(qtbot, tmp_path, tiny_chat_model, mic):
    """Qt's "mock" text-to-speech engine speaks (silently) for a time that depends on the text;
    the talk key silences it and starts a take at once."""
    controller = make_controller(
        qtbot,
        tmp_path,
        microphone="pulse",
        read_replies_aloud=True,
        read_aloud=lambda: ReadAloud("mock"),
        **tiny_settings(tiny_chat_model, max_tokens=6),
    )
    talk = controller.window.input_bar.talk_button
    controller.replies.send("Say something")
    qtbot.waitUntil(lambda: controller.read_aloud is not None and controller.read_aloud.speaking, timeout=30_000)
    assert talk.isEnabled()
    controller.keys.pressed.emit()
    qtbot.waitUntil(lambda: not controller.read_aloud.speaking, timeout=5_000)
    assert controller.talk.recorder is not None and controller.talk.recorder.is_recording
    controller.keys.released.emit()


def test_without_a_voice_reading_aloud_is_a_status_note(qtbot, tmp_path, tiny_chat_model):
    controller = make_controller(
        qtbot, tmp_path, read_replies_aloud=True, **tiny_settings(tiny_chat_model, max_tokens=6)
    )
    messages = []
    controller.window.statusBar().messageChanged.connect(messages.append)
    controller.replies.send("Say something")
    wait_idle(qtbot, controller)
    assert [m for m in messages if "cannot be read aloud" in m]
    assert idle(controller)
