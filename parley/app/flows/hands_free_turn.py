"""A hands-free utterance: the microphone stays open, and each thing the user says is sent as
their message when they pause.

The listener (``speech.hands_free``) says when speech begins, when what began came to nothing, and
when a pause ended an utterance; each is a step here.  While Parley reads a reply aloud, speech
over it is checked by the barge-in flow before it counts.  Hands-free mode is a setting, so it
lasts; the talk key and the shortcuts from anywhere turn it off.

A turn ended too early is taken back.  The listener ends a turn at a pause it hears as the end
(Smart Turn, or the fixed pause), and a pause to think mid-sentence sometimes sounds like one:
"Can you remind me to" is sent, and Parley starts answering it.  When the user goes on (speech
begins within ``CONTINUATION_S`` of the utterance's end, while the reply to it is not finished:
its words not yet sent, or the reply still held, written or read aloud) and the new words are
theirs (not Parley's own voice: barge-in decides, and stops Parley), the first message and what
was written of its reply are taken back (``ReplyFlow.take_back``: window and store), and the two
parts are sent as one message.  Push-to-talk turns are never joined: the user's release ends them.
Words said while a reply asks whether a tool may act are its answer (``asking_first``).
With a wake word, ``waking`` decides what is taken: an utterance begun while Parley waits for the
word counts only with it, and is sent without it; one that goes on from a taken utterance (the
turn-end model heard "Hey Jarvis, what is the capital of" as finished) is the rest of it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from ..take_purpose import TakePurpose
from .asking_first import AskingFirst
from .barge_in import BargeIn
from .parts import Parts
from .waking import Waking

log = logging.getLogger("parley.hands_free")

CONTINUATION_S = 2.0
"""Speech that begins this soon after an utterance ended goes on from it, while its reply is not
finished.  Measured on the UI thread, from the utterance's end as the listener reports it to the
next speech's start as it reports it: both come late by about the same (the listener's blocks,
the detector), so the span is about the pause itself.  The thinking pauses of
``bench/bench_turns.py``'s set last 0.5 to 1.5 s, and for its cut-offs the span measured 0.2
to 1.4 s (``--continuation``; docs/measurements.md, "End of turn"); 2.0 s covers that with
room for the UI thread's own lag, and is the longest quiet the listener waits inside an
utterance it hears as unfinished (Smart Turn's ``longest_seconds``): a pause longer than that
ends a turn whatever was said.  A longer window would also join a new question asked quickly
while Parley still answers the last one."""


@dataclass(eq=False)
class Utterance:
    """One hands-free utterance, from the pause that ended it to the message it became."""

    ended: float  # clock seconds: the listener ended it
    goes_on_from: Utterance | None  # the utterance before, when this one may continue it
    woken: bool | None = None  # the wake word was heard in it (None: no detector)
    began_awake: bool = True  # it began when no wake word was needed
    for_parley: bool | None = None  # its words were taken (the wake word alone too); None until heard
    sent: str | None = None  # the message it was sent as (joined: the whole); "" when not sent


def joined(first: str, second: str) -> str:
    """One message of a turn's two parts.  Whisper ends the first part as a sentence where the
    user only paused ("Can you remind me to."): that full stop goes; a question or exclamation
    mark, and an ellipsis, stay."""
    first = first.rstrip()
    if first.endswith(".") and not first.endswith(".."):
        first = first[:-1]
    return f"{first} {second.strip()}"


class HandsFreeTurn:
    def __init__(
        self, parts: Parts, barge_in: BargeIn, set_mode: Callable[[bool], None], asking: AskingFirst, waking: Waking
    ) -> None:
        """``set_mode(on)`` changes the hands-free setting (listening follows it)."""
        self.asking = asking
        self.waking = waking
        self.hands_free = parts.hands_free
        self.transcription = parts.transcription
        self.replies = parts.replies
        self.voice = parts.voice
        self.turns = parts.turns
        self.bar = parts.window.input_bar
        self.chat = parts.chat
        self.settings = parts.settings
        self.clock = parts.clock
        self.barge_in = barge_in
        self._set_mode = set_mode
        self._last: Utterance | None = None  # the last utterance the listener ended
        self._goes_on_from: Utterance | None = None  # what the speech begun may continue
        self._began_awake: bool | None = None  # the speech begun needs no wake word (None: none begun)

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
        model reads the conversation meanwhile.  Soon after the last utterance, while its reply
        is not finished, this speech may go on from it.  While Parley waits for its wake word, the
        model is left alone until the word is heard."""
        self.barge_in.speech_began()
        self._began_awake = self.waking.awake
        if self._began_awake:
            self.waking.hearing(True)
            self.replies.prepare()
        last = self._last
        soon = last is not None and self.clock() - last.ended <= CONTINUATION_S
        self._goes_on_from = last if soon and last is not None and self._unanswered(last) else None

    def speech_dropped(self) -> None:
        """1b. What began came to nothing: too short to be an utterance, or Parley's own voice."""
        self._goes_on_from = self._began_awake = None
        self.waking.hearing(False)
        self.barge_in.came_to_nothing()

    def utterance(self, audio: Any, woken: bool | None = None) -> None:
        """2. A pause ended the utterance: it is transcribed on the speech thread, unless it began
        while Parley waited for its wake word and the word was not in it."""
        began_awake, self._began_awake = self._began_awake, None
        if began_awake is None:
            began_awake = self.waking.awake
        first = self._goes_on_from  # an utterance taken (or still being heard) that this one may go on from
        if not self.waking.needs_words(woken, began_awake or (first is not None and first.for_parley is not False)):
            self._goes_on_from = None
            self.waking.hearing(False)
            log.info("hands-free: an utterance without the wake word, not taken")
            return
        said = self._last = Utterance(self.clock(), first, woken, began_awake)
        self._goes_on_from = None
        self.turns.ended(TakePurpose.HANDS_FREE, said.ended)
        named = self.waking.by_name(woken, began_awake)
        if not self.transcription.transcribe(audio, TakePurpose.HANDS_FREE, partial(self.heard, said), named=named):
            self.waking.hearing(False)  # no speech model: its words never come

    def heard(self, said: Utterance, text: str) -> None:
        """3. Its words: Parley's own voice is dropped (it speaks on); the user's are sent, after
        the reply that is streaming if one is, or kept in the text box without a chat model.
        Words that go on from the message before take it back and are sent with it, as one."""
        try:
            self._heard(said, text)
        finally:
            self.waking.hearing(False)

    def _heard(self, said: Utterance, text: str) -> None:
        said.sent = ""  # until it is
        if not self.barge_in.words_heard(text):
            self.turns.forget()
            return
        first = said.goes_on_from
        awake = said.began_awake or (first is not None and bool(first.for_parley))  # the rest of a request
        taken = self.waking.take(text, said.woken, awake) if text else text
        said.for_parley = taken is not None
        if not taken and text:  # not for Parley, or the wake word alone (Parley listens)
            self.turns.forget()
            return
        text = taken or ""
        if not text or self.chat.model is None:
            self.turns.forget()
            if text:
                self.transcription.tell_heard(text)
                self.bar.insert_text(text)  # to send once the chat model is there
            return
        if self.asking.heard(text):  # the answer to "Shall I ...?": never a turn to go on from
            self.turns.forget()
            said.sent = None
            return
        if first is not None and first.sent and self.replies.take_back(first.sent):
            log.info("hands-free: %r goes on from %r, sent with it as one message", text, first.sent)
            text = joined(first.sent, text)
            self.turns.ended(TakePurpose.HANDS_FREE, said.ended)  # the whole ended where this part did
        self.transcription.tell_heard(text)
        self.turns.transcribed()
        said.sent = text
        self.replies.send_when_free(text)

    def _unanswered(self, said: Utterance) -> bool:
        """The reply to ``said`` has not finished: its words are still being transcribed, or
        they wait for the reply being written, or are being answered, or read aloud."""
        if said.sent is None:
            return True
        return bool(said.sent) and (self.replies.busy or bool(self.replies.queued) or self.voice.speaking)
