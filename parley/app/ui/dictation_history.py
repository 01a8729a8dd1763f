"""The dictation history window: the last dictations, what was heard and what was typed, when,
and into which application; Copy, Type again and Clear all.

Widgets only: the controller fills it (``show_records``) and acts on its signals; Copy puts the
typed text on the clipboard itself.  Reached from File > Dictation history and the tray.  The
times are written as the interface's locale writes them; the two text boxes and the buttons
have Alt+letters, and Tab goes from the list through the texts to the buttons as they are shown.
"""

from __future__ import annotations

from PySide6.QtCore import QDateTime, QLocale, Qt, Signal
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
from . import theme
from .announcements import announce

_INDEX_ROLE = Qt.ItemDataRole.UserRole


def written_time(when: float) -> str:
    """A dictation's time as the locale writes a date and time, short ("11/28/26 6:51 AM")."""
    return QLocale().toString(QDateTime.fromSecsSinceEpoch(int(when)), QLocale.FormatType.ShortFormat)


class DictationHistoryWindow(QWidget):
    type_again_requested = Signal(object)  # the DictationRecord to type into the app you were in
    clear_requested = Signal()  # the user confirmed Clear all

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle(self.tr("Dictation history"))
        self.setObjectName("DictationHistory")
        self.resize(760, 520)
        self._records: list[DictationRecord] = []
        self.kept = QLabel(objectName="Hint", wordWrap=True)
        self.problem = QLabel(wordWrap=True, textInteractionFlags=Qt.TextInteractionFlag.TextSelectableByMouse)
        theme.mark_problem(self.problem)
        self.problem.hide()
        self.list = QTreeWidget()
        self.list.setAccessibleName(self.tr("Dictations"))
        self.list.setHeaderLabels([self.tr("When"), self.tr("Application"), self.tr("Typed")])
        self.list.setRootIsDecorated(False)
        self.list.setUniformRowHeights(True)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setColumnWidth(0, 130)
        self.list.setColumnWidth(1, 150)
        self.list.currentItemChanged.connect(lambda *_: self._show_selected())
        self.heard = self._text_box(self.tr("What was heard"))
        self.typed = self._text_box(self.tr("What was typed"))
        self.note = QLabel(objectName="Hint", wordWrap=True)
        self.copy_button = QPushButton(self.tr("&Copy"))
        self.copy_button.setToolTip(self.tr("Copy the typed text to the clipboard"))
        self.type_button = QPushButton(self.tr("&Type again"))
        self.type_button.setToolTip(
            self.tr("Type it into the app you were in before this window (else the app it went into)")
        )
        self.clear_button = QPushButton(self.tr("C&lear all…"))
        self.clear_button.setToolTip(self.tr("Delete every dictation in the history"))
        self.copy_button.clicked.connect(self.copy_selected)
        self.type_button.clicked.connect(self._type_again)
        self.clear_button.clicked.connect(self.confirm_clear)

        details = QWidget()
        detail_layout = QVBoxLayout(details)
        detail_layout.setContentsMargins(0, 0, 0, 0)
        for words, box in ((self.tr("&Heard:"), self.heard), (self.tr("T&yped:"), self.typed)):
            label = QLabel(words)
            label.setBuddy(box)
            box.setAccessibleName(words.replace("&", "").rstrip(":： "))
            detail_layout.addWidget(label)
            detail_layout.addWidget(box, 1)
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
        for before, after in zip(
            [self.list, self.heard, self.typed, self.clear_button, self.copy_button],
            [self.heard, self.typed, self.clear_button, self.copy_button, self.type_button],
            strict=True,
        ):
            QWidget.setTabOrder(before, after)
        self.show_records([], None, 7)

    @staticmethod
    def _text_box(placeholder: str) -> QPlainTextEdit:
        """A read-only text a screen reader can go through with the arrow keys; Tab leaves it."""
        box = QPlainTextEdit(readOnly=True, placeholderText=placeholder, tabChangesFocus=True)
        box.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        return box

    def show_records(self, records: list[DictationRecord], problem: str | None, keep_days: int) -> None:
        """Show ``records`` (newest first), why the history could not be saved (None: it was),
        and how long it is kept.  The selection stays on the same dictation where it still is."""
        selected = self.selected()
        self._records = list(records)
        self.kept.setText(self._kept_for(keep_days))
        self.problem.setText(problem or "")
        self.problem.setVisible(bool(problem))
        self.list.clear()
        for index, record in enumerate(self._records):
            when = written_time(record.when)
            shown = " ".join(record.typed.split())
            item = QTreeWidgetItem([when, record.application or "—", shown])
            item.setData(0, _INDEX_ROLE, index)
            item.setToolTip(2, record.typed)
            if not record.application:
                item.setData(1, Qt.ItemDataRole.AccessibleTextRole, self.tr("Application not known"))
            if record.id is None:
                not_saved = self.tr("{when} (not saved)").format(when=when)
                item.setToolTip(0, not_saved)
                item.setData(0, Qt.ItemDataRole.AccessibleTextRole, not_saved)
                item.setText(0, f"{when} *")
            self.list.addTopLevelItem(item)
        keep = next((i for i, r in enumerate(self._records) if selected is not None and _same(r, selected)), 0)
        current = self.list.topLevelItem(keep)
        if current is not None:
            self.list.setCurrentItem(current)
        self.clear_button.setEnabled(bool(self._records))
        self._show_selected()

    def _kept_for(self, days: int) -> str:
        """What the retention setting means, in words."""
        if days <= 0:
            return self.tr("Dictations are not kept. Turn the history on in Settings > Dictation.")
        return self.tr("Dictations are kept for %Ln day(s) (Settings > Dictation).", "", days)

    def selected(self) -> DictationRecord | None:
        item = self.list.currentItem()
        return self._records[item.data(0, _INDEX_ROLE)] if item is not None else None

    def copy_selected(self) -> None:
        record = self.selected()
        if record is not None:
            QGuiApplication.clipboard().setText(record.typed)
            announce(self, self.tr("Copied"))

    def confirm_clear(self) -> None:
        answer = QMessageBox.question(
            self,
            self.tr("Clear the dictation history"),
            self.tr("Delete every dictation in the history? This cannot be undone."),
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
            notes.append(self.tr("Not saved: it is kept until Parley closes."))
        self.note.setText(" ".join(notes))
        self.note.setVisible(bool(notes))
        for button in (self.copy_button, self.type_button):
            button.setEnabled(record is not None)


def _same(a: DictationRecord, b: DictationRecord) -> bool:
    return (a.id is not None and a.id == b.id) or (a.when, a.typed) == (b.when, b.typed)
