"""The application controller: what happens when the user talks, types, stops or switches.

It owns the settings, the conversation store, one ``EngineWorker`` per engine and the
microphone ``Recorder``; the window only displays and reports.  Engine objects reach it
through an ``Engines`` object (``LocalEngines`` for the real ones) and are only ever called
inside worker jobs, on their engine's own thread.

The open conversation lives in memory (``OpenConversation``) and is written to the store
after each message; when a write fails (disk full, read-only) the user is told, nothing is
lost from the window, and the unsaved messages are written with the next successful save.

Its signals say what happened, for whoever watches the app from outside the window (the
self-test, the benchmark, tests); the window itself is updated directly.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QKeySequence

from .engines import Engines
from .settings import BASE_SPEECH_MODEL, DEFAULT_MODEL, Settings, save_settings
from .signals import emit
from .speech_output import SpeechOutput
from .store import Store, StoreError
from .tasks import EngineWorker, Job, JobCancelled
from .ui.main_window import MainWindow
from .ui.ptt import PushToTalkKeys
from .ui.settings_dialog import SettingsDialog

log = logging.getLogger("parley.controller")

NEW_TITLE = "New chat"
SAMPLE_RATE = 16_000
SHORTEST_CLIP_S = 0.3
LONGEST_CLIP_S = 120.0      # a recording stops by itself here and is transcribed as if released
LEVEL_FLOOR_DB = -60.0      # the level meter shows -60..0 dBFS (speech sits around -30..-15)
SHUTDOWN_S = 1.8            # both engine threads together; the window must be gone within 2 s
_NON_SPEECH = re.compile(r"^\s*(\[[^\]]*\]|\([^)]*\)|\*[^*]*\*)\s*$")   # [BLANK_AUDIO], (music), *cough*


@dataclass
class Entry:
    """One message of the open conversation, and whether the store has its current text."""
    role: str
    content: str
    complete: bool = True
    stats: dict[str, Any] | None = None
    store_id: int | None = None
    dirty: bool = True


@dataclass(eq=False)       # identity: two empty conversations are not the same one
class OpenConversation:
    id: int | None                     # None until the store has accepted it
    title: str
    entries: list[Entry] = field(default_factory=list)
    title_dirty: bool = False
    deleted: bool = False


@dataclass(eq=False)
class _Reply:
    """A reply being generated: where its text goes, and the text so far."""
    conversation: OpenConversation
    target: Entry | None               # the assistant entry a regenerate replaces; None: a new reply
    text: str = ""
    job: Job | None = None


class _RecorderSignals(QObject):
    """Carries a Recorder's audio-thread callbacks to the UI thread (queued, by thread affinity)."""
    level = Signal(float)
    failed = Signal(object)
    limit = Signal()


def _level_fraction(db: float) -> float:
    """A level in dBFS as the meter's 0..1."""
    return min(1.0, max(0.0, (db - LEVEL_FLOOR_DB) / -LEVEL_FLOOR_DB))


class Controller(QObject):
    speech_ready = Signal(object)         # the loaded speech model
    chat_ready = Signal(object)           # the loaded chat model
    load_failed = Signal(str, str)        # "speech" | "chat", the message shown
    microphones_changed = Signal(object)  # the microphone names found (empty: none)
    recording_changed = Signal(bool)
    transcribed = Signal(str)             # what was heard ("" for nothing), once it is shown
    reply_started = Signal()
    reply_progress = Signal(str)          # each piece of reply text, as it is shown
    reply_finished = Signal(str, str)     # the reply text, and how it ended: an engine finish
                                          # reason ("eog", "max_tokens", ...), "cancelled" or "error"

    def __init__(self, window: MainWindow, engines: Engines, settings: Settings, store: Store, *,
                 settings_path: Path | None = None, settings_warnings: list[str] | None = None,
                 speech_output: Callable[[], SpeechOutput] = SpeechOutput) -> None:
        """``settings_path``: where ``apply_settings`` saves (None: the user's config folder).
        ``speech_output``: makes the text-to-speech output, on first need."""
        super().__init__(window)
        self.window = window
        self.engines = engines
        self.settings = settings
        self.store = store
        self._settings_path = settings_path
        self._settings_warnings = list(settings_warnings or [])
        self._make_speech_output = speech_output
        self.speech_worker = EngineWorker("speech", self)
        self.chat_worker = EngineWorker("chat", self)

        self.speech_model: Any = None
        self.chat_model: Any = None
        self._session: Any = None
        self._speech_problem: str | None = None
        self._chat_problem: str | None = None
        self._microphones: list[str] | None = None    # None until probed
        self._mic_problem: str | None = None
        self._recorder: Any = None
        self._recorder_signals: _RecorderSignals | None = None
        self._reply: _Reply | None = None
        self._queued_text: str | None = None          # a transcript that arrived while a reply was ending
        self._history_synced = False                   # does the chat session hold exactly our entries?
        self._speech_output: SpeechOutput | None = None
        self._announced: set[str] = set()
        self._fallbacks: dict[str, str] = {}           # "speech"/"chat": why it runs on the CPU
        self._search_text = ""
        self._unsaved: list[OpenConversation] = []     # switched away from before a save succeeded
        self._closing = False
        self.stopped_cleanly: bool | None = None       # set by shutdown(): did both engine threads end?
        self._last_reply_tps: float | None = None
        self._last_clip_s: float | None = None
        self._chat_load_fraction: float | None = None
        self._probing = False
        self._sticky_until = 0.0                       # an announcement holds the status bar until then
        self.max_recording_s = LONGEST_CLIP_S
        self.load_seconds: dict[str, float] = {}       # "speech"/"chat": how long the last load took
        self.conversation = OpenConversation(None, NEW_TITLE)

        self.ptt_keys = PushToTalkKeys(window, settings.ptt_shortcut)
        self._elapsed_timer = QTimer(self, interval=100)
        self._elapsed_timer.timeout.connect(self._show_elapsed)
        self._connect_window()

    def _connect_window(self) -> None:
        w, bar = self.window, self.window.input_bar
        bar.send_requested.connect(self.send_text)
        bar.stop_requested.connect(self.stop)
        bar.talk_pressed.connect(self.ptt_pressed)
        bar.talk_released.connect(self.ptt_released)
        self.ptt_keys.pressed.connect(self.ptt_pressed)
        self.ptt_keys.released.connect(self.ptt_released)
        w.conversation_view.regenerate_requested.connect(self.regenerate)
        w.new_conversation_requested.connect(self.new_conversation)
        w.conversation_selected.connect(self.open_conversation)
        w.rename_requested.connect(self.rename_conversation)
        w.delete_requested.connect(self.delete_conversation)
        w.search_changed.connect(self.search)
        w.export_requested.connect(self.export_conversation)
        w.settings_requested.connect(self.open_settings)
        w.closing.connect(self.shutdown)

    # ================================================================== start

    def start(self) -> None:
        """Call once the window is visible: fills it, then loads both models in the background."""
        for warning in self._settings_warnings:
            self.window.show_notice(warning)
        conversations = self._list_conversations()
        if conversations:
            self.open_conversation(conversations[0].id)
        else:
            self.new_conversation()
        if self.settings.speak_replies:
            self._ensure_speech_output()
        self._probe_microphones()
        self._load_speech()
        self._load_chat()
        self._update_availability()

    @property
    def busy(self) -> bool:
        """A reply is being generated (the Send button is a Stop button)."""
        return self._reply is not None

    # ================================================================== models

    def _load_speech(self, previous: Any = None) -> None:
        setting, device, threads = self.settings.speech_model, self.settings.device, self.settings.threads or None
        engines = self.engines

        def load(job: Job) -> Any:
            if previous is not None:
                previous.close()
            # The job is the conversion's cancel flag: closing the window during a first-use
            # conversion stops it between chunks instead of waiting for it.
            path = engines.speech_model_path(setting, job.emit, job)
            started = time.perf_counter()
            model = engines.load_speech(path, device, threads)
            return model, time.perf_counter() - started

        self._speech_problem = None
        self._fallbacks.pop("speech", None)
        self._routine_status("Preparing the speech model…" if setting in (DEFAULT_MODEL, BASE_SPEECH_MODEL)
                             else "Loading the speech model…", 0)
        self.speech_worker.submit(load, on_done=self._speech_loaded, on_error=self._speech_failed,
                                  on_progress=self._speech_progress, name="load speech model")

    def _speech_progress(self, fraction: float) -> None:
        self._routine_status(f"Preparing the speech model (first use only)… {fraction:.0%}", 0)

    def _speech_loaded(self, loaded: tuple[Any, float]) -> None:
        model, self.load_seconds["speech"] = loaded
        if self._closing:
            return
        self.speech_model = model
        self._routine_status(f"Speech model ready: {model.name}")
        self._announce_device("speech", model)
        self._update_labels()
        self._update_availability()
        emit(self.speech_ready, model)

    def _speech_failed(self, exc: BaseException) -> None:
        if self._closing and self._is_cancel(exc):
            return                          # closed during the first-use preparation
        log.warning("speech model: %s", exc)
        self._speech_problem = f"The speech model could not be loaded: {exc}"
        self.window.show_status(self._speech_problem)
        self.window.show_notice(self._speech_problem + " Typed chat still works; choose another model in Settings.")
        self._update_labels()
        self._update_availability()
        emit(self.load_failed, "speech", self._speech_problem)

    def _load_chat(self, previous: Any = None) -> None:
        s = self.settings
        setting, device, n_ctx, threads, prompt = s.chat_model, s.device, s.context_length, s.threads or None, \
            s.system_prompt
        engines = self.engines

        def load(job: Job) -> tuple[Any, Any, float]:
            if previous is not None:
                previous.close()
            shown = [-1]

            def progress(fraction: float) -> bool:     # llama.cpp's thread; False cancels the load
                percent = int(fraction * 100)
                if percent != shown[0]:
                    shown[0] = percent
                    job.emit(fraction)
                return not job.cancelled

            started = time.perf_counter()
            model = engines.load_chat(engines.chat_model_path(setting), device, n_ctx, threads, progress)
            elapsed = time.perf_counter() - started
            return model, engines.chat_session(model, prompt, []), elapsed

        self._chat_problem = None
        self._chat_load_fraction = None
        self._fallbacks.pop("chat", None)
        self.chat_worker.submit(load, on_done=self._chat_loaded, on_error=self._chat_failed,
                                on_progress=self._chat_progress, name="load chat model")

    def _chat_progress(self, fraction: float) -> None:
        self._chat_load_fraction = fraction
        self._update_labels()

    def _chat_loaded(self, loaded: tuple[Any, Any, float]) -> None:
        model, session, self.load_seconds["chat"] = loaded
        if self._closing:
            return
        self.chat_model, self._session = model, session
        self._history_synced = False
        self._routine_status(f"Chat model ready: {_chat_label(model)}")
        if not getattr(self.chat_model, "has_template", True):
            self._announce(f"{_chat_label(model)} has no chat template; a generic prompt format is used.")
        self._announce_device("chat", self.chat_model)
        self._update_labels()
        self._update_availability()
        emit(self.chat_ready, model)

    def _chat_failed(self, exc: BaseException) -> None:
        if self._closing and self._is_cancel(exc):
            return
        log.warning("chat model: %s", exc)
        self._chat_problem = f"The chat model could not be loaded: {exc}"
        self.window.show_notice(self._chat_problem + " Choose another model in Settings.")
        self._update_labels()
        self._update_availability()
        emit(self.load_failed, "chat", self._chat_problem)

    def _announce_device(self, role: str, model: Any) -> None:
        """The engines fall back to the CPU themselves when a GPU refuses a model; say so once."""
        reason = model.device.fallback_reason
        self._fallbacks.pop(role, None)
        if reason:
            self._fallbacks[role] = reason
            self._announce(reason)

    def _announce(self, text: str, timeout_ms: int = 15_000) -> None:
        """Say ``text`` in the status bar once per session, however many models hit it; routine
        notes ("model ready") do not replace it while it shows."""
        if text not in self._announced:
            self._announced.add(text)
            self.window.show_status(text, timeout_ms)
            self._sticky_until = time.monotonic() + timeout_ms / 1000

    def _routine_status(self, text: str, timeout_ms: int = 8000) -> None:
        """A status note that can wait: dropped while an announcement is on show."""
        if time.monotonic() >= self._sticky_until:
            self.window.show_status(text, timeout_ms)

    # ================================================================== microphone and push-to-talk

    def _probe_microphones(self) -> None:
        """Look for microphones on the speech thread.  Push-to-talk waits for the answer: the
        look re-scans the audio devices, which must not overlap a recording being opened."""
        if self._probing or self._closing:
            return
        engines = self.engines

        def probe(_job: Job) -> list[str]:
            return [device.name for device in engines.input_devices()]

        self._probing = True
        self.speech_worker.submit(probe, on_done=self._microphones_found, on_error=self._microphones_failed,
                                  name="list microphones")
        self._update_availability()

    def _microphones_found(self, names: list[str]) -> None:
        self._probing = False
        self._microphones = names
        self._mic_problem = None if names else ("No microphone was found. Connect one (or start the sound "
                                                 "server); Parley looks again when you press the talk key.")
        if names and self.settings.microphone and self.settings.microphone not in names:
            self._announce(f"The microphone “{self.settings.microphone}” is not connected; "
                           "using the system default.")
        self._update_availability()
        emit(self.microphones_changed, list(names))

    def _microphones_failed(self, exc: BaseException) -> None:
        self._probing = False
        self._microphones = []
        self._mic_problem = f"Push-to-talk is unavailable: {exc}"
        self._update_availability()
        emit(self.microphones_changed, [])

    def ptt_pressed(self) -> None:
        """Push-to-talk pressed (key or button): stop a streaming reply, then start recording."""
        if self._closing or self._recorder is not None:
            return
        problem = self._talk_problem()
        if problem:
            self.window.show_status(problem)
            if self._mic_problem and not self.speech_worker.busy:
                self._probe_microphones()     # maybe one was plugged in since
            return
        if self._reply is not None:
            self.stop()
        signals = _RecorderSignals(self)
        bar = self.window.input_bar
        signals.level.connect(lambda db: bar.set_level(_level_fraction(db)))
        signals.failed.connect(lambda exc: self._recording_failed(signals, exc))
        signals.limit.connect(lambda: self._recording_limit(signals))
        microphone = self.settings.microphone if self.settings.microphone in (self._microphones or []) else None
        try:
            recorder = self.engines.recorder(microphone, partial(emit, signals.level), partial(emit, signals.failed),
                                             partial(emit, signals.limit), self.max_recording_s)
            recorder.start()
        except Exception as exc:  # noqa: BLE001 - a capture failure is reported, not raised
            log.warning("recording could not start: %s", exc)
            signals.deleteLater()
            self._mic_problem = f"The microphone could not be opened: {exc}"
            self.window.show_status(self._mic_problem)
            self._update_availability()
            return
        self._recorder, self._recorder_signals = recorder, signals
        self.window.input_bar.set_recording(True)
        self._elapsed_timer.start()
        emit(self.recording_changed, True)

    def ptt_released(self) -> None:
        """Push-to-talk released: stop recording and transcribe the clip."""
        recorder = self._end_recording()
        if recorder is None:
            return
        try:
            audio = recorder.stop()
        except Exception as exc:  # noqa: BLE001
            self.window.show_status(f"The recording failed: {exc}")
            return
        if len(audio) < SHORTEST_CLIP_S * SAMPLE_RATE:
            self.window.show_status("That clip was too short; hold the key while you speak. Nothing was sent.")
            return
        self.transcribe_audio(audio)

    def _recording_limit(self, signals: _RecorderSignals) -> None:
        """The recording reached ``max_recording_s``: it is transcribed as if the key were let go."""
        if signals is not self._recorder_signals:
            return
        self.ptt_released()
        self.window.show_status(f"Recordings stop after {self.max_recording_s:g} s; transcribing what was "
                                "recorded…", 0)

    def _end_recording(self) -> Any:
        recorder, signals = self._recorder, self._recorder_signals
        self._recorder = self._recorder_signals = None
        self._elapsed_timer.stop()
        self.window.input_bar.set_recording(False)
        if signals is not None:
            signals.deleteLater()
            emit(self.recording_changed, False)
        return recorder

    def _recording_failed(self, signals: _RecorderSignals, exc: BaseException) -> None:
        """The microphone went away mid-take: keep what it recorded until then."""
        if signals is not self._recorder_signals:
            return                  # a late report from a recording that already ended
        recorder = self._end_recording()
        try:
            audio = recorder.stop()
        except Exception:  # noqa: BLE001 - the device is gone; nothing more to release
            log.debug("stopping a failed recorder", exc_info=True)
            audio = []
        kept = len(audio) >= SHORTEST_CLIP_S * SAMPLE_RATE
        self.window.show_notice(f"The microphone stopped working during the recording ({exc}). "
                                + ("What it recorded until then is transcribed." if kept else
                                   "Nothing was recorded, so nothing was sent."))
        if kept:
            self.transcribe_audio(audio)
        self._probe_microphones()

    def _show_elapsed(self) -> None:
        if self._recorder is not None:
            self.window.input_bar.set_elapsed(self._recorder.elapsed)

    def _talk_problem(self) -> str | None:
        if self._speech_problem:
            return self._speech_problem
        if self.speech_model is None:
            return "The speech model is still loading…"
        if self._mic_problem and not self._probing:
            return self._mic_problem
        if self._microphones is None or self._probing:
            return "Looking for microphones…"
        if self._speech_output is not None and self._speech_output.speaking:
            return "The microphone is muted while the reply is read aloud."
        return None

    # ================================================================== transcription

    def transcribe_audio(self, audio: Any) -> bool:
        """Transcribe a clip (16 kHz mono float32) and use the text as push-to-talk would;
        False if there is no speech model, or no sound in the clip (nothing is sent then)."""
        model, language = self.speech_model, None if self.settings.language == "auto" else self.settings.language
        if model is None or self._closing:
            self.window.show_status(self._speech_problem or "The speech model is still loading…")
            return False
        speech = self.engines.speech_part(audio)
        if len(speech) == 0:
            # Whisper makes words up from silence ("you"), so a silent clip is not transcribed.
            self.window.show_status("No speech was heard (the microphone picked up only silence); "
                                    "nothing was sent.")
            emit(self.transcribed, "")
            return False
        engines = self.engines

        def transcribe(job: Job) -> Any:
            return model.transcribe(speech, language=language, cancel=job.link(engines.cancel_token()))

        self.window.show_status("Transcribing…", 0)
        self.speech_worker.submit(transcribe, on_done=self._transcribed, on_error=self._transcription_failed,
                                  name="transcribe")
        return True

    def _transcribed(self, transcript: Any) -> None:
        self._last_clip_s = transcript.elapsed
        self._update_labels()
        text = " ".join(s.text.strip() for s in transcript.segments if not _NON_SPEECH.match(s.text)).strip() \
            if transcript.segments else transcript.text.strip()
        if not text:
            self.window.show_status("No speech was recognised, so nothing was sent.")
            emit(self.transcribed, "")
            return
        self.window.show_status(f"Transcribed {transcript.audio_seconds:.1f} s of audio in {transcript.elapsed:.2f} s")
        if not self.settings.send_on_release or self.chat_model is None:
            self.window.input_bar.insert_text(text)     # with no chat model, keep it to send later
        elif self._reply is not None:
            self._queued_text = text
        else:
            self.send_text(text)
        emit(self.transcribed, text)

    def _transcription_failed(self, exc: BaseException) -> None:
        self.window.show_status("Transcription stopped." if self._is_cancel(exc) else "Transcription failed.")
        if not self._is_cancel(exc):
            self.window.show_notice(f"The recording could not be transcribed: {exc}")
        emit(self.transcribed, "")

    # ================================================================== chat

    def send_text(self, text: str) -> bool:
        """Post ``text`` as the user's message and start the reply; False if it cannot be sent now."""
        text = text.strip()
        if not text or self._closing:
            return False
        if self.chat_model is None:
            self.window.show_status(self._chat_problem or "The chat model is still loading…")
            return False
        if self._reply is not None:
            self.window.show_status("Wait for the reply to finish, or press Stop.")
            return False
        conversation = self.conversation
        conversation.entries.append(Entry("user", text))
        self.window.conversation_view.add_message("user", text)
        if conversation.title == NEW_TITLE and sum(e.role == "user" for e in conversation.entries) == 1:
            conversation.title = _title_from(text)
            conversation.title_dirty = True
            self.window.setWindowTitle(f"{conversation.title} — Parley")
        self._save()
        self._generate(target=None)
        return True

    def regenerate(self) -> None:
        """Answer the last user message again (replacing the last reply, or retrying a failed one)."""
        entries = self.conversation.entries
        if self._reply is not None or self.chat_model is None or not entries:
            return
        if entries[-1].role == "assistant":
            self._generate(target=entries[-1])
        elif entries[-1].role == "user":
            self._generate(target=None, retry=True)

    def stop(self) -> None:
        """Stop the streaming reply (its partial text is kept) and any reading aloud."""
        if self._reply is not None and self._reply.job is not None:
            self._reply.job.cancel()
        if self._speech_output is not None:
            self._speech_output.stop()

    def _generate(self, target: Entry | None, retry: bool = False) -> None:
        """Stream a reply to the last user message into a new message, or into ``target``."""
        conversation, engines, session = self.conversation, self.engines, self._session
        params = engines.sampling(self.settings)
        prompt = self.settings.system_prompt
        entries = conversation.entries
        if target is not None:
            history = [(e.role, e.content) for e in entries]          # regenerate replaces the last reply
        else:
            history = [(e.role, e.content) for e in entries[:-1]]     # reply() adds the user message
        user_text = entries[-1].content if target is None else ""
        reset = not self._history_synced or retry

        def generate(job: Job) -> Any:
            token = job.link(engines.cancel_token())
            if reset:
                engines.reset_session(session, prompt, history)
            if target is not None:
                return session.regenerate(params, on_text=job.emit, cancel=token)
            return session.reply(user_text, params, on_text=job.emit, cancel=token)

        view = self.window.conversation_view
        if target is not None or retry:
            view.restart_last_reply()
        else:
            view.begin_reply()
        self._history_synced = False       # until this reply ends normally
        reply = self._reply = _Reply(conversation, target)
        reply.job = self.chat_worker.submit(
            generate, name="reply", on_progress=lambda piece: self._reply_piece(reply, piece),
            on_done=lambda result: self._reply_finished(reply, result.text, result.finish, result.stats),
            on_error=lambda exc: self._reply_failed(reply, exc))
        self.window.input_bar.set_busy(True)
        emit(self.reply_started)

    def _reply_piece(self, reply: _Reply, piece: str) -> None:
        reply.text += piece
        if reply.conversation is self.conversation:
            self.window.conversation_view.append_reply(piece)
        emit(self.reply_progress, piece)

    def _reply_failed(self, reply: _Reply, exc: BaseException) -> None:
        if self._is_cancel(exc):
            self._reply_finished(reply, reply.text, "cancelled", None)
            return
        log.warning("reply failed: %s", exc)
        self._end_reply(reply)
        if reply.conversation is self.conversation:
            shown = reply.text or (reply.target.content if reply.target is not None else "")
            self.window.conversation_view.end_reply(shown, f"⚠ No reply: {exc}")
            self.window.show_notice(f"The reply failed: {exc}")
        if reply.text:
            self._keep_reply(reply, reply.text, complete=False, stats=None)
        emit(self.reply_finished, reply.text, "error")

    def _reply_finished(self, reply: _Reply, text: str, finish: str, stats: Any) -> None:
        self._end_reply(reply)
        cancelled = finish == "cancelled"
        if not cancelled:
            self._history_synced = reply.conversation is self.conversation
        record = _stats_record(stats, finish, self.chat_model)
        if record.get("gen_tps") is not None and not cancelled:
            self._last_reply_tps = record["gen_tps"]
            self._update_labels()
        view = self.window.conversation_view
        current = reply.conversation is self.conversation
        if not text and cancelled:
            if current and reply.target is not None:
                view.end_reply(reply.target.content, _footer(reply.target.stats, reply.target.complete))
            elif current:
                view.end_reply("", "Stopped before the reply began")
        else:
            if current:
                view.end_reply(text, _footer(record, not cancelled))
            self._keep_reply(reply, text, complete=not cancelled, stats=record)
            if finish == "context" and current:
                self.window.show_notice("The conversation no longer fits in the model's context. "
                                        "Start a new chat, or raise the context length in Settings.")
            if not cancelled and current and self.settings.speak_replies and not self._closing:
                self._speak(text)
        emit(self.reply_finished, text, finish)
        if self._queued_text and not self._closing:
            text, self._queued_text = self._queued_text, None
            self.send_text(text)

    def _end_reply(self, reply: _Reply) -> None:
        if self._reply is reply:
            self._reply = None
            self.window.input_bar.set_busy(False)

    def _keep_reply(self, reply: _Reply, text: str, complete: bool, stats: dict[str, Any] | None) -> None:
        if reply.target is not None:
            entry = reply.target
            entry.content, entry.complete, entry.stats, entry.dirty = text, complete, stats, True
        else:
            reply.conversation.entries.append(Entry("assistant", text, complete, stats))
        self._save(reply.conversation)

    def _is_cancel(self, exc: BaseException) -> bool:
        return isinstance(exc, JobCancelled) or self.engines.is_cancelled(exc)

    # ================================================================== speaking replies

    def _ensure_speech_output(self) -> SpeechOutput:
        if self._speech_output is None:
            self._speech_output = self._make_speech_output()
            self._speech_output.speaking_changed.connect(lambda _speaking: self._update_availability())
        return self._speech_output

    def _speak(self, text: str) -> None:
        output = self._ensure_speech_output()
        if output.problem:
            self._announce(f"Replies cannot be read aloud: {output.problem}")
        else:
            output.say(text)

    # ================================================================== conversations

    def new_conversation(self) -> None:
        if self.conversation.id is not None and not self.conversation.entries:
            self._refresh_sidebar()          # the open conversation is already a fresh one
            return
        self._leave_conversation()
        conversation = OpenConversation(None, NEW_TITLE)
        try:
            conversation.id = self.store.create_conversation(NEW_TITLE).id
        except StoreError as exc:
            self._store_failed(exc)
        self._show_conversation(conversation)

    def open_conversation(self, conversation_id: int) -> None:
        if conversation_id == self.conversation.id:
            return
        try:
            loaded = self.store.load_conversation(conversation_id)
        except StoreError as exc:
            self._store_failed(exc)
            self._refresh_sidebar()
            return
        self._leave_conversation()
        conversation = OpenConversation(loaded.conversation.id, loaded.conversation.title, [
            Entry(m.role, m.content, m.complete, m.stats, m.id, dirty=False) for m in loaded.messages])
        self._show_conversation(conversation)

    def rename_conversation(self, conversation_id: int, title: str) -> None:
        try:
            self.store.rename_conversation(conversation_id, title)
        except StoreError as exc:
            self._store_failed(exc)
        else:
            if conversation_id == self.conversation.id:
                self.conversation.title = title
                self.conversation.title_dirty = False
                self.window.setWindowTitle(f"{title} — Parley")
        self._refresh_sidebar()

    def delete_conversation(self, conversation_id: int) -> None:
        try:
            self.store.delete_conversation(conversation_id)
        except StoreError as exc:
            self._store_failed(exc)
            return
        if conversation_id != self.conversation.id:
            self._refresh_sidebar()
            return
        self.conversation.deleted = True
        if self._reply is not None:
            self.stop()
        remaining = self._list_conversations()
        self.conversation = OpenConversation(None, NEW_TITLE)   # nothing left to save of the deleted one
        if remaining:
            self.open_conversation(remaining[0].id)
        else:
            self.new_conversation()

    def search(self, text: str) -> None:
        self._search_text = text
        self._refresh_sidebar()

    def export_conversation(self, conversation_id: int, fmt: str, path: str) -> None:
        self._save()
        try:
            if fmt == "json":
                self.store.export_json(conversation_id, path)
            else:
                self.store.export_markdown(conversation_id, path)
        except StoreError as exc:
            self.window.show_notice(str(exc))
        else:
            self.window.show_status(f"Exported to {path}")

    def _leave_conversation(self) -> None:
        """Stop the reply of the open conversation (it still saves itself) before showing another."""
        if self._reply is not None:
            self.stop()
        old = self.conversation
        if not self._save(old) and not old.deleted and old not in self._unsaved:
            self._unsaved.append(old)

    def _show_conversation(self, conversation: OpenConversation) -> None:
        self.conversation = conversation
        self._history_synced = False
        view = self.window.conversation_view
        view.clear()
        for entry in conversation.entries:
            view.add_message(entry.role, entry.content, _footer(entry.stats, entry.complete)
                             if entry.role == "assistant" else "")
        self.window.setWindowTitle(f"{conversation.title} — Parley")
        self._refresh_sidebar()

    def _list_conversations(self) -> list[Any]:
        try:
            return self.store.search(self._search_text)
        except StoreError as exc:
            self._store_failed(exc)
            return []

    def _refresh_sidebar(self) -> None:
        self.window.set_conversations(self._list_conversations(), self.conversation.id)

    def _save(self, conversation: OpenConversation | None = None) -> bool:
        """Write whatever the store lacks of ``conversation`` (default: the open one) and of
        conversations whose earlier saves failed.  False, with the user told, on failure."""
        targets = [c for c in [*self._unsaved, conversation or self.conversation] if not c.deleted]
        try:
            for c in dict.fromkeys(targets):
                self._write(c)
        except StoreError as exc:
            self._store_failed(exc, unsaved=True)
            return False
        self._unsaved = []
        if conversation is None or conversation is self.conversation:
            self._refresh_sidebar()
        return True

    def _write(self, c: OpenConversation) -> None:
        if c.id is None and not c.entries:
            return                  # a new conversation nobody wrote in yet
        if c.id is None:
            c.id = self.store.create_conversation(c.title).id
            c.title_dirty = False
        if c.title_dirty:
            self.store.rename_conversation(c.id, c.title)
            c.title_dirty = False
        for entry in c.entries:
            if not entry.dirty:
                continue
            if entry.store_id is not None:
                self.store.update_message(entry.store_id, entry.content, complete=entry.complete, stats=entry.stats)
            elif entry.complete:
                entry.store_id = self.store.add_message(c.id, entry.role, entry.content, stats=entry.stats)
            else:
                entry.store_id = self.store.save_partial_reply(c.id, entry.content, entry.stats)
            entry.dirty = False

    def _store_failed(self, exc: StoreError, unsaved: bool = False) -> None:
        log.warning("store: %s", exc)
        self.window.show_notice(f"{exc} The conversation stays open here; Parley saves it again with the "
                                "next message." if unsaved else str(exc))

    # ================================================================== settings

    def open_settings(self) -> None:
        output_problem = self._ensure_speech_output().problem
        dialog = SettingsDialog(self.settings, validate=self.validate_settings,
                                compute_devices=self.engines.compute_devices(),
                                microphones=self._microphones or [], speech_output_problem=output_problem,
                                parent=self.window)
        if dialog.exec() and dialog.result_settings is not None:
            self.apply_settings(dialog.result_settings)

    def validate_settings(self, settings: Settings) -> str | None:
        """The problem that keeps ``settings`` from being used, for the settings dialog."""
        for kind, path in (("speech", settings.speech_model), ("chat", settings.chat_model)):
            if path != DEFAULT_MODEL:
                problem = self.engines.check_model_file(kind, path)
                if problem:
                    return f"The {kind} model {path} cannot be used: {problem}."
        if QKeySequence(settings.ptt_shortcut).isEmpty():
            return f"“{settings.ptt_shortcut}” is not a key combination."
        return None

    def apply_settings(self, new: Settings) -> None:
        """Use and save ``new``, reloading only the engines whose settings changed."""
        old, self.settings = self.settings, new
        try:
            save_settings(new, self._settings_path)
        except OSError as exc:
            self.window.show_notice(f"The settings could not be saved ({exc}); they apply until Parley closes.")
        device_changed = (old.device, old.threads) != (new.device, new.threads)
        if device_changed or old.speech_model != new.speech_model:
            previous, self.speech_model = self.speech_model, None
            self._load_speech(previous)
        if device_changed or (old.chat_model, old.context_length) != (new.chat_model, new.context_length):
            self.stop()
            previous, self.chat_model, self._session = self.chat_model, None, None
            self._load_chat(previous)
        if old.system_prompt != new.system_prompt:
            self._history_synced = False
        if old.ptt_shortcut != new.ptt_shortcut:
            self.ptt_keys.set_shortcut(new.ptt_shortcut)
        if old.microphone != new.microphone or self._mic_problem:
            self._probe_microphones()
        if new.speak_replies:
            self._ensure_speech_output()
        elif self._speech_output is not None:
            self._speech_output.stop()
        self._update_labels()
        self._update_availability()

    # ================================================================== window state

    def _update_availability(self) -> None:
        bar, view = self.window.input_bar, self.window.conversation_view
        talk_problem = self._talk_problem()
        bar.set_talk_available(talk_problem is None, talk_problem or "")
        chat_problem = self._chat_problem or (None if self.chat_model else "The chat model is still loading…")
        bar.set_send_available(chat_problem is None, chat_problem or "")
        if talk_problem is None:
            view.set_hint(f"Hold {self.settings.ptt_shortcut} (or Space outside the text box) and speak, "
                          "or type a message below.")
        else:
            view.set_hint("Type a message below.")

    def _update_labels(self) -> None:
        loading_chat = "Loading chat model…" if self._chat_load_fraction is None else \
            f"Loading chat model… {self._chat_load_fraction:.0%}"
        models = [_chat_label(self.chat_model) if self.chat_model else ("Chat model unavailable"
                                                                        if self._chat_problem else loading_chat),
                  self.speech_model.name if self.speech_model else ("Speech model unavailable"
                                                                    if self._speech_problem
                                                                    else "Loading speech model…")]
        details = [f"Chat: {self.chat_model.name} ({self.chat_model.path})" if self.chat_model else None,
                   f"Speech: {self.speech_model.name} ({self.speech_model.path})" if self.speech_model else None]
        self.window.set_models_text(" · ".join(models), "\n".join(filter(None, [
            *details, self._chat_problem, self._speech_problem])))
        choices = {role: m.device for role, m in (("Chat", self.chat_model), ("Speech", self.speech_model)) if m}
        if choices:
            names = {role: c.device.name for role, c in choices.items()}
            text = next(iter(names.values())) if len(set(names.values())) == 1 else \
                " · ".join(f"{role} {name}" for role, name in names.items())
            reasons = list(dict.fromkeys(self._fallbacks.values()))
            tooltip = "\n".join([*(f"{role}: {c.device.description}" for role, c in choices.items()), *reasons])
            self.window.set_device_text(f"Device: {text}" + (" (fallback)" if reasons else ""), tooltip)
        elif self._chat_problem and self._speech_problem:
            self.window.set_device_text("Device: none")
        stats = []
        if self._last_reply_tps is not None:
            stats.append(f"Reply {self._last_reply_tps:.1f} tok/s")
        if self._last_clip_s is not None:
            stats.append(f"Clip {self._last_clip_s:.2f} s")
        self.window.set_stats_text(" · ".join(stats), "Generation speed of the last reply · "
                                                     "transcription time of the last recording")

    # ================================================================== shutdown

    def shutdown(self) -> bool:
        """Stop everything, keep a partial reply, close the engines; True if both threads ended in time.

        A thread can outlive the deadline only inside a native call with no abort hook (a model
        still loading); ``stopped_cleanly`` then tells the caller to leave without Python's
        teardown, which would otherwise destroy a running QThread and abort the process."""
        if self._closing:
            return bool(self.stopped_cleanly)
        self._closing = True
        deadline = time.monotonic() + SHUTDOWN_S
        recorder = self._end_recording()
        if recorder is not None:
            recorder.cancel()
        if self._speech_output is not None:
            self._speech_output.stop()
        self.speech_worker.cancel_all()
        self.chat_worker.cancel_all()
        chat_model, speech_model = self.chat_model, self.speech_model
        joined = self.chat_worker.shutdown(max(0.1, deadline - time.monotonic()),
                                           finalizer=chat_model.close if chat_model else None)
        if self._reply is not None:        # the engine did not stop in time: keep what was shown
            reply, self._reply = self._reply, None
            if reply.text:
                self._keep_reply(reply, reply.text, complete=False, stats=None)
        joined = self.speech_worker.shutdown(max(0.1, deadline - time.monotonic()),
                                             finalizer=speech_model.close if speech_model else None) and joined
        self._save()
        self.store.close()
        self.stopped_cleanly = joined
        return joined



def _chat_label(model: Any) -> str:
    """What the status bar calls a chat model: its file name says more to a user than the name in
    its metadata (SmolLM2-135M-Instruct.Q4_1 rather than "Smollm2 135M 8k Lc100K Mix1 Ep2")."""
    path = getattr(model, "path", None)
    return Path(path).stem if path else model.name


def _title_from(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= 48 else line[:47].rstrip() + "…"


def _stats_record(stats: Any, finish: str, model: Any) -> dict[str, Any]:
    """What is stored with a reply: the engine's timings, the finish reason and the model."""
    record: dict[str, Any] = {"finish": finish, "model": getattr(model, "name", None)}
    if stats is not None:
        record.update(prompt_tokens=stats.prompt_tokens, prompt_seconds=round(stats.prompt_seconds, 4),
                      generated_tokens=stats.generated_tokens,
                      generation_seconds=round(stats.generation_seconds, 4),
                      gen_tps=round(stats.generated_tokens / stats.generation_seconds, 2)
                      if stats.generation_seconds > 0 else None)
    return record


def _footer(stats: dict[str, Any] | None, complete: bool) -> str:
    parts = []
    if stats and stats.get("gen_tps"):
        parts.append(f"{stats['generated_tokens']} tokens · {stats['gen_tps']:.1f} tok/s")
    if not complete:
        parts.append("stopped")
    elif stats and stats.get("finish") == "max_tokens":
        parts.append("cut at the length limit")
    elif stats and stats.get("finish") == "context":
        parts.append("context full")
    return " · ".join(parts)
