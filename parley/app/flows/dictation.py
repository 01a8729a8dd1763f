"""A dictation into another app: hold the Dictate shortcut (default Ctrl+Alt+Space) in any
application, speak, let go; the words are typed where the cursor is.

``speech.from_anywhere`` tells a hold from a tap (a tap starts a take that the next press ends)
and ends the take; the command line (``parley dictate --toggle``) and the tray's Dictate do the
same.  Words that cannot be typed there (Parley itself had the focus, the session cannot type
into other apps) go into Parley's text box, with the reason.
"""

from __future__ import annotations

import logging
from typing import Any

from ..desktop.typing.typist import PARLEY_HAS_FOCUS
from ..take_purpose import TakePurpose
from .barge_in import BargeIn
from .hands_free_turn import HandsFreeTurn
from .parts import Parts

log = logging.getLogger("parley.anywhere")

HANDS_FREE_OFF = "Hands-free is off while you use the shortcut."


class Dictation:
    def __init__(self, parts: Parts, barge_in: BargeIn, hands_free: HandsFreeTurn) -> None:
        self.talk = parts.talk
        self.transcription = parts.transcription
        self.replies = parts.replies
        self.typist = parts.typist
        self.status = parts.status
        self.bar = parts.window.input_bar
        self.settings = parts.settings
        self.barge_in = barge_in
        self.hands_free = hands_free

    def start(self, _focus: int = 0) -> bool:
        """1. The shortcut goes down: Parley stops speaking; hands-free, which would hear the
        same words, is turned off; a take starts (a reply streaming in the window stops, as
        for any take).  False when no take started."""
        self.barge_in.key_pressed()
        if self.hands_free.turn_off():
            self.status.say(HANDS_FREE_OFF)
        if not self.talk.press(TakePurpose.DICTATE, self.recorded):
            return False
        self.replies.stop()
        self.replies.prepare()
        return True

    # 2. The shortcut comes up (or, after a tap, is pressed again): ``FromAnywhere`` ends the take.

    def recorded(self, audio: Any, _ended_at: float) -> None:
        """3. The take's audio: transcribed on the speech thread."""
        self.transcription.transcribe(audio, TakePurpose.DICTATE, then=self.heard)

    def heard(self, text: str) -> None:
        """4. Its words: typed where the cursor is, in the application that has the focus."""
        if not text:
            return
        s = self.settings()
        self.typist.type(
            text + (" " if s.dictation_space_after else ""),
            method=s.dictation_method,
            chars_per_s=s.typing_rate,
        )

    def typed(self, text: str, problem: str) -> None:
        """5. The typist's report (of a dictation, or of an answer inserted from the quick-ask
        window): words it could not type go into Parley's text box."""
        if not problem:
            return
        log.info("dictation not typed: %s", problem)
        if problem == PARLEY_HAS_FOCUS:
            self.status.say("Parley had the focus, so the words went into its text box.")
        else:
            self.status.notice(f"{problem}. The words are in Parley's text box.")
        self.bar.insert_text(text.rstrip())
