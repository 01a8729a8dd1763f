"""The input area: the text box, Send/Stop, and the push-to-talk button with its level meter.

Every button takes the keyboard focus in turn (Space or Enter presses it; Space held on Hold to
talk is a take, as the talk key is), and the start and end of listening are announced to screen
readers.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QIcon, QKeyEvent, QShowEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QMenu,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..signals import emit
from . import theme
from .announcements import announce

_ENTER_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter)


class MessageEdit(QPlainTextEdit):
    """Enter sends, Shift+Enter starts a new line; grows with its text up to a few lines."""

    submitted = Signal()

    MAX_LINES = 8

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("MessageEdit")
        self.setAccessibleName(self.tr("Message"))
        self.setTabChangesFocus(True)
        self.document().documentLayout().documentSizeChanged.connect(self._fit)
        self._fit()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in _ENTER_KEYS and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            emit(self.submitted)
            return
        if event.key() in _ENTER_KEYS:  # Shift+Enter: a plain new line, not a separator
            self.insertPlainText("\n")
            return
        super().keyPressEvent(event)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._fit()  # the style sheet's padding is known only once polished

    def _fit(self) -> None:
        lines = max(1, int(self.document().size().height()))
        self.setVerticalScrollBarPolicy(
            Qt.ScrollBarPolicy.ScrollBarAsNeeded if lines > self.MAX_LINES else Qt.ScrollBarPolicy.ScrollBarAlwaysOff
        )
        chrome = self.height() - self.viewport().height()
        text = (
            min(lines, self.MAX_LINES) * self.fontMetrics().lineSpacing()
            + 2 * int(self.document().documentMargin())
            + 2
        )
        self.setFixedHeight(text + chrome)


class InputBar(QWidget):
    send_requested = Signal(str)
    stop_requested = Signal()
    talk_pressed = Signal()
    talk_released = Signal()
    hands_free_toggled = Signal(bool)
    busy_changed = Signal(bool)  # a reply streams (Send is Stop)
    hands_free_shown = Signal(bool, bool)  # hands-free is on, it can be turned on
    documents_chosen = Signal(list)  # the collections the open conversation answers from
    documents_page_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("InputBar")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground)
        self._busy = False
        self._send_available = True
        self.recording = False  # the microphone records a take (not hands-free listening)
        self._listening = False  # hands-free listening
        self._waiting_for = ""  # the wake word hands-free waits for ("": none)

        self.edit = MessageEdit()
        self.edit.setPlaceholderText(self.tr("Message Parley…"))
        self.edit.setToolTip(self.tr("Enter sends; Shift+Enter starts a new line"))
        self.edit.submitted.connect(self._submit)

        # The buttons take the focus by Tab only: a click leaves it in the text box.
        self.talk_button = QPushButton(self.tr(" Hold to talk"), objectName="TalkButton")
        self.talk_button.setAccessibleName(self.tr("Hold to talk"))
        self.talk_button.setIcon(self._microphone_icon(False))
        self.talk_button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.talk_button.pressed.connect(self.talk_pressed)
        self.talk_button.released.connect(self.talk_released)
        self.hands_free_button = QPushButton(self.tr("Hands-free"), objectName="HandsFreeButton", checkable=True)
        self.hands_free_button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.hands_free_button.toggled.connect(self.hands_free_toggled)
        self.send_button = QPushButton(self.tr("Send"), objectName="PrimaryButton")
        self.send_button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.send_button.clicked.connect(self._send_or_stop)
        # Which of the user's document collections the conversation answers from
        self.documents_button = QToolButton(objectName="DocumentsButton")
        self.documents_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.documents_button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.documents_menu = QMenu(self.documents_button)
        self.documents_button.setMenu(self.documents_menu)
        self.set_documents([], [])
        for button in (self.talk_button, self.hands_free_button, self.send_button, self.documents_button):
            button.setMinimumHeight(34)
        self.send_button.setMinimumWidth(76)
        # Nothing works until the controller says an engine is ready (the window shows first).
        self.set_talk_available(False, self.tr("The speech model is loading…"))
        self.set_hands_free(False, False, self.tr("The speech model is loading…"))
        self.set_send_available(False, self.tr("The chat model is loading…"))

        self.level_meter = QProgressBar(objectName="LevelMeter", textVisible=False, maximum=1000)
        self.level_meter.setAccessibleName(self.tr("Microphone level"))
        self.level_meter.setFixedHeight(6)
        self.elapsed_label = QLabel("0:00", objectName="Hint")
        self.elapsed_label.setAccessibleName(self.tr("Recording time"))
        self.recording_label = QLabel(self.tr("● Recording"), objectName="RecordingLabel")
        self.recording_row = QWidget()
        recording = QHBoxLayout(self.recording_row)
        recording.setContentsMargins(2, 0, 2, 0)
        recording.addWidget(self.recording_label)
        recording.addWidget(self.level_meter, 1)
        recording.addWidget(self.elapsed_label)
        self.recording_row.hide()
        self.live_label = QLabel(objectName="LiveTranscript", wordWrap=True)
        self.live_label.setToolTip(self.tr("What Parley has heard so far; the final words replace it when you let go"))
        self.live_label.hide()

        row = QHBoxLayout()
        row.setSpacing(8)
        row.addWidget(self.talk_button, 0, Qt.AlignmentFlag.AlignBottom)
        row.addWidget(self.hands_free_button, 0, Qt.AlignmentFlag.AlignBottom)
        row.addWidget(self.edit, 1)
        row.addWidget(self.documents_button, 0, Qt.AlignmentFlag.AlignBottom)
        row.addWidget(self.send_button, 0, Qt.AlignmentFlag.AlignBottom)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 10, 16, 12)
        layout.setSpacing(6)
        layout.addWidget(self.recording_row)
        layout.addWidget(self.live_label)
        layout.addLayout(row)
        self._update_send_button()
        self.edit.textChanged.connect(self._update_send_button)

    # -------------------------------------------------------------- state set by the controller

    def set_documents(self, collections: list[str], chosen: list[str]) -> None:
        """The collections there are, and those the open conversation answers from."""
        self.documents_menu.clear()
        for name in collections:
            action = self.documents_menu.addAction(name)
            action.setCheckable(True)
            action.setChecked(name in chosen)
            action.toggled.connect(self._documents_toggled)
        if collections:
            self.documents_menu.addSeparator()
        self.documents_menu.addAction(self.tr("Manage documents…"), self.documents_page_requested)
        if chosen:
            text = self.tr("Documents: {names}").format(names=", ".join(chosen))
        else:
            text = self.tr("Documents")
        self.documents_button.setText(text if len(text) <= 32 else text[:31] + "…")
        self.documents_button.setToolTip(
            self.tr("Answers come from: {names}").format(names=", ".join(chosen))
            if chosen
            else self.tr("Answer from your documents: choose the collections this conversation uses")
        )
        self.documents_button.setAccessibleName(text)
        self.documents_button.setAccessibleDescription(self.documents_button.toolTip())

    def _documents_toggled(self, _checked: bool) -> None:
        chosen = [a.text() for a in self.documents_menu.actions() if a.isCheckable() and a.isChecked()]
        emit(self.documents_chosen, chosen)

    def set_busy(self, busy: bool) -> None:
        """While a reply streams the Send button becomes Stop."""
        changed = busy != self._busy
        self._busy = busy
        self.send_button.setText(self.tr("Stop") if busy else self.tr("Send"))
        self.send_button.setAccessibleDescription(self.tr("Stop the reply (Esc)") if busy else "")
        self.send_button.setObjectName("StopButton" if busy else "PrimaryButton")
        self.send_button.style().unpolish(self.send_button)
        self.send_button.style().polish(self.send_button)
        self._update_send_button()
        if changed:
            emit(self.busy_changed, busy)

    def set_send_available(self, available: bool, reason: str = "") -> None:
        self._send_available = available
        self.send_button.setToolTip("" if available else reason)
        self._update_send_button()

    def set_talk_available(self, available: bool, reason: str = "") -> None:
        self.talk_button.setEnabled(available)
        self.talk_button.setToolTip(self.tr("Hold to talk; release to send") if available else reason)

    def set_hands_free(self, active: bool, available: bool, reason: str = "") -> None:
        """The hands-free toggle: on while listening; off and disabled when it cannot listen."""
        self.hands_free_button.blockSignals(True)
        self.hands_free_button.setChecked(active)
        self.hands_free_button.blockSignals(False)
        self.hands_free_button.setEnabled(available or active)
        self.hands_free_button.setToolTip(
            (
                self.tr("Listening: each thing you say is sent. Click (or press the talk key) to stop.")
                if active
                else self.tr("Keep the microphone open and send each thing you say")
            )
            if available or active
            else reason
        )
        emit(self.hands_free_shown, active, available)

    def set_recording(self, recording: bool, hands_free: bool = False) -> None:
        """Show that the microphone records: a push-to-talk take, or hands-free listening."""
        held = recording and not hands_free
        if held != self.recording:
            announce(self, self.tr("Recording") if held else self.tr("Recording ended"))
        if (recording and hands_free) != self._listening:
            announce(self, self.tr("Listening hands-free") if recording else self.tr("Hands-free listening ended"))
        self.recording, self._listening = held, recording and hands_free
        self.talk_button.setProperty("recording", held)
        self.talk_button.setText(self.tr(" Listening…") if held else self.tr(" Hold to talk"))
        self.talk_button.setIcon(self._microphone_icon(held))
        self.talk_button.style().unpolish(self.talk_button)
        self.talk_button.style().polish(self.talk_button)
        self._show_recording_label(hands_free)
        self.elapsed_label.setVisible(not hands_free)
        self.recording_row.setVisible(recording)
        if recording:
            self.set_level(0.0)
            self.set_elapsed(0.0)
        self.set_live_text("")

    def show_wake_word(self, phrase: str) -> None:
        """Hands-free waits for its wake word ``phrase`` (""): it listens for anything."""
        self._waiting_for = phrase
        self._show_recording_label(self._listening)

    def _show_recording_label(self, hands_free: bool) -> None:
        if not hands_free:
            self.recording_label.setText(self.tr("● Recording"))
        elif self._waiting_for:
            self.recording_label.setText(self.tr("● Waiting for “{word}”").format(word=self._waiting_for))
        else:
            self.recording_label.setText(self.tr("● Listening hands-free"))

    def _microphone_icon(self, held: bool) -> QIcon:
        colours = theme.colours()
        return theme.microphone_icon(colours.on_recording if held else colours.text)

    def changeEvent(self, event: QEvent) -> None:
        """A new scheme (dark, high contrast) draws the microphone in its text colour."""
        if event.type() == QEvent.Type.PaletteChange:
            self.talk_button.setIcon(self._microphone_icon(self.recording))
        super().changeEvent(event)

    def set_live_text(self, text: str) -> None:
        """The words heard so far while the key is held (empty: hidden)."""
        self.live_label.setText(text)
        self.live_label.setVisible(bool(text))

    def set_level(self, level: float) -> None:
        self.level_meter.setValue(int(max(0.0, min(1.0, level)) * 1000))

    def set_elapsed(self, seconds: float) -> None:
        whole = int(seconds)
        self.elapsed_label.setText(f"{whole // 60}:{whole % 60:02d}")  # a clock's digits, as everywhere

    def insert_text(self, text: str) -> None:
        """Put a transcript into the text box for editing (send-on-release off)."""
        cursor = self.edit.textCursor()
        before = self.edit.toPlainText()[: cursor.position()]
        if before and not before[-1].isspace():
            text = " " + text
        cursor.insertText(text)
        self.edit.setFocus()

    # -------------------------------------------------------------- internals

    def _submit(self) -> None:
        text = self.edit.toPlainText().strip()
        if not text or self._busy or not self._send_available:
            return
        self.edit.clear()
        emit(self.send_requested, text)

    def _send_or_stop(self) -> None:
        if self._busy:
            emit(self.stop_requested)
        else:
            self._submit()

    def _update_send_button(self) -> None:
        has_text = bool(self.edit.toPlainText().strip())
        self.send_button.setEnabled(self._busy or (self._send_available and has_text))
