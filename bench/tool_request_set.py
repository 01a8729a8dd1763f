"""The requests of ``bench_tools.py``: what people say to a voice assistant that has tools, as
the speech model writes it down (no fancy punctuation, numbers in words), each with the calls
that answer it and a check of the answer.

150 requests: 100 that need a tool (64 for the built-in tools alone, 28 for the two MCP test
servers of ``tests/support/mcp_servers.py``: the pantry on stdio and the office on Streamable
HTTP, and 8 that take two calls, some of them a result that leads to the next call; grouped by
the tools they need, 66 "built-in" and 34 "mcp") and 50 that need none (general knowledge,
chit-chat, how-to, writing, and near misses that mention numbers, times, places, timers or
shopping without needing a tool).

Everything a tool reads is fixed (``World``): the clock (Tuesday 8 December 2026, 14:30 in
London), the timers already set, the conversations and dictations in the history, the pantry's
stock and the office's directory and rooms.  So every answer can be checked:

- each expected call (``Call``) names its tool and checks the call's arguments with the tools'
  own parsers, lenient about form and strict about meaning: an expression must compute to the
  right value (``calculate``), a duration must parse to the right seconds, a time to the right
  moment, units must be the right units and a place the right zone (the read-only tools are
  simply run on the fixed world: the result must hold the right time, the right dictation);
- the answer (``answer``) must hold the key fact: a number in digits (with or without thousands
  separators) or words, a time on a 24- or 12-hour clock, a name, a date.

``also`` lists tools a request may call besides the expected ones without being wrong (a sum
checked with ``calculate`` after reading the stock, a booking tried on a room that is taken).
"""

from __future__ import annotations

import dataclasses
import re
import sqlite3
import tempfile
from collections.abc import Callable, Mapping
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any
from unittest import mock
from zoneinfo import ZoneInfo

from bench.answer_set import Check, all_of, normalise, number, number_words, numbers_in, stem, word

ArgCheck = Callable[[Mapping[str, Any], "World", str], str]  # (arguments, world, the request's words): "" or why not

ZONE_NAME = "Europe/London"
ZONE = ZoneInfo(ZONE_NAME)
NOW_LOCAL = datetime(2026, 12, 8, 14, 30, tzinfo=ZONE)  # a Tuesday afternoon
NOW = NOW_LOCAL.timestamp()
TODAY = NOW_LOCAL.date()


def at(days: int, hour: int, minute: int = 0) -> float:
    """Seconds since the epoch of ``hour:minute`` (London) ``days`` from today (negative: ago)."""
    return (
        datetime.combine(TODAY + timedelta(days=days), datetime.min.time(), ZONE)
        .replace(hour=hour, minute=minute)
        .timestamp()
    )


# --------------------------------------------------------------------------- the fixed world

# Timers and reminders already set when each request starts: (minutes, label) and (due, message).
SEEDED_TIMERS = ((8, "bread"), (25, "laundry"))
SEEDED_REMINDERS = ((at(0, 17), "call mum"),)

# What the history holds: dictations (when, text, application) and conversations (title, when,
# [(role, text)]).  Distractors share words with the targets (two about the dentist).
DICTATIONS = (
    (at(-20, 11, 5), "Dentist bill paid, 85 pounds.", "Notes"),
    (at(-9, 18, 20), "Shopping: oat milk, lemons and basil.", "Notes"),
    (at(-3, 9, 40), "Note for Sam: the plumber is coming on Monday at 8 to fix the boiler.", "Signal"),
    (at(-1, 10, 12), "Dentist moved my check-up to Thursday the 17th at 4:30, bring the insurance card.", "Notes"),
    (at(-1, 16, 0), "Meeting notes: the budget review is pushed to January.", "Writer"),
    (at(0, 9, 5), "Guest wifi password is blue heron 42.", "Notes"),
)
CONVERSATIONS = (
    (
        "Birthday gift for Maya",
        at(-6, 20, 15),
        (
            ("user", "Maya's birthday is on the 2nd of January and she loves ceramics."),
            ("assistant", "A pottery class would make a lovely gift for her."),
        ),
    ),
    (
        "Trip to Lisbon",
        at(-2, 19, 0),
        (
            ("user", "I'm going to Lisbon in March, what should I pack?"),
            ("assistant", "Pack layers and a light rain jacket; March in Lisbon is mild, around 15 degrees."),
        ),
    ),
    (
        "Car service",
        at(-1, 11, 30),
        (
            ("user", "My car service is booked for the 14th at the garage on Mill Road."),
            ("assistant", "Noted: the car service is on the 14th at the garage on Mill Road."),
        ),
    ),
)


@dataclasses.dataclass
class World:
    """The fixed data the built-in tools read, in ``folder``: the history's two databases (made
    with the app's own classes) and a timer book, set again before each request."""

    folder: Path

    @property
    def conversations(self) -> Path:
        return self.folder / "conversations.sqlite3"

    @property
    def dictations(self) -> Path:
        return self.folder / "dictations.sqlite3"

    @staticmethod
    def clock() -> float:
        return NOW

    def book(self) -> Any:
        """A timer book holding the seeded timers and reminders only."""
        from parley.engine.tools.builtin import TimerBook

        timers = self.folder / "timers"
        for old in timers.glob("*") if timers.exists() else ():
            old.unlink()
        book = TimerBook(timers, clock=self.clock, zone=ZONE)
        for minutes, label in SEEDED_TIMERS:
            book.add_timer(minutes * 60, label)
        for due, message in SEEDED_REMINDERS:
            book.add_reminder(due, message)
        return book

    def builtin_tools(self) -> list[Any]:
        """The built-in tools on this world, with a fresh timer book (a request's timers and
        cancellations do not leak into the next one)."""
        from parley.engine.tools.builtin import builtin_tools

        return builtin_tools(
            self.book(), conversations=self.conversations, dictations=self.dictations, clock=self.clock, zone=ZONE
        )


def make_world(folder: Path | None = None) -> World:
    """The world in ``folder`` (a new temporary folder by default), its history written with the
    app's ``Store`` and ``DictationHistory``."""
    from parley.app.conversations import store as store_module
    from parley.app.conversations.dictation_history import DictationHistory
    from parley.app.conversations.dictation_record import DictationRecord

    world = World(Path(folder or tempfile.mkdtemp(prefix="bench-tools-")))
    world.folder.mkdir(parents=True, exist_ok=True)
    for path in (world.conversations, world.dictations):
        for companion in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
            companion.unlink(missing_ok=True)
    history = DictationHistory(world.dictations)
    for when, text, application in DICTATIONS:
        history.add(DictationRecord(when, text, text, application))
    history.close()
    store = store_module.Store(world.conversations)
    for title, when, messages in CONVERSATIONS:
        with mock.patch.object(store_module.time, "time", return_value=when):  # the store stamps time.time()
            summary = store.create_conversation(title)
            for role, text in messages:
                store.add_message(summary.id, role, text)
    store.close()
    with sqlite3.connect(world.conversations) as db:  # the store's clock is the fixed one
        assert db.execute("SELECT COUNT(*) FROM messages WHERE created > ?", (NOW,)).fetchone()[0] == 0
    return world


# --------------------------------------------------------------------------- answer checks


def any_of(*checks: Check) -> Check:
    def check(reply: str) -> bool:
        return any(c(reply) for c in checks)

    return check


def anything() -> Check:
    """Any answer in words (chit-chat: the point is that no tool is called)."""
    return lambda reply: bool(reply.strip())


def approx(*values: float, rel: float = 0.01) -> Check:
    """A number within ``rel`` of one of ``values`` (rounded as people say them: 2.11 for
    2.11338, 42.16 for 42.1648), or a whole value in words."""

    def check(reply: str) -> bool:
        found = numbers_in(normalise(reply).replace("−", "-"))
        if any(abs(f - v) <= rel * abs(v) + 1e-9 for f in found for v in values):
            return True
        return any(number(v)(reply) for v in values if float(v).is_integer())

    return check


def clock_time(hour: int, minute: int = 0) -> Check:
    """The time ``hour:minute`` (24-hour) as people write it: "23:30", "11:30 pm", "11.30 p.m."
    and, on the hour, "11 pm", "eleven o'clock"; a 12-hour time without am/pm counts (the face
    of the clock is right), one with the wrong am/pm does not."""
    h12 = hour % 12 or 12
    meridiem = "a" if hour < 12 else "p"
    twenty_four = re.compile(rf"(?<![\d:.])(?:{hour:02d}|{hour})[:.]{minute:02d}(?!\d)")
    face = re.compile(rf"(?<![\d:.])0?{h12}[:.]{minute:02d}(?!\d)\s*(?:([ap])\.?\s?m\b)?")
    on_the_hour = [
        re.compile(rf"(?<![\d:.]){h12}\s*{meridiem}\.?\s?m\b"),
        re.compile(rf"(?<![\d:.]){h12}\s*o'?clock"),
        *(re.compile(rf"\b{w}\s+(?:o'?clock|{meridiem}\.?\s?m\b)") for w in number_words(h12)),
    ]

    def check(reply: str) -> bool:
        text = normalise(reply)
        if (hour >= 13 or hour == 0) and twenty_four.search(text):
            return True  # "23:30": no other time of day is written so
        if any(match[1] in (None, meridiem) for match in face.finditer(text)):
            return True
        return minute == 0 and any(p.search(text) for p in on_the_hour)

    return check


def local_time(zone: str) -> Check:
    """The time now in ``zone``."""
    moment = datetime.fromtimestamp(NOW, ZoneInfo(zone))
    return clock_time(moment.hour, moment.minute)


_MONTHS = "january february march april may june july august september october november december".split()


def on_date(day: date) -> Check:
    """ "18 March", "March 18th", "the 18th of March", "2027-03-18"."""
    month = _MONTHS[day.month - 1]
    n = rf"{day.day}(?:st|nd|rd|th)?"
    pattern = re.compile(rf"\b{n}\s+(?:of\s+)?{month}\b|\b{month}\s+{n}\b|\b{day.isoformat()}\b")
    return lambda reply: bool(pattern.search(normalise(reply)))


# --------------------------------------------------------------------------- argument checks


@dataclasses.dataclass(frozen=True)
class Args:
    check: ArgCheck
    shown: str  # the arguments expected, for the report


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def _folded(value: Any) -> str:
    from parley.engine.tools.builtin.wording import fold

    return fold(str(value or ""))


def _has_stem(value: Any, stems: tuple[str, ...]) -> bool:
    words = _folded(value).split()
    return any(w.startswith(s) for w in words for s in stems) or any(f" {s}" in f" {_folded(value)}" for s in stems)


def expression(value: float, rel: float = 1e-6) -> Args:
    """``calculate``: the expression computes (with the tool itself) to ``value``."""

    def check(args: Mapping[str, Any], world: World, said: str) -> str:
        from parley.engine.tools.builtin.calculator import calculate

        text = args.get("expression")
        if not isinstance(text, str):
            return "no expression"
        result = calculate(text)
        if result.is_error:
            return f"{text!r} does not compute: {result.text}"
        tail = re.split(r"[=≈]", result.text)[-1]
        got = numbers_in(tail)
        if any(abs(g - value) <= rel * max(1.0, abs(value)) for g in got):
            return ""
        return f"{text!r} gives {tail.strip()}, not {value:g}"

    return Args(check, f"an expression worth {value:g}")


def units(value: float, source: str | tuple[str, ...], target: str | tuple[str, ...]) -> Args:
    """``convert_units``: ``value``, from a unit the tool reads as ``source`` to one it reads as
    ``target`` (each the unit's singular name, or several that are right)."""
    sources = (source,) if isinstance(source, str) else source
    targets = (target,) if isinstance(target, str) else target

    def check(args: Mapping[str, Any], world: World, said: str) -> str:
        from parley.engine.tools.builtin.units import UnitError, find_units

        got = _number(args.get("value"))
        if got is None or abs(got - value) > 1e-9 * max(1.0, abs(value)):
            return f"value {args.get('value')!r}, not {value:g}"
        try:
            a, _ = find_units(str(args.get("from_unit", "")))
            b, _ = find_units(str(args.get("to_unit", "")))
        except UnitError as exc:
            return f"units: {exc}"
        pair = next(((x, y) for x in a for y in b if x.dimension == y.dimension), None)
        if pair is None:
            return f"{args.get('from_unit')!r} and {args.get('to_unit')!r} cannot be converted"
        if pair[0].singular not in sources or pair[1].singular not in targets:
            return f"{pair[0].singular} to {pair[1].singular}, not {sources[0]} to {targets[0]}"
        return ""

    return Args(check, f"{value:g} {sources[0]} -> {targets[0]}")


def time_in(zone: str | None, days: int = 0) -> Args:
    """``get_time``: run on the fixed clock, the tool gives the time in ``zone`` (None: here),
    or the date ``days`` from today."""
    moment = datetime.fromtimestamp(NOW, ZoneInfo(zone) if zone else ZONE)

    def check(args: Mapping[str, Any], world: World, said: str) -> str:
        from parley.engine.backend.cancel import CancelToken
        from parley.engine.tools.builtin.clock import Clock
        from parley.engine.tools.builtin.wording import long_date

        result = Clock(world.clock, ZONE).run(args, CancelToken())
        if result.is_error:
            return f"the tool said: {result.text}"
        if days:
            wanted = long_date(moment.date() + timedelta(days=days))
        else:
            wanted = f"{moment.hour:02d}:{moment.minute:02d}"
        return "" if wanted in result.text else f"gives {result.text!r}, not {wanted}"

    where = zone or "here"
    return Args(check, f"place {where}" + (f", days_from_now {days}" if days else ""))


def timer(seconds: int, *labels: str) -> Args:
    """``set_timer``: the duration parses to ``seconds``; the label (when the user named one)
    holds one of ``labels``."""

    def check(args: Mapping[str, Any], world: World, said: str) -> str:
        from parley.engine.tools.builtin.timers import TimerError, parse_duration

        try:
            got, _ = parse_duration(str(args.get("duration", "")))
        except TimerError as exc:
            return f"duration: {exc}"
        if got != seconds:
            return f"duration {args.get('duration')!r} is {got} s, not {seconds} s"
        if labels and not _has_stem(args.get("label"), labels):
            return f"label {args.get('label')!r}, not {labels[0]!r}"
        invented = set(_folded(args.get("label")).split()) - set(_folded(said).split()) - _PLAIN_LABEL_WORDS
        if not labels and {w for w in invented if not w.isdigit()}:
            return f"label {args.get('label')!r} is not in the request"
        return ""

    return Args(check, f"duration {seconds} s" + (f", label {labels[0]}" if labels else ", no label"))


# Words a label may hold that the request did not say ("10 minute timer"): not an invented label.
_PLAIN_LABEL_WORDS = set(
    "timer countdown a the my minute minutes min mins hour hours second seconds sec secs and half one two three four "
    "five six seven eight nine ten twenty thirty forty fifty sixty ninety".split()
)


def reminder(due: float, *stems: str) -> Args:
    """``set_reminder``: the time parses to ``due``; the message holds one of ``stems``."""

    def check(args: Mapping[str, Any], world: World, said: str) -> str:
        from parley.engine.tools.builtin.timers import TimerError, parse_moment

        try:
            moment = parse_moment(str(args.get("time", "")), NOW_LOCAL, ZONE)
        except TimerError as exc:
            return f"time: {exc}"
        if abs(moment.timestamp() - due) > 30:
            return f"time {args.get('time')!r} is {moment:%a %H:%M}, not {datetime.fromtimestamp(due, ZONE):%a %H:%M}"
        if not _has_stem(args.get("message"), stems):
            return f"message {args.get('message')!r} lacks {stems[0]!r}"
        return ""

    return Args(check, f"time {datetime.fromtimestamp(due, ZONE):%a %H:%M}, message ~ {stems[0]}")


def cancelling(*labels: str) -> Args:
    """``cancel_timer``: ``which`` selects exactly the seeded timers or reminders with ``labels``."""

    def check(args: Mapping[str, Any], world: World, said: str) -> str:
        from parley.engine.tools.builtin.timers import select

        chosen, problem = select(world.book().active(), str(args.get("which") or ""))
        got = sorted(t.label for t in chosen)
        if got != sorted(labels):
            return f"which {args.get('which')!r} selects {got or problem}, not {list(labels)}"
        return ""

    return Args(check, f"which selects {', '.join(labels)}")


def history(*markers: str) -> Args:
    """``search_history``: run on the fixed history, the search finds one of the texts
    ``markers`` (the target's words, as its snippet shows them)."""

    def check(args: Mapping[str, Any], world: World, said: str) -> str:
        from parley.engine.backend.cancel import CancelToken
        from parley.engine.tools.builtin.history import HistorySearch

        tool = HistorySearch(world.conversations, world.dictations, clock=world.clock, zone=ZONE)
        result = tool.run(args, CancelToken())
        if any(marker.lower() in result.text.lower() for marker in markers):
            return ""
        return f"the search gives {' '.join(result.text.split())[:120]!r}, without {markers[0]!r}"

    return Args(check, f"a search that finds {markers[0]!r}")


def no_args() -> Args:
    return Args(lambda args, world, said: "", "")


def stock(item: str) -> Args:
    """``check_stock``: the pantry knows ``item`` by the name given (it matches names exactly)."""

    def check(args: Mapping[str, Any], world: World, said: str) -> str:
        got = str(args.get("item", "")).strip().lower()
        return "" if got == item else f"item {args.get('item')!r}, not {item!r}"

    return Args(check, f"item {item}")


def shopping(stem_: str, quantity: int) -> Args:
    """``add_to_shopping_list``: an item naming ``stem_``, ``quantity`` of it (1 when left out)."""

    def check(args: Mapping[str, Any], world: World, said: str) -> str:
        if not _has_stem(args.get("item"), (stem_,)):
            return f"item {args.get('item')!r}, not {stem_!r}"
        got = args.get("quantity", 1)
        if _number(got) != quantity:
            return f"quantity {got!r}, not {quantity}"
        return ""

    return Args(check, f"item {stem_}, quantity {quantity}")


def colleague(person: str) -> Args:
    """``find_colleague``: the name finds ``person`` alone (or, for someone not in the
    directory, is that name)."""

    def check(args: Mapping[str, Any], world: World, said: str) -> str:
        from tests.support.mcp_servers import DIRECTORY, colleague_lines

        name = str(args.get("name", ""))
        if person not in DIRECTORY:
            return "" if person.lower() in name.lower() else f"name {name!r}, not {person!r}"
        lines = colleague_lines(name).splitlines()
        return "" if len(lines) == 1 and lines[0].startswith(person) else f"name {name!r} finds {lines}"

    return Args(check, f"name ~ {person}")


def room(name: str) -> Args:
    def check(args: Mapping[str, Any], world: World, said: str) -> str:
        got = str(args.get("room", "")).strip().capitalize()
        return "" if got == name else f"room {args.get('room')!r}, not {name}"

    return Args(check, f"room {name}")


def booking(name: str, hhmm: str, minutes: int) -> Args:
    """``book_room``: the room, the time as the server reads it (HH:MM), the minutes (30 when
    left out)."""

    def check(args: Mapping[str, Any], world: World, said: str) -> str:
        from tests.support.mcp_servers import minutes_of

        problem = room(name).check(args, world, said)
        if problem:
            return problem
        try:
            start = minutes_of(str(args.get("time", "")))
        except ValueError:
            return f"time {args.get('time')!r} is not HH:MM"
        if start != minutes_of(hhmm):
            return f"time {args.get('time')!r}, not {hhmm}"
        got = args.get("minutes", 30)
        return "" if _number(got) == minutes else f"minutes {got!r}, not {minutes}"

    return Args(check, f"room {name}, time {hhmm}, minutes {minutes}")


# --------------------------------------------------------------------------- the requests

MCP_TOOLS = {
    "check_stock": "pantry",
    "add_to_shopping_list": "pantry",
    "list_shopping": "pantry",
    "find_colleague": "office",
    "room_availability": "office",
    "book_room": "office",
}
ACTING_MCP_TOOLS = {"add_to_shopping_list", "book_room"}


@dataclasses.dataclass(frozen=True)
class Call:
    tool: str
    args: Args


@dataclasses.dataclass(frozen=True)
class Request:
    kind: str  # "calculate", "pantry", "multi", "knowledge", ...
    text: str  # as the speech model wrote it
    calls: tuple[Call, ...]  # the calls that answer it; () for none
    answer: Check
    expected: str  # what a right answer holds, for the report
    also: tuple[str, ...] = ()  # tools it may call besides

    @property
    def group(self) -> str:
        """ "none", "mcp" (a call of an MCP server's tool) or "built-in"."""
        if not self.calls:
            return "none"
        return "mcp" if any(c.tool in MCP_TOOLS for c in self.calls) else "built-in"

    def shown(self) -> str:
        """The expected calls, for the report."""
        if not self.calls:
            return "no tool"
        return "; ".join(f"{c.tool}({c.args.shown})" for c in self.calls)


def _r(kind: str, text: str, calls: Call | tuple[Call, ...], answer: Check, expected: str, *also: str) -> Request:
    return Request(kind, text, calls if isinstance(calls, tuple) else (calls,), answer, expected, also)


def _none(kind: str, text: str, answer: Check, expected: str) -> Request:
    return Request(kind, text, (), answer, expected)


def _minutes(n: int) -> Check:
    return all_of(number(n), stem("min"))


C = Call
TOKYO, NEW_YORK = "Asia/Tokyo", "America/New_York"

REQUESTS: tuple[Request, ...] = (
    # ------------------------------------------------------------------ calculate (15)
    _r("calculate", "what's twelve percent of eighty five", C("calculate", expression(10.2)), approx(10.2), "10.2"),
    _r("calculate", "what is fourteen times twenty three", C("calculate", expression(322)), number(322), "322"),
    _r(
        "calculate",
        "what's a thousand two hundred and thirty four times fifty six",
        C("calculate", expression(69104)),
        number(69104),
        "69,104",
    ),
    _r(
        "calculate",
        "what's the square root of two",
        C("calculate", expression(2**0.5, rel=1e-4)),
        approx(1.41421, rel=0.002),
        "1.414",
    ),
    _r("calculate", "divide three hundred and forty by eight", C("calculate", expression(42.5)), approx(42.5), "42.5"),
    _r(
        "calculate",
        "how much is a fifteen percent tip on sixty two dollars",
        C("calculate", expression(9.3)),
        approx(9.3),
        "9.30",
    ),
    _r("calculate", "what's seven to the power of five", C("calculate", expression(16807)), number(16807), "16,807"),
    _r(
        "calculate",
        "if we split a bill of a hundred and eighty seven pounds fifty between five people how much does each pay",
        C("calculate", expression(37.5)),
        approx(37.5),
        "37.50",
    ),
    _r(
        "calculate",
        "add up nineteen ninety nine twenty four fifty and eight seventy five",
        C("calculate", expression(53.24)),
        approx(53.24, rel=0.0005),
        "53.24",
    ),
    _r(
        "calculate",
        "how much is two thousand and twenty four minus nineteen eighty seven",
        C("calculate", expression(37)),
        number(37),
        "37",
    ),
    _r(
        "calculate",
        "what's the price of an eighty pound coat with thirty five percent off",
        C("calculate", expression(52)),
        number(52),
        "52",
    ),
    _r(
        "calculate",
        "what is eleven point five times four point two",
        C("calculate", expression(48.3)),
        approx(48.3),
        "48.3",
    ),
    _r("calculate", "what's a third of nine hundred and ninety", C("calculate", expression(330)), number(330), "330"),
    _r("calculate", "what's twenty five squared", C("calculate", expression(625)), number(625), "625"),
    _r(
        "calculate",
        "how much is four hundred and eighty times twelve",
        C("calculate", expression(5760)),
        number(5760),
        "5,760",
    ),
    # ------------------------------------------------------------------ convert_units (12)
    _r(
        "units",
        "how many cups is five hundred milliliters",
        C("convert_units", units(500, "millilitre", "cup")),
        approx(2.11338, rel=0.03),
        "about 2.1 cups",
    ),
    _r(
        "units",
        "how many kilometers is twenty six point two miles",
        C("convert_units", units(26.2, "mile", "kilometre")),
        approx(42.1648, rel=0.003),
        "42.16 km",
    ),
    _r(
        "units",
        "what's seventy two fahrenheit in celsius",
        C("convert_units", units(72, "degree Fahrenheit", "degree Celsius")),
        approx(22.2222, rel=0.02),
        "22.2 °C",
    ),
    _r(
        "units",
        "convert one hundred and eighty centimeters to feet",
        C("convert_units", units(180, "centimetre", "foot")),
        any_of(approx(5.90551, rel=0.01), word("5 feet 11", "five feet eleven", "5 foot 11", "five foot eleven")),
        "5.9 feet",
    ),
    _r(
        "units",
        "how many pounds is eighty kilos",
        C("convert_units", units(80, "kilogram", "pound")),
        approx(176.37, rel=0.003),
        "176.4 lb",
    ),
    _r(
        "units",
        "what's sixty miles an hour in kilometers per hour",
        C("convert_units", units(60, "mile per hour", "kilometre per hour")),
        approx(96.5606, rel=0.003),
        "96.6 km/h",
    ),
    _r(
        "units",
        "how many tablespoons are in a quarter cup",
        C("convert_units", units(0.25, "cup", "tablespoon")),
        number(4),
        "4",
    ),
    _r(
        "units",
        "how many ounces is two hundred and fifty grams",
        C("convert_units", units(250, "gram", "ounce")),
        approx(8.81849, rel=0.01),
        "8.8 oz",
    ),
    _r(
        "units",
        "convert three point five liters to gallons",
        C("convert_units", units(3.5, "litre", ("gallon", "imperial gallon"))),
        any_of(approx(0.924602, rel=0.01), approx(0.769889, rel=0.01)),
        "0.92 US gallons (0.77 imperial)",
    ),
    _r(
        "units",
        "how many square feet is forty square meters",
        C("convert_units", units(40, "square metre", "square foot")),
        approx(430.556, rel=0.003),
        "430.6 sq ft",
    ),
    _r(
        "units",
        "how many megabytes are in two point five gigabytes",
        C("convert_units", units(2.5, "gigabyte", "megabyte")),
        number(2500),
        "2,500",
    ),
    _r(
        "units",
        "what's minus ten celsius in fahrenheit",
        C("convert_units", units(-10, "degree Celsius", "degree Fahrenheit")),
        number(14),
        "14 °F",
    ),
    # ------------------------------------------------------------------ get_time (11)
    _r("time", "what time is it", C("get_time", time_in(None)), clock_time(14, 30), "14:30"),
    _r("time", "what time is it in Tokyo", C("get_time", time_in(TOKYO)), local_time(TOKYO), "23:30"),
    _r(
        "time", "what's the time in New York right now", C("get_time", time_in(NEW_YORK)), local_time(NEW_YORK), "09:30"
    ),
    _r(
        "time",
        "what time is it over in Sydney",
        C("get_time", time_in("Australia/Sydney")),
        local_time("Australia/Sydney"),
        "01:30",
    ),
    _r("time", "what time is it in India", C("get_time", time_in("Asia/Kolkata")), local_time("Asia/Kolkata"), "20:00"),
    _r(
        "time",
        "is it morning in Los Angeles yet",
        C("get_time", time_in("America/Los_Angeles")),
        any_of(local_time("America/Los_Angeles"), word("yes")),
        "06:30 (yes)",
    ),
    _r("time", "what's the date today", C("get_time", time_in(None)), on_date(TODAY), "8 December"),
    _r("time", "what day of the week is it", C("get_time", time_in(None)), word("tuesday"), "Tuesday"),
    _r(
        "time",
        "what's the date a hundred days from now",
        C("get_time", time_in(None, days=100)),
        on_date(TODAY + timedelta(days=100)),
        "18 March 2027",
    ),
    _r(
        "time",
        "what's the time in Sao Paulo",
        C("get_time", time_in("America/Sao_Paulo")),
        local_time("America/Sao_Paulo"),
        "11:30",
    ),
    _r(
        "time",
        "what date will it be in three weeks",
        C("get_time", time_in(None, days=21)),
        on_date(TODAY + timedelta(days=21)),
        "29 December",
    ),
    # ------------------------------------------------------------------ set_timer (8)
    _r(
        "timer",
        "set a timer for ten minutes for the pasta",
        C("set_timer", timer(600, "pasta")),
        any_of(_minutes(10), clock_time(14, 40)),
        "10 minutes",
    ),
    _r(
        "timer",
        "timer for three minutes please",
        C("set_timer", timer(180)),
        any_of(_minutes(3), clock_time(14, 33)),
        "3 minutes",
    ),
    _r(
        "timer",
        "set a twenty five minute timer",
        C("set_timer", timer(1500)),
        any_of(_minutes(25), clock_time(14, 55)),
        "25 minutes",
    ),
    _r(
        "timer",
        "can you set a timer for an hour and a half",
        C("set_timer", timer(5400)),
        any_of(
            clock_time(16, 0),
            word("hour and a half", "one and a half hours", "1.5 hours", "90 minutes", "ninety minutes"),
            all_of(number(1), stem("hour"), number(30), stem("min")),
        ),
        "1 hour 30 minutes",
    ),
    _r(
        "timer",
        "start a timer for ninety seconds for the eggs",
        C("set_timer", timer(90, "egg")),
        any_of(
            all_of(number(90), stem("sec")),
            word("minute and a half", "one and a half minutes", "1.5 minutes"),
            all_of(number(1), stem("min"), number(30), stem("sec")),
        ),
        "90 seconds",
    ),
    _r(
        "timer",
        "set a timer for forty five minutes for the roast chicken",
        C("set_timer", timer(2700, "chicken", "roast")),
        any_of(_minutes(45), clock_time(15, 15)),
        "45 minutes",
    ),
    _r(
        "timer",
        "put a five minute timer on for the tea",
        C("set_timer", timer(300, "tea")),
        any_of(_minutes(5), clock_time(14, 35)),
        "5 minutes",
    ),
    _r(
        "timer",
        "set a timer for two hours",
        C("set_timer", timer(7200)),
        any_of(all_of(number(2), stem("hour")), clock_time(16, 30)),
        "2 hours",
    ),
    # ------------------------------------------------------------------ set_reminder (6)
    _r(
        "reminder",
        "remind me to call the plumber at five",
        C("set_reminder", reminder(at(0, 17), "plumber")),
        clock_time(17, 0),
        "17:00",
    ),
    _r(
        "reminder",
        "remind me tomorrow at nine to take my medication",
        C("set_reminder", reminder(at(1, 9), "medic", "pill", "tablet")),
        clock_time(9, 0),
        "tomorrow 09:00",
    ),
    _r(
        "reminder",
        "remind me in two hours to check the oven",
        C("set_reminder", reminder(at(0, 16, 30), "oven")),
        any_of(clock_time(16, 30), all_of(number(2), stem("hour"))),
        "16:30",
    ),
    _r(
        "reminder",
        "set a reminder for Friday at ten thirty to pay the rent",
        C("set_reminder", reminder(at(3, 10, 30), "rent")),
        clock_time(10, 30),
        "Friday 10:30",
    ),
    _r(
        "reminder",
        "remind me at half past six to water the plants",
        C("set_reminder", reminder(at(0, 18, 30), "plant", "water")),
        clock_time(18, 30),
        "18:30",
    ),
    _r(
        "reminder",
        "remind me in forty minutes to move the car",
        C("set_reminder", reminder(at(0, 15, 10), "car")),
        any_of(clock_time(15, 10), _minutes(40)),
        "15:10",
    ),
    # ------------------------------------------------------------------ list_timers (3), cancel_timer (3)
    _r(
        "timers",
        "what timers have I got going",
        C("list_timers", no_args()),
        all_of(word("bread"), word("laundry")),
        "bread and laundry",
    ),
    _r(
        "timers",
        "how long is left on the bread",
        C("list_timers", no_args()),
        any_of(_minutes(8), clock_time(14, 38)),
        "8 minutes",
    ),
    _r("timers", "do I have any reminders set", C("list_timers", no_args()), word("mum"), "call mum at 17:00"),
    _r(
        "cancel",
        "cancel the laundry timer",
        C("cancel_timer", cancelling("laundry")),
        all_of(stem("cancel", "stop", "remov", "delet"), word("laundry")),
        "cancelled the laundry timer",
    ),
    _r(
        "cancel",
        "stop the bread timer",
        C("cancel_timer", cancelling("bread")),
        all_of(stem("cancel", "stop", "remov", "delet"), word("bread")),
        "cancelled the bread timer",
    ),
    _r(
        "cancel",
        "cancel my reminder to call mum",
        C("cancel_timer", cancelling("call mum")),
        all_of(stem("cancel", "remov", "delet"), word("mum")),
        "cancelled the reminder",
    ),
    # ------------------------------------------------------------------ search_history (6)
    _r(
        "history",
        "what did I dictate about the dentist yesterday",
        C("search_history", history("Thursday the 17th")),
        any_of(word("thursday"), clock_time(16, 30), word("17th")),
        "Thursday the 17th at 4:30",
    ),
    _r(
        "history",
        "what was the guest wifi password I dictated this morning",
        C("search_history", history("blue heron")),
        word("blue heron"),
        "blue heron 42",
    ),
    _r(
        "history",
        "when is the plumber coming I dictated a note about it",
        C("search_history", history("plumber is coming on Monday")),
        word("monday"),
        "Monday at 8",
    ),
    _r(
        "history",
        "what did we say about packing for Lisbon",
        C("search_history", history("rain jacket")),
        stem("layer", "jacket", "rain"),
        "layers and a light rain jacket",
    ),
    _r(
        "history",
        "what did I tell you about Maya's birthday",
        C("search_history", history("ceramics", "pottery")),
        any_of(word("ceramics", "pottery"), all_of(word("january"), stem("2nd", "second", "2"))),
        "2 January, she loves ceramics",
    ),
    _r(
        "history",
        "when's my car service I mentioned it yesterday",
        C("search_history", history("14th")),
        any_of(word("14th", "fourteenth"), number(14)),
        "the 14th",
    ),
    # ------------------------------------------------------------------ the pantry (stdio MCP): 14
    _r("pantry", "is there any milk left", C("check_stock", stock("milk")), number(2), "2 litres"),
    _r("pantry", "how many eggs have we got", C("check_stock", stock("eggs")), number(6), "6"),
    _r(
        "pantry",
        "do we still have flour",
        C("check_stock", stock("flour")),
        any_of(
            word("no", "none", "out of", "run out", "ran out", "don't", "do not", "zero", "not available"),
            word("unavailable", "not in stock", "out of stock", "isn't any", "is not any", "there's no"),
            number(0),
        ),
        "none left",
    ),
    _r("pantry", "how much rice is in the pantry", C("check_stock", stock("rice")), number(3), "3 kg"),
    _r("pantry", "are we out of coffee", C("check_stock", stock("coffee")), word("one", "1", "a bag"), "1 bag"),
    _r("pantry", "have we got any apples", C("check_stock", stock("apples")), number(5), "5"),
    _r(
        "pantry",
        "is there olive oil in the cupboard",
        C("check_stock", stock("olive oil")),
        word("one", "1", "a bottle", "yes"),
        "1 bottle",
    ),
    _r(
        "pantry",
        "add two cartons of eggs to the shopping list",
        C("add_to_shopping_list", shopping("egg", 2)),
        all_of(stem("egg"), stem("add", "put", "list")),
        "added eggs",
    ),
    _r(
        "pantry",
        "put milk on the shopping list",
        C("add_to_shopping_list", shopping("milk", 1)),
        all_of(word("milk"), stem("add", "put", "list")),
        "added milk",
    ),
    _r(
        "pantry",
        "add three bags of rice to my shopping list",
        C("add_to_shopping_list", shopping("rice", 3)),
        all_of(word("rice"), stem("add", "put", "list")),
        "added rice",
    ),
    _r(
        "pantry",
        "we need six lemons put them on the list",
        C("add_to_shopping_list", shopping("lemon", 6)),
        all_of(stem("lemon"), stem("add", "put", "list")),
        "added 6 lemons",
    ),
    _r(
        "pantry",
        "add coffee to the shopping list",
        C("add_to_shopping_list", shopping("coffee", 1)),
        all_of(word("coffee"), stem("add", "put", "list")),
        "added coffee",
    ),
    _r(
        "pantry",
        "what's on the shopping list",
        C("list_shopping", no_args()),
        all_of(word("bread"), stem("tomato")),
        "bread and 6 tomatoes",
    ),
    _r(
        "pantry",
        "read me my shopping list",
        C("list_shopping", no_args()),
        all_of(word("bread"), stem("tomato")),
        "bread and 6 tomatoes",
    ),
    # ------------------------------------------------------------------ the office (HTTP MCP): 14
    _r("office", "where does Ada sit", C("find_colleague", colleague("Ada Lovelace")), word("2.14"), "desk 2.14"),
    _r(
        "office",
        "what's Grace Hopper's phone extension",
        C("find_colleague", colleague("Grace Hopper")),
        number(3020),
        "3020",
    ),
    _r(
        "office",
        "which team is Alan Turing on",
        C("find_colleague", colleague("Alan Turing")),
        word("research"),
        "Research",
    ),
    _r(
        "office",
        "what's Katherine's email address",
        C("find_colleague", colleague("Katherine Johnson")),
        word("katherine@example.com"),
        "katherine@example.com",
    ),
    _r(
        "office",
        "look up Grace in the office directory",
        C("find_colleague", colleague("Grace Hopper")),
        any_of(word("compilers", "3.02"), number(3020)),
        "Compilers, desk 3.02",
    ),
    _r(
        "office",
        "is there someone called Priya in the office",
        C("find_colleague", colleague("Priya")),
        word("no", "not", "nobody", "no one", "couldn't", "could not", "can't", "cannot", "isn't"),
        "no",
    ),
    _r(
        "office",
        "is the Orion room free this afternoon",
        C("room_availability", room("Orion")),
        any_of(clock_time(14, 30), clock_time(13, 0)),
        "booked 13:00-14:30",
    ),
    _r("office", "when is Lyra booked today", C("room_availability", room("Lyra")), clock_time(10, 30), "10:30-11:00"),
    _r(
        "office", "is Vega free", C("room_availability", room("Vega")), word("free", "available", "yes"), "free all day"
    ),
    _r(
        "office",
        "what bookings does the Orion room have",
        C("room_availability", room("Orion")),
        all_of(clock_time(9, 0), clock_time(13, 0)),
        "09:00-10:00 and 13:00-14:30",
    ),
    _r(
        "office",
        "book the Vega room at three for half an hour",
        C("book_room", booking("Vega", "15:00", 30)),
        all_of(stem("book", "reserv"), clock_time(15, 0)),
        "booked 15:00-15:30",
    ),
    _r(
        "office",
        "book Lyra at nine for an hour",
        C("book_room", booking("Lyra", "09:00", 60)),
        all_of(stem("book", "reserv"), clock_time(9, 0)),
        "booked 09:00-10:00",
    ),
    _r(
        "office",
        "can you book Orion at four thirty for forty five minutes",
        C("book_room", booking("Orion", "16:30", 45)),
        all_of(stem("book", "reserv"), clock_time(16, 30)),
        "booked 16:30-17:15",
    ),
    _r(
        "office",
        "grab the Lyra room at two for twenty minutes",
        C("book_room", booking("Lyra", "14:00", 20)),
        all_of(stem("book", "reserv"), clock_time(14, 0)),
        "booked 14:00-14:20",
    ),
    # ------------------------------------------------------------------ two calls (8)
    _r(
        "multi",
        "do we have any flour left and if not put two bags on the shopping list",
        (C("check_stock", stock("flour")), C("add_to_shopping_list", shopping("flour", 2))),
        all_of(word("flour"), stem("add", "put", "list")),
        "none left; added 2 flour",
    ),
    _r(
        "multi",
        "how many eggs have we got and how many will we have if I buy another dozen",
        C("check_stock", stock("eggs")),
        number(18),
        "18",
        "calculate",
    ),
    _r(
        "multi",
        "what time is it in Tokyo and in New York",
        (C("get_time", time_in(TOKYO)), C("get_time", time_in(NEW_YORK))),
        all_of(local_time(TOKYO), local_time(NEW_YORK)),
        "23:30 and 09:30",
    ),
    _r(
        "multi",
        "is the Vega room free at three and if it is book it for an hour",
        (C("room_availability", room("Vega")), C("book_room", booking("Vega", "15:00", 60))),
        all_of(stem("book", "reserv"), clock_time(15, 0)),
        "free; booked 15:00-16:00",
    ),
    _r(
        "multi",
        "check if Orion is free at half one and book it for thirty minutes if it is",
        C("room_availability", room("Orion")),
        stem("not free", "isn't free", "not available", "unavailable", "taken", "busy", "occupied", "already booked"),
        "not free (booked 13:00-14:30)",
        "book_room",
    ),
    _r(
        "multi",
        "set a timer for twenty minutes and remind me at six to take the bins out",
        (C("set_timer", timer(1200)), C("set_reminder", reminder(at(0, 18), "bin"))),
        all_of(any_of(_minutes(20), clock_time(14, 50)), any_of(clock_time(18, 0), word("six"))),
        "20-minute timer; reminder at 18:00",
    ),
    _r(
        "multi",
        "how much milk have we got in pints",
        (C("check_stock", stock("milk")), C("convert_units", units(2, "litre", ("pint", "imperial pint")))),
        any_of(approx(4.22675, rel=0.02), approx(3.51951, rel=0.02)),
        "2 litres = 4.2 US pints (3.5 imperial)",
        "calculate",
    ),
    _r(
        "multi",
        "what's Katherine Johnson's extension and what time is it in Houston",
        (C("find_colleague", colleague("Katherine Johnson")), C("get_time", time_in("America/Chicago"))),
        all_of(number(2210), local_time("America/Chicago")),
        "2210; 08:30",
    ),
    # ------------------------------------------------------------------ no tool: knowledge (10)
    _none("knowledge", "who wrote pride and prejudice", word("austen"), "Jane Austen"),
    _none("knowledge", "what's the largest planet in the solar system", word("jupiter"), "Jupiter"),
    _none("knowledge", "why is the sky blue", stem("scatter", "rayleigh", "wavelength"), "scattering"),
    _none("knowledge", "what do bees make", word("honey"), "honey"),
    _none("knowledge", "what language do they speak in Brazil", word("portuguese"), "Portuguese"),
    _none("knowledge", "how many legs does a spider have", number(8), "8"),
    _none("knowledge", "what's the chemical symbol for gold", word("au"), "Au"),
    _none("knowledge", "who painted the starry night", stem("van gogh", "gogh"), "Van Gogh"),
    _none("knowledge", "what is photosynthesis", stem("light", "sun"), "light into energy"),
    _none("knowledge", "which ocean is the biggest", word("pacific"), "the Pacific"),
    # ------------------------------------------------------------------ no tool: chit-chat (8)
    _none("chat", "hi there how are you doing", anything(), "a greeting"),
    _none("chat", "thanks that's really helpful", anything(), "you're welcome"),
    _none("chat", "good morning Parley", anything(), "a greeting"),
    _none("chat", "I'm feeling a bit tired today", anything(), "sympathy"),
    _none("chat", "what's your name", word("parley"), "Parley"),
    _none("chat", "can you tell me something interesting", anything(), "a fact"),
    _none("chat", "I just got a new puppy", anything(), "congratulations"),
    _none("chat", "what should I call my cat give me one name", anything(), "a name"),
    # ------------------------------------------------------------------ no tool: how-to (8)
    _none("how-to", "how do I boil an egg", all_of(word("water"), stem("boil", "simmer")), "water, boil"),
    _none(
        "how-to", "how do I get rid of hiccups", stem("breath", "water", "hold", "drink", "sugar"), "hold your breath"
    ),
    _none("how-to", "how do I tie a tie", stem("knot", "loop", "wide", "narrow", "over", "around"), "the knot"),
    _none(
        "how-to",
        "how should I store fresh basil",
        stem("water", "jar", "glass", "room temperature", "fridge", "paper towel", "counter"),
        "stems in water",
    ),
    _none(
        "how-to",
        "how do I unclog a sink",
        stem("plunger", "baking soda", "vinegar", "boiling water", "hot water", "snake", "trap"),
        "plunger, baking soda",
    ),
    _none(
        "how-to",
        "how can I fall asleep faster",
        stem("screen", "routine", "dark", "relax", "breath", "caffeine", "bed", "same time"),
        "a routine, no screens",
    ),
    _none(
        "how-to",
        "what's a good way to learn a new language",
        stem("practi", "daily", "app", "speak", "listen", "immers", "every day"),
        "practise daily",
    ),
    _none("how-to", "how do I make pancakes", stem("flour", "egg", "milk"), "flour, eggs, milk"),
    # ------------------------------------------------------------------ no tool: writing (8)
    _none(
        "writing",
        "write a two line poem about autumn",
        stem("leaf", "leaves", "autumn", "fall", "gold", "crisp", "harvest"),
        "a poem",
    ),
    _none(
        "writing",
        "give me a short toast for my sister's wedding",
        stem("sister", "love", "cheers", "raise", "toast", "happ"),
        "a toast",
    ),
    _none("writing", "suggest a title for a story about a lost robot", anything(), "a title"),
    _none(
        "writing",
        "help me write a one sentence apology for missing a meeting",
        stem("sorry", "apolog"),
        "an apology",
    ),
    _none("writing", "write a haiku about the sea", stem("sea", "wave", "ocean", "tide", "shore", "salt"), "a haiku"),
    _none(
        "writing",
        "give me three words that rhyme with cat",
        word("hat", "bat", "mat", "rat", "sat", "fat", "pat", "vat", "chat", "flat", "that", "splat", "brat", "gnat"),
        "hat, bat, mat",
    ),
    _none(
        "writing", "say happy birthday to my friend Tom in a fun way", all_of(word("birthday"), word("tom")), "a wish"
    ),
    _none(
        "writing",
        "describe a sunset in one sentence",
        stem("sun", "sky", "orange", "gold", "red", "horizon", "pink"),
        "a sunset",
    ),
    # ------------------------------------------------------------------ no tool: near misses (16)
    _none("near-miss", "who was the first person on the moon", word("armstrong"), "Neil Armstrong"),
    _none("near-miss", "tell me a joke about timers", anything(), "a joke"),
    _none("near-miss", "what's the capital of Japan", word("tokyo"), "Tokyo"),
    _none("near-miss", "how do I set a timer on my phone", stem("clock", "app", "timer"), "the Clock app"),
    _none(
        "near-miss",
        "why do we have time zones",
        stem("sun", "earth", "rotat", "noon", "daylight", "longitude"),
        "the Earth turns",
    ),
    _none("near-miss", "what year did the Titanic sink", number(1912), "1912"),
    _none("near-miss", "what does percent mean", stem("hundred", "100"), "per hundred"),
    _none("near-miss", "who invented the telephone", stem("bell"), "Alexander Graham Bell"),
    _none(
        "near-miss",
        "what's a good recipe that uses a lot of eggs",
        stem("egg", "omelet", "frittata", "quiche", "custard", "shakshuka"),
        "a frittata",
    ),
    _none("near-miss", "how many players are on a soccer team", number(11), "11"),
    _none(
        "near-miss",
        "what's the history of the metric system",
        stem("france", "french", "revolution", "179", "meter", "metre"),
        "France, 1790s",
    ),
    _none(
        "near-miss",
        "give me tips for running a good meeting",
        stem("agenda", "time", "clear", "goal", "short", "purpose"),
        "an agenda",
    ),
    _none(
        "near-miss",
        "what's the difference between Celsius and Fahrenheit",
        stem("freez", "boil", "32", "100", "scale"),
        "the scales",
    ),
    _none("near-miss", "is it rude to be five minutes late to a meeting", anything(), "an opinion"),
    _none(
        "near-miss",
        "what should I put on a shopping list for a picnic",
        stem("sandwich", "fruit", "drink", "cheese", "bread", "crisps", "chips", "water", "blanket"),
        "sandwiches, fruit",
    ),
    _none("near-miss", "what's the time complexity of binary search", stem("log"), "O(log n)"),
)

GROUPS = ("built-in", "mcp", "none")
KINDS = tuple(dict.fromkeys(r.kind for r in REQUESTS))


# --------------------------------------------------------------------------- scoring


# What a tool call or the tools' offer looks like in a model's words: never an answer to read aloud.
TOOL_MARKUP = re.compile(r"</?tools?>|</?tool_call>|\{\s*\"name\"\s*:|\"type\"\s*:\s*\"function\"")


@dataclasses.dataclass(frozen=True)
class MadeCall:
    """A call the model made, as the turn's step records it."""

    name: str
    arguments: Mapping[str, Any] | str  # a dict, or the model's text when it was not a JSON object
    status: str  # "done", "failed", "refused", "declined", ...


def score(request: Request, calls: list[MadeCall], text: str, world: World) -> dict[str, Any]:
    """What was right in one turn: ``tool`` (the tools called are the expected ones, with at most
    the ``also`` ones besides; for a request that needs none: none called), ``args`` (the tools
    and, for each expected call, a call of that tool whose arguments pass its check),
    ``needless`` (a tool called where none was needed), ``missed`` (no tool called where one
    was), ``answer`` (the final text holds the key fact, and no tool markup: the words are read
    aloud), and ``why`` (one line per problem)."""
    names = [c.name for c in calls]
    expected = {c.tool for c in request.calls}
    why: list[str] = []
    if not request.calls:
        tool_right = not calls
        if calls:
            why.append(f"needless: {', '.join(names)}")
        args_right = tool_right
    else:
        extra = set(names) - expected - set(request.also)
        lacking = expected - set(names)
        tool_right = not extra and not lacking
        if lacking:
            why.append(f"no call of {', '.join(sorted(lacking))}" + (f" (called {', '.join(names)})" if names else ""))
        if extra:
            why.append(f"wrong tool: {', '.join(sorted(extra))}")
        args_right = tool_right
        for want in request.calls:
            made = [c for c in calls if c.name == want.tool]
            if not made:
                args_right = False
                continue
            problems = []
            for c in made:
                if not isinstance(c.arguments, Mapping):
                    problems.append(f"arguments not JSON: {str(c.arguments)[:80]!r}")
                    continue
                problem = want.args.check(c.arguments, world, request.text)
                if not problem:
                    break
                problems.append(problem)
            else:
                args_right = False
                why.append(f"{want.tool}: {'; '.join(problems)}")
    markup = TOOL_MARKUP.search(text)
    answer_right = request.answer(text) and not markup
    if markup:
        why.append(f"answer holds tool markup ({markup.group()!r}): it would be read aloud")
    elif not answer_right:
        why.append(f"answer lacks {request.expected!r}")
    return {
        "tool": tool_right,
        "args": args_right,
        "needless": not request.calls and bool(calls),
        "missed": bool(request.calls) and not calls,
        "answer": answer_right,
        "why": why,
    }


def by_text() -> dict[str, Request]:
    return {r.text: r for r in REQUESTS}


assert len(REQUESTS) == 150 and sum(r.group == "none" for r in REQUESTS) == 50, "the set's size changed"
assert len(by_text()) == len(REQUESTS), "two requests have the same words"
