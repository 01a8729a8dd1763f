"""The user's document collections in the app: indexed on a worker of their own, searched on the
chat thread when a conversation answers from them.

- The index (``engine.documents``) is written only on the ``documents`` worker: adding, removing,
  updating (every collection at start, so an indexing stopped by a crash or a restart goes on),
  and the collections each conversation uses.  The UI thread never touches SQLite: it gets a
  snapshot (``collections``, ``uses``) after each change, and ``progress`` while files are read.
- A reply in a conversation that uses collections asks ``grounder`` for a function the chat
  thread calls with the user's words: it searches with a connection of its own (SQLite in WAL
  mode reads while the worker writes) and the same embedding model, loaded once.
- Pause and resume act at once, between two files; closing stops the indexing (the next start
  resumes it) and the reading process.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from parley.engine.backend.cancel import CancelToken
from parley.engine.chat.embeddings import Embedder
from parley.engine.documents.grounding import (
    NOT_FOUND,
    NOT_FROM_THEM,
    Grounding,
    Source,
    cited,
    spoken_sources,
    supported,
)
from parley.engine.documents.index import Collection, FileRecord, default_index_path
from parley.engine.documents.indexing import Progress
from parley.engine.documents.store import DEFAULT_EMBEDDING_MODEL, DocumentStore
from parley.engine.errors import Cancelled
from parley.engine.library.embedding_models import embedding_model_path

from ..engine_notes import said
from ..signals import emit
from ..tasks import EngineWorker, Job, JobCancelled

log = logging.getLogger("parley.documents")


class GroundedQuestion:
    """A question with what the documents say, as a reply uses it (``conversations.replies``)."""

    nothing_found = NOT_FOUND

    def __init__(self, grounding: Grounding) -> None:
        self.grounding = grounding
        self.found = grounding.found
        self.message = grounding.message

    def sources_of(self, reply: str) -> list[dict[str, str]]:
        return [dataclasses.asdict(source) for source in cited(reply, self.grounding)]

    def from_them(self, reply: str) -> bool:
        return supported(reply, self.grounding)


def said_sources(sources: list[dict[str, str]]) -> str:
    """The short line the voice says after an answer from documents (``From notes, page 3.``),
    or that the answer was not from them (no sources)."""
    if not sources:
        return NOT_FROM_THEM
    return spoken_sources([Source(s["path"], s["title"], s["place"]) for s in sources])


class DocumentRoom(QObject):
    changed = Signal()  # the collections, their files or the conversations' choices changed
    progress = Signal(object)  # a Progress while files are read
    indexed = Signal(object)  # the UpdateSummary list of an update that ended
    problem = Signal(str)  # something the user should hear about (a failed add or update)

    def __init__(self, index_path: Path | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._index_path = index_path
        self._worker = EngineWorker("documents", self)
        self._store: DocumentStore | None = None  # made on the worker
        self._embedder: Embedder | None = None
        self._embedder_lock = threading.Lock()
        self._searchers: dict[int, DocumentStore] = {}  # by thread: the chat thread's connection
        self.collections: list[Collection] = []
        self.uses: dict[int, list[str]] = {}  # conversation id -> the collections it answers from
        self._unsaved: list[str] = []  # the choice for the open conversation before it has an id
        self._updating: Job | None = None
        self.paused = False

    # ------------------------------------------------------------------ the UI thread's side

    def start(self) -> None:
        """Read the collections, then bring each up to date (resuming an indexing stopped before).
        Without an index yet, nothing is read or written until the user adds a collection."""
        if (self._index_path or default_index_path()).exists():
            self._submit(lambda store: None, "look")
            self.update()

    def add(self, paths: list[Path], name: str | None = None, then: Callable[[list[str]], None] | None = None) -> None:
        """Add folders or files to collection ``name`` (by default each one's own name), then
        index them; ``then`` gets the collections' names once they are added."""

        def add(_job: Job) -> tuple[list[str], list[Collection], dict[int, list[str]]]:
            store = self._the_store()
            names = [store.add(path, name) for path in paths]
            return names, store.collections(), store.index.all_uses()

        def added(found: tuple[list[str], list[Collection], dict[int, list[str]]]) -> None:
            self._looked((found[1], found[2]))
            if then is not None:
                then(found[0])

        self._worker.submit(add, name="add", on_done=added, on_error=self._failed)
        self.update()

    def remove(self, name: str) -> None:
        self._submit(lambda store: store.remove(name), "remove")

    def update(self, name: str | None = None) -> None:
        """Read what changed in collection ``name`` (all when None), in the background."""

        def update(job: Job) -> Any:
            store = self._the_store()
            store.set_progress(job.emit)
            return store.update(name, job.link(CancelToken()))

        self._updating = self._worker.submit(
            update,
            name="update",
            on_progress=lambda p: emit(self.progress, p) if isinstance(p, Progress) else None,
            on_done=self._updated,
            on_error=self._failed,
        )

    def pause(self) -> None:
        self.paused = True
        if self._store is not None:
            self._store.pause()
        emit(self.changed)

    def resume(self) -> None:
        self.paused = False
        if self._store is not None:
            self._store.resume()
        emit(self.changed)

    def files(self, name: str, then: Callable[[list[FileRecord]], None]) -> None:
        """Collection ``name``'s files, handed to ``then`` on the UI thread."""
        self._worker.submit(lambda job: self._the_store().files(name), name="files", on_done=then)

    def used_by(self, conversation: int | None) -> list[str]:
        """The collections ``conversation`` answers from (None: the new one, not yet saved)."""
        names = self._unsaved if conversation is None else self.uses.get(conversation, [])
        known = {c.name for c in self.collections}
        return [n for n in names if n in known]

    def use(self, conversation: int | None, names: list[str]) -> None:
        """Let ``conversation`` answer from ``names`` (none: from the model alone)."""
        if conversation is None:
            self._unsaved = list(names)
        else:
            self.uses[conversation] = list(names)
            self._submit(lambda store: store.index.set_uses(conversation, names), "use")
        emit(self.changed)

    def saved(self, conversation: int) -> None:
        """The new conversation got its id: its choice is kept with it."""
        if self._unsaved:
            self.use(conversation, self._unsaved)
            self._unsaved = []

    def grounder(self, conversation: int | None) -> Callable[[str], GroundedQuestion] | None:
        """For a reply in ``conversation``: what the chat thread calls with the user's words
        (None when the conversation answers from the model alone)."""
        if conversation is not None:
            self.saved(conversation)
        names = self.used_by(conversation)
        if not names:
            return None
        return lambda question: GroundedQuestion(self._searcher().ground(question, names))

    def close(self) -> None:
        if self._store is not None:
            self._store.resume()  # a paused update ends at its next look at the cancel
        self._worker.cancel_all()
        self._worker.shutdown(finalizer=self._close_stores)

    # ------------------------------------------------------------------ the worker's side

    def _submit(self, work: Callable[[DocumentStore], None], name: str) -> None:
        def run(_job: Job) -> tuple[list[Collection], dict[int, list[str]]]:
            store = self._the_store()
            work(store)
            return store.collections(), store.index.all_uses()

        self._worker.submit(run, name=name, on_done=self._looked, on_error=self._failed)

    def _looked(self, found: tuple[list[Collection], dict[int, list[str]]]) -> None:
        self.collections, self.uses = found
        emit(self.changed)

    def _updated(self, summaries: Any) -> None:
        self._updating = None
        emit(self.indexed, summaries)
        self._submit(lambda store: None, "look")

    def _failed(self, exc: BaseException) -> None:
        if isinstance(exc, (JobCancelled, Cancelled)) or not self._worker.running:
            return
        log.warning("documents: %s", exc)
        emit(self.problem, said(exc))
        self._submit(lambda store: None, "look")

    def _the_store(self) -> DocumentStore:
        if self._store is None:
            self._store = DocumentStore(self._index_path, embedder=self._the_embedder)
            if self.paused:
                self._store.pause()
        return self._store

    def _searcher(self) -> DocumentStore:
        thread = threading.get_ident()
        if thread not in self._searchers:
            self._searchers[thread] = DocumentStore(self._index_path, embedder=self._the_embedder)
        return self._searchers[thread]

    def _the_embedder(self) -> Embedder:
        with self._embedder_lock:
            if self._embedder is None:
                self._embedder = Embedder(embedding_model_path(DEFAULT_EMBEDDING_MODEL))
            return self._embedder

    def _close_stores(self) -> None:
        for store in [self._store, *self._searchers.values()]:
            if store is not None:
                store.close()
        if self._embedder is not None:
            self._embedder.close()
