"""Push-to-talk from the keyboard: an application-wide event filter.

Holding the configured shortcut (default Ctrl+Space) anywhere in the main window, or Space
alone while neither a text field nor a button (other than Hold to talk) has the focus, emits
``pressed`` once and ``released`` once.
Key auto-repeat is swallowed so a held key never restarts a recording, and losing the window's
focus counts as a release, since the real key release would then go to another application.

Auto-repeat on X11: while a key is held the X server sends a KeyRelease + KeyPress pair with
the same timestamp about 25 times a second.  Qt's xcb backend marks a pair as auto-repeat
only when the KeyPress is already in its event queue as it handles the KeyRelease; when the
press is still unread on the socket, Qt reports an ordinary release and then an ordinary
press (measured under Xvfb: from 2 to 98 % of the pairs in a hold, with or without Ctrl,
depending on timing), so ``isAutoRepeat()`` cannot be trusted.  So on X11 a release of the held
key ends the hold only if the X server says the key
is up (``HeldKeys``, given by the controller), and a press carrying the timestamp of the release just before it is
the second half of such a pair (read after the hold ended), not a new hold.  Elsewhere
(Wayland, Windows, macOS, offscreen) Qt's flag is reliable and is used alone.
"""

from __future__ import annotations

from typing import Protocol, cast

from PySide6.QtCore import QEvent, QKeyCombination, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QKeySequenceEdit,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)

from ..qt_app import application
from ..signals import emit

_MODIFIER_MASK = (
    Qt.KeyboardModifier.ShiftModifier
    | Qt.KeyboardModifier.ControlModifier
    | Qt.KeyboardModifier.AltModifier
    | Qt.KeyboardModifier.MetaModifier
)


def _takes_text(widget: QObject | None) -> bool:
    """Whether Space typed into ``widget`` means a space character (or is otherwise its own: it
    presses a focused button, except Hold to talk, where holding it is a take)."""
    if isinstance(widget, (QLineEdit, QPlainTextEdit, QAbstractSpinBox, QKeySequenceEdit)):
        return True
    if isinstance(widget, QAbstractButton):
        return widget.objectName() != "TalkButton"
    if isinstance(widget, QTextEdit):
        return not widget.isReadOnly()
    return isinstance(widget, QComboBox) and widget.isEditable()


class HeldKeys(Protocol):
    """Asks the window system which keys are down now (``desktop.shortcuts.x11_key_state`` on
    X11); ``available`` is False where it cannot, and Qt's auto-repeat flag is then trusted."""

    @property
    def available(self) -> bool: ...
    def is_down(self, keycode: int) -> bool | None: ...


class _NoHeldKeys:
    available = False

    def is_down(self, keycode: int) -> bool | None:
        return None


class PushToTalkKeys(QObject):
    pressed = Signal()
    released = Signal()

    def __init__(self, window: QWidget, shortcut: str = "Ctrl+Space", held_keys: HeldKeys | None = None) -> None:
        """``held_keys``: where the X server can say which keys are down (None: elsewhere)."""
        super().__init__(window)
        self._window = window
        self._held_key: Qt.Key | None = None
        self._held_code = 0  # the held key's native (X) key code
        self._last_release: tuple[int, int] | None = None  # X11: (key code, timestamp) of the last release
        self._key = Qt.Key.Key_Space
        self._modifiers = Qt.KeyboardModifier.ControlModifier
        self._keyboard = held_keys or _NoHeldKeys()
        self.set_shortcut(shortcut)
        app = application()
        assert app is not None, "a window exists, so does the application"
        app.installEventFilter(self)

    @property
    def held(self) -> bool:
        return self._held_key is not None

    def set_shortcut(self, shortcut: str) -> None:
        """Use ``shortcut`` (QKeySequence text such as "Ctrl+Space"); only its first chord counts."""
        sequence = QKeySequence(shortcut, QKeySequence.SequenceFormat.PortableText)
        if sequence.isEmpty():
            raise ValueError(f"not a key combination: {shortcut!r}")
        chord: QKeyCombination = sequence[0]  # type: ignore[index]  # stubs omit QKeySequence.__getitem__
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
            return self._on_key(watched, cast(QKeyEvent, event))  # these types are QKeyEvents
        if kind == QEvent.Type.WindowDeactivate and watched is self._window:
            self.release()
        elif (
            kind == QEvent.Type.ApplicationStateChange
            and QApplication.applicationState() != Qt.ApplicationState.ApplicationActive
        ):
            self.release()
        return False

    def _on_key(self, watched: QObject, event: QKeyEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.KeyRelease and self._keyboard.available:
            self._last_release = (event.nativeScanCode(), event.timestamp())
        if self._held_key is not None:
            if event.key() != self._held_key:
                return False
            if kind == QEvent.Type.KeyRelease and not self._repeated(event, self._held_code):
                self.release()
            event.accept()
            return True  # the held key's repeats go nowhere else
        if not self._in_window(watched) or not self._matches(event, watched):
            return False
        if kind == QEvent.Type.ShortcutOverride:
            event.accept()  # no window shortcut may take the key: it must arrive as a KeyPress
            return True
        if kind != QEvent.Type.KeyPress:
            return False
        if event.isAutoRepeat() or self._completes_a_repeat(event):
            return True  # the held key repeating after its hold ended: no new hold
        self._held_key, self._held_code = Qt.Key(event.key()), event.nativeScanCode()
        emit(self.pressed)
        return True

    def _repeated(self, release: QKeyEvent, keycode: int) -> bool:
        """Whether ``release`` of the held key is half of an auto-repeat pair, not the real one."""
        if release.isAutoRepeat():
            return True
        return bool(self._keyboard.is_down(keycode))  # unknown (not X11): Qt's flag was right

    def _completes_a_repeat(self, press: QKeyEvent) -> bool:
        """X11: whether ``press`` is the second half of an auto-repeat pair that Qt did not mark.
        The server gives both halves one timestamp; a person cannot let go and press again
        within the same millisecond."""
        return self._keyboard.available and self._last_release == (press.nativeScanCode(), press.timestamp())

    def _matches(self, event: QKeyEvent, watched: QObject) -> bool:
        key, modifiers = event.key(), event.modifiers() & _MODIFIER_MASK
        if key == self._key and modifiers == self._modifiers:
            return True
        return (
            key == Qt.Key.Key_Space
            and modifiers == Qt.KeyboardModifier.NoModifier
            and not _takes_text(QApplication.focusWidget() or watched)
        )

    def _in_window(self, watched: QObject) -> bool:
        return (
            isinstance(watched, QWidget)
            and watched.window() is self._window
            and QApplication.activeModalWidget() is None
        )
