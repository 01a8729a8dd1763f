"""A reply as the window shows it: from its start, through each piece, to its end.

At each step the turn's timings come first, then the conversation view, so the message has its
timings (its Details) when the view shows it ended.  The reply itself (sending, streaming,
stopping) is ``conversations.replies``; reading it aloud follows the same reply
(``voice.spoken_replies``).
"""

from __future__ import annotations

from ..conversations.reply_state import Reply
from .parts import Parts


class StreamingReply:
    def __init__(self, parts: Parts) -> None:
        self.turns = parts.turns
        self.view = parts.window.conversation_view

    def started(self, reply: Reply) -> None:
        self.turns.reply_started(reply)
        self.view.follow_reply(reply)

    def grew(self, reply: Reply, piece: str) -> None:
        self.turns.reply_grew(reply, piece)
        self.view.reply_grew(reply, piece)

    def stepped(self, reply: Reply, _step: object) -> None:
        """A tool step of the reply began or ended: the reply shows its steps."""
        self.view.reply_stepped(reply)

    def ended(self, reply: Reply) -> None:
        self.turns.reply_ended(reply)
        self.view.reply_ended(reply)
