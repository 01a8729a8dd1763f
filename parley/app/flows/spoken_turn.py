"""A spoken turn in the window: hold the talk key (or the Hold to talk button), speak, let go.

The words are sent as the user's message (after the reply that is streaming, if one is), or
taken as the answer when that reply asks whether a tool may act (``asking_first``), or put in
the text box to edit first: when ``send_on_release`` is off, or there is no chat model to
send them to yet.
"""

from __future__ import annotations

from typing import Any

from ..take_purpose import TakePurpose
from .asking_first import AskingFirst
from .barge_in import BargeIn
from .hands_free_turn import HandsFreeTurn
from .parts import Parts


class SpokenTurn:
    def __init__(self, parts: Parts, barge_in: BargeIn, hands_free: HandsFreeTurn, asking: AskingFirst) -> None:
        self.talk = parts.talk
        self.transcription = parts.transcription
        self.replies = parts.replies
        self.turns = parts.turns
        self.bar = parts.window.input_bar
        self.chat = parts.chat
        self.settings = parts.settings
        self.barge_in = barge_in
        self.hands_free = hands_free
        self.asking = asking
        self._release_does_nothing = False  # the press only turned hands-free off
        self.transcription.partial.connect(self.heard_so_far)
        self.transcription.settled.connect(self.heard_whole)

    def pressed(self) -> None:
        """1. The talk key goes down: Parley stops speaking, and its reply with it.  With
        hands-free on, this press only turns it off; else a take starts (its words are shown as
        they come), a reply still streaming stops, and the model reads the conversation while
        the user speaks."""
        self.barge_in.key_pressed()
        if self.hands_free.turn_off():
            self._release_does_nothing = True
            return
        if self.talk.press(TakePurpose.TALK, self.recorded) and not self.asking.pending:
            self.replies.stop()  # a reply that asks whether it may act waits for the answer
            self.replies.read_ahead("")

    def heard_so_far(self, words: str) -> None:
        """1b. While the key is held, the words heard so far: when they will be sent, the model
        reads them as they come, and after the release reads little more than the last ones."""
        if self._reads_ahead(words):
            self.replies.read_ahead(words)

    def heard_whole(self, words: str) -> None:
        """1c. The user paused with the key held: ``words`` are what the release sends if they
        say no more.  The model reads them whole, the start of its reply included, so that a
        release now costs it one token before the first word of the reply; if the user goes on,
        the next words are read from where the two part."""
        if self._reads_ahead(words):
            self.replies.read_ahead(words, whole=True)

    def _reads_ahead(self, words: str) -> bool:
        return bool(
            words
            and self.talk.recording
            and self.talk.purpose is TakePurpose.TALK
            and self.chat.model is not None
            and self.settings().send_on_release
        )

    def released(self) -> None:
        """2. The talk key comes up: the take ends (unless it ended already, at its length
        limit or with the microphone)."""
        if self._release_does_nothing:
            self._release_does_nothing = False
            return
        self.talk.release()

    def recorded(self, audio: Any, ended_at: float | None = None) -> bool:
        """3. The take's audio, ended at ``ended_at`` (turn clock seconds; None: now): it is
        transcribed on the speech thread.  False when it is not (no speech model, or silence)."""
        self.turns.ended(TakePurpose.TALK, ended_at)
        return self.transcription.transcribe(audio, TakePurpose.TALK, then=self.heard)

    def heard(self, text: str) -> None:
        """4. Its words: the answer to a tool call that waits for one; else sent, or put in the
        text box."""
        if text and self.asking.heard(text):
            self.turns.forget()
            return
        send = bool(text) and self.chat.model is not None and self.settings().send_on_release
        if send:
            self.turns.transcribed()
        else:
            self.turns.forget()
        if not text:
            return
        if send:
            self.replies.send_when_free(text)
        else:
            self.bar.insert_text(text)  # to edit, or to send once the chat model is there
