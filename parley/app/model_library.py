"""The model library's work for the Models page: looking for models, downloading, removing.

Each runs on a thread of its own (``EngineWorker``s named model-scan and model-download, not the
engines' threads: a download must not wait for a reply, nor a reply for a download), started on
first use, so a Settings dialog whose Models tab is never opened starts none.  Results come back
on the UI thread as signals; the page (``ui/models_page.py``) only shows them.  ``shutdown``
cancels a running download (the part already downloaded is kept, and the next download continues
from there).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from parley.engine import library
from parley.engine.errors import Cancelled, NoNetworkError, ParleyError
from parley.engine.library.human_units import gb

from .signals import emit
from .tasks import EngineWorker, Job

log = logging.getLogger("parley.model_library")

# Workers whose thread was still blocked (in a network read) when the page closed: kept alive
# until they finish, because a QThread destroyed while running takes the process down.
LINGERING: list[EngineWorker] = []


@dataclass(frozen=True)
class Scan:
    """What a look for models found: every model on disk and the catalog, with fit estimates."""

    models: list[library.FoundModel]
    fits: dict[Path, str]  # by model path: whether it fits, as the page shows it
    catalog: tuple[library.CatalogEntry, ...]
    catalog_fits: dict[str, str]  # by catalog id
    downloaded: set[str]  # catalog ids Parley downloaded
    problems: list[str]  # catalog entries and download records that were ignored, and why


def fit_text(estimate: library.FitEstimate) -> str:
    """The Fits here? column: the verdict first (the column must say it when it is narrow)."""
    if estimate.available is None:
        return f"needs about {gb(estimate.needed)}"
    return f"{estimate.verdict}: {gb(estimate.needed)} of {gb(estimate.available)} free {estimate.where}"


def scan(folders: list[str], n_ctx: int, device: str) -> Scan:
    """On the scan worker: list, check and estimate every model (reads headers and folders)."""
    models = library.list_models(folders)
    fits: dict[Path, str] = {}
    for m in models:
        if m.usable and m.kind is not None:
            try:
                fits[m.path] = fit_text(library.estimate(m.path, kind=m.kind, n_ctx=n_ctx, device=device))
            except ParleyError as exc:
                fits[m.path] = f"unknown ({exc})"
    entries = library.catalog()
    return Scan(
        models=models,
        fits=fits,
        catalog=entries,
        catalog_fits={e.id: fit_text(library.estimate_entry(e, n_ctx=n_ctx, device=device)) for e in entries},
        downloaded=set(library.downloaded()),
        problems=[*library.catalog_problems(), *library.record_problems()],
    )


def remove(entry_id: str | None, path: Path | None) -> str:
    """On the scan worker: remove a model Parley downloaded, named by its catalog id or its file;
    what was done, as the page says it."""
    model_id = entry_id or next((k for k, r in library.downloaded().items() if r.path == path), None)
    if model_id is None:
        return "Parley did not download this file, so it does not remove it."
    removed = library.remove_model(model_id)
    return f"Removed {len(removed)} file(s) of {model_id}."


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
            lambda _job: remove(entry_id, path),
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
        said = str(exc) if isinstance(exc, ParleyError) else f"The download failed: {exc}"
        emit(self.download_failed, said, False, isinstance(exc, NoNetworkError))
