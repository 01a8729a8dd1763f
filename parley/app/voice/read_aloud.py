"""Reading replies aloud with Qt's text-to-speech, when the system has a voice.

Having no engine, an engine in the Error state, or no voices is the normal case on many
machines, not a failure: ``problem`` then says why, and the feature is simply unavailable.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QTextDocument

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
    """Reads replies aloud; ``speaking`` is true while it does (the microphone is ignored then)."""

    speaking_changed = Signal(bool)

    def __init__(self, engine: str | None = None, parent: QObject | None = None) -> None:
        """``engine``: a QTextToSpeech engine name; None tries every real engine in turn."""
        super().__init__(parent)
        self._tts: QTextToSpeech | None = None
        self.speaking = False
        self.problem: str | None = None
        try:
            from PySide6.QtTextToSpeech import QTextToSpeech
        except ImportError:
            self.problem = "Text-to-speech is not part of this Qt installation."
            return
        self._states = QTextToSpeech.State
        names = [engine] if engine else [n for n in QTextToSpeech.availableEngines() if n != "mock"]
        if not names:
            self.problem = "No text-to-speech engine is installed on this system."
            return
        for name in names:
            tts = QTextToSpeech(name, self)
            if tts.state() == QTextToSpeech.State.Error:
                self.problem = f"The text-to-speech engine {name!r} is not working: {tts.errorString() or 'error'}."
            elif not tts.availableVoices():
                self.problem = f"The text-to-speech engine {name!r} has no voices installed."
            else:
                self._tts, self.problem = tts, None
                tts.stateChanged.connect(self._on_state)
                return
            tts.deleteLater()

    def say(self, markdown: str) -> None:
        text = speakable_text(markdown)
        if self._tts is not None and text:
            self._tts.say(text)

    def stop(self) -> None:
        if self._tts is not None:
            self._tts.stop()

    def _on_state(self, state: QTextToSpeech.State) -> None:
        speaking = state in (self._states.Speaking, self._states.Synthesizing)
        if speaking != self.speaking:
            self.speaking = speaking
            emit(self.speaking_changed, speaking)
        if state == self._states.Error and self._tts is not None:
            self.problem = f"Text-to-speech failed: {self._tts.errorString()}"
