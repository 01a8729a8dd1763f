"""Barge-in: talking over Parley while it reads a reply aloud.

By key, unchecked: the talk key, or a shortcut from anywhere, silences Parley and stops its reply
(the text so far is kept, marked stopped); the take that follows is the next turn.

By voice, checked (hands-free): on speakers, what the echo canceller leaves of Parley's own voice
can still sound like speech.  So when speech begins while Parley speaks, the voice falls silent
at once but keeps what it has left to say, and the reply goes on being written.  The utterance's
words decide (``echo_words.is_echo``): words that are not a run of what Parley was saying are
the user's, and the voice and the reply stop; Parley's own words, nothing recognised, or a start
too short to be an utterance are its echo, and the voice goes on where it paused.
"""

from __future__ import annotations

import logging

from ..speech.echo_words import is_echo
from .parts import Parts

log = logging.getLogger("parley.voice")


class BargeIn:
    def __init__(self, parts: Parts) -> None:
        self.voice = parts.voice
        self.replies = parts.replies

    def key_pressed(self) -> None:
        """By key: the talk key or a shortcut from anywhere went down."""
        self._stop_parley()

    # ------------------------------------------------------------------ by voice, checked

    def speech_began(self) -> None:
        """1. Speech begins while Parley speaks: its voice falls silent at once, keeping what is
        left to say, until the words show whose it was (the system voice, which cannot hold,
        stops)."""
        if not self.voice.speaking:
            return
        if not self.voice.can_hold:
            self._stop_parley()
            return
        self.voice.hold_for_check()

    def came_to_nothing(self) -> None:
        """2a. What began was no utterance (too short, or Parley's own voice): it speaks on."""
        self.voice.speak_on()

    def words_heard(self, text: str) -> bool:
        """2b. The utterance's words: True when they are the user's (a check under way ends in a
        barge-in), False when they were Parley's own voice (dropped; it speaks on)."""
        if not self.voice.checking:
            return True
        if is_echo(text, self.voice.said):
            log.info("heard Parley's own words over its voice (%r): it speaks on", text)
            self.voice.speak_on()
            return False
        log.info("the user spoke over Parley (%r): the voice and the reply stop", text)
        self._stop_parley()
        return True

    def _stop_parley(self) -> None:
        """Silence Parley; the reply it was reading stops too."""
        if self.voice.silence():
            self.replies.stop()
