"""Parley from anywhere: the gestures of the system-wide Dictate and Ask Parley shortcuts.

- **Dictate** (default Ctrl+Alt+Space): a take whose words are typed where the cursor is, in
  whatever application has the focus (``flows.dictation``).
- **Ask Parley** (default Ctrl+Alt+Return): a take whose words go to the chat, answered in the
  quick-ask window above the other windows (``flows.quick_question``).

Each shortcut is held while speaking; a short tap (under ``TAP_S``) starts a take that the next
press of the same shortcut ends.  ``command`` takes the same from outside, forwarded by the
single-instance channel: ``parley dictate --press`` / ``--release`` where the desktop's own
key bindings see both (sway), ``--toggle`` (``toggle``) where they only see presses.  This
part only tells a hold from a tap: ``start(purpose, focus)`` starts the flow's take (the focus:
the X window that had it, 0 when unknown), and the take is ended with push-to-talk's
``release``, which hands its audio to that flow.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QObject

from ...config.settings import Settings
from ..desktop.shortcuts.global_shortcuts import ACTIONS, GlobalShortcuts
from ..status import StatusPresenter
from ..take_purpose import TakePurpose
from .push_to_talk import PushToTalk

log = logging.getLogger("parley.anywhere")

TAP_S = 0.4  # a press shorter than this starts a take that the next press ends


class FromAnywhere(QObject):
    def __init__(
        self,
        shortcuts: GlobalShortcuts,
        talk: PushToTalk,
        status: StatusPresenter,
        settings: Callable[[], Settings],
        start: Callable[[TakePurpose, int], bool],
        told: Callable[[], None],
        clock: Callable[[], float] = time.monotonic,
        parent: QObject | None = None,
    ) -> None:
        """``start(purpose, focus)`` starts the take of ``purpose``'s flow (False: none started);
        ``talk`` records it; ``told()`` records that the user was told which shortcuts work;
        ``clock``: seconds, to tell a tap from a hold."""
        super().__init__(parent)
        self.shortcuts, self.talk, self.status, self.settings = shortcuts, talk, status, settings
        self._start, self._told, self._now = start, told, clock
        self._pressed_at: dict[TakePurpose, float] = {}
        self._latched: TakePurpose | None = None  # a take that the next press (or toggle) ends
        self._ignore_release: TakePurpose | None = None
        shortcuts.pressed.connect(self.pressed)
        shortcuts.released.connect(self.released)
        shortcuts.settled.connect(self._settled)
        talk.recording_changed.connect(self._recording_changed)

    def apply(self) -> dict[str, str]:
        """Listen for the shortcuts the settings name (or none); returns the problems."""
        s = self.settings()
        wanted = (
            {
                TakePurpose.DICTATE: s.dictate_shortcut,
                TakePurpose.DICTATE_CLEANED: s.dictate_cleaned_shortcut,
                TakePurpose.ASK: s.ask_shortcut,
            }
            if s.global_shortcuts
            else {}
        )
        return self.shortcuts.apply({a: text for a, text in wanted.items() if text})

    def close(self) -> None:
        self.shortcuts.close()

    @property
    def problems(self) -> list[str]:
        """Why shortcuts cannot be used, each reason once."""
        return list(dict.fromkeys(self.shortcuts.problems.values()))

    def _settled(self) -> None:
        """Say which shortcuts cannot be used, and, once ever, which can."""
        for problem in self.problems:
            self.status.notice(problem)
        s = self.settings()
        if self.shortcuts.active and not s.told_about_global_shortcuts:
            said = {
                TakePurpose.DICTATE: self.tr("hold {keys} to dictate into any app").format(keys=s.dictate_shortcut),
                TakePurpose.DICTATE_CLEANED: self.tr("{keys} to dictate cleaned up").format(
                    keys=s.dictate_cleaned_shortcut
                ),
                TakePurpose.ASK: self.tr("{keys} to ask Parley").format(keys=s.ask_shortcut),
            }
            self.status.notice(
                self.tr("Parley listens everywhere: {shortcuts}. Change or turn them off in Settings > Voice.").format(
                    shortcuts=self.tr(", ").join(said[TakePurpose(a)] for a in self.shortcuts.active)
                )
            )
            self._told()

    def _recording_changed(self, recording: bool) -> None:
        """A take ended, however it ended (released, at its length limit, the microphone lost)."""
        if not recording:
            self._latched = None
            self._pressed_at.clear()

    def _take_purpose(self) -> TakePurpose | None:
        return self.talk.purpose if self.talk.recording else None

    def pressed(self, name: str, focus: int = 0) -> None:
        """A shortcut went down (``name``: its action, as the desktop reports it)."""
        log.info("%s pressed (focus 0x%x)", name, focus)
        if name not in ACTIONS:
            return
        action = TakePurpose(name)
        if self._latched == action:
            log.info("%s pressed again: the take it started ends", action)
            self._ignore_release = action  # this press ends the latched take; its release is nothing
            self._latched = None
            self.talk.release()
            return
        if self._take_purpose() is not None:
            return  # a take is already being recorded (the window's key, or the other action)
        if self._start(action, focus):
            self._pressed_at[action] = self._now()

    def released(self, name: str) -> None:
        log.info("%s released", name)
        if name not in ACTIONS:
            return
        action = TakePurpose(name)
        if self._ignore_release == action:
            self._ignore_release = None
            return
        started = self._pressed_at.pop(action, None)
        if started is None:
            return
        if self._now() - started < TAP_S:
            self._latched = action
            self.status.say(
                self.tr("{action}: recording; press the shortcut again to stop.").format(
                    action=QCoreApplication.translate("GlobalShortcuts", ACTIONS[action])
                ),
                0,
            )
            return
        self.talk.release()

    def command(self, action: str, how: str) -> bool:
        """A take from the command line (``parley dictate --press``...): ``how`` is ``--toggle``,
        ``--press`` or ``--release``; False when the words are not such a command."""
        if action not in ACTIONS or how not in ("--toggle", "--press", "--release"):
            return False
        log.info("%s %s from the command line", action, how)
        if how == "--toggle":
            self.toggle(TakePurpose(action))
        elif how == "--press":
            self.pressed(action)
        else:
            self.released(action)
        return True

    def toggle(self, action: TakePurpose) -> None:
        """Start a take for ``action``, or end the one in progress (the CLI's ``--toggle``)."""
        if self._take_purpose() == action:
            self._latched = None
            self.talk.release()
        elif self._take_purpose() is None and self._start(action, 0):
            self._latched = action
