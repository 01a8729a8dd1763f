"""Conversations and their messages in one SQLite file in the user's data folder.

Used from the UI thread only: every write is one small transaction, and SQLite's own
``check_same_thread`` guard stays on.  Any SQLite failure surfaces as ``StoreError`` with a
sentence for the user (disk full, read-only database); the caller keeps the conversation in
memory and tries again later, so nothing the user sees is lost because a save failed.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import platformdirs

DATABASE_FILE = "conversations.sqlite3"
ROLES = ("system", "user", "assistant")
_SCHEMA_VERSION = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS conversations (
    id      INTEGER PRIMARY KEY,
    title   TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS messages (
    id              INTEGER PRIMARY KEY,
    conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    role            TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant')),
    content         TEXT NOT NULL,
    created         REAL NOT NULL,
    complete        INTEGER NOT NULL DEFAULT 1,
    stats           TEXT
);
CREATE INDEX IF NOT EXISTS messages_by_conversation ON messages (conversation_id, id);
CREATE INDEX IF NOT EXISTS conversations_by_update ON conversations (updated DESC);
"""


class StoreError(Exception):
    """A conversation could not be read or written; the message is meant for the user."""


def data_dir() -> Path:
    """Folder of the database; ``PARLEY_DATA_DIR`` overrides it (tests, portable use)."""
    override = os.environ.get("PARLEY_DATA_DIR")
    return Path(override) if override else Path(platformdirs.user_data_dir("parley", appauthor=False))


@dataclass(frozen=True)
class Conversation:
    id: int
    title: str
    created: float   # seconds since the epoch
    updated: float


@dataclass(frozen=True)
class StoredMessage:
    id: int
    conversation_id: int
    role: str
    content: str
    created: float
    complete: bool              # False: a reply stopped (by the user or on close) before its end
    stats: dict[str, Any] | None


@dataclass(frozen=True)
class LoadedConversation:
    conversation: Conversation
    messages: list[StoredMessage]


def _explain(action: str, exc: sqlite3.Error, path: str) -> str:
    name = getattr(exc, "sqlite_errorname", "")
    text = str(exc).lower()
    if name == "SQLITE_FULL" or "disk is full" in text:
        return f"Could not {action}: the disk is full."
    if name.startswith("SQLITE_READONLY") or "readonly database" in text:
        return f"Could not {action}: the conversation database is read-only ({path})."
    return f"Could not {action}: {exc}."


class Store:
    def __init__(self, path: Path | str) -> None:
        self.path = str(path)
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(self.path)
            self._conn.row_factory = sqlite3.Row
            self._conn.execute("PRAGMA foreign_keys = ON")
            self._conn.execute("PRAGMA journal_mode = WAL")
            self._conn.execute("PRAGMA synchronous = NORMAL")   # durable enough in WAL mode
            with self._conn:
                self._conn.executescript(_SCHEMA)
                self._conn.execute(f"PRAGMA user_version = {_SCHEMA_VERSION}")
        except (OSError, sqlite3.Error) as exc:
            message = _explain("open the conversations", exc, self.path) if isinstance(exc, sqlite3.Error) \
                else f"Could not open the conversations: {exc}."
            raise StoreError(message) from exc

    @classmethod
    def open_default(cls) -> Store:
        return cls(data_dir() / DATABASE_FILE)

    @property
    def journal_mode(self) -> str:
        return self._conn.execute("PRAGMA journal_mode").fetchone()[0]

    def close(self) -> None:
        self._conn.close()

    @contextmanager
    def _writing(self, action: str) -> Iterator[sqlite3.Connection]:
        try:
            with self._conn:       # one transaction: committed, or rolled back on error
                yield self._conn
        except sqlite3.Error as exc:
            raise StoreError(_explain(action, exc, self.path)) from exc

    def _reading(self, sql: str, params: tuple | dict = ()) -> list[sqlite3.Row]:
        try:
            return self._conn.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(_explain("read the conversations", exc, self.path)) from exc

    # ------------------------------------------------------------------ conversations

    def create_conversation(self, title: str) -> Conversation:
        now = time.time()
        with self._writing("create the conversation") as db:
            cursor = db.execute("INSERT INTO conversations (title, created, updated) VALUES (?, ?, ?)",
                                (title, now, now))
        return Conversation(cursor.lastrowid, title, now, now)

    def rename_conversation(self, conversation_id: int, title: str) -> None:
        with self._writing("rename the conversation") as db:
            db.execute("UPDATE conversations SET title = ? WHERE id = ?", (title, conversation_id))

    def delete_conversation(self, conversation_id: int) -> None:
        with self._writing("delete the conversation") as db:
            db.execute("DELETE FROM conversations WHERE id = ?", (conversation_id,))

    def list_conversations(self) -> list[Conversation]:
        """Most recently updated first."""
        rows = self._reading("SELECT * FROM conversations ORDER BY updated DESC, id DESC")
        return [Conversation(r["id"], r["title"], r["created"], r["updated"]) for r in rows]

    def search(self, text: str) -> list[Conversation]:
        """Conversations whose title or any message contains ``text`` (case-insensitive for ASCII)."""
        if not text.strip():
            return self.list_conversations()
        pattern = "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        rows = self._reading(
            """SELECT * FROM conversations AS c
               WHERE c.title LIKE :p ESCAPE '\\'
                  OR EXISTS (SELECT 1 FROM messages AS m
                             WHERE m.conversation_id = c.id AND m.content LIKE :p ESCAPE '\\')
               ORDER BY c.updated DESC, c.id DESC""", {"p": pattern})
        return [Conversation(r["id"], r["title"], r["created"], r["updated"]) for r in rows]

    def load_conversation(self, conversation_id: int) -> LoadedConversation:
        rows = self._reading("SELECT * FROM conversations WHERE id = ?", (conversation_id,))
        if not rows:
            raise StoreError(f"The conversation {conversation_id} no longer exists.")
        r = rows[0]
        messages = [
            StoredMessage(m["id"], m["conversation_id"], m["role"], m["content"], m["created"],
                          bool(m["complete"]), json.loads(m["stats"]) if m["stats"] else None)
            for m in self._reading("SELECT * FROM messages WHERE conversation_id = ? ORDER BY id",
                                   (conversation_id,))
        ]
        return LoadedConversation(Conversation(r["id"], r["title"], r["created"], r["updated"]), messages)

    # ------------------------------------------------------------------ messages

    def add_message(self, conversation_id: int, role: str, content: str, *,
                    stats: dict[str, Any] | None = None, complete: bool = True) -> int:
        """Append a finished message; returns its id."""
        if role not in ROLES:
            raise ValueError(f"unknown role {role!r}")
        now = time.time()
        with self._writing("save the message") as db:
            cursor = db.execute(
                "INSERT INTO messages (conversation_id, role, content, created, complete, stats)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (conversation_id, role, content, now, int(complete), _json_or_none(stats)))
            db.execute("UPDATE conversations SET updated = ? WHERE id = ?", (now, conversation_id))
        return cursor.lastrowid

    def save_partial_reply(self, conversation_id: int, content: str,
                           stats: dict[str, Any] | None = None) -> int:
        """Keep an assistant reply that was stopped midway, marked incomplete."""
        return self.add_message(conversation_id, "assistant", content, stats=stats, complete=False)

    def update_message(self, message_id: int, content: str, *, complete: bool,
                       stats: dict[str, Any] | None = None) -> None:
        """Replace a message's text in place (a regenerated reply)."""
        now = time.time()
        with self._writing("save the message") as db:
            db.execute("UPDATE messages SET content = ?, complete = ?, stats = ?, created = ? WHERE id = ?",
                       (content, int(complete), _json_or_none(stats), now, message_id))
            db.execute("UPDATE conversations SET updated = ? WHERE id ="
                       " (SELECT conversation_id FROM messages WHERE id = ?)", (now, message_id))

    # ------------------------------------------------------------------ export

    def export_markdown(self, conversation_id: int, path: Path | str) -> None:
        loaded = self.load_conversation(conversation_id)
        lines = [f"# {loaded.conversation.title}", "",
                 f"*Started {_when(loaded.conversation.created)}; exported from Parley.*", ""]
        for m in loaded.messages:
            who = {"user": "You", "assistant": "Assistant", "system": "System"}[m.role]
            lines += [f"### {who} · {_when(m.created)}", "", m.content.rstrip(), ""]
            if not m.complete:
                lines += ["*(stopped before the end of the reply)*", ""]
        _write_text(path, "\n".join(lines))

    def export_json(self, conversation_id: int, path: Path | str) -> None:
        loaded = self.load_conversation(conversation_id)
        c = loaded.conversation
        document = {
            "title": c.title, "created": _iso(c.created), "updated": _iso(c.updated),
            "messages": [{"role": m.role, "content": m.content, "created": _iso(m.created),
                          "complete": m.complete, "stats": m.stats} for m in loaded.messages],
        }
        _write_text(path, json.dumps(document, indent=2, ensure_ascii=False) + "\n")


def _json_or_none(stats: dict[str, Any] | None) -> str | None:
    return json.dumps(stats) if stats is not None else None


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds).astimezone().isoformat(timespec="seconds")


def _when(seconds: float) -> str:
    return datetime.fromtimestamp(seconds).strftime("%Y-%m-%d %H:%M")


def _write_text(path: Path | str, text: str) -> None:
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise StoreError(f"Could not export to {path}: {exc.strerror or exc}.") from exc
