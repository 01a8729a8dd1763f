"""Whether the words heard while Parley spoke were Parley's own: its voice through the speakers,
misheard by speech recognition, or the user talking over it (``is_echo``, the barge-in flow's
verdict)."""

from __future__ import annotations

import math
import re
from difflib import SequenceMatcher

ECHO_RUN = 0.6  # words heard over Parley are its echo when this share of them is a run of what it said
BARGE_IN_WORDS = frozenset(  # what a user says alone to interrupt
    "stop wait pause quiet enough no hold hey parley okay ok shush sorry excuse".split()
)
SHORT_WORDS = 2  # an utterance this short over Parley is the user's only with a word of BARGE_IN_WORDS
WORD_LIKENESS = 0.65  # a misheard word: difflib's ratio of its letters to the said word's


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
    Two words with no such word among them are its echo too: Whisper makes a short phrase of
    the canceller's residue ("I did." over a story it was telling, beside a busy processor), and
    a person who says two words over a reply without "stop", "wait" or the like is acknowledging
    it ("thank you", "got it"), not asking it to stop.  The talk key always works."""
    got, spoken = words(heard), words(said)
    if not got:
        return True
    if len(got) <= SHORT_WORDS and BARGE_IN_WORDS.isdisjoint(got):
        return True  # a word or two over Parley's voice, no command: its echo misheard ("win"), or a nod
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
