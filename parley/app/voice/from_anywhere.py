"""Parley from anywhere: the system-wide Dictate and Ask Parley actions.

- **Dictate** (default Ctrl+Alt+Space): a take whose words are typed where the cursor is, in
  whatever application has the focus (``desktop.typing``).
- **Ask Parley** (default Ctrl+Alt+Return): a take whose words go to the chat, answered in the
  quick-ask window above the other windows.

Each shortcut is held while speaking; a short tap (under ``TAP_S``) starts a take that the next
press of the same shortcut ends.  ``command`` takes the same from outside, forwarded by the
single-instance channel: ``parley dictate --press`` / ``--release`` where the desktop's own
key bindings see both (sway), ``--toggle`` (``toggle``) where they only see presses.  A take
is recorded by the same push-to-talk as the window's key (``start_take``, ``end_take``); what
is heard comes back to ``heard`` with the action as its source.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from ..desktop.global_shortcuts import ACTIONS, GlobalShortcuts
from ..desktop.typing import PARLEY_HAS_FOCUS, Typist
from ..settings import Settings
from ..signals import emit
from ..status import StatusPresenter

log = logging.getLogger("parley.anywhere")

TAP_S = 0.4  # a press shorter than this starts a take that the next press ends


class FromAnywhere(QObject):
    asked = Signal(str, int)  # a question from anywhere, and the X window that had the focus (0: unknown)
    asking = Signal()  # an Ask take started (the quick-ask window shows that it listens)
    not_typed = Signal(str)  # dictated words that could not be typed elsewhere: kept in Parley's text box

    def __init__(
        self,
        shortcuts: GlobalShortcuts,
        typist: Typist,
        status: StatusPresenter,
        settings: Callable[[], Settings],
        start_take: Callable[[str], bool],
        end_take: Callable[[], None],
        take_purpose: Callable[[], str | None],
        parent: QObject | None = None,
    ) -> None:
        """``start_take(action)`` starts a take for the action (False: none started); ``end_take()``
        ends it; ``take_purpose()`` is the purpose of the take in progress (None: none)."""
        super().__init__(parent)
        self.shortcuts, self.typist, self.status, self.settings = shortcuts, typist, status, settings
        self._start_take, self._end_take, self._take_purpose = start_take, end_take, take_purpose
        self._pressed_at: dict[str, float] = {}
        self._latched: str | None = None  # a take that the next press (or toggle) ends
        self._ignore_release: str | None = None
        self._focus: dict[str, int] = {}  # action -> the X window that had the focus at its start
        shortcuts.pressed.connect(self.pressed)
        shortcuts.released.connect(self.released)
        typist.finished.connect(self._typed)

    def apply(self) -> dict[str, str]:
        """Listen for the shortcuts the settings name (or none); returns the problems."""
        s = self.settings()
        wanted = {"dictate": s.dictate_shortcut, "ask": s.ask_shortcut} if s.global_shortcuts else {}
        return self.shortcuts.apply({a: text for a, text in wanted.items() if text})

    def close(self) -> None:
        self.shortcuts.close()
        self.typist.cancel()

    def take_ended(self) -> None:
        """The take ended, however it ended (released, at its length limit, the microphone lost)."""
        self._latched = None
        self._pressed_at.clear()

    def pressed(self, action: str, focus: int = 0) -> None:
        log.info("%s pressed (focus 0x%x)", action, focus)
        if self._latched == action:
            log.info("%s pressed again: the take it started ends", action)
            self._ignore_release = action  # this press ends the latched take; its release is nothing
            self._latched = None
            self._end_take()
            return
        if self._take_purpose() is not None:
            return  # a take is already being recorded (the window's key, or the other action)
        self._focus[action] = focus
        if self._start_take(action):
            self._pressed_at[action] = time.monotonic()
            if action == "ask":
                emit(self.asking)

    def released(self, action: str) -> None:
        log.info("%s released", action)
        if self._ignore_release == action:
            self._ignore_release = None
            return
        started = self._pressed_at.pop(action, None)
        if started is None:
            return
        if time.monotonic() - started < TAP_S:
            self._latched = action
            self.status.say(f"{ACTIONS[action]}: recording; press the shortcut again to stop.", 0)
            return
        self._end_take()

    def command(self, action: str, how: str) -> bool:
        """A take from the command line (``parley dictate --press``...): ``how`` is ``--toggle``,
        ``--press`` or ``--release``; False when the words are not such a command."""
        if action not in ACTIONS or how not in ("--toggle", "--press", "--release"):
            return False
        log.info("%s %s from the command line", action, how)
        if how == "--toggle":
            self.toggle(action)
        elif how == "--press":
            self.pressed(action)
        else:
            self.released(action)
        return True

    def toggle(self, action: str) -> None:
        """Start a take for ``action``, or end the one in progress (the CLI's ``--toggle``)."""
        if self._take_purpose() == action:
            self._latched = None
            self._end_take()
        elif self._take_purpose() is None and self._start_take(action):
            self._focus[action] = 0
            self._latched = action
            if action == "ask":
                emit(self.asking)

    def heard(self, text: str, source: str) -> None:
        """A take's words: typed for Dictate, asked for Ask Parley."""
        if not text or source not in ACTIONS:
            return
        if source == "ask":
            emit(self.asked, text, self._focus.pop("ask", 0))
            return
        s = self.settings()
        self.typist.type(
            text + (" " if s.dictation_space_after else ""),
            method=s.dictation_method,
            chars_per_s=s.typing_rate,
        )

    def insert(self, text: str, window: int) -> None:
        """Type ``text`` (a quick-ask answer) into ``window``, the app that had the focus."""
        self.typist.type(
            text, method=self.settings().dictation_method, chars_per_s=self.settings().typing_rate, window=window
        )

    def _typed(self, text: str, problem: str) -> None:
        if not problem:
            return
        log.info("dictation not typed: %s", problem)
        if problem == PARLEY_HAS_FOCUS:
            self.status.say("Parley had the focus, so the words went into its text box.")
        else:
            self.status.notice(f"{problem}. The words are in Parley's text box.")
        emit(self.not_typed, text.rstrip())
