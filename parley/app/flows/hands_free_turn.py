"""A hands-free utterance: the microphone stays open, and each thing the user says is sent as
their message when they pause.

The listener (``speech.hands_free``) says when speech begins, when what began came to nothing, and
when a pause ended an utterance; each is a step here.  While Parley reads a reply aloud, speech
over it is checked by the barge-in flow before it counts.  Hands-free mode is a setting, so it
lasts; the talk key and the shortcuts from anywhere turn it off.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..take_purpose import TakePurpose
from .barge_in import BargeIn
from .parts import Parts


class HandsFreeTurn:
    def __init__(self, parts: Parts, barge_in: BargeIn, set_mode: Callable[[bool], None]) -> None:
        """``set_mode(on)`` changes the hands-free setting (listening follows it)."""
        self.hands_free = parts.hands_free
        self.transcription = parts.transcription
        self.replies = parts.replies
        self.turns = parts.turns
        self.bar = parts.window.input_bar
        self.chat = parts.chat
        self.settings = parts.settings
        self.barge_in = barge_in
        self._set_mode = set_mode

    @property
    def on(self) -> bool:
        """Hands-free mode is on (listening, or meant to once the microphone can be used)."""
        return self.hands_free.listening or self.settings().hands_free

    def turn_off(self) -> bool:
        """Turn hands-free mode off; True if it was on."""
        if not self.on:
            return False
        self._set_mode(False)
        return True

    # ------------------------------------------------------------------ an utterance

    def speech_began(self) -> None:
        """1. The user starts to speak: if Parley is speaking, the barge-in check begins; the
        model reads the conversation meanwhile."""
        self.barge_in.speech_began()
        self.replies.prepare()

    def speech_dropped(self) -> None:
        """1b. What began came to nothing: too short to be an utterance, or Parley's own voice."""
        self.barge_in.came_to_nothing()

    def utterance(self, audio: Any) -> None:
        """2. A pause ended the utterance: it is transcribed on the speech thread."""
        self.turns.ended(TakePurpose.HANDS_FREE)
        self.transcription.transcribe(audio, TakePurpose.HANDS_FREE, then=self.heard)

    def heard(self, text: str) -> None:
        """3. Its words: Parley's own voice is dropped (it speaks on); the user's are sent, after
        the reply that is streaming if one is, or kept in the text box without a chat model."""
        if not self.barge_in.words_heard(text):
            self.turns.forget()
            return
        send = bool(text) and self.chat.model is not None
        if send:
            self.turns.transcribed()
        else:
            self.turns.forget()
        if not text:
            return
        if send:
            self.replies.send_when_free(text)
        else:
            self.bar.insert_text(text)  # to send once the chat model is there
