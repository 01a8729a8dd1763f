"""How long a turn took: from the end of what you said to the first sound of Parley's answer.

``TurnClock`` is told each step of a turn by the flows (``parley.app.flows``): the talk key let
go (or hands-free hearing the end of an utterance, or a typed message sent), the words
transcribed, the reply's first text, and the first sound when the reply is read aloud.  The figures go on the reply's
message (``Message.turn``, for this session: the window's *Details* on the message shows them)
and to the log, one line when the reply ends and one when its first sound comes.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject

from ..take_purpose import TakePurpose

log = logging.getLogger("parley.turns")

TYPED = "typed"  # the source of a turn that was a typed message

# What ended the user's part of a turn, as ``describe`` words it.
_ENDS = {
    TakePurpose.TALK: "You let go of the talk key",
    TakePurpose.ASK: "You let go of the Ask Parley key",
    TakePurpose.HANDS_FREE: "Hands-free heard the end of your sentence (after a short pause)",
    TYPED: "You sent the message",
}


@dataclass
class TurnTimings:
    """Monotonic times (seconds) of one turn's steps; None where a step has not happened (or
    never does: a typed message is not transcribed, a reply may not be read aloud)."""

    source: str  # a TakePurpose (TALK, ASK or HANDS_FREE), or TYPED
    ended: float  # the user's part ended: key released, pause heard, message sent
    transcribed: float | None = None
    first_token: float | None = None
    first_audio: float | None = None

    def steps(self) -> list[tuple[str, float]]:
        """(what happened, seconds since the step before), in order, for the steps that did."""
        out = []
        previous = self.ended
        for name, at in (
            ("words transcribed", self.transcribed),
            ("first words of the reply", self.first_token),
            ("first sound of the reply", self.first_audio),
        ):
            if at is not None:
                out.append((name, at - previous))
                previous = at
        return out

    def total(self) -> float | None:
        """From the end of the user's part to the first sound (or, unread, the first words)."""
        last = self.first_audio if self.first_audio is not None else self.first_token
        return None if last is None else last - self.ended

    def describe(self) -> str:
        """The figures as the Details popup shows them."""
        lines = [_ENDS.get(self.source, "Your turn ended") + "."]
        lines += [f"+ {seconds * 1000:.0f} ms: {name}" for name, seconds in self.steps()]
        total = self.total()
        if total is not None and len(self.steps()) > 1:
            lines.append(f"In all {total * 1000:.0f} ms.")
        return "\n".join(lines)

    def log_line(self) -> str:
        steps = " -> ".join(f"{name} {seconds * 1000:.0f} ms" for name, seconds in self.steps())
        return f"turn ({self.source}): {steps or 'no reply'}"


class TurnClock(QObject):
    """Times each turn from the steps it is told; see the module's docstring for which."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._clock = clock
        self._pending: TurnTimings | None = None  # ended, not yet transcribed or replied to
        self._current: TurnTimings | None = None  # the turn of the reply streaming (or last read)
        self._reply: Any = None  # that reply (reply_state.Reply)

    def ended(self, source: TakePurpose, at: float | None = None) -> None:
        """The user's part of a turn ended (a take released, an utterance heard), now or ``at``
        (a time of the same clock)."""
        self._pending = TurnTimings(source, self._clock() if at is None else at)

    def transcribed(self) -> None:
        """The pending take's words were sent as a message (or held, to be sent after the reply
        that is streaming)."""
        pending = self._pending
        if pending is not None and pending.transcribed is None:
            pending.transcribed = self._clock()

    def forget(self) -> None:
        """The pending take gets no reply: nothing was heard, or its words were dictated into
        another app or put in the text box to edit."""
        self._pending = None

    def reply_started(self, reply: Any) -> None:
        """A reply began: it answers the pending transcript, or a message typed just now."""
        pending, self._pending = self._pending, None
        if pending is None or pending.transcribed is None:
            pending = TurnTimings(TYPED, self._clock())
        self._current, self._reply = pending, reply

    def reply_grew(self, reply: Any, _piece: str = "") -> None:
        turn = self._current
        if turn is None or reply is not self._reply or turn.first_token is not None:
            return
        turn.first_token = self._clock()
        if reply.message is not None:
            reply.message.turn = turn

    def reply_ended(self, reply: Any) -> None:
        turn = self._current
        if turn is None or reply is not self._reply:
            return
        if reply.message is not None and turn.first_token is not None:
            reply.message.turn = turn
        log.info(turn.log_line())

    def sounded(self) -> None:
        """The voice reading the reply began to sound (its first audio is playing)."""
        turn = self._current
        if turn is not None and turn.first_token is not None and turn.first_audio is None:
            turn.first_audio = self._clock()
            log.info("%s (first sound)", turn.log_line())
