"""One dictation as the history keeps it: the one type the history store, its log and the
history window share (a plain record: the window may import it)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DictationRecord:
    when: float  # ``time.time()`` at the end of the take
    raw: str  # what the speech model heard
    typed: str  # what was typed (after the vocabulary, rules and clean-up), without the space after
    application: str = ""  # the application it went into, where the desktop says so ("": unknown)
    note: str = ""  # "" or a sentence: why the plain transcript was typed, why it was not typed
    window: int = 0  # the X window it went into (this session only: X ids are reused; 0: unknown)
    id: int | None = None  # the store's id; None while it is not saved
