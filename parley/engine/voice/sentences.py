"""Reply text, as it streams, cut into what can be spoken: sentences of plain words.

``SentenceSplitter.push`` takes each piece of a reply as it comes and returns the sentences it
completed; ``flush`` returns the rest at the end.  So the first sentence can be spoken while the
model is still writing the second.  The first piece is cut early, at a clause (a comma after a
few words), because the time to the first sound is what a listener notices.

``plain_text`` turns Markdown into what is read: markup dropped, code blocks and links' targets
not read out.
"""

from __future__ import annotations

import re

_FENCE = "```"
_SENTENCE_END = re.compile(r"(?<=[.!?…])[\"')\]]*\s+|\n\s*\n|\n(?=\s*(?:[-*+]|\d+[.)])\s)")
_CLAUSE_END = re.compile(r"(?<=[,;:—])\s+")
_ABBREVIATIONS = frozenset("mr mrs ms dr prof st vs etc e.g i.e approx no fig jr sr inc ltd".split())
_MARKUP = [
    (re.compile(r"!?\[([^\]]*)\]\([^)]*\)"), r"\1"),  # links and images: their text
    (re.compile(r"`([^`]*)`"), r"\1"),  # inline code: its text
    (re.compile(r"^\s{0,3}#{1,6}\s*", re.MULTILINE), ""),  # headings
    (re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+", re.MULTILINE), ""),  # list markers
    (re.compile(r"^\s*>\s?", re.MULTILINE), ""),  # quotes
    (re.compile(r"(\*\*|__|\*|_|~~)(?=\S)(.+?)(?<=\S)\1"), r"\2"),  # emphasis
    (re.compile(r"^\s*(?:[-*_]\s*){3,}$", re.MULTILINE), ""),  # rules
    (re.compile(r"\|"), " "),  # table bars
]
CODE_BLOCK_WORDS = "(code block)"


def plain_text(markdown: str) -> str:
    """``markdown`` as the words to read: code blocks become "(code block)", markup is dropped."""
    parts = markdown.split(_FENCE)
    text = " ".join(part if i % 2 == 0 else f" {CODE_BLOCK_WORDS} " for i, part in enumerate(parts))
    for pattern, replacement in _MARKUP:
        text = pattern.sub(replacement, text)
    return " ".join(text.split())


class SentenceSplitter:
    """Cuts streaming Markdown into sentences of plain text (see the module docstring).

    ``first_clause_chars``: the first piece may end at a clause once it is this long (0: only
    at sentence ends).  Text inside a code block is never read; the block is said once.
    """

    def __init__(self, *, first_clause_chars: int = 24) -> None:
        self.first_clause_chars = first_clause_chars
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
        if self._emitted == 0 and self.first_clause_chars:
            for match in _CLAUSE_END.finditer(text, 0, limit):
                if match.start() >= self.first_clause_chars:
                    return match.end()
        return fence if fence > 0 else None

    @staticmethod
    def _abbreviation(before: str) -> bool:
        """Whether the full stop that ends ``before`` belongs to an abbreviation or an initial."""
        if not before.endswith("."):
            return False
        word = before.rsplit(None, 1)[-1].rstrip(".").lower() if before.split() else ""
        return word in _ABBREVIATIONS or (len(word) == 1 and word.isalpha())
