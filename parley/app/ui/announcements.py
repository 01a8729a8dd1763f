"""What a screen reader is told without the focus moving: recording, transcribing, problems, replies.

``announce`` sends Qt's accessibility announcement (``QAccessibleAnnouncementEvent``, Qt 6.8 and
later), which Qt's AT-SPI bridge turns into the ``Announcement`` event Orca speaks (and UI
Automation's notification on Windows, NSAccessibility's announcement on macOS).  A polite
announcement waits until the reader is done with what it says; an assertive one interrupts it
(problems only).  Each announcement is also logged (``parley.announce``), so what a screen reader
was told is in the log a user sends.

``ReplyAnnouncer`` follows a streaming reply for the conversation view: at its end it announces
the whole reply, or, when the user asked for replies as they stream, each finished sentence as it
comes and then the rest.
"""

from __future__ import annotations

import logging
import re

from PySide6.QtCore import QObject
from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent

log = logging.getLogger("parley.announce")

# When a reply is announced (``Settings.announce_replies``).
AT_END, STREAMING, NEVER = "end", "streaming", "off"
REPLY_MODES = (AT_END, STREAMING, NEVER)

# The end of a sentence: . ! ? (and their CJK and Arabic forms) before a space or the end of a
# line, or a line break; what comes after it starts the next sentence.
_SENTENCE_END = re.compile(r"(?:[.!?…](?=\s)|[。！？؟]|\n)\s*")
_MARKUP = re.compile(r"[*_`#>|]+")


def announce(source: QObject, text: str, *, urgent: bool = False) -> None:
    """Tell a screen reader ``text``, as said by ``source`` (a widget of the window concerned)."""
    text = " ".join(text.split())
    if not text:
        return
    log.info("%s: %s", "urgent" if urgent else "polite", text)
    if not QAccessible.isActive():  # no assistive technology is listening
        return
    event = QAccessibleAnnouncementEvent(source, text)
    politeness = QAccessible.AnnouncementPoliteness
    event.setPoliteness(politeness.Assertive if urgent else politeness.Polite)
    QAccessible.updateAccessibility(event)


def spoken_text(markdown: str) -> str:
    """A reply's Markdown as a screen reader should say it: without the marks around the words."""
    return " ".join(_MARKUP.sub(" ", markdown).split())


class ReplyAnnouncer:
    """Announces one reply at a time, from ``source``; ``mode`` is one of ``REPLY_MODES``."""

    def __init__(self, source: QObject) -> None:
        self.source = source
        self.mode = AT_END
        self._said = 0  # characters of the streaming reply announced so far

    def started(self) -> None:
        self._said = 0

    def grew(self, text: str) -> None:
        """The reply so far: in ``STREAMING`` mode, its finished sentences not yet announced."""
        if self.mode != STREAMING:
            return
        end = self._said
        for match in _SENTENCE_END.finditer(text, self._said):
            end = match.end()
        if end > self._said:
            announce(self.source, spoken_text(text[self._said : end]))
            self._said = end

    def ended(self, text: str, note: str = "") -> None:
        """The reply is over: what was not announced yet, then ``note`` (how it ended, when that
        was not its own end)."""
        if self.mode == NEVER:
            self._said = 0
            return
        rest = spoken_text(text[self._said :] if self.mode == STREAMING else text)
        self._said = 0
        if rest or note:
            announce(self.source, " ".join(filter(None, [rest, note])))
