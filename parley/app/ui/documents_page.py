"""The Documents page: the collections Parley answers from, their files and what could not be read.

A collection unfolds into its sources (the folders and files added, with a note when one is
missing) and the files that could not be read, each with its reason.  Folders and files are
added with the buttons or by dropping them on the page (or anywhere on the window).  While files
are read, a bar shows how far the indexing is, and it can be paused.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from parley.engine.documents.index import Collection, FileRecord
from parley.engine.documents.indexing import Progress

from ..signals import emit


def dropped_paths(event: QDropEvent | QDragEnterEvent) -> list[str]:
    """The local files and folders a drag carries (links to web pages are not documents)."""
    data = event.mimeData()
    if not data.hasUrls():
        return []
    return [url.toLocalFile() for url in data.urls() if url.isLocalFile() and url.toLocalFile()]


class DocumentsPage(QWidget):
    add_requested = Signal(list, str)  # paths, the collection ("" for each one's own name)
    remove_requested = Signal(str)
    update_requested = Signal(str)  # a collection, "" for all
    pause_toggled = Signal(bool)
    files_requested = Signal(str)  # a collection unfolded: its files are wanted
    back_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("DocumentsPage")
        self.setAcceptDrops(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 16, 24, 16)
        title = QLabel(self.tr("Documents"), objectName="PageTitle")
        title.setAccessibleName(self.tr("Documents"))
        explain = QLabel(
            self.tr(
                "Parley answers from the collections a conversation uses (the Documents button beside the "
                "message), and names its sources. Your files are only read, never changed. Drop folders or "
                "files here to add them."
            ),
            wordWrap=True,
        )
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels([self.tr("Collection"), self.tr("Files"), self.tr("Pages"), self.tr("Notes")])
        self.tree.setAccessibleName(self.tr("Collections"))
        self.tree.setRootIsDecorated(True)
        self.tree.itemExpanded.connect(self._expanded)
        self.tree.currentItemChanged.connect(lambda *_: self._update_buttons())
        self.progress_label = QLabel()
        self.progress_bar = QProgressBar()
        self.progress_bar.setAccessibleName(self.tr("Indexing progress"))
        self.pause_button = QPushButton(self.tr("Pause"), checkable=True)
        self.pause_button.toggled.connect(self._paused)
        progress_row = QHBoxLayout()
        progress_row.addWidget(self.progress_bar, 1)
        progress_row.addWidget(self.pause_button)
        self.add_folder_button = QPushButton(self.tr("Add folder…"))
        self.add_folder_button.clicked.connect(self._add_folder)
        self.add_files_button = QPushButton(self.tr("Add files…"))
        self.add_files_button.clicked.connect(self._add_files)
        self.update_button = QPushButton(self.tr("Update"))
        self.update_button.setToolTip(self.tr("Read new and changed files, drop deleted ones"))
        self.update_button.clicked.connect(lambda: emit(self.update_requested, self.current_collection() or ""))
        self.remove_button = QPushButton(self.tr("Remove…"))
        self.remove_button.clicked.connect(self._remove)
        back = QPushButton(self.tr("Back to the conversation"))
        back.clicked.connect(self.back_requested)
        buttons = QHBoxLayout()
        for button in (self.add_folder_button, self.add_files_button, self.update_button, self.remove_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(back)
        layout.addWidget(title)
        layout.addWidget(explain)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.progress_label)
        layout.addLayout(progress_row)
        layout.addLayout(buttons)
        self.show_progress(None)
        self._items: dict[str, QTreeWidgetItem] = {}
        self._update_buttons()

    # ------------------------------------------------------------------ what the room says

    def show_collections(self, collections: list[Collection]) -> None:
        current = self.current_collection()
        expanded = {name for name, item in self._items.items() if item.isExpanded()}
        self.tree.clear()
        self._items = {}
        for collection in collections:
            notes = [f"{s.path}: {s.note}" for s in collection.sources if s.note]
            if collection.failed:
                notes.insert(0, self.tr("%n file(s) could not be read", "", collection.failed))
            item = QTreeWidgetItem([collection.name, str(collection.indexed), str(collection.pages), "; ".join(notes)])
            item.setData(0, Qt.ItemDataRole.UserRole, collection.name)
            item.setChildIndicatorPolicy(QTreeWidgetItem.ChildIndicatorPolicy.ShowIndicator)
            for source in collection.sources:
                child = QTreeWidgetItem([source.path, "", "", source.note])
                item.addChild(child)
            self.tree.addTopLevelItem(item)
            self._items[collection.name] = item
            if collection.name in expanded:
                item.setExpanded(True)
            if collection.name == current:
                self.tree.setCurrentItem(item)
        for column in range(3):
            self.tree.resizeColumnToContents(column)
        self._update_buttons()

    def show_files(self, name: str, records: list[FileRecord]) -> None:
        """The files of collection ``name`` that could not be read, under its sources."""
        item = self._items.get(name)
        if item is None:
            return
        for index in reversed(range(item.childCount())):
            child = item.child(index)
            if child is not None and child.data(0, Qt.ItemDataRole.UserRole) == "file":
                item.takeChild(index)
        for record in records:
            if record.state != "indexed":
                row = QTreeWidgetItem([Path(record.path).name, "", "", record.note])
                row.setToolTip(0, record.path)
                row.setData(0, Qt.ItemDataRole.UserRole, "file")
                item.addChild(row)

    def show_progress(self, progress: Progress | None) -> None:
        """How far the indexing is (None: not indexing)."""
        indexing = progress is not None and bool(progress.current)
        self.progress_bar.setVisible(indexing)
        self.pause_button.setVisible(indexing or self.pause_button.isChecked())
        if progress is None or not progress.current:
            self.progress_label.setText("")
            return
        self.progress_bar.setRange(0, max(progress.to_do, 1))
        self.progress_bar.setValue(progress.done)
        self.progress_label.setText(
            self.tr("Reading {done} of {count} in {collection}: {file}").format(
                done=progress.done + 1,
                count=progress.to_do,
                collection=progress.collection,
                file=Path(progress.current).name,
            )
        )

    def current_collection(self) -> str | None:
        item = self.tree.currentItem()
        while item is not None and item.parent() is not None:
            item = item.parent()
        return None if item is None else str(item.data(0, Qt.ItemDataRole.UserRole))

    # ------------------------------------------------------------------ the user's actions

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if dropped_paths(event):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = dropped_paths(event)
        if paths:
            event.acceptProposedAction()
            emit(self.add_requested, paths, self.current_collection() or "")

    def _add_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Add a folder to your documents"))
        if folder:
            emit(self.add_requested, [folder], "")

    def _add_files(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(self, self.tr("Add files to your documents"))
        if not files:
            return
        name, ok = QInputDialog.getText(
            self, self.tr("Collection"), self.tr("Add them to the collection:"), text=self.current_collection() or ""
        )
        if ok and name.strip():
            emit(self.add_requested, files, name.strip())

    def _remove(self) -> None:
        name = self.current_collection()
        if name is None:
            return
        answer = QMessageBox.question(
            self,
            self.tr("Remove the collection"),
            self.tr("Forget the collection {name}? Your files stay where they are.").format(name=name),
        )
        if answer == QMessageBox.StandardButton.Yes:
            emit(self.remove_requested, name)

    def _paused(self, paused: bool) -> None:
        self.pause_button.setText(self.tr("Resume") if paused else self.tr("Pause"))
        emit(self.pause_toggled, paused)

    def _expanded(self, item: QTreeWidgetItem) -> None:
        if item.parent() is None:
            emit(self.files_requested, str(item.data(0, Qt.ItemDataRole.UserRole)))

    def _update_buttons(self) -> None:
        chosen = self.current_collection() is not None
        self.remove_button.setEnabled(chosen)
