"""Conversations and their messages in one SQLite file in the user's data folder.

Used from the UI thread only; the file's safety (one writer, read-only when it must be, a
damaged file moved aside, every write one transaction) is ``database.Database``'s.  Any SQLite
failure surfaces as ``StoreError`` with a sentence for the user (disk full, read-only database);
the caller keeps the conversation in memory and tries again later, so nothing the user sees is
lost because a save failed.

Messages are ``parley.app.conversations.conversation.Message`` objects.  A reply being generated is written
with the state ``streaming`` and checkpointed as it grows; opening the store turns any reply
still marked ``streaming`` into ``interrupted``: the process that was writing it is gone.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

from parley.config.paths import data_dir
from parley.engine.formats import ROLES

from .conversation import STATES, Conversation, ConversationSummary, Message
from .database import Database, StoreError, Words, new_row_id

log = logging.getLogger("parley.store")

DATABASE_FILE = "conversations.sqlite3"
# Single statements, run one by one inside one transaction (``executescript`` would commit first).
_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS conversations (
        id      INTEGER PRIMARY KEY,
        title   TEXT NOT NULL,
        created REAL NOT NULL,
        updated REAL NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS messages (
        id              INTEGER PRIMARY KEY,
        conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        role            TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant')),
        content         TEXT NOT NULL,
        created         REAL NOT NULL,
        complete        INTEGER NOT NULL DEFAULT 1,
        stats           TEXT,
        state           TEXT NOT NULL DEFAULT 'complete'
    )""",
    "CREATE INDEX IF NOT EXISTS messages_by_conversation ON messages (conversation_id, id)",
    "CREATE INDEX IF NOT EXISTS conversations_by_update ON conversations (updated DESC)",
)
# The statements that take a database from a version to the next one.
# Version 1 had no ``state``: ``complete`` = 0 meant a stopped reply.  ``complete`` is still
# written (state == 'complete') so that an older Parley can read a newer file.
_MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        "ALTER TABLE messages ADD COLUMN state TEXT NOT NULL DEFAULT 'complete'",
        "UPDATE messages SET state = 'stopped' WHERE complete = 0",
    ),
}


class Store(Database):
    """The conversation database (see ``Database`` for how the file is opened, read-only or
    moved aside).  ``interrupted``: how many replies a Parley that ended without closing left
    streaming, marked interrupted when this one opened the file."""

    SCHEMA = _SCHEMA
    SCHEMA_VERSION = 2
    MIGRATIONS = _MIGRATIONS
    WORDS: ClassVar[Words] = Words("conversations", "conversation database")

    def __init__(self, path: Path | str) -> None:
        self.interrupted = 0
        super().__init__(path)

    def _opened(self, db: sqlite3.Connection) -> None:
        self.interrupted = db.execute("UPDATE messages SET state = 'interrupted' WHERE state = 'streaming'").rowcount

    @classmethod
    def open_default(cls) -> Store:
        return cls(data_dir() / DATABASE_FILE)

    # ------------------------------------------------------------------ conversations

    def create_conversation(self, title: str) -> ConversationSummary:
        now = time.time()
        with self._writing("create the conversation") as db:
            cursor = db.execute(
                "INSERT INTO conversations (title, created, updated) VALUES (?, ?, ?)", (title, now, now)
            )
        return ConversationSummary(new_row_id(cursor), title, now, now)

    def rename_conversation(self, conversation_id: int, title: str) -> None:
        with self._writing("rename the conversation") as db:
            db.execute("UPDATE conversations SET title = ? WHERE id = ?", (title, conversation_id))

    def delete_conversation(self, conversation_id: int) -> None:
        with self._writing("delete the conversation") as db:
            db.execute("DELETE FROM conversations WHERE id = ?", (conversation_id,))

    def list_conversations(self) -> list[ConversationSummary]:
        """Most recently updated first."""
        rows = self._reading("SELECT * FROM conversations ORDER BY updated DESC, id DESC")
        return [_summary(r) for r in rows]

    def search(self, text: str) -> list[ConversationSummary]:
        """Conversations whose title or any message contains ``text`` (case-insensitive for ASCII)."""
        if not text.strip():
            return self.list_conversations()
        pattern = "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        rows = self._reading(
            """SELECT * FROM conversations AS c
               WHERE c.title LIKE :p ESCAPE '\\'
                  OR EXISTS (SELECT 1 FROM messages AS m
                             WHERE m.conversation_id = c.id AND m.content LIKE :p ESCAPE '\\')
               ORDER BY c.updated DESC, c.id DESC""",
            {"p": pattern},
        )
        return [_summary(r) for r in rows]

    def load_conversation(self, conversation_id: int) -> Conversation:
        """The conversation with all its messages, which the store then has (none is dirty)."""
        rows = self._reading("SELECT * FROM conversations WHERE id = ?", (conversation_id,))
        if not rows:
            raise StoreError(f"The conversation {conversation_id} no longer exists.")
        messages = [
            Message(
                m["role"],
                m["content"],
                _state(m["state"]),
                _stats(m["stats"], m["id"]),
                id=m["id"],
                created=m["created"],
                dirty=False,
            )
            for m in self._reading("SELECT * FROM messages WHERE conversation_id = ? ORDER BY id", (conversation_id,))
        ]
        return Conversation(rows[0]["id"], rows[0]["title"], messages)

    def summary(self, conversation_id: int) -> ConversationSummary:
        rows = self._reading("SELECT * FROM conversations WHERE id = ?", (conversation_id,))
        if not rows:
            raise StoreError(f"The conversation {conversation_id} no longer exists.")
        return _summary(rows[0])

    # ------------------------------------------------------------------ messages

    def add_message(
        self,
        conversation_id: int,
        role: str,
        content: str,
        *,
        state: str = "complete",
        stats: dict[str, Any] | None = None,
    ) -> int:
        """Append a message; returns its id."""
        _check(role, state)
        now = time.time()
        with self._writing("save the message") as db:
            cursor = db.execute(
                "INSERT INTO messages (conversation_id, role, content, created, complete, stats, state)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (conversation_id, role, content, now, int(state == "complete"), _json_or_none(stats), state),
            )
            db.execute("UPDATE conversations SET updated = ? WHERE id = ?", (now, conversation_id))
        return new_row_id(cursor)

    def update_message(self, message_id: int, content: str, *, state: str, stats: dict[str, Any] | None = None) -> None:
        """Replace a message's text, state and figures in place (a checkpoint, a finished or
        regenerated reply)."""
        _check("assistant", state)
        now = time.time()
        with self._writing("save the message") as db:
            db.execute(
                "UPDATE messages SET content = ?, complete = ?, stats = ?, state = ?, created = ? WHERE id = ?",
                (content, int(state == "complete"), _json_or_none(stats), state, now, message_id),
            )
            db.execute(
                "UPDATE conversations SET updated = ? WHERE id = (SELECT conversation_id FROM messages WHERE id = ?)",
                (now, message_id),
            )

    def write(self, conversation: Conversation) -> None:
        """Write whatever the store lacks of ``conversation``: itself, its title, dirty messages,
        and the removal of messages taken back."""
        if conversation.id is None and not conversation.messages:
            return  # a new conversation nobody wrote in yet
        if conversation.taken_back:
            self.delete_messages(conversation.taken_back)
            conversation.taken_back = []
        if conversation.id is None:
            conversation.id = self.create_conversation(conversation.title).id
            conversation.title_dirty = False
        if conversation.title_dirty:
            self.rename_conversation(conversation.id, conversation.title)
            conversation.title_dirty = False
        for message in conversation.messages:
            if not message.dirty:
                continue
            if message.id is None:
                message.id = self.add_message(
                    conversation.id, message.role, message.content, state=message.state, stats=message.stats
                )
            else:
                self.update_message(message.id, message.content, state=message.state, stats=message.stats)
            message.dirty = False

    def delete_messages(self, message_ids: list[int]) -> None:
        """Remove messages (a turn taken back: ``ConversationBook.take_back``)."""
        with self._writing("remove the message") as db:
            db.executemany("DELETE FROM messages WHERE id = ?", [(i,) for i in message_ids])

    # ------------------------------------------------------------------ export

    def export_markdown(self, conversation_id: int, path: Path | str) -> None:
        conversation = self.load_conversation(conversation_id)
        summary = self.summary(conversation_id)
        lines = [f"# {conversation.title}", "", f"*Started {_when(summary.created)}; exported from Parley.*", ""]
        for m in conversation.messages:
            who = {"user": "You", "assistant": "Assistant", "system": "System"}[m.role]
            lines += [f"### {who} · {_when(m.created)}", "", m.content.rstrip(), ""]
            if m.state == "stopped":
                lines += ["*(stopped before the end of the reply)*", ""]
            elif m.state in ("streaming", "interrupted"):
                lines += ["*(interrupted before the end of the reply)*", ""]
        _write_text(path, "\n".join(lines))

    def export_json(self, conversation_id: int, path: Path | str) -> None:
        conversation = self.load_conversation(conversation_id)
        summary = self.summary(conversation_id)
        document = {
            "title": conversation.title,
            "created": _iso(summary.created),
            "updated": _iso(summary.updated),
            "messages": [
                {
                    "role": m.role,
                    "content": m.content,
                    "created": _iso(m.created),
                    "complete": m.complete,
                    "state": m.state,
                    "stats": m.stats,
                }
                for m in conversation.messages
            ],
        }
        _write_text(path, json.dumps(document, indent=2, ensure_ascii=False) + "\n")


def _summary(row: sqlite3.Row) -> ConversationSummary:
    return ConversationSummary(row["id"], row["title"], row["created"], row["updated"])


def _check(role: str, state: str) -> None:
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}")
    if state not in STATES:
        raise ValueError(f"unknown message state {state!r}")


def _state(value: str) -> str:
    return value if value in STATES else "complete"


def _stats(text: str | None, message_id: int) -> dict[str, Any] | None:
    """A reply's stored figures; figures that cannot be read are dropped (and logged), not fatal:
    they only decorate the message, which must still open."""
    if not text:
        return None
    try:
        stats = json.loads(text)
    except ValueError:
        log.warning("message %s: unreadable stats dropped: %r", message_id, text[:80])
        return None
    if not isinstance(stats, dict):
        log.warning("message %s: stats are not an object, dropped", message_id)
        return None
    return stats


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
