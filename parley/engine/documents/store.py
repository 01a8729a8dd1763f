"""The user's document collections as the app and the command line use them: add, list, update,
remove, and the grounding of a question.

The embedding model is loaded on first need (all-MiniLM-L6-v2, pinned, unless another is given).
The index remembers which model made its vectors; when a different one is used, every file is
read again on the next update rather than mixing vectors that cannot be compared.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from ..backend.cancel import CancelToken
from ..chat.embeddings import Embedder
from ..errors import CollectionError
from ..library.embedding_models import embedding_model_path
from .grounding import WHOLE_CHARS, Grounding, ground
from .index import Collection, DocumentIndex, FileRecord, checked_name
from .indexing import Indexer, Progress, UpdateSummary
from .search import Mode, Passage, Searcher

DEFAULT_EMBEDDING_MODEL = "all-minilm-l6-v2"
PASSAGES = 3  # put before a question: more lengthen the first token (the 1.5B reads ~180 tokens a second on 2 cores)


class DocumentStore:
    """Collections in the index at ``index_path`` (Parley's data folder by default); one thread
    uses a store (the app gives it a worker of its own)."""

    def __init__(
        self,
        index_path: str | Path | None = None,
        *,
        embedding_model: str = DEFAULT_EMBEDDING_MODEL,
        embedder: Embedder | Callable[[], Embedder] | None = None,
        progress: Callable[[Progress], None] | None = None,
    ) -> None:
        """``embedder``: one to use (its owner closes it), or what gives one when first needed;
        None: all-MiniLM-L6-v2 (or ``embedding_model``) is loaded when first needed."""
        self.index = DocumentIndex(index_path)
        self._model_choice = embedding_model
        self._embedder = embedder if isinstance(embedder, Embedder) else None
        self._make_embedder = embedder if callable(embedder) and not isinstance(embedder, Embedder) else None
        self._own_embedder = embedder is None
        self._progress = progress
        self._indexer: Indexer | None = None
        self._running = threading.Event()  # cleared: an update waits between two files
        self._running.set()
        self._searcher: Searcher | None = None

    def close(self) -> None:
        if self._indexer is not None:
            self._indexer.close()
        if self._own_embedder and self._embedder is not None:
            self._embedder.close()
        self.index.close()

    def __enter__(self) -> DocumentStore:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # ------------------------------------------------------------------ collections

    def add(self, path: str | Path, name: str | None = None) -> str:
        """Add a folder or file to collection ``name`` (by default the folder's or file's name);
        the collection's name.  Nothing is read until ``update``."""
        where = Path(os.path.abspath(os.path.expanduser(path)))
        if not where.exists():
            raise CollectionError(f"{where} does not exist")
        if not (where.is_dir() or where.is_file()):
            raise CollectionError(f"{where} is neither a folder nor a file")
        chosen = checked_name(
            name if name is not None else (where.stem if where.is_file() else where.name) or str(where)
        )
        self.index.add_source(chosen, where)
        return self.index.collection(chosen).name

    def remove(self, name: str) -> None:
        self.index.remove_collection(name)

    def collections(self) -> list[Collection]:
        return [self.index.collection(name) for name in self.index.names()]

    def collection(self, name: str) -> Collection:
        return self.index.collection(name)

    def files(self, name: str) -> list[FileRecord]:
        return self.index.files(name)

    # ------------------------------------------------------------------ indexing

    def update(self, name: str | None = None, cancel: CancelToken | None = None) -> list[UpdateSummary]:
        """Bring collection ``name`` (every collection when None) up to date."""
        names = [self.index.collection(name).name] if name is not None else self.index.names()
        return [self._the_indexer().update(each, cancel) for each in names]

    def pause(self) -> None:
        """Hold an update between two files until ``resume`` (both from any thread)."""
        self._running.clear()

    def resume(self) -> None:
        self._running.set()

    def set_progress(self, progress: Callable[[Progress], None] | None) -> None:
        """Report an update's progress to ``progress`` from now on."""
        self._progress = progress

    def _the_indexer(self) -> Indexer:
        if self._indexer is None:
            self._indexer = Indexer(self.index, self.embedder, progress=self._report, running=self._running)
        return self._indexer

    def _report(self, progress: Progress) -> None:
        if self._progress is not None:
            self._progress(progress)

    # ------------------------------------------------------------------ questions

    def search(self, question: str, names: Sequence[str], *, k: int = PASSAGES, mode: Mode = "fused") -> list[Passage]:
        if self._searcher is None:
            self._searcher = Searcher(self.index, self.embedder)
        return self._searcher.search(question, names, k=k, mode=mode)

    def ground(self, question: str, names: Sequence[str]) -> Grounding:
        """``question`` with what collections ``names`` say: whole documents when all of them are
        short, else the best passages; ``found`` is False when no passage is near the question."""
        passages = self.search(question, names)
        whole = self.index.whole_texts(self.index.collection_ids(names), WHOLE_CHARS)
        return ground(question, passages, whole)

    # ------------------------------------------------------------------ the embedding model

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            if self._make_embedder is not None:
                self._embedder = self._make_embedder()
            else:
                self._embedder = Embedder(embedding_model_path(self._model_choice))
        made_by = f"{self._embedder.name}/{self._embedder.n_embd}"
        if self.index.meta("embedding_model") != made_by:
            self.index.forget_vectors(made_by)
        return self._embedder
