"""The Models page of Settings: models on this computer, the catalog, downloads.

Three groups in one list: models Parley downloaded, model files found on this computer (other
tools' folders and the user's own, each checked; a broken one says why), and the catalog of
recommended models.  Each row shows size, licence and whether it fits this machine.  Buttons:
Use (puts the file into the dialog's speech or chat model choice), Download (with progress,
speed and time left), Cancel, Remove (only for models Parley downloaded).

Scanning and downloading run on their own ``EngineWorker`` threads; widgets are touched only
from the UI thread (the workers' callbacks).  Closing Settings cancels a running download: the
part already downloaded is kept and the next Download continues from there (the page says so).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QProgressBar,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...engine import library
from ...engine.errors import ParleyError
from ...engine.library.units import duration, gb
from ..signals import emit
from ..tasks import EngineWorker, Job, JobCancelled

log = logging.getLogger("parley.models_page")

COLUMNS = ("Model", "Type", "Size", "Licence", "Fits this computer?", "Where")
LOOKING = "Looking for models…"
GROUPS = ("Downloaded by Parley", "Found on this computer", "Catalog (download when you choose)")
# Workers whose thread was still blocked (in a network read) when the page closed: kept alive
# until they finish, because a QThread destroyed while running takes the process down.
_LINGERING: list[EngineWorker] = []


@dataclass(frozen=True)
class Row:
    """What a list row stands for."""

    group: int
    kind: str | None
    path: Path | None = None  # a file on disk
    entry: library.CatalogEntry | None = None
    usable: bool = True


def _fit_text(estimate: library.FitEstimate) -> str:
    if estimate.available is None:
        return f"about {gb(estimate.needed)}"
    mark = "yes" if estimate.fits else "tight"
    return f"{mark}: about {gb(estimate.needed)} of {gb(estimate.available)} free {estimate.where}"


def _children(item: QTreeWidgetItem) -> list[QTreeWidgetItem]:
    return [child for i in range(item.childCount()) if (child := item.child(i)) is not None]


def _scan(folders: list[str], n_ctx: int, device: str) -> dict[str, Any]:
    """On the scan worker: every model on disk and the catalog, with fit estimates."""
    models = library.list_models(folders)
    fits: dict[Path, str] = {}
    for m in models:
        if m.usable and m.kind is not None:
            try:
                fits[m.path] = _fit_text(library.estimate(m.path, kind=m.kind, n_ctx=n_ctx, device=device))
            except ParleyError as exc:
                fits[m.path] = f"unknown ({exc})"
    catalog_fits = {
        e.id: _fit_text(library.estimate_size(e.size, name=e.name, kind=e.kind, device=device))
        for e in library.catalog()
    }
    return {
        "models": models,
        "fits": fits,
        "catalog": library.catalog(),
        "catalog_fits": catalog_fits,
        "downloaded": library.downloaded(),
        "problems": [*library.catalog_problems(), *library.record_problems()],
    }


class ModelsPage(QWidget):
    """``use_requested(kind, path)`` asks the dialog to pick a file as its speech or chat model."""

    use_requested = Signal(str, str)

    def __init__(self, folders: list[str], *, n_ctx: int, device: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._n_ctx, self._device = n_ctx, device
        self._scanned = False
        self._closed = False
        self._download: Job | None = None
        self._downloaded_ids: set[str] = set()
        self._downloading_id: str | None = None
        # Threads start with the first scan or download, so a Settings dialog whose Models tab
        # is never opened starts none.
        self._workers: dict[str, EngineWorker] = {}

        intro = QLabel(
            "Models already on this computer, and recommended ones. Nothing is downloaded "
            "unless you click Download; files go to the Hugging Face cache, where other "
            "tools can use them too.",
            wordWrap=True,
            objectName="Hint",
        )
        self.progress = QProgressBar(maximum=1000, textVisible=False)
        self.progress.hide()
        self.status = QLabel(wordWrap=True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.closing_note = QLabel(
            "Closing Settings stops a download; the part already downloaded is "
            "kept and the next Download continues from there.",
            wordWrap=True,
            objectName="Hint",
        )
        self.closing_note.hide()

        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 16, 16, 16)
        layout.addWidget(intro)
        layout.addWidget(self._build_tree(), 1)
        layout.addLayout(self._build_buttons())
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        layout.addWidget(self.closing_note)
        layout.addWidget(
            QLabel(
                "Also look in these folders (besides the Hugging Face cache, LM Studio, GPT4All and Ollama):",
                wordWrap=True,
            )
        )
        layout.addLayout(self._build_folders(folders))
        self._update_buttons()

    def _build_tree(self) -> QTreeWidget:
        self.tree = QTreeWidget()
        self.tree.setColumnCount(len(COLUMNS))
        self.tree.setHeaderLabels(COLUMNS)
        self.tree.setRootIsDecorated(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setMinimumHeight(260)
        self.tree.currentItemChanged.connect(lambda *_: self._update_buttons())
        self.tree.itemDoubleClicked.connect(lambda *_: self._use())
        return self.tree

    def _build_buttons(self) -> QHBoxLayout:
        self.use_button = QPushButton("Use")
        self.download_button = QPushButton("Download")
        self.cancel_button = QPushButton("Cancel download")
        self.remove_button = QPushButton("Remove")
        self.refresh_button = QPushButton("Look again")
        self.use_button.clicked.connect(self._use)
        self.download_button.clicked.connect(self._start_download)
        self.cancel_button.clicked.connect(self.cancel_download)
        self.remove_button.clicked.connect(self._remove)
        self.refresh_button.clicked.connect(self.refresh)
        buttons = QHBoxLayout()
        for b in (self.use_button, self.download_button, self.cancel_button, self.remove_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        buttons.addWidget(self.refresh_button)
        return buttons

    def _build_folders(self, folders: list[str]) -> QHBoxLayout:
        """The extra folders to look in, with Add and Remove."""
        self.folder_list = QListWidget()
        self.folder_list.setMaximumHeight(70)
        self.folder_list.addItems(folders)
        add_folder = QPushButton("Add folder…")
        self.remove_folder_button = QPushButton("Remove folder")
        add_folder.clicked.connect(self._add_folder)
        self.remove_folder_button.clicked.connect(self._remove_folder)
        folder_buttons = QVBoxLayout()
        folder_buttons.addWidget(add_folder)
        folder_buttons.addWidget(self.remove_folder_button)
        folder_buttons.addStretch(1)
        folders_row = QHBoxLayout()
        folders_row.addWidget(self.folder_list, 1)
        folders_row.addLayout(folder_buttons)
        return folders_row

    # ------------------------------------------------------------------ listing

    def folders(self) -> list[str]:
        return [self.folder_list.item(i).text() for i in range(self.folder_list.count())]

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if not self._scanned:  # the first time the page is shown, not when Settings opens
            self.refresh()

    def refresh(self) -> None:
        """Look for models again (on the scan worker) and rebuild the list when done."""
        if self._closed:
            return
        self._scanned = True
        self.refresh_button.setEnabled(False)
        if not self.status.text():
            self.status.setText(LOOKING)
        folders, n_ctx, device = self.folders(), self._n_ctx, self._device
        self._worker("model-scan").submit(
            lambda job: _scan(folders, n_ctx, device),
            on_done=self._show,
            on_error=self._scan_failed,
            name="scan models",
        )

    def _worker(self, name: str) -> EngineWorker:
        if name not in self._workers:
            self._workers[name] = EngineWorker(name, self)
        return self._workers[name]

    def _scan_failed(self, exc: BaseException) -> None:
        self.refresh_button.setEnabled(True)
        self.status.setText(f"Could not look for models: {exc}")

    def _show(self, scan: dict[str, Any]) -> None:
        self.refresh_button.setEnabled(True)
        selected = self._row(self.tree.currentItem())
        self._downloaded_ids = set(scan["downloaded"])
        self.tree.clear()
        groups = [QTreeWidgetItem(self.tree, [title]) for title in GROUPS]
        for g in groups:
            g.setFlags(Qt.ItemFlag.ItemIsEnabled)
            g.setFirstColumnSpanned(True)
        for m in scan["models"]:
            group = 0 if m.source == library.SOURCE_PARLEY else 1
            kind = {"speech": "Speech", "chat": "Chat"}.get(m.kind or "", "—")
            fit = scan["fits"].get(m.path, "") if m.usable else f"cannot be used: {m.problem}"
            where = str(m.path) if group == 0 else f"{m.source}: {m.path}"
            item = QTreeWidgetItem(groups[group], [m.name, kind, gb(m.size), "", fit, where])
            item.setData(0, Qt.ItemDataRole.UserRole, Row(group, m.kind, m.path, usable=m.usable))
            item.setToolTip(0, m.detail or (m.problem or ""))
            if not m.usable:
                item.setForeground(0, Qt.GlobalColor.gray)
        for e in scan["catalog"]:
            state = "downloaded" if e.id in scan["downloaded"] else e.repo
            item = QTreeWidgetItem(
                groups[2], [e.name, e.kind.capitalize(), gb(e.size), e.licence, scan["catalog_fits"][e.id], state]
            )
            item.setData(0, Qt.ItemDataRole.UserRole, Row(2, e.kind, entry=e))
            item.setToolTip(0, f"{e.note} Parameters: {e.parameters}. Languages: {', '.join(e.languages)}.")
        for g in groups:
            g.setExpanded(True)
            g.setText(0, f"{g.text(0)} ({g.childCount()})")
        for column in range(len(COLUMNS) - 1):
            self.tree.resizeColumnToContents(column)
        self._reselect(selected)
        if self.status.text() == LOOKING:
            problems = scan["problems"]
            self.status.setText("Ignored: " + "; ".join(problems) if problems else "")
        self._update_buttons()

    def _reselect(self, row: Row | None) -> None:
        if row is None:
            return
        for item in self.items():
            other = self._row(item)
            if other is not None and (other.path, other.entry) == (row.path, row.entry):
                self.tree.setCurrentItem(item)
                return

    def items(self) -> list[QTreeWidgetItem]:
        """Every model row, in list order."""
        return [row for group in _children(self.tree.invisibleRootItem()) for row in _children(group)]

    @staticmethod
    def _row(item: QTreeWidgetItem | None) -> Row | None:
        return item.data(0, Qt.ItemDataRole.UserRole) if item is not None else None

    def _current(self) -> Row | None:
        return self._row(self.tree.currentItem())

    def _update_buttons(self) -> None:
        row = self._current()
        downloaded = self._downloaded_ids
        busy = self._download is not None
        self.use_button.setEnabled(row is not None and row.path is not None and row.usable and row.kind is not None)
        self.download_button.setEnabled(
            row is not None and row.entry is not None and not busy and row.entry.id not in downloaded
        )
        self.cancel_button.setVisible(busy)
        self.remove_button.setEnabled(
            row is not None
            and row.group in (0, 2)
            and not busy
            and (row.group == 0 or (row.entry is not None and row.entry.id in downloaded))
        )
        self.remove_folder_button.setEnabled(self.folder_list.currentItem() is not None)

    # ------------------------------------------------------------------ actions

    def _use(self) -> None:
        row = self._current()
        if row is None:
            return
        if row.entry is not None and row.path is None:
            self.status.setText("Download this model first, then use it.")
            return
        if row.path is not None and row.usable and row.kind is not None:
            emit(self.use_requested, row.kind, str(row.path))
            self.status.setText(f"Selected {row.path.name} as the {row.kind} model; press OK to use it.")

    def _start_download(self) -> None:
        row = self._current()
        if row is None or row.entry is None or self._download is not None:
            return
        entry = row.entry
        self._downloading_id = entry.id
        self.progress.setValue(0)
        self.progress.show()
        self.closing_note.show()
        self.status.setText(f"Connecting to download {entry.name}…")
        self._download = self._worker("model-download").submit(
            lambda job: library.download_model(entry, progress=job.emit, cancel=job),
            on_progress=self._on_progress,
            on_done=self._downloaded,
            on_error=self._download_failed,
            name=f"download {entry.id}",
        )
        self._update_buttons()

    def cancel_download(self) -> None:
        if self._download is not None:
            self._download.cancel()
            self.status.setText("Stopping the download…")

    def _on_progress(self, p: library.Progress) -> None:
        self.progress.setValue(int(p.fraction * 1000))
        if p.stage == "checking":
            self.status.setText(f"Checking the part already downloaded… {p.fraction:.0%}")
            return
        left = f", {duration(p.eta)} left" if p.eta is not None else ""
        self.status.setText(
            f"Downloading: {p.fraction:.0%}, {gb(p.done)} of {gb(p.total)}, {p.speed / 1e6:.1f} MB/s{left}"
        )

    def _finish_download(self) -> None:
        self._download = None
        self._downloading_id = None
        self.progress.hide()
        self.closing_note.hide()

    def _downloaded(self, path: Path) -> None:
        self._finish_download()
        self.status.setText(f"Downloaded and checked: {path}. Select it and click Use.")
        self.refresh()

    def _download_failed(self, exc: BaseException) -> None:
        model_id = self._downloading_id
        self._finish_download()
        if isinstance(exc, (library.DownloadCancelled, JobCancelled)):
            self.status.setText(
                "Download cancelled. The part already downloaded is kept; Download continues from there."
            )
        elif isinstance(exc, ParleyError):
            self.status.setText(str(exc))
        else:
            log.error("downloading %s failed: %r", model_id, exc)
            self.status.setText(f"The download failed: {exc}")
        self._update_buttons()
        self.refresh()

    def _remove(self) -> None:
        row = self._current()
        if row is None:
            return
        records = library.downloaded()
        model_id = (
            row.entry.id if row.entry is not None else next((k for k, r in records.items() if r.path == row.path), None)
        )
        if model_id is None:
            return
        try:
            removed = library.remove_model(model_id)
        except ParleyError as exc:
            self.status.setText(str(exc))
            return
        self.status.setText(f"Removed {len(removed)} file(s) of {model_id}.")
        self.refresh()

    def _add_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "A folder with model files", str(Path.home()))
        if folder and folder not in self.folders():
            self.folder_list.addItem(folder)
            self.refresh()

    def _remove_folder(self) -> None:
        item = self.folder_list.currentItem()
        if item is not None:
            self.folder_list.takeItem(self.folder_list.row(item))
            self.refresh()

    # ------------------------------------------------------------------ closing

    def shutdown(self) -> None:
        """Cancel a running download (its partial file stays) and stop the worker threads."""
        self._closed = True
        for worker in self._workers.values():
            worker.cancel_all()
            if not worker.shutdown(timeout_s=5.0):
                worker.setParent(None)
                _LINGERING.append(worker)
