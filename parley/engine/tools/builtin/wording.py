"""Words the built-in tools share: text folded for matching (case, accents, punctuation), numbers,
durations, times and dates in English for the model to read and say.

Dates and times are worded here, not with ``strftime``: its names follow the process's locale,
and the model must read the same words everywhere (it translates them itself)."""

from __future__ import annotations

import re
import unicodedata
from datetime import date, datetime

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
_NOT_WORD = re.compile(r"[^0-9a-z]+")


_SPOKEN_SIGNS = (
    (" × ", " times "),
    (" ÷ ", " divided by "),
    (" ≈ ", " is about "),
    (" = ", " is "),
    (" − ", " minus "),
    (" - ", " minus "),
    (" + ", " plus "),
    (" ^ ", " to the power of "),
)


def spoken(text: str) -> str:
    """``text`` with the signs of a sum in words, to be read aloud: "2 × 3 = 6" -> "2 times 3 is
    6".  Numbers keep their digits (the voice reads "7,006,652" as a number)."""
    for sign, words in _SPOKEN_SIGNS:
        text = text.replace(sign, words)
    return text


def sentence(text: str) -> str:
    """``text`` as a sentence: a capital first and a full stop last."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def fold(text: str) -> str:
    """``text`` for matching: lower case, accents and punctuation gone, words one space apart
    ("São  Paulo!" -> "sao paulo")."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _NOT_WORD.sub(" ", plain.replace("ß", "ss")).strip()


def fold_keep(text: str) -> str:
    """``text`` in lower case without accents, punctuation kept (for searching inside a text)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def quoted(text: str, limit: int = 80) -> str:
    """``text`` on one line, cut to ``limit`` characters, in double quotes."""
    one_line = " ".join(text.split())
    if len(one_line) > limit:
        one_line = one_line[: limit - 1].rstrip() + "…"
    return f'"{one_line}"'


def plural(count: int, singular: str, many: str | None = None) -> str:
    """ "1 minute", "2 minutes", "1,000 days"."""
    return f"{count:,} {singular if count == 1 else (many or singular + 's')}"


def duration(seconds: float, *, parts: int = 2) -> str:
    """A span of time in words, largest units first, at most ``parts`` of them
    ("1 hour 30 minutes", "45 seconds", "3 days 4 hours")."""
    left = max(0, round(seconds))
    words = []
    for name, size in (("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1)):
        count, left = divmod(left, size)
        if count:
            words.append(plural(count, name))
    return " ".join(words[:parts]) if words else "0 seconds"


def duration_adjective(seconds: int) -> str:
    """A timer's length as it qualifies the word timer ("10-minute", "1-hour-30-minute")."""
    pieces = []
    left = seconds
    for name, size in (("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1)):
        count, left = divmod(left, size)
        if count:
            pieces.append(f"{count}-{name}")
    return "-".join(pieces) if pieces else "0-second"


def clock(moment: datetime) -> str:
    """ "17:30" (24-hour: no am/pm for the model to get wrong)."""
    return f"{moment.hour:02d}:{moment.minute:02d}"


def long_date(day: date) -> str:
    """ "Tuesday, 9 December 2025"."""
    return f"{WEEKDAYS[day.weekday()]}, {day.day} {MONTHS[day.month - 1]} {day.year}"


def day_words(day: date, today: date) -> str:
    """ "today", "tomorrow", "yesterday", "Friday" (within a week ahead), else "9 December"
    (with the year when it is not this year's)."""
    delta = (day - today).days
    if delta == 0:
        return "today"
    if delta == 1:
        return "tomorrow"
    if delta == -1:
        return "yesterday"
    if 1 < delta < 7:
        return WEEKDAYS[day.weekday()]
    text = f"{WEEKDAYS[day.weekday()]} {day.day} {MONTHS[day.month - 1]}"
    return text if day.year == today.year else f"{text} {day.year}"


def when(moment: datetime, now: datetime) -> str:
    """A moment near ``now`` in words: "at 17:30", "tomorrow at 09:00", "on Friday 12 December at
    08:00" ("today" is left out)."""
    day = day_words(moment.date(), now.date())
    if day == "today":
        return f"at {clock(moment)}"
    if day in ("tomorrow", "yesterday"):
        return f"{day} at {clock(moment)}"
    return f"on {day} at {clock(moment)}"
