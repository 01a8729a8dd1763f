"""Asking before acting: a tool call that does something (not only reads) waits for the user's
yes, unless the user always allows that tool (Settings > Tools) and the call comes straight
from their message (``engine.tools.turn``).

The question is the reply's last words ("Shall I set a timer for 10 minutes?"), so it is shown
and read aloud with the reply.  The window offers Yes and No under it; a spoken answer counts
too, by the talk key or hands-free, without stopping the reply that waits.  A yes or a no
answers; words that are neither count as a no, and are sent as the next message once the reply
has ended.  Stopping the reply answers no.  Nothing a tool said ever answers for the user.
"""

from __future__ import annotations

from parley.engine.tools.consent import spoken_answer

from ..conversations.replies import Question
from .parts import Parts


class AskingFirst:
    def __init__(self, parts: Parts) -> None:
        self.replies = parts.replies
        self.view = parts.window.conversation_view
        self.status = parts.status

    @property
    def pending(self) -> bool:
        """A tool call waits for the user's answer."""
        return self.replies.question is not None

    def asked(self, question: Question) -> None:
        """1. A call waits: Yes and No under the reply, and a screen reader is told."""
        self.view.ask()
        self.status.announce(question.text)

    def clicked(self, yes: bool) -> None:
        """2a. Yes or No clicked (or chosen with the keyboard)."""
        self.replies.answer(yes)

    def heard(self, text: str) -> bool:
        """2b. Words spoken while a call waits: the answer (True: they were taken as one)."""
        if not self.pending:
            return False
        verdict = spoken_answer(text)
        self.replies.answer(verdict is True)
        if verdict is None and text.strip():
            self.replies.send_when_free(text)
        return True

    def closed(self, _question: Question) -> None:
        """3. Answered, or the reply stopped: the buttons go."""
        self.view.close_question()
