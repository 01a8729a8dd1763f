"""What a take from the microphone is for: the one name that the flows, push-to-talk, the
transcription, the shortcuts from anywhere and the turn timings use for it."""

from __future__ import annotations

from enum import Enum


class TakePurpose(str, Enum):
    """A take's purpose; its value is the word the log, the command line (``parley dictate``)
    and the settings use."""

    TALK = "talk"  # push-to-talk in the window: the words go to the chat
    HANDS_FREE = "hands-free"  # an utterance heard hands-free: sent as it is
    DICTATE = "dictate"  # typed into the application that has the focus
    DICTATE_CLEANED = "dictate-cleaned"  # the same, cleaned up by the chat model whatever the setting
    ASK = "ask"  # a question from anywhere, answered in the quick-ask window

    def __str__(self) -> str:
        return self.value
