"""The model library's work for the Models page: looking for models, downloading, removing.

What each does is ``engine.library``'s (``survey``, ``download_model``); each runs on a thread
of its own (``EngineWorker``s named model-scan and model-download, not the
engines' threads: a download must not wait for a reply, nor a reply for a download), started on
first use, so a Settings dialog whose Models tab is never opened starts none.  Results come back
on the UI thread as signals; the page (``ui/models_page.py``) only shows them.  ``shutdown``
cancels a running download (the part already downloaded is kept, and the next download continues
from there).
"""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from parley.engine import library
from parley.engine.errors import Cancelled, NoNetworkError, ParleyError
from parley.engine.library.survey import remove_download, scan

from .engine_notes import said
from .signals import emit
from .tasks import EngineWorker, Job

log = logging.getLogger("parley.model_library")

# Workers whose thread was still blocked (in a network read) when the page closed: kept alive
# until they finish, because a QThread destroyed while running takes the process down.
LINGERING: list[EngineWorker] = []


class ModelLibrary(QObject):
    scanned = Signal(object)  # a Scan
    scan_failed = Signal(str)  # why the look failed
    progress = Signal(object)  # a library.Progress of the running download
    downloaded = Signal(object)  # the Path of the downloaded, checked file
    download_failed = Signal(str, bool, bool)  # what went wrong, whether it was cancelled, whether offline
    removed = Signal(str)  # what was removed, or why nothing was

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._workers: dict[str, EngineWorker] = {}
        self._download: Job | None = None
        self._closed = False

    @property
    def downloading(self) -> bool:
        return self._download is not None

    def scan(self, folders: list[str], n_ctx: int, device: str) -> None:
        if self._closed:
            return
        self._worker("model-scan").submit(
            lambda _job: scan(folders, n_ctx, device),
            on_done=lambda found: emit(self.scanned, found),
            on_error=lambda exc: emit(self.scan_failed, str(exc)),
            name="scan models",
        )

    def download(self, entry: library.CatalogEntry) -> None:
        if self._closed or self._download is not None:
            return
        self._download = self._worker("model-download").submit(
            lambda job: library.download_model(entry, progress=job.emit, cancel=job),
            on_progress=lambda p: emit(self.progress, p),
            on_done=self._downloaded,
            on_error=lambda exc: self._download_failed(entry.id, exc),
            name=f"download {entry.id}",
        )

    def cancel_download(self) -> None:
        if self._download is not None:
            self._download.cancel()

    def remove(self, entry_id: str | None, path: Path | None) -> None:
        if self._closed:
            return
        self._worker("model-scan").submit(
            lambda _job: remove_download(entry_id, path),
            on_done=lambda said: emit(self.removed, said),
            on_error=lambda exc: emit(self.removed, str(exc)),
            name="remove model",
        )

    def shutdown(self, timeout_s: float = 5.0) -> None:
        """Cancel a running download (its partial file stays) and stop the worker threads; one
        still blocked after ``timeout_s`` (in a network read) is kept alive until it ends."""
        self._closed = True
        for worker in self._workers.values():
            worker.cancel_all()
            if not worker.shutdown(timeout_s=timeout_s):
                worker.setParent(None)
                LINGERING.append(worker)

    def _worker(self, name: str) -> EngineWorker:
        if name not in self._workers:
            self._workers[name] = EngineWorker(name, self)
        return self._workers[name]

    def _downloaded(self, path: Path) -> None:
        self._download = None
        emit(self.downloaded, path)

    def _download_failed(self, model_id: str, exc: BaseException) -> None:
        self._download = None
        if isinstance(exc, Cancelled):
            emit(self.download_failed, "", True, False)
            return
        if not isinstance(exc, ParleyError):
            log.error("downloading %s failed: %r", model_id, exc)
        problem = (
            said(exc) if isinstance(exc, ParleyError) else self.tr("The download failed: {problem}").format(problem=exc)
        )
        emit(self.download_failed, problem, False, isinstance(exc, NoNetworkError))
