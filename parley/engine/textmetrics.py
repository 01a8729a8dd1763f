"""Word error rate, for the speech tests, the benchmark and ``parley --self-test``."""

from __future__ import annotations

import re
import unicodedata

_NUMBERS = {
    "0": "zero",
    "1": "one",
    "2": "two",
    "3": "three",
    "4": "four",
    "5": "five",
    "6": "six",
    "7": "seven",
    "8": "eight",
    "9": "nine",
    "10": "ten",
    "11": "eleven",
    "12": "twelve",
}


def normalize_words(text: str) -> list[str]:
    """Lower-case words without punctuation; small digits spelled out, as a reader would say them."""
    text = unicodedata.normalize("NFKC", text).lower().replace("'", "")
    words = re.findall(r"[a-z0-9]+", text)
    return [_NUMBERS.get(w, w) for w in words]


def word_error_rate(reference: str, hypothesis: str) -> float:
    """(substitutions + deletions + insertions) / reference words, by edit distance."""
    ref, hyp = normalize_words(reference), normalize_words(hypothesis)
    if not ref:
        return 0.0 if not hyp else 1.0
    previous = list(range(len(hyp) + 1))
    for i, r in enumerate(ref, 1):
        current = [i] + [0] * len(hyp)
        for j, h in enumerate(hyp, 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (r != h))
        previous = current
    return previous[-1] / len(ref)


def corpus_word_error_rate(pairs: list[tuple[str, str]]) -> float:
    """WER over many (reference, hypothesis) pairs, weighted by reference length."""
    errors = sum(word_error_rate(r, h) * len(normalize_words(r)) for r, h in pairs)
    words = sum(len(normalize_words(r)) for r, _ in pairs)
    return errors / words if words else 0.0
