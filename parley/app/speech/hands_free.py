"""Hands-free mode: the microphone stays open and each utterance is sent as its own message.

The listener (``Engines.listener``, the engine's ``Listener``) hands 16 kHz blocks to a helper
thread, where an ``UtteranceSegmenter`` cuts them into utterances (a pause ends one); each utterance comes
to the UI thread through a queued signal as ``utterance``, to be transcribed and sent.  What
tells speech from noise (``make_detector``: Silero's neural VAD, or loudness) and what ends a
turn (``make_judge``: Smart Turn, which hears whether the user has finished, or None for a fixed
0.8 s pause) are made on that thread when listening starts, and used only there; a model that
cannot load falls back (to loudness, to the fixed pause), with a notice.

While a reply is read aloud the microphone hears Parley itself.  With an echo canceller
(``echo``, WebRTC's AEC3: ``set_echo_canceller``), every block first has Parley's voice removed,
using what the speakers play as the reference, and an ``EchoGuard`` drops what is still
Parley (everything in the fraction of a second until the canceller has converged, then what it
removed most of); the user
can then talk over Parley, and the start of their speech is said at once (``speech_started``)
so the voice can fall silent (barge-in; ``SpokenReplies`` checks the words before it stops the
reply), and a start that came to nothing too (``speech_dropped``): too short to be an
utterance, one the canceller took most of away (``ECHO_UTTERANCE_DB``), or one that is mostly
an echo of what Parley played (``ECHO_SHARE``, ``UtteranceEcho``: found afresh over the
utterance, for when the canceller lost the echo on a loaded machine), which was Parley.
Without one the microphone is ignored while Parley speaks (``ignore``).

With a wake word (``make_wake``: a ``WakeDetector`` made on the listener's thread, or None), every
block, after the canceller, also goes to the detector, which hears the word in a few milliseconds
a second; the word heard is said at once (``woke``), and each utterance comes with the word's
best score in it (``WAKE_SLACK_S`` before it included): ``flows.waking`` decides what is taken.
A detector that cannot load leaves the word to be found in the transcript instead.

The mode is a setting (``hands_free``), so it survives a restart; ``sync`` starts or stops
listening as the setting and the app's state allow.
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
from PySide6.QtCore import QObject, Signal

from parley.engine.audio.echo import EchoGuard, UtteranceEcho
from parley.engine.audio.vad import EnergyDetector, UtteranceSegmenter

from ...config.settings import Settings
from ..engine_notes import said
from ..engine_slots import EngineSlot
from ..engines import ListenerFactory
from ..signals import emit
from ..status import StatusPresenter
from .microphones import Microphones
from .push_to_talk import TakeDisplay, level_fraction

log = logging.getLogger("parley.hands_free")

ECHO_UTTERANCE_DB = 8.0  # an utterance the canceller took this much from was Parley's own voice
ECHO_SHARE = 0.85  # ... and one this much of which is an echo of what Parley played (``echo_share``)
SEEN_AFTER_S = 0.25  # an utterance is seen to begin up to this long after its first sound (the segmenter's start)
LISTENING_SETTINGS = ("hands_free_detector", "hands_free_turn_end", "wake_word", "wake_threshold")
WAKE_SLACK_S = 0.5  # a wake word heard this long before an utterance was seen to begin counts for it


class HandsFree(QObject):
    listening_changed = Signal(bool)
    utterance = Signal(object, object)  # 16 kHz mono float32, and the wake word's best score in it (None: no detector)
    woke = Signal()  # the wake word was heard
    speech_started = Signal()  # the user started to speak (an utterance began)
    speech_dropped = Signal()  # what began was too short to be an utterance
    _heard = Signal(object, object)  # from the listener's thread
    _woke = Signal()
    _began = Signal()  # from the listener's thread
    _dropped = Signal()
    _level = Signal(float)
    _lost = Signal(object)
    _detector_failed = Signal(str)

    def __init__(
        self,
        speech: EngineSlot,
        make_listener: ListenerFactory,
        make_detector: Callable[[], Any],
        microphones: Microphones,
        status: StatusPresenter,
        display: TakeDisplay,
        make_judge: Callable[[], Any] = lambda: None,
        parent: QObject | None = None,
        make_wake: Callable[[], Any] = lambda: None,
    ) -> None:
        """``make_listener`` opens the microphone (``Engines.listener``); ``make_detector``
        makes a ``SpeechDetector`` (``Engines.speech_detector``), ``make_judge`` a ``TurnJudge``
        or None (``Engines.turn_judge``) and ``make_wake`` a ``WakeDetector`` or None
        (``Engines.wake_detector``) on the listener's thread; ``speech`` says whether the app is
        closing."""
        super().__init__(parent)
        self.speech = speech
        self.make_listener = make_listener
        self.make_detector = make_detector
        self.make_judge = make_judge
        self.make_wake = make_wake
        self._wake: Any = None  # a WakeDetector, made and used on the listener's thread
        self._began_at = 0.0  # where in the detector's stream the utterance being heard began
        self.microphones = microphones
        self.status = status
        self.display = display
        self.listener: Any = None
        self._ignoring = threading.Event()  # read on the listener's thread
        self.echo: Any = None  # an EchoCanceller, used on the listener's thread
        self._echo_guard = EchoGuard()
        self._echo_restarts = 0
        self._energy = [0.0, 0.0]  # what the microphone heard and the canceller left, this utterance
        self._heard_and_played = UtteranceEcho(pre_roll_s=SEEN_AFTER_S)  # the listener's thread's
        self._segmenter: UtteranceSegmenter | None = None  # made and used on the listener's thread
        self.detector_name = ""  # the detector in use: "neural" or "energy" ("" before the first block)
        self.turn_end = ""  # what ends a turn: "smart-turn" or "pause" ("" before the first block)
        self._heard.connect(self._utterance)
        self._woke.connect(self._heard_wake_word)
        self._began.connect(self._speech_began)
        self._dropped.connect(self.speech_dropped)
        self._level.connect(lambda db: self.display.set_level(level_fraction(db)))
        self._lost.connect(self._microphone_lost)
        self._detector_failed.connect(self.status.notice)

    @property
    def listening(self) -> bool:
        return self.listener is not None

    def sync(self, wanted: bool, problem: str | None) -> None:
        """Listen when ``wanted`` and nothing (``problem``) stands in the way; otherwise don't."""
        if wanted and problem is None and not self.speech.closing:
            self.start()
        elif self.listener is not None and (not wanted or self.speech.closing):
            self.stop()

    @property
    def cancels_echo(self) -> bool:
        return self.echo is not None

    def set_echo_canceller(self, echo: Any) -> None:
        """Remove the speakers' echo from what the microphone hears (None: don't); set it
        before ``start``."""
        self.echo = echo

    def ignore(self, ignoring: bool) -> None:
        """Ignore the microphone (while a reply is read aloud), dropping any utterance half heard."""
        if ignoring:
            self._ignoring.set()
        else:
            self._ignoring.clear()

    def settings_changed(self, old: Settings, new: Settings) -> None:
        """Listening stops when what it is made with changed; it starts again with the new parts
        when the app next shows what can be used (``sync``)."""
        if self.listener is not None and any(getattr(old, k) != getattr(new, k) for k in LISTENING_SETTINGS):
            self.stop()

    def start(self) -> None:
        if self.listener is not None:
            return
        self._segmenter = None
        if self.echo is not None:
            self.echo.reset()
        self._echo_guard = EchoGuard()  # the listener's thread's, from here on
        self._heard_and_played = UtteranceEcho(pre_roll_s=SEEN_AFTER_S)
        try:
            listener = self.make_listener(
                self.microphones.device(), self._audio, partial(emit, self._level), partial(emit, self._lost)
            )
            listener.start()
        except Exception as exc:  # noqa: BLE001 - a capture failure is reported, not raised
            log.warning("hands-free listening could not start: %s", exc)
            self.microphones.failed_to_open(exc)
            self.status.say(self.microphones.problem or said(exc))
            return
        self.listener = listener
        self.display.set_recording(True, hands_free=True)
        self.status.say("Hands-free: listening. Speak; what you said is sent when you have finished.")
        emit(self.listening_changed, True)

    def stop(self) -> None:
        listener, self.listener = self.listener, None
        if listener is None:
            return
        listener.stop()  # no utterance is reported after this returns
        self._close_detector()
        self.display.set_recording(False)
        emit(self.listening_changed, False)

    def _audio(self, block: Any) -> None:
        """The listener's thread: cut the stream into utterances."""
        may_be_speech = judged = True
        heard_energy = left_energy = 0.0
        if self.echo is not None:
            heard_energy = float(np.dot(block, block))
            cleaned = self.echo.process(block)
            self._heard_and_played.push(self.echo.heard, self.echo.played)
            left_energy = float(np.dot(cleaned, cleaned))
            if self.echo.restarts != self._echo_restarts:
                self._echo_restarts = self.echo.restarts
                self._echo_guard.filter_restarted()
            may_be_speech = self._echo_guard.admit(block, cleaned, self.echo.reference_level)  # else Parley's voice
            judged = not self._echo_guard.echo_present  # talking over Parley: the fixed pause ends the turn
            block = cleaned
        segmenter = self._segmenter or self._new_segmenter()
        if self._ignoring.is_set():
            segmenter.reset()
            return
        wake = self._wake
        if wake is not None and wake.push(block):
            emit(self._woke)
        was_in_utterance = segmenter.in_utterance
        utterances = segmenter.push(block, may_be_speech, judged)
        self._energy[0] += heard_energy
        self._energy[1] += left_energy
        for utterance in utterances:
            share = self._heard_and_played.share() if self.echo is not None else 0.0
            if self._mostly_echo():
                log.info("an utterance was mostly Parley's own voice: not transcribed")
                emit(self._dropped)
            elif share >= ECHO_SHARE:
                log.info("an utterance was Parley's own voice, which the canceller lost (%.0f%% its echo)", 100 * share)
                emit(self._dropped)
            else:
                emit(self._heard, utterance, self._woken_in())
            self._energy = [0.0, 0.0]
        if segmenter.in_utterance and not was_in_utterance:
            self._heard_and_played.begin()
            self._energy = [heard_energy, left_energy]
            self._began_at = wake.seconds if wake is not None else 0.0
            emit(self._began)
        elif was_in_utterance and not segmenter.in_utterance and not utterances:
            self._heard_and_played.forget()
            self._energy = [0.0, 0.0]
            emit(self._dropped)

    def _woken_in(self) -> float | None:
        """The wake word's best score in the utterance that ended now (0 where it did not pass the
        detector's floor), since it was seen to begin (its end is no guide: the pause after it, up
        to the turn-end model's 2 s, is not part of it); None without a detector."""
        wake = self._wake
        if wake is None:
            return None
        return float(wake.peak_since(self._began_at - WAKE_SLACK_S))

    def _mostly_echo(self) -> bool:
        """The canceller took most of the utterance away (``ECHO_UTTERANCE_DB``): it was Parley's
        own voice that the guard let through, not the user, who is not cancelled."""
        heard, left = self._energy
        return heard > 0.0 and (left <= 0.0 or 10.0 * math.log10(heard / left) >= ECHO_UTTERANCE_DB)

    def _new_segmenter(self) -> UtteranceSegmenter:
        """The listener's thread, on its first block."""
        try:
            detector = self.make_detector()
        except Exception as exc:  # noqa: BLE001 - a model that cannot load: loudness still works
            log.warning("hands-free falls back to loudness: the neural voice detector could not load: %s", exc)
            emit(
                self._detector_failed,
                f"Hands-free listens by loudness: the neural voice detector could not load ({exc}).",
            )
            detector = EnergyDetector()
        try:
            judge = self.make_judge()
        except Exception as exc:  # noqa: BLE001 - a model that cannot load: the fixed pause still works
            log.warning("hands-free ends turns after a fixed pause: the turn-end model could not load: %s", exc)
            emit(
                self._detector_failed,
                f"Hands-free ends each turn after a fixed pause: the turn-end model could not load ({exc}).",
            )
            judge = None
        try:
            self._wake = self.make_wake()
        except Exception as exc:  # noqa: BLE001 - a model that cannot load: the transcript still has the word
            log.warning("the wake word detector could not load: %s", exc)
            emit(self._detector_failed, f"The wake word cannot be heard ({exc}); say “Parley” instead.")
            self._wake = None
        self.detector_name = detector.name
        self.turn_end = judge.name if judge is not None else "pause"
        log.info("hands-free listens with the %s detector; turns end by %s", detector.name, self.turn_end)
        self._segmenter = UtteranceSegmenter(detector, judge=judge)
        return self._segmenter

    def _close_detector(self) -> None:
        wake, self._wake = self._wake, None
        if wake is not None:
            wake.close()
        segmenter, self._segmenter = self._segmenter, None
        if segmenter is not None:
            segmenter.detector.close()
            if segmenter.judge is not None:
                segmenter.judge.close()

    def _utterance(self, audio: Any, woken: float | None) -> None:
        if self.listener is not None and not self._ignoring.is_set():
            emit(self.utterance, audio, woken)

    def _heard_wake_word(self) -> None:
        if self.listener is not None and not self._ignoring.is_set():
            emit(self.woke)

    def _speech_began(self) -> None:
        if self.listener is not None and not self._ignoring.is_set():
            emit(self.speech_started)

    def _microphone_lost(self, exc: BaseException) -> None:
        if self.listener is None:
            return
        self.stop()
        self.status.notice(f"Hands-free listening stopped: {exc}.")
        self.microphones.probe()
