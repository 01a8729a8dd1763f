"""The flows' decisions, fast: the real window, controller and flows on ``FakeEngines``.

Where a take's words go (4 sources x 3 destinations), barge-in, the quick question and
hands-free queueing, each driven the way a user drives it: the talk button, the shortcuts from
anywhere (as the desktop reports them), the microphone kept open.  The engines answer at once
(``tests/support/fake_engines.py``), so each test takes a fraction of a second; the real-parts
tests (``test_app_*.py``) prove the same paths on whisper.cpp, llama.cpp and PortAudio.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from parley.app.controller import Controller
from parley.app.conversations.store import Store
from parley.app.flows.hands_free_turn import CONTINUATION_S, joined
from parley.app.speech.from_anywhere import TAP_S
from parley.app.take_purpose import TakePurpose
from parley.app.ui.main_window import MainWindow
from parley.config.settings import Settings
from parley.engine.errors import ModelFileError
from tests.support.fake_engines import FakeClock, FakeEngines

TIMEOUT_MS = 10_000  # only reached if something hangs: the fake engines answer at once
NO_CHAT = "the fake chat model is broken"


@dataclass
class App:
    controller: Controller
    engines: FakeEngines
    clock: FakeClock

    @property
    def bar(self) -> Any:
        return self.controller.window.input_bar

    @property
    def mic(self) -> Any:
        return self.engines.microphone

    def messages(self) -> list[tuple[str, str]]:
        return [(m.role, m.content) for m in self.controller.book.current.messages]

    def user_messages(self) -> list[str]:
        return [content for role, content in self.messages() if role == "user"]

    def status(self) -> str:
        return self.controller.window.statusBar().currentMessage()

    def notice(self) -> str:
        notice = self.controller.window.notice
        return notice.label.text() if notice.isVisible() else ""


@pytest.fixture
def start(qtbot: Any, tmp_path: Path) -> Any:
    """``start(**settings)``: the app on fake engines, its models loaded and its microphone found."""

    def start_app(engines: FakeEngines | None = None, **settings: Any) -> App:
        window = MainWindow()
        qtbot.addWidget(window)  # closed at the end: the controller shuts down
        engines = engines or FakeEngines()
        clock = FakeClock()
        controller = Controller(
            window,
            engines,
            Settings(global_shortcuts=False, **settings),
            Store(tmp_path / "conversations.sqlite3"),
            settings_path=tmp_path / "settings.json",
            clock=clock,
        )
        controller.start()
        app = App(controller, engines, clock)
        qtbot.waitUntil(
            lambda: controller.idle and controller.speech.model is not None and app.bar.talk_button.isEnabled(),
            timeout=TIMEOUT_MS,
        )
        return app

    return start_app


def talk(qtbot: Any, app: App, text: str | None) -> None:
    """Hold the talk button, say ``text`` (None: nothing, a second of silence), let go."""
    qtbot.mousePress(app.bar.talk_button, Qt.MouseButton.LeftButton)
    assert app.controller.talk.recording, app.status()
    say(app, text)
    with qtbot.waitSignal(app.controller.transcribed, timeout=TIMEOUT_MS):
        qtbot.mouseRelease(app.bar.talk_button, Qt.MouseButton.LeftButton)


def from_anywhere(qtbot: Any, app: App, action: str, text: str | None, focus: int = 0) -> None:
    """Hold the ``action`` shortcut in another application, say ``text``, let go."""
    shortcuts = app.controller.anywhere.shortcuts
    shortcuts.pressed.emit(action, focus)
    assert app.controller.talk.recording, app.status()
    say(app, text)
    app.clock.advance(2 * TAP_S)  # held, not tapped
    with qtbot.waitSignal(app.controller.transcribed, timeout=TIMEOUT_MS):
        shortcuts.released.emit(action)


def hands_free(qtbot: Any, app: App, text: str | None) -> None:
    """Say ``text`` to the microphone kept open, then pause."""
    assert app.controller.hands_free.listening
    with qtbot.waitSignal(app.controller.transcribed, timeout=TIMEOUT_MS):
        app.mic.say(text)


def say(app: App, text: str | None) -> None:
    if text is None:
        app.mic.stay_silent(1.0)
    else:
        app.mic.say(text)


def wait_idle(qtbot: Any, app: App) -> None:
    qtbot.waitUntil(lambda: app.controller.idle, timeout=TIMEOUT_MS)


# ---------------------------------------------------------------- where the words go


WORDS = "what is the tallest mountain"
TYPED = WORDS + " "  # a dictation is typed with a space after it


@pytest.mark.parametrize(
    "source, settings, chat_problem, destination",
    [
        ("talk", {}, None, "chat"),
        ("talk", {"send_on_release": False}, None, "text box"),
        ("talk", {}, NO_CHAT, "text box"),
        ("hands-free", {}, None, "chat"),
        ("hands-free", {"send_on_release": False}, None, "chat"),  # hands-free always sends
        ("hands-free", {}, NO_CHAT, "text box"),
        ("dictate", {}, None, "other app"),
        ("dictate", {"send_on_release": False}, None, "other app"),
        ("dictate", {}, NO_CHAT, "other app"),
        ("ask", {}, None, "chat"),
        ("ask", {"send_on_release": False}, None, "chat"),
        ("ask", {}, NO_CHAT, "text box"),
    ],
)
def test_a_takes_words_go_where_its_source_sends_them(qtbot, start, source, settings, chat_problem, destination):
    app = start(FakeEngines(chat_problem), hands_free=source == "hands-free", **settings)
    typed = []
    app.controller.typist.finished.connect(lambda text, problem: typed.append(text))
    if source == "talk":
        talk(qtbot, app, WORDS)
    elif source == "hands-free":
        hands_free(qtbot, app, WORDS)
    else:
        from_anywhere(qtbot, app, source, WORDS)
    wait_idle(qtbot, app)

    sent = app.user_messages()
    kept = app.bar.edit.toPlainText()
    if destination == "chat":
        assert sent == [WORDS] and app.engines.chat.asked == [WORDS] and typed == []
        assert app.messages()[-1] == ("assistant", f"You said: {WORDS}")
        assert kept == ""
    elif destination == "text box":
        assert sent == [] and typed == [] and kept == WORDS
    else:  # typed into the app that has the focus; offscreen, Parley cannot: its text box keeps them
        assert typed == [TYPED] and sent == [] and app.engines.chat.asked == []
        assert "cannot type into other apps" in app.notice() and kept == WORDS
    if source == "ask" and destination == "text box":
        assert app.controller.quick_ask.state.text() == f"The chat model could not be loaded: {NO_CHAT}"


@pytest.mark.parametrize("source", ["talk", "hands-free", "dictate", "ask"])
def test_a_take_with_nothing_said_goes_nowhere(qtbot, start, source):
    app = start(hands_free=source == "hands-free")
    typed = []
    app.controller.typist.finished.connect(lambda text, problem: typed.append(text))
    heard = []
    app.controller.transcribed.connect(heard.append)
    if source == "talk":
        talk(qtbot, app, None)
    elif source == "hands-free":
        app.mic.stay_silent(3.0)  # no utterance begins
    else:
        from_anywhere(qtbot, app, source, None)
    wait_idle(qtbot, app)
    assert heard == ([] if source == "hands-free" else [""])
    assert app.messages() == [] and typed == [] and app.bar.edit.toPlainText() == ""
    if source != "hands-free":
        assert "No speech was heard" in app.status()


def test_a_tapped_shortcut_records_until_it_is_pressed_again(qtbot, start):
    app = start()
    shortcuts = app.controller.anywhere.shortcuts
    shortcuts.pressed.emit("dictate", 0)
    app.clock.advance(TAP_S / 2)
    shortcuts.released.emit("dictate")  # a tap: the take goes on
    assert app.controller.talk.recording and "press the shortcut again" in app.status()
    app.mic.say(WORDS)
    with qtbot.waitSignal(app.controller.transcribed, timeout=TIMEOUT_MS):
        shortcuts.pressed.emit("dictate", 0)  # ends it
    shortcuts.released.emit("dictate")  # that press's release is nothing
    assert not app.controller.talk.recording and app.bar.edit.toPlainText() == WORDS


def test_a_shortcut_turns_hands_free_off_and_the_talk_key_press_that_does_so_records_nothing(qtbot, start):
    app = start(hands_free=True)
    from_anywhere(qtbot, app, "dictate", WORDS)
    assert not app.controller.hands_free.listening and not app.controller.settings.hands_free
    app.controller.set_hands_free(True)
    assert app.controller.hands_free.listening
    qtbot.mousePress(app.bar.talk_button, Qt.MouseButton.LeftButton)
    qtbot.mouseRelease(app.bar.talk_button, Qt.MouseButton.LeftButton)
    assert not app.controller.hands_free.listening and not app.controller.talk.recording


# ---------------------------------------------------------------- hands-free queueing


class NoTurnModel(FakeEngines):
    """Engines whose turn-end model is not installed."""

    def turn_judge(self, kind: str) -> None:
        raise ModelFileError(Path("smart-turn-v3.2-cpu.onnx"), "the turn-end model is not installed")


def test_hands_free_ends_turns_after_the_fixed_pause_when_the_turn_end_model_cannot_load(qtbot, start):
    app = start(NoTurnModel(), hands_free=True)
    hands_free(qtbot, app, "first question")
    assert app.controller.hands_free.turn_end == "pause"
    assert "fixed pause" in app.notice() and "not installed" in app.notice()
    wait_idle(qtbot, app)
    assert app.user_messages() == ["first question"]


def test_utterances_heard_while_a_reply_streams_are_sent_after_it_in_order(qtbot, start):
    app = start(hands_free=True)
    app.engines.chat.hold()
    assert app.controller.replies.send("Tell me a story")
    hands_free(qtbot, app, "first question")
    app.clock.advance(CONTINUATION_S + 0.5)  # a pause: the second is a question of its own
    hands_free(qtbot, app, "second question")
    assert app.controller.replies.busy and app.controller.replies.queued == ["first question", "second question"]
    assert app.user_messages() == ["Tell me a story"]  # held back, not dropped
    app.engines.chat.release()
    wait_idle(qtbot, app)
    assert app.messages() == [
        ("user", "Tell me a story"),
        ("assistant", "You said: Tell me a story"),
        ("user", "first question"),
        ("assistant", "You said: first question"),
        ("user", "second question"),
        ("assistant", "You said: second question"),
    ]


# ---------------------------------------------------------------- a turn ended too early

HEAD, TAIL = "Can you remind me to.", "call the dentist on Friday?"
WHOLE = f"{HEAD} {TAIL}"  # the two parts' audio heard as one (the fake model writes each part's words)
JOINED = "Can you remind me to call the dentist on Friday?"  # the two transcripts joined


def told(app: App, monkeypatch: Any) -> list[str]:
    """What a screen reader is told from now on."""
    said: list[str] = []
    monkeypatch.setattr(app.controller.window, "announce", lambda text, urgent=False: said.append(text))
    return said


def stored_messages(app: App) -> list[tuple[str, str]]:
    conversation = app.controller.book.store.load_conversation(app.controller.book.current.id)
    return [(m.role, m.content) for m in conversation.messages]


def test_words_that_go_on_while_the_reply_is_written_are_sent_with_the_first_part_as_one(qtbot, start, monkeypatch):
    """The first half was sent and its reply is being written; the user goes on a second later:
    the half and its reply are taken back (window, store), the whole is sent and answered once,
    announced whole, and timed from the end of the second half."""
    app = start(hands_free=True)
    app.engines.chat.hold()
    hands_free(qtbot, app, HEAD)
    qtbot.waitUntil(lambda: app.controller.replies.text != "", timeout=TIMEOUT_MS)
    assert stored_messages(app)[0] == ("user", HEAD)
    said = told(app, monkeypatch)
    app.clock.advance(1.0)
    hands_free(qtbot, app, TAIL)
    second_ended = app.clock()
    app.engines.chat.release()
    wait_idle(qtbot, app)
    assert app.messages() == [("user", WHOLE), ("assistant", f"You said: {WHOLE}")]
    assert app.engines.chat.asked == [HEAD, WHOLE]
    assert [w.text for w in app.controller.window.conversation_view.messages] == [WHOLE, f"You said: {WHOLE}"]
    assert stored_messages(app) == app.messages()
    assert app.controller.window.windowTitle().startswith(WHOLE[:40])  # titled after the whole
    assert f"Heard: {WHOLE}" in said and f"Heard: {TAIL}" not in said, said
    turn = app.controller.book.current.messages[-1].turn
    assert turn.source == TakePurpose.HANDS_FREE and turn.ended == second_ended and turn.transcribed is not None


def test_words_that_go_on_from_a_message_still_held_are_joined_to_it(qtbot, start):
    """The first half waits for the reply to a message before it: it is never sent alone."""
    app = start(hands_free=True)
    app.engines.chat.hold()
    assert app.controller.replies.send("Tell me a story")
    hands_free(qtbot, app, HEAD)
    hands_free(qtbot, app, TAIL)
    assert app.controller.replies.queued == [WHOLE]
    app.engines.chat.release()
    wait_idle(qtbot, app)
    assert app.user_messages() == ["Tell me a story", WHOLE]


def test_words_over_parleys_voice_that_go_on_from_its_message_are_joined_to_it(qtbot, start):
    """Over Parley's voice, barge-in judges the second part's own words: the two are transcribed
    apart and their transcripts joined."""
    app = start(hands_free=True, read_replies_aloud=True)
    app.engines.chat.answer = lambda _text: STORY
    hands_free(qtbot, app, HEAD)
    qtbot.waitUntil(lambda: app.engines.voice.said == STORY, timeout=TIMEOUT_MS)
    app.clock.advance(1.0)
    hands_free(qtbot, app, TAIL)  # not Parley's words: it stops, and the two are one message
    app.engines.voice.finish()
    wait_idle(qtbot, app)
    assert app.user_messages() == [JOINED]
    assert app.engines.chat.asked == [HEAD, JOINED]


def test_words_that_cannot_go_on_from_the_message_before_are_heard_again_alone(qtbot, start):
    """The whole was transcribed, but a typed message came after the first part: that part stays
    as it was sent, and the second is transcribed again on its own and sent after the typed one."""
    app = start(hands_free=True)
    app.engines.chat.hold()
    assert app.controller.replies.send("Tell me a story")
    hands_free(qtbot, app, HEAD)
    assert app.controller.replies.queued == [HEAD]
    app.controller.replies.send_when_free("and a poem")  # typed meanwhile
    heard: list[str] = []
    app.controller.transcribed.connect(heard.append)
    app.mic.say(TAIL)
    qtbot.waitUntil(lambda: len(heard) == 2, timeout=TIMEOUT_MS)
    assert heard == [WHOLE, TAIL]
    app.engines.chat.release()
    wait_idle(qtbot, app)
    assert app.user_messages() == ["Tell me a story", HEAD, "and a poem", TAIL]


def test_an_utterance_after_the_reply_is_complete_is_the_next_turn(qtbot, start):
    app = start(hands_free=True)
    hands_free(qtbot, app, HEAD)
    wait_idle(qtbot, app)  # answered, within the continuation window all the same
    hands_free(qtbot, app, TAIL)
    wait_idle(qtbot, app)
    assert app.user_messages() == [HEAD, TAIL]
    assert [r for r, _ in stored_messages(app)] == ["user", "assistant"] * 2


def test_an_utterance_after_the_continuation_window_is_the_next_turn(qtbot, start):
    app = start(hands_free=True)
    app.engines.chat.hold()
    hands_free(qtbot, app, HEAD)
    app.clock.advance(CONTINUATION_S + 0.1)
    hands_free(qtbot, app, TAIL)
    app.engines.chat.release()
    wait_idle(qtbot, app)
    assert app.user_messages() == [HEAD, TAIL]


def test_push_to_talk_takes_are_never_joined(qtbot, start):
    """The release ends a push-to-talk turn: a second take at once, over the reply, is a turn of
    its own (the first reply stops, as the talk key does)."""
    app = start()
    app.engines.chat.hold()
    talk(qtbot, app, HEAD)
    qtbot.waitUntil(lambda: app.controller.replies.text != "", timeout=TIMEOUT_MS)
    talk(qtbot, app, TAIL)
    app.engines.chat.release()
    wait_idle(qtbot, app)
    assert app.user_messages() == [HEAD, TAIL]
    assert [(m.role, m.state) for m in app.controller.book.current.messages] == [
        ("user", "complete"),
        ("assistant", "stopped"),
        ("user", "complete"),
        ("assistant", "complete"),
    ]


def test_parleys_own_words_heard_after_a_hands_free_message_are_not_joined(qtbot, start):
    app = start(hands_free=True, read_replies_aloud=True)
    app.engines.chat.answer = lambda _text: STORY
    app.engines.chat.hold()
    hands_free(qtbot, app, "Tell me a story")
    qtbot.waitUntil(lambda: app.engines.voice.said == STORY, timeout=TIMEOUT_MS)
    hands_free(qtbot, app, "a lighthouse keeper")  # its echo: it speaks on
    assert app.controller.spoken.speaking and app.controller.replies.busy
    app.engines.chat.release()
    app.engines.voice.finish()
    wait_idle(qtbot, app)
    assert app.user_messages() == ["Tell me a story"]


@pytest.mark.parametrize(
    "first, second, whole",
    [
        ("Can you remind me to.", "call the dentist.", "Can you remind me to call the dentist."),
        ("What is the capital of?", "Australia?", "What is the capital of? Australia?"),
        ("Set a timer for!", "ten minutes", "Set a timer for! ten minutes"),
        ("Tell me about...", "dragons.", "Tell me about... dragons."),
        ("Send a message to Anna", "saying hi", "Send a message to Anna saying hi"),
    ],
)
def test_two_parts_join_without_the_full_stop_whisper_put_after_the_first(first, second, whole):
    assert joined(first, second) == whole


def test_taking_back_a_message_that_is_not_the_last_one_sent_does_nothing(qtbot, start):
    app = start()
    assert app.controller.replies.send("first")
    wait_idle(qtbot, app)
    assert app.controller.replies.send("second")
    wait_idle(qtbot, app)
    assert not app.controller.replies.take_back("first")
    assert app.controller.replies.take_back("second")
    assert app.messages() == [("user", "first"), ("assistant", "You said: first")]
    assert stored_messages(app) == app.messages()


def test_a_spoken_turn_during_a_reply_stops_it_and_is_sent_next(qtbot, start):
    app = start()
    app.engines.chat.hold()
    assert app.controller.replies.send("Tell me a story")
    qtbot.waitUntil(lambda: app.controller.replies.text != "", timeout=TIMEOUT_MS)
    talk(qtbot, app, WORDS)
    qtbot.waitUntil(lambda: len(app.user_messages()) == 2, timeout=TIMEOUT_MS)  # its reply is held too
    stopped = app.controller.book.current.messages[1]
    assert stopped.role == "assistant" and stopped.state == "stopped"
    app.engines.chat.release()
    wait_idle(qtbot, app)
    assert app.user_messages() == ["Tell me a story", WORDS]


# ---------------------------------------------------------------- barge-in


STORY = "Once upon a time a lighthouse keeper lived on an island with his cat"


def speaking_app(start: Any, qtbot: Any, **settings: Any) -> App:
    """Parley reading a reply aloud that is still being written."""
    app = start(read_replies_aloud=True, **settings)
    app.engines.chat.answer = lambda _text: STORY
    app.engines.chat.hold()
    assert app.controller.replies.send("Tell me a story")
    qtbot.waitUntil(lambda: app.controller.spoken.speaking, timeout=TIMEOUT_MS)
    qtbot.waitUntil(lambda: app.engines.voice.said == STORY, timeout=TIMEOUT_MS)
    return app


def test_the_talk_key_silences_parley_stops_its_reply_and_starts_a_take(qtbot, start):
    app = speaking_app(start, qtbot)
    qtbot.mousePress(app.bar.talk_button, Qt.MouseButton.LeftButton)
    assert not app.controller.spoken.speaking and app.controller.talk.recording
    app.mic.say(WORDS)
    with qtbot.waitSignal(app.controller.transcribed, timeout=TIMEOUT_MS):
        qtbot.mouseRelease(app.bar.talk_button, Qt.MouseButton.LeftButton)
    app.engines.chat.release()
    wait_idle(qtbot, app)
    assert [m.state for m in app.controller.book.current.messages] == ["complete", "stopped", "complete", "complete"]
    assert app.user_messages() == ["Tell me a story", WORDS]


def test_parleys_own_voice_heard_over_it_pauses_it_and_it_speaks_on(qtbot, start):
    app = speaking_app(start, qtbot, hands_free=True)
    voice = app.engines.voice
    app.mic.say("a lighthouse keeper", 0.2, pause=False)  # speech begins
    assert app.controller.spoken.checking and voice.paused  # silent at once, keeping what is left
    with qtbot.waitSignal(app.controller.transcribed, timeout=TIMEOUT_MS):
        app.mic.say("a lighthouse keeper")  # the rest of it, then a pause
    assert not app.controller.spoken.checking and not voice.paused and voice.speaking
    assert app.controller.replies.busy and app.user_messages() == ["Tell me a story"]
    app.engines.chat.release()
    voice.finish()
    wait_idle(qtbot, app)
    assert [m.state for m in app.controller.book.current.messages] == ["complete", "complete"]


def test_the_user_talking_over_parley_stops_its_voice_and_reply_and_is_sent_next(qtbot, start):
    app = speaking_app(start, qtbot, hands_free=True)
    hands_free(qtbot, app, WORDS)
    assert not app.controller.spoken.speaking and not app.controller.spoken.checking
    app.engines.chat.release()
    wait_idle(qtbot, app)
    assert [(m.role, m.state) for m in app.controller.book.current.messages] == [
        ("user", "complete"),
        ("assistant", "stopped"),
        ("user", "complete"),
        ("assistant", "complete"),
    ]
    assert app.user_messages() == ["Tell me a story", WORDS]


def test_a_start_that_comes_to_nothing_lets_parley_speak_on(qtbot, start):
    app = speaking_app(start, qtbot, hands_free=True)
    hands_free_part = app.controller.hands_free
    hands_free_part.speech_started.emit()  # the listener: speech began...
    assert app.engines.voice.paused
    hands_free_part.speech_dropped.emit()  # ...and came to nothing
    assert not app.engines.voice.paused and app.controller.spoken.speaking
    assert app.controller.replies.busy


# ---------------------------------------------------------------- the quick question


def test_a_question_from_anywhere_is_answered_in_the_quick_ask_window(qtbot, start):
    app = start()
    quick, book = app.controller.quick_ask, app.controller.book
    from_anywhere(qtbot, app, "ask", WORDS, focus=0x2A)
    wait_idle(qtbot, app)
    assert quick.isVisible() and quick.question.text() == WORDS and app.user_messages() == [WORDS]
    assert quick.answer.toPlainText() == f"You said: {WORDS}" and quick.state.text() == ""
    assert quick.insert_button.isEnabled()
    asked_in = book.current.id

    from_anywhere(qtbot, app, "ask", "and the second tallest")  # while it shows the answer: a follow-up
    wait_idle(qtbot, app)
    assert book.current.id == asked_in and app.user_messages() == [WORDS, "and the second tallest"]

    typed = []
    app.controller.typist.finished.connect(lambda text, problem: typed.append(text))
    quick.insert_button.click()  # typed into the app that had the focus (offscreen: the text box)
    assert not quick.isVisible() and typed == ["You said: and the second tallest"]
    assert app.controller.quick_question.focus == 0x2A

    from_anywhere(qtbot, app, "ask", "a new question")  # the window was closed: a new conversation
    wait_idle(qtbot, app)
    assert book.current.id != asked_in and app.user_messages() == ["a new question"]
    new = book.current.id
    book.open(asked_in)
    quick.open_button.click()
    assert not quick.isVisible() and book.current.id == new


def test_the_quick_ask_window_shows_only_the_answer_to_its_question(qtbot, start):
    """A reply to a message typed in the window meanwhile is not the answer."""
    app = start()
    quick = app.controller.quick_ask
    app.engines.chat.hold()
    assert app.controller.replies.send("typed in the window")
    qtbot.waitUntil(lambda: app.controller.replies.text != "", timeout=TIMEOUT_MS)
    from_anywhere(qtbot, app, "ask", WORDS)
    assert quick.question.text() == WORDS
    app.engines.chat.release()
    wait_idle(qtbot, app)
    assert quick.answer.toPlainText() == f"You said: {WORDS}"
    assert app.user_messages() == [WORDS]  # asked in a conversation of its own
