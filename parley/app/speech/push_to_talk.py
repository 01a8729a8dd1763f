"""Push-to-talk: a take from the microphone while the key or the button is held.

``press(purpose, recorded)`` starts a take for the flow that asked (``parley.app.flows``);
``release`` ends it and hands the audio to that flow's ``recorded`` (and to ``clip_ready``, for
whoever watches).  A take also ends by itself at ``max_seconds`` (then it is used as if
released) or when the microphone stops delivering audio (what was recorded until then is used).
While it is held, the transcription shows its words as they come (its live transcript).  The
recorder's callbacks come from PortAudio's threads and reach the UI thread through queued
signals.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from functools import partial
from typing import Any, Protocol

import numpy as np
from PySide6.QtCore import QObject, QTimer, Signal

from parley.engine.audio.utterance import speech_region
from parley.engine.formats import SAMPLE_RATE

from ..engine_notes import said
from ..engine_slots import EngineSlot
from ..engines import RecorderFactory
from ..signals import emit
from ..status import StatusPresenter
from ..take_purpose import TakePurpose
from .microphones import Microphones
from .transcription import Transcription

log = logging.getLogger("parley.talk")

SHORTEST_CLIP_S = 0.3
LONGEST_CLIP_S = 120.0  # a recording stops by itself here and is transcribed as if released
LEVEL_FLOOR_DB = -60.0  # the level meter shows -60..0 dBFS (speech sits around -30..-15)


# A flow's next step: a take's audio (16 kHz mono float32), and when the take ended (``clock`` seconds).
Recorded = Callable[[Any, float], object]


def level_fraction(db: float) -> float:
    """A level in dBFS as the meter's 0..1."""
    return min(1.0, max(0.0, (db - LEVEL_FLOOR_DB) / -LEVEL_FLOOR_DB))


class _RecorderSignals(QObject):
    """Carries a Recorder's audio-thread callbacks to the UI thread (queued, by thread affinity)."""

    level = Signal(float)
    failed = Signal(object)
    limit = Signal()


class TakeDisplay(Protocol):
    """Where a take shows while it lasts (the input bar): that it records, the microphone's level
    (0 to 1) and the seconds so far."""

    def set_recording(self, recording: bool, hands_free: bool = False) -> None: ...
    def set_level(self, level: float) -> None: ...
    def set_elapsed(self, seconds: float) -> None: ...


class PushToTalk(QObject):
    recording_changed = Signal(bool)
    clip_ready = Signal(object, object)  # a finished take (16 kHz mono float32) and its TakePurpose

    def __init__(
        self,
        speech: EngineSlot,
        make_recorder: RecorderFactory,
        microphones: Microphones,
        transcription: Transcription,
        status: StatusPresenter,
        display: TakeDisplay,
        blocked_by: Callable[[], str | None],
        clock: Callable[[], float] = time.monotonic,
        parent: QObject | None = None,
    ) -> None:
        """``make_recorder`` opens a take (``Engines.recorder``); ``blocked_by()`` says why no
        take may start now (None: it may); ``clock``: seconds, for ``released_at``."""
        super().__init__(parent)
        self.speech = speech
        self.make_recorder = make_recorder
        self.microphones = microphones
        self.transcription = transcription
        self.status = status
        self.display = display
        self.blocked_by = blocked_by
        self._now = clock
        self.max_seconds = LONGEST_CLIP_S
        self.recorder: Any = None
        self.purpose = TakePurpose.TALK  # of the take in progress (TALK, DICTATE or ASK)
        self._recorded: Recorded | None = None  # the step of the flow that gets the take's audio
        self._signals: _RecorderSignals | None = None
        self._started = 0.0
        self._pressed = 0.0
        self.released_at = 0.0  # ``clock()`` at the last release
        self._clock = QTimer(self, interval=100)
        self._clock.timeout.connect(self._show_elapsed)

    @property
    def recording(self) -> bool:
        return self.recorder is not None

    def press(self, purpose: TakePurpose, recorded: Recorded) -> bool:
        """Start a take for ``purpose``; ``recorded(audio, ended_at)`` gets its audio once it
        ends with some.  False when none started (the reason is said)."""
        if self.speech.closing or self.recorder is not None:
            return False
        problem = self.blocked_by()
        if problem:
            log.info("no %s take: %s", purpose, problem)
            self.status.say(problem)
            if self.microphones.problem and not self.speech.busy:
                self.microphones.probe()  # maybe one was plugged in since
            return False
        self._pressed = time.monotonic()
        signals = _RecorderSignals(self)
        signals.level.connect(lambda db: self.display.set_level(level_fraction(db)))
        signals.failed.connect(lambda exc: self._failed(signals, exc))
        signals.limit.connect(lambda: self._limit(signals))
        try:
            recorder = self.make_recorder(
                self.microphones.device(),
                partial(emit, signals.level),
                partial(emit, signals.failed),
                partial(emit, signals.limit),
                self.max_seconds,
            )
            recorder.start()
        except Exception as exc:  # noqa: BLE001 - a capture failure is reported, not raised
            log.warning("recording could not start: %s", exc)
            signals.deleteLater()
            self.microphones.failed_to_open(exc)
            self.status.say(self.microphones.problem or said(exc))
            return False
        self.recorder, self._signals, self.purpose, self._recorded = recorder, signals, purpose, recorded
        self._started = time.monotonic()
        self.display.set_recording(True)
        self._clock.start()
        self.transcription.begin_live(recorder.snapshot)
        emit(self.recording_changed, True)
        return True

    def release(self) -> None:
        """End the take (the key was let go) and hand its audio to the flow it is for."""
        self.released_at = self._now()  # before the stream is stopped: the moment the user let go
        released = time.monotonic()
        recorded = self._recorded
        recorder = self._end()
        if recorder is None:
            return
        try:
            audio = recorder.stop()
        except Exception as exc:  # noqa: BLE001
            self.status.say(self.tr("The recording failed: {problem}").format(problem=exc))
            return
        first = getattr(recorder, "first_sample_at", None)
        if first is not None:  # how much of the start a speaker who spoke at the press would lose
            log.info(
                "%s take: the first sample was captured %.0f ms after the press; released %.2f s after it",
                self.purpose,
                (first - self._pressed) * 1000,
                released - self._pressed,
            )
        if len(audio) < SHORTEST_CLIP_S * SAMPLE_RATE:
            self.status.say(self.tr("That clip was too short; hold the key while you speak. Nothing was sent."))
            return
        self._hand_on(audio, recorded, self.released_at)

    def cancel(self) -> None:
        """End the take and discard it (the window is closing)."""
        recorder = self._end()
        if recorder is not None:
            recorder.cancel()

    def _end(self) -> Any:
        recorder, signals = self.recorder, self._signals
        self.recorder = self._signals = self._recorded = None
        self._clock.stop()
        self.transcription.stop_live()
        self.display.set_recording(False)
        if signals is not None:
            signals.deleteLater()
            emit(self.recording_changed, False)
        return recorder

    def _limit(self, signals: _RecorderSignals) -> None:
        """The take reached ``max_seconds``: it is used as if the key were let go."""
        if signals is not self._signals:
            return
        self.release()
        self.status.say(
            self.tr("Recordings stop after {seconds} s; transcribing what was recorded…").format(
                seconds=f"{self.max_seconds:g}"
            ),
            0,
        )

    def _failed(self, signals: _RecorderSignals, exc: BaseException) -> None:
        """The microphone went away mid-take: keep what it recorded until then."""
        if signals is not self._signals:
            return  # a late report from a take that already ended
        recorded = self._recorded
        recorder = self._end()
        try:
            audio = recorder.stop()
        except Exception:  # noqa: BLE001 - the device is gone; nothing more to release
            log.debug("stopping a failed recorder", exc_info=True)
            audio = []
        # Only a take with speech in it is worth transcribing; one of silence is said to be so.
        kept = len(audio) >= SHORTEST_CLIP_S * SAMPLE_RATE and speech_region(np.asarray(audio)) is not None
        self.status.notice(
            f"The microphone stopped working during the recording ({exc}). "
            + ("What it recorded until then is transcribed." if kept else "Nothing was heard, so nothing was sent.")
        )
        if kept:
            self._hand_on(audio, recorded, self._now())
        self.microphones.probe()

    def _hand_on(self, audio: Any, recorded: Recorded | None, ended_at: float) -> None:
        """The take's audio, to the flow it is for, then to whoever watches."""
        if recorded is not None:
            recorded(audio, ended_at)
        emit(self.clip_ready, audio, self.purpose)

    def _show_elapsed(self) -> None:
        """The timer counts time since the press, not audio received: a microphone that delivers
        nothing for a while (a silent virtual source does) must not freeze it."""
        if self.recorder is not None:
            self.display.set_elapsed(time.monotonic() - self._started)
