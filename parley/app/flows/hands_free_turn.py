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
parts are sent as one message.  They are transcribed as one where they can be: whisper hears the
second part with the first before it (heard alone, "France" after "What is the capital of" came
out as "friends"); over Parley's voice, the second part's own words are what barge-in judges, so
the two transcripts are joined instead; and when the whole does not go on after all (the first
was not sent, or something was sent since), the second part is transcribed again, alone.
Push-to-talk turns are never joined: the user's release ends them.
Words said while a reply asks whether a tool may act are its answer (``asking_first``).
With a wake word, ``waking`` decides what is taken: an utterance begun while Parley waits for the
word counts only with it, and is sent without it; one that goes on from a taken utterance (the
turn-end model heard "Hey Jarvis, what is the capital of" as finished, or "Hey Jarvis," alone) is
the rest of it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from ...engine.wake.name_apart import leading_word
from ...engine.wake.phrase import question_after_name
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
    audio: Any = None  # its audio (once it went on from another: the whole, from where that began)
    woken: float | None = None  # the wake word's best score in it (None: no detector)
    began_awake: bool = True  # it began when no wake word was needed
    awake: bool = True  # its words needed no wake word: it began awake, or goes on from words taken
    whole: bool = False  # it is being transcribed with the utterance it may go on from
    for_parley: bool | None = None  # its words were taken (the wake word alone too); None until heard
    woke: bool = False  # its words were the wake word alone: Parley listened
    sent: str | None = None  # the message it was sent as (joined: the whole); "" when not sent


def joined(first: str, second: str) -> str:
    """One message of a turn's two parts transcribed apart.  Whisper ends the first part as a
    sentence where the user only paused ("Can you remind me to."): that full stop goes; a
    question or exclamation mark, and an ellipsis, stay."""
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

    def utterance(self, audio: Any, woken: float | None = None) -> None:
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
        said = self._last = Utterance(self.clock(), first, audio, woken, began_awake)
        self._goes_on_from = None
        self.turns.ended(TakePurpose.HANDS_FREE, said.ended)
        # Over Parley's voice the part's own words say whether they are the user's (barge-in)
        said.whole = first is not None and first.for_parley is not False and not self.voice.checking
        self._transcribe(said)

    def _transcribe(self, said: Utterance) -> None:
        """Its words, heard with the utterance it may go on from (``said.whole``), or alone."""
        first = said.goes_on_from
        if said.whole and first is not None:
            audio = np.concatenate([first.audio, said.audio])
            named = self.waking.by_name(first.woken, first.began_awake)
        else:
            audio, named = said.audio, self.waking.by_name(said.woken, said.began_awake)
        if not self.transcription.transcribe(audio, TakePurpose.HANDS_FREE, partial(self.heard, said), named=named):
            self.waking.hearing(False)  # no speech model: its words never come

    def heard(self, said: Utterance, text: str) -> None:
        """3. Its words: Parley's own voice is dropped (it speaks on); the user's are sent, after
        the reply that is streaming if one is, or kept in the text box without a chat model.
        Words that go on from the message before take it back and are sent with it, as one."""
        self._dealt_with(lambda: self._heard(said, text))

    def _dealt_with(self, step: Callable[[], bool]) -> None:
        """Run ``step``; unless it says its words are still being heard (False), the utterance
        is over for the wake word's window, also when it fails."""
        done = True
        try:
            done = step()
        finally:
            if done:
                self.waking.hearing(False)

    def _heard(self, said: Utterance, text: str) -> bool:
        """False when the words were of the whole, which does not go on after all: the part is
        being transcribed again, alone."""
        said.sent = ""  # until it is
        if not self.barge_in.words_heard(text):
            self.turns.forget()
            return True
        first, said.goes_on_from = said.goes_on_from, None  # the audio of what went before is let go
        if said.whole and first is not None:
            return self._went_on(said, first, text)
        said.awake = said.began_awake or (first is not None and bool(first.for_parley))  # the rest of a request
        taken = self.waking.take(text, said.woken, said.awake) if text else text
        if taken is None and self._look_at_first_word(said, first, text):
            return False  # the first word said apart decides
        return self._taken(said, first, text, taken)

    def _look_at_first_word(self, said: Utterance, first: Utterance | None, text: str) -> bool:
        """Whisper drops "Parley" said apart before the question (``wake.name_apart``): where the
        name is the wake word and the transcript does not begin with it, the first word, if said
        apart, is transcribed alone (its words come, "" for none, unless the app is closing).
        False when there is no such word to look at."""
        by_name = self.waking.by_name(said.woken, said.awake) and self.transcription.speech.model is not None
        cut = leading_word(said.audio) if by_name else None
        if cut is None:
            return False
        log.info("hands-free: %r does not begin with the name; its first word, alone, may", text)
        heard = partial(self._first_word_heard, said, first, text)
        self.transcription.transcribe(said.audio[cut], TakePurpose.HANDS_FREE, heard, named=True)
        return True

    def _first_word_heard(self, said: Utterance, first: Utterance | None, text: str, word: str) -> None:
        self._dealt_with(
            lambda: self._taken(said, first, text, self.waking.took(question_after_name(word, text), said.awake))
        )

    def _taken(self, said: Utterance, first: Utterance | None, text: str, taken: str | None) -> bool:
        """What of ``text`` Parley takes (``taken``; None: nothing) is sent, or kept."""
        said.for_parley = taken is not None
        said.woke = taken == "" and bool(text)
        if not taken and text:  # not for Parley, or the wake word alone (Parley listens)
            self.turns.forget()
            return True
        text = taken or ""
        if not text or self.chat.model is None:
            self.turns.forget()
            if text:
                self.transcription.tell_heard(text)
                self.bar.insert_text(text)  # to send once the chat model is there
            return True
        if self.asking.heard(text):  # the answer to "Shall I ...?": never a turn to go on from
            self.turns.forget()
            said.sent = None
            return True
        if first is not None and first.sent and self.replies.take_back(first.sent):
            log.info("hands-free: %r goes on from %r, sent with it as one message", text, first.sent)
            text = joined(first.sent, text)
            self.turns.ended(TakePurpose.HANDS_FREE, said.ended)  # the whole ended where this part did
        self._send(said, text)
        return True

    def _went_on(self, said: Utterance, first: Utterance, text: str) -> bool:
        """``text`` is of ``first`` and ``said`` heard as one: the whole is sent in place of the
        first's message (taken back) or after the wake word said alone.  Otherwise ``said`` is
        transcribed again alone (False), as an utterance of its own, or the rest of ``first``.
        A wake word the whole's transcript has not quite as the first's had stays in it."""
        said.whole = False
        rest = self.waking.rest(text, first.woken, first.awake) if text else ""
        whole = text if rest is None else rest
        if (
            whole
            and first.for_parley
            and self.chat.model is not None
            and (first.woke or (bool(first.sent) and self.replies.take_back(first.sent or "")))
        ):
            log.info("hands-free: the words that went on from %r, heard with it: %r", first.sent or "the word", whole)
            said.audio = np.concatenate([first.audio, said.audio])
            said.woken, said.began_awake, said.awake = first.woken, first.began_awake, first.awake
            said.for_parley = True
            self.turns.ended(TakePurpose.HANDS_FREE, said.ended)  # the whole ended where this part did
            self._send(said, whole)
            return True
        said.goes_on_from = first
        self._transcribe(said)
        return False

    def _send(self, said: Utterance, text: str) -> None:
        self.transcription.tell_heard(text)
        self.turns.transcribed()
        said.sent = text
        self.replies.send_when_free(text)

    def _unanswered(self, said: Utterance) -> bool:
        """The reply to ``said`` has not finished: its words are still being transcribed, or
        they wait for the reply being written, or are being answered, or read aloud; or they were
        the wake word alone, and the question comes now."""
        if said.sent is None or said.woke:
            return True
        return bool(said.sent) and (self.replies.busy or bool(self.replies.queued) or self.voice.speaking)
