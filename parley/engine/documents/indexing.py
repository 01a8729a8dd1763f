"""Bringing a collection up to date: its folders walked, new and changed files read, cut and
embedded, deleted ones dropped.

A file is read again only when its size or modification time differs from what the index holds
(a failed file too: a file that could not be read is tried again once it changes).  Files are
written to the index in groups (``GROUP_PASSAGES``), each group one transaction, so the embedding
model gets full batches even from many tiny files, and an update stopped anywhere resumes at the
first group not written.  A source that is missing (a removed drive, an unmounted share) keeps its
files in the index with a note on the source; only files that are gone from a folder that is
there are dropped.

The walk never follows a link to a folder (no loops), skips hidden names and the folders tools
fill (``SKIPPED_FOLDERS``), stops at ``MAX_FILES`` files a collection and ``MAX_DEPTH`` levels, and
looks only at the kinds ``reading`` knows.  PDF, Word, OpenDocument, EPUB and HTML files are read
in the child process of ``reader_process`` (libraries parsing untrusted layouts, and HTML at a few
megabytes a second: both bounded in time there); text, Markdown and code here, bounded by
``reading`` itself.  The user's files are only read.
"""

from __future__ import annotations

import dataclasses
import os
import stat
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from ..backend.cancel import CancelToken
from ..chat.embeddings import Embedder
from ..errors import Cancelled
from .chunking import Chunk, chunk_document
from .index import DocumentIndex, NewPassage
from .reader_process import ReaderProcess
from .reading import DocumentError, kind_of, read_document

MAX_FILES = 200_000  # files a collection indexes; a note on the source says when more were found
MAX_DEPTH = 64
GROUP_PASSAGES = 64  # passages embedded and written together
GROUP_FILES = 256
IN_CHILD = frozenset({"pdf", "docx", "odt", "epub", "html"})
SKIPPED_FOLDERS = frozenset({"node_modules", "__pycache__", "venv", "site-packages"})
MISSING_SOURCE = "not found (a removed drive or a moved folder?): its files are kept until it is back"


@dataclasses.dataclass(frozen=True)
class Progress:
    collection: str
    done: int  # files read (or failed) in this update
    to_do: int  # new or changed files found so far
    current: str  # the file being read ("" between files)


@dataclasses.dataclass(frozen=True)
class UpdateSummary:
    collection: str
    read: int  # new or changed files read
    failed: int  # of those, could not be read
    unchanged: int
    removed: int
    passages: int  # written in this update
    pages: int  # of the files read
    seconds: float


def embedding_text(title: str, place: str, text: str) -> str:
    """What is embedded for a passage: its text after its document's title and its place, which
    say what a passage is about when its own words do not."""
    head = " › ".join(part for part in (title, place) if part)
    return f"{head}\n{text}" if head else text


@dataclasses.dataclass
class _Read:
    path: str
    stat: tuple[int, int]
    title: str = ""
    pages: int = 0
    chunks: list[Chunk] = dataclasses.field(default_factory=list)
    note: str = ""


class Indexer:
    """Updates collections of ``index`` with passages embedded by ``embedder``; from one thread.

    ``pause`` and ``resume`` may be called from any thread: a paused update waits between two
    files.  ``progress`` is called on the updating thread.
    """

    def __init__(
        self,
        index: DocumentIndex,
        embedder: Embedder,
        *,
        reader: ReaderProcess | None = None,
        progress: Callable[[Progress], None] | None = None,
        running: threading.Event | None = None,
    ) -> None:
        """``running``: cleared, an update waits between two files (``pause``)."""
        self.index, self.embedder, self.progress = index, embedder, progress
        self._reader = reader
        self._own_reader = reader is None
        if running is None:
            running = threading.Event()
            running.set()
        self._running = running

    def close(self) -> None:
        if self._own_reader and self._reader is not None:
            self._reader.close()
            self._reader = None

    def pause(self) -> None:
        self._running.clear()

    def resume(self) -> None:
        self._running.set()

    @property
    def paused(self) -> bool:
        return not self._running.is_set()

    def update(self, name: str, cancel: CancelToken | None = None) -> UpdateSummary:
        """Bring collection ``name`` up to date; Cancelled (with every group before it written)
        when ``cancel`` is set."""
        start = time.monotonic()
        collection = self.index.collection(name)
        known = self.index.known(name)
        seen: set[str] = set()
        kept: list[str] = []  # folders that are missing: their files stay
        to_read: list[tuple[str, tuple[int, int]]] = []
        failed_walk: list[_Read] = []
        for source in collection.sources:
            note = ""
            if not os.path.lexists(source.path):
                note = MISSING_SOURCE
                kept.append(source.path)
            else:
                errors: list[OSError] = []
                for path, stat_or_note in _walk(Path(source.path), MAX_FILES - len(seen), errors):
                    seen.add(path)
                    if isinstance(stat_or_note, str):
                        failed_walk.append(_Read(path, (0, 0), note=stat_or_note))
                    elif known.get(path) != stat_or_note:
                        to_read.append((path, stat_or_note))
                kept += [str(e.filename) for e in errors if e.filename]  # unreadable now: their files stay
                if len(seen) >= MAX_FILES:
                    note = f"more than {MAX_FILES:,} files: the rest were not indexed"
                elif errors:
                    names = ", ".join(str(e.filename) for e in errors[:3])
                    note = f"{len(errors)} folder(s) could not be read ({names}): {errors[0].strerror or errors[0]}"
            if note != source.note:
                self.index.set_source_note(name, source.path, note)
        gone = [path for path in known if path not in seen and not any(_within(path, folder) for folder in kept)]
        if gone:
            with self.index.transaction() as db:
                self.index.drop_files(db, collection.id, gone)
        summary = dict(read=0, failed=0, passages=0, pages=0)
        group: list[_Read] = [r for r in failed_walk if known.get(r.path) != r.stat]
        for done, (path, file_stat) in enumerate(to_read):
            self._wait(cancel)
            self._report(name, done, len(to_read), path)
            read = self._read(path, file_stat)
            group.append(read)
            if sum(len(r.chunks) for r in group) >= GROUP_PASSAGES or len(group) >= GROUP_FILES:
                self._write(collection.id, group, summary, cancel)
                group = []
        self._write(collection.id, group, summary, cancel)
        self._report(name, len(to_read), len(to_read), "")
        return UpdateSummary(
            name,
            summary["read"],
            summary["failed"],
            len(seen) - len(to_read) - len(failed_walk),
            len(gone),
            summary["passages"],
            summary["pages"],
            time.monotonic() - start,
        )

    def _wait(self, cancel: CancelToken | None) -> None:
        while not self._running.wait(0.2):
            if cancel is not None and cancel.cancelled:
                break
        if cancel is not None and cancel.cancelled:
            raise Cancelled("the indexing was stopped")

    def _report(self, name: str, done: int, to_do: int, current: str) -> None:
        if self.progress is not None:
            self.progress(Progress(name, done, to_do, current))

    def _read(self, path: str, file_stat: tuple[int, int]) -> _Read:
        kind = kind_of(Path(path))
        try:
            if kind in IN_CHILD:
                if self._reader is None:
                    self._reader = ReaderProcess()
                document = self._reader.read(Path(path))
            else:
                document = read_document(Path(path))
        except DocumentError as exc:
            return _Read(path, file_stat, note=str(exc))
        chunks = chunk_document(document)
        if not chunks:
            return _Read(path, file_stat, document.title, document.pages, note="no text found in it")
        return _Read(path, file_stat, document.title, document.pages, chunks)

    def _write(self, collection: int, group: list[_Read], summary: dict[str, int], cancel: CancelToken | None) -> None:
        if not group:
            return
        texts = [
            self.embedder.tokenize(embedding_text(r.title, c.place, c.text), True) for r in group for c in r.chunks
        ]
        vectors = self.embedder.embed(texts, cancel).vectors
        if cancel is not None and cancel.cancelled:
            raise Cancelled("the indexing was stopped")
        at = 0
        with self.index.transaction() as db:
            for read in group:
                passages = [NewPassage(c.ordinal, c.place, c.text, vectors[at + i]) for i, c in enumerate(read.chunks)]
                at += len(read.chunks)
                self.index.put_file(
                    db,
                    collection,
                    read.path,
                    read.stat,
                    title=read.title,
                    pages=read.pages,
                    passages=passages,
                    note=read.note,
                )
        for read in group:
            summary["read"] += 1
            summary["failed"] += bool(read.note)
            summary["passages"] += len(read.chunks)
            summary["pages"] += read.pages


def _within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _walk(root: Path, limit: int, errors: list[OSError]) -> Iterator[tuple[str, tuple[int, int] | str]]:
    """Each document file under ``root`` (or ``root`` itself when it is a file), with its size and
    modification time, or the reason it cannot be read; at most ``limit``.  Folders that cannot be
    listed go to ``errors``."""
    if limit <= 0:
        return
    if not root.is_dir():
        found = (
            _stat(root)
            if kind_of(root) is not None
            else f"not a kind of document Parley reads ({root.suffix or 'no suffix'})"
        )
        yield str(root), found
        return
    count = 0
    base_depth = len(root.parts)
    for folder, folders, files in os.walk(root, followlinks=False, onerror=errors.append):
        deep = len(Path(folder).parts) - base_depth >= MAX_DEPTH
        folders[:] = [] if deep else sorted(f for f in folders if not f.startswith(".") and f not in SKIPPED_FOLDERS)
        for name in sorted(files):
            if name.startswith(".") or kind_of(Path(name)) is None:
                continue
            yield os.path.join(folder, name), _stat(Path(folder, name))
            count += 1
            if count >= limit:
                return


def _stat(path: Path) -> tuple[int, int] | str:
    try:
        info = os.stat(path)
    except OSError as exc:
        return f"cannot be read: {exc.strerror or exc}"
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file (a pipe, a device or a socket)"
    return info.st_size, info.st_mtime_ns
