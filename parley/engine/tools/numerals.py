"""Numbers said in words, written in digits, for the model of a turn with tools.

Speech recognition often writes what was said ("two thousand and twenty four minus nineteen
eighty seven", "set a timer for ninety seconds", "book Orion at four thirty"), and a small model
turns such words into wrong arguments (the 1.5B wrote 2044 for the first).  Parley reads the
words into digits first, the way inverse text normalisation does after speech recognition, so
the model copies digits instead of computing them: "2024 minus 1987", "90 seconds", "at 4:30".

Only what reads one way is changed: whole cardinals ("a hundred and eighty seven" -> 187,
"twenty-five" -> 25), decimals ("eleven point five" -> 11.5), years said in pairs ("nineteen
eighty seven" -> 1987) and clock times after "at", "by", "until" ("at four thirty" -> "at
4:30").  A lone "one" stays a word ("which one", "one of them"), and so do ordinals alone ("a
second"); "twenty fourth" becomes "24th".  Numbers said side by side, which read more than one
way ("a hundred and eighty seven fifty": 187.50, or 187 and 50?), stay words, and so does a
number with a part after it ("two and a half").  Amounts of money come whole ("187 pounds 50" ->
"187.50 pounds"), and fractions of something as fractions ("a third of" -> "1/3 of").  Numbers
already in digits are left as they are.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from typing import TypeVar

__all__ = ["in_digits"]

_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
}  # fmt: skip
_TEENS = {
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19,
}  # fmt: skip
_TENS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}  # fmt: skip
SMALL_NUMBERS = {**_UNITS, **_TEENS, **_TENS}  # the words of the numbers below 100 said in one word
_SCALES = {"thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
_ORDINAL_UNITS = {
    "first": (1, "st"), "second": (2, "nd"), "third": (3, "rd"), "fourth": (4, "th"), "fifth": (5, "th"),
    "sixth": (6, "th"), "seventh": (7, "th"), "eighth": (8, "th"), "ninth": (9, "th"),
}  # fmt: skip
_DIGITS = {**_UNITS, "oh": 0, "nought": 0}
_NUMBER_WORDS = frozenset({*_UNITS, *_TEENS, *_TENS, *_SCALES, "hundred"})
_CLOCK_BEFORE = frozenset({"at", "by", "until", "till", "til", "from", "around", "before", "after"})
_CLOCK_AFTER = re.compile(r"\s*(?:a\.?m\b|p\.?m\b|o'?clock\b|in the (?:morning|afternoon|evening)\b)", re.IGNORECASE)
_AND_A_PART = re.compile(r"\s+and an? (?:half|quarter)\b", re.IGNORECASE)  # "two and a half": left in words
_WORD = re.compile(r"[A-Za-z]+")
_JOIN = re.compile(r"\s+|-")  # what may stand between the words of one number
_Read = TypeVar("_Read", tuple[int, int], tuple[int, int, bool])
MAX_CHARS = 4000  # longer text is left as it is (a message, not a request)


def only_numbers(text: str) -> bool:
    """Whether ``text`` says nothing but numbers ("eight seventy five", "12 and 4"): no
    request of its own."""
    words = re.findall(r"[A-Za-z]+|\d+", text.lower())
    return bool(words) and all(w.isdigit() or w in _NUMBER_WORDS or w in ("and", "point", "oh") for w in words)


def in_digits(text: str) -> str:
    """``text`` with its numbers in words written in digits (see the module docstring)."""
    if len(text) > MAX_CHARS:
        return text
    words = list(_WORD.finditer(text))
    pieces: list[str] = []
    at = 0  # how much of text is in pieces
    i = 0
    while i < len(words):
        end = _run_end(text, words, i)
        if end == i:
            i += 1
            continue
        run = [w.group(0).lower() for w in words[i:end]]
        before = words[i - 1].group(0).lower() if i > 0 else ""
        after = text[words[end - 1].end() :]
        clock = before in _CLOCK_BEFORE or _CLOCK_AFTER.match(after) is not None
        written = None if _AND_A_PART.match(after) else _write(run, clock)
        if written is not None:
            pieces.append(text[at : words[i].start()])
            pieces.append(written)
            at = words[end - 1].end()
        i = end
    pieces.append(text[at:])
    return _fractions(_money("".join(pieces)))


_CURRENCY = r"(?:pounds?|dollars?|euros?|bucks|quid)"
_AMOUNT = re.compile(
    rf"\b(\d+) ({_CURRENCY}) (\d{{1,2}})\b(?![.,]\d| ?%| (?:percent|pence|p|cents?|ounces?|oz)\b)", re.I
)
_PARTS = {"half": 2, "third": 3, "quarter": 4, "fifth": 5, "sixth": 6, "eighth": 8, "tenth": 10}
_FRACTION = re.compile(r"\b(?:(a|one)|(\d+)) (half|third|quarter|fifth|sixth|eighth|tenth)s?(?= of\b)", re.IGNORECASE)


def _money(text: str) -> str:
    """ "187 pounds 50" as it is meant: "187.50 pounds"."""
    return _AMOUNT.sub(lambda m: f"{m[1]}.{int(m[3]):02d} {m[2]}", text)


def _fractions(text: str) -> str:
    """ "a third of", "2 thirds of" as fractions: "1/3 of", "2/3 of" (the model wrote "3 * 990"
    for "a third of 990")."""
    return _FRACTION.sub(lambda m: f"{m[2] or 1}/{_PARTS[m[3].lower()]}", text)


def _run_end(text: str, words: list[re.Match[str]], i: int) -> int:
    """The end (exclusive) of the run of number words starting at ``words[i]`` (``i``: none).
    "a" belongs to a run before a scale ("a hundred"), "and" and "point" between number words,
    an ordinal unit after a tens word ("twenty fourth")."""
    j = i
    while j < len(words):
        word = words[j].group(0).lower()
        following = words[j + 1].group(0).lower() if j + 1 < len(words) else ""
        if j > i and not _JOIN.fullmatch(text[words[j - 1].end() : words[j].start()]):
            break
        previous = words[j - 1].group(0).lower() if j > i else ""
        if word in _NUMBER_WORDS or word in ("oh", "nought") and j > i:
            j += 1
        elif word == "a" and following in ("hundred", *_SCALES):
            j += 1
        elif word == "and" and j > i and following in _NUMBER_WORDS:
            j += 1
        elif word == "point" and following in _DIGITS | _TEENS | _TENS:
            j += 1
        elif word in _ORDINAL_UNITS and previous in _TENS:
            j += 1
        else:
            break
    while j > i and words[j - 1].group(0).lower() in ("and", "a", "point", "oh", "nought"):
        j -= 1  # a run never ends on a joining word
    return j


def _write(run: list[str], clock: bool) -> str | None:
    """The run in digits, or None to leave it as words (a lone "one")."""
    if run == ["one"]:
        return None
    out: list[str] = []
    k = 0
    while k < len(run):
        if run[k] == "point":
            decimals, k = _decimals(run, k + 1)
            out.append(f"0.{decimals}")
            continue
        parsed = _cardinal(run, k)
        if parsed is None:  # a joining word the parse did not use
            out.append(run[k])
            k += 1
            continue
        value, k, plain_pair = parsed
        if k < len(run) and run[k] in _ORDINAL_UNITS and value in _TENS.values():
            number, suffix = _ORDINAL_UNITS[run[k]]
            out.append(f"{value + number}{suffix}")
            k += 1
            continue
        if k + 1 < len(run) and run[k] == "point" and run[k + 1] in _DIGITS | _TEENS | _TENS:
            decimals, k = _decimals(run, k + 1)
            out.append(f"{value}.{decimals}")
            continue
        second = _pair_half(run, k)
        if second is not None:
            minutes, after = second
            if clock and 1 <= value <= 12 and minutes < 60:  # "at four thirty"
                out.append(f"{value}:{minutes:02d}")
                k = after
                continue
            if plain_pair and 10 <= value <= 99:  # "nineteen eighty seven", "twenty twenty four"
                out.append(str(value * 100 + minutes))
                k = after
                continue
        out.append(str(value))
    if any(a[0].isdigit() and b[0].isdigit() for a, b in itertools.pairwise(out)):
        return None  # numbers side by side: "a hundred and eighty seven fifty" is 187.50 or 187 and 50
    return " ".join(out)


def _small(run: list[str], k: int) -> tuple[int, int] | None:
    """A number below 100 at ``run[k]``: "seven", "seventeen", "seventy", "seventy seven"."""
    if k >= len(run):
        return None
    word = run[k]
    if word in _TENS:
        if k + 1 < len(run) and run[k + 1] in _UNITS and run[k + 1] != "zero":
            return _TENS[word] + _UNITS[run[k + 1]], k + 2
        return _TENS[word], k + 1
    if word in _TEENS:
        return _TEENS[word], k + 1
    if word in _UNITS:
        return _UNITS[word], k + 1
    return None


def _below_thousand(run: list[str], k: int) -> tuple[int, int, bool] | None:
    """A number below 1000 at ``run[k]`` ("a hundred and eighty seven"), and whether it was said
    without "hundred" (a year's or a time's half may follow it)."""
    if k + 1 < len(run) and run[k] == "a" and run[k + 1] == "hundred":
        head, k = 1, k + 1
    else:
        small = _small(run, k)
        if small is None:
            return None
        head, k = small
        if k >= len(run) or run[k] != "hundred":
            return head, k, True
    if head == 0 or head > 99:
        return head, k, True
    value, k = head * 100, k + 1
    rest = _after_and(run, k, _small)
    if rest is not None:
        value, k = value + rest[0], rest[1]
    return value, k, False


def _after_and(run: list[str], k: int, read: Callable[[list[str], int], _Read | None]) -> _Read | None:
    """``read`` at ``k``, or after an "and" there."""
    return read(run, k + 1) if k < len(run) and run[k] == "and" else read(run, k)


def _cardinal(run: list[str], k: int) -> tuple[int, int, bool] | None:
    """A whole number at ``run[k]``: its value, where it ends, and whether it was a bare number
    below 100 (see ``_below_thousand``)."""
    if k + 1 < len(run) and run[k] == "a" and run[k + 1] in _SCALES:
        first: tuple[int, int, bool] | None = (1, k + 1, False)
    else:
        first = _below_thousand(run, k)
    if first is None:
        return None
    group, k, plain = first
    total, last_scale = 0, 0
    while k < len(run) and run[k] in _SCALES and (last_scale == 0 or _SCALES[run[k]] < last_scale) and group:
        last_scale = _SCALES[run[k]]
        total += group * last_scale
        group, plain, k = 0, False, k + 1
        following = _after_and(run, k, _below_thousand)
        if following is None:
            break
        group, k, _ = following
    return total + group, k, plain and total == 0


def _pair_half(run: list[str], k: int) -> tuple[int, int] | None:
    """The second half of a pair said as two numbers ("eighty seven" of "nineteen eighty seven",
    "oh five", "thirty" of "four thirty"): 10-99, or "oh" and a digit; not followed by "hundred"
    or a scale (then it is a number of its own)."""
    if k < len(run) and run[k] in ("oh", "nought") and k + 1 < len(run) and run[k + 1] in _UNITS:
        return _UNITS[run[k + 1]], k + 2
    small = _small(run, k)
    if small is None or small[0] < 10:
        return None
    value, after = small
    if after < len(run) and (run[after] == "hundred" or run[after] in _SCALES):
        return None
    return value, after


def _decimals(run: list[str], k: int) -> tuple[str, int]:
    """The digits after "point": one by one ("two five"), or one number below 100 first ("point
    twenty five")."""
    digits = ""
    if k < len(run) and run[k] not in _DIGITS:
        small = _small(run, k)
        if small is not None:
            digits, k = str(small[0]), small[1]
    while k < len(run) and run[k] in _DIGITS:
        digits += str(_DIGITS[run[k]])
        k += 1
    return digits or "0", k


_PAST = re.compile(r"\b(half|quarter|\d{1,2})(?: minutes?)? past (\d{1,2})\b")
_TO = re.compile(r"\b(quarter|\d{1,2})(?: minutes?)? to (\d{1,2})\b(?!\s*(?::|minutes?|hours?))")
_HALF = re.compile(r"\bhalf (\d{1,2})\b(?! (?:minutes?|hours?|days?))")  # British "half six": 6:30
# "half one", "quarter to one": "one" is 1 there (a lone "one" stays a word: ``in_digits``)
_ONE_O_CLOCK = re.compile(r"\b(half|quarter|past|(?:quarter|\d{1,2}) to) one\b(?! (?:of|more|another)\b)")


def clock_words(text: str) -> str:
    """``text`` (lower case, numbers in digits: ``in_digits``) with the clock times said in words
    as digits: "half past 6", "quarter to 7", "10 past 9", "half 6" and "half one" (British: 6:30,
    1:30) are "6:30", "6:45", "9:10", "6:30", "1:30"."""
    minutes = {"half": 30, "quarter": 15}

    def past(m: re.Match[str]) -> str:
        count = minutes.get(m[1]) or int(m[1])
        return f"{int(m[2])}:{count:02d}" if count < 60 and int(m[2]) <= 23 else m[0]

    def to(m: re.Match[str]) -> str:
        count, hour = minutes.get(m[1]) or int(m[1]), int(m[2])
        return (
            f"{(hour - 1) % 24 or (12 if hour <= 12 else 0)}:{60 - count:02d}"
            if 0 < count < 60 and hour <= 23
            else m[0]
        )

    text = _ONE_O_CLOCK.sub(lambda m: f"{m[1]} 1", text)
    text = _PAST.sub(past, text)
    text = _TO.sub(to, text) if not re.search(r"\bfrom\b", text) else text  # "from 9 to 5": a span, not a time
    return _HALF.sub(lambda m: f"{int(m[1])}:30" if int(m[1]) <= 23 else m[0], text)
