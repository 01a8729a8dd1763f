"""A dictation into another app: hold the Dictate shortcut (default Ctrl+Alt+Space) in any
application, speak, let go; the words are typed where the cursor is.

``speech.from_anywhere`` tells a hold from a tap (a tap starts a take that the next press ends)
and ends the take; the command line (``parley dictate --toggle``) and the tray's Dictate do the
same.  The optional second shortcut, Dictate cleaned, is the same take with the clean-up by the
chat model whatever the setting says.

Between hearing and typing, the engine's dictation pipeline (``parley.engine.dictation``, the
same as ``parley transcribe --clean``): fillers, the vocabulary, the replacement rules, spoken
punctuation, and the clean-up when it is on.  The clean-up runs on the chat engine's thread
(the one thread that uses its context); if it has not answered within its time limit (queued
behind other work included), or its answer is refused, the plain text is typed and the status
line says why.  On X11 the class of the window that had the focus when the take started picks a
mode (``dictation_app_modes``: in a terminal no clean-up, no space after, Ctrl+Shift+V to
paste).  Each dictation goes into the history (``conversations.dictation_log``), typed or not.

Words that cannot be typed there (Parley itself had the focus, the session cannot type into
other apps) go into Parley's text box, with the reason.  What this says is in the interface's
words (context "Dictation"); the notes of the engine's pipeline (a clean-up refused, no model
loaded) are its own, in English, as ``parley transcribe --clean`` writes them.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QLocale, QTimer
from PySide6.QtGui import QGuiApplication

from parley.engine.dictation.options import DictationOptions
from parley.engine.dictation.pipeline import DictationResult, process

from ..conversations.dictation_record import DictationRecord
from ..desktop.focused_app import FocusedApp
from ..desktop.typing.modes import mode_name, typing_mode
from ..desktop.typing.typist import PARLEY_HAS_FOCUS, focused_application
from ..take_purpose import TakePurpose
from ..tasks import Job
from ..ui.i18n import translate
from .barge_in import BargeIn
from .hands_free_turn import HandsFreeTurn
from .parts import Parts

log = logging.getLogger("parley.anywhere")

HANDS_FREE_OFF = QT_TRANSLATE_NOOP("Dictation", "Hands-free is off while you use the shortcut.")
CLEANUP_GRACE_S = 0.5  # past the clean-up's own limit: it was queued behind other work, or hung


class Dictation:
    def __init__(self, parts: Parts, barge_in: BargeIn, hands_free: HandsFreeTurn) -> None:
        self.talk = parts.talk
        self.transcription = parts.transcription
        self.replies = parts.replies
        self.typist = parts.typist
        self.status = parts.status
        self.bar = parts.window.input_bar
        self.settings = parts.settings
        self.chat = parts.chat
        self.history = parts.dictations
        self.barge_in = barge_in
        self.hands_free = hands_free
        self.target: FocusedApp | None = None  # the application that had the focus when the take began
        self.cleaned = False  # the take came from Dictate cleaned
        self.history_target: FocusedApp | None = None  # the app in use when the history was opened
        self._cleanup: Job | None = None  # the clean-up running (or queued) on the chat thread
        self._deadline = QTimer(singleShot=True)
        self._deadline.timeout.connect(self._cleanup_late)
        self._plain: DictationResult | None = None  # typed if the clean-up does not answer in time

    def start(self, focus: int = 0, cleaned: bool = False) -> bool:
        """1. The shortcut goes down: Parley stops speaking; hands-free, which would hear the
        same words, is turned off; a take starts (a reply streaming in the window stops, as
        for any take).  The application that has the focus is noted (its mode, the history).
        With the clean-up to come, the chat model reads its prompt meanwhile.  False when no
        take started."""
        self.barge_in.key_pressed()
        if self.hands_free.turn_off():
            self.status.say(translate("Dictation", str(HANDS_FREE_OFF)))
        purpose = TakePurpose.DICTATE_CLEANED if cleaned else TakePurpose.DICTATE
        if not self.talk.press(purpose, self.recorded):
            return False
        self.cleaned = cleaned
        self.target = focused_application(focus)
        self.replies.stop()
        options = self.options()
        if options.cleanup and self.chat.model is not None:
            self._prepare_cleanup(options)
        else:
            self.replies.prepare()
        return True

    # 2. The shortcut comes up (or, after a tap, is pressed again): ``FromAnywhere`` ends the take.

    def recorded(self, audio: Any, _ended_at: float) -> None:
        """3. The take's audio: transcribed on the speech thread."""
        purpose = TakePurpose.DICTATE_CLEANED if self.cleaned else TakePurpose.DICTATE
        self.transcription.transcribe(audio, purpose, then=self.heard)

    def heard(self, raw: str) -> None:
        """4. Its words, through the dictation pipeline: at once, or, with the clean-up, on the
        chat thread under a time limit."""
        if not raw:
            return
        options = self.options()
        language = self.transcription.language_heard
        plain = process(raw, dataclasses.replace(options, cleanup=False), language=language)
        if not options.cleanup or not plain.text.strip():
            self.deliver(process(raw, options, None, language=language) if options.cleanup else plain)
            return
        if self.chat.model is None or self.chat.closing:
            self.deliver(process(raw, options, None, language=language))  # "not loaded yet": typed plain
            return
        self._cancel_cleanup()
        self._plain = plain
        cleaner = self.chat.cleaner()
        self._cleanup = job = self.chat.submit(
            lambda _job: process(raw, options, cleaner, language=language),
            on_done=lambda result: self._cleaned(job, result),
            on_error=lambda exc: self._cleanup_failed(job, exc),
            name="dictation clean-up",
        )
        self._deadline.start(int((options.cleanup_timeout_s + CLEANUP_GRACE_S) * 1000))

    def deliver(self, result: DictationResult) -> None:
        """5. The text: kept in the history, typed into the application that had the focus (as
        its mode says); the note, when there is one, says why the plain text was typed."""
        if not result.text.strip():
            self.status.say(translate("Dictation", "Only filler words were heard, so nothing was typed."))
            return
        s = self.settings()
        mode = typing_mode(self._mode())
        app = self.target
        self.history.add(result.raw, result.text, app.name if app else "", result.note, app.window if app else 0)
        told = " ".join(filter(None, [result.note, self.history.problem if self.history.keeping else None]))
        if told:
            self.status.say(told, 8000)
        text = mode.text(result.text, s.dictation_space_after)
        log.info("dictation: %s, clean-up %s, mode %s", _steps(result), result.cleanup, self._mode())
        self.typist.type(
            text, method=mode.method or s.dictation_method, chars_per_s=s.typing_rate, paste_keys=mode.paste_keys
        )

    def typed(self, text: str, problem: str) -> None:
        """6. The typist's report (of a dictation, or of an answer inserted from the quick-ask
        window): words it could not type go into Parley's text box."""
        if not problem:
            return
        log.info("dictation not typed: %s", problem)
        if problem == PARLEY_HAS_FOCUS:
            self.status.say(translate("Dictation", "Parley had the focus, so the words went into its text box."))
        else:
            in_the_box = translate("Dictation", "{problem}. The words are in Parley's text box.")
            self.status.notice(in_the_box.format(problem=problem))
        self.bar.insert_text(text.rstrip())

    # ------------------------------------------------------------------ the history's Type again

    def history_opened(self) -> None:
        """The history window is about to show: note the application in use (not Parley's own
        window), where Type again types."""
        app = focused_application(0)
        own = {int(w.winId()) for w in QGuiApplication.topLevelWindows()}
        self.history_target = app if app is not None and app.window not in own else None

    def type_again(self, record: DictationRecord) -> None:
        """Type a dictation from the history again: into the application in use before the
        history was opened, else the one it went into (this session), in that application's mode."""
        s = self.settings()
        app = self.history_target or (focused_application(record.window) if record.window else None)
        mode = typing_mode(mode_name(app, s.dictation_app_modes))
        self.typist.type(
            mode.text(record.typed, s.dictation_space_after),
            method=mode.method or s.dictation_method,
            chars_per_s=s.typing_rate,
            window=app.window if app else 0,
            paste_keys=mode.paste_keys,
        )

    # ------------------------------------------------------------------ the clean-up

    def options(self) -> DictationOptions:
        """The settings' dictation options in the mode of the application that has the focus;
        Dictate cleaned asks for the clean-up whatever the mode."""
        options = self.transcription.dictation_options().with_mode(self._mode())
        return options.with_mode("cleaned") if self.cleaned else options

    def _mode(self) -> str:
        return mode_name(self.target, self.settings().dictation_app_modes)

    def _prepare_cleanup(self, options: DictationOptions) -> None:
        """While the user speaks: the chat model reads the clean-up prompt (cached for release)."""
        cleaner, token = self.chat.cleaner(), self.chat.cancel_token()
        self.chat.submit(
            lambda job: cleaner.prepare(options, job.link(token)),
            on_done=lambda _result: None,
            on_error=lambda exc: log.info("the clean-up prompt was not read ahead: %r", exc),
            name="dictation clean-up prompt",
        )

    def _cleaned(self, job: Job, result: DictationResult) -> None:
        if job is self._cleanup:
            self._finish_cleanup()
            self.deliver(result)

    def _cleanup_failed(self, job: Job, exc: BaseException) -> None:
        if job is not self._cleanup or self._plain is None:
            return
        plain = self._plain
        self._finish_cleanup()
        log.warning("the dictation's clean-up failed: %r", exc)
        note = translate(
            "Dictation", "The clean-up failed ({problem}), so the text was typed without the clean-up."
        ).format(problem=exc)
        self.deliver(dataclasses.replace(plain, cleanup="failed", note=note))

    def _cleanup_late(self) -> None:
        """The clean-up has not answered in its time and the grace after it: the plain text."""
        if self._cleanup is None or self._plain is None:
            return
        plain, limit = self._plain, self.options().cleanup_timeout_s
        self._cancel_cleanup()
        note = translate(
            "Dictation", "The clean-up did not answer within {seconds} s, so the text was typed without the clean-up."
        ).format(seconds=QLocale().toString(limit, "g", 3))
        self.deliver(dataclasses.replace(plain, cleanup="timed_out", note=note))

    def _cancel_cleanup(self) -> None:
        if self._cleanup is not None:
            self._cleanup.cancel()
        self._finish_cleanup()

    def _finish_cleanup(self) -> None:
        self._deadline.stop()
        self._cleanup, self._plain = None, None


def _steps(result: DictationResult) -> str:
    return ", ".join(f"{name} {seconds * 1000:.0f} ms" for name, seconds in result.steps) or "no steps"
