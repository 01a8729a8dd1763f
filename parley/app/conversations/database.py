"""One of Parley's SQLite files, opened so that a crash, a full disk, a read-only file, a second
Parley or a damaged file never costs the user what is in it.

``Database`` is what the conversations (``store.Store``) and the dictation history
(``dictation_history.DictationHistory``) share; each names its schema, its migrations and the
words its messages use (``Words``), and adds its own reads and writes on top.

Used from the UI thread only: every write is one small transaction, and SQLite's own
``check_same_thread`` guard stays on.  Any SQLite failure surfaces as ``StoreError`` with a
sentence for the user (disk full, read-only database); the caller keeps what it has in memory.
"""

from __future__ import annotations

import errno
import logging
import os
import shutil
import sqlite3
import stat
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from parley.engine.errors import ParleyError, UntrustedFileError
from parley.engine.untrusted import open_regular

log = logging.getLogger("parley.store")

# SQLite's own files beside a database: never followed through a link, never anything but files.
_COMPANIONS = ("-wal", "-shm", "-journal")


class StoreError(ParleyError):
    """Something could not be read or written; the message is meant for the user.  (The app's
    one error of its own: a ``ParleyError``, so ``except ParleyError`` covers the store too.)"""


@dataclass(frozen=True)
class Words:
    """How a database's messages name what it holds (a plural the messages call "them")."""

    things: str  # "conversations": Could not open the conversations; Conversations are shown...
    database: str  # "conversation database": the conversation database is read-only


class _Damaged(Exception):
    """The file is not a readable Parley database (the message says why)."""


class _ReadOnly(Exception):
    """The file can be read but not written; the message says why, the remedy what to do."""

    def __init__(self, reason: str, remedy: str) -> None:
        super().__init__(reason)
        self.reason, self.remedy = reason, remedy


class Database:
    """A database file, opened for writing, or read-only when it must not be written.

    Opening never changes or removes what the user has: the file and SQLite's companions next to
    it must be regular files (a FIFO, a folder or a loop of links is refused, never waited on);
    a migration to this version's schema is one transaction, applied whole or not at all.

    Read-only (``read_only``, with ``problem`` saying why and what to do): what it holds is
    shown, every write raises ``StoreError``.  That is the case when

    - another process holds the file's lock: only one Parley writes a file at a time, because
      each keeps what it shows in memory and opening may change rows a live Parley is writing
      (the conversations mark replies left streaming as interrupted).  The lock is an exclusive
      ``flock`` (``msvcrt.locking`` on Windows) on ``<database>.lock``, held until ``close``
      (the system drops it when a process dies, so a crash leaves no stale lock);
    - a newer Parley wrote the database (a higher schema version): its data is not rewritten;
    - the file itself is read-only, or the disk is full (SQLite cannot even open its
      shared-memory file).

    A file that is not a database or fails ``PRAGMA quick_check`` is moved aside with a
    timestamped name (with its companions), a new database is started, and ``problem`` says
    where the old one is.  Anything else raises ``StoreError``.
    """

    SCHEMA: ClassVar[tuple[str, ...]]  # single statements, run one by one inside one transaction
    SCHEMA_VERSION: ClassVar[int]
    # The statements that take a database from a version to the next one.
    MIGRATIONS: ClassVar[dict[int, tuple[str, ...]]] = {}
    WORDS: ClassVar[Words]

    def __init__(self, path: Path | str) -> None:
        self.path = str(path)
        self.read_only = False
        self.problem: str | None = None  # one line for the user: why nothing is saved, what was done
        self._why_read_only = ""
        self._lock: int | None = None
        self._conn = _connect(":memory:")  # replaced by the database's once it opens
        things = self.WORDS.things
        try:
            if self.path == ":memory:":
                self._prepare(0)
            else:
                self._open_file(Path(self.path))
        except (OSError, sqlite3.Error, UntrustedFileError, _Damaged) as exc:
            self.close()
            raise StoreError(_opening_failed(exc, self.path, things, self.WORDS.database)) from exc
        except StoreError:
            self.close()
            raise

    def _opened(self, db: sqlite3.Connection) -> None:
        """Inside the transaction that prepares the schema: put right what a process that
        ended without closing left (nothing here)."""

    def _open_file(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        _check_files(path, self.WORDS.things)
        try:
            self._lock = _take_lock(Path(f"{path}.lock"))
            self._conn.close()
            self._conn = _connect(self.path)
            version = _checked_version(self._conn)
            if version > self.SCHEMA_VERSION:
                raise _ReadOnly(
                    f"they were saved by a newer Parley (database version {version}; this Parley "
                    f"knows up to version {self.SCHEMA_VERSION})",
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
        """Bring the schema to this version and let the subclass put right what a crash left,
        all in one transaction: on any failure the database is exactly as it was."""
        db = self._conn
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")  # durable enough in WAL mode
        with _transaction(db):
            for step in range(version, self.SCHEMA_VERSION) if version else ():  # 0: a new database
                for statement in self.MIGRATIONS.get(step, ()):
                    db.execute(statement)
            for statement in self.SCHEMA:
                db.execute(statement)
            if version != self.SCHEMA_VERSION:  # written only when it changes: a full disk still opens
                db.execute(f"PRAGMA user_version = {self.SCHEMA_VERSION}")
            self._opened(db)

    def _open_read_only(self, why: _ReadOnly) -> None:
        """Show what the file holds without ever writing it (see the class docstring)."""
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
        things = self.WORDS.things
        if version < self.SCHEMA_VERSION:
            raise StoreError(
                f"Could not open the {things}: {why.reason}, and they need an update "
                f"to this Parley's format; {why.remedy}."
            )
        self.read_only, self._why_read_only = True, why.reason
        self.problem = f"{things[0].upper()}{things[1:]} are shown but not saved: {why.reason}; {why.remedy}."
        log.warning("%s opened read-only: %s", self.WORDS.database, why.reason)

    def _start_over(self, path: Path, reason: str) -> None:
        """Move an unreadable database aside (never delete it) and start a new one there."""
        self._conn.close()
        kept = _move_aside(path, self.WORDS.things)
        log.warning("store: %s is unreadable (%s); moved to %s", path, reason, kept)
        self._conn = _connect(self.path)
        self._prepare(0)
        self.problem = (
            f"The {self.WORDS.database} could not be read ({reason}); it was moved to {kept} and a new one started."
        )

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
            raise StoreError(_explain(action, exc, self.path, self.WORDS.database)) from exc

    def _reading(self, sql: str, params: tuple[object, ...] | dict[str, object] = ()) -> list[sqlite3.Row]:
        try:
            return self._conn.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(_explain(f"read the {self.WORDS.things}", exc, self.path, self.WORDS.database)) from exc


def new_row_id(cursor: sqlite3.Cursor) -> int:
    """The id of the row an INSERT just added (``lastrowid`` is None only before any INSERT)."""
    assert cursor.lastrowid is not None
    return cursor.lastrowid


def _explain(action: str, exc: sqlite3.Error, path: str, database: str) -> str:
    name = getattr(exc, "sqlite_errorname", "")
    text = str(exc).lower()
    if name == "SQLITE_FULL" or "disk is full" in text:
        return f"Could not {action}: the disk is full."
    if name.startswith("SQLITE_READONLY") or "readonly database" in text:
        return f"Could not {action}: the {database} is read-only ({path})."
    return f"Could not {action}: {exc}."


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


def _check_files(path: Path, things: str) -> None:
    """Refuse a database that is not a regular file (a FIFO would block SQLite forever, a link
    loop or a folder cannot be opened) and companions that are links or not files (SQLite would
    write through the link, or block on a FIFO).  A missing database is fine: it is created."""
    if os.path.lexists(path):
        try:
            os.close(open_regular(path))
        except UntrustedFileError as exc:
            raise StoreError(f"Could not open the {things}: {exc}; move it away and start Parley again.") from None
    real = os.path.realpath(path)
    for suffix in _COMPANIONS:
        companion = real + suffix
        try:
            mode = os.lstat(companion).st_mode
        except FileNotFoundError:
            continue
        if not stat.S_ISREG(mode):
            raise StoreError(
                f"Could not open the {things}: {companion} is not SQLite's own file "
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


def _move_aside(path: Path, things: str) -> Path:
    """Rename ``path`` (and its companions) to a free timestamped name beside it; the new name.
    The link itself is moved when ``path`` is a symbolic link: its target is left alone."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for n in range(1000):
        kept = path.with_name(f"{path.stem}.damaged-{stamp}{f'-{n}' if n else ''}{path.suffix}")
        if not any(os.path.lexists(f"{kept}{suffix}") for suffix in ("", *_COMPANIONS)):
            break
    else:
        raise StoreError(
            f"Could not open the {things}: {path} is unreadable and no name is free "
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


def _opening_failed(exc: BaseException, path: str, things: str, database: str) -> str:
    if isinstance(exc, sqlite3.Error):
        return _explain(f"open the {things}", exc, path, database)
    if isinstance(exc, OSError):
        return f"Could not open the {things}: {exc.strerror or exc} ({exc.filename or path})."
    return f"Could not open the {things}: {exc}."
