"""Parley's system-wide shortcuts (Dictate, Dictate cleaned, Ask Parley): pressed and released in
any application.

Which mechanism depends on the desktop session Qt runs on:

- **X11** (``xcb``): passive key grabs on the root window (``x11``);
- **Windows:** ``RegisterHotKey`` (``windows``); **macOS:** a Quartz event tap
  (``mac``), once the user has allowed it (the problem says where);
- **Wayland:** only the desktop may hand out global shortcuts: its portal's GlobalShortcuts
  interface (``portal``), which answers later (the desktop may ask the user first);
  where there is none, the problem says so and names the toggle commands (``parley dictate
  --toggle``, ``parley ask --toggle``) for the desktop's own shortcut settings;
- anything else (offscreen, or a platform without an implementation here) says so the same way.

Presses and releases arrive from the listener's thread and are handed to the UI thread as
queued signals.  A shortcut that cannot be had is never silently dead: its problem is kept in
``problems`` for Settings and the status line, and ``settled`` is emitted once it is known
which shortcuts work (at once on X11, when the desktop has answered on Wayland).
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QT_TRANSLATE_NOOP, QObject, Signal
from PySide6.QtGui import QGuiApplication

from ...signals import emit
from ...take_purpose import TakePurpose
from ..keysyms import KeyCombo, parse_shortcut
from .mac import MacHotKeys, MacUnavailable
from .windows import WindowsHotKeys, WindowsUnavailable
from .x11 import X11HotKeys, X11Unavailable

log = logging.getLogger("parley.keys")

# Their names for the user, and how to do without; translated where said (``GlobalShortcuts._said``).
ACTIONS: dict[str, str] = {
    TakePurpose.DICTATE: str(QT_TRANSLATE_NOOP("GlobalShortcuts", "Dictate")),
    TakePurpose.DICTATE_CLEANED: str(QT_TRANSLATE_NOOP("GlobalShortcuts", "Dictate, cleaned")),
    TakePurpose.ASK: str(QT_TRANSLATE_NOOP("GlobalShortcuts", "Ask Parley")),
}
TOGGLE_HINT = str(
    QT_TRANSLATE_NOOP(
        "GlobalShortcuts",
        "To use them anyway, bind `parley dictate --toggle` and `parley ask --toggle` to keys in your "
        "desktop's keyboard settings (each press starts or stops). Where a key's release can be bound "
        "too (sway: bindsym --release), bind `--press` and `--release` instead, and hold the key while you speak.",
    )
)


class GlobalShortcuts(QObject):
    pressed = Signal(str, int)  # "dictate" | "ask", and the X window that had the focus (0: unknown)
    released = Signal(str)
    settled = Signal()  # ``active`` and ``problems`` are known
    _bound = Signal(object)  # the portal's answer, from its thread

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.problems: dict[str, str] = {}
        self.session_problem: str | None = None  # why no shortcut at all can work here
        self._listener: object | None = None
        self._wanted: dict[str, str] = {}
        self._settled = False
        self._bound.connect(self._portal_bound)

    @property
    def active(self) -> list[str]:
        """The actions whose shortcut is listened for now."""
        if self._listener is None or not self._settled:
            return []
        return [a for a in self._wanted if a not in self.problems]

    def apply(self, shortcuts: dict[str, str]) -> dict[str, str]:
        """Listen for ``shortcuts`` (action -> Qt portable text; empty: none) instead of any before;
        returns the problem of each that cannot be used (also in ``problems``)."""
        self.close()
        self._wanted = dict(shortcuts)
        self.problems = {}
        self._settled = False
        combos: dict[str, KeyCombo] = {}
        for action, text in shortcuts.items():
            try:
                combos[action] = parse_shortcut(text)
            except ValueError as exc:
                self.problems[action] = f"{self.tr(ACTIONS[action])}: {exc}"
        platform = QGuiApplication.platformName()
        if combos and platform in ("xcb", "windows", "cocoa"):
            self._start_grabs(platform, combos)
        elif combos and platform.startswith("wayland"):
            self._start_portal(combos)
            return self.problems  # the rest when the desktop has answered
        elif combos:
            self.session_problem = (
                self.tr("Parley cannot listen for keys system-wide in this session ({platform}).").format(
                    platform=platform
                )
                + " "
                + self.tr(TOGGLE_HINT)
            )
            self.problems.update(dict.fromkeys(combos, self.session_problem))
        self._settle()
        return self.problems

    def close(self) -> None:
        listener, self._listener = self._listener, None
        self.session_problem = None
        if listener is not None:
            listener.close()  # type: ignore[attr-defined]

    def _settle(self) -> None:
        self._settled = True
        for problem in dict.fromkeys(self.problems.values()):
            log.warning("%s", problem)
        emit(self.settled)

    def _start_portal(self, combos: dict[str, KeyCombo]) -> None:
        from .portal import PortalShortcuts, PortalUnavailable

        try:
            listener = PortalShortcuts(
                lambda a, w: emit(self.pressed, a, w),
                lambda a: emit(self.released, a),
                lambda problems: emit(self._bound, problems),
            )
        except PortalUnavailable as exc:
            self.session_problem = (
                self.tr("Parley cannot listen for keys system-wide on Wayland: {problem}.").format(problem=exc)
                + " "
                + self.tr(TOGGLE_HINT)
            )
            self.problems.update(dict.fromkeys(combos, self.session_problem))
            self._settle()
            return
        listener.start(combos)
        self._listener = listener

    def _portal_bound(self, problems: dict[str, str]) -> None:
        if self._listener is None:
            return  # closed meanwhile
        for action, problem in problems.items():
            self.problems[action] = f"{self.tr(ACTIONS.get(action, action))}: {problem} {self.tr(TOGGLE_HINT)}"
        for action in self._wanted:
            if action not in self.problems:
                log.info("listening in every application for %s (%s)", self._wanted[action], ACTIONS[action])
        self._settle()

    def _start_grabs(self, platform: str, combos: dict[str, KeyCombo]) -> None:
        """X11's key grabs, Windows' hotkeys or macOS's event tap: each reports at once."""
        listener: X11HotKeys | WindowsHotKeys | MacHotKeys
        on_press, on_release = (lambda a, w: emit(self.pressed, a, w)), (lambda a: emit(self.released, a))
        try:
            if platform == "xcb":
                listener = X11HotKeys(on_press, on_release)
            elif platform == "windows":
                listener = WindowsHotKeys(on_press, on_release)
            else:
                listener = MacHotKeys(on_press, on_release)
        except (X11Unavailable, WindowsUnavailable, MacUnavailable) as exc:
            self.session_problem = (
                self.tr("Parley cannot listen for keys system-wide: {problem}.").format(problem=exc)
                + " "
                + self.tr(TOGGLE_HINT)
            )
            self.problems.update(dict.fromkeys(combos, self.session_problem))
            return
        for action, problem in listener.grab(combos).items():
            self.problems[action] = f"{self.tr(ACTIONS[action])}: {problem}"
        listener.start()
        self._listener = listener
        for action, combo in combos.items():
            if action not in self.problems:
                log.info("listening in every application for %s (%s)", combo.text, ACTIONS[action])
