"""A conversation and its messages: the one type the window, the reply flow and the store share.

``Message`` is a conversation message as the app knows it (the engine has its own, smaller
``parley.engine.chat.model.Message``: a role and a text to render into a prompt).  The store reads
and writes these objects; ``dirty`` says whether the store still lacks the current text, so a
failed save (disk full) loses nothing and is retried with the next one.

A message's ``state``:
- ``complete``: written in full;
- ``stopped``: a reply the user stopped, or one cut off when the window closed;
- ``streaming``: a reply being generated; it is checkpointed as it streams, so a crash loses at
  most about a second of it;
- ``interrupted``: a reply that was still streaming when Parley last ended without closing it
  (killed, crashed, power lost); the window offers Continue and Retry for it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

STATES = ("complete", "stopped", "streaming", "interrupted")
NEW_TITLE = "New chat"


@dataclass(eq=False)  # identity: two equal texts are still two messages
class Message:
    role: str
    content: str
    state: str = "complete"
    stats: dict[str, Any] | None = None  # a reply's generation figures and finish reason
    id: int | None = None  # the store's id, once it has the message
    created: float = field(default_factory=time.time)
    dirty: bool = True  # the store lacks the current text
    turn: Any = None  # a reply's TurnTimings (turn_timings), for this session only: not stored

    @property
    def complete(self) -> bool:
        return self.state == "complete"


@dataclass(eq=False)  # identity: two empty conversations are not the same one
class Conversation:
    id: int | None  # None until the store has accepted it
    title: str = NEW_TITLE
    messages: list[Message] = field(default_factory=list)
    title_dirty: bool = False
    deleted: bool = False
    taken_back: list[int] = field(default_factory=list)  # ids of messages taken back that the store still has

    @property
    def needs_reply(self) -> bool:
        """The last message is the user's: nothing answered it (a failed reply, or a crash)."""
        return bool(self.messages) and self.messages[-1].role == "user"


@dataclass(frozen=True)
class ConversationSummary:
    """A conversation as the sidebar lists it."""

    id: int
    title: str
    created: float  # seconds since the epoch
    updated: float


def title_from(text: str) -> str:
    """A conversation title from its first message: one line, at most 48 characters."""
    line = " ".join(text.split())
    return line if len(line) <= 48 else line[:47].rstrip() + "…"
