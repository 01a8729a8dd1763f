"""Reply text, as it streams, cut into what can be spoken: sentences of plain words.

``SentenceSplitter.push`` takes each piece of a reply as it comes and returns the sentences it
completed; ``flush`` returns the rest at the end.  So the first sentence can be spoken while the
model is still writing the second.  The first pieces are cut early (``EarlyCut``), because the
time to the first sound is what a listener notices: the first piece at a clause (a comma after
a word or two), or before a joining word (a preposition or a conjunction: where a speaker may
take a breath) once it has two words, or after four words however the sentence goes on (a
number's digits are one word but several tokens, and many words read aloud).  It is made in
about half the time of a four-word phrase.  The second piece is cut the same way at twice the
length, so that it is made while the first plays: a whole sentence after two words would leave
a gap.  The pieces after it are whole sentences.

``plain_text`` turns Markdown into what is read: markup and emoji dropped, code blocks and links'
targets not read out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_FENCE = "```"
_SENTENCE_END = re.compile(r"(?<=[.!?…])[\"')\]]*\s+|\n\s*\n|\n(?=\s*(?:[-*+]|\d+[.)])\s)")
_CLAUSE_END = re.compile(r"(?<=[,;:—])\s+")
_WORD = re.compile(r"\S+\s+")  # a word that is complete: whitespace follows it
_JOINING = frozenset(
    "and but or so because which that who whom whose when where while if unless until although though "
    "to of in on at for from with without about around by as than like after before between into "
    "through over under during since near across along among against".split()
)
_NO_END = _JOINING | frozenset("a an the my your his her its our their this these those some no every".split())
_ABBREVIATIONS = frozenset("mr mrs ms dr prof st vs etc e.g i.e approx no fig jr sr inc ltd".split())
_MARKUP = [
    (re.compile(r"!?\[([^\]]*)\]\([^)]*\)"), r"\1"),  # links and images: their text
    (re.compile(r"\s*\[\d{1,3}\](?!\()"), ""),  # a source's number ("1.5 bar [1]"): the sources are said after
    (re.compile(r"`([^`]*)`"), r"\1"),  # inline code: its text
    (re.compile(r"^\s{0,3}#{1,6}\s*", re.MULTILINE), ""),  # headings
    (re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+", re.MULTILINE), ""),  # list markers
    (re.compile(r"^\s*>\s?", re.MULTILINE), ""),  # quotes
    (re.compile(r"(\*\*|__|\*|_|~~)(?=\S)(.+?)(?<=\S)\1"), r"\2"),  # emphasis
    (re.compile(r"^\s*(?:[-*_]\s*){3,}$", re.MULTILINE), ""),  # rules
    (re.compile(r"\|"), " "),  # table bars
    (re.compile(r"^\s*:?-{3,}:?(?:\s+:?-{3,}:?)*\s*$", re.MULTILINE), ""),  # a table's header rule, bars gone
    # Emoji and pictographs (a voice reads them as their names, or as noise), flags, the
    # joiners and variation selectors that build them; symbols people read (° © ™ €) stay.
    (re.compile("[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\ufe0e\ufe0f\u200d\u20e3]"), ""),
]
_SPACE_BEFORE_MARK = re.compile(r"\s+(?=[.,!?;:](?:\s|$))")  # left where an emoji was: "today ☀️."
CODE_BLOCK_WORDS = "(code block)"


def _bare(word: str) -> str:
    """A word as the cut rules compare it: without the space after it, quotes or brackets."""
    return word.strip(" \t\n\"'()").lower()


def plain_text(markdown: str) -> str:
    """``markdown`` as the words to read: code blocks become "(code block)", markup is dropped."""
    parts = markdown.split(_FENCE)
    text = " ".join(part if i % 2 == 0 else f" {CODE_BLOCK_WORDS} " for i, part in enumerate(parts))
    for pattern, replacement in _MARKUP:
        text = pattern.sub(replacement, text)
    return _SPACE_BEFORE_MARK.sub("", " ".join(text.split()))


@dataclass(frozen=True)
class EarlyCut:
    """Where a piece may end within a sentence: at a clause once it has ``clause_chars``
    characters, before a joining word once it has ``words`` words, and after its
    ``words_max``-th word or the word that reaches ``chars_max`` characters in any case.
    ``eager``: that last cut is made as soon as the word is complete; otherwise once the word
    after it is too, so that a sentence that ends there is not cut before its last word."""

    clause_chars: int
    words: int
    words_max: int
    chars_max: int
    eager: bool = False


# The first piece (eager: its time is the first sound's), then the second (made while the first
# plays: see the module's docstring); the rest are whole sentences.
EARLY_CUTS = (EarlyCut(clause_chars=4, words=2, words_max=4, chars_max=24, eager=True), EarlyCut(12, 4, 8, 40))


class SentenceSplitter:
    """Cuts streaming Markdown into sentences of plain text (see the module docstring).

    ``early``: how the first pieces may be cut within a sentence, one ``EarlyCut`` per piece
    (``()``: whole sentences only, for a text that is complete, such as ``parley say``'s).
    Text inside a code block is never read; the block is said once.
    """

    def __init__(self, *, early: tuple[EarlyCut, ...] = EARLY_CUTS) -> None:
        self.early = early
        self._buffer = ""
        self._emitted = 0  # sentences returned so far

    def push(self, piece: str) -> list[str]:
        """Add the next piece of the reply; return the sentences now complete, in order."""
        self._buffer += piece
        out: list[str] = []
        while True:
            cut = self._next_cut()
            if cut is None:
                return out
            sentence = plain_text(self._buffer[:cut])
            self._buffer = self._buffer[cut:]
            if sentence:
                out.append(sentence)
                self._emitted += 1

    def flush(self) -> list[str]:
        """The rest of the reply, once it has ended."""
        rest = self._buffer
        if rest.count(_FENCE) % 2:
            rest += _FENCE  # an unclosed code block
        self._buffer = ""
        sentence = plain_text(rest)
        return [sentence] if sentence else []

    def _next_cut(self) -> int | None:
        """Where the first complete sentence of the buffer ends (None: none is complete yet)."""
        text = self._buffer
        fence = text.find(_FENCE)
        if fence == 0:
            close = text.find(_FENCE, len(_FENCE))
            return None if close < 0 else close + len(_FENCE)
        limit = len(text) if fence < 0 else fence
        for match in _SENTENCE_END.finditer(text, 0, limit):
            if not self._abbreviation(text[: match.start()]):
                return match.end()
        if self._emitted < len(self.early):
            rule = self.early[self._emitted]
            for match in _CLAUSE_END.finditer(text, 0, limit):
                if match.start() >= rule.clause_chars:
                    return match.end()
            cut = self._phrase_cut(text, limit, rule)
            if cut is not None:
                return cut
        return fence if fence > 0 else None

    @staticmethod
    def _phrase_cut(text: str, limit: int, rule: EarlyCut) -> int | None:
        """Where a piece may end within a clause: before a joining word once it has
        ``rule.words`` words, or after its ``rule.words_max``-th word or the word that reaches
        ``rule.chars_max`` characters (an eager rule as soon as that word is complete: "The moon
        is approximately" is cut before the digits of "238,855" come, one token each).  Never
        after a joining word or an article ("The moon is about" waits for the word after it),
        never inside a word or a number."""
        words = list(_WORD.finditer(text, 0, limit))
        for i, match in enumerate(words):
            followed = i + 1 < len(words)  # the word after this one is complete too
            if i + 1 >= rule.words and followed and _bare(words[i + 1].group()) in _JOINING:
                return match.end()
            long_enough = i + 1 >= rule.words_max or match.end() >= rule.chars_max
            if long_enough and (rule.eager or followed) and _bare(match.group()) not in _NO_END:
                return match.end()
        return None

    @staticmethod
    def _abbreviation(before: str) -> bool:
        """Whether the full stop that ends ``before`` belongs to an abbreviation or an initial."""
        if not before.endswith("."):
            return False
        word = before.rsplit(None, 1)[-1].rstrip(".").lower() if before.split() else ""
        return word in _ABBREVIATIONS or (len(word) == 1 and word.isalpha())
