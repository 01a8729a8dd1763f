"""Hands-free mode: the microphone stays open and each utterance is sent as its own message.

The listener (``Engines.listener``, the engine's ``Listener``) hands 16 kHz blocks to a helper
thread, where an ``UtteranceSegmenter`` cuts them into utterances (a short pause ends one); each utterance comes
to the UI thread through a queued signal as ``utterance``, to be transcribed and sent.

While a reply is read aloud the microphone hears Parley itself.  With an echo canceller
(``echo``, speexdsp: ``set_echo_canceller``), every block first has Parley's voice removed,
using what the speakers play as the reference; the user can then talk over Parley, and the
start of their speech is said at once (``speech_started``) so the controller can stop the
voice and the reply (barge-in).  Without one the microphone is ignored while Parley speaks
(``ignore``).

The mode is a setting (``hands_free``), so it survives a restart; ``sync`` starts or stops
listening as the setting and the app's state allow.
"""

from __future__ import annotations

import logging
import threading
from functools import partial
from typing import Any

from PySide6.QtCore import QObject, Signal

from parley.engine.audio.vad import UtteranceSegmenter

from ..engine_slots import EngineSlot
from ..engines import ListenerFactory
from ..signals import emit
from ..status import StatusPresenter
from ..ui.input_bar import InputBar
from .microphones import Microphones
from .push_to_talk import level_fraction

log = logging.getLogger("parley.hands_free")


class HandsFree(QObject):
    listening_changed = Signal(bool)
    utterance = Signal(object)  # one utterance, 16 kHz mono float32, to transcribe and send
    speech_started = Signal()  # the user started to speak (an utterance began)
    _heard = Signal(object)  # from the listener's thread
    _began = Signal()  # from the listener's thread
    _level = Signal(float)
    _lost = Signal(object)

    def __init__(
        self,
        speech: EngineSlot,
        make_listener: ListenerFactory,
        microphones: Microphones,
        status: StatusPresenter,
        bar: InputBar,
        parent: QObject | None = None,
    ) -> None:
        """``make_listener`` opens the microphone (``Engines.listener``); ``speech`` says
        whether the app is closing."""
        super().__init__(parent)
        self.speech = speech
        self.make_listener = make_listener
        self.microphones = microphones
        self.status = status
        self.bar = bar
        self.listener: Any = None
        self._ignoring = threading.Event()  # read on the listener's thread
        self.echo: Any = None  # an EchoCanceller, used on the listener's thread
        self._segmenter = UtteranceSegmenter()
        self._heard.connect(self._utterance)
        self._began.connect(self._speech_began)
        self._level.connect(lambda db: self.bar.set_level(level_fraction(db)))
        self._lost.connect(self._microphone_lost)

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

    def start(self) -> None:
        if self.listener is not None:
            return
        self._segmenter = UtteranceSegmenter()
        if self.echo is not None:
            self.echo.reset()
        try:
            listener = self.make_listener(
                self.microphones.device(), self._audio, partial(emit, self._level), partial(emit, self._lost)
            )
            listener.start()
        except Exception as exc:  # noqa: BLE001 - a capture failure is reported, not raised
            log.warning("hands-free listening could not start: %s", exc)
            self.microphones.failed_to_open(exc)
            self.status.say(self.microphones.problem or str(exc))
            return
        self.listener = listener
        self.bar.set_recording(True, hands_free=True)
        self.status.say("Hands-free: listening. Speak; each pause sends what you said.")
        emit(self.listening_changed, True)

    def stop(self) -> None:
        listener, self.listener = self.listener, None
        if listener is None:
            return
        listener.stop()  # no utterance is reported after this returns
        self.bar.set_recording(False)
        emit(self.listening_changed, False)

    def _audio(self, block: Any) -> None:
        """The listener's thread: cut the stream into utterances."""
        if self.echo is not None:
            block = self.echo.process(block)
        if self._ignoring.is_set():
            self._segmenter.reset()
            return
        was_in_utterance = self._segmenter.in_utterance
        for utterance in self._segmenter.push(block):
            emit(self._heard, utterance)
        if self._segmenter.in_utterance and not was_in_utterance:
            emit(self._began)

    def _utterance(self, audio: Any) -> None:
        if self.listener is not None and not self._ignoring.is_set():
            emit(self.utterance, audio)

    def _speech_began(self) -> None:
        if self.listener is not None and not self._ignoring.is_set():
            emit(self.speech_started)

    def _microphone_lost(self, exc: BaseException) -> None:
        if self.listener is None:
            return
        self.stop()
        self.status.notice(f"Hands-free listening stopped: {exc}.")
        self.microphones.probe()
