"""Timers and reminders: the ``TimerBook`` that keeps them, and the tools that set, list and
cancel them (``set_timer``, ``set_reminder``, ``list_timers``, ``cancel_timer``).

The book lives in ``timers.json`` in Parley's data folder, replaced whole on every change
(``atomic``), so timers survive a restart; it is read as a file Parley does not control
(``untrusted``: bounded size and nesting, a FIFO or a link loop refused), and every entry is
checked: a malformed one is dropped, not fatal, and at most ``MAX_ACTIVE`` are kept.  A file that
cannot be written leaves the book working in memory, with ``problem`` saying why.

The ringing (a sound, a notification, the voice) is the app's: it asks ``next_due`` when to
look, ``due(now)`` what rings then (a ``Ring`` with the words to say and show, ``missed`` when
it fell due while Parley was closed or asleep) and calls ``mark_rung`` once it rang;
``subscribe`` tells it of every change, from whichever thread made it, so it can look again.

Times are parsed here too: a timer's length ("10 minutes", "1h30", "an hour and a half",
"90 seconds", "PT10M", "5:00") and a reminder's moment ("17:30", "5pm", "in 2 hours",
"tomorrow at 9", "Friday morning", "24 December", "2025-12-24 18:00").
"""

from __future__ import annotations

import dataclasses
import json
import logging
import math
import os
import re
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from datetime import date, datetime, timedelta, tzinfo
from pathlib import Path
from typing import Any

from ....config.paths import data_dir
from ...atomic import atomic_write
from ...backend.cancel import CancelFlag
from ...errors import ParleyError, UntrustedFileError
from ...untrusted import load_json
from .. import numerals
from ..tool import ToolResult, ToolSpec
from .cues import SURE, Cued, narrowed, timer_label_said, words_of
from .wording import MONTHS, WEEKDAYS, clock, duration, duration_adjective, fold, quoted, sentence, when

log = logging.getLogger("parley.tools")

FILE_NAME = "timers.json"
FILE_VERSION = 1
MAX_ACTIVE = 100  # timers and reminders together
MAX_FILE_BYTES = 256 * 1024  # 100 entries take about 20 KB
MAX_ENTRIES_READ = 1000  # entries looked at in a file, of which MAX_ACTIVE are kept
MAX_LABEL_CHARS = 200
MAX_TEXT_CHARS = 200  # a duration or a moment as the model writes it
MIN_SECONDS = 1
MAX_TIMER_SECONDS = 31 * 86400
MAX_REMINDER_SECONDS = 366 * 86400
MISSED_AFTER = 60.0  # seconds late after which a ring is said to be missed
MAX_ID = 1_000_000
TIMER, REMINDER = "timer", "reminder"


class TimerError(Exception):
    """A timer or reminder that cannot be set as asked, in words for the model and the user."""


# ------------------------------------------------------------------------------ the book


@dataclasses.dataclass(frozen=True)
class Timer:
    id: int  # small, shown as "#2"; unique among the active ones
    kind: str  # TIMER or REMINDER
    due: float  # when it rings, seconds since the epoch
    created: float
    label: str  # a timer's label ("pasta"; "" for none), a reminder's message
    seconds: int = 0  # a timer's length

    @property
    def name(self) -> str:
        """ "the pasta timer", "the 10-minute timer", 'the reminder "call the dentist"'."""
        if self.kind == REMINDER:
            return f"the reminder {quoted(self.label, 60)}"
        if not self.label:
            return f"the {duration_adjective(self.seconds)} timer"
        return f"the {self.label}" if fold(self.label).endswith("timer") else f"the {self.label} timer"

    def words(self) -> set[str]:
        """The words a user may call it by (its label, its length, its kind)."""
        words = set(fold(self.label).split())
        if self.kind == TIMER:
            words |= set(fold(duration_adjective(self.seconds)).split()) | {"timer"}
        else:
            words.add("reminder")
        return words


@dataclasses.dataclass(frozen=True)
class Ring:
    """A timer or reminder that is due: what the app shows and says."""

    timer: Timer
    missed: bool  # it fell due while Parley was closed (or the computer slept)
    title: str  # a notification's title: "Timer done", "Reminder", "Missed timer", "Missed reminder"
    text: str  # what to say and show: "Your pasta timer is done." / "Reminder: call the dentist"


class TimerBook:
    """The active timers and reminders, kept in ``folder / timers.json`` (Parley's data folder by
    default).  Thread-safe.  ``clock``: seconds since the epoch; ``zone``: the zone for the words
    of a ring (None: this computer's)."""

    def __init__(
        self,
        folder: Path | None = None,
        *,
        clock: Callable[[], float] = time.time,
        zone: tzinfo | None = None,
    ) -> None:
        self.path = (data_dir() if folder is None else Path(folder)) / FILE_NAME
        self.clock = clock
        self.zone = zone
        self.problem = ""  # one line: why the file was not read, or the last change not saved
        self._lock = threading.RLock()
        self._listeners: list[Callable[[], None]] = []
        self.opened_at = clock()
        self._timers, self._next_id = self._read()

    # -------------------------------------------------------------- reading and writing

    def _read(self) -> tuple[dict[int, Timer], int]:
        if not os.path.lexists(self.path):
            return {}, 1
        try:
            document = load_json(self.path, max_bytes=MAX_FILE_BYTES, max_depth=8)
        except UntrustedFileError as exc:
            return self._unreadable(str(exc))
        entries = document.get("timers") if isinstance(document, dict) else None
        if not isinstance(entries, list):
            return self._unreadable(f"{self.path}: not a list of timers")
        timers: dict[int, Timer] = {}
        dropped = 0
        for entry in entries[:MAX_ENTRIES_READ]:
            timer = _timer_from(entry)
            if timer is None or timer.id in timers:
                dropped += 1
                continue
            timers[timer.id] = timer
        dropped += max(0, len(entries) - MAX_ENTRIES_READ)
        kept = sorted(timers.values(), key=lambda t: (t.due, t.id))[:MAX_ACTIVE]
        dropped += len(timers) - len(kept)
        if dropped:
            log.warning("timers: %d malformed or surplus entries of %s dropped", dropped, self.path)
        next_id = document.get("next_id") if isinstance(document, dict) else None
        highest = max((t.id for t in kept), default=0)
        if not isinstance(next_id, int) or isinstance(next_id, bool) or not highest < next_id <= MAX_ID:
            next_id = highest + 1
        return {t.id: t for t in kept}, next_id

    def _unreadable(self, why: str) -> tuple[dict[int, Timer], int]:
        self.problem = f"The timers could not be read ({why}); new ones replace them."
        log.warning("timers: %s", why)
        return {}, 1

    def _save(self) -> None:
        """Write the book (under the lock); a failure is kept in ``problem``, not raised."""
        document = {
            "version": FILE_VERSION,
            "next_id": self._next_id,
            "timers": [dataclasses.asdict(t) for t in sorted(self._timers.values(), key=lambda t: t.id)],
        }
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with atomic_write(self.path, "w", encoding="utf-8") as f:
                json.dump(document, f, ensure_ascii=False, indent=1)
            self.problem = ""
        except (OSError, ParleyError) as exc:
            self.problem = f"The timers could not be saved ({exc}); they will not survive a restart of Parley."
            log.warning("timers: %s", self.problem)

    # -------------------------------------------------------------- listening

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener()`` after every change (from the thread that made it); returns the
        function that stops it."""
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def _changed(self) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener()
            except Exception:  # noqa: BLE001  (one listener's bug must not stop the others or the change)
                log.exception("timers: a listener failed")

    # -------------------------------------------------------------- changes

    def add_timer(self, seconds: float, label: str = "") -> Timer:
        """A timer of ``seconds`` (MIN_SECONDS .. MAX_TIMER_SECONDS) from now; TimerError when
        it cannot be set."""
        if not math.isfinite(seconds) or round(seconds) < MIN_SECONDS:
            raise TimerError("a timer must last at least 1 second")
        if seconds > MAX_TIMER_SECONDS:
            raise TimerError("a timer can last at most 31 days; for a later time, set a reminder")
        now = self.clock()
        name = re.sub(r"^(?:the|my|a|an)\s+|\s+timer$", "", _clean(label), flags=re.IGNORECASE)
        return self._add(TIMER, now + round(seconds), now, name, round(seconds))

    def add_reminder(self, due: float, message: str) -> Timer:
        """A reminder at ``due`` (seconds since the epoch, up to MAX_REMINDER_SECONDS ahead)."""
        now = self.clock()
        text = re.sub(r"^(?:remind me\s+(?:to|about|of)\s+|to\s+)", "", _clean(message), flags=re.IGNORECASE)
        if not text:
            raise TimerError("a reminder needs a message")
        if not math.isfinite(due) or due < now + MIN_SECONDS:
            raise TimerError("that time has already passed")
        if due > now + MAX_REMINDER_SECONDS:
            raise TimerError("a reminder can be at most a year ahead")
        return self._add(REMINDER, due, now, text, 0)

    def _add(self, kind: str, due: float, now: float, label: str, seconds: int) -> Timer:
        with self._lock:
            if len(self._timers) >= MAX_ACTIVE:
                raise TimerError(f"there are already {MAX_ACTIVE} timers and reminders; cancel some first")
            if not self._timers:
                self._next_id = 1  # numbers stay small: an empty book starts again at #1
            while self._next_id in self._timers or self._next_id > MAX_ID:
                self._next_id = 1 if self._next_id > MAX_ID else self._next_id + 1
            timer = Timer(self._next_id, kind, float(due), float(now), label, seconds)
            self._timers[timer.id] = timer
            self._next_id += 1
            self._save()
        self._changed()
        return timer

    def cancel(self, timers: Iterable[Timer | int]) -> list[Timer]:
        """Remove these timers (or ids); returns those that were active."""
        return self._remove(timers, exact=False)

    def mark_rung(self, *rung: Timer) -> None:
        """Remove timers that rang (only if unchanged since ``due`` gave them: a number reused
        for a new timer in between is left alone)."""
        self._remove(rung, exact=True)

    def _remove(self, timers: Iterable[Timer | int], *, exact: bool) -> list[Timer]:
        gone = []
        with self._lock:
            for item in timers:
                key = item if isinstance(item, int) else item.id
                current = self._timers.get(key)
                if current is None or (exact and current != item):
                    continue
                gone.append(self._timers.pop(key))
            if gone:
                self._save()
        if gone:
            self._changed()
        return gone

    # -------------------------------------------------------------- looking

    def select(self, which: str) -> tuple[list[Timer], str]:
        """The active timers ``which`` names ("pasta", "#2", "all reminders", "" for the only
        one) and, when it names none or several, why: see ``select``."""
        return select(self.active(), which)

    def active(self) -> list[Timer]:
        """Every timer and reminder, the next to ring first."""
        with self._lock:
            return sorted(self._timers.values(), key=lambda t: (t.due, t.id))

    def get(self, timer_id: int) -> Timer | None:
        with self._lock:
            return self._timers.get(timer_id)

    def next_due(self) -> float | None:
        """When the next one rings (seconds since the epoch), None when none is set."""
        with self._lock:
            return min((t.due for t in self._timers.values()), default=None)

    def due(self, now: float | None = None) -> list[Ring]:
        """What rings at ``now`` (the clock's time by default), the earliest first: those due
        and not yet marked rung, ``missed`` for those that fell due before this book was opened
        or more than ``MISSED_AFTER`` seconds ago."""
        moment = self.clock() if now is None else now
        rings = []
        for timer in self.active():
            if timer.due > moment:
                break
            missed = timer.due < self.opened_at or moment - timer.due > MISSED_AFTER
            rings.append(_ring(timer, missed, self._local(timer.due), self._local(moment)))
        return rings

    def _local(self, seconds: float) -> datetime:
        return datetime.fromtimestamp(seconds, self.zone) if self.zone else datetime.fromtimestamp(seconds).astimezone()


def _clean(text: str) -> str:
    """A label or message on one line, without control characters, at most MAX_LABEL_CHARS."""
    one_line = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    return one_line[:MAX_LABEL_CHARS].strip()


def _number(value: Any, low: float, high: float) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    number = float(value)
    return number if math.isfinite(number) and low <= number <= high else None


def _timer_from(entry: Any) -> Timer | None:
    """A timer from the file, or None when anything in it is off."""
    if not isinstance(entry, dict):
        return None
    timer_id, kind, label = entry.get("id"), entry.get("kind"), entry.get("label", "")
    if not isinstance(timer_id, int) or isinstance(timer_id, bool) or not 1 <= timer_id <= MAX_ID:
        return None
    if kind not in (TIMER, REMINDER) or not isinstance(label, str) or len(label) > MAX_LABEL_CHARS:
        return None
    due = _number(entry.get("due"), 1, 1e11)
    created = _number(entry.get("created"), 1, 1e11)
    seconds = entry.get("seconds", 0)
    if due is None or created is None or not isinstance(seconds, int) or isinstance(seconds, bool):
        return None
    if kind == TIMER and not MIN_SECONDS <= seconds <= MAX_TIMER_SECONDS:
        return None
    if kind == REMINDER and (seconds != 0 or not _clean(label)):
        return None
    if not -86400 <= due - created <= MAX_REMINDER_SECONDS + 86400:
        return None
    return Timer(timer_id, kind, due, created, _clean(label), seconds)


def _ring(timer: Timer, missed: bool, due: datetime, now: datetime) -> Ring:
    if timer.kind == REMINDER:
        if missed:
            return Ring(timer, True, "Missed reminder", f"Missed reminder, due {when(due, now)}: {timer.label}")
        return Ring(timer, False, "Reminder", f"Reminder: {timer.label}")
    name = timer.name[len("the ") :]
    if missed:
        return Ring(timer, True, "Missed timer", f"Missed: your {name} ended {when(due, now)}.")
    return Ring(timer, False, "Timer done", f"Your {name} is done.")


# ------------------------------------------------------------------------------ durations

_NUMBER_WORDS = {**numerals.SMALL_NUMBERS, "couple": 2, "few": 3}
_UNITS = {
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), 1),
    **dict.fromkeys(("m", "min", "mins", "minute", "minutes"), 60),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours"), 3600),
    **dict.fromkeys(("d", "day", "days"), 86400),
    **dict.fromkeys(("w", "wk", "wks", "week", "weeks"), 7 * 86400),
}
_SMALLER = {7 * 86400: 86400, 86400: 3600, 3600: 60, 60: 1, 1: 1}
_FILLERS = {
    "and",
    "for",
    "in",
    "of",
    "about",
    "timer",
    "countdown",
    "from",
    "now",
    "the",
    "just",
    "exactly",
    "after",
    "plus",
}
_ISO_DURATION = re.compile(r"^p(?:(\d+)d)?(?:t(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m)?(?:(\d+(?:\.\d+)?)s)?)?$")
_COLON_DURATION = re.compile(r"^(\d{1,3}):(\d{2})(?::(\d{2}))?$")


def parse_duration(text: str) -> tuple[int, str]:
    """Seconds in ``text`` ("10 minutes", "1h30", "an hour and a half", "PT10M", "5:00" as
    minutes and seconds, a bare number as minutes) and a note on how it was read ("" or "taken as
    minutes"); TimerError when it is not a duration."""
    raw = " ".join(text.split())
    if len(raw) > MAX_TEXT_CHARS:
        raise TimerError("that duration is too long to read")
    key = raw.lower().replace("-", " ").replace(",", " ").strip()
    note = ""
    if iso := _ISO_DURATION.match(key.replace(" ", "")):
        if not any(iso.groups()):
            raise TimerError(f"{raw!r} is not a duration")
        days, hours, minutes, seconds = (float(g) if g else 0.0 for g in iso.groups())
        total = days * 86400 + hours * 3600 + minutes * 60 + seconds
    elif colon := _COLON_DURATION.match(key):
        first, second, third = colon.groups()
        total = int(first) * 3600 + int(second) * 60 + int(third) if third else int(first) * 60 + int(second)
    else:
        total, note = _spoken_duration(key, raw)
    return _bounded(total), note


def _spoken_duration(key: str, raw: str) -> tuple[float, str]:
    tokens = re.findall(r"\d+(?:\.\d+)?|[a-z]+|[^\sa-z\d]", re.sub(r"(?<=\d)(?=[a-z])|(?<=[a-z])(?=\d)", " ", key))
    total = 0.0
    pending: float | None = None
    from_article = False  # pending is the 1 of "a" or "an"
    last_unit: int | None = None
    for token in tokens:
        if token[0].isdigit() or token in _NUMBER_WORDS:
            value = float(token) if token[0].isdigit() else float(_NUMBER_WORDS[token])
            if pending is not None and not from_article and pending >= 20 and pending % 10 == 0 and value < 10:
                pending += value  # "twenty five"
            elif pending is not None and not from_article:
                raise TimerError(f'cannot read {raw!r} as a duration; say it like "10 minutes"')
            else:
                pending = value
            from_article = False
        elif token in ("a", "an"):
            if pending is None:
                pending, from_article = 1.0, True
        elif token == "half":
            if from_article and last_unit is not None and pending == 1:
                total += last_unit / 2  # "an hour and a half"
                pending, from_article = None, False
            elif pending is not None and not from_article:
                pending += 0.5  # "one and a half hours"
            else:
                pending, from_article = 0.5, False  # "half an hour"
        elif token in ("quarter", "quarters"):
            pending = 0.25 if pending is None or from_article else pending * 0.25
            from_article = False
        elif token in _UNITS:
            unit = _UNITS[token]
            total += (1.0 if pending is None else pending) * unit
            last_unit, pending, from_article = unit, None, False
        elif token in _FILLERS:
            continue
        else:
            raise TimerError(f'cannot read {raw!r} as a duration; say it like "10 minutes" or "1 hour 30 minutes"')
    note = ""
    if pending is not None and not from_article:
        if last_unit is None:
            total += pending * 60  # "10": minutes, the usual timer
            note = "taken as minutes"
        else:
            total += pending * _SMALLER[last_unit]  # "1h30", "5m30"
    if last_unit is None and not note:
        raise TimerError(f'cannot read {raw!r} as a duration; say it like "10 minutes"')
    return total, note


def _bounded(total: float) -> int:
    if not math.isfinite(total) or total > MAX_REMINDER_SECONDS * 10:
        raise TimerError("that duration is too long")
    seconds = round(total)
    if seconds < MIN_SECONDS:
        raise TimerError("a timer must last at least 1 second")
    return seconds


# ------------------------------------------------------------------------------ moments

_WEEKDAY_NAMES = {name.lower(): i for i, name in enumerate(WEEKDAYS)} | {
    name[:3].lower(): i for i, name in enumerate(WEEKDAYS)
}
_MONTH_NAMES = (
    {name.lower(): i + 1 for i, name in enumerate(MONTHS)}
    | {name[:3].lower(): i + 1 for i, name in enumerate(MONTHS)}
    | {"sept": 9}
)
_PERIODS = {
    "morning": (9, False),
    "afternoon": (15, True),
    "evening": (19, True),
    "tonight": (20, True),
    "night": (21, True),
}
_MOMENT_FILLERS = {
    "at",
    "on",
    "the",
    "of",
    "this",
    "by",
    "around",
    "about",
    "in",
    "for",
    "o",
    "clock",
    "oclock",
    "th",
    "st",
    "nd",
    "rd",
}
_TIME = re.compile(r"\b(\d{1,2})(?:[:.h](\d{2}))?\s*(am|pm|a|p)?\b(?!\s*(?:st|nd|rd|th)\b)")
_ISO_MOMENT = re.compile(r"^\d{4}-\d{2}-\d{2}(?:[t ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:z|[+-]\d{2}:?\d{2})?)?$")
_DAY_MONTH = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(" + "|".join(_MONTH_NAMES) + r")\b(?:\s+(\d{4}))?")
_MONTH_DAY = re.compile(r"\b(" + "|".join(_MONTH_NAMES) + r")\s+(\d{1,2})(?:st|nd|rd|th)?\b(?:\s*,?\s*(\d{4}))?")


def parse_moment(text: str, now: datetime, zone: tzinfo | None = None) -> datetime:
    """The moment ``text`` names after ``now`` (aware): "17:30", "5pm", "in 2 hours", "tomorrow
    at 9", "Friday morning", "24 December", "2025-12-24 18:00"; wall-clock times are in ``zone``
    (None: this computer's, daylight saving time included).  TimerError when it names none."""
    raw = " ".join(text.split())
    if len(raw) > MAX_TEXT_CHARS:
        raise TimerError("that time is too long to read")
    key = raw.lower().replace("a.m.", "am").replace("p.m.", "pm").replace("’", "'").replace("o'clock", " ")
    key = numerals.clock_words(numerals.in_digits(" ".join(key.replace(",", " ").split())))
    if not key:
        raise TimerError('the reminder needs a time, like "17:30" or "in 2 hours"')
    if relative := re.fullmatch(r"(?:in|after)\s+(.+)|(.+?)\s+(?:from now|later)", key):
        seconds, _ = parse_duration(relative[1] or relative[2])
        return now + timedelta(seconds=seconds)
    if re.fullmatch(r"[\d.]+\s*(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|days?)(?:\s+(?:and\s+)?.+)?", key):
        seconds, _ = parse_duration(key)  # "2 hours": a length, which a reminder counts from now
        return now + timedelta(seconds=seconds)
    if hhmm := re.fullmatch(r"([01]\d|2[0-3])([0-5]\d)", key):  # "1800", as models write 18:00
        key = f"{hhmm[1]}:{hhmm[2]}"
    if _ISO_MOMENT.match(key):
        return _iso_moment(key, now, zone)
    return _spoken_moment(key, raw, now, zone)


_TIME_LEFT = re.compile(r"\b(?:how long|how much (?:time|longer)|left|remaining|until .* (?:done|ready))\b")


def _wall(naive: datetime, zone: tzinfo | None) -> datetime:
    """A wall-clock time in ``zone`` (None: this computer's)."""
    return naive.astimezone() if zone is None else naive.replace(tzinfo=zone)


def _iso_moment(key: str, now: datetime, zone: tzinfo | None) -> datetime:
    try:
        moment = datetime.fromisoformat(key.upper().replace("Z", "+00:00").replace("T", " ", 1))
    except ValueError:
        raise TimerError(f"{key!r} is not a valid date and time") from None
    if moment.tzinfo is None:
        return _wall(moment.replace(hour=9) if len(key) == 10 else moment, zone)  # a date alone: 9:00
    return moment.astimezone(now.tzinfo)


def _spoken_moment(key: str, raw: str, now: datetime, zone: tzinfo | None) -> datetime:
    today = now.date()
    day: date | None = None
    weekday = False  # the day is a weekday's name: a time passed today means next week
    rest = f" {key} "
    for pattern in (_DAY_MONTH, _MONTH_DAY):
        if match := pattern.search(rest):
            number, month_name = (match[1], match[2]) if pattern is _DAY_MONTH else (match[2], match[1])
            try:
                day = date(int(match[3]) if match[3] else today.year, _MONTH_NAMES[month_name], int(number))
                if not match[3] and day < today:
                    day = day.replace(year=today.year + 1)
            except ValueError:
                raise TimerError(f"{raw!r} is not a real date") from None
            rest = rest[: match.start()] + " " + rest[match.end() :]
            break
    for phrase, replacement in (
        (" day after tomorrow ", " aftertomorrow "),
        (" next week ", " nextweek "),
        (" noon ", " 12:00pm "),
        (" midday ", " 12:00pm "),
        (" midnight ", " 12:00am "),
    ):
        rest = rest.replace(phrase, replacement)
    period: tuple[int, bool] | None = None
    leftover: list[str] = []
    for word in rest.split():
        if word == "today":
            day = today
        elif word in ("tomorrow", "tmrw", "tmr"):
            day = today + timedelta(days=1)
        elif word == "aftertomorrow":
            day = today + timedelta(days=2)
        elif word == "nextweek":
            day = today + timedelta(days=7)
        elif word in _WEEKDAY_NAMES:
            day, weekday = today + timedelta(days=(_WEEKDAY_NAMES[word] - today.weekday()) % 7), True
        elif word in _PERIODS:
            period = _PERIODS[word]
            day = today if word == "tonight" and day is None else day
        elif word != "next":
            leftover.append(word)
    time_text = " ".join(leftover)
    hour: int | None = None
    minute = 0
    meridiem = ""
    if match := _TIME.search(time_text):
        hour, minute, meridiem = int(match[1]), int(match[2] or 0), (match[3] or "")[:1]
        time_text = time_text[: match.start()] + " " + time_text[match.end() :]
        if hour > 23 or minute > 59 or (meridiem and not 1 <= hour <= 12):
            raise TimerError(f"{raw!r} is not a real time of day")
    if [w for w in re.findall(r"[a-z']+|\d+|\S", time_text) if w not in _MOMENT_FILLERS]:
        raise TimerError(f'cannot read {raw!r} as a time; say it like "17:30", "5pm", "in 2 hours" or "tomorrow at 9"')
    if hour is None and period is None and day is None:
        raise TimerError(f'{raw!r} does not say when; say it like "17:30" or "in 2 hours"')
    if hour is None:
        candidates = [(period[0] if period else 9, 0)]  # "tomorrow": in the morning
    elif meridiem:
        candidates = [(hour % 12 + (12 if meridiem == "p" else 0), minute)]
    elif period is not None:
        candidates = [(hour + 12 if period[1] and hour < 12 else hour, minute)]
    elif hour == 0 or hour >= 12 or match is not None and match[1].startswith("0"):
        candidates = [(hour, minute)]  # "13:00", "12:30", "09:30": a 24-hour clock
    elif day is not None and (day != today or weekday):
        candidates = [(hour if 7 <= hour <= 12 else hour + 12, minute)]  # "tomorrow at 9", "Friday at 3"
    else:
        candidates = [(hour % 12, minute), (hour % 12 + 12, minute)]  # "at 9": the next nine o'clock
    days = [day] if day is not None else [today, today + timedelta(days=1)]
    moments = sorted(
        _wall(datetime.combine(d, datetime.min.time()).replace(hour=h, minute=m), zone)
        for d in days
        for h, m in candidates
    )
    for moment in moments:
        if moment > now:
            return moment
    if weekday:
        return _wall(datetime.combine(today + timedelta(days=7), moments[0].time()), zone)
    raise TimerError(f"{clock(moments[-1])} {'today ' if day == today else ''}has already passed")


# ------------------------------------------------------------------------------ the tools


def _local_now(clock_: Callable[[], float], zone: tzinfo | None) -> datetime:
    now = clock_()
    return datetime.fromtimestamp(now, zone) if zone else datetime.fromtimestamp(now).astimezone()


def _saved_note(book: TimerBook) -> str:
    return f" Note: {book.problem}" if book.problem else ""


_UNIT = "(seconds?|secs?|minutes?|mins?|hours?|hrs?|days?)"
DURATION_PATTERN = f"^[0-9]+(\\.[0-9]+)? ?{_UNIT}(,? (and )?[0-9]+(\\.[0-9]+)? ?{_UNIT})*$"


_TIMER_FOR = re.compile(r"\btimer\s+(?:on\s+)?for\s+(?P<span>.+?)(?:\s+please)?[.?!]*$", re.IGNORECASE)
_TIMER_OF = re.compile(r"\b(?:a|an)\s+(?P<span>[\w ]+?)\s+timer\b", re.IGNORECASE)


class SetTimer(Cued):
    """The ``set_timer`` tool."""

    spec = ToolSpec(
        name="set_timer",
        title="Set a timer",
        description="Start a countdown timer that rings when the time is up.",
        parameters={
            "type": "object",
            "properties": {
                "duration": {
                    "type": "string",
                    "description": 'How long, in digits and units: "10 minutes", "1 hour 30 minutes", "90 seconds".',
                    # Digits and a unit, so that a forced call (tools.turn) cannot write a bare "3".
                    "pattern": DURATION_PATTERN,
                },
                "label": {"type": "string", "description": 'What it is for, e.g. "pasta". Optional.'},
            },
            "required": ["duration"],
        },
        read_only=False,
    )

    def __init__(self, book: TimerBook) -> None:
        self.book = book

    def arguments_from(self, request: str) -> dict[str, Any] | None:
        """The call's arguments when ``request`` (its numbers in digits) says a timer's length
        plainly and no label ("set a timer for 10 minutes", "a 25 minute timer"), so that the model
        need not write them; None otherwise (the model writes them, a label too)."""
        if timer_label_said(request):
            return None
        found = _TIMER_FOR.search(request) or _TIMER_OF.search(request)
        if found is None:
            return None
        try:
            seconds, note = parse_duration(found["span"])
        except TimerError:
            return None
        if note or seconds <= 0:  # read one way of several ("taken as minutes"): the model's to say
            return None
        parts = [(seconds // 3600, "hour"), (seconds % 3600 // 60, "minute"), (seconds % 60, "second")]
        return {"duration": " ".join(f"{n} {unit}{'s' if n != 1 else ''}" for n, unit in parts if n)}

    def parameters_for(self, request: str) -> dict[str, Any]:
        """A label when the request names one ("for the pasta"), none otherwise."""
        label = ["label"] if timer_label_said(request) else []
        return narrowed(self.spec.parameters, ["duration", *label], label)

    def describe(self, arguments: Mapping[str, Any]) -> str:
        label = _clean(str(arguments.get("label") or ""))[:60]
        what = f"{label} timer" if label and not fold(label).endswith("timer") else (label or "timer")
        try:
            seconds, _ = parse_duration(str(arguments.get("duration", "")))
        except TimerError:
            return f"set a {what} for {str(arguments.get('duration', ''))[:60]}"
        return f"set a {what} for {duration(seconds, parts=3)}"

    def run(self, arguments: Mapping[str, Any], cancel: CancelFlag) -> ToolResult:
        try:
            seconds, note = parse_duration(str(arguments.get("duration", "")))
            timer = self.book.add_timer(seconds, str(arguments.get("label") or ""))
        except TimerError as exc:
            return ToolResult.error(str(exc))
        now = _local_now(self.book.clock, self.book.zone)
        ends = datetime.fromtimestamp(timer.due, now.tzinfo)
        length = duration(timer.seconds, parts=4)
        name = timer.name.removeprefix("the ") if timer.label else "timer"
        name = name[0].upper() + name[1:]
        taken = f" ({note})" if note else ""
        text = f"{name} set for {length}{taken}; it rings {when(ends, now)} (#{timer.id})."
        said = f"{name} set for {length}; it rings {when(ends, now)}.{_saved_note(self.book)}"
        return ToolResult(text + _saved_note(self.book), f"Timer: {duration(timer.seconds, parts=3)}", answer=said)


class SetReminder(Cued):
    """The ``set_reminder`` tool."""

    spec = ToolSpec(
        name="set_reminder",
        title="Set a reminder",
        description="Remind the user of something at a given time.",
        parameters={
            "type": "object",
            # The time first: a forced call (tools.turn) wrote it into the message when it came second.
            "properties": {
                "time": {
                    "type": "string",
                    "description": 'When, e.g. "17:30", "5pm", "in 2 hours", "tomorrow at 9".',
                    # No number of more than two digits: a model that writes a date with a year
                    # (2023-10-05T09:00) makes one up; the user said "tomorrow at 9".
                    "pattern": "^[^0-9]*([0-9][0-9]?[^0-9]+)*([0-9][0-9]?)?$",
                },
                "message": {"type": "string", "description": 'What to remind of, e.g. "call the dentist".'},
            },
            "required": ["time", "message"],
        },
        read_only=False,
    )

    def __init__(self, book: TimerBook) -> None:
        self.book = book

    def describe(self, arguments: Mapping[str, Any]) -> str:
        message = _clean(str(arguments.get("message") or ""))[:80]
        try:
            now = _local_now(self.book.clock, self.book.zone)
            moment = parse_moment(str(arguments.get("time", "")), now, self.book.zone)
            at = _for(when(moment, now))
        except TimerError:
            at = f"for {str(arguments.get('time', ''))[:40]}"
        return f"set a reminder {at}: {message}"

    def run(self, arguments: Mapping[str, Any], cancel: CancelFlag) -> ToolResult:
        now = _local_now(self.book.clock, self.book.zone)
        try:
            moment = parse_moment(str(arguments.get("time", "")), now, self.book.zone)
            timer = self.book.add_reminder(moment.timestamp(), str(arguments.get("message") or ""))
        except TimerError as exc:
            return ToolResult.error(str(exc))
        at = _for(when(moment, now))
        text = f"Reminder set {at}: {timer.label} (#{timer.id}; in {duration(timer.due - now.timestamp())})."
        said = f"I'll remind you {at.removeprefix('for ')}: {timer.label}.{_saved_note(self.book)}"
        return ToolResult(text + _saved_note(self.book), f"Reminder {at}", answer=said)


def _for(moment: str) -> str:
    """ "at 17:30" -> "for 17:30", "on Friday 12 December at 09:00" -> "for Friday 12 December at
    09:00", "tomorrow at 09:00" -> "for tomorrow at 09:00"."""
    return "for " + moment.removeprefix("at ").removeprefix("on ")


def _listing(timer: Timer, now: datetime) -> str:
    due = datetime.fromtimestamp(timer.due, now.tzinfo)
    left = timer.due - now.timestamp()
    if timer.kind == REMINDER:
        return f"#{timer.id} reminder {when(due, now)}: {timer.label}"
    name = timer.name[len("the ") :]
    return f"#{timer.id} {name}: {duration(left)} left (rings {when(due, now)})"


class ListTimers(Cued):
    """The ``list_timers`` tool."""

    spec = ToolSpec(
        name="list_timers",
        title="List timers",
        description="List the timers and reminders that are set, with the time left.",
        parameters={"type": "object", "properties": {}},
        read_only=True,
    )

    def __init__(self, book: TimerBook) -> None:
        self.book = book

    def relevance(self, request: str) -> float:
        """Its cues, and sure for how long is left on a timer by its label ("how long is left on
        the bread", with a bread timer running), which names no timer."""
        cued = super().relevance(request)
        if cued >= SURE or not _TIME_LEFT.search(words_of(request)):
            return cued
        said = set(words_of(request).split())
        labels = {w for t in self.book.active() for w in fold(t.label).split() if len(w) > 2}
        return SURE if said & labels else cued

    def describe(self, arguments: Mapping[str, Any]) -> str:
        return "list your timers and reminders"

    def run(self, arguments: Mapping[str, Any], cancel: CancelFlag) -> ToolResult:
        timers = self.book.active()
        if not timers:
            return ToolResult("No timers or reminders are set.", "No timers", answer="No timers or reminders are set.")
        now = _local_now(self.book.clock, self.book.zone)
        head = _count(timers)
        lines = [f"{head}:", *(_listing(t, now) for t in timers)]
        said = f"{head}: " + "; ".join(_listing(t, now).split(" ", 1)[1] for t in timers[:5]) + "."
        return ToolResult("\n".join(lines), head, answer=sentence(said))


def _count(timers: list[Timer]) -> str:
    count_timers = sum(t.kind == TIMER for t in timers)
    count_reminders = len(timers) - count_timers
    parts = [
        f"{n} {kind}{'' if n == 1 else 's'}"
        for n, kind in ((count_timers, "timer"), (count_reminders, "reminder"))
        if n
    ]
    return " and ".join(parts)


_CANCEL_WORDS = {
    "the", "my", "a", "an", "cancel", "stop", "delete", "remove", "clear", "turn", "off", "one", "for", "to", "that",
    "this", "it", "please", "set", "about", "of", "number", "no", "id", "with",
}  # fmt: skip
_ALL_WORDS = {"all", "every", "everything", "both"}


def select(timers: list[Timer], which: str) -> tuple[list[Timer], str]:
    """The timers ``which`` names ("pasta", "the 10 minute timer", "#2", "all", "all reminders",
    "" for the only one) and, when it names none or is ambiguous, why (for the model)."""
    words = fold(which).split()
    kinds = {w.rstrip("s") for w in words if w.rstrip("s") in (TIMER, REMINDER)}
    pool = [t for t in timers if not kinds or t.kind in kinds] if kinds and len(kinds) == 1 else timers
    content = [w for w in words if w not in _CANCEL_WORDS and w.rstrip("s") not in (TIMER, REMINDER)]
    if not timers:
        return [], "no timers or reminders are set"
    if any(w in _ALL_WORDS for w in content):
        return pool, "" if pool else f"no {next(iter(kinds))}s are set"
    numbers = [int(w) for w in content if w.isdigit()]
    if len(numbers) == 1 and len(content) == 1:
        found = [t for t in timers if t.id == numbers[0]]
        if found:
            return found, ""
    if not content:
        if len(pool) == 1:
            return pool, ""
        return [], f"say which one: {_choices(pool or timers)}"
    matches = [t for t in pool if all(_word_matches(w, t.words()) for w in content)]
    if len(matches) == 1:
        return matches, ""
    if matches:
        return [], f"{len(matches)} match {which!r}; say which one: {_choices(matches)}"
    return [], f"no timer or reminder matches {which!r}; the ones set: {_choices(timers)}"


def _word_matches(word: str, words: set[str]) -> bool:
    return any(
        w == word or (len(word) >= 3 and (w.startswith(word) or word.startswith(w)) and len(w) >= 3) for w in words
    )


def _choices(timers: list[Timer]) -> str:
    return "; ".join(f"#{t.id} {t.name[len('the ') :]}" for t in timers[:10])


class CancelTimer(Cued):
    """The ``cancel_timer`` tool."""

    spec = ToolSpec(
        name="cancel_timer",
        title="Cancel a timer",
        description="Cancel a timer or reminder that is set.",
        parameters={
            "type": "object",
            "properties": {
                "which": {
                    "type": "string",
                    "description": 'Its label or number, e.g. "pasta" or "2", or "all".',
                },
            },
            "required": ["which"],  # a forced call always says which (with several, "which" is needed)
        },
        read_only=False,
    )

    def __init__(self, book: TimerBook) -> None:
        self.book = book

    def describe(self, arguments: Mapping[str, Any]) -> str:
        which = str(arguments.get("which") or "")
        chosen, _ = select(self.book.active(), which)
        if len(chosen) == 1:
            return f"cancel {chosen[0].name}"
        if chosen:
            return f"cancel {_count(chosen)}"
        named = [w for w in fold(which).split() if w not in _CANCEL_WORDS and w.rstrip("s") not in (TIMER, REMINDER)]
        return f"cancel the timer {quoted(which, 40)}" if named else "cancel the timer"

    def run(self, arguments: Mapping[str, Any], cancel: CancelFlag) -> ToolResult:
        chosen, problem = select(self.book.active(), str(arguments.get("which") or ""))
        if problem:
            return ToolResult.error(problem)
        gone = self.book.cancel(chosen)
        if not gone:
            return ToolResult.error("it had already rung or been cancelled")
        what = gone[0].name if len(gone) == 1 else f"{_count(gone)}"
        left = len(self.book.active())
        rest = f" {left} still set." if left else ""
        said = f"Cancelled {what}.{rest}" + _saved_note(self.book)
        return ToolResult(said, f"Cancelled {what}", answer=said)
