"""Parley's icon in the system tray (a StatusNotifierItem on Linux desktops, through Qt).

It shows what Parley is doing (``TrayState``: idle, recording, transcribing, answering) in its
tooltip, and its menu opens the window, starts or ends a dictation (typed into the app that has
the focus) or a question (answered in the quick-ask window), opens the dictation history, turns
hands-free on or off and quits.  Dictate and Ask Parley show their system-wide shortcuts beside
them (``set_shortcuts``), as the window's menus show theirs; a panel's own menu (DBusMenu)
shows them too.  With ``close to tray`` on, closing the window only hides it; Quit in this menu
ends Parley.  Where the desktop has no tray (``available`` is False), the window behaves as
before.
"""

from __future__ import annotations

import enum

from PySide6.QtCore import QT_TRANSLATE_NOOP, QObject, Qt, Signal
from PySide6.QtGui import QAction, QIcon, QKeySequence
from PySide6.QtWidgets import QMenu, QSystemTrayIcon

from ..signals import emit


class TrayState(enum.Enum):
    IDLE = "idle"
    RECORDING = "recording"
    TRANSCRIBING = "transcribing"
    ANSWERING = "answering"


_SAID = {  # translated where shown (``Tray.set_state``)
    TrayState.IDLE: QT_TRANSLATE_NOOP("Tray", "ready"),
    TrayState.RECORDING: QT_TRANSLATE_NOOP("Tray", "listening…"),
    TrayState.TRANSCRIBING: QT_TRANSLATE_NOOP("Tray", "transcribing…"),
    TrayState.ANSWERING: QT_TRANSLATE_NOOP("Tray", "answering…"),
}


class Tray(QObject):
    open_requested = Signal()
    dictate_requested = Signal()
    ask_requested = Signal()
    history_requested = Signal()  # the dictation history window
    hands_free_toggled = Signal(bool)
    quit_requested = Signal()

    def __init__(self, icon: QIcon, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.state = TrayState.IDLE
        self._told_about_hiding = False
        self._icon = QSystemTrayIcon(icon, self)
        self._menu = QMenu()
        self._menu.setAccessibleName("Parley")
        self._open = self._add(self.tr("Open Parley"), lambda: emit(self.open_requested))
        self._dictate = self._add(self.tr("Dictate"), lambda: emit(self.dictate_requested))
        self._dictate.setToolTip(self.tr("Start or stop dictating into the app you are in"))
        self._ask = self._add(self.tr("Ask Parley"), lambda: emit(self.ask_requested))
        self._ask.setToolTip(self.tr("Start or stop a spoken question, answered above the other windows"))
        for action in (self._dictate, self._ask):  # the keys are shown; the desktop listens for them
            action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self._history = self._add(self.tr("Dictation history…"), lambda: emit(self.history_requested))
        self._history.setToolTip(self.tr("The last dictations: copy one, or type it again into the app you are in"))
        self._hands_free: QAction = self._menu.addAction(self.tr("Hands-free"))
        self._hands_free.setCheckable(True)
        self._hands_free.toggled.connect(lambda on: emit(self.hands_free_toggled, on))
        self._menu.addSeparator()
        self._add(self.tr("Quit Parley"), lambda: emit(self.quit_requested))
        self._icon.setContextMenu(self._menu)
        self._icon.activated.connect(self._activated)
        self.set_state(TrayState.IDLE)

    @staticmethod
    def available() -> bool:
        """The desktop shows tray icons (a StatusNotifier host or an XEmbed tray runs)."""
        return QSystemTrayIcon.isSystemTrayAvailable()

    @property
    def tooltip(self) -> str:
        return self._icon.toolTip()

    def show(self) -> None:
        self._icon.show()

    def hide(self) -> None:
        self._icon.hide()

    def set_state(self, state: TrayState) -> None:
        self.state = state
        self._icon.setToolTip(self.tr("Parley: {state}").format(state=self.tr(str(_SAID[state]))))

    def show_activity(self, *, recording: bool, transcribing: bool, answering: bool, hands_free: bool) -> None:
        """What Parley is doing now; the first that applies is shown."""
        if recording:
            self.set_state(TrayState.RECORDING)
        elif transcribing:
            self.set_state(TrayState.TRANSCRIBING)
        elif answering:
            self.set_state(TrayState.ANSWERING)
        else:
            self.set_state(TrayState.IDLE)
        self.set_hands_free(hands_free)

    def window_hidden(self) -> None:
        """The window was closed to the tray: say once where Parley went."""
        if not self._told_about_hiding:
            self._told_about_hiding = True
            self.say(self.tr("Parley keeps running here. Quit from this icon's menu."))

    def say(self, text: str) -> None:
        """A short balloon from the icon (where the desktop shows them)."""
        self._icon.showMessage("Parley", text, QSystemTrayIcon.MessageIcon.Information, 8000)

    def set_shortcuts(self, dictate: str, ask: str) -> None:
        """The system-wide shortcuts (Qt's portable text; "": none works) beside Dictate and Ask
        Parley."""
        for action, keys in ((self._dictate, dictate), (self._ask, ask)):
            action.setShortcut(QKeySequence(keys, QKeySequence.SequenceFormat.PortableText))

    def set_hands_free(self, on: bool) -> None:
        """Show hands-free mode as it is (without asking for it again)."""
        self._hands_free.blockSignals(True)
        self._hands_free.setChecked(on)
        self._hands_free.blockSignals(False)

    def _add(self, text: str, triggered: object) -> QAction:
        action = self._menu.addAction(text)
        action.triggered.connect(triggered)
        return action

    def _activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason in (QSystemTrayIcon.ActivationReason.Trigger, QSystemTrayIcon.ActivationReason.DoubleClick):
            emit(self.open_requested)
