"""The documents index: one SQLite file in Parley's data folder holding every collection.

- ``collections``: a name the user gave; ``sources``: the folders and files added to it;
- ``files``: each file found, with the size and modification time it was read at (how a changed
  file is known without reading it), its title, pages, state (``indexed``, ``failed``) and, when it
  could not be read, the reason shown beside it;
- ``passages``: a file's passages with their place and vector (float32, normalised);
  ``passages_fts``: FTS5 over their text and their file's title and place (Porter stemming,
  accents folded), the keyword half of a search.

A file and all its passages are written in one transaction, so an indexing stopped anywhere (a
crash, a closed window, a pulled plug) leaves each file either indexed or still to do: the next
update resumes by doing what is left.  ``generation`` in ``meta`` grows with every write, so a
reader's cached vectors (``search``) know when they are stale.  WAL journaling lets a search read
while an update writes.  One ``DocumentIndex`` is one connection: one thread uses it.
"""

from __future__ import annotations

import dataclasses
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from ...config.paths import data_dir
from ..errors import CollectionError
from ..untrusted import is_regular_file

INDEX_FILE = "index.sqlite3"
MAX_NAME_CHARS = 80

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS collections (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS sources (
    id INTEGER PRIMARY KEY,
    collection INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
    path TEXT NOT NULL, note TEXT NOT NULL DEFAULT '',
    UNIQUE (collection, path)
);
CREATE TABLE IF NOT EXISTS files (
    id INTEGER PRIMARY KEY,
    collection INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
    path TEXT NOT NULL, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL,
    title TEXT NOT NULL DEFAULT '', pages INTEGER NOT NULL DEFAULT 0,
    state TEXT NOT NULL, note TEXT NOT NULL DEFAULT '', indexed REAL NOT NULL,
    UNIQUE (collection, path)
);
CREATE TABLE IF NOT EXISTS passages (
    id INTEGER PRIMARY KEY,
    file INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    ordinal INTEGER NOT NULL, place TEXT NOT NULL, text TEXT NOT NULL, vector BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS passages_by_file ON passages(file);
CREATE TABLE IF NOT EXISTS uses (
    conversation INTEGER NOT NULL,
    collection INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
    PRIMARY KEY (conversation, collection)
);
CREATE VIRTUAL TABLE IF NOT EXISTS passages_fts USING fts5(
    text, heading, tokenize = 'porter unicode61 remove_diacritics 2'
);
"""


@dataclasses.dataclass(frozen=True)
class Collection:
    id: int
    name: str
    sources: list[Source]
    files: int
    indexed: int
    failed: int
    passages: int
    pages: int


@dataclasses.dataclass(frozen=True)
class Source:
    path: str
    note: str  # why it could not be looked at last time ("" when it could)


@dataclasses.dataclass(frozen=True)
class FileRecord:
    path: str
    size: int
    mtime_ns: int
    title: str
    pages: int
    state: str  # "indexed" or "failed"
    note: str
    passages: int


@dataclasses.dataclass(frozen=True)
class NewPassage:
    ordinal: int
    place: str
    text: str
    vector: np.ndarray  # float32, normalised


def default_index_path() -> Path:
    return data_dir() / "documents" / INDEX_FILE


def checked_name(name: str) -> str:
    """A collection's name as stored: trimmed, one line, not empty, at most ``MAX_NAME_CHARS``."""
    cleaned = " ".join(name.split())
    if not cleaned:
        raise CollectionError("a collection needs a name")
    if len(cleaned) > MAX_NAME_CHARS or any(not ch.isprintable() for ch in cleaned):
        raise CollectionError(f"a collection's name is one line of printable text, at most {MAX_NAME_CHARS} characters")
    return cleaned


class DocumentIndex:
    """One connection to the index at ``path`` (made with its folder when missing)."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_index_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if os.path.lexists(self.path) and not is_regular_file(self.path):  # a FIFO would block SQLite's open
            raise CollectionError(f"{self.path} is not a regular file: move it away, and Parley makes a new index")
        self._db = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.execute("PRAGMA synchronous=NORMAL")
            with self.transaction():
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        self._db.execute(statement)
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise CollectionError(
                f"{self.path} is not a documents index Parley can use ({exc}): move it away, and add the "
                "collections again (your files are untouched)"
            ) from None

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> DocumentIndex:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write: everything in it lands, or nothing does; ``generation`` grows with it."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
            self._db.execute(
                "INSERT INTO meta VALUES ('generation', '1') "
                "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1"
            )
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    @property
    def generation(self) -> int:
        row = self._db.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
        return int(row[0]) if row else 0

    def meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return str(row[0]) if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def forget_vectors(self, made_by: str) -> None:
        """Forget every file read (their passages and vectors) when the vectors were made by
        another embedding model than ``made_by``: each file is read again on the next update."""
        with self.transaction() as db:
            if self.meta("embedding_model") is not None:
                db.execute("DELETE FROM passages_fts")
                db.execute("DELETE FROM passages")
                db.execute("DELETE FROM files")
            db.execute("INSERT OR REPLACE INTO meta VALUES ('embedding_model', ?)", (made_by,))

    # ------------------------------------------------------------------ collections and sources

    def add_source(self, name: str, path: Path) -> None:
        """Add ``path`` (a folder or a file, stored absolute) to collection ``name``, made if new."""
        name = checked_name(name)
        with self.transaction() as db:
            db.execute("INSERT OR IGNORE INTO collections (name, created) VALUES (?, ?)", (name, time.time()))
            collection = self._id(name)
            db.execute("INSERT OR IGNORE INTO sources (collection, path) VALUES (?, ?)", (collection, str(path)))

    def remove_collection(self, name: str) -> None:
        """Forget collection ``name``: its sources, files and passages (the files stay untouched)."""
        collection = self._id(name)
        with self.transaction() as db:
            db.execute(
                "DELETE FROM passages_fts WHERE rowid IN "
                "(SELECT passages.id FROM passages JOIN files ON passages.file = files.id WHERE files.collection = ?)",
                (collection,),
            )
            db.execute("DELETE FROM collections WHERE id = ?", (collection,))

    def names(self) -> list[str]:
        return [row[0] for row in self._db.execute("SELECT name FROM collections ORDER BY name COLLATE NOCASE")]

    def collection(self, name: str) -> Collection:
        collection = self._id(name)
        sources = [
            Source(path, note)
            for path, note in self._db.execute(
                "SELECT path, note FROM sources WHERE collection = ? ORDER BY path", (collection,)
            )
        ]
        files, indexed, failed, pages = self._db.execute(
            "SELECT COUNT(*), COALESCE(SUM(state = 'indexed'), 0), COALESCE(SUM(state = 'failed'), 0), "
            "COALESCE(SUM(pages), 0) FROM files WHERE collection = ?",
            (collection,),
        ).fetchone()
        (passages,) = self._db.execute(
            "SELECT COUNT(*) FROM passages JOIN files ON passages.file = files.id WHERE files.collection = ?",
            (collection,),
        ).fetchone()
        return Collection(collection, checked_name(name), sources, files, indexed, failed, passages, pages)

    def _id(self, name: str) -> int:
        row = self._db.execute("SELECT id FROM collections WHERE name = ? COLLATE NOCASE", (" ".join(name.split()),))
        found = row.fetchone()
        if found is None:
            known = ", ".join(self.names()) or "none yet"
            raise CollectionError(f"there is no collection called {name!r} (collections: {known})")
        return int(found[0])

    def collection_ids(self, names: Iterable[str]) -> list[int]:
        return [self._id(name) for name in names]

    def set_source_note(self, name: str, path: str, note: str) -> None:
        with self.transaction() as db:
            db.execute("UPDATE sources SET note = ? WHERE collection = ? AND path = ?", (note, self._id(name), path))

    def set_uses(self, conversation: int, names: Iterable[str]) -> None:
        """Conversation ``conversation`` (the app's id) answers from collections ``names``."""
        ids = self.collection_ids(names)
        with self.transaction() as db:
            db.execute("DELETE FROM uses WHERE conversation = ?", (conversation,))
            db.executemany("INSERT INTO uses VALUES (?, ?)", [(conversation, i) for i in ids])

    def all_uses(self) -> dict[int, list[str]]:
        """Each conversation that answers from collections, with their names."""
        found: dict[int, list[str]] = {}
        for conversation, name in self._db.execute(
            "SELECT uses.conversation, collections.name FROM uses JOIN collections ON uses.collection = collections.id "
            "ORDER BY collections.name COLLATE NOCASE"
        ):
            found.setdefault(conversation, []).append(name)
        return found

    # ------------------------------------------------------------------ files and passages

    def files(self, name: str) -> list[FileRecord]:
        return [
            FileRecord(*row)
            for row in self._db.execute(
                "SELECT path, size, mtime_ns, title, pages, state, note, "
                "(SELECT COUNT(*) FROM passages WHERE passages.file = files.id) "
                "FROM files WHERE collection = ? ORDER BY path",
                (self._id(name),),
            )
        ]

    def known(self, name: str) -> dict[str, tuple[int, int]]:
        """Each file's path in collection ``name`` with the size and modification time it was read at."""
        return {
            path: (size, mtime)
            for path, size, mtime in self._db.execute(
                "SELECT path, size, mtime_ns FROM files WHERE collection = ?", (self._id(name),)
            )
        }

    def put_file(
        self,
        db: sqlite3.Connection,
        collection: int,
        path: str,
        stat: tuple[int, int],
        *,
        title: str = "",
        pages: int = 0,
        passages: Iterable[NewPassage] = (),
        note: str = "",
    ) -> None:
        """Inside a ``transaction``: ``path`` as read now (its old passages replaced), indexed with
        ``passages``, or failed with ``note``."""
        self._drop_passages(db, collection, [path])
        state = "failed" if note else "indexed"
        (file_id,) = db.execute(
            "INSERT INTO files (collection, path, size, mtime_ns, title, pages, state, note, indexed) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT(collection, path) DO UPDATE SET size = excluded.size, mtime_ns = excluded.mtime_ns, "
            "title = excluded.title, pages = excluded.pages, state = excluded.state, note = excluded.note, "
            "indexed = excluded.indexed RETURNING id",
            (collection, path, stat[0], stat[1], title, pages, state, note, time.time()),
        ).fetchone()
        for passage in passages:
            vector = np.ascontiguousarray(passage.vector, dtype=np.float32)
            (passage_id,) = db.execute(
                "INSERT INTO passages (file, ordinal, place, text, vector) VALUES (?, ?, ?, ?, ?) RETURNING id",
                (file_id, passage.ordinal, passage.place, passage.text, vector.tobytes()),
            ).fetchone()
            db.execute(
                "INSERT INTO passages_fts (rowid, text, heading) VALUES (?, ?, ?)",
                (passage_id, passage.text, f"{title} {passage.place}"),
            )

    def drop_files(self, db: sqlite3.Connection, collection: int, paths: list[str]) -> None:
        """Inside a ``transaction``: forget ``paths`` (gone from the disk) and their passages."""
        self._drop_passages(db, collection, paths)
        db.executemany("DELETE FROM files WHERE collection = ? AND path = ?", [(collection, p) for p in paths])

    def _drop_passages(self, db: sqlite3.Connection, collection: int, paths: list[str]) -> None:
        for path in paths:
            row = db.execute("SELECT id FROM files WHERE collection = ? AND path = ?", (collection, path)).fetchone()
            if row is None:
                continue
            db.execute("DELETE FROM passages_fts WHERE rowid IN (SELECT id FROM passages WHERE file = ?)", row)
            db.execute("DELETE FROM passages WHERE file = ?", row)

    # ------------------------------------------------------------------ reading for a search

    def vectors(self, collections: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """The passage ids and their vectors (one row each) of ``collections``."""
        marks = ",".join("?" * len(collections))
        rows = self._db.execute(
            f"SELECT passages.id, passages.vector FROM passages JOIN files ON passages.file = files.id "
            f"WHERE files.collection IN ({marks}) ORDER BY passages.id",
            collections,
        ).fetchall()
        ids = np.fromiter((row[0] for row in rows), dtype=np.int64, count=len(rows))
        if not rows:
            return ids, np.zeros((0, 0), dtype=np.float32)
        matrix = np.frombuffer(b"".join(row[1] for row in rows), dtype=np.float32).reshape(len(rows), -1)
        return ids, matrix

    def keyword_hits(self, match: str, collections: list[int], limit: int) -> list[int]:
        """The ids of the passages of ``collections`` that FTS5 query ``match`` finds, best first (BM25)."""
        marks = ",".join("?" * len(collections))
        return [
            row[0]
            for row in self._db.execute(
                f"SELECT passages_fts.rowid FROM passages_fts JOIN passages ON passages.id = passages_fts.rowid "
                f"JOIN files ON passages.file = files.id "
                f"WHERE passages_fts MATCH ? AND files.collection IN ({marks}) "
                f"ORDER BY bm25(passages_fts, 1.0, 0.6) LIMIT ?",
                (match, *collections, limit),
            )
        ]

    def passages(self, ids: list[int]) -> dict[int, tuple[str, str, str, str, int]]:
        """Each passage by id: its file's path and title, its place, its text, its ordinal."""
        marks = ",".join("?" * len(ids))
        return {
            row[0]: row[1:]
            for row in self._db.execute(
                f"SELECT passages.id, files.path, files.title, passages.place, passages.text, passages.ordinal "
                f"FROM passages JOIN files ON passages.file = files.id WHERE passages.id IN ({marks})",
                ids,
            )
        }

    def whole_texts(self, collections: list[int], max_chars: int) -> list[tuple[str, str, str]] | None:
        """Every indexed file of ``collections`` as (path, title, text), when all of them together
        hold at most ``max_chars`` characters; None when they hold more."""
        marks = ",".join("?" * len(collections))
        # A collection of more than max_chars // 50 passages is never given whole (passages are
        # rarely under 50 characters), so a large one is not summed on every question (115 ms at
        # 100,000 passages): the count stops there
        most = max_chars // 50
        inner = f"FROM passages JOIN files ON passages.file = files.id WHERE files.collection IN ({marks})"
        (count,) = self._db.execute(
            f"SELECT COUNT(*) FROM (SELECT 1 {inner} LIMIT ?)", (*collections, most + 1)
        ).fetchone()
        if count > most:
            return None
        (total,) = self._db.execute(f"SELECT COALESCE(SUM(LENGTH(passages.text)), 0) {inner}", collections).fetchone()
        if total > max_chars or total == 0:
            return None
        texts: dict[str, tuple[str, list[str]]] = {}
        for path, title, text in self._db.execute(
            f"SELECT files.path, files.title, passages.text FROM passages "
            f"JOIN files ON passages.file = files.id WHERE files.collection IN ({marks}) "
            f"ORDER BY files.path, passages.ordinal",
            collections,
        ):
            texts.setdefault(path, (title, []))[1].append(text)  # a section's passages begin with its heading
        return [(path, title, "\n\n".join(parts)) for path, (title, parts) in texts.items()]
