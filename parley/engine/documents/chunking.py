"""A document's blocks cut into passages: the pieces that are searched, embedded and quoted.

A passage never crosses a block (a page, a section under one heading), so each keeps one place.
Inside a block, whole paragraphs are gathered up to ``TARGET_WORDS``; a paragraph longer than
``MAX_WORDS`` is cut between sentences, a sentence longer than that between words.  The size
follows the embedding model: all-MiniLM-L6-v2 reads 256 word pieces well, about 180 English words,
and a passage of about 120 words leaves room for its heading, which is embedded with it.  A short
last piece joins the one before it when the two still fit, and a short paragraph that would end a
piece (a glossary term, "For example:", a function's signature) starts the next one, with the text
it introduces: the benchmark found 328 of 1,913 passages ending on one, their answers in the next.
"""

from __future__ import annotations

import dataclasses
import re

from .reading import Document

TARGET_WORDS = 120
MAX_WORDS = 180
MIN_WORDS = 30  # a shorter last piece of a block joins the one before it
LEAD_IN_WORDS = 12  # a paragraph this short at a piece's end starts the next piece instead
_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+")


@dataclasses.dataclass(frozen=True)
class Chunk:
    text: str
    place: str
    ordinal: int  # its order in the document


def chunk_document(document: Document) -> list[Chunk]:
    """The passages of ``document``, in reading order."""
    chunks: list[Chunk] = []
    for block in document.blocks:
        for text in _pieces(block.text):
            chunks.append(Chunk(text, block.place, len(chunks)))
    return chunks


def _pieces(text: str) -> list[str]:
    units: list[str] = []  # paragraphs, long ones already cut
    for paragraph in text.split("\n\n"):
        if _words(paragraph) <= MAX_WORDS:
            if paragraph.strip():
                units.append(paragraph.strip())
        else:
            units += _cut(paragraph)
    pieces: list[str] = []
    current: list[str] = []
    for unit in units:
        if current and _words(*current, unit) > TARGET_WORDS:
            carried: list[str] = []  # a short lead-in ("EAFP", "For example:") goes with what it leads into
            while len(current) > 1 and _words(current[-1]) <= LEAD_IN_WORDS:
                carried.insert(0, current.pop())
            pieces.append("\n\n".join(current))
            current = carried
        current.append(unit)
    if current:
        last = "\n\n".join(current)
        if pieces and _words(last) < MIN_WORDS and _words(pieces[-1], last) <= MAX_WORDS:
            pieces[-1] = f"{pieces[-1]}\n\n{last}"
        else:
            pieces.append(last)
    return pieces


def _words(*texts: str) -> int:
    return sum(len(text.split()) for text in texts)


def _cut(paragraph: str) -> list[str]:
    """A long paragraph as runs of at most ``MAX_WORDS`` words: of whole lines where it has lines
    (source code keeps them), else of whole sentences (a longer sentence in runs of words)."""
    lined = "\n" in paragraph.strip()
    parts = paragraph.strip().splitlines() if lined else _SENTENCE_END.split(paragraph)
    joiner = "\n" if lined else " "
    runs: list[str] = []
    current: list[str] = []
    for part in parts:
        words = part.split()
        while len(words) > MAX_WORDS:
            if current:
                runs.append(joiner.join(current))
                current = []
            runs.append(" ".join(words[:TARGET_WORDS]))
            words = words[TARGET_WORDS:]
        rest = part if len(words) == len(part.split()) else " ".join(words)
        if current and _words(*current, rest) > TARGET_WORDS:
            runs.append(joiner.join(current))
            current = []
        if rest.strip() or lined:
            current.append(rest)
    if current:
        runs.append(joiner.join(current))
    return [run for run in runs if run.strip()]
