"""Counting the presses of one key that Qt hands to the app's windows (the key tests on X11 and
Wayland), and how many of them Qt marked as auto-repeat.  Imports Qt: only for processes whose
QApplication runs on a real display server."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QWindow
from PySide6.QtWidgets import QApplication


class KeySpy(QObject):
    """Installed after the controller, so it sees each event before the push-to-talk filter
    (application filters run newest first)."""

    def __init__(self, key: Qt.Key) -> None:
        super().__init__()
        self.key = key
        self.presses = self.marked = 0
        QApplication.instance().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if isinstance(watched, QWindow) and event.type() == QEvent.Type.KeyPress and event.key() == self.key:  # type: ignore[attr-defined]
            self.presses += 1
            self.marked += event.isAutoRepeat()  # type: ignore[attr-defined]
        return False

    def remove(self) -> None:
        QApplication.instance().removeEventFilter(self)
