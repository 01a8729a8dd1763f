"""Conversations and their messages in one SQLite file in the user's data folder.

Used from the UI thread only: every write is one small transaction, and SQLite's own
``check_same_thread`` guard stays on.  Any SQLite failure surfaces as ``StoreError`` with a
sentence for the user (disk full, read-only database); the caller keeps the conversation in
memory and tries again later, so nothing the user sees is lost because a save failed.

Messages are ``parley.app.conversations.conversation.Message`` objects.  A reply being generated is written
with the state ``streaming`` and checkpointed as it grows; opening the store turns any reply
still marked ``streaming`` into ``interrupted``: the process that was writing it is gone.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import shutil
import sqlite3
import stat
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from parley.config.paths import data_dir
from parley.engine.errors import ParleyError, UntrustedFileError
from parley.engine.formats import ROLES
from parley.engine.untrusted import open_regular

from .conversation import STATES, Conversation, ConversationSummary, Message

log = logging.getLogger("parley.store")

DATABASE_FILE = "conversations.sqlite3"
_SCHEMA_VERSION = 2
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
# SQLite's own files beside a database: never followed through a link, never anything but files.
_COMPANIONS = ("-wal", "-shm", "-journal")


class StoreError(ParleyError):
    """A conversation could not be read or written; the message is meant for the user.  (The
    app's one error of its own: a ``ParleyError``, so ``except ParleyError`` covers the store too.)"""


class _Damaged(Exception):
    """The file is not a readable Parley database (the message says why)."""


class _ReadOnly(Exception):
    """The store can be read but not written; the message says why, the remedy what to do."""

    def __init__(self, reason: str, remedy: str) -> None:
        super().__init__(reason)
        self.reason, self.remedy = reason, remedy


def _explain(action: str, exc: sqlite3.Error, path: str) -> str:
    name = getattr(exc, "sqlite_errorname", "")
    text = str(exc).lower()
    if name == "SQLITE_FULL" or "disk is full" in text:
        return f"Could not {action}: the disk is full."
    if name.startswith("SQLITE_READONLY") or "readonly database" in text:
        return f"Could not {action}: the conversation database is read-only ({path})."
    return f"Could not {action}: {exc}."


class Store:
    """The conversation database, opened for writing, or read-only when it must not be written.

    Opening never changes or removes what the user has: the file and SQLite's companions next to
    it must be regular files (a FIFO, a folder or a loop of links is refused, never waited on);
    a migration to this version's schema is one transaction, applied whole or not at all.

    Read-only (``read_only``, with ``problem`` saying why and what to do): the history is shown,
    every write raises ``StoreError``.  That is the case when

    - another process holds the store's lock: only one Parley writes a store at a time, because
      each keeps its conversations in memory and opening marks every ``streaming`` reply as
      interrupted, which would break the other's live reply.  The lock is an exclusive
      ``flock`` (``msvcrt.locking`` on Windows) on ``<database>.lock``, held until ``close``
      (the system drops it when a process dies, so a crash leaves no stale lock);
    - a newer Parley wrote the database (a higher schema version): its data is not rewritten;
    - the file itself is read-only, or the disk is full (SQLite cannot even open its
      shared-memory file).

    A file that is not a database or fails ``PRAGMA quick_check`` is moved aside with a
    timestamped name (with its companions), a new database is started, and ``problem`` says
    where the old one is.  Anything else raises ``StoreError`` (the app then keeps this
    session's conversations in memory).
    """

    def __init__(self, path: Path | str) -> None:
        self.path = str(path)
        self.read_only = False
        self.problem: str | None = None  # one line for the user: why nothing is saved, what was done
        self.interrupted = 0
        self._why_read_only = ""
        self._lock: int | None = None
        self._conn = _connect(":memory:")  # replaced by the database's once it opens
        try:
            if self.path == ":memory:":
                self._prepare(0)
            else:
                self._open_file(Path(self.path))
        except (OSError, sqlite3.Error, UntrustedFileError, _Damaged) as exc:
            self.close()
            raise StoreError(_opening_failed(exc, self.path)) from exc
        except StoreError:
            self.close()
            raise

    def _open_file(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        _check_files(path)
        try:
            self._lock = _take_lock(Path(f"{path}.lock"))
            self._conn.close()
            self._conn = _connect(self.path)
            version = _checked_version(self._conn)
            if version > _SCHEMA_VERSION:
                raise _ReadOnly(
                    f"they were saved by a newer Parley (database version {version}; this Parley "
                    f"knows up to version {_SCHEMA_VERSION})",
                    "update Parley to save them again",
                )
            self._prepare(version)
        except _Damaged as damaged:
            self._start_over(path, str(damaged))
        except _ReadOnly as why:
            self._open_read_only(why)
        except sqlite3.Error as exc:
            unwritable = _why_unwritable(exc, path)
            if unwritable is None:
                raise
            self._open_read_only(unwritable)

    def _prepare(self, version: int) -> None:
        """Bring the schema to this version and mark replies left streaming as interrupted,
        all in one transaction: on any failure the database is exactly as it was."""
        db = self._conn
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")  # durable enough in WAL mode
        with _transaction(db):
            for step in range(version, _SCHEMA_VERSION) if version else ():  # 0: a new database
                for statement in _MIGRATIONS.get(step, ()):
                    db.execute(statement)
            for statement in _SCHEMA:
                db.execute(statement)
            if version != _SCHEMA_VERSION:  # written only when it changes: a full disk still opens
                db.execute(f"PRAGMA user_version = {_SCHEMA_VERSION}")
            self.interrupted = db.execute(
                "UPDATE messages SET state = 'interrupted' WHERE state = 'streaming'"
            ).rowcount

    def _open_read_only(self, why: _ReadOnly) -> None:
        """Show the history without ever writing it (see the class docstring)."""
        uri = Path(self.path).absolute().as_uri()
        self._conn.close()
        self._conn = _connect(f"{uri}?mode=ro", uri=True)
        try:
            version = _checked_version(self._conn)
        except sqlite3.OperationalError:
            if self._lock is None:  # someone else may write it: only a consistent read will do
                raise
            # A full disk or a read-only folder leaves no room for SQLite's shared-memory file;
            # nobody else writes while we hold the lock, so the file can be read as immutable.
            self._conn.close()
            self._conn = _connect(f"{uri}?immutable=1", uri=True)
            version = _checked_version(self._conn)
        self._conn.execute("PRAGMA query_only = ON")
        if version < _SCHEMA_VERSION:
            raise StoreError(
                f"Could not open the conversations: {why.reason}, and they need an update "
                f"to this Parley's format; {why.remedy}."
            )
        self.read_only, self._why_read_only = True, why.reason
        self.problem = f"Conversations are shown but not saved: {why.reason}; {why.remedy}."
        log.warning("store opened read-only: %s", why.reason)

    def _start_over(self, path: Path, reason: str) -> None:
        """Move an unreadable database aside (never delete it) and start a new one there."""
        self._conn.close()
        kept = _move_aside(path)
        log.warning("store: %s is unreadable (%s); moved to %s", path, reason, kept)
        self._conn = _connect(self.path)
        self._prepare(0)
        self.problem = (
            f"The conversation database could not be read ({reason}); it was moved to {kept} and a new one started."
        )

    @classmethod
    def open_default(cls) -> Store:
        return cls(data_dir() / DATABASE_FILE)

    @property
    def journal_mode(self) -> str:
        return str(self._conn.execute("PRAGMA journal_mode").fetchone()[0])

    def close(self) -> None:
        """Close the database and give up the lock (safe to call twice)."""
        self._conn.close()
        if self._lock is not None:
            os.close(self._lock)  # releases the lock
            self._lock = None

    @contextmanager
    def _writing(self, action: str) -> Iterator[sqlite3.Connection]:
        if self.read_only:
            raise StoreError(f"Could not {action}: {self._why_read_only}.")
        try:
            with _transaction(self._conn):  # one transaction: committed, or rolled back on error
                yield self._conn
        except sqlite3.Error as exc:
            raise StoreError(_explain(action, exc, self.path)) from exc

    def _reading(self, sql: str, params: tuple[object, ...] | dict[str, object] = ()) -> list[sqlite3.Row]:
        try:
            return self._conn.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(_explain("read the conversations", exc, self.path)) from exc

    # ------------------------------------------------------------------ conversations

    def create_conversation(self, title: str) -> ConversationSummary:
        now = time.time()
        with self._writing("create the conversation") as db:
            cursor = db.execute(
                "INSERT INTO conversations (title, created, updated) VALUES (?, ?, ?)", (title, now, now)
            )
        return ConversationSummary(_new_row_id(cursor), title, now, now)

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
        return _new_row_id(cursor)

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
        """Write whatever the store lacks of ``conversation``: itself, its title, dirty messages."""
        if conversation.id is None and not conversation.messages:
            return  # a new conversation nobody wrote in yet
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


def _connect(target: str, *, uri: bool = False) -> sqlite3.Connection:
    """A connection in autocommit mode: transactions are explicit (``_transaction``)."""
    conn = sqlite3.connect(target, uri=uri, isolation_level=None)
    conn.row_factory = sqlite3.Row
    return conn


@contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[None]:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` on any error (a failed COMMIT too)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            try:
                db.execute("ROLLBACK")
            except sqlite3.Error as exc:
                log.warning("store: rollback failed: %s", exc)
        raise


def _checked_version(db: sqlite3.Connection) -> int:
    """The schema version of a database that SQLite can read through and Parley made (or an
    empty one: 0); ``_Damaged`` otherwise."""
    try:
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        problems = [row[0] for row in db.execute("PRAGMA quick_check(1)")]
        tables = db.execute("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        name = getattr(exc, "sqlite_errorname", "")
        if (
            name.startswith(("SQLITE_NOTADB", "SQLITE_CORRUPT"))
            or "malformed" in str(exc)
            or "not a database" in str(exc)
        ):
            raise _Damaged(str(exc)) from exc
        raise
    if problems != ["ok"]:
        raise _Damaged(f"damaged: {problems[0]}")
    if version == 0 and tables:
        raise _Damaged("it holds tables that Parley did not make")
    if version < 0:
        raise _Damaged(f"an impossible schema version {version}")
    return version


def _check_files(path: Path) -> None:
    """Refuse a database that is not a regular file (a FIFO would block SQLite forever, a link
    loop or a folder cannot be opened) and companions that are links or not files (SQLite would
    write through the link, or block on a FIFO).  A missing database is fine: it is created."""
    if os.path.lexists(path):
        try:
            os.close(open_regular(path))
        except UntrustedFileError as exc:
            raise StoreError(f"Could not open the conversations: {exc}; move it away and start Parley again.") from None
    real = os.path.realpath(path)
    for suffix in _COMPANIONS:
        companion = real + suffix
        try:
            mode = os.lstat(companion).st_mode
        except FileNotFoundError:
            continue
        if not stat.S_ISREG(mode):
            raise StoreError(
                f"Could not open the conversations: {companion} is not SQLite's own file "
                f"({_kind(mode)}); move it away and start Parley again."
            )


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO")):
        if test(mode):
            return name
    return "not a regular file"


def _take_lock(path: Path) -> int:
    """An exclusive lock on ``path`` (created if missing, never through a link), held by the
    returned descriptor; ``_ReadOnly`` when another process holds it or it cannot be taken."""
    flags = (
        os.O_RDWR
        | os.O_CREAT
        | getattr(os, "O_NOFOLLOW", 0)
        | getattr(os, "O_NONBLOCK", 0)
        | getattr(os, "O_CLOEXEC", 0)
        | getattr(os, "O_BINARY", 0)
    )
    remedy = f"move {path} away and restart Parley"
    try:
        fd = os.open(path, flags, 0o600)
    except OSError as exc:
        raise _ReadOnly(f"their lock file {path} cannot be opened ({exc.strerror or exc})", remedy) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise _ReadOnly(f"their lock file {path} is not a file", remedy)
        if not _try_lock(fd):
            raise _ReadOnly("another Parley is using them", "close it and restart this Parley")
    except BaseException:
        os.close(fd)
        raise
    return fd


def _try_lock(fd: int) -> bool:
    """Lock ``fd`` exclusively without waiting; False when another process holds the lock."""
    try:
        if sys.platform == "win32":
            import msvcrt

            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EACCES, errno.EDEADLK):
            return False
        raise
    return True


def _move_aside(path: Path) -> Path:
    """Rename ``path`` (and its companions) to a free timestamped name beside it; the new name.
    The link itself is moved when ``path`` is a symbolic link: its target is left alone."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for n in range(1000):
        kept = path.with_name(f"{path.stem}.damaged-{stamp}{f'-{n}' if n else ''}{path.suffix}")
        if not any(os.path.lexists(f"{kept}{suffix}") for suffix in ("", *_COMPANIONS)):
            break
    else:
        raise StoreError(
            f"Could not open the conversations: {path} is unreadable and no name is free "
            "to move it aside; move it away and start Parley again."
        )
    for suffix in _COMPANIONS:
        if os.path.lexists(f"{path}{suffix}"):
            os.rename(f"{path}{suffix}", f"{kept}{suffix}")
    os.rename(path, kept)
    return kept


def _why_unwritable(exc: sqlite3.Error, path: Path) -> _ReadOnly | None:
    """Why a database that reads fine cannot be written, when it is the file or the disk."""
    name = getattr(exc, "sqlite_errorname", "")
    if name.startswith("SQLITE_READONLY") or "readonly" in str(exc):
        return _ReadOnly(f"the database file is read-only ({path})", "make it writable and restart Parley")
    if name == "SQLITE_FULL" or (name.startswith("SQLITE_IOERR") and _free_bytes(path.parent) < 1 << 20):
        return _ReadOnly(f"the disk is full ({path.parent})", "free some space and restart Parley")
    return None


def _free_bytes(folder: Path) -> int:
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return 1 << 62


def _opening_failed(exc: BaseException, path: str) -> str:
    if isinstance(exc, sqlite3.Error):
        return _explain("open the conversations", exc, path)
    if isinstance(exc, OSError):
        return f"Could not open the conversations: {exc.strerror or exc} ({exc.filename or path})."
    return f"Could not open the conversations: {exc}."


def _new_row_id(cursor: sqlite3.Cursor) -> int:
    """The id of the row an INSERT just added (``lastrowid`` is None only before any INSERT)."""
    assert cursor.lastrowid is not None
    return cursor.lastrowid


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
