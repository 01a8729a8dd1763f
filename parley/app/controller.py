"""The application controller: it builds the app's parts and flows and connects them to the
window; what happens when the user does something is a flow (``parley.app.flows``), and what
each part does lives in that part.

The parts:
- ``host`` (``EngineHost``): the speech and chat engines, their threads, loading and closing;
  the parts get only ``speech`` and ``chat``, the slot of the engine they use (``engine_slots``);
- ``status`` (``StatusPresenter``): the status bar, notices and labels;
- ``microphones`` (``Microphones``), ``talk`` (``PushToTalk``) and ``hands_free`` (``HandsFree``):
  takes from the microphone, and the microphone kept open;
- ``transcription`` (``Transcription``): a take's words, live while it is held;
- ``book`` (``ConversationBook``): the conversations, the open one, saving;
- ``dictations`` (``DictationLog``): the dictation history, shown in ``history_window``;
- ``replies`` (``ReplyFlow``): sending, streaming, stopping, regenerating, continuing;
- ``spoken`` (``SpokenReplies``): replies read aloud as they stream, the echo reference;
- ``turns`` (``TurnClock``): how long each turn took, from the release to the first sound;
- ``settings_flow`` (``SettingsFlow``): the settings dialog, validation, applying;
- ``keys`` (``PushToTalkKeys``): the push-to-talk keyboard shortcut;
- ``anywhere`` (``FromAnywhere``): the system-wide shortcuts' gestures; ``typist`` types into
  other applications; ``quick_ask`` is the quick-ask window;
- ``tray`` (``Tray``, where the desktop has a tray): what Parley is doing, and its menu;
- ``model_choice`` (``ModelChooser``): the built-in chat models measured in the background, and
  the best one that keeps up with speech loaded when the user is idle.

The flows: ``spoken_turn``, ``dictation``, ``quick_question``, ``hands_free_turn``, ``waking``,
``barge_in`` and ``streaming_reply``.

Its signals say what happened, for whoever watches the app from outside the window (the
self-test, the benchmark, tests).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QApplication

from ..config.settings import Settings
from .conversations.book import ConversationBook
from .conversations.dictation_history import DictationHistory
from .conversations.dictation_log import DictationLog
from .conversations.replies import ReplyFlow
from .conversations.store import Store
from .conversations.turn_timings import TurnClock
from .desktop import autostart
from .desktop.shortcuts.global_shortcuts import GlobalShortcuts
from .desktop.shortcuts.x11_key_state import X11KeyState
from .desktop.tray import Tray
from .desktop.typing.typist import Typist
from .documents.room import DocumentRoom
from .engine_host import EngineHost
from .engines import Engines
from .first_start import FirstStart
from .flows.answering_from_documents import AnsweringFromDocuments
from .flows.asking_first import AskingFirst
from .flows.barge_in import BargeIn
from .flows.dictation import Dictation
from .flows.hands_free_turn import HandsFreeTurn
from .flows.parts import Parts
from .flows.quick_question import QuickQuestion
from .flows.spoken_turn import SpokenTurn
from .flows.streaming_reply import StreamingReply
from .flows.timer_ring import TimerRing
from .flows.waking import Waking
from .local_server import LocalServer
from .model_choice import ModelChooser
from .settings_flow import SettingsFlow
from .speech.from_anywhere import FromAnywhere
from .speech.hands_free import HandsFree
from .speech.microphones import Microphones
from .speech.push_to_talk import PushToTalk
from .speech.transcription import Transcription
from .status import StatusPresenter
from .take_purpose import TakePurpose
from .tools.room import ToolRoom
from .ui.dictation_history import DictationHistoryWindow
from .ui.main_window import MainWindow
from .ui.push_to_talk_keys import PushToTalkKeys
from .ui.quick_ask import QuickAskWindow
from .ui.theme import apply_theme
from .voice.read_aloud import NaturalReadAloud, ReadAloud
from .voice.spoken_replies import SpokenReplies

SHUTDOWN_S = 1.8  # both engine threads together; the window must be gone within 2 s


class Controller(QObject):
    speech_ready = Signal(object)  # the loaded speech model
    chat_ready = Signal(object)  # the loaded chat model
    load_failed = Signal(str, str)  # "speech" | "chat", the message shown
    recording_changed = Signal(bool)
    transcribed = Signal(str)  # what was heard ("" for nothing), once it is used
    reply_started = Signal()
    reply_progress = Signal(str)  # each piece of reply text, as it is shown
    reply_finished = Signal(str, str)  # the reply text, and how it ended (see ReplyFlow.finished)

    def __init__(
        self,
        window: MainWindow,
        engines: Engines,
        settings: Settings,
        store: Store,
        *,
        history: DictationHistory | None = None,
        settings_path: Path | None = None,
        settings_warnings: list[str] | None = None,
        read_aloud: Callable[[], ReadAloud | NaturalReadAloud] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``history``: the dictation history's file (None: kept in memory).
        ``settings_path``: where changed settings are saved (None: the user's config folder).
        ``read_aloud``: makes the text-to-speech output, on first need (None: the voice the
        settings name, the natural voice by default, the system's voice as the fallback).
        ``clock``: seconds, for the turn timings and the shortcuts' taps (tests turn their own)."""
        super().__init__(window)
        self.window = window
        self._settings_warnings = list(settings_warnings or [])
        self.stopped_cleanly: bool | None = None  # set by shutdown(): did both engine threads end?
        self.engines = engines
        self._build_parts(window, engines, settings, store, settings_path, read_aloud, clock)
        self.dictations = DictationLog(
            history or DictationHistory(":memory:"), lambda: self.settings.dictation_history_days, parent=self
        )
        self.history_window: DictationHistoryWindow | None = None  # made when first opened
        self._build_flows(window, clock)
        self._wire()
        self._show_accessibility(settings)

    def _build_parts(
        self,
        window: MainWindow,
        engines: Engines,
        settings: Settings,
        store: Store,
        settings_path: Path | None,
        read_aloud: Callable[[], ReadAloud | NaturalReadAloud] | None,
        clock: Callable[[], float],
    ) -> None:
        self.host = EngineHost(engines, self)
        self.speech, self.chat = speech, chat = self.host.speech, self.host.chat
        self.status = status = StatusPresenter(window, speech, chat, self)
        self.settings_flow = SettingsFlow(settings, engines, status, path=settings_path, parent=self)
        self.microphones = Microphones(speech, engines.input_devices, status, lambda: self.settings.microphone, self)
        bar = window.input_bar
        self.transcription = Transcription(speech, status, self._settings, self)
        self.talk = PushToTalk(
            speech,
            engines.recorder,
            self.microphones,
            self.transcription,
            status,
            bar,
            self._listen_problem,
            clock,
            self,
        )
        self.hands_free = HandsFree(
            speech,
            engines.listener,
            lambda: engines.speech_detector(self.settings.hands_free_detector),
            self.microphones,
            status,
            bar,
            lambda: engines.turn_judge(self.settings.hands_free_turn_end),
            self,
            lambda: engines.wake_detector(self.settings.wake_word, self.settings.wake_threshold),
        )
        self.book = ConversationBook(store, window, status, self)
        self.tools = ToolRoom(
            self._settings,
            status.notice,
            folder=None if store.path == ":memory:" else Path(store.path).parent,  # beside the conversations
            mcp_path=settings_path.with_name("mcp.json") if settings_path is not None else None,  # beside settings
            parent=self,
        )
        self.documents = DocumentRoom(
            None if store.path == ":memory:" else Path(store.path).parent / "documents" / "index.sqlite3", self
        )
        self.replies = ReplyFlow(
            chat, self.book, status, self._settings, self, tools=self.tools, documents=self.documents
        )
        self.turns = TurnClock(clock, self)
        self.spoken = SpokenReplies(engines, self.hands_free, status, self._settings, read_aloud, self)
        self.keys = PushToTalkKeys(window, settings.ptt_shortcut, X11KeyState())
        told = partial(self.settings_flow.update, lambda s: setattr(s, "told_about_global_shortcuts", True))
        self.anywhere = FromAnywhere(
            GlobalShortcuts(self), self.talk, status, self._settings, self._start_from_anywhere, told, clock, self
        )
        self.typist = Typist(self)
        self.quick_ask = QuickAskWindow()
        self.first_start = FirstStart(window, self.settings_flow, lambda: self.idle and not self.talk.recording, self)
        self.tray = Tray(window.windowIcon(), self) if Tray.available() else None
        self.local_server = LocalServer(speech, chat, self._load_embedding, self)
        self.model_choice = ModelChooser(
            engines,
            status,
            self._settings,
            lambda: self.idle and not self.talk.recording,
            lambda: self.host.load_chat(self.settings),
            self,
        )

    def _build_flows(self, window: MainWindow, clock: Callable[[], float]) -> None:
        parts = Parts(
            talk=self.talk,
            hands_free=self.hands_free,
            transcription=self.transcription,
            replies=self.replies,
            book=self.book,
            turns=self.turns,
            voice=self.spoken,
            typist=self.typist,
            status=self.status,
            chat=self.chat,
            window=window,
            quick_ask=self.quick_ask,
            settings=self._settings,
            dictations=self.dictations,
            clock=clock,
        )
        self.barge_in = BargeIn(parts)
        self.asking_first = AskingFirst(parts)
        self.waking = Waking(parts, self._chime)
        self.hands_free_turn = HandsFreeTurn(parts, self.barge_in, self.set_hands_free, self.asking_first, self.waking)
        self.spoken_turn = SpokenTurn(parts, self.barge_in, self.hands_free_turn, self.asking_first)
        notify = self.tray.say if self.tray is not None else None
        self.timer_ring = TimerRing(parts, self._chime, notify)
        self.dictation = Dictation(parts, self.barge_in, self.hands_free_turn)
        self.quick_question = QuickQuestion(parts, self.barge_in, self.hands_free_turn)
        self.streaming_reply = StreamingReply(parts)
        self.answering_from_documents = AnsweringFromDocuments(parts, self.documents)

    @property
    def settings(self) -> Settings:
        return self.settings_flow.value

    def _settings(self) -> Settings:
        """The settings now, for the parts that read them when they act."""
        return self.settings_flow.value

    @property
    def read_aloud(self) -> ReadAloud | NaturalReadAloud | None:
        """What reads replies aloud, once made (``spoken``)."""
        return self.spoken.output

    @property
    def idle(self) -> bool:
        """No reply is being generated and neither engine has work queued."""
        return not self.replies.busy and not self.speech.busy and not self.chat.busy

    # ------------------------------------------------------------------ wiring

    def _wire(self) -> None:
        self._wire_window()
        self._wire_speech_and_voice()
        self._wire_replies()
        self._wire_engines()
        self._wire_outward()
        self._wire_tray()
        self._wire_tools()

    def _wire_window(self) -> None:
        """What the user does in the window, and in the windows and shortcuts from anywhere."""
        w, bar, view = self.window, self.window.input_bar, self.window.conversation_view
        bar.send_requested.connect(self.replies.send)
        bar.stop_requested.connect(self.stop)
        for pressed, released in ((bar.talk_pressed, bar.talk_released), (self.keys.pressed, self.keys.released)):
            pressed.connect(self.spoken_turn.pressed)
            released.connect(self.spoken_turn.released)
        bar.hands_free_toggled.connect(self.set_hands_free)
        view.regenerate_requested.connect(self.replies.regenerate)
        view.continue_requested.connect(self.replies.continue_reply)
        view.reply_requested.connect(self.replies.regenerate)
        book = self.book
        w.new_conversation_requested.connect(book.new)
        w.conversation_selected.connect(book.open)
        w.rename_requested.connect(book.rename)
        w.delete_requested.connect(book.delete)
        w.search_changed.connect(book.search)
        w.export_requested.connect(book.export)
        w.settings_requested.connect(self.open_settings)
        w.dictation_history_requested.connect(self.open_dictation_history)
        self.dictations.changed.connect(self._show_history)
        w.closing.connect(self.shutdown)
        for signal in (w.recommendations_requested, self.settings_flow.recommendations_requested):
            signal.connect(self.first_start.show)
        self.quick_ask.insert_requested.connect(self.quick_question.insert)
        self.quick_ask.open_requested.connect(self.quick_question.open_in_parley)
        self.typist.finished.connect(self.dictation.typed)

    def _wire_speech_and_voice(self) -> None:
        """The user's speech (the microphone kept open, the live transcript) and Parley's voice."""
        hands_free, flow = self.hands_free, self.hands_free_turn
        hands_free.speech_started.connect(flow.speech_began)
        hands_free.speech_dropped.connect(flow.speech_dropped)
        hands_free.utterance.connect(flow.utterance)
        hands_free.listening_changed.connect(self.spoken.hold_speakers)
        for signal in (hands_free.listening_changed, self.spoken.speaking_changed, self.microphones.changed):
            signal.connect(self._show_availability)
        self.transcription.partial.connect(self.window.input_bar.set_live_text)
        self.transcription.partial.connect(self.quick_question.heard_so_far)
        self.spoken.first_sound.connect(self.turns.sounded)

    def _wire_replies(self) -> None:
        """The window and the voice follow the reply; the book saves what it changed; the model
        reads the conversation ahead when another one is shown."""
        replies, state, book = self.replies, self.replies.state, self.book
        book.leaving.connect(replies.stop)
        book.shown.connect(replies.reread)
        state.started.connect(self.streaming_reply.started)
        state.grew.connect(self.streaming_reply.grew)
        state.ended.connect(self.streaming_reply.ended)
        state.busy_changed.connect(self.window.input_bar.set_busy)
        state.saving.connect(lambda conversation, checkpoint: book.save(conversation, checkpoint=checkpoint))
        replies.started.connect(self.spoken.reply_started)
        replies.progress.connect(self.spoken.reply_progress)
        replies.finished.connect(self.spoken.reply_finished)
        replies.answered.connect(self.spoken.reply_done)
        replies.started.connect(self.quick_question.reply_started)
        replies.progress.connect(self.quick_question.reply_grew)
        replies.finished.connect(self.quick_question.reply_finished)

    def _chime(self, cue: str = "") -> None:
        self.engines.chime(lambda exc: None, cue)  # no speakers: the words and the notification still tell

    def _wire_tools(self) -> None:
        """A reply's tool steps and questions, in the window and by voice; timers that ring."""
        replies, tools = self.replies, self.tools
        replies.stepped.connect(self.streaming_reply.stepped)
        replies.asked.connect(self.asking_first.asked)
        replies.question_closed.connect(self.asking_first.closed)
        self.window.conversation_view.question_answered.connect(self.asking_first.clicked)
        tools.changed.connect(replies.reread)
        tools.rang.connect(self.timer_ring.rang)
        self.settings_flow.changed.connect(tools.settings_changed)

    def _wire_engines(self) -> None:
        """The engines' loading, shown; the models served to other apps."""
        host, status = self.host, self.status
        host.loading.connect(status.loading)
        host.loading.connect(self.local_server.models_changing)  # before a model goes: stop serving it
        host.speech_ready.connect(status.speech_ready)
        host.speech_ready.connect(self.transcription.retry)
        host.chat_ready.connect(status.chat_ready)
        host.chat_ready.connect(self.replies.reread)
        for signal in (host.speech_ready, host.chat_ready):
            signal.connect(self._sync_server)
        host.load_failed.connect(status.load_failed)
        host.may_not_fit.connect(lambda _role, warning: status.notice(warning))
        host.remote_problem.connect(status.remote_problem)
        host.server_lost.connect(lambda text: status.announce(text + "."))
        host.changed.connect(status.show_models)
        host.changed.connect(self._show_availability)
        self.settings_flow.changed.connect(self._settings_changed)
        self.local_server.changed.connect(self._show_server)
        host.notice.connect(status.notice)
        host.chat_ready.connect(self.model_choice.chat_loaded)
        host.chat_ready.connect(lambda model: self.first_start.model_ready(model, "chat"))
        host.speech_ready.connect(lambda model: self.first_start.model_ready(model, "speech"))
        for signal in (self.talk.recording_changed, self.replies.started, self.hands_free.speech_started):
            signal.connect(self.model_choice.make_way)  # measuring models never competes with the user

    def _wire_outward(self) -> None:
        """The controller's own signals, for whoever watches the app."""
        self.host.speech_ready.connect(self.speech_ready)
        self.host.chat_ready.connect(self.chat_ready)
        self.host.load_failed.connect(self.load_failed)
        self.talk.recording_changed.connect(self.recording_changed)
        self.transcription.heard.connect(self.transcribed)
        self.replies.started.connect(self.reply_started)
        self.replies.progress.connect(self.reply_progress)
        self.replies.finished.connect(self.reply_finished)

    def _wire_tray(self) -> None:
        """The tray follows what Parley is doing; its menu opens the window, switches hands-free,
        dictates and quits; with it, closing the window may only hide it."""
        tray = self.tray
        if tray is None:
            return
        for signal in (
            self.talk.recording_changed,
            self.transcription.working_changed,
            self.hands_free.listening_changed,
            self.replies.started,
            self.replies.finished,
        ):
            signal.connect(self._update_tray)
        tray.open_requested.connect(self.window.bring_forward)
        tray.hands_free_toggled.connect(self.set_hands_free)
        tray.dictate_requested.connect(partial(self.anywhere.toggle, TakePurpose.DICTATE))
        tray.ask_requested.connect(partial(self.anywhere.toggle, TakePurpose.ASK))
        self.anywhere.shortcuts.settled.connect(self._show_tray_shortcuts)
        tray.history_requested.connect(self.open_dictation_history)
        tray.quit_requested.connect(self.window.quit)
        self.window.hidden_to_tray.connect(tray.window_hidden)
        self.window.hide_on_close = self.settings.close_to_tray
        tray.show()

    def _show_accessibility(self, settings: Settings) -> None:
        """The talk key beside Talk in the menu; when a screen reader is told a reply."""
        self.window.set_talk_shortcut(settings.ptt_shortcut)
        self.window.conversation_view.set_reply_announcements(settings.announce_replies)

    def _start_from_anywhere(self, purpose: TakePurpose, focus: int) -> bool:
        """A shortcut from anywhere starts its flow's take."""
        if purpose is TakePurpose.ASK:
            return self.quick_question.start(focus)
        return self.dictation.start(focus, cleaned=purpose is TakePurpose.DICTATE_CLEANED)

    def command(self, argv: list[str]) -> None:
        """A later launch's command line: ``dictate`` / ``ask`` with ``--toggle``, ``--press`` or
        ``--release`` start or end a take from anywhere; anything else brings the window forward."""
        if not (len(argv) == 2 and self.anywhere.command(argv[0], argv[1])):
            self.window.bring_forward()

    def _show_tray_shortcuts(self) -> None:
        """The keys beside Dictate and Ask Parley in the tray's menu: those listened for now."""
        active, s = self.anywhere.shortcuts.active, self.settings
        if self.tray is not None:
            self.tray.set_shortcuts(
                s.dictate_shortcut if TakePurpose.DICTATE.value in active else "",
                s.ask_shortcut if TakePurpose.ASK.value in active else "",
            )

    def _update_tray(self, *_args: Any) -> None:
        if self.tray is not None:
            self.tray.show_activity(
                recording=self.talk.recording,
                transcribing=self.transcription.working,
                answering=self.replies.busy,
                hands_free=self.hands_free.listening,
            )

    def _sync_server(self, *_args: Any) -> None:
        s = self.settings
        self.local_server.sync(s.serve_other_apps, s.serve_port, s.serve_embedding_model)

    def _load_embedding(self, setting: str) -> Any:
        """On the local server's thread: the embedding model it serves, on the settings' device."""
        return self.engines.load_embedding(setting, self.settings.device, self.settings.threads or None)

    def _show_server(self) -> None:
        server = self.local_server
        if server.address:
            self.window.set_server_text(
                self.tr("Serving other apps · answering") if server.busy else self.tr("Serving other apps"),
                self.tr("Other apps on this computer use Parley's models at {address}").format(address=server.address),
            )
        else:
            self.window.set_server_text("")
        if server.problem:
            self.status.notice(server.problem)
        notice = server.take_notice()
        if notice:
            self.status.notice(notice)

    # ------------------------------------------------------------------ start and stop

    def start(self) -> None:
        """Show the window (unless Parley starts in the tray) and fill it, then load both models
        in the background."""
        if not (self.settings.start_minimized and self.tray is not None):
            self.window.show()
        for warning in self._settings_warnings:
            self.status.notice(warning)
        self.book.open_latest()
        self.first_start.start()
        self.anywhere.apply()
        if self.book.store.interrupted:
            self.status.announce(
                "Parley did not close properly last time; the reply it was writing was kept and can be continued."
            )
        if self.settings.read_replies_aloud:
            self.spoken.ensure()
        self.microphones.probe()
        self.host.load(self.settings)
        self.tools.start()
        self.documents.start()
        self._show_availability()

    def stop(self) -> None:
        """Stop the streaming reply (its text so far is kept) and any reading aloud."""
        self.replies.stop()
        self.spoken.stop()

    def shutdown(self) -> bool:
        """Stop everything, keep a partial reply, close the engines; True if both threads ended in time.

        A thread can outlive the deadline only inside a native call with no abort hook (a model
        still loading); ``stopped_cleanly`` then tells the caller to leave without Python's
        teardown, which would otherwise destroy a running QThread and abort the process."""
        if self.host.closing:
            return bool(self.stopped_cleanly)
        deadline = time.monotonic() + SHUTDOWN_S
        self.host.stop_all()
        measuring_stopped = self.model_choice.close(0.5)
        self.local_server.shutdown()  # other apps' replies end before the models close
        self.anywhere.close()
        self.typist.cancel()
        self.quick_ask.close()
        self.first_start.shutdown()
        self.talk.cancel()
        self.hands_free.stop()
        self.spoken.close()
        self.tools.close()  # the MCP servers' processes end with Parley
        joined = self.host.close_chat(max(0.1, deadline - time.monotonic()))
        self.replies.abandon()  # if the engine did not stop in time: keep what was shown
        self.documents.close()  # after the chat thread, which searches them
        joined = self.host.close_speech(max(0.1, deadline - time.monotonic())) and joined
        self.book.save()
        self.book.store.close()
        self.dictations.history.close()
        if self.history_window is not None:
            self.history_window.close()
        self.stopped_cleanly = joined = joined and measuring_stopped
        return joined

    # ------------------------------------------------------------------ what can be used now

    def set_hands_free(self, on: bool) -> None:
        """Turn hands-free mode on or off (a setting, so it lasts)."""
        if on != self.settings.hands_free:
            self.settings_flow.update(lambda s: setattr(s, "hands_free", on))
        else:
            self._show_availability()

    def _listen_problem(self) -> str | None:
        """Why the microphone cannot be used now (None: it can)."""
        speech = self.speech
        if speech.problem:
            return speech.problem
        if speech.model is None:
            return self.tr("The speech model is still loading…")
        return self.microphones.unavailable()

    def _show_availability(self, *_args: Any) -> None:
        """Listen hands-free when the setting wants it and the microphone can; show what can be
        used now (talk, hands-free, send) and the hint that goes with it."""
        chat = self.chat
        listen_problem = self._listen_problem()
        self.hands_free.sync(self.settings.hands_free, listen_problem)
        self.window.input_bar.set_hands_free(self.hands_free.listening, listen_problem is None, listen_problem or "")
        chat_problem = chat.problem or (None if chat.model else self.tr("The chat model is still loading…"))
        self.status.show_availability(
            listen_problem, chat_problem, self.settings.ptt_shortcut, self.hands_free.listening
        )

    # ------------------------------------------------------------------ the dictation history

    def open_dictation_history(self) -> None:
        """File > Dictation history, or the tray's: the history window, above the others."""
        self.dictation.history_opened()
        if self.history_window is None:
            self.history_window = window = DictationHistoryWindow(self.window)
            window.type_again_requested.connect(self.dictation.type_again)
            window.clear_requested.connect(self.dictations.clear)
        self._show_history()
        self.history_window.appear()

    def _show_history(self) -> None:
        if self.history_window is not None:
            log = self.dictations
            self.history_window.show_records(log.records(), log.problem, self.settings.dictation_history_days)

    # ------------------------------------------------------------------ settings

    def open_settings(self) -> None:
        voices = [*self.engines.natural_voices(), ("system", self.tr("System voice (speech-dispatcher)"))]
        self.settings_flow.open_dialog(
            self.window,
            self.microphones.names or [],
            self.spoken.ensure().problem,
            self.engines.check_server,
            voices,
            shortcut_problems=self.anywhere.problems,
            devices_in_use=self.devices_in_use(),
            chat_choice=self.model_choice.choice,
            tools=self.tools,
        )

    def devices_in_use(self) -> list[str]:
        """Where each loaded model runs and why (auto's measured choice, or a fallback), for Settings."""
        lines = []
        for role, slot in ((self.tr("Speech"), self.speech), (self.tr("Chat"), self.chat)):
            choice = getattr(slot.model, "device", None)
            if choice is None:
                continue
            why = choice.fallback_reason or choice.note
            lines.append(
                self.tr("{role}: {device}").format(role=role, device=choice.device.name) + (f" — {why}" if why else "")
            )
        return lines

    def _settings_changed(self, old: Settings, new: Settings) -> None:
        self.host.reload(old, new)
        if old.system_prompt != new.system_prompt:
            self.replies.reread()
        if old.ptt_shortcut != new.ptt_shortcut:
            self.keys.set_shortcut(new.ptt_shortcut)
        self._show_accessibility(new)
        if old.appearance != new.appearance and (app := QApplication.instance()) is not None:
            apply_theme(app, new.appearance)  # type: ignore[arg-type]  # a QApplication: the app has widgets
        keys = ("global_shortcuts", "dictate_shortcut", "dictate_cleaned_shortcut", "ask_shortcut")
        if any(getattr(old, k) != getattr(new, k) for k in keys):
            self.anywhere.apply()
        if old.microphone != new.microphone or self.microphones.problem:
            self.microphones.probe()
        self.hands_free.settings_changed(old, new)  # listening starts again (``_show_availability``)
        if old.start_at_login != new.start_at_login:
            problem = autostart.set_enabled(new.start_at_login)
            if problem:
                self.status.notice(problem)
        if old.dictation_history_days != new.dictation_history_days:
            self.dictations.apply_retention()
            self._show_history()
        self.window.hide_on_close = new.close_to_tray and self.tray is not None
        self._sync_server()
        self.spoken.settings_changed(old, new)
        self.status.show_models()
        self._show_availability()
