"""Timers and reminders: set, listed and cancelled through the tools, kept across a restart of
Parley (a new ``TimerBook`` on the same folder), rung when due (missed when they fell due while
Parley was closed), and a hostile ``timers.json`` read as one."""

from __future__ import annotations

import json
import os
import re
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from parley.engine.tools.builtin import TimerBook, TimerError
from parley.engine.tools.builtin.timers import (
    FILE_NAME,
    MAX_ACTIVE,
    CancelTimer,
    ListTimers,
    SetReminder,
    SetTimer,
    parse_duration,
    parse_moment,
)
from parley.engine.tools.tool import ToolResult

PARIS = ZoneInfo("Europe/Paris")
# A Tuesday, 14:05 in Paris.
START = datetime(2025, 12, 9, 14, 5, tzinfo=PARIS).timestamp()


class NeverCancelled:
    cancelled = False


class Now:
    """A clock the test moves by hand."""

    def __init__(self, seconds: float = START) -> None:
        self.seconds = seconds

    def __call__(self) -> float:
        return self.seconds


def book_at(folder: Path, now: Now) -> TimerBook:
    return TimerBook(folder, clock=now, zone=PARIS)


def run(tool: Any, **arguments: Any) -> ToolResult:
    result: ToolResult = tool.run(arguments, NeverCancelled())
    return result


@pytest.mark.parametrize(
    ("text", "seconds", "note"),
    [
        ("10 minutes", 600, ""),
        ("10 min", 600, ""),
        ("10m", 600, ""),
        ("1h30m", 5400, ""),
        ("1h 30", 5400, ""),
        ("1 hour and 30 minutes", 5400, ""),
        ("an hour and a half", 5400, ""),
        ("one and a half hours", 5400, ""),
        ("1.5 hours", 5400, ""),
        ("half an hour", 1800, ""),
        ("a minute and a half", 90, ""),
        ("quarter of an hour", 900, ""),
        ("twenty five minutes", 1500, ""),
        ("90 seconds", 90, ""),
        ("5m30", 330, ""),
        ("00:10:00", 600, ""),
        ("5:00", 300, ""),
        ("PT10M", 600, ""),
        ("10", 600, "taken as minutes"),
    ],
)
def test_durations_as_people_and_models_write_them(text: str, seconds: int, note: str) -> None:
    assert parse_duration(text) == (seconds, note)


@pytest.mark.parametrize(
    ("request_text", "duration"),
    [
        ("set a timer for 10 minutes", "10 minutes"),
        ("timer for 3 minutes please", "3 minutes"),
        ("set a 25 minute timer", "25 minutes"),
        ("can you set a timer for an hour and a half", "1 hour 30 minutes"),
        ("set a timer for 90 seconds", "1 minute 30 seconds"),
        # A label, a length read one way of several, or more than a length: the model writes the call
        ("set a timer for 10 minutes for the pasta", None),
        ("put a 5 minute timer on for the tea", None),
        ("set a timer for 5", None),
        ("set a timer for 20 minutes and remind me at 6 to take the bins out", None),
        ("set a timer", None),
    ],
)
def test_a_timer_s_length_said_plainly_needs_no_model(tmp_path: Path, request_text: str, duration: str | None) -> None:
    arguments = SetTimer(TimerBook(tmp_path)).arguments_from(request_text)
    assert arguments == (None if duration is None else {"duration": duration})
    if arguments is not None:  # what the tool's schema holds a model's call to
        assert re.match(SetTimer.spec.parameters["properties"]["duration"]["pattern"], arguments["duration"])


@pytest.mark.parametrize(("text", "problem"), [("banana", "cannot read"), ("0 seconds", "at least 1 second")])
def test_what_is_not_a_duration_is_refused(text: str, problem: str) -> None:
    with pytest.raises(TimerError, match=problem):
        parse_duration(text)


@pytest.mark.parametrize(
    ("text", "moment"),
    [
        ("17:30", "2025-12-09 17:30"),
        ("5pm", "2025-12-09 17:00"),
        ("5 p.m.", "2025-12-09 17:00"),
        ("at 9", "2025-12-09 21:00"),  # the next nine o'clock
        ("9am", "2025-12-10 09:00"),  # passed today: tomorrow
        ("in 2 hours", "2025-12-09 16:05"),
        ("2 hours from now", "2025-12-09 16:05"),
        ("tomorrow at 9", "2025-12-10 09:00"),
        ("tomorrow at 3", "2025-12-10 15:00"),
        ("tomorrow", "2025-12-10 09:00"),
        ("tonight", "2025-12-09 20:00"),
        ("friday at 3pm", "2025-12-12 15:00"),
        ("tuesday at 10", "2025-12-16 10:00"),  # today is Tuesday, 10:00 has passed
        ("tomorrow morning at 8", "2025-12-10 08:00"),
        ("noon", "2025-12-10 12:00"),
        ("12:30", "2025-12-10 12:30"),
        ("24 december", "2025-12-24 09:00"),
        ("december 24 at 6pm", "2025-12-24 18:00"),
        ("2025-12-24 18:00", "2025-12-24 18:00"),
        ("2025-12-24T17:00:00Z", "2025-12-24 18:00"),
        ("half past six", "2025-12-09 18:30"),  # as people say it, numbers in words
        ("half past 6", "2025-12-09 18:30"),
        ("quarter to seven", "2025-12-09 18:45"),
        ("ten past nine", "2025-12-09 21:10"),
        ("half six", "2025-12-09 18:30"),
        ("tomorrow at nine", "2025-12-10 09:00"),
        ("friday at ten thirty", "2025-12-12 10:30"),
    ],
)
def test_moments_as_people_and_models_write_them(text: str, moment: str) -> None:
    now = datetime.fromtimestamp(START, PARIS)
    assert parse_moment(text, now, PARIS).strftime("%Y-%m-%d %H:%M") == moment


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("banana", "cannot read"),
        ("at 25:00", "not a real time"),
        ("31 february", "not a real date"),
        ("", "needs a time"),
    ],
)
def test_what_is_not_a_moment_is_refused(text: str, problem: str) -> None:
    with pytest.raises(TimerError, match=problem):
        parse_moment(text, datetime.fromtimestamp(START, PARIS), PARIS)


def test_timers_and_reminders_survive_a_restart(tmp_path: Path) -> None:
    now = Now()
    book = book_at(tmp_path, now)
    assert run(SetTimer(book), duration="10 minutes", label="pasta").text == (
        "Pasta timer set for 10 minutes; it rings at 14:15 (#1)."
    )
    assert run(SetReminder(book), message="call the dentist", time="tomorrow at 9").text == (
        "Reminder set for tomorrow at 09:00: call the dentist (#2; in 18 hours 55 minutes)."
    )
    assert (tmp_path / FILE_NAME).is_file()

    again = book_at(tmp_path, Now(START + 60))  # Parley started again a minute later
    assert again.active() == book.active()
    listing = run(ListTimers(again))
    assert listing.text == (
        "1 timer and 1 reminder:\n"
        "#1 pasta timer: 9 minutes left (rings at 14:15)\n"
        "#2 reminder tomorrow at 09:00: call the dentist"
    )
    assert listing.summary == "1 timer and 1 reminder"
    assert run(SetTimer(again), duration="5 minutes").text == "Timer set for 5 minutes; it rings at 14:11 (#3)."


def test_what_falls_due_rings_once_and_what_fell_due_while_closed_is_missed(tmp_path: Path) -> None:
    now = Now()
    book = book_at(tmp_path, now)
    pasta = book.add_timer(600, "pasta")
    plain = book.add_timer(60)
    dentist = book.add_reminder(START + 3600, "call the dentist")
    changes: list[int] = []
    book.subscribe(lambda: changes.append(len(book.active())))
    assert book.next_due() == plain.due
    assert book.due(START + 59) == []

    rings = book.due(START + 60.5)
    assert [(r.timer, r.missed, r.title, r.text) for r in rings] == [
        (plain, False, "Timer done", "Your 1-minute timer is done.")
    ]
    book.mark_rung(*[r.timer for r in rings])
    assert book.due(START + 61) == []
    assert changes == [2]

    # Parley closed at 14:06 and started again at 16:00: both fell due while it was closed.
    later = book_at(tmp_path, Now(START + 6900))
    rings = later.due()
    assert [(r.timer, r.missed, r.title) for r in rings] == [
        (pasta, True, "Missed timer"),
        (dentist, True, "Missed reminder"),
    ]
    assert rings[0].text == "Missed: your pasta timer ended at 14:15."
    assert rings[1].text == "Missed reminder, due at 15:05: call the dentist"
    later.mark_rung(*[r.timer for r in rings])
    assert book_at(tmp_path, Now(START + 7000)).active() == []


def test_a_reminder_on_time_says_its_message(tmp_path: Path) -> None:
    book = book_at(tmp_path, Now())
    book.add_reminder(START + 600, "take the cake out")
    (ring,) = book.due(START + 601)
    assert (ring.missed, ring.title, ring.text) == (False, "Reminder", "Reminder: take the cake out")


def test_mark_rung_leaves_a_new_timer_with_a_reused_number_alone(tmp_path: Path) -> None:
    book = book_at(tmp_path, Now())
    first = book.add_timer(60)
    (ring,) = book.due(START + 61)
    book.cancel([first])
    second = book.add_timer(120)  # the book was empty: numbers start again at #1
    assert second.id == first.id
    book.mark_rung(ring.timer)
    assert book.active() == [second]


def test_cancel_by_label_by_number_and_all(tmp_path: Path) -> None:
    book = book_at(tmp_path, Now())
    cancel = CancelTimer(book)
    book.add_timer(600, "the pasta timer")
    egg = book.add_timer(420, "egg")
    book.add_timer(600)
    book.add_reminder(START + 3600, "call the dentist")

    assert cancel.describe({"which": "the pasta timer"}) == "cancel the pasta timer"
    assert run(cancel, which="the pasta timer").text == "Cancelled the pasta timer. 3 still set."
    assert [t.label for t in book.active()] == ["egg", "", "call the dentist"]

    assert run(cancel, which="the 10 minute timer").text == "Cancelled the 10-minute timer. 2 still set."
    assert run(cancel, which="dentist reminder").text == 'Cancelled the reminder "call the dentist". 1 still set.'
    missing = run(cancel, which="pasta")
    assert (
        missing.is_error and "no timer or reminder matches 'pasta'" in missing.text and "#2 egg timer" in missing.text
    )
    assert run(cancel, which=str(egg.id)).text == "Cancelled the egg timer."

    book.add_timer(60)
    book.add_timer(120)
    book.add_reminder(START + 600, "remind me to stretch")
    ambiguous = run(cancel, which="the timer")
    assert ambiguous.is_error and "say which one" in ambiguous.text
    assert cancel.describe({"which": "all"}) == "cancel 2 timers and 1 reminder"
    assert run(cancel, which="all timers").text == "Cancelled 2 timers. 1 still set."
    assert run(cancel).text == 'Cancelled the reminder "stretch".'  # the only one left
    assert run(cancel, which="all").is_error
    assert book_at(tmp_path, Now()).active() == []


def test_bounds_on_timers(tmp_path: Path) -> None:
    book = book_at(tmp_path, Now())
    too_long = run(SetTimer(book), duration="32 days")
    assert too_long.is_error and "at most 31 days" in too_long.text
    assert run(SetTimer(book), duration="0 seconds").is_error
    assert run(SetReminder(book), message="x", time="2020-01-01 10:00").text == "Error: that time has already passed"
    assert "at most a year" in run(SetReminder(book), message="x", time="2030-01-01").text
    assert run(SetReminder(book), message="  ", time="in 5 minutes").is_error
    for _ in range(MAX_ACTIVE):
        book.add_timer(60)
    full = run(SetTimer(book), duration="1 minute")
    assert full.is_error and f"already {MAX_ACTIVE}" in full.text
    assert len(book_at(tmp_path, Now()).active()) == MAX_ACTIVE


def test_the_book_is_thread_safe(tmp_path: Path) -> None:
    book = book_at(tmp_path, Now())

    def add() -> None:
        for _ in range(10):
            book.add_timer(60)

    threads = [threading.Thread(target=add) for _ in range(5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    ids = [t.id for t in book.active()]
    assert sorted(ids) == list(range(1, 51))
    assert [t.id for t in book_at(tmp_path, Now()).active()] == ids


def write(folder: Path, document: Any) -> Path:
    path = folder / FILE_NAME
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


GOOD = {"id": 1, "kind": "timer", "due": START + 600, "created": START, "label": "pasta", "seconds": 600}


@pytest.mark.parametrize(
    "bad",
    [
        "not an object",
        {"id": "1", "kind": "timer", "due": START, "created": START, "seconds": 60},
        {"id": True, "kind": "timer", "due": START, "created": START, "seconds": 60},
        {"id": 2, "kind": "alarm", "due": START, "created": START, "seconds": 60},
        {"id": 2, "kind": "timer", "due": "soon", "created": START, "seconds": 60},
        {"id": 2, "kind": "timer", "due": 1e300, "created": START, "seconds": 60},
        {"id": 2, "kind": "timer", "due": START, "created": START, "seconds": 10**12},
        {"id": 2, "kind": "timer", "due": START, "created": START, "seconds": 60, "label": ["x"]},
        {"id": 2, "kind": "timer", "due": START, "created": START, "seconds": 60, "label": "x" * 10_000},
        {"id": 2, "kind": "reminder", "due": START, "created": START, "label": ""},
        {"id": 1, "kind": "timer", "due": START, "created": START, "seconds": 60},  # a second #1
    ],
)
def test_malformed_entries_are_dropped_and_the_rest_kept(tmp_path: Path, bad: Any) -> None:
    write(tmp_path, {"version": 1, "timers": [GOOD, bad]})
    book = book_at(tmp_path, Now())
    assert [t.label for t in book.active()] == ["pasta"]
    assert book.problem == ""


@pytest.mark.parametrize(
    "content",
    [
        b"{",
        b"[]",
        b'{"timers": {"1": 2}}',
        b"\xff\xfe not utf-8",
        b"[" * 100_000,
        b'{"timers": [{"id": 1' + b"0" * 5000 + b"}]}",
        b'{"timers": []}' + b" " * (512 * 1024),
    ],
)
def test_a_hostile_file_is_refused_and_replaced_by_the_next_change(tmp_path: Path, content: bytes) -> None:
    (tmp_path / FILE_NAME).write_bytes(content)
    book = book_at(tmp_path, Now())
    assert book.active() == []
    assert book.add_timer(60).id == 1
    assert [t.seconds for t in book_at(tmp_path, Now()).active()] == [60]


def test_many_entries_keep_only_the_first_to_ring(tmp_path: Path) -> None:
    entries = [{**GOOD, "id": i, "due": START + 1000 - i} for i in range(1, 3 * MAX_ACTIVE)]
    write(tmp_path, {"timers": entries})
    book = book_at(tmp_path, Now())
    assert len(book.active()) == MAX_ACTIVE
    assert book.active()[0].id == 3 * MAX_ACTIVE - 1


def test_a_fifo_is_refused_without_waiting(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / FILE_NAME)
    start = time.monotonic()
    book = book_at(tmp_path, Now())
    assert time.monotonic() - start < 2
    assert book.active() == []
    assert "FIFO" in book.problem


def test_a_book_that_cannot_be_saved_keeps_working_and_says_so(tmp_path: Path) -> None:
    blocker = tmp_path / "not a folder"
    blocker.write_text("a file where the data folder should be", encoding="utf-8")
    book = book_at(blocker, Now())
    result = run(SetTimer(book), duration="1 minute")
    assert not result.is_error
    assert "will not survive a restart" in result.text
    assert [t.seconds for t in book.active()] == [60]


def test_a_failing_listener_does_not_stop_the_change(tmp_path: Path) -> None:
    book = book_at(tmp_path, Now())
    heard: list[str] = []

    def broken() -> None:
        raise RuntimeError("a bug in a listener")

    book.subscribe(broken)
    stop = book.subscribe(lambda: heard.append("changed"))
    book.add_timer(60)
    stop()
    book.add_timer(60)
    assert heard == ["changed"]
    assert len(book.active()) == 2
