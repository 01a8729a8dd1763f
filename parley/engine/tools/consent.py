"""The user's spoken answer to "Shall I ...?": yes, no, or neither (then it is taken as no)."""

from __future__ import annotations

import re

_YES = {
    "yes", "yeah", "yep", "yup", "sure", "ok", "okay", "please", "confirm", "confirmed", "correct", "right",
    "absolutely", "definitely", "affirmative", "certainly", "alright", "fine",
}  # fmt: skip
_YES_PHRASES = ("do it", "go ahead", "go for it", "please do", "sounds good", "that's right", "yes please", "all right")
_NO = {"no", "nope", "nah", "don't", "dont", "cancel", "stop", "negative", "never", "wait", "hold"}
_NO_PHRASES = ("do not", "never mind", "nevermind", "not now", "forget it", "no thanks", "hold on")


def spoken_answer(text: str) -> bool | None:
    """True for a yes ("Yes.", "Sure, go ahead"), False for a no ("No", "Don't", "Cancel that"),
    None for anything else (a new question).  A no anywhere wins over a yes: "yes, no, wait"
    is a no, since doing what was not meant costs more than asking again."""
    words = re.findall(r"[a-z']+", text.lower().replace("\u2019", "'"))
    if not words or len(words) > 12:  # a sentence of its own is a new message, not an answer
        return None
    said = " ".join(words)
    if any(w in _NO for w in words) or any(p in said for p in _NO_PHRASES):
        return False
    if any(w in _YES for w in words[:3]) or any(p in said for p in _YES_PHRASES):
        return True
    return None
