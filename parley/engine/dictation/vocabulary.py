"""The user's words: names, product names and jargon that whisper has not seen.

Two things use the list:

- ``whisper_prompt``: the entries as whisper's initial prompt ("I talked with Siobhan, Nguyen
  and Postgres."), which biases the decoder toward those spellings.  whisper.cpp keeps only the last
  ``n_text_ctx / 2 - 1`` tokens of a prompt (223 for every Whisper model), and its tokenizer
  is byte-level BPE: a token is at least one byte, so a prompt of at most 223 UTF-8 bytes is
  never cut.  The entries go in list order while they fit; the rest are still corrected.
- ``correct``: after transcription, a word or a run of words that is a near miss of an entry
  ("Zintrix" for "Zyntrix", "Postkers" for "Postgres") is replaced by the entry.  The
  similarity is the mean of the spelling's (difflib's ratio on the letters) and the sound's
  (the same ratio on a rough English sound key: "ph" and "f", "c" and "k", vowels alike).
  Only ever into an entry of the list, never into anything else.  Words written in lower case
  in the middle of a sentence are usually common words whisper knows ("posters", "source"),
  so they must be closer: halfway between the threshold and a perfect match.  Words of fewer
  than 4 letters are only fixed in their case.  A near miss is looked for among the entries
  whose sound key starts like the heard words' ("Zintrix", "Kristof", "Chivon" start like
  "Zyntrix", "Krzysztof", "Siobhan"): with 1,000 entries a 37-word take took 0.1 s on a busy
  2-core machine, against 2 s when each window was compared with every entry.

Bounds: ``MAX_ENTRIES`` entries of at most ``MAX_ENTRY_CHARS`` characters and
``MAX_ENTRY_WORDS`` words; ``bound`` keeps what fits and says what it left out.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import re
from collections.abc import Iterable, Sequence

from .words import Word, letters, starts_sentence

MAX_ENTRIES = 1000
MAX_ENTRY_CHARS = 60
MAX_ENTRY_WORDS = 4
# whisper.cpp: max_prompt_ctx = n_text_ctx / 2 (448 / 2 for all Whisper models), one of which
# is the "previous text" marker; byte-level BPE makes a token at least one byte.
PROMPT_MAX_BYTES = 448 // 2 - 1
MIN_LETTERS = 4  # shorter words are only matched exactly (case fixes)
_NOT_A_NAME = "./@_\\:"  # inside an address, a file name or a number: "zyntrix.io" is not a near miss
DEFAULT_THRESHOLD = 0.8
THRESHOLD_RANGE = (0.5, 1.0)


def bound(entries: Iterable[str]) -> tuple[tuple[str, ...], list[str]]:
    """The usable entries (trimmed, each once, in order) and a sentence for each kind of entry
    left out.  A list of any size is read only as far as it can be used."""
    kept: list[str] = []
    seen: set[str] = set()
    too_long = too_many_words = extra = 0
    for entry in entries:
        if len(kept) == MAX_ENTRIES:
            extra += 1
            continue
        text = " ".join(entry[: MAX_ENTRY_CHARS * 4].split()) if isinstance(entry, str) else ""
        if not text or letters(text) in seen:
            continue
        if len(text) > MAX_ENTRY_CHARS:
            too_long += 1
        elif len(text.split()) > MAX_ENTRY_WORDS:
            too_many_words += 1
        else:
            kept.append(text)
            seen.add(letters(text))
    problems = []
    if extra:
        problems.append(f"Only the first {MAX_ENTRIES} vocabulary entries are used; {extra} more were left out.")
    if too_long:
        problems.append(f"{_entries(too_long)} longer than {MAX_ENTRY_CHARS} characters left out of the vocabulary.")
    if too_many_words:
        problems.append(f"{_entries(too_many_words)} of more than {MAX_ENTRY_WORDS} words left out of the vocabulary.")
    return tuple(kept), problems


def _entries(n: int) -> str:
    return "1 entry" if n == 1 else f"{n} entries"


def whisper_prompt(entries: Sequence[str], language: str = "auto") -> str | None:
    """whisper's initial prompt for ``entries``: as many as fit in ``PROMPT_MAX_BYTES``.  In
    English, a sentence that names them ("I talked with Siobhan, Nguyen and Postgres."): whisper
    reads its prompt as the text said before, and on the dictation benchmark that framing gave
    a lower word error rate than the bare list (0.33 against 0.36, the same names right)."""
    fitting = _fitting(entries, language)
    return _render(fitting, language) if fitting else None


def prompt_coverage(entries: Sequence[str], language: str = "auto") -> int:
    """How many of ``entries`` whisper's prompt holds."""
    return len(_fitting(entries, language))


def _fitting(entries: Sequence[str], language: str) -> list[str]:
    """The entries, in order, that fit in the prompt (a shorter one further down may still fit)."""
    taken: list[str] = []
    for entry in entries:
        if len(_render([*taken, entry], language).encode()) <= PROMPT_MAX_BYTES:
            taken.append(entry)
    return taken


def _render(entries: list[str], language: str) -> str:
    if language not in ("en", "auto"):
        return ", ".join(entries) + "."
    names = entries[0] if len(entries) == 1 else ", ".join(entries[:-1]) + " and " + entries[-1]
    return f"I talked with {names}."


# A rough English sound key: spellings of one sound made alike, vowels made one.
_SOUNDS = [
    (r"^kn|^gn|^pn", "n"),
    (r"^wr", "r"),
    (r"^ps", "s"),
    (r"^x", "s"),
    (r"ph", "f"),
    (r"gh", "g"),
    (r"ck", "k"),
    (r"sch", "sk"),
    (r"^sio", "x"),
    (r"tio", "x"),
    (r"sh|ch", "x"),
    (r"bh|mh|v", "v"),
    (r"c(?=[eiy])", "s"),
    (r"[cq]", "k"),
    (r"x(?!$)", "ks"),
    (r"z", "s"),
    (r"dg", "j"),
    (r"y", "i"),
    (r"h(?![aeiou])", ""),
    (r"[aeiou]+", "a"),
    (r"(.)\1+", r"\1"),
]
_COMPILED = [(re.compile(a), b) for a, b in _SOUNDS]


@functools.lru_cache(maxsize=4096)
def sound_key(text: str) -> str:
    key = "".join(c for c in text.lower() if c.isalpha())
    for pattern, replacement in _COMPILED:
        key = pattern.sub(replacement, key)
    return key


def similarity(heard: str, entry: str) -> float:
    """0..1: how alike two spellings look and sound (see the module's docstring)."""
    a, b = letters(heard), letters(entry)
    spelling = difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()
    sound = difflib.SequenceMatcher(None, sound_key(a), sound_key(b), autojunk=False).ratio()
    return (spelling + sound) / 2


@dataclasses.dataclass(frozen=True)
class _Entry:
    text: str
    letters: str
    sound: str
    words: int


@dataclasses.dataclass(frozen=True)
class _Match:
    start: int
    end: int  # one past the last word
    entry: str
    score: float


@dataclasses.dataclass(frozen=True)
class _Index:
    """The entries by their letters (exact matches) and by the first sound of their sound key
    (near misses start with the same sound: "Zintrix", "Kristof", "Chivon"): a window is
    compared with a few entries, not with the whole list."""

    exact: dict[str, _Entry]
    by_sound: dict[str, tuple[_Entry, ...]]
    longest: int  # words in the longest entry


@functools.lru_cache(maxsize=8)
def _prepared(entries: tuple[str, ...]) -> _Index | None:
    prepared = [_Entry(e, letters(e), sound_key(e), len(e.split())) for e in entries if letters(e)]
    if not prepared:
        return None
    by_sound: dict[str, list[_Entry]] = {}
    for entry in prepared:
        by_sound.setdefault(entry.sound[:1], []).append(entry)
    return _Index(
        exact={e.letters: e for e in reversed(prepared)},  # the first of two spellings wins
        by_sound={k: tuple(v) for k, v in by_sound.items()},
        longest=max(e.words for e in prepared),
    )


def correct(words: list[Word], entries: tuple[str, ...], threshold: float) -> list[Word]:
    """``words`` with each near miss of an entry replaced by the entry (see the docstring)."""
    index = _prepared(entries)
    if index is None or not words:
        return words
    longest = index.longest + 1
    matches: list[_Match] = []
    for start in range(len(words)):
        for end in range(start + 1, min(start + longest, len(words)) + 1):
            window = words[start:end]
            if not window[-1].core or any(_breaks(w) for w in window[:-1]):
                break
            if end > start + 1 and "\n" in window[-1].before:
                break
            found = _best(window, index, _needed(words, start, threshold))
            if found is not None:
                matches.append(_Match(start, end, *found))
    chosen: list[_Match] = []
    taken: set[int] = set()
    for match in sorted(matches, key=lambda m: (-m.score, m.end - m.start, m.start)):
        span = set(range(match.start, match.end))
        if not span & taken:
            chosen.append(match)
            taken |= span
    out = list(words)
    for match in sorted(chosen, key=lambda m: m.start, reverse=True):
        first, last = out[match.start], out[match.end - 1]
        out[match.start : match.end] = [Word(first.before, first.lead, match.entry, last.trail)]
    return out


def _breaks(word: Word) -> bool:
    return not word.core or bool(word.trail.strip("-'’"))


def _needed(words: list[Word], start: int, threshold: float) -> float:
    """The score a window starting at ``words[start]`` must reach (see the docstring)."""
    capitalized = words[start].core[:1].isupper() and not starts_sentence(words, start)
    return threshold if capitalized else threshold + (1.0 - threshold) / 2


def _best(window: list[Word], index: _Index, needed: float) -> tuple[str, float] | None:
    heard = "".join(letters(w.core) for w in window)
    written = " ".join(w.core for w in window)
    same = index.exact.get(heard)
    if same is not None and same.words - 1 <= len(window) <= same.words + 1:
        if written.lower() != same.text.lower() or (written != same.text and written != written.lower()):
            return same.text, 2.0  # the entry, written otherwise ("Github", "Kubernete's", "post gres")
        return None  # the entry itself, or a common word in lower case ("mark" for "Mark")
    if len(heard) < MIN_LETTERS or any(c in w.core for w in window for c in _NOT_A_NAME):
        return None
    best: tuple[str, float] | None = None
    for entry in index.by_sound.get(sound_key(heard)[:1], ()):
        if not entry.words - 1 <= len(window) <= entry.words + 1 or len(entry.letters) < MIN_LETTERS:
            continue
        if 2 * min(len(heard), len(entry.letters)) / (len(heard) + len(entry.letters)) < 2 * needed - 1:
            continue  # too different in length for the spelling to reach the mean
        score = _score(heard, entry, needed)
        if score >= needed and (best is None or score > best[1]) and _all_heard(window, entry):
            best = entry.text, score
    return best


def _all_heard(window: list[Word], entry: _Entry) -> bool:
    """Whether each word of a window of several words is mostly part of the entry: "post gres"
    is "Postgres", but "Siobhan by" is "Siobhan" and another word."""
    if len(window) == 1:
        return True
    heard = "".join(letters(w.core) for w in window)
    matched = [False] * len(heard)
    for block in difflib.SequenceMatcher(None, heard, entry.letters, autojunk=False).get_matching_blocks():
        matched[block.a : block.a + block.size] = [True] * block.size
    start = 0
    for word in window:
        size = len(letters(word.core))
        if 2 * sum(matched[start : start + size]) < size:
            return False
        start += size
    return True


def _score(heard: str, entry: _Entry, needed: float) -> float:
    spelling = difflib.SequenceMatcher(None, heard, entry.letters, autojunk=False)
    if (spelling.quick_ratio() + 1) / 2 < needed:  # the sound's ratio is at most 1
        return 0.0
    sound = difflib.SequenceMatcher(None, sound_key(heard), entry.sound, autojunk=False).ratio()
    return (spelling.ratio() + sound) / 2
