"""Reading replies aloud: the natural voice (``NaturalReadAloud``, Parley's own neural voice,
spoken sentence by sentence while the reply is still being written), or the system's voice
through Qt's text-to-speech (``ReadAloud``, whole replies once they are written), the fallback.

Both have the same surface: ``begin``/``feed``/``end`` follow a streaming reply (the system
voice ignores them: ``streams`` is False, it gets the whole reply through ``say``), ``stop``
silences it, ``speaking``/``speaking_changed`` say when it speaks, ``problem`` why it cannot.
Having no voice at all is the normal case on many machines, not a failure: ``problem`` then
says why, and the feature is simply unavailable.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QTextDocument

from ..engine_notes import said
from ..signals import emit

if TYPE_CHECKING:
    from PySide6.QtTextToSpeech import QTextToSpeech

_CODE_BLOCK = re.compile(r"```.*?(```|$)", re.DOTALL)


def speakable_text(markdown: str) -> str:
    """The reply as plain sentences: Markdown markup dropped, code blocks not read out."""
    document = QTextDocument()
    document.setMarkdown(_CODE_BLOCK.sub(" (code block) ", markdown))
    return " ".join(document.toPlainText().split())


class ReadAloud(QObject):
    """Reads whole replies aloud with the system's voice; ``speaking`` is true while it does."""

    speaking_changed = Signal(bool)
    first_sound = Signal()  # it started to speak
    streams = False  # it reads a reply once it is written (``say``), not as it streams

    def __init__(self, engine: str | None = None, parent: QObject | None = None) -> None:
        """``engine``: a QTextToSpeech engine name; None tries every real engine in turn."""
        super().__init__(parent)
        self._tts: QTextToSpeech | None = None
        self.speaking = False
        self.problem: str | None = None
        try:
            from PySide6.QtTextToSpeech import QTextToSpeech
        except ImportError:
            self.problem = self.tr("Text-to-speech is not part of this Qt installation.")
            return
        self._states = QTextToSpeech.State
        names = [engine] if engine else [n for n in QTextToSpeech.availableEngines() if n != "mock"]
        if not names:
            self.problem = self.tr("No text-to-speech engine is installed on this system.")
            return
        for name in names:
            tts = QTextToSpeech(name, self)
            if tts.state() == QTextToSpeech.State.Error:
                self.problem = self.tr("The text-to-speech engine “{engine}” is not working: {problem}.").format(
                    engine=name, problem=tts.errorString() or "error"
                )
            elif not tts.availableVoices():
                self.problem = self.tr("The text-to-speech engine “{engine}” has no voices installed.").format(
                    engine=name
                )
            else:
                self._tts, self.problem = tts, None
                tts.stateChanged.connect(self._on_state)
                return
            tts.deleteLater()

    def say(self, markdown: str) -> None:
        text = speakable_text(markdown)
        if self._tts is not None and text:
            self._tts.say(text)

    def begin(self) -> None:
        """A reply starts (the system voice waits for the whole reply)."""

    def feed(self, piece: str) -> None:
        """A piece of the reply (the system voice waits for the whole reply)."""

    def end(self) -> None:
        """The reply is complete (the system voice gets it through ``say``)."""

    def close(self) -> None:
        self.stop()

    def stop(self) -> None:
        if self._tts is not None:
            self._tts.stop()

    def _on_state(self, state: QTextToSpeech.State) -> None:
        speaking = state in (self._states.Speaking, self._states.Synthesizing)
        if speaking != self.speaking:
            self.speaking = speaking
            emit(self.speaking_changed, speaking)
            if speaking:
                emit(self.first_sound)  # the system voice speaks a whole reply at once
        if state == self._states.Error and self._tts is not None:
            self.problem = f"Text-to-speech failed: {self._tts.errorString()}"


# make_speaker(on_speaking, on_error, on_first_audio) -> the engine's Speaker
SpeakerFactory = Callable[[Callable[[bool], None], Callable[[BaseException], None], Callable[[], None]], Any]


class NaturalReadAloud(QObject):
    """Speaks replies with the natural voice as they stream: ``begin`` when a reply starts,
    ``feed`` each piece, ``end`` when it is complete; the first sentence is heard while the
    model writes the next.  ``make_speaker(on_speaking, on_error, on_first_audio)`` makes the
    engine's ``Speaker`` (its callbacks run on its threads; they reach the UI thread as signals)."""

    speaking_changed = Signal(bool)
    first_sound = Signal()  # an utterance's first sound is playing
    failed = Signal(str)
    streams = True
    _speaking = Signal(bool)  # from the speaker's threads
    _first_sound = Signal()
    _error = Signal(str)

    def __init__(self, make_speaker: SpeakerFactory, problem: str | None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.problem = problem
        self.speaking = False
        self._speaking.connect(self._on_speaking)
        self._first_sound.connect(self.first_sound)
        self._error.connect(self._on_error)
        self.speaker: Any = None
        if problem is None:
            self.speaker = make_speaker(
                partial(emit, self._speaking),
                lambda exc: emit(self._error, said(exc)),
                partial(emit, self._first_sound),
            )
            self.speaker.preload()

    def begin(self) -> None:
        if self.speaker is not None:
            self.speaker.begin()

    def feed(self, piece: str) -> None:
        if self.speaker is not None:
            self.speaker.feed(piece)

    def end(self) -> None:
        if self.speaker is not None:
            self.speaker.end()

    def say(self, markdown: str) -> None:
        if self.speaker is not None:
            self.speaker.say(markdown)

    def stop(self) -> None:
        """Silence it now (within one 20 ms block of audio, plus what the device buffers)."""
        if self.speaker is not None:
            self.speaker.stop()
        self._on_speaking(False)

    def pause(self, paused: bool) -> None:
        """Silence it keeping what is left to say (True), or go on saying it (False)."""
        if self.speaker is not None:
            self.speaker.pause(paused)

    def hold_device(self, held: bool) -> None:
        """Keep the speakers open between replies (echo cancelling needs the steady timing)."""
        if self.speaker is not None:
            self.speaker.hold_device(held)

    def close(self) -> None:
        if self.speaker is not None:
            self.speaker.close()
        self._on_speaking(False)

    def _on_speaking(self, speaking: bool) -> None:
        speaking = speaking and self.speaker is not None and self.speaker.speaking
        if speaking != self.speaking:
            self.speaking = speaking
            emit(self.speaking_changed, speaking)

    def _on_error(self, message: str) -> None:
        emit(self.failed, f"The voice stopped: {message}")
