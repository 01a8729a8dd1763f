"""The dictation history's SQLite file, ``dictations.sqlite3`` beside the conversations'.

A file of its own, not a table in the conversations' file, so that:

- the conversations' schema version does not change: an older Parley still writes them (a
  newer version makes an older Parley open its file read-only);
- a damaged, full or read-only history never makes the conversations read-only, nor the other
  way round; and ``Clear all`` leaves the conversations' file alone;
- deleting what was dictated really deletes it: ``secure_delete`` overwrites the freed pages and
  the write-ahead log is emptied after ``clear`` and ``forget_older_than``.

The same crash safety as the conversations (``database.Database``): one writer, one transaction
per write, read-only with the reason when it must be, a damaged file moved aside.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import replace
from typing import ClassVar

from parley.config.paths import data_dir

from .database import Database, StoreError, Words, new_row_id
from .dictation_record import DictationRecord

HISTORY_FILE = "dictations.sqlite3"
MAX_KEPT = 500  # the most dictations kept, whatever their age; the oldest go first
_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS dictations (
        id          INTEGER PRIMARY KEY,
        created     REAL NOT NULL,
        raw         TEXT NOT NULL,
        typed       TEXT NOT NULL,
        application TEXT NOT NULL DEFAULT '',
        note        TEXT NOT NULL DEFAULT ''
    )""",
    "CREATE INDEX IF NOT EXISTS dictations_by_time ON dictations (created DESC)",
)


class DictationHistory(Database):
    SCHEMA = _SCHEMA
    SCHEMA_VERSION = 1
    WORDS: ClassVar[Words] = Words("dictations", "dictation database")

    @classmethod
    def open_default(cls) -> DictationHistory:
        return cls(data_dir() / HISTORY_FILE)

    def _opened(self, db: sqlite3.Connection) -> None:
        db.execute("PRAGMA secure_delete = ON")  # a deleted dictation leaves no text in the file
        # A write, even one that changes nothing, is what shows SQLite that the file is read-only
        # (or the disk full): the history then opens read-only and says why (``Database``).
        db.execute("DELETE FROM dictations WHERE id < 0")

    def add(self, record: DictationRecord) -> DictationRecord:
        """Save ``record``; returns it with its id.  ``StoreError`` when it cannot be saved."""
        with self._writing("save the dictation") as db:
            cursor = db.execute(
                "INSERT INTO dictations (created, raw, typed, application, note) VALUES (?, ?, ?, ?, ?)",
                (record.when, record.raw, record.typed, record.application, record.note),
            )
            db.execute(
                "DELETE FROM dictations WHERE id NOT IN (SELECT id FROM dictations ORDER BY created DESC, id DESC"
                " LIMIT ?)",
                (MAX_KEPT,),
            )
        return replace(record, id=new_row_id(cursor))

    def recent(self, limit: int = MAX_KEPT) -> list[DictationRecord]:
        """The saved dictations, newest first."""
        rows = self._reading("SELECT * FROM dictations ORDER BY created DESC, id DESC LIMIT ?", (limit,))
        return [
            DictationRecord(r["created"], r["raw"], r["typed"], r["application"], r["note"], id=r["id"]) for r in rows
        ]

    def forget_older_than(self, days: float, now: float | None = None) -> int:
        """Delete the dictations older than ``days`` (0: all of them); how many went."""
        cutoff = (time.time() if now is None else now) - days * 86400
        with self._writing("forget the old dictations") as db:
            gone = db.execute("DELETE FROM dictations WHERE created < ? OR ? <= 0", (cutoff, days)).rowcount
        if gone:
            self._empty_log()
        return gone

    def clear(self) -> None:
        """Delete every dictation (their text is overwritten, not only unlinked)."""
        with self._writing("clear the dictation history") as db:
            db.execute("DELETE FROM dictations")
        self._empty_log()

    def _empty_log(self) -> None:
        """Copy the write-ahead log into the file and truncate it, so that no copy of a deleted
        dictation stays there (a reader holding an old snapshot only delays this)."""
        try:
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error as exc:
            raise StoreError(f"Could not clear the dictation history: {exc}.") from exc
