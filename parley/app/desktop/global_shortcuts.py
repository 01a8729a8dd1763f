"""Parley's system-wide shortcuts (Dictate, Ask Parley): pressed and released in any application.

Which mechanism depends on the desktop session Qt runs on:

- **X11** (``xcb``): passive key grabs on the root window (``x11_keys``);
- **Wayland:** only the desktop may hand out global shortcuts (its GlobalShortcuts portal);
  where Parley does not get them, ``problem`` says so and names the toggle commands
  (``parley dictate --toggle``, ``parley ask --toggle``) for the desktop's own shortcut settings;
- anything else (offscreen, or a platform without an implementation here) says so the same way.

Presses and releases arrive from the listener's thread and are handed to the UI thread as
queued signals.  A shortcut that cannot be had is never silently dead: its problem is kept in
``problems`` for Settings and the status line.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QGuiApplication

from ..signals import emit
from .keysyms import KeyCombo, parse_shortcut

log = logging.getLogger("parley.keys")

ACTIONS = {"dictate": "Dictate", "ask": "Ask Parley"}
TOGGLE_HINT = (
    "To use them anyway, bind `parley dictate --toggle` and `parley ask --toggle` to keys in your "
    "desktop's keyboard settings (each press starts or stops)."
)


class GlobalShortcuts(QObject):
    pressed = Signal(str, int)  # "dictate" | "ask", and the X window that had the focus (0: unknown)
    released = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.problems: dict[str, str] = {}
        self.session_problem: str | None = None  # why no shortcut at all can work here
        self._listener: object | None = None
        self._wanted: dict[str, str] = {}

    @property
    def active(self) -> list[str]:
        """The actions whose shortcut is listened for now."""
        return [] if self._listener is None else [a for a in self._wanted if a not in self.problems]

    def apply(self, shortcuts: dict[str, str]) -> dict[str, str]:
        """Listen for ``shortcuts`` (action -> Qt portable text; empty: none) instead of any before;
        returns the problem of each that cannot be used (also in ``problems``)."""
        self.close()
        self._wanted = dict(shortcuts)
        self.problems = {}
        combos: dict[str, KeyCombo] = {}
        for action, text in shortcuts.items():
            try:
                combos[action] = parse_shortcut(text)
            except ValueError as exc:
                self.problems[action] = f"{ACTIONS[action]}: {exc}"
        if not combos:
            return self.problems
        platform = QGuiApplication.platformName()
        if platform == "xcb":
            self._start_x11(combos)
        else:
            where = "Wayland" if platform.startswith("wayland") else f"this desktop session ({platform})"
            self.session_problem = f"Parley cannot listen for keys system-wide on {where}. {TOGGLE_HINT}"
            for action in combos:
                self.problems[action] = self.session_problem
        for problem in self.problems.values():
            log.warning("%s", problem)
        return self.problems

    def close(self) -> None:
        listener, self._listener = self._listener, None
        self.session_problem = None
        if listener is not None:
            listener.close()  # type: ignore[attr-defined]

    def _start_x11(self, combos: dict[str, KeyCombo]) -> None:
        from .x11_keys import X11HotKeys, X11Unavailable

        try:
            listener = X11HotKeys(lambda a, w: emit(self.pressed, a, w), lambda a: emit(self.released, a))
        except X11Unavailable as exc:
            self.session_problem = f"Parley cannot listen for keys system-wide: {exc}. {TOGGLE_HINT}"
            self.problems.update(dict.fromkeys(combos, self.session_problem))
            return
        for action, problem in listener.grab(combos).items():
            self.problems[action] = f"{ACTIONS[action]}: {problem}"
        listener.start()
        self._listener = listener
        for action, combo in combos.items():
            if action not in self.problems:
                log.info("listening in every application for %s (%s)", combo.text, ACTIONS[action])
