"""The life of a reply, as a small state machine that the window follows.

A reply starts (``ReplyKind``: a new reply, the last one regenerated, or the last one
continued), grows piece by piece, and ends in one of the ways of ``Ending``.  ``ReplyMachine``
changes the conversation's ``Message`` objects and says what it did through its signals:
``saving`` asks for the conversation to be written, ``started``/``grew``/``ended`` let the
conversation view follow the reply, ``busy_changed`` the Send/Stop button.  It never calls the
view, the store or the engine, so it runs, and is tested, without a window; the controller
connects its signals.

Crash safety.  While a reply streams, its message has the state ``streaming`` and is
checkpointed (``saving`` with ``checkpoint`` True) at most ``CHECKPOINT_S`` after the last
checkpoint whenever it has new text: by the clock as each piece arrives, and by a timer when
pieces stop coming.  A process killed mid-reply loses at most that much of what the window
showed; opening the store turns the message into ``interrupted``.

Why a ``PieceInbox``.  The engine thread may write pieces faster than a loaded UI thread takes
them.  Sent one queued event each, they piled up while the UI thread was held up (a busy
machine, a slow render), and were then drained in a burst far faster than the clock moved: one
checkpoint at the start of the burst, then the whole backlog shown and not saved.  The inbox
merges what waits into one piece, so the UI thread takes a backlog in one step, and the clock
check on that step saves it.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from ..signals import emit
from .conversation import Conversation, Message

CHECKPOINT_S = 0.5  # at most this long between new text and its checkpoint: about a second at risk


class ReplyKind(Enum):
    NEW = "new"  # a reply to the last message, the user's
    REGENERATE = "regenerate"  # the last reply written again in its place
    CONTINUE = "continue"  # the last reply carried on from where it ended


class Ending(Enum):
    FINISHED = "finished"  # the engine ended it (end of text, length limit, context full)
    STOPPED = "stopped"  # the user stopped it (Stop, talking, another conversation)
    FAILED = "failed"  # the engine raised
    CLOSED = "closed"  # the window closed before the engine stopped


class Phase(Enum):
    IDLE = "idle"  # no reply
    WAITING = "waiting"  # a reply started and no text came yet
    STREAMING = "streaming"  # text is coming


@dataclass(frozen=True)
class Snapshot:
    """A message as it was before a reply rewrote it: put back when nothing new came."""

    content: str = ""
    state: str = "complete"
    stats: dict[str, Any] | None = None

    @classmethod
    def of(cls, message: Message | None) -> Snapshot:
        return cls() if message is None else cls(message.content, message.state, message.stats)


@dataclass(eq=False)  # identity: the view follows one reply, not an equal one
class Reply:
    conversation: Conversation
    kind: ReplyKind
    message: Message | None  # written into; a new reply's exists from its first text on
    before: Snapshot
    text: str = ""  # the whole reply so far (continued: with what it continues)
    ending: Ending | None = None
    error: str = ""  # why it failed (``Ending.FAILED``)
    steps: list[dict[str, Any]] = field(default_factory=list)  # its tool calls (engine.tools.turn.Step records)

    @property
    def new_text(self) -> str:
        """What this reply wrote (a continued reply: after what it continues)."""
        return self.text[len(self.before.content) :] if self.kind is ReplyKind.CONTINUE else self.text

    @property
    def kept(self) -> bool:
        """Its message holds what it wrote (else the message is as it was before, or absent)."""
        return self.ending is Ending.FINISHED or bool(self.new_text)


class ReplyMachine(QObject):
    """One reply at a time: idle, waiting for text, streaming; and transcripts held meanwhile."""

    started = Signal(object)  # the Reply
    grew = Signal(object, str)  # the Reply, and the piece it grew by
    ended = Signal(object)  # the Reply, its ending set and its message final
    busy_changed = Signal(bool)
    saving = Signal(object, bool)  # a Conversation to write; True: a checkpoint mid-reply

    def __init__(self, clock: Callable[[], float] = time.monotonic, parent: QObject | None = None) -> None:
        """``clock``: seconds, for the checkpoints (the timer that covers pauses runs on Qt's)."""
        super().__init__(parent)
        self.reply: Reply | None = None
        self.queued: list[str] = []  # transcripts that arrived while a reply streamed, oldest first
        self._clock = clock
        self._saved_at = -math.inf  # when the reply was last checkpointed
        self._timer = QTimer(self, singleShot=True)
        self._timer.timeout.connect(self._checkpoint_due)

    @property
    def busy(self) -> bool:
        return self.reply is not None

    @property
    def phase(self) -> Phase:
        if self.reply is None:
            return Phase.IDLE
        return Phase.STREAMING if self.reply.new_text else Phase.WAITING

    # ------------------------------------------------------------------ starting and growing

    def start(self, conversation: Conversation, kind: ReplyKind) -> Reply:
        """A reply to ``conversation``'s last message (``NEW``), or to its last reply."""
        if self.reply is not None:
            raise RuntimeError("a reply is already being written")
        target = None if kind is ReplyKind.NEW else conversation.messages[-1]
        if target is not None and target.role != "assistant":
            raise ValueError(f"{kind.value}: the last message is not a reply")
        reply = self.reply = Reply(conversation, kind, target, Snapshot.of(target))
        if kind is ReplyKind.CONTINUE:
            reply.text = reply.before.content
        self._saved_at = -math.inf  # the first piece is checkpointed at once
        emit(self.busy_changed, True)
        emit(self.started, reply)
        return reply

    def add(self, reply: Reply, piece: str) -> bool:
        """``piece`` of ``reply``'s text arrived; False (and nothing done) for a reply that ended."""
        if reply is not self.reply or not piece:
            return False
        reply.text += piece
        if reply.message is None:
            reply.message = Message("assistant", "", state="streaming")
            reply.conversation.messages.append(reply.message)
        wait = self._saved_at + CHECKPOINT_S - self._clock()
        if wait <= 0:
            self._checkpoint(reply)
        elif not self._timer.isActive():  # in case no piece comes after this one for a while
            self._timer.start(math.ceil(wait * 1000))
        emit(self.grew, reply, piece)
        return True

    # ------------------------------------------------------------------ ending

    def step(self, reply: Reply, step: dict[str, Any]) -> None:
        """A tool step of ``reply`` began or ended (the same call's record replaces the last)."""
        for i, known in enumerate(reply.steps):
            if known.get("call_id") == step.get("call_id"):
                reply.steps[i] = step
                return
        reply.steps.append(step)

    def finish(self, reply: Reply, text: str, stats: dict[str, Any] | None) -> bool:
        """The engine ended ``reply`` with ``text`` (its whole text) and ``stats``."""
        return self._end(reply, Ending.FINISHED, text, stats)

    def stop(self, reply: Reply, text: str, stats: dict[str, Any] | None) -> bool:
        """``reply`` was stopped: what it wrote is kept, marked stopped."""
        return self._end(reply, Ending.STOPPED, text, stats)

    def fail(self, reply: Reply, error: str) -> bool:
        """The engine failed: what ``reply`` wrote is kept, marked stopped, and ``error`` said."""
        return self._end(reply, Ending.FAILED, reply.text, None, error)

    def close(self) -> bool:
        """The window closes and the engine did not stop in time: keep what was shown, stopped."""
        return self.reply is not None and self._end(self.reply, Ending.CLOSED, self.reply.text, None)

    # ------------------------------------------------------------------ transcripts meanwhile

    def hold(self, text: str) -> bool:
        """Keep ``text`` to send after the reply being written; False when there is none."""
        if self.reply is None:
            return False
        self.queued.append(text)
        return True

    def next_queued(self) -> str | None:
        """The oldest held text, once no reply is being written."""
        return self.queued.pop(0) if self.queued and self.reply is None else None

    # ------------------------------------------------------------------ internals

    def _end(self, reply: Reply, ending: Ending, text: str, stats: dict[str, Any] | None, error: str = "") -> bool:
        if reply is not self.reply:
            return False
        self._timer.stop()
        self.reply = None
        reply.text, reply.ending, reply.error = text, ending, error
        message = reply.message
        if reply.kept:
            if message is None:  # it ended before any piece arrived
                message = reply.message = Message("assistant", "")
                reply.conversation.messages.append(message)
            message.content, message.stats = text, stats
            message.state = "complete" if ending is Ending.FINISHED else "stopped"
        elif message is not None:  # nothing new: as it was (a continued reply: stopped now)
            message.content, message.stats = reply.before.content, reply.before.stats
            message.state = "stopped" if reply.kind is ReplyKind.CONTINUE else reply.before.state
        if message is not None:
            message.dirty = True
            emit(self.saving, reply.conversation, False)
        emit(self.busy_changed, False)
        emit(self.ended, reply)
        return True

    def _checkpoint(self, reply: Reply) -> None:
        message = reply.message
        assert message is not None
        self._saved_at = self._clock()
        self._timer.stop()
        message.content, message.state, message.dirty = reply.text, "streaming", True
        emit(self.saving, reply.conversation, True)

    def _checkpoint_due(self) -> None:
        reply = self.reply
        if reply is not None and reply.message is not None and reply.message.content != reply.text:
            self._checkpoint(reply)


class PieceInbox:
    """Reply text written on the engine's thread and taken on the UI thread, merged while it
    waits: ``tell`` (the job's ``emit``) is called once per batch, not once per piece, so the
    UI thread never has more than one batch queued however far behind it falls."""

    def __init__(self, tell: Callable[[PieceInbox], None]) -> None:
        self._tell = tell
        self._lock = threading.Lock()
        self._pieces: list[str] = []
        self._told = False  # a batch is announced and not taken yet

    def put(self, piece: str) -> None:
        """From the engine thread: add ``piece``; announce it unless a batch is already announced."""
        with self._lock:
            self._pieces.append(piece)
            told, self._told = self._told, True
        if not told:
            self._tell(self)

    def take(self) -> str:
        """From the UI thread: everything put since the last take."""
        with self._lock:
            pieces, self._pieces, self._told = self._pieces, [], False
        return "".join(pieces)

    def take_and_hold(self) -> str:
        """From the UI thread: everything put since the last take, and no announcement of what
        comes next while the caller keeps coming back for it (a paced reader: ``ReplyFlow``).
        When there was nothing, the next piece is announced again."""
        with self._lock:
            pieces, self._pieces = self._pieces, []
            self._told = bool(pieces)
        return "".join(pieces)
