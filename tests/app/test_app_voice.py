"""The voice loop on real parts: the recording timer, the live transcript, hands-free mode.

The real window (offscreen) and controller on ``LocalEngines`` (Whisper tiny.en, the tiny
random-weight llama), and the PortAudio ``pulse`` device recording the PulseAudio virtual
microphone that espeak-ng speech (and room noise) is played into.
"""

from __future__ import annotations

import inspect
import time

import numpy as np
import pytest
import soundfile

from parley.app.voice.read_aloud import ReadAloud
from parley.engine.audio.capture import BLOCK_SECONDS
from parley.engine.audio.utterance import speech_region, spoken_text
from parley.engine.audio.vad import UtteranceSegmenter
from parley.engine.textmetrics import word_error_rate
from tests.support import noises
from tests.support.app_helpers import (  # noqa: F401 - fixtures
    QUESTION,
    REMIND,
    make_controller,
    paused_request,
    play,
    question_clip,
    speak,
    spoken_clip,
    stored,
    tiny_chat_model,
    tiny_settings,
    wait_idle,
)
from tests.support.pulse import idle_microphone
from tests.support.speech import SENTENCES, room_noise

LONG_QUESTION = (
    "Please tell me how far away the moon is from the earth, and how long it would take to fly there in a fast rocket."
)


@pytest.fixture(scope="module")
def long_question(tmp_path_factory):
    """About 8 s of speech, with a second of silence after it (the speaker pauses, then lets go)."""
    path = spoken_clip(tmp_path_factory.mktemp("speech") / "long.wav", LONG_QUESTION)
    audio, rate = soundfile.read(path, dtype="float32")
    soundfile.write(path, np.concatenate([audio, np.zeros(rate, dtype=np.float32)]), rate)
    return path


@pytest.fixture(scope="module")
def three_sentences(tmp_path_factory):
    """Three sentences with 2.5 s of silence after each, as one 16 kHz WAV file: longer than the
    2 s that hands-free waits after a sentence its turn-end model hears as unfinished."""
    folder = tmp_path_factory.mktemp("sentences")
    parts = [np.zeros(8000, dtype=np.float32)]
    for i, text in enumerate(SENTENCES):
        speech = spoken_clip(folder / f"{i}.wav", text, pad_s=0.0)
        parts += [soundfile.read(speech, dtype="float32")[0], np.zeros(40000, dtype=np.float32)]
    path = folder / "three.wav"
    soundfile.write(path, np.concatenate(parts), 16000)
    return path


@pytest.fixture(scope="module")
def quiet_room(tmp_path_factory):
    """20 s of steady noise at -52 dBFS: a quiet room on an ordinary microphone."""
    path = tmp_path_factory.mktemp("noise") / "room.wav"
    soundfile.write(path, room_noise(20.0, -52.0, seed=7), 16000)
    return path


def settle_ms() -> int:
    """How long after the last sound an utterance can still come: the segmenter's closing pause
    (hands-free uses its defaults), plus ten capture blocks for the virtual microphone's and the
    queued signal's delivery."""
    pause = inspect.signature(UtteranceSegmenter).parameters["end_silence_seconds"].default
    return round(1000 * (pause + 10 * BLOCK_SECONDS))


def user_messages(controller):
    return [m.content for m in controller.book.current.messages if m.role == "user"]


# ---------------------------------------------------------------- the recording timer


def test_the_recording_timer_counts_time_while_the_microphone_is_silent(qtbot, tmp_path, tiny_chat_model, mic):
    """A source that delivers nothing for a while (an idle null-sink source does, for ~2 s) must
    not freeze the timer: it counts time since the press, not audio received."""
    controller = make_controller(qtbot, tmp_path, **tiny_settings(tiny_chat_model))
    label = controller.window.input_bar.elapsed_label
    with idle_microphone():
        controller.spoken_turn.pressed()
        assert controller.talk.recording, controller.window.statusBar().currentMessage()
        pressed = time.monotonic()
        shown = []
        qtbot.waitUntil(
            lambda: shown.append((time.monotonic() - pressed, label.text())) or time.monotonic() - pressed > 2.6,
            timeout=10_000,
        )
        controller.spoken_turn.released()
    seconds = {text for elapsed, text in shown if elapsed > 1.3}
    assert "0:01" in seconds and "0:02" in seconds, shown


# ---------------------------------------------------------------- live transcript


def test_words_appear_while_the_key_is_held_and_the_release_reuses_them(
    qtbot, tmp_path, tiny_chat_model, mic, long_question
):
    controller = make_controller(qtbot, tmp_path, send_on_release=False, **tiny_settings(tiny_chat_model))
    bar = controller.window.input_bar
    live, takes = [], []
    controller.transcription.partial.connect(lambda text: live.append((controller.talk.recording, text)))
    controller.talk.clip_ready.connect(lambda audio, _purpose: takes.append(audio))
    controller.spoken_turn.pressed()
    play(qtbot, mic, long_question)
    shown_while_held = [text for held, text in live if held and text]
    controller.spoken_turn.released()
    qtbot.waitUntil(lambda: bar.edit.toPlainText() != "", timeout=60_000)
    final = bar.edit.toPlainText()
    print(f"\nlive: {shown_while_held}\nfinal: {final!r}")
    assert len(shown_while_held) >= 2  # words appeared, more than once
    assert word_error_rate(LONG_QUESTION, shown_while_held[-1]) < 0.35
    assert controller.transcription.reused == 1  # the release decoded nothing new
    assert not bar.live_label.isVisible()
    # The same words a fresh decode of the whole take gives.
    wait_idle(qtbot, controller)
    model = controller.speech.model
    fresh = spoken_text(model.transcribe(_speech(takes[0])))
    assert final == fresh


def test_the_model_reads_the_words_while_the_key_is_held(qtbot, tmp_path, tiny_chat_model, mic, long_question):
    """The words shown while the key is held are read by the chat model as they come; when the
    speaker pauses before letting go (a second here), the words are read whole with the start of
    the reply, so that after the release the reply reads one token (its prompt's last, again)."""
    controller = make_controller(qtbot, tmp_path, **tiny_settings(tiny_chat_model, max_tokens=4))
    qtbot.waitUntil(lambda: controller.replies.synced, timeout=30_000)
    live: list[str] = []
    settled: list[str] = []
    controller.transcription.partial.connect(lambda text: controller.talk.recording and text and live.append(text))
    controller.transcription.settled.connect(lambda text: controller.talk.recording and settled.append(text))
    speak(qtbot, controller, mic, long_question)
    qtbot.waitUntil(lambda: len(controller.book.current.messages) == 2, timeout=60_000)
    wait_idle(qtbot, controller)
    message, reply = controller.book.current.messages
    read = reply.stats["prompt_tokens"]
    # The same message typed into a new conversation: the reply reads all of it (once the model
    # has forgotten it, as the app is told when the cache is emptied behind its back).
    controller.book.new()
    emptied: list[object] = []
    controller.chat.submit(
        lambda _job: controller.chat.model.clear_cache(), on_done=emptied.append, on_error=emptied.append, name="test"
    )
    qtbot.waitUntil(lambda: bool(emptied))
    controller.replies.reread()
    qtbot.waitUntil(lambda: controller.replies.synced, timeout=30_000)
    assert controller.replies.send(message.content)
    wait_idle(qtbot, controller)
    typed = controller.book.current.messages[-1].stats["prompt_tokens"]
    words = len(controller.chat.model.tokenize(message.content))
    print(f"\nheard while held: {live}\nsent: {message.content!r}; read after the release: {read}, typed: {typed}")
    assert len(live) >= 2 and word_error_rate(message.content, live[-1]) < 0.2
    assert settled and settled[-1] == message.content, settled  # heard whole in the pause
    assert read == 1 and typed > words


def test_a_live_decode_that_failed_does_not_hold_up_the_release(
    qtbot, tmp_path, tiny_chat_model, mic, long_question, monkeypatch
):
    """Every decode while the key is held fails (as an engine error would): the release must not
    wait for the one that covered the whole take, whose result never comes, but decode again."""
    controller = make_controller(qtbot, tmp_path, send_on_release=False, **tiny_settings(tiny_chat_model))
    bar = controller.window.input_bar
    model = controller.speech.model
    transcribe, failed = model.transcribe, []

    def failing_while_held(*args, **kwargs):
        if controller.talk.recording:
            failed.append(args[0].shape)
            raise RuntimeError("whisper_full failed (injected)")
        return transcribe(*args, **kwargs)

    monkeypatch.setattr(model, "transcribe", failing_while_held)
    controller.spoken_turn.pressed()
    play(qtbot, mic, long_question)
    controller.spoken_turn.released()
    qtbot.waitUntil(lambda: bar.edit.toPlainText() != "", timeout=60_000)
    assert len(failed) >= 2, failed  # decodes were tried while held, the settled take's among them
    assert word_error_rate(LONG_QUESTION, bar.edit.toPlainText()) < 0.35


def test_without_the_live_transcript_nothing_is_decoded_while_held(
    qtbot, tmp_path, tiny_chat_model, mic, question_clip
):
    controller = make_controller(
        qtbot, tmp_path, send_on_release=False, live_transcript=False, **tiny_settings(tiny_chat_model)
    )
    live = []
    controller.transcription.partial.connect(lambda text: live.append(text) if text else None)
    controller.spoken_turn.pressed()
    play(qtbot, mic, question_clip)
    controller.spoken_turn.released()
    qtbot.waitUntil(lambda: controller.window.input_bar.edit.toPlainText() != "", timeout=60_000)
    assert live == [] and controller.transcription.reused == 0


# ---------------------------------------------------------------- hands-free


def test_hands_free_sends_each_sentence_as_its_own_message(qtbot, tmp_path, tiny_chat_model, mic, three_sentences):
    controller = make_controller(
        qtbot, tmp_path, microphone="pulse", hands_free=True, **tiny_settings(tiny_chat_model, max_tokens=8)
    )
    qtbot.waitUntil(lambda: controller.hands_free.listening, timeout=30_000)
    bar = controller.window.input_bar
    assert bar.hands_free_button.isChecked() and bar.recording_row.isVisible()
    assert "hands-free" in bar.recording_label.text().lower()
    play(qtbot, mic, three_sentences)
    qtbot.waitUntil(lambda: len(user_messages(controller)) == 3, timeout=60_000)
    wait_idle(qtbot, controller)
    heard = user_messages(controller)
    print(f"\nheard: {heard}")
    for said, got in zip(SENTENCES, heard, strict=True):
        assert word_error_rate(said, got) < 0.4, (said, got)
    assert [r for r, _, _ in stored(controller)] == ["user", "assistant"] * 3
    assert controller.talk.recorder is None and controller.hands_free.listening


def test_a_request_cut_in_its_pause_is_taken_back_and_sent_whole(
    qtbot, tmp_path, tiny_chat_model, mic, paused_request, monkeypatch
):
    """Hands-free ends the turn in the pause (the fixed 0.8 s) and the first half is sent; its
    reply is still being written when the user goes on: the half and that reply are taken back,
    and the whole request, heard again as one, is sent and answered once: in the window,
    announced, and in the store, as reopening the conversation shows."""
    settings = tiny_settings(tiny_chat_model)  # replies go on until stopped: the first is still being written
    controller = make_controller(
        qtbot, tmp_path, microphone="pulse", hands_free=True, hands_free_turn_end="pause", **settings
    )
    qtbot.waitUntil(lambda: controller.hands_free.listening, timeout=30_000)
    heard: list[str] = []
    controller.transcribed.connect(heard.append)
    told: list[str] = []
    announce = controller.window.announce

    def telling(text: str, urgent: bool = False) -> None:
        told.append(text)
        announce(text, urgent)

    monkeypatch.setattr(controller.window, "announce", telling)
    play(qtbot, mic, paused_request)
    qtbot.waitUntil(lambda: len(heard) == 2, timeout=60_000)
    whole = heard[1]
    qtbot.waitUntil(lambda: user_messages(controller) == [whole] and controller.replies.text != "", timeout=60_000)
    controller.stop()
    wait_idle(qtbot, controller)
    print(f"\nheard: {heard}; sent: {whole!r}")
    assert word_error_rate(" ".join(REMIND), whole) < 0.4, whole
    messages = [(m.role, m.content) for m in controller.book.current.messages]
    assert [role for role, _ in messages] == ["user", "assistant"] and messages[0][1] == whole
    assert [w.role for w in controller.window.conversation_view.messages] == ["user", "assistant"]
    assert [t for t in told if t.startswith("Heard: ")] == [f"Heard: {heard[0]}", f"Heard: {whole}"], told
    assert [(role, content) for role, content, _ in stored(controller)] == messages
    conversation = controller.book.current.id
    controller.book.new()
    controller.book.open(conversation)
    assert [(m.role, m.content) for m in controller.book.current.messages] == messages


def test_hands_free_ignores_the_steady_noise_of_a_quiet_room(qtbot, tmp_path, tiny_chat_model, mic, quiet_room):
    controller = make_controller(
        qtbot, tmp_path, microphone="pulse", hands_free=True, **tiny_settings(tiny_chat_model, max_tokens=8)
    )
    qtbot.waitUntil(lambda: controller.hands_free.listening, timeout=30_000)
    with qtbot.assertNotEmitted(controller.hands_free.utterance, wait=settle_ms()):  # the earliest sign
        play(qtbot, mic, quiet_room)
    assert controller.book.current.messages == []
    assert controller.hands_free.listening


@pytest.fixture(scope="module")
def fan_switched_on(tmp_path_factory):
    """2 s of a quiet room, then a desk fan close to the microphone for 8 s (-30 dBFS)."""
    path = tmp_path_factory.mktemp("noise") / "fan.wav"
    soundfile.write(path, np.concatenate([room_noise(2.0, -60.0), noises.fan(8.0, -30.0, seed=5)]), 16000)
    return path


@pytest.mark.parametrize("detector", ["neural", "energy"])
def test_a_fan_switched_on_starts_no_message_with_the_neural_detector(
    qtbot, tmp_path, tiny_chat_model, mic, fan_switched_on, detector
):
    """The loudness detector takes a fan switched on for speech (one long utterance, sent to
    whisper); the neural detector, the default, does not.  Both run in the real app."""
    controller = make_controller(
        qtbot,
        tmp_path,
        microphone="pulse",
        hands_free=True,
        hands_free_detector=detector,
        **tiny_settings(tiny_chat_model, max_tokens=8),
    )
    qtbot.waitUntil(lambda: controller.hands_free.listening, timeout=30_000)
    if detector == "neural":
        with qtbot.assertNotEmitted(controller.hands_free.utterance, wait=settle_ms()):
            play(qtbot, mic, fan_switched_on)
    else:
        with qtbot.waitSignal(controller.hands_free.utterance, timeout=settle_ms() + 30_000):
            play(qtbot, mic, fan_switched_on)
    assert controller.hands_free.detector_name == detector


def test_hands_free_falls_back_to_loudness_when_the_neural_detector_cannot_load(
    qtbot, tmp_path, tiny_chat_model, mic, monkeypatch, three_sentences
):
    """The converted Silero file cannot be written (its cache folder is a file): hands-free
    says so once and listens by loudness; the sentences are still heard."""
    controller = make_controller(qtbot, tmp_path, microphone="pulse", **tiny_settings(tiny_chat_model, max_tokens=8))
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")
    monkeypatch.setenv("PARLEY_CACHE_DIR", str(blocked))
    notices = []
    monkeypatch.setattr(controller.window, "show_notice", notices.append)
    controller.set_hands_free(True)
    play(qtbot, mic, three_sentences)
    qtbot.waitUntil(lambda: len(user_messages(controller)) == 3, timeout=60_000)
    assert controller.hands_free.detector_name == "energy"
    assert [n for n in notices if "listens by loudness" in n] == [notices[0]] and len(notices) == 1, notices


def test_the_talk_key_and_the_toggle_turn_hands_free_off_and_on(qtbot, tmp_path, tiny_chat_model, mic):
    controller = make_controller(qtbot, tmp_path, microphone="pulse", **tiny_settings(tiny_chat_model))
    bar = controller.window.input_bar
    assert not controller.hands_free.listening and bar.hands_free_button.isEnabled()
    bar.hands_free_button.click()
    assert controller.hands_free.listening and controller.settings.hands_free
    controller.keys.pressed.emit()  # the talk key ends hands-free, records nothing
    controller.keys.released.emit()
    assert not controller.hands_free.listening and not controller.settings.hands_free
    assert controller.talk.recorder is None and not bar.hands_free_button.isChecked()
    assert (tmp_path / "settings.json").read_text().count('"hands_free": false') == 1
    controller.keys.pressed.emit()  # and the next press talks again
    assert controller.talk.recording
    controller.keys.released.emit()


def test_hands_free_does_not_hear_replies_read_aloud(qtbot, tmp_path, tiny_chat_model, mic, question_clip):
    """Qt's "mock" text-to-speech engine speaks (silently) for a time that depends on the text."""
    controller = make_controller(
        qtbot,
        tmp_path,
        microphone="pulse",
        hands_free=True,
        read_replies_aloud=True,
        read_aloud=lambda: ReadAloud("mock"),
        **tiny_settings(tiny_chat_model, max_tokens=400),
    )
    qtbot.waitUntil(lambda: controller.hands_free.listening, timeout=30_000)
    controller.replies.send("Say something")
    qtbot.waitUntil(lambda: controller.read_aloud.speaking, timeout=30_000)
    with qtbot.assertNotEmitted(controller.hands_free.utterance, wait=settle_ms()):
        player = mic.play(question_clip, wait=False)  # someone talks while the reply is read aloud
        qtbot.waitUntil(lambda: player.poll() is not None, timeout=30_000)
        assert controller.read_aloud.speaking, "the reply was read for less long than the clip played"
        qtbot.waitUntil(lambda: not controller.read_aloud.speaking, timeout=60_000)
    assert user_messages(controller) == ["Say something"]
    play(qtbot, mic, question_clip)  # heard again once it is done
    qtbot.waitUntil(lambda: len(user_messages(controller)) == 2, timeout=60_000)


def _speech(audio):
    """The part of a take the app transcribes."""
    region = speech_region(audio)
    return audio[region.start : region.end]


# ---------------------------------------------------------------- per-turn timings


def _figures(text: str) -> list[tuple[str, int]]:
    return [
        (line.split(": ", 1)[1], int(line[2:].split(" ms")[0])) for line in text.splitlines() if line.startswith("+ ")
    ]


def test_a_spoken_turn_shows_its_timings_from_the_release_to_the_first_sound(
    qtbot, tmp_path, tiny_chat_model, mic, question_clip, caplog
):
    """Push-to-talk, a reply read aloud (Qt's silent "mock" voice): the reply's Details gives
    release -> words transcribed -> first words -> first sound, and the log has the same."""
    controller = make_controller(
        qtbot,
        tmp_path,
        microphone="pulse",
        read_replies_aloud=True,
        read_aloud=lambda: ReadAloud("mock"),
        **tiny_settings(tiny_chat_model, max_tokens=40),
    )
    caplog.set_level("INFO", logger="parley.turns")
    sound_at = []
    controller.spoken.first_sound.connect(lambda: sound_at.append(time.monotonic()))
    speak(qtbot, controller, mic, question_clip)
    qtbot.waitUntil(lambda: bool(sound_at), timeout=60_000)
    wait_idle(qtbot, controller)
    widget = controller.window.conversation_view.messages[-1]
    assert widget.role == "assistant" and widget.details_button.isVisible()
    widget.details_button.click()
    popup = widget.details_popup
    assert popup is not None and popup.isVisible()
    text = popup.label.text()
    print(f"\n{text}")
    assert text.startswith("You let go of the talk key."), text
    figures = _figures(text)
    assert [name for name, _ in figures] == [
        "words transcribed",
        "first words of the reply",
        "first sound of the reply",
    ], text
    assert all(ms >= 0 for _, ms in figures)
    measured_total = (sound_at[0] - controller.talk.released_at) * 1000  # the same span, seen from outside
    assert abs(sum(ms for _, ms in figures) - measured_total) < 100, (text, measured_total)
    lines = [r.getMessage() for r in caplog.records if r.name == "parley.turns"]
    assert any(line.startswith("turn (talk): words transcribed") for line in lines), lines
    assert any("first sound of the reply" in line for line in lines), lines


def test_a_typed_turn_times_only_the_reply(qtbot, tmp_path, tiny_chat_model):
    controller = make_controller(qtbot, tmp_path, **tiny_settings(tiny_chat_model, max_tokens=8))
    controller.replies.send("Hello")
    wait_idle(qtbot, controller)
    widget = controller.window.conversation_view.messages[-1]
    widget.details_button.click()
    text = widget.details_popup.label.text()
    assert text.startswith("You sent the message.") and [n for n, _ in _figures(text)] == ["first words of the reply"]
