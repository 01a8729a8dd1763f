"""The application controller: it builds the app's parts and wires them to the window and to
each other; what each part does lives in that part.

- ``host`` (``EngineHost``): the speech and chat engines, their threads, loading and closing;
  the parts get only ``speech`` and ``chat``, the slot of the engine they use (``engine_slots``);
- ``status`` (``StatusPresenter``): the status bar, notices and labels;
- ``microphones`` (``Microphones``) and ``talk`` (``PushToTalk``): takes from the microphone;
- ``hands_free`` (``HandsFree``): the microphone kept open, each utterance sent;
- ``transcription`` (``Transcription``): a take's words, live while it is held;
- ``book`` (``ConversationBook``): the conversations, the open one, saving;
- ``replies`` (``ReplyFlow``): sending, streaming, stopping, regenerating, continuing;
- ``spoken`` (``SpokenReplies``): replies read aloud as they stream, barge-in, the echo reference;
- ``turns`` (``TurnClock``): how long each turn took, from the release to the first sound;
- ``settings_flow`` (``SettingsFlow``): the settings dialog, validation, applying;
- ``keys`` (``PushToTalkKeys``): the push-to-talk keyboard shortcut;
- ``anywhere`` (``FromAnywhere``): Dictate and Ask Parley from any application, through the
  system-wide shortcuts, the typist and the quick-ask window (``quick_ask``);
- ``tray`` (``Tray``, where the desktop has a tray): what Parley is doing, and its menu;
- ``model_choice`` (``ModelChooser``): the built-in chat models measured in the background, and
  the best one that keeps up with speech loaded when the user is idle.

Its signals say what happened, for whoever watches the app from outside the window (the
self-test, the benchmark, tests).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from .conversations.book import ConversationBook
from .conversations.replies import ReplyFlow
from .conversations.store import Store
from .conversations.turn_timings import TurnClock
from .desktop import autostart
from .desktop.global_shortcuts import GlobalShortcuts
from .desktop.tray import Tray
from .desktop.typing import Typist
from .engine_host import EngineHost
from .engines import Engines
from .local_server import LocalServer
from .model_choice import ModelChooser
from .settings import Settings
from .settings_flow import SettingsFlow
from .signals import emit
from .status import StatusPresenter
from .ui.main_window import MainWindow
from .ui.ptt import PushToTalkKeys
from .ui.quick_ask import QuickAskWindow
from .voice.from_anywhere import FromAnywhere
from .voice.hands_free import HandsFree
from .voice.microphones import Microphones
from .voice.push_to_talk import PushToTalk
from .voice.read_aloud import NaturalReadAloud, ReadAloud
from .voice.spoken_replies import SpokenReplies
from .voice.transcription import Transcription

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
        settings_path: Path | None = None,
        settings_warnings: list[str] | None = None,
        read_aloud: Callable[[], ReadAloud | NaturalReadAloud] | None = None,
    ) -> None:
        """``settings_path``: where changed settings are saved (None: the user's config folder).
        ``read_aloud``: makes the text-to-speech output, on first need (None: the voice the
        settings name, the natural voice by default, the system's voice as the fallback)."""
        super().__init__(window)
        self.window = window
        self._settings_warnings = list(settings_warnings or [])
        self.stopped_cleanly: bool | None = None  # set by shutdown(): did both engine threads end?

        self.engines = engines
        self.host = EngineHost(engines, self)
        self.speech, self.chat = speech, chat = self.host.speech, self.host.chat
        self.status = StatusPresenter(window, speech, chat, self)
        self.settings_flow = SettingsFlow(settings, engines, self.status, path=settings_path, parent=self)
        self.microphones = Microphones(
            speech, engines.input_devices, self.status, lambda: self.settings.microphone, self
        )
        bar = window.input_bar
        self.talk = PushToTalk(speech, engines.recorder, self.microphones, self.status, bar, self._talk_problem, self)
        self.hands_free = HandsFree(
            speech,
            engines.listener,
            lambda: engines.speech_detector(self.settings.hands_free_detector),
            self.microphones,
            self.status,
            bar,
            self,
        )
        self.transcription = Transcription(speech, self.status, lambda: self.settings, self)
        self.book = ConversationBook(store, window, self.status, self)
        self.replies = ReplyFlow(chat, self.book, self.status, lambda: self.settings, self)
        self.turns = TurnClock(parent=self)
        self.spoken = SpokenReplies(engines, self.hands_free, self.status, lambda: self.settings, read_aloud, self)
        self.keys = PushToTalkKeys(window, settings.ptt_shortcut)
        self.anywhere = FromAnywhere(
            GlobalShortcuts(self),
            Typist(self),
            self.status,
            lambda: self.settings,
            self._start_take,
            self.talk.release,
            lambda: self.talk.purpose if self.talk.recording else None,
            self,
        )
        self.quick_ask = QuickAskWindow()
        self._quick: dict[str, Any] = {"conversation": None, "focus": 0, "pending": False, "active": False}
        self.tray = Tray(window.windowIcon(), self) if Tray.available() else None
        self.local_server = LocalServer(speech, chat, self)
        self.model_choice = ModelChooser(
            engines,
            self.status,
            lambda: self.settings,
            lambda: self.idle and not self.talk.recording,
            lambda: self.host.load_chat(self.settings),
            self,
        )
        self._transcribing = False  # a take's words are being worked out
        self._press_ended_hands_free = False
        self._wire()

    @property
    def settings(self) -> Settings:
        return self.settings_flow.value

    @property
    def read_aloud(self) -> ReadAloud | NaturalReadAloud | None:
        """What reads replies aloud, once made (``spoken``)."""
        return self.spoken.output

    @property
    def idle(self) -> bool:
        """No reply is being generated and neither engine has work queued."""
        return not self.replies.busy and not self.speech.busy and not self.chat.busy

    def _wire(self) -> None:
        w, bar, host, status = self.window, self.window.input_bar, self.host, self.status
        bar.send_requested.connect(self.replies.send)
        bar.stop_requested.connect(self.stop)
        bar.talk_pressed.connect(self._talk_pressed)
        bar.talk_released.connect(self._talk_released)
        self.keys.pressed.connect(self._talk_pressed)
        self.keys.released.connect(self._talk_released)
        bar.hands_free_toggled.connect(self.set_hands_free)
        w.settings_requested.connect(self.open_settings)
        w.closing.connect(self.shutdown)

        self.talk.starting.connect(self.replies.stop)  # talking during a reply stops it first
        self.talk.recording_changed.connect(self._take_changed)
        self.talk.clip_ready.connect(lambda _audio, purpose: self.turns.ended(purpose, self.talk.released_at))
        self.talk.clip_ready.connect(self.transcription.transcribe)
        self.talk.recording_changed.connect(lambda on: None if on else self.anywhere.take_ended())
        self.transcription.partial.connect(bar.set_live_text)
        self.hands_free.utterance.connect(lambda _audio: self.turns.ended("hands-free"))
        self.hands_free.utterance.connect(lambda audio: self.transcription.transcribe(audio, "hands-free"))
        self.hands_free.listening_changed.connect(self._refresh)
        self.hands_free.listening_changed.connect(self.spoken.hold_speakers)
        self.hands_free.speech_started.connect(self.spoken.user_may_speak)
        self.hands_free.speech_dropped.connect(self.spoken.false_start)
        self.spoken.stop_reply.connect(self.replies.stop)
        self.spoken.speaking_changed.connect(self._refresh)
        self.transcription.heard.connect(self._use_transcript)
        host.speech_ready.connect(self.transcription.retry)
        self._wire_replies()
        self.settings_flow.changed.connect(self._settings_changed)
        for signal in (host.changed, self.microphones.changed):
            signal.connect(self._refresh)
        host.loading.connect(status.loading)
        host.speech_ready.connect(status.speech_ready)
        host.chat_ready.connect(status.chat_ready)
        host.load_failed.connect(status.load_failed)
        host.may_not_fit.connect(lambda _role, warning: status.notice(warning))
        host.remote_problem.connect(status.remote_problem)
        host.server_lost.connect(lambda text: status.announce(text + "."))
        host.changed.connect(status.show_models)
        host.notice.connect(status.notice)
        host.chat_ready.connect(self.model_choice.chat_loaded)
        for signal in (self.talk.starting, self.replies.started, self.hands_free.speech_started):
            signal.connect(self.model_choice.make_way)  # measuring models never competes with the user

        host.speech_ready.connect(self.speech_ready)
        host.chat_ready.connect(self.chat_ready)
        host.load_failed.connect(self.load_failed)
        self.talk.recording_changed.connect(self.recording_changed)
        self.transcription.heard.connect(lambda text, _source: emit(self.transcribed, text))  # once used
        self.replies.started.connect(self.reply_started)
        self.replies.progress.connect(self.reply_progress)
        self.replies.finished.connect(self.reply_finished)
        self._wire_tray()
        self._wire_anywhere()
        host.loading.connect(self.local_server.models_changing)  # before a model goes: stop serving it
        for signal in (host.speech_ready, host.chat_ready):
            signal.connect(self._sync_server)
        self.local_server.changed.connect(self._show_server)

    def _wire_replies(self) -> None:
        """The reply flow acts on the view's buttons; the view and the Send/Stop button follow the
        reply's state; the book saves what the reply changed."""
        view, replies, state = self.window.conversation_view, self.replies, self.replies.state
        view.regenerate_requested.connect(replies.regenerate)
        view.continue_requested.connect(replies.continue_reply)
        view.reply_requested.connect(replies.regenerate)
        self.book.leaving.connect(replies.stop)
        self.book.shown.connect(replies.desync)
        self.host.chat_ready.connect(replies.desync)
        # The model reads the conversation while the user still speaks or types (after desync).
        for signal in (self.book.shown, self.host.chat_ready, self.talk.starting, self.hands_free.speech_started):
            signal.connect(replies.prepare)
        self.anywhere.asking.connect(replies.prepare)
        state.started.connect(self.turns.reply_started)  # before the view: the message gets its timings first
        state.grew.connect(self.turns.reply_grew)
        state.ended.connect(self.turns.reply_ended)
        self.spoken.first_sound.connect(self.turns.sounded)
        state.started.connect(view.follow_reply)
        state.grew.connect(view.reply_grew)
        state.ended.connect(view.reply_ended)
        state.busy_changed.connect(self.window.input_bar.set_busy)
        state.saving.connect(lambda conversation, checkpoint: self.book.save(conversation, checkpoint=checkpoint))
        replies.answered.connect(self.spoken.reply_done)
        replies.started.connect(self.spoken.reply_started)
        replies.progress.connect(self.spoken.reply_progress)
        replies.finished.connect(self.spoken.reply_finished)

    def _wire_tray(self) -> None:
        """The tray follows what Parley is doing; its menu opens the window, switches hands-free
        and quits; with it, closing the window may only hide it."""
        for signal in (
            self.talk.recording_changed,
            self.hands_free.listening_changed,
            self.replies.started,
            self.replies.finished,
        ):
            signal.connect(self._update_tray)
        self.talk.clip_ready.connect(lambda _audio, _purpose: self._set_transcribing(True))
        self.hands_free.utterance.connect(lambda _audio: self._set_transcribing(True))
        self.transcription.heard.connect(lambda _text, _source: self._set_transcribing(False))
        tray = self.tray
        if tray is None:
            return
        tray.open_requested.connect(self.window.bring_forward)
        tray.hands_free_toggled.connect(self.set_hands_free)
        tray.dictate_requested.connect(lambda: self.anywhere.toggle("dictate"))
        tray.quit_requested.connect(self.window.quit)
        self.window.hidden_to_tray.connect(tray.window_hidden)
        self.window.hide_on_close = self.settings.close_to_tray
        tray.show()

    def _wire_anywhere(self) -> None:
        """Dictated words are typed, or kept in the text box; a question from anywhere is asked in
        a conversation of its own and answered in the quick-ask window."""
        anywhere, quick = self.anywhere, self.quick_ask
        anywhere.shortcuts.settled.connect(self._shortcuts_settled)
        anywhere.not_typed.connect(self.window.input_bar.insert_text)
        anywhere.asking.connect(quick.listening)
        anywhere.asked.connect(self._ask)
        self.transcription.partial.connect(lambda text: quick.heard_so_far(text) if self._asking_aloud() else None)
        quick.insert_requested.connect(self._insert_answer)
        quick.open_requested.connect(self._open_quick_ask)
        self.replies.started.connect(self._quick_reply_started)
        self.replies.progress.connect(lambda piece: quick.grew(piece) if self._quick["active"] else None)
        self.replies.finished.connect(self._quick_reply_finished)

    def _asking_aloud(self) -> bool:
        return self.talk.recording and self.talk.purpose == "ask"

    def _ask(self, text: str, focus: int) -> None:
        """A question from anywhere: a follow-up while the quick-ask window shows the last answer,
        else the first message of a new conversation."""
        quick = self.quick_ask
        if self.chat.model is None:
            quick.problem(self.chat.problem or "The chat model is still loading…")
            self.window.input_bar.insert_text(text)
            return
        follow_up = quick.isVisible() and self._quick["conversation"] == self.book.current.id
        if not follow_up or self.book.current.id is None:
            self.book.new()
            self._quick["conversation"] = self.book.current.id
        self._quick.update(focus=focus or self._quick["focus"], pending=True)
        quick.asked(text)
        self.replies.send_when_free(text)

    def _quick_reply_started(self) -> None:
        self._quick["active"], self._quick["pending"] = self._quick["pending"], False

    def _quick_reply_finished(self, text: str, how: str) -> None:
        if self._quick["active"]:
            self._quick["active"] = False
            self.quick_ask.answered(text, how)

    def _insert_answer(self, text: str) -> None:
        self.quick_ask.hide()
        self.anywhere.insert(text, self._quick["focus"])

    def _open_quick_ask(self) -> None:
        self.quick_ask.hide()
        if self._quick["conversation"] is not None:
            self.book.open(self._quick["conversation"])
        self.window.bring_forward()

    def command(self, argv: list[str]) -> None:
        """A later launch's command line: ``dictate`` / ``ask`` with ``--toggle``, ``--press`` or
        ``--release`` start or end a take from anywhere; anything else brings the window forward."""
        if not (len(argv) == 2 and self.anywhere.command(argv[0], argv[1])):
            self.window.bring_forward()

    def _start_take(self, purpose: str) -> bool:
        """A take for Dictate or Ask Parley: Parley stops speaking; hands-free, which would hear
        the same words, is turned off first."""
        self.spoken.barge_in()
        if self.hands_free.listening or self.settings.hands_free:
            self.set_hands_free(False)
            self.status.say("Hands-free is off while you use the shortcut.")
        return self.talk.press(purpose)

    def _set_transcribing(self, on: bool) -> None:
        self._transcribing = on
        self._update_tray()

    def _update_tray(self, *_args: Any) -> None:
        if self.tray is not None:
            self.tray.show_activity(
                recording=self.talk.recording,
                transcribing=self._transcribing,
                answering=self.replies.busy,
                hands_free=self.hands_free.listening,
            )

    def _sync_server(self, *_args: Any) -> None:
        self.local_server.sync(self.settings.serve_other_apps, self.settings.serve_port)

    def _show_server(self) -> None:
        server = self.local_server
        if server.address:
            self.window.set_server_text(
                "Serving other apps" + (" · answering" if server.busy else ""),
                f"Other apps on this computer use Parley's models at {server.address}",
            )
        else:
            self.window.set_server_text("")
        if server.problem:
            self.status.notice(server.problem)

    # ------------------------------------------------------------------ start and stop

    def start(self) -> None:
        """Show the window (unless Parley starts in the tray) and fill it, then load both models
        in the background."""
        if not (self.settings.start_minimized and self.tray is not None):
            self.window.show()
        for warning in self._settings_warnings:
            self.status.notice(warning)
        self.book.open_latest()
        self.anywhere.apply()
        if self.book.store.interrupted:
            self.status.announce(
                "Parley did not close properly last time; the reply it was writing was kept and can be continued."
            )
        if self.settings.read_replies_aloud:
            self.spoken.ensure()
        self.microphones.probe()
        self.host.load(self.settings)
        self._refresh()

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
        self.quick_ask.close()
        self.talk.cancel()
        self.hands_free.stop()
        self.spoken.close()
        joined = self.host.close_chat(max(0.1, deadline - time.monotonic()))
        self.replies.abandon()  # if the engine did not stop in time: keep what was shown
        joined = self.host.close_speech(max(0.1, deadline - time.monotonic())) and joined
        self.book.save()
        self.book.store.close()
        self.stopped_cleanly = joined = joined and measuring_stopped
        return joined

    # ------------------------------------------------------------------ wiring between the parts

    def set_hands_free(self, on: bool) -> None:
        """Turn hands-free mode on or off (a setting, so it lasts)."""
        if on != self.settings.hands_free:
            self.settings_flow.update(lambda s: setattr(s, "hands_free", on))
        else:
            self._refresh()

    def _talk_pressed(self) -> None:
        """The talk key or button: stops Parley speaking (and its reply); ends hands-free mode
        when it is on, else starts a take."""
        self.spoken.barge_in()
        if self.hands_free.listening or self.settings.hands_free:
            self._press_ended_hands_free = True
            self.set_hands_free(False)
            return
        self.talk.press()

    def _talk_released(self) -> None:
        if self._press_ended_hands_free:
            self._press_ended_hands_free = False
            return
        self.talk.release()

    def _take_changed(self, recording: bool) -> None:
        if recording:
            self.transcription.begin_live(self.talk.recorder.snapshot)
        else:
            self.transcription.stop_live()

    def _use_transcript(self, text: str, source: str) -> None:
        """A take's words: sent as the user's message, or put in the text box to edit first;
        hands-free, each utterance is sent, unless it was Parley's own voice."""
        if source == "hands-free" and not self.spoken.heard(text):
            self.turns.forget()
            return
        sent = bool(text) and self.chat.model is not None and source != "dictate"
        if sent and (source != "talk" or self.settings.send_on_release):
            self.turns.transcribed()
        else:
            self.turns.forget()
        if source in ("dictate", "ask"):
            self.anywhere.heard(text, source)
            return
        if not text:
            return
        if source == "hands-free" and self.chat.model is not None:
            self.replies.send_when_free(text)
        elif not self.settings.send_on_release or self.chat.model is None:
            self.window.input_bar.insert_text(text)  # with no chat model, keep it to send later
        else:
            self.replies.send_when_free(text)

    def _listen_problem(self) -> str | None:
        """Why the microphone cannot be used now (None: it can)."""
        speech = self.speech
        if speech.problem:
            return speech.problem
        if speech.model is None:
            return "The speech model is still loading…"
        return self.microphones.unavailable()

    def _talk_problem(self) -> str | None:
        """Why push-to-talk cannot record now (None: it can)."""
        return self._listen_problem()

    def _refresh(self, *_args: Any) -> None:
        chat = self.chat
        listen_problem = self._listen_problem()
        self.hands_free.sync(self.settings.hands_free, listen_problem)
        self.window.input_bar.set_hands_free(self.hands_free.listening, listen_problem is None, listen_problem or "")
        chat_problem = chat.problem or (None if chat.model else "The chat model is still loading…")
        self.status.show_availability(
            self._talk_problem(), chat_problem, self.settings.ptt_shortcut, self.hands_free.listening
        )

    def _shortcuts_settled(self) -> None:
        """Say which system-wide shortcuts cannot be used, and, once ever, which can."""
        shortcuts = self.anywhere.shortcuts
        for problem in dict.fromkeys(shortcuts.problems.values()):
            self.status.notice(problem)
        s = self.settings
        if shortcuts.active and not s.told_about_global_shortcuts:
            said = {
                "dictate": f"hold {s.dictate_shortcut} to dictate into any app",
                "ask": f"{s.ask_shortcut} to ask Parley",
            }
            self.status.notice(
                "Parley listens everywhere: "
                + ", ".join(said[a] for a in shortcuts.active)
                + ". Change or turn them off in Settings > Voice."
            )
            self.settings_flow.update(lambda s: setattr(s, "told_about_global_shortcuts", True))

    def open_settings(self) -> None:
        voices = [*self.engines.natural_voices(), ("system", "System voice (speech-dispatcher)")]
        self.settings_flow.open_dialog(
            self.window,
            self.microphones.names or [],
            self.spoken.ensure().problem,
            self.engines.check_server,
            voices,
            shortcut_problems=list(dict.fromkeys(self.anywhere.shortcuts.problems.values())),
            devices_in_use=self.devices_in_use(),
            chat_choice=self.model_choice.choice,
        )

    def devices_in_use(self) -> list[str]:
        """Where each loaded model runs and why (auto's measured choice, or a fallback), for Settings."""
        lines = []
        for role, slot in (("Speech", self.speech), ("Chat", self.chat)):
            choice = getattr(slot.model, "device", None)
            if choice is None:
                continue
            why = choice.fallback_reason or choice.note
            lines.append(f"{role}: {choice.device.name}" + (f" — {why}" if why else ""))
        return lines

    def _settings_changed(self, old: Settings, new: Settings) -> None:
        self.host.reload(old, new)
        if old.system_prompt != new.system_prompt:
            self.replies.desync()
            self.replies.prepare()
        if old.ptt_shortcut != new.ptt_shortcut:
            self.keys.set_shortcut(new.ptt_shortcut)
        keys = ("global_shortcuts", "dictate_shortcut", "ask_shortcut")
        if any(getattr(old, k) != getattr(new, k) for k in keys):
            self.anywhere.apply()
        if old.microphone != new.microphone or self.microphones.problem:
            self.microphones.probe()
        if old.hands_free_detector != new.hands_free_detector and self.hands_free.listening:
            self.hands_free.stop()  # listening starts again (``_refresh``) with the new detector
        if old.start_at_login != new.start_at_login:
            problem = autostart.set_enabled(new.start_at_login)
            if problem:
                self.status.notice(problem)
        self.window.hide_on_close = new.close_to_tray and self.tray is not None
        self._sync_server()
        self.spoken.settings_changed(old, new)
        self.status.show_models()
        self._refresh()
