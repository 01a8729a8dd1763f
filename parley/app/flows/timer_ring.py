"""A timer or reminder rings: set by voice or typed ("set a timer for ten minutes"), it rings
while Parley runs, the window closed to the tray included, and after a restart of Parley
(one that fell due while Parley was closed rings at the next start, said as missed).

Each ring is heard and seen: the chime, then the words in Parley's voice ("Your 10-minute
timer is done"), a notification from the tray icon, the status bar (and a screen reader), and
the window asks for attention.  Dismissed by nothing: it rings once.
"""

from __future__ import annotations

from collections.abc import Callable

from .parts import Parts


class TimerRing:
    def __init__(self, parts: Parts, chime: Callable[[], None], notify: Callable[[str], None] | None) -> None:
        """``chime()`` plays the bell; ``notify(text)`` shows a notification (the tray's; None
        where the desktop has no tray)."""
        self.voice = parts.voice
        self.status = parts.status
        self.window = parts.window
        self._chime = chime
        self._notify = notify

    def rang(self, text: str, _missed: bool) -> None:
        """1. The bell; 2. the words, said and shown; 3. the window asks for attention."""
        self._chime()
        words = text  # a missed one says so: "Missed: your 10-minute timer ended at 9:40."
        self.voice.say(words)
        if self._notify is not None:
            self._notify(words)
        self.status.notice(words)
        self.status.announce(words)
        self.window.ask_attention()
