"""The wake phrase at the start of a transcript, and the question after it.

A model word was heard in the audio already; its phrase is cut from the transcript so the
message is the question alone ("Hey Jarvis, what time is it?" is sent as "What time is it?").
Whisper spells the word its own way ("Hey, Jarvis", "Hey Jarves", "Hi Jarvis", "A Jarvis",
"Okay, no boo"), so the first one to three words that sound most like the phrase (by the
likeness of their letters run together, at least ``LIKENESS``) are taken for it and cut.  When
none do the whole transcript is the question: the audio already said the word was there.

"Parley" is heard in the transcript alone, so there the match is the detector and is kept
strict: the first word (after an optional "hey", "hi", "OK" or "okay") must be one of the ways
whisper writes it.  "Harley" is one: even primed with the name, whisper tiny.en wrote the
natural voice's "Parley," as "Harley," in about a third of the takes where it was not dropped
(``bench/bench_wake.py``); a sentence that begins with "Harley" while Parley waits is rare.
The natural voice's "Parley." said alone, with its soft "P", whisper writes "Arley", "Arlie",
"Arleigh" or "Farley" (in 9 of 9 takes looked at, whole and unclipped): those are taken too.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable

from .words import WakeWord

LIKENESS = 0.7  # difflib's ratio from which the first words, run together, are taken for the phrase
NEARLY = 0.02  # a longer run this much less alike still counts ("okay no boo" against "okay no")
PARLEY_SPELLINGS = frozenset(
    {"parley", "parlay", "parlee", "parly", "parlie", "parle", "harley", "farley", "arley", "arlie", "arleigh"}
)
GREETINGS = frozenset({"hey", "hi", "ok", "okay", "a"})
NAME_LIKENESS = 0.6  # difflib's ratio from which a whole transcript's first word is the name misheard

_WORD = re.compile(r"[\w']+")


def transcript_prompt(vocabulary_prompt: str | None = None) -> str:
    """whisper's initial prompt while "Parley" is the wake word: the name, then the vocabulary's
    prompt if there is one.  Without it whisper tiny.en wrote a lone "Parley" as "Harley",
    "Partly" or "Power League" (12 of 24 clips heard); with the bare name 21 of 24, against 21
    with the vocabulary's sentence ("I talked with Parley.") and 16 with "Parley,", which made it
    repeat or drop the question."""
    return f"Parley. {vocabulary_prompt}" if vocabulary_prompt else "Parley"


def after_wake_phrase(text: str, word: WakeWord) -> str | None:
    """What follows ``word``'s phrase at the start of ``text`` ("" when nothing does), or None when
    the text does not begin with it.  For a model word the text is kept whole (returned as it is)
    when the phrase is not found; only "Parley" gives None."""
    end = phrase_end(text, word)
    if end:
        return _rest(text, end)
    return None if word.heard_in_transcript else text.strip()


def phrase_end(text: str, word: WakeWord) -> int:
    """Where ``word``'s phrase ends at the start of ``text`` (0: it does not begin with it)."""
    words = list(_WORD.finditer(text))
    if word.heard_in_transcript:
        return _name_end(words, lambda w: w in PARLEY_SPELLINGS)
    phrase = "".join(word.phrase.lower().split())
    best, end = 0.0, 0
    for n in range(1, min(len(words), len(word.phrase.split()) + 1) + 1):
        run = "".join(w.group().lower() for w in words[:n])
        likeness = difflib.SequenceMatcher(None, run, phrase).ratio()
        if likeness >= LIKENESS and likeness >= best - NEARLY:  # a longer run as like: the phrase goes on
            end = words[n - 1].end()
        best = max(best, likeness)
    return end


def question_after_name(first_word: str, text: str) -> str | None:
    """The question when ``first_word``, the first word of an utterance transcribed alone
    (``name_apart.leading_word``), is "Parley" (None when it is not): ``text``, the whole
    utterance's transcript, without its first word where that sounds like the name (whisper wrote
    "Partly" or "Carley" in the whole: ``NAME_LIKENESS``), else whole."""
    if not _name_end(list(_WORD.finditer(first_word)), lambda w: w in PARLEY_SPELLINGS):
        return None
    end = _name_end(list(_WORD.finditer(text)), _like_the_name)
    return _rest(text, end)


def _like_the_name(word: str) -> bool:
    return difflib.SequenceMatcher(None, word, "parley").ratio() >= NAME_LIKENESS


def _name_end(words: list[re.Match[str]], is_name: Callable[[str], bool]) -> int:
    """Where the name ends among ``words``, the first (after a greeting), in lower case, that
    ``is_name`` accepts (0: they do not begin with it)."""
    start = 1 if words and words[0].group().lower() in GREETINGS else 0
    return words[start].end() if len(words) > start and is_name(words[start].group().lower()) else 0


def _rest(text: str, end: int) -> str:
    """The text after ``end``, without the punctuation that joined it to the phrase, capitalised."""
    rest = text[end:].lstrip(" ,.!?;:-–—…").strip()
    return rest[:1].upper() + rest[1:]
