"""Hesitation sounds and immediate repetitions, removed from a transcript.

Only sounds that are not words of the language are listed: "er" is a filler in English but
the pronoun "he" in German, "este" is "this" in Spanish, so the lists are per language, and
for "auto" (no language set, and none detected) only the sounds that are no word in any of the listed languages
are removed.  Words that people use as fillers but that carry meaning elsewhere ("like", "you
know", "so", "well") are left to the clean-up by the chat model, which sees the sentence.

Whisper itself leaves out most hesitation sounds but sometimes keeps their comma (", I want
to"): a sentence that starts with bare punctuation loses it.

A word said twice in a row ("I I think") is said once; so is a phrase of two or three words
("going to going to").  Repetitions that are grammar or emphasis ("that that", "had had",
"very very", "no no") are kept, per language.
"""

from __future__ import annotations

from .words import Word, capitalize, starts_sentence

FILLERS: dict[str, frozenset[str]] = {
    "en": frozenset({"um", "umm", "ummm", "uh", "uhh", "uhm", "er", "erm", "ehm", "hmm", "hm", "hmmm", "mm", "mmm"}),
    "de": frozenset({"äh", "ähm", "öh", "öhm", "hm", "hmm", "mhm", "ehm", "em", "mm"}),
    "fr": frozenset({"euh", "heu", "euhm", "hum", "hmm", "hm", "mm"}),
    "es": frozenset({"eh", "ehm", "em", "mmm", "mm", "hmm", "hm"}),
}
# Words that are no filler in any language above are left out of the "auto" list.
# ("er" is German "he", "um" German "around", "em" Portuguese "in", "eh" Italian "eh?").
_WORDS_ELSEWHERE = frozenset({"er", "em", "eh", "um"})
FILLERS["auto"] = frozenset().union(*FILLERS.values()) - _WORDS_ELSEWHERE

KEEP_DOUBLED: dict[str, frozenset[str]] = {
    "en": frozenset({"that", "had", "is", "very", "really", "no", "yes", "bye", "ha", "so", "well", "do", "knock"}),
    "de": frozenset({"die", "der", "das", "sie", "sehr", "ja", "nein", "so"}),
    "fr": frozenset({"nous", "vous", "très", "non", "oui"}),
    "es": frozenset({"muy", "no", "sí", "que"}),
}
KEEP_DOUBLED["auto"] = frozenset().union(*KEEP_DOUBLED.values())
LONGEST_REPEAT = 3  # words in a repeated phrase


def languages() -> tuple[str, ...]:
    """The languages with a filler list ("auto" aside)."""
    return tuple(code for code in FILLERS if code != "auto")


def remove_fillers(words: list[Word], language: str) -> list[Word]:
    fillers = FILLERS.get(language, FILLERS["auto"])
    out: list[Word] = []
    opened = False  # the word before was a filler that began a sentence: this one begins it now
    for index, word in enumerate(words):
        if not word.core and word.trail.strip(",;:.…") == "" and starts_sentence(words, index):
            opened = True  # the comma of a filler whisper left out (", I want to"): nothing to keep
            if index + 1 < len(words):
                capitalize(words[index + 1])
            continue
        if word.key not in fillers:
            out.append(word)
            opened = False
            continue
        following = words[index + 1] if index + 1 < len(words) else None
        opened = opened or starts_sentence(words, index)
        _drop(out, word, following, opened)
    return out


def _drop(kept: list[Word], word: Word, following: Word | None, sentence_start: bool) -> None:
    """Remove ``word``, giving its place's punctuation to its neighbours: "Um, so" -> "So",
    "I think, uh, we" -> "I think we", "right, um." -> "right."."""
    previous = kept[-1] if kept else None
    mark = word.trail.strip(",;:-—–… ")
    if previous is not None and mark and not previous.trail.strip(",;:"):
        previous.trail = previous.trail.rstrip(",;:") + mark  # the sentence's end, said after the filler
    elif previous is not None and word.trail.startswith(",") and previous.trail == ",":
        previous.trail = ""  # the filler's own pair of commas
    if following is not None:
        following.lead = word.lead + following.lead
        if "\n" in word.before:
            following.before = word.before
        if sentence_start and word.core[:1].isupper():
            capitalize(following)


def collapse_repeats(words: list[Word], language: str) -> list[Word]:
    """Say once what was said twice in a row: "I I think" -> "I think", "to the to the" ->
    "to the".  Only within a sentence and a line; the second copy's punctuation is kept."""
    keep = KEEP_DOUBLED.get(language, KEEP_DOUBLED["auto"])
    out = list(words)
    index = 0
    while index < len(out):
        for size in range(LONGEST_REPEAT, 0, -1):
            first, second = out[index : index + size], out[index + size : index + 2 * size]
            if len(second) < size or not _same(first, second) or (size == 1 and first[0].key in keep):
                continue
            if any(_breaks(w) for w in first[:-1]) or "\n" in second[0].before:
                continue
            if first[-1].trail.strip(","):  # "Yes. Yes, it is": a sentence, said again
                continue
            second[0].lead = first[0].lead + second[0].lead
            second[0].before = first[0].before
            if first[0].core[:1].isupper():
                capitalize(second[0])
            del out[index : index + size]
            break
        else:
            index += 1
    return out


def _same(first: list[Word], second: list[Word]) -> bool:
    return all(a.key and a.key == b.key for a, b in zip(first, second, strict=True))


def _breaks(word: Word) -> bool:
    return bool(word.trail.strip(",")) or "\n" in word.before
