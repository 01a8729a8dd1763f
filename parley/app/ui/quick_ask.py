"""The quick-ask window: a small window above the others for a question asked from anywhere.

It shows what Parley heard and the answer as it streams, with buttons to copy the answer,
insert it into the application that had the focus, or open the conversation in the main
window.  Esc closes it.  Widgets only: the controller fills it and acts on its signals.  What it
hears, that it thinks, the answer when it is complete and a problem are announced to screen
readers; the focus stays where it is.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QCloseEvent, QGuiApplication, QKeyEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QTextBrowser, QVBoxLayout, QWidget

from ..signals import emit
from .announcements import announce, spoken_text

WIDTH, HEIGHT = 560, 320
ANSWERED = ("eog", "stop", "max_tokens")  # the engine's finish reasons of an answer that was written


class QuickAskWindow(QWidget):
    insert_requested = Signal(str)  # the answer, for the app that had the focus
    open_requested = Signal()  # show the conversation in the main window
    closed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Tool | Qt.WindowType.WindowStaysOnTopHint)
        self.setWindowTitle(self.tr("Ask Parley"))
        self.setObjectName("QuickAsk")
        self.resize(WIDTH, HEIGHT)
        self.question = QLabel(objectName="QuickAskQuestion", wordWrap=True)
        self.question.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.question.setAccessibleDescription(self.tr("Your question"))
        self.answer = QTextBrowser(objectName="QuickAskAnswer")
        self.answer.setAccessibleName(self.tr("Answer"))
        self.answer.setOpenExternalLinks(False)
        self.state = QLabel(objectName="QuickAskState")
        self.copy_button = QPushButton(self.tr("Copy"))
        self.copy_button.setToolTip(self.tr("Copy the answer to the clipboard"))
        self.insert_button = QPushButton(self.tr("Insert"))
        self.insert_button.setToolTip(self.tr("Type the answer into the app you were in"))
        self.open_button = QPushButton(self.tr("Open in Parley"))
        self.open_button.setToolTip(self.tr("Show this conversation in Parley's window"))
        self.copy_button.clicked.connect(self._copy)
        self.insert_button.clicked.connect(lambda: emit(self.insert_requested, self.answer.toPlainText()))
        self.open_button.clicked.connect(lambda: emit(self.open_requested))
        buttons = QHBoxLayout()
        buttons.addWidget(self.state, 1)
        for button in (self.copy_button, self.insert_button, self.open_button):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.question)
        layout.addWidget(self.answer, 1)
        layout.addLayout(buttons)
        self._set_answer_buttons(False)

    def listening(self) -> None:
        """A question is being spoken."""
        self.question.setText(self.tr("Listening…"))
        self.answer.clear()
        self.state.setText("")
        self._set_answer_buttons(False)
        self.appear()
        announce(self, self.tr("Ask Parley: listening"))

    def heard_so_far(self, text: str) -> None:
        if text:
            self.question.setText(text + " …")

    def asked(self, text: str) -> None:
        self.question.setText(text)
        self.answer.clear()
        self.state.setText(self.tr("Thinking…"))
        self.appear()
        announce(self, self.tr("You asked: {question}").format(question=text))

    def grew(self, piece: str) -> None:
        cursor = self.answer.textCursor()
        cursor.movePosition(cursor.MoveOperation.End)
        cursor.insertText(piece)
        self.answer.setTextCursor(cursor)
        self.state.setText(self.tr("Answering…"))

    def answered(self, text: str, how: str) -> None:
        self.answer.setPlainText(text)
        endings = {
            "cancelled": self.tr("The answer was stopped."),
            "error": self.tr("The answer failed."),
            "context": self.tr("The answer filled the model's context."),
        }
        ending = "" if how in ANSWERED else endings.get(how, self.tr("The answer ended early ({how}).").format(how=how))
        self.state.setText(ending)
        self._set_answer_buttons(bool(text.strip()))
        announce(self, " ".join(filter(None, [spoken_text(text), ending])))

    def problem(self, text: str) -> None:
        self.state.setText(text)
        self.appear()
        announce(self, text, urgent=True)

    def appear(self) -> None:
        """Show at the top centre of the screen the pointer is on, above the other windows."""
        if not self.isVisible():
            screen = QGuiApplication.screenAt(self.cursor().pos()) or QGuiApplication.primaryScreen()
            if screen is not None:
                area = screen.availableGeometry()
                self.move(area.x() + (area.width() - self.width()) // 2, area.y() + area.height() // 8)
        self.show()
        self.raise_()
        self.activateWindow()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt's name
        if event.key() == Qt.Key.Key_Escape:
            self.close()
            return
        super().keyPressEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt's name
        super().closeEvent(event)
        emit(self.closed)

    def _copy(self) -> None:
        QGuiApplication.clipboard().setText(self.answer.toPlainText())
        self.state.setText(self.tr("Copied."))
        announce(self, self.tr("Copied."))

    def _set_answer_buttons(self, on: bool) -> None:
        for button in (self.copy_button, self.insert_button):
            button.setEnabled(on)
