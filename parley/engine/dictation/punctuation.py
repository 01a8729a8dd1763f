"""Spoken punctuation in English: "comma", "period", "new line" become the marks they name.

A command replaces whatever punctuation whisper put around it ("Hello, comma, how" ->
"Hello, how"), and the word after a sentence's end or a line break starts with a capital.
"period" and its likes are also ordinary nouns: after an article or a possessive ("a
period", "the colon", "your comma"), or before "of" ("a new line of products"), the words
are kept as words.
"""

from __future__ import annotations

from .words import SENTENCE_END, Word, capitalize

# Said (as lower-case words) -> written.  Longer commands are tried first.
COMMANDS: dict[tuple[str, ...], str] = {
    ("new", "paragraph"): "\n\n",
    ("new", "line"): "\n",
    ("newline",): "\n",
    ("full", "stop"): ".",
    ("period",): ".",
    ("comma",): ",",
    ("question", "mark"): "?",
    ("exclamation", "mark"): "!",
    ("exclamation", "point"): "!",
    ("colon",): ":",
    ("semicolon",): ";",
}
LANGUAGES = ("en",)  # the languages the commands are for ("auto" too: the default model is English)
_LONGEST = max(len(c) for c in COMMANDS)
# Before a command word, these make it a noun: "a period of", "the new line".
_NOUN_BEFORE = frozenset(
    "a an the this that these those each every one my your his her our their its no any some trial grace "
    "waiting cooling notice".split()
)
_NOUN_AFTER = frozenset({"of", "for", "is", "was"})


def applies_to(language: str) -> bool:
    return language in (*LANGUAGES, "auto")


def spoken_punctuation(words: list[Word]) -> list[Word]:
    out: list[Word] = []
    index = 0
    while index < len(words):
        found = _command_at(words, index)
        if found is None:
            out.append(words[index])
            index += 1
            continue
        size, mark = found
        following = words[index + size] if index + size < len(words) else None
        previous = out[-1] if out else None
        if mark.startswith("\n"):
            if following is None:
                following = Word("", "", "", "")
                words = [*words, following]
            following.before = mark
            capitalize(following)
        elif previous is not None:
            previous.trail = previous.trail.rstrip(".,;:!?…") + mark
            if mark in SENTENCE_END and following is not None:
                capitalize(following)
        elif following is not None:  # a mark with no word before it: nothing to attach it to
            following.before = words[index].before
        if following is not None and not mark.startswith("\n") and "\n" in words[index].before:
            following.before = words[index].before
        index += size
    return [w for w in out if w.core or w.trail or "\n" in w.before] or out


def _command_at(words: list[Word], index: int) -> tuple[int, str] | None:
    """The command that starts at ``words[index]``: its length in words and its mark."""
    for size in range(_LONGEST, 0, -1):
        said = tuple(w.key for w in words[index : index + size])
        mark = COMMANDS.get(said) if len(said) == size else None
        if mark is None:
            continue
        if any(w.trail.strip(",.?!") for w in words[index : index + size - 1]) or any(
            w.lead for w in words[index : index + size]
        ):
            continue  # split by punctuation or quoted: not said as one command
        before = words[index - 1] if index else None
        after = words[index + size] if index + size < len(words) else None
        if before is not None and not before.trail and before.key in _NOUN_BEFORE:
            continue
        if after is not None and not words[index + size - 1].trail and after.key in _NOUN_AFTER:
            continue
        return size, mark
    return None
