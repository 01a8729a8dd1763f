"""The dictation history window: the last dictations, what was heard and what was typed, when,
and into which application; Copy, Type again and Clear all.

Widgets only: the controller fills it (``show_records``) and acts on its signals; Copy puts the
typed text on the clipboard itself.  Reached from File > Dictation history and the tray.
"""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..conversations.dictation_record import DictationRecord
from ..signals import emit

_INDEX_ROLE = Qt.ItemDataRole.UserRole
NOT_SAVED = "not saved"


def kept_for(days: int) -> str:
    """What the retention setting means, in words."""
    if days <= 0:
        return "Dictations are not kept. Turn the history on in Settings > Dictation."
    return f"Dictations are kept for {days} day{'s' if days != 1 else ''} (Settings > Dictation)."


class DictationHistoryWindow(QWidget):
    type_again_requested = Signal(object)  # the DictationRecord to type into the app you were in
    clear_requested = Signal()  # the user confirmed Clear all

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle("Dictation history")
        self.setObjectName("DictationHistory")
        self.resize(760, 520)
        self._records: list[DictationRecord] = []
        self.kept = QLabel(objectName="Hint", wordWrap=True)
        self.problem = QLabel(wordWrap=True, textInteractionFlags=Qt.TextInteractionFlag.TextSelectableByMouse)
        self.problem.setStyleSheet("color: #b42318;")
        self.problem.hide()
        self.list = QTreeWidget()
        self.list.setHeaderLabels(["When", "Application", "Typed"])
        self.list.setRootIsDecorated(False)
        self.list.setUniformRowHeights(True)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setColumnWidth(0, 130)
        self.list.setColumnWidth(1, 150)
        self.list.currentItemChanged.connect(lambda *_: self._show_selected())
        self.heard = QPlainTextEdit(readOnly=True, placeholderText="What was heard")
        self.typed = QPlainTextEdit(readOnly=True, placeholderText="What was typed")
        self.note = QLabel(objectName="Hint", wordWrap=True)
        self.copy_button = QPushButton("Copy")
        self.copy_button.setToolTip("Copy the typed text to the clipboard")
        self.type_button = QPushButton("Type again")
        self.type_button.setToolTip("Type it into the app you were in before this window (else the app it went into)")
        self.clear_button = QPushButton("Clear all…")
        self.copy_button.clicked.connect(self.copy_selected)
        self.type_button.clicked.connect(self._type_again)
        self.clear_button.clicked.connect(self.confirm_clear)

        details = QWidget()
        detail_layout = QVBoxLayout(details)
        detail_layout.setContentsMargins(0, 0, 0, 0)
        detail_layout.addWidget(QLabel("Heard:"))
        detail_layout.addWidget(self.heard, 1)
        detail_layout.addWidget(QLabel("Typed:"))
        detail_layout.addWidget(self.typed, 1)
        detail_layout.addWidget(self.note)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.list)
        splitter.addWidget(details)
        splitter.setSizes([300, 220])
        buttons = QHBoxLayout()
        buttons.addWidget(self.clear_button)
        buttons.addStretch(1)
        buttons.addWidget(self.copy_button)
        buttons.addWidget(self.type_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.kept)
        layout.addWidget(self.problem)
        layout.addWidget(splitter, 1)
        layout.addLayout(buttons)
        self.show_records([], None, 7)

    def show_records(self, records: list[DictationRecord], problem: str | None, keep_days: int) -> None:
        """Show ``records`` (newest first), why the history could not be saved (None: it was),
        and how long it is kept.  The selection stays on the same dictation where it still is."""
        selected = self.selected()
        self._records = list(records)
        self.kept.setText(kept_for(keep_days))
        self.problem.setText(problem or "")
        self.problem.setVisible(bool(problem))
        self.list.clear()
        for index, record in enumerate(self._records):
            when = datetime.fromtimestamp(record.when).strftime("%Y-%m-%d %H:%M")
            shown = " ".join(record.typed.split())
            item = QTreeWidgetItem([when, record.application or "—", shown])
            item.setData(0, _INDEX_ROLE, index)
            item.setToolTip(2, record.typed)
            if record.id is None:
                item.setToolTip(0, f"{when} ({NOT_SAVED})")
                item.setText(0, f"{when} *")
            self.list.addTopLevelItem(item)
        keep = next((i for i, r in enumerate(self._records) if selected is not None and _same(r, selected)), 0)
        current = self.list.topLevelItem(keep)
        if current is not None:
            self.list.setCurrentItem(current)
        self.clear_button.setEnabled(bool(self._records))
        self._show_selected()

    def selected(self) -> DictationRecord | None:
        item = self.list.currentItem()
        return self._records[item.data(0, _INDEX_ROLE)] if item is not None else None

    def copy_selected(self) -> None:
        record = self.selected()
        if record is not None:
            QGuiApplication.clipboard().setText(record.typed)

    def confirm_clear(self) -> None:
        answer = QMessageBox.question(
            self,
            "Clear the dictation history",
            "Delete every dictation in the history? This cannot be undone.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer == QMessageBox.StandardButton.Yes:
            emit(self.clear_requested)

    def appear(self) -> None:
        self.show()
        self.raise_()
        self.activateWindow()

    def _type_again(self) -> None:
        record = self.selected()
        if record is not None:
            emit(self.type_again_requested, record)

    def _show_selected(self) -> None:
        record = self.selected()
        self.heard.setPlainText(record.raw if record else "")
        self.typed.setPlainText(record.typed if record else "")
        notes = [record.note] if record and record.note else []
        if record is not None and record.id is None:
            notes.append("Not saved: it is kept until Parley closes.")
        self.note.setText(" ".join(notes))
        self.note.setVisible(bool(notes))
        for button in (self.copy_button, self.type_button):
            button.setEnabled(record is not None)


def _same(a: DictationRecord, b: DictationRecord) -> bool:
    return (a.id is not None and a.id == b.id) or (a.when, a.typed) == (b.when, b.typed)
