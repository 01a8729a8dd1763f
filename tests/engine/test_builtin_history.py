"""``search_history`` on real databases, written by the app's own ``Store`` and
``DictationHistory``: words found whatever their case and accents, the newest first, within a
window of time, while the app has the files open; missing, damaged and hostile files said
plainly, never waited on."""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timezone
from pathlib import Path

import pytest

from parley.app.conversations import dictation_history, store
from parley.app.conversations.dictation_history import DictationHistory
from parley.app.conversations.dictation_record import DictationRecord
from parley.app.conversations.store import Store
from parley.engine.errors import Cancelled
from parley.engine.tools.builtin import history
from parley.engine.tools.builtin.history import HistorySearch, parse_window, search_words
from parley.engine.tools.tool import ToolResult

DAY = 86400.0


class NeverCancelled:
    cancelled = False


class Cancelling:
    cancelled = True


@dataclass
class Files:
    folder: Path
    conversations: Path
    dictations: Path
    written: float  # when the conversations' messages were written (the store's clock: now)

    def tool(self, now: float) -> HistorySearch:
        return HistorySearch(self.conversations, self.dictations, clock=lambda: now, zone=timezone.utc)

    def search(self, now: float, words: str, when: str = "") -> ToolResult:
        arguments = {"words": words, "when": when} if when else {"words": words}
        return self.tool(now).run(arguments, NeverCancelled())


def test_the_file_names_are_the_apps() -> None:
    assert history.CONVERSATIONS_FILE == store.DATABASE_FILE
    assert history.DICTATIONS_FILE == dictation_history.HISTORY_FILE


@pytest.fixture
def files(tmp_path: Path) -> Iterator[Files]:
    """Two conversations and three dictations, written by the app's classes, which stay open
    (as in the running app) while the tests search."""
    conversations = tmp_path / store.DATABASE_FILE
    dictations = tmp_path / dictation_history.HISTORY_FILE
    written = time.time()
    the_store = Store(conversations)
    dentist = the_store.create_conversation("Booking appointments")
    the_store.add_message(dentist.id, "system", "You are helpful. Dentist dentist dentist.")
    the_store.add_message(dentist.id, "user", "Remind me what I said about the DENTIST appointment on Friday")
    the_store.add_message(dentist.id, "assistant", "You said the dentist moved it to 10:30 in Zürich.")
    recipes = the_store.create_conversation("Recipes")
    the_store.add_message(recipes.id, "user", "How long do I boil pasta? 100% durum wheat")
    the_dictations = DictationHistory(dictations)
    for days_ago, text, application in (
        (3, "Dear Ana, the dentist confirmed Friday.", "Thunderbird"),
        (10, "Note: call the Dentist about the bill", ""),
        (2, "Shopping list: pasta, eggs, crème fraîche", "Firefox"),
    ):
        the_dictations.add(DictationRecord(written - days_ago * DAY, text, text, application))
    yield Files(tmp_path, conversations, dictations, written)
    the_store.close()
    the_dictations.close()


def test_words_are_found_in_both_newest_first(files: Files) -> None:
    result = files.search(files.written + DAY, "dentist")
    assert not result.is_error, result.text
    lines = result.text.splitlines()
    assert lines[0] == '3 matches for "dentist", newest first:'
    assert lines[1].startswith("1. Yesterday at ") and ', conversation "Booking appointments" (Parley): ' in lines[1]
    assert "the dentist moved it to 10:30" in lines[1]
    assert "dictation into Thunderbird" in lines[2] and "the dentist confirmed Friday" in lines[2]
    assert "dictation:" in lines[3] and "call the Dentist about the bill" in lines[3]
    assert "You are helpful" not in result.text  # the system prompt is not the user's
    assert result.summary == 'Found 3 for "dentist"'


def test_a_window_of_time_narrows_the_search(files: Files) -> None:
    now = files.written + DAY
    yesterday = files.search(now, "dentist", "yesterday")
    assert yesterday.text.startswith('1 match for "dentist" yesterday, newest first:')
    assert "Booking appointments" in yesterday.text
    week = files.search(now, "dentist", "last week")
    assert week.text.startswith('2 matches for "dentist" in the last 7 days')
    assert "Thunderbird" in week.text and "bill" not in week.text
    today = files.search(now, "dentist", "today")
    assert today.text == 'Nothing found for "dentist" today in your conversations and your dictations.'
    assert not today.is_error


def test_case_accents_and_several_words(files: Files) -> None:
    now = files.written
    both = files.search(now, "ZURICH dentist")
    assert both.text.startswith('1 match for "zurich dentist"')
    french = files.search(now, "creme fraiche")
    assert "Shopping list: pasta, eggs, crème fraîche" in french.text
    pasta = files.search(now, "pasta")
    assert pasta.text.startswith('2 matches for "pasta"')


def test_sql_wildcards_are_plain_characters(files: Files) -> None:
    percent = files.search(files.written, "100%")
    assert percent.text.startswith('1 match for "100"')
    assert "durum wheat" in percent.text
    assert files.search(files.written, "%").text == "Error: '%' has no words to search for"


def test_saying_dictation_or_conversation_narrows_the_source(files: Files) -> None:
    dictated = files.search(files.written, "what did I dictate about the dentist")
    assert dictated.text.startswith('2 matches for "dentist"')
    assert "conversation" not in dictated.text
    said = files.search(files.written, "dentist conversation")
    assert said.text.startswith('1 match for "dentist"')
    recent = files.search(files.written, "dictations", "3 days")
    assert recent.text.startswith("2 matches in the last 3 days")


def test_the_search_also_works_once_the_app_closed_the_files(tmp_path: Path) -> None:
    conversations = tmp_path / store.DATABASE_FILE
    the_store = Store(conversations)
    chat = the_store.create_conversation("Holidays")
    the_store.add_message(chat.id, "user", "Book the train to Lyon")
    the_store.close()
    assert not Path(f"{conversations}-wal").exists()  # closed: the write-ahead log was folded in
    result = HistorySearch(conversations, tmp_path / "none.sqlite3").run({"words": "lyon"}, NeverCancelled())
    assert result.text.startswith('1 match for "lyon"')
    assert conversations.stat().st_size > 0


def test_missing_files_mean_nothing_saved_yet(tmp_path: Path) -> None:
    result = HistorySearch(tmp_path / "a.sqlite3", tmp_path / "b.sqlite3").run({"words": "x"}, NeverCancelled())
    assert not result.is_error
    assert result.text == "There are no saved conversations or dictations to search yet."
    assert not (tmp_path / "a.sqlite3").exists()  # a search creates nothing


def test_a_damaged_file_is_an_error_and_the_other_still_searched(files: Files, tmp_path: Path) -> None:
    damaged = tmp_path / "damaged.sqlite3"
    damaged.write_bytes(b"this is not a database" * 100)
    one = HistorySearch(files.conversations, damaged).run({"words": "dentist"}, NeverCancelled())
    assert not one.is_error
    assert one.text.startswith('1 match for "dentist"')
    assert "Note: the dictations cannot be searched: the file is damaged" in one.text
    both = HistorySearch(damaged, damaged).run({"words": "dentist"}, NeverCancelled())
    assert both.is_error
    assert "the conversations cannot be searched" in both.text


def test_a_fifo_is_refused_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "conversations.sqlite3"
    os.mkfifo(fifo)
    start = time.monotonic()
    result = HistorySearch(fifo, tmp_path / "none.sqlite3").run({"words": "x"}, NeverCancelled())
    assert time.monotonic() - start < 2
    assert result.is_error and "not a regular file (a FIFO)" in result.text


def test_a_database_of_another_shape_is_an_error(tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE dictations (id INTEGER PRIMARY KEY, words TEXT)")
    db.close()
    result = HistorySearch(tmp_path / "none.sqlite3", other).run({"words": "x"}, NeverCancelled())
    assert result.is_error and "no such column" in result.text


class CancelledOnSecondLook:
    """Not cancelled when the search starts; cancelled when SQLite's progress handler looks."""

    def __init__(self) -> None:
        self.looks = 0

    @property
    def cancelled(self) -> bool:
        self.looks += 1
        return self.looks > 1


def test_a_cancelled_search_stops(files: Files, tmp_path: Path) -> None:
    with pytest.raises(Cancelled):
        files.tool(files.written).run({"words": "dentist"}, Cancelling())
    many = tmp_path / "many.sqlite3"
    the_store = Store(many)
    chat = the_store.create_conversation("Long")
    for n in range(200):
        the_store.add_message(chat.id, "user", f"message {n} about nothing in particular")
    the_store.close()
    flag = CancelledOnSecondLook()
    with pytest.raises(Cancelled):
        HistorySearch(many, tmp_path / "none.sqlite3").run({"words": "dentist"}, flag)
    assert flag.looks >= 2


def test_windows_and_words_as_the_model_writes_them() -> None:
    now = 1765285500.0  # Tuesday 9 December 2025, 13:05 UTC
    today = parse_window("today", now, timezone.utc)
    assert (today.start, today.end) == (1765238400.0, 1765238400.0 + DAY)
    assert parse_window("yesterday", now, timezone.utc).start == 1765238400.0 - DAY
    assert parse_window("in the last 3 days", now, timezone.utc).start == 1765238400.0 - 3 * DAY
    assert parse_window("7", now, timezone.utc).start == 1765238400.0 - 7 * DAY
    assert parse_window("monday", now, timezone.utc).start == 1765238400.0 - DAY
    assert parse_window("2025-12-01", now, timezone.utc).start == 1764547200.0
    assert parse_window("any time", now, timezone.utc).start is None
    # A time the model made up widens the search to any time rather than failing it.
    made_up = HistorySearch(Path("a"), Path("b")).run({"words": "x", "when": "when pigs fly"}, NeverCancelled())
    assert not made_up.is_error and made_up.text == "There are no saved conversations or dictations to search yet."
    assert search_words("What did I say about the dentist's bill?") == (
        ["dentist", "bill"],
        {"conversations", "dictations"},
    )
    # Words are looked for without their endings: "packing" finds "what should I pack?".
    assert search_words("packing for Lisbon")[0] == ["pack", "lisbon"]
    assert search_words("birthdays notes")[0] == ["birthday", "note"]
