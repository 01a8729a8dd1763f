"""Push-to-talk from the keyboard: an application-wide event filter.

Holding the configured shortcut (default Ctrl+Space) anywhere in the main window, or Space
alone while no text field has the focus, emits ``pressed`` once and ``released`` once.
Key auto-repeat (repeated presses, and on X11 repeated release/press pairs) is swallowed so
a held key never restarts a recording, and losing the window's focus counts as a release,
since the real key release would then go to another application.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QKeySequenceEdit,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)

from ..signals import emit

_MODIFIER_MASK = (Qt.KeyboardModifier.ShiftModifier | Qt.KeyboardModifier.ControlModifier
                  | Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.MetaModifier)


def _takes_text(widget: QWidget | None) -> bool:
    """Whether Space typed into ``widget`` means a space character (or is otherwise its own)."""
    if isinstance(widget, (QLineEdit, QPlainTextEdit, QAbstractSpinBox, QKeySequenceEdit)):
        return True
    if isinstance(widget, QTextEdit):
        return not widget.isReadOnly()
    return isinstance(widget, QComboBox) and widget.isEditable()


class PushToTalkKeys(QObject):
    pressed = Signal()
    released = Signal()

    def __init__(self, window: QWidget, shortcut: str = "Ctrl+Space") -> None:
        super().__init__(window)
        self._window = window
        self._held_key: Qt.Key | None = None
        self._key = Qt.Key.Key_Space
        self._modifiers = Qt.KeyboardModifier.ControlModifier
        self.set_shortcut(shortcut)
        QApplication.instance().installEventFilter(self)

    @property
    def held(self) -> bool:
        return self._held_key is not None

    def set_shortcut(self, shortcut: str) -> None:
        """Use ``shortcut`` (QKeySequence text such as "Ctrl+Space"); only its first chord counts."""
        sequence = QKeySequence(shortcut, QKeySequence.SequenceFormat.PortableText)
        if sequence.isEmpty():
            raise ValueError(f"not a key combination: {shortcut!r}")
        chord = sequence[0]
        self._key = chord.key()
        self._modifiers = chord.keyboardModifiers() & _MODIFIER_MASK

    def release(self) -> None:
        """End a held press now (the window lost focus, or the filter is being reset)."""
        if self._held_key is not None:
            self._held_key = None
            emit(self.released)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease, QEvent.Type.ShortcutOverride):
            return self._on_key(watched, event)  # type: ignore[arg-type]
        if kind == QEvent.Type.WindowDeactivate and watched is self._window:
            self.release()
        elif kind == QEvent.Type.ApplicationStateChange and \
                QApplication.applicationState() != Qt.ApplicationState.ApplicationActive:
            self.release()
        return False

    def _on_key(self, watched: QObject, event: QKeyEvent) -> bool:
        kind = event.type()
        if self._held_key is not None:
            if event.key() != self._held_key:
                return False
            if kind == QEvent.Type.KeyRelease and not event.isAutoRepeat():
                self.release()
            event.accept()
            return True        # the held key's repeats go nowhere else
        if not self._in_window(watched) or not self._matches(event, watched):
            return False
        if kind == QEvent.Type.ShortcutOverride:
            event.accept()     # no window shortcut may take the key: it must arrive as a KeyPress
            return True
        if kind == QEvent.Type.KeyPress and not event.isAutoRepeat():
            self._held_key = Qt.Key(event.key())
            emit(self.pressed)
            return True
        return False

    def _matches(self, event: QKeyEvent, watched: QObject) -> bool:
        key, modifiers = event.key(), event.modifiers() & _MODIFIER_MASK
        if key == self._key and modifiers == self._modifiers:
            return True
        return key == Qt.Key.Key_Space and modifiers == Qt.KeyboardModifier.NoModifier \
            and not _takes_text(QApplication.focusWidget() or watched)  # type: ignore[arg-type]

    def _in_window(self, watched: QObject) -> bool:
        return isinstance(watched, QWidget) and watched.window() is self._window \
            and QApplication.activeModalWidget() is None
