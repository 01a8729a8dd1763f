"""Putting a transcript where the user's cursor is, in another application.

Two ways, a setting chooses:

- **type** (default): key events for each character, in any layout, characters the layout lacks
  included; the clipboard is never touched.  On X11 through XTEST (``x11``), on Windows
  through ``SendInput`` (``windows``), on macOS through Quartz events (``mac``); on Wayland
  through the compositor's virtual keyboard where it offers one (``wayland``: sway,
  Hyprland and the other wlroots desktops), else the desktop portal's RemoteDesktop keyboard
  (``portal``: GNOME, KDE, after the user agrees once); ``can_type`` says when neither;
- **paste:** the clipboard is saved (every format it holds), set to the text, Ctrl+V is sent,
  and once the application has had time to read it, what the clipboard held is put back.  Not
  on Wayland, where an app may set the clipboard only while it has the focus: there it types.

Nothing is typed while one of Parley's own windows has the focus: ``finished`` then says so,
and the caller keeps the text.  The key events are sent from a thread of their own (typing
sleeps between characters); the clipboard is only touched on the UI thread.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QMimeData, QObject, QTimer, Signal
from PySide6.QtGui import QClipboard, QGuiApplication

from ...signals import emit
from ..focused_app import FocusedApp, focused_app
from .mac import MacKeyboard
from .windows import WindowsKeyboard
from .x11 import X11Keyboard

log = logging.getLogger("parley.typing")

PASTE_READ_S = 0.5  # time for the target to fetch the pasted text before the clipboard is restored
PARLEY_HAS_FOCUS = "Parley itself had the focus"


def can_type() -> str | None:
    """Why text cannot be typed into other applications in this session (None: it can)."""
    platform = QGuiApplication.platformName()
    if platform in ("xcb", "windows", "cocoa"):
        return None
    if platform.startswith("wayland"):
        from .portal import portal_keyboard_problem
        from .wayland import virtual_keyboard_problem

        problem = virtual_keyboard_problem()
        if problem is None:
            return None
        portal = portal_keyboard_problem()
        if portal is None:
            return None
        return f"{problem[0].upper()}{problem[1:]}, and {portal}: Parley cannot type into other apps here."
    return f"Parley cannot type into other apps in this session ({platform})."


def focused_application(window: int = 0) -> FocusedApp | None:
    """The application that ``window`` (0: the focus now) belongs to, where the desktop says
    so (X11); None elsewhere, or when it cannot be told."""
    return focused_app(window) if QGuiApplication.platformName() == "xcb" else None


def app_modes_problem() -> str | None:
    """Why the per-application modes cannot work in this session (None: they can)."""
    platform = QGuiApplication.platformName()
    if platform == "xcb":
        return None
    if platform.startswith("wayland"):
        return QCoreApplication.translate(
            "Typist",
            "On Wayland no application may know which window has the focus, so the modes per "
            "application cannot be used: every dictation is typed as set above.",
        )
    said = QCoreApplication.translate("Typist", "Modes per application work on X11 only (this session: {platform}).")
    return said.format(platform=platform)


class Typist(QObject):
    finished = Signal(str, str)  # the text, and why it was not typed ("" when it was)
    _sent = Signal(str, str, str)  # from the typing thread: text, problem, method

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._saved: QMimeData | None = None
        self._busy = False
        self._cancelled = False
        self._began = 0.0
        self._sent.connect(self._done)

    @property
    def busy(self) -> bool:
        return self._busy

    def type(
        self, text: str, *, method: str = "type", chars_per_s: int = 0, window: int = 0, paste_keys: str = "ctrl+v"
    ) -> None:
        """Put ``text`` into the focused application (``window``: first give the focus back to
        this X window); ``finished`` follows.  ``chars_per_s`` 0: as fast as the target takes them;
        ``paste_keys``: what pastes there, "ctrl+v" or "ctrl+shift+v" (a terminal on X11)."""
        problem = can_type()
        if problem is None and QGuiApplication.focusWindow() is not None and not window:
            problem = PARLEY_HAS_FOCUS
        if problem is not None or self._busy:
            emit(self.finished, text, problem or "Parley is still typing the previous words")
            return
        wayland = QGuiApplication.platformName().startswith("wayland")
        if wayland:
            # A Wayland app may set the clipboard only while it has the keyboard focus, which
            # Parley has not here: the words are typed instead (the clipboard is left alone).
            method = "type"
        self._busy, self._cancelled = True, False
        self._began = time.monotonic()
        if method == "paste":
            self._save_clipboard()
            QGuiApplication.clipboard().setText(text)
        delay = 1.0 / chars_per_s if chars_per_s > 0 else 0.0

        def work() -> None:
            problem = ""
            try:
                send = _send_wayland_keys if wayland else _send_keys
                problem = send(text, method, delay, window, lambda: self._cancelled, paste_keys)
            except Exception as exc:  # noqa: BLE001 - reported to the user, who keeps the text
                log.warning("typing failed", exc_info=True)
                problem = f"Typing into the other app failed: {exc}"
            emit(self._sent, text, problem, method)

        threading.Thread(target=work, name="parley-typing", daemon=True).start()

    def cancel(self) -> None:
        """Stop typing at the next character (the app is closing)."""
        self._cancelled = True

    def _done(self, text: str, problem: str, method: str) -> None:
        log.info(
            "%s %d characters in %.0f ms",
            "pasted" if method == "paste" else "typed",
            len(text),
            (time.monotonic() - self._began) * 1000,
        )
        if method == "paste":
            QTimer.singleShot(int(PASTE_READ_S * 1000), self._restore_clipboard)
        self._busy = False
        emit(self.finished, text, problem)

    def _save_clipboard(self) -> None:
        held = QGuiApplication.clipboard().mimeData(QClipboard.Mode.Clipboard)
        saved = QMimeData()
        if held is not None:
            for fmt in held.formats():
                saved.setData(fmt, held.data(fmt))
        self._saved = saved

    def _restore_clipboard(self) -> None:
        saved, self._saved = self._saved, None
        if saved is None:
            return
        clipboard = QGuiApplication.clipboard()
        if saved.formats():
            clipboard.setMimeData(saved, QClipboard.Mode.Clipboard)
        else:
            clipboard.clear(QClipboard.Mode.Clipboard)


def _send_keys(
    text: str, method: str, delay_s: float, window: int, cancelled: Callable[[], bool], paste_keys: str
) -> str:
    """The key events, on the typing thread; returns a problem ("" when all went)."""
    keyboard: X11Keyboard | WindowsKeyboard | MacKeyboard
    if sys.platform == "win32":
        keyboard = WindowsKeyboard()
    elif sys.platform == "darwin":
        keyboard = MacKeyboard()
    else:
        keyboard = X11Keyboard()
    try:
        if window:
            keyboard.set_focus(window)
        if not keyboard.wait_for_modifiers_up():
            return "The shortcut's keys were still held, so nothing was typed"
        if method == "paste":
            if isinstance(keyboard, X11Keyboard):
                keyboard.paste(paste_keys)
            else:
                keyboard.paste()
            return ""
        typed = keyboard.type_text(text, delay_s, cancelled)
        return "" if typed == len(text) else "Typing stopped part way"
    finally:
        keyboard.close()


def _send_wayland_keys(
    text: str, _method: str, delay_s: float, _window: int, cancelled: Callable[[], bool], _paste_keys: str
) -> str:
    """The key events through the compositor's virtual keyboard, on the typing thread.  Its
    modifiers are its own: keys the user still holds on the real keyboard do not combine."""
    from .portal import PortalKeyboard
    from .wayland import NO_VIRTUAL_KEYBOARD, VirtualKeyboard, WaylandTypingError

    keyboard: VirtualKeyboard | PortalKeyboard
    try:
        keyboard = VirtualKeyboard()
    except WaylandTypingError as exc:
        if str(exc) != NO_VIRTUAL_KEYBOARD:
            raise
        keyboard = PortalKeyboard()  # GNOME, KDE: the desktop's RemoteDesktop portal
    try:
        typed = keyboard.type_text(text, delay_s, cancelled)
        return "" if typed == len(text) else "Typing stopped part way"
    finally:
        keyboard.close()
