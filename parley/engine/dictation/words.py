"""A transcript as a list of words, each with the punctuation around it and the space before it.

The text steps (fillers, vocabulary, spoken punctuation) remove, merge and re-punctuate words;
doing that on these records instead of on the string keeps whisper's punctuation and line
breaks where they belong and makes "the comma after the removed word" a field, not a regex.
``join(split(text)) == text`` for any text whose whitespace is single spaces and line breaks.
"""

from __future__ import annotations

import dataclasses
import re

# A whitespace-separated piece: leading punctuation, the word, trailing punctuation.  The word
# keeps inner punctuation ("parley.com", "don't", "e-mail", "3.5").
_PIECE = re.compile(r"(\s*)(\S+)")
_PARTS = re.compile(r"^([^\w]*)(.*?)([^\w]*)$", re.DOTALL)
SENTENCE_END = (".", "?", "!", "…")
# Titles whose period ends no sentence ("Dr. Nguyen").
ABBREVIATIONS = frozenset({"dr", "mr", "mrs", "ms", "st", "prof", "mt", "jr", "sr", "vs", "etc", "hr", "fr", "sra"})


@dataclasses.dataclass
class Word:
    before: str  # the whitespace before it ("" for the first word)
    lead: str  # punctuation before the word: an opening quote or bracket
    core: str  # the word itself; "" for a piece of punctuation alone
    trail: str  # punctuation after it: , . ? ! and closing quotes

    @property
    def key(self) -> str:
        """The word as the steps compare it: lower case, without its punctuation."""
        return self.core.lower()

    def text(self) -> str:
        return self.before + self.lead + self.core + self.trail


def split(text: str) -> list[Word]:
    words = []
    for match in _PIECE.finditer(text):
        parts = _PARTS.match(match.group(2))
        assert parts is not None  # the pattern matches any text
        lead, core, trail = parts.groups()
        if not core:  # punctuation alone ("-", "...")
            lead, trail = "", lead + trail
            core = ""
        words.append(Word(_space(match.group(1)), lead, core, trail))
    if words:
        words[0].before = ""
    return words


def _space(whitespace: str) -> str:
    """The whitespace between two words, as the output keeps it: line breaks kept (at most a
    blank line), anything else one space."""
    breaks = whitespace.count("\n")
    return "\n" * min(breaks, 2) if breaks else " "


def join(words: list[Word]) -> str:
    return "".join(w.text() for w in words).strip(" ")


def starts_sentence(words: list[Word], index: int) -> bool:
    """Whether ``words[index]`` begins a sentence or a line."""
    if index == 0:
        return True
    previous = words[index - 1]
    if previous.trail == "." and previous.key in ABBREVIATIONS:
        return "\n" in words[index].before
    return "\n" in words[index].before or previous.trail.rstrip("\"')]”’»").endswith(SENTENCE_END)


def capitalize(word: Word) -> None:
    if word.core[:1].islower():
        word.core = word.core[0].upper() + word.core[1:]


def letters(text: str) -> str:
    """Only the letters and digits of ``text``, lower case: how names are compared."""
    return "".join(c for c in text.lower() if c.isalnum())
