"""``search_history``: a search of the user's own conversations and dictations, read-only.

It reads the SQLite files the app writes (``conversations.sqlite3``: conversations and their
messages; ``dictations.sqlite3``: what was dictated; schemas in ``parley.app.conversations.store``
and ``dictation_history``, which the engine does not import: their names are repeated here and a
test checks them).  Each file is opened read-only (``mode=ro``; a file that is not a regular file,
or has companions that are not, is refused before SQLite sees it), so a search never changes or
locks what the app writes, and works while the app has them open.

Every word must occur (case, accents and SQL wildcards do not matter: the words are compared with
``instr`` on text folded by a function of ours, not with ``LIKE``), within an optional window of
time ("yesterday", "last week", "3 days"); the most recent ``MAX_HITS`` come back, a conversation
once, each with its date, where it came from and a snippet around the first word.  A search is
bounded in time (``MAX_SECONDS``) and stops when cancelled.
"""

from __future__ import annotations

import dataclasses
import os
import re
import sqlite3
import stat
import time
from collections.abc import Callable, Mapping
from datetime import date, datetime, timedelta, tzinfo
from pathlib import Path
from typing import Any

from ....config.paths import data_dir
from ...backend.cancel import CancelFlag
from ...errors import Cancelled, UntrustedFileError
from ...untrusted import open_regular
from ..tool import ToolResult, ToolSpec
from .cues import Cued
from .wording import MONTHS, WEEKDAYS, clock, day_words, fold, fold_keep, quoted

CONVERSATIONS_FILE = "conversations.sqlite3"  # parley.app.conversations.store.DATABASE_FILE
DICTATIONS_FILE = "dictations.sqlite3"  # parley.app.conversations.dictation_history.HISTORY_FILE
MAX_HITS = 5
MAX_WORDS = 8
MAX_QUERY_CHARS = 200
MAX_ROWS = 500  # matching messages looked at to find MAX_HITS conversations
SNIPPET_CHARS = 160
MAX_SECONDS = 5.0
PROGRESS_STEPS = 1000  # SQLite's steps between two looks at the cancel flag and the clock
_COMPANIONS = ("-wal", "-shm", "-journal")
_IGNORED = {
    "a", "an", "the", "about", "what", "did", "do", "i", "my", "me", "we", "our", "you", "say", "said", "when",
    "on", "in", "of", "to", "for", "and", "or", "that", "it", "is", "was", "were", "with", "anything", "something",
    "find", "search", "look", "up", "mention", "mentioned", "where", "which", "any",
}  # fmt: skip
_CONVERSATION_WORDS = {"conversation", "conversations", "chat", "chats", "talk", "talked", "discussed", "discussion"}
_DICTATION_WORDS = {"dictation", "dictations", "dictated", "dictate", "typed"}
_ANY_TIME = {"", "any", "anytime", "any time", "ever", "all", "all time", "always", "whenever", "forever"}


class SearchError(Exception):
    """A search that cannot run as asked, in words for the model."""


@dataclasses.dataclass(frozen=True)
class Window:
    start: float | None  # seconds since the epoch, inclusive
    end: float | None  # exclusive
    words: str  # " yesterday", " in the last 7 days", "" for any time


@dataclasses.dataclass(frozen=True)
class Hit:
    when: float
    source: str  # 'conversation "Booking the dentist"', "dictation into Firefox"
    who: str  # "you", "Parley", ""
    text: str  # the message or dictation


# ------------------------------------------------------------------------------ time windows


def _midnight(day: date, zone: tzinfo | None) -> float:
    naive = datetime.combine(day, datetime.min.time())
    return (naive.astimezone() if zone is None else naive.replace(tzinfo=zone)).timestamp()


def parse_window(text: str, now: float, zone: tzinfo | None = None) -> Window:
    """The span of time ``text`` names ("today", "yesterday", "last week", "3 days", "this
    month", "Monday", "2025-12-01"); SearchError when it names none."""
    key = fold(text)
    for prefix in ("in the ", "during the ", "from ", "since ", "in ", "on "):
        if key.startswith(prefix):
            key = key[len(prefix) :]
    if key in _ANY_TIME:
        return Window(None, None, "")
    today = (datetime.fromtimestamp(now, zone) if zone else datetime.fromtimestamp(now)).date()

    def day(d: date, words: str) -> Window:
        return Window(_midnight(d, zone), _midnight(d + timedelta(days=1), zone), words)

    def since(d: date, words: str) -> Window:
        return Window(_midnight(d, zone), None, words)

    if key in ("today", "this morning", "this afternoon", "this evening", "tonight"):
        return day(today, " today")
    if key in ("yesterday", "last night", "yesterday evening", "yesterday morning"):
        return day(today - timedelta(days=1), " yesterday")
    if key == "this week":
        return since(today - timedelta(days=today.weekday()), " this week")
    if key == "this month":
        return since(today.replace(day=1), " this month")
    if key == "this year":
        return since(today.replace(month=1, day=1), " this year")
    spans = {"week": 7, "month": 30, "year": 365, "fortnight": 14}
    if match := re.fullmatch(r"(?:last|past|previous) (week|month|year|fortnight)", key):
        days = spans[match[1]]
        return since(today - timedelta(days=days), f" in the last {days} days")
    numbers = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "ten": 10}
    if match := re.fullmatch(r"(?:(?:last|past|previous) )?(\d{1,4}|[a-z]+) (day|week|month|year)s?( ago)?", key):
        count = int(match[1]) if match[1].isdigit() else numbers.get(match[1])
        if count is not None:
            days = count * {"day": 1, "week": 7, "month": 30, "year": 365}[match[2]]
            if match[3] and match[2] == "day":
                return day(today - timedelta(days=days), f" {count} day{'s' if count != 1 else ''} ago")
            return since(today - timedelta(days=days), f" in the last {days} days")
    if re.fullmatch(r"\d{1,4}", key):
        days = int(key)
        return since(today - timedelta(days=days), f" in the last {days} days")
    weekdays = {name.lower(): i for i, name in enumerate(WEEKDAYS)}
    if (name := key.removeprefix("last ")) in weekdays:
        back = (today.weekday() - weekdays[name]) % 7 or 7
        d = today - timedelta(days=back)
        return day(d, f" on {WEEKDAYS[d.weekday()]} {d.day} {MONTHS[d.month - 1]}")
    if match := re.fullmatch(r"(\d{4}) (\d{1,2}) (\d{1,2})", key):
        try:
            d = date(int(match[1]), int(match[2]), int(match[3]))
        except ValueError:
            raise SearchError(f"{text!r} is not a real date") from None
        return day(d, f" on {d.day} {MONTHS[d.month - 1]} {d.year}")
    raise SearchError(
        f'cannot read {text[:60]!r} as a time; use "today", "yesterday", "last week", "3 days" or leave it out'
    )


# ------------------------------------------------------------------------------ the words


def search_words(text: str) -> tuple[list[str], set[str]]:
    """The words to find (folded, at most MAX_WORDS) and the sources to look in ("conversations",
    "dictations"), narrowed when the words name one ("what did I dictate about ...")."""
    words = fold(text[:MAX_QUERY_CHARS]).split()
    sources = {"conversations", "dictations"}
    if any(w in _DICTATION_WORDS for w in words) and not any(w in _CONVERSATION_WORDS for w in words):
        sources = {"dictations"}
    elif any(w in _CONVERSATION_WORDS for w in words) and not any(w in _DICTATION_WORDS for w in words):
        sources = {"conversations"}
    kept = [w for w in words if w not in _IGNORED and w not in _CONVERSATION_WORDS and w not in _DICTATION_WORDS]
    if len(kept) > 1:
        kept = [w for w in kept if len(w) > 1] or kept[:1]
    unique = list(dict.fromkeys(_stem(w[:50]) for w in kept))
    return unique[:MAX_WORDS], sources


_ENDINGS = ("ing", "ed", "es", "s")


def _stem(word: str) -> str:
    """A word without its ending, so that it is found in its other forms ("packing" finds "pack",
    "birthdays" "birthday"): each word is looked for as a part of the text."""
    for ending in _ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 4:
            return word[: -len(ending)]
    return word


def _fold_sql(value: object) -> str:
    return fold_keep(value) if isinstance(value, str) else ""


# ------------------------------------------------------------------------------ the files


def _check_files(path: Path) -> None:
    """Refuse what SQLite must not open: not a regular file (a FIFO blocks it), companions that
    are links or not files."""
    os.close(open_regular(path))
    real = os.path.realpath(path)
    for suffix in _COMPANIONS:
        try:
            mode = os.lstat(real + suffix).st_mode
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise UntrustedFileError(f"{real + suffix}: {exc.strerror or exc}") from None
        if not stat.S_ISREG(mode):
            raise UntrustedFileError(f"{real + suffix} is not SQLite's own file")


def _connect(path: Path, cancel: CancelFlag) -> sqlite3.Connection:
    uri = path.absolute().as_uri()
    try:
        conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=2.0)
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except sqlite3.OperationalError:
        if os.path.lexists(f"{os.path.realpath(path)}-shm"):
            raise
        # No shared-memory file and none can be made (a read-only folder): nobody has the
        # database open in WAL mode, so it can be read as it is.
        conn = sqlite3.connect(f"{uri}?immutable=1", uri=True, timeout=2.0)
    deadline = time.monotonic() + MAX_SECONDS
    conn.create_function("parley_fold", 1, _fold_sql, deterministic=True)
    conn.set_progress_handler(lambda: int(cancel.cancelled or time.monotonic() > deadline), PROGRESS_STEPS)
    conn.execute("PRAGMA query_only = ON")
    return conn


def _query(path: Path, sql: str, params: list[object], cancel: CancelFlag, what: str) -> list[tuple[Any, ...]] | None:
    """The rows of ``sql`` in the database at ``path``; None when it does not exist (or holds
    no such table yet); SearchError for a file that cannot be read."""
    if not os.path.lexists(path):
        return None
    try:
        _check_files(path)
        conn = _connect(path, cancel)
    except UntrustedFileError as exc:
        raise SearchError(f"the {what} cannot be searched: {exc}") from None
    except sqlite3.Error as exc:
        raise SearchError(f"the {what} cannot be searched: {_sqlite_problem(exc)}") from None
    try:
        return conn.execute(sql, params).fetchall()
    except sqlite3.Error as exc:
        if cancel.cancelled:
            raise Cancelled("the search was cancelled") from None
        if "no such table" in str(exc):
            return None
        if "interrupted" in str(exc):
            raise SearchError(f"searching the {what} took too long; try fewer days or other words") from None
        raise SearchError(f"the {what} cannot be searched: {_sqlite_problem(exc)}") from None
    finally:
        conn.close()


def _sqlite_problem(exc: sqlite3.Error) -> str:
    text = str(exc)
    if "not a database" in text or "malformed" in text:
        return f"the file is damaged ({text})"
    if "locked" in text or "busy" in text:
        return "the file is busy; try again in a moment"
    return text


def _conditions(columns: str, words: list[str], window: Window, created: str) -> tuple[str, list[object]]:
    clauses: list[str] = []
    params: list[object] = []
    if window.start is not None:
        clauses.append(f"{created} >= ?")
        params.append(window.start)
    if window.end is not None:
        clauses.append(f"{created} < ?")
        params.append(window.end)
    for word in words:
        clauses.append(f"instr(parley_fold({columns}), ?) > 0")
        params.append(word)
    return (" AND ".join(clauses) or "1"), params


def _conversation_hits(path: Path, words: list[str], window: Window, cancel: CancelFlag) -> list[Hit] | None:
    where, params = _conditions("c.title || ' ' || m.content", words, window, "m.created")
    rows = _query(
        path,
        "SELECT m.conversation_id, m.role, m.content, m.created, c.title"
        " FROM messages AS m JOIN conversations AS c ON c.id = m.conversation_id"
        f" WHERE m.role IN ('user', 'assistant') AND {where}"
        " ORDER BY m.created DESC, m.id DESC LIMIT ?",
        [*params, MAX_ROWS],
        cancel,
        "conversations",
    )
    if rows is None:
        return None
    hits: list[Hit] = []
    seen: set[object] = set()
    for conversation_id, role, content, created, title in rows:
        if conversation_id in seen or not isinstance(created, (int, float)):
            continue
        seen.add(conversation_id)
        who = "you" if role == "user" else "Parley"
        hits.append(Hit(float(created), f"conversation {quoted(str(title), 60)}", who, str(content)))
        if len(hits) == MAX_HITS:
            break
    return hits


def _dictation_hits(path: Path, words: list[str], window: Window, cancel: CancelFlag) -> list[Hit] | None:
    where, params = _conditions("typed || ' ' || raw", words, window, "created")
    rows = _query(
        path,
        f"SELECT created, typed, raw, application FROM dictations WHERE {where} ORDER BY created DESC, id DESC LIMIT ?",
        [*params, MAX_HITS],
        cancel,
        "dictations",
    )
    if rows is None:
        return None
    hits = []
    for created, typed, raw, application in rows:
        if not isinstance(created, (int, float)):
            continue
        into = f" into {str(application)[:40]}" if application else ""
        hits.append(Hit(float(created), f"dictation{into}", "", str(typed or raw)))
    return hits


def snippet(text: str, words: list[str]) -> str:
    """About SNIPPET_CHARS of ``text`` on one line around the first of ``words`` it holds."""
    flat = " ".join(text.split())
    folded = flat.casefold()
    positions = [p for p in (folded.find(w) for w in words) if p >= 0]
    at = min(positions) if positions and len(folded) == len(flat) else 0
    start = max(0, at - SNIPPET_CHARS // 3)
    if start:
        space = flat.find(" ", start)
        start = space + 1 if 0 <= space < at else start
    end = min(len(flat), start + SNIPPET_CHARS)
    if end < len(flat):
        space = flat.rfind(" ", start, end)
        end = space if space > at else end
    return f"{'…' if start else ''}{flat[start:end].strip()}{'…' if end < len(flat) else ''}"


_TIME_IN_WORDS = re.compile(
    r"\b(today|yesterday|last night|this (?:morning|week|month|year)|last (?:week|month|year)|"
    r"(?:\d{1,3}|a|one|two|three|four|five|six|seven) (?:days?|weeks?) ago)\b"
)


def _time_words_moved(text: str, window_text: str) -> tuple[str, str]:
    """Words and window with a time written among the words ("dentist yesterday") moved to the
    window when it has none: models put it there."""
    if window_text.strip():
        return text, window_text
    found = _TIME_IN_WORDS.search(fold(text))
    if found is None:
        return text, window_text
    return _TIME_IN_WORDS.sub(" ", fold(text)), found[1]


def search(
    conversations: Path,
    dictations: Path,
    text: str,
    window_text: str,
    *,
    now: float,
    zone: tzinfo | None,
    cancel: CancelFlag,
) -> ToolResult:
    """The tool's work: the newest matches first, or what stopped the search."""
    if cancel.cancelled:
        raise Cancelled("the search was cancelled")
    text, window_text = _time_words_moved(text, window_text)
    try:
        window = parse_window(window_text, now, zone)
    except SearchError:  # a time the model made up ("now"): the search goes over any time
        window = Window(None, None, "")
    words, sources = search_words(text)
    if not words and text.strip() and not fold(text):
        return ToolResult.error(f"{text[:40]!r} has no words to search for")
    hits: list[Hit] = []
    problems: list[str] = []
    found_any_file = False
    for source, path, finder in (
        ("conversations", conversations, _conversation_hits),
        ("dictations", dictations, _dictation_hits),
    ):
        if source not in sources:
            continue
        try:
            found = finder(path, words, window, cancel)
        except SearchError as exc:
            problems.append(str(exc))
            continue
        if found is not None:
            found_any_file = True
            hits += found
    if problems and not found_any_file:
        return ToolResult.error("; ".join(problems))
    where = " and ".join(f"your {s}" for s in sorted(sources))
    looked_for = f" for {quoted(' '.join(words), 60)}" if words else ""
    note = "".join(f" Note: {p}." for p in problems)
    if not found_any_file:
        return ToolResult(
            f"There are no saved {' or '.join(sorted(sources))} to search yet.{note}", "Nothing saved yet"
        )
    hits = sorted(hits, key=lambda h: h.when, reverse=True)[:MAX_HITS]
    if not hits:
        text_out = f"Nothing found{looked_for}{window.words} in {where}.{note}"
        return ToolResult(text_out, f"Nothing found{looked_for}")
    today = (datetime.fromtimestamp(now, zone) if zone else datetime.fromtimestamp(now)).date()
    head = f"{len(hits)} {'match' if len(hits) == 1 else 'matches'}{looked_for}{window.words}, newest first:"
    lines = [head]
    for number, hit in enumerate(hits, 1):
        moment = datetime.fromtimestamp(hit.when, zone) if zone else datetime.fromtimestamp(hit.when)
        day = day_words(moment.date(), today)
        who = f" ({hit.who})" if hit.who else ""
        said = quoted(snippet(hit.text, words), SNIPPET_CHARS + 4)
        lines.append(f"{number}. {day[0].upper()}{day[1:]} at {clock(moment)}, {hit.source}{who}: {said}")
    return ToolResult("\n".join(lines) + note, f"Found {len(hits)}{looked_for}")


class HistorySearch(Cued):
    """The ``search_history`` tool, on the app's two databases (Parley's data folder by
    default)."""

    spec = ToolSpec(
        name="search_history",
        title="Search my conversations and dictations",
        description="Search the user's past conversations and dictations for words.",
        parameters={
            "type": "object",
            "properties": {
                "words": {"type": "string", "description": 'The words to look for, e.g. "dentist appointment".'},
                "when": {
                    "type": "string",
                    "description": 'When, e.g. "today", "yesterday", "last week", "3 days". Leave out for any time.',
                },
            },
            "required": ["words"],
        },
        read_only=True,
    )

    def __init__(
        self,
        conversations: Path | None = None,
        dictations: Path | None = None,
        *,
        clock: Callable[[], float] = time.time,
        zone: tzinfo | None = None,
    ) -> None:
        self.conversations = conversations if conversations is not None else data_dir() / CONVERSATIONS_FILE
        self.dictations = dictations if dictations is not None else data_dir() / DICTATIONS_FILE
        self._clock = clock
        self._zone = zone

    def describe(self, arguments: Mapping[str, Any]) -> str:
        words = str(arguments.get("words") or "").strip()
        return f"search your conversations and dictations for {quoted(words, 60)}" if words else "search your history"

    def run(self, arguments: Mapping[str, Any], cancel: CancelFlag) -> ToolResult:
        return search(
            self.conversations,
            self.dictations,
            str(arguments.get("words") or ""),
            str(arguments.get("when") or ""),
            now=self._clock(),
            zone=self._zone,
            cancel=cancel,
        )
