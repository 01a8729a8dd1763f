"""Replies read aloud: the voice the settings name, fed as the reply streams, silenced when the
user speaks over it (barge-in), and the reference for hands-free's echo canceller.

The output is made on first need: ``make`` (tests pass their own) or the voice the settings
name, the natural voice by default and the system's voice (speech-dispatcher) when no natural
voice can speak.  A natural voice streams: each sentence is spoken while the reply is still
written.  The system voice reads the whole reply once it is written.  While the natural voice
speaks, what the speakers play goes to hands-free's echo canceller, so Parley does not hear
itself; without a canceller, hands-free ignores the microphone while Parley speaks.

Barge-in by voice, checked: on speakers, what the canceller leaves of Parley's own voice can
still sound like speech.  So when speech starts while Parley speaks (``user_may_speak``), the
voice falls silent at once but keeps what it has left to say (``pause``), and the reply goes
on being written.  The utterance's words decide (``heard``): words that are not a run of what
Parley was saying are the user's, and the voice and the reply stop (``barge_in``); Parley's
own words, nothing recognised, or a start too short to be an utterance (``false_start``)
are its echo, and the voice goes on where it paused.  The talk key stops it unchecked.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Callable
from difflib import SequenceMatcher
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from ..engines import Engines
from ..settings import Settings
from ..signals import emit
from ..status import StatusPresenter
from .hands_free import HandsFree
from .read_aloud import NaturalReadAloud, ReadAloud

log = logging.getLogger("parley.voice")

Output = ReadAloud | NaturalReadAloud
ECHO_RUN = 0.6  # words heard over Parley are its echo when this share of them is a run of what it said
BARGE_IN_WORDS = frozenset(  # what a user says alone to interrupt
    "stop wait pause quiet enough no hold hey parley okay ok shush sorry excuse".split()
)
WORD_LIKENESS = 0.65  # a misheard word: difflib's ratio of its letters to the said word's
CHECK_TIMEOUT_MS = 20_000  # a pause that no verdict ends (an utterance cut at the length limit) ends here


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def alike(heard: str, said: str) -> bool:
    """Whether a word heard may be a word said, as speech recognition mishears Parley's voice
    through the canceller ("board" for "Bora", "all" for "called"): most of their letters in
    the same order (``WORD_LIKENESS``), or one inside the other at half its length or more.
    Words under three letters must be the same."""
    if heard == said:
        return True
    short, long = sorted((heard, said), key=len)
    if len(short) < 3:
        return False
    if short in long:
        return 2 * len(short) >= len(long)
    return SequenceMatcher(None, heard, said, autojunk=False).ratio() >= WORD_LIKENESS


def is_echo(heard: str, said: str) -> bool:
    """Whether the words ``heard`` while Parley spoke are Parley's own: at least ``ECHO_RUN``
    of them, in a row, are a run of the words it said, each the same or, in an utterance of
    two words or more, ``alike``.  A single word counts as the user's only when it is one of
    ``BARGE_IN_WORDS`` that Parley did not just say; any other lone word is its echo misheard.
    The talk key always works."""
    got, spoken = words(heard), words(said)
    if not got:
        return True
    if len(got) == 1 and got[0] not in BARGE_IN_WORDS:
        return True  # one word over Parley's voice that is no command: its echo, misheard ("win")
    same = alike if len(got) > 1 else str.__eq__
    longest, previous = 0, [0] * (len(spoken) + 1)
    for word in got:  # the longest common run
        current = [0] * (len(spoken) + 1)
        for j, said_word in enumerate(spoken, start=1):
            if same(word, said_word):
                current[j] = previous[j - 1] + 1
                longest = max(longest, current[j])
        previous = current
    return longest >= math.ceil(ECHO_RUN * len(got))


class SpokenReplies(QObject):
    speaking_changed = Signal(bool)
    first_sound = Signal()  # a reply's first sound is playing
    stop_reply = Signal()  # the user spoke over Parley: the reply stops too

    def __init__(
        self,
        engines: Engines,
        hands_free: HandsFree,
        status: StatusPresenter,
        settings: Callable[[], Settings],
        make: Callable[[], Output] | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._engines, self._hands_free, self._status, self._settings = engines, hands_free, status, settings
        self._make = make or self._voice_from_settings
        self.output: Output | None = None
        self._reading = False  # the streaming reply is being spoken as it comes
        self._said = ""  # the text of the reply being read
        self.checking = False  # paused: speech began over Parley, whose is it?
        self._check_timer = QTimer(self, singleShot=True, interval=CHECK_TIMEOUT_MS)
        self._check_timer.timeout.connect(self.false_start)

    @property
    def speaking(self) -> bool:
        return self.output is not None and self.output.speaking

    def ensure(self) -> Output:
        """The output, made (and connected to hands-free) on first need."""
        if self.output is None:
            self.output = output = self._make()
            output.speaking_changed.connect(self._speaking_changed)
            output.first_sound.connect(self.first_sound)
            if isinstance(output, NaturalReadAloud):
                output.failed.connect(self._status.notice)
                self._hands_free.set_echo_canceller(self._engines.echo_canceller())
            else:
                self._hands_free.set_echo_canceller(None)  # the system voice gives no reference
            self.hold_speakers()
        return self.output

    def settings_changed(self, old: Settings, new: Settings) -> None:
        if old.voice != new.voice and self.output is not None:
            self.output.close()
            self.output = None
        if new.read_replies_aloud:
            self.ensure()
        elif self.output is not None:
            self.output.stop()

    def stop(self) -> None:
        self._end_check()
        if self.output is not None:
            self.output.stop()

    def close(self) -> None:
        if self.output is not None:
            self.output.close()

    def barge_in(self) -> None:
        """The user spoke, or pressed the talk key, while Parley speaks: silence it and stop the
        reply (its text so far is kept, marked stopped); their words are the next turn."""
        self._end_check()
        if self.speaking:
            self.stop()
            emit(self.stop_reply)

    def user_may_speak(self) -> None:
        """Speech began while Parley speaks: silence the natural voice at once, keeping what is
        left to say, until the words show whose it was (``heard``, ``false_start``)."""
        if not self.speaking:
            return
        if not isinstance(self.output, NaturalReadAloud):
            self.barge_in()
            return
        self.output.pause(True)
        self.checking = True
        self._check_timer.start()

    def heard(self, text: str) -> bool:
        """A hands-free utterance's words: True when they are the user's (a check under way ends
        in a barge-in), False when they were Parley's own voice (dropped; it speaks on)."""
        if not self.checking:
            return True
        if is_echo(text, self._said):
            log.info("heard Parley's own words over its voice (%r): it speaks on", text)
            self.false_start()
            return False
        log.info("the user spoke over Parley (%r): the voice and the reply stop", text)
        self.barge_in()
        return True

    def false_start(self) -> None:
        """What began over Parley's voice was no utterance: it speaks on where it paused."""
        if self.checking:
            self._end_check()
            if isinstance(self.output, NaturalReadAloud):
                self.output.pause(False)

    def _end_check(self) -> None:
        self.checking = False
        self._check_timer.stop()

    def hold_speakers(self, *_args: Any) -> None:
        """Keep the speakers open while hands-free listens with the echo canceller."""
        if isinstance(self.output, NaturalReadAloud):
            self.output.hold_device(self._hands_free.listening and self._hands_free.cancels_echo)

    # ------------------------------------------------------------------ following the reply

    def reply_started(self) -> None:
        self._reading = False
        self._said = ""
        self._end_check()
        if self._settings().read_replies_aloud:
            output = self.ensure()
            if output.streams and not output.problem:
                output.begin()
                self._reading = True

    def reply_progress(self, piece: str) -> None:
        if self._reading and self.output is not None:
            self._said += piece
            self.output.feed(piece)

    def reply_finished(self, _text: str, how: str) -> None:
        if self._reading and self.output is not None:
            if how == "cancelled":
                self.output.stop()
            else:
                self.output.end()
        self._reading = False

    def reply_done(self, text: str) -> None:
        """A reply that ended by itself: read it whole, if the voice does not stream."""
        if not self._settings().read_replies_aloud:
            return
        output = self.ensure()
        if output.problem:
            self._status.announce(f"Replies cannot be read aloud: {output.problem}")
        elif not output.streams:
            output.say(text)

    # ------------------------------------------------------------------ internals

    def _voice_from_settings(self) -> Output:
        """The voice the settings name; the system's voice when no natural voice can speak."""
        settings = self._settings()
        if settings.voice != "system":
            problem = self._engines.natural_voice_problem()
            if problem is None:
                voice, threads = settings.voice, settings.threads or None

                def make_speaker(
                    on_speaking: Callable[[bool], None],
                    on_error: Callable[[BaseException], None],
                    on_first_audio: Callable[[], None],
                ) -> Any:
                    return self._engines.speaker(
                        voice, threads, on_speaking, on_error, self._echo_reference, on_first_audio
                    )

                return NaturalReadAloud(make_speaker, None, self)
            self._status.notice(f"{problem}; replies are read with the system's voice.")
        return ReadAloud(parent=self)

    def _echo_reference(self, block: Any, rate: int) -> None:
        """The player's thread: what the speakers play, for the microphone's echo canceller."""
        echo = self._hands_free.echo
        if echo is not None:
            echo.reference(block, rate)

    def _speaking_changed(self, speaking: bool) -> None:
        """Without an echo canceller, hands-free ignores the microphone while Parley speaks."""
        self._hands_free.ignore(speaking and not self._hands_free.cancels_echo)
        emit(self.speaking_changed, speaking)
