"""The checks that keep a clean-up to the words said: every word of the cleaned text must come
from the transcript, up to casing, punctuation and the fixes a clean-up makes, and most of the
transcript's words must still be there.

A word of the output is accounted for when it is
- a word of the transcript (contractions compared spelled out: "I'm" is "I am");
- a word of the user's vocabulary (a name spelled as the list spells it);
- a spelling fix of a transcript word of 4 letters or more (difflib ratio of 0.75 or more);
- a number the transcript says in words ("3" for "three", up to twelve);
- one of the small grammatical words a grammar fix may add ("the", "to", "is"), never a
  negation.
Anything else (an answer, a greeting, an opinion, a sentence of the model's own) is an added
word, and the clean-up is refused.

A clean-up drops false starts ("I want to, I need to go"), so words may go; but when more than
a third of the transcript's words that carry meaning (not the grammatical words above, not the
fillers people drop) are gone, what is left says less than was said ("can you tell Nguyen that
the build is broken" -> "The build is broken."), and the clean-up is refused too.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable

from ..textmetrics import normalize_words
from .fillers import FILLERS

# English words a grammar fix adds without adding meaning ("went to store" -> "went to the store").
GRAMMAR_WORDS = frozenset(
    "a an the to of in on at for with by from and or but that which who as so if than then "
    "is are was were be been being am do does did have has had will would shall should can could may might "
    "it its i me my we us our you your he him his she her they them their this these those there here".split()
)
_CONTRACTIONS = [
    (r"n['’]t\b", " not"),
    (r"['’]re\b", " are"),
    (r"['’]ll\b", " will"),
    (r"['’]ve\b", " have"),
    (r"['’]m\b", " am"),
    (r"['’]d\b", " would"),
    (r"['’]s\b", " is"),
    (r"\bcan not\b", "cannot"),
    (r"\bwo not\b", "will not"),
    (r"\bca not\b", "can not"),
]
# Words a clean-up may drop as filler without losing what was meant.
DROPPABLE = frozenset(
    "so well like actually basically just really okay ok right yeah yes oh now then kind sort".split()
).union(*FILLERS.values())
MOST_DROPPED = 1 / 3  # of the words that carry meaning
SPELLING_FIX = 0.75
MIN_FIX_LETTERS = 4


def words_of(text: str) -> list[str]:
    """Lower-case words with contractions spelled out."""
    text = unicodedata.normalize("NFKC", text).lower()
    for pattern, replacement in _CONTRACTIONS:
        text = re.sub(pattern, replacement, text)
    return re.findall(r"\w+", re.sub(r"(\w)['’](\w)", r"\1\2", text))  # "o'clock" is "oclock"


def added_words(transcript: str, cleaned: str, vocabulary: Iterable[str] = ()) -> list[str]:
    """The words of ``cleaned`` that ``transcript`` does not account for, each once, in order."""
    source = set(words_of(transcript)) | set(normalize_words(transcript))
    source |= {w for entry in vocabulary for w in words_of(entry)}
    added: list[str] = []
    for word in words_of(cleaned):
        if word in source or word in GRAMMAR_WORDS or word in added:
            continue
        if word.isdigit() and set(normalize_words(word)) <= source:
            continue  # "3" for "three"
        if _fixed(word, source):
            continue
        added.append(word)
    return added


def dropped_words(transcript: str, cleaned: str) -> list[str]:
    """The words that carry meaning in ``transcript`` and are gone from ``cleaned``, when they
    are more than ``MOST_DROPPED`` of them (and more than one); else []."""
    kept = set(words_of(cleaned)) | set(normalize_words(cleaned))
    meaning = [w for w in dict.fromkeys(words_of(transcript)) if w not in GRAMMAR_WORDS and w not in DROPPABLE]
    gone = [w for w in meaning if w not in kept and not _fixed(w, kept)]
    return gone if len(gone) > max(1, MOST_DROPPED * len(meaning)) else []


def _fixed(word: str, words: set[str]) -> bool:
    """Whether ``word`` is in ``words`` with its spelling fixed."""
    return len(word) >= MIN_FIX_LETTERS and any(
        difflib.SequenceMatcher(None, word, w, autojunk=False).ratio() >= SPELLING_FIX for w in words
    )
