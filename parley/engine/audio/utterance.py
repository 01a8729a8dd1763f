"""What counts as speech: the rules the app and the ``parley`` command share.

Two steps around every transcription, so that a clip gives the same text in the window and on
the command line:

- before: only the part of a clip that holds speech is transcribed (``speech_region``: the
  energy cut of ``parley.engine.audio.vad.voiced_region``, where the threshold and its reasons
  live).  A clip with no speech is not transcribed at all: whisper would "hear" words in
  silence (tiny.en says "you"), and it transcribes nothing from under 100 ms of audio.
- after: ``spoken_text`` leaves out whisper's non-speech markers ("[BLANK_AUDIO]",
  "(phone ringing)", "[MUSIC PLAYING]", "*cough*"), which are not something anyone said;
  whisper gives them for noise, tones and music loud enough to pass the threshold.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

import numpy as np

from ..formats import SAMPLE_RATE
from .vad import VoicedRegion, voiced_region

# whisper.cpp transcribes nothing from less than 100 ms of audio ("input is too short").
SHORTEST_SPEECH_S = 0.1

# One non-speech marker: [BLANK_AUDIO], [Music], (upbeat music), *cough*.
_MARKER = re.compile(r"\[[^\]]*\]|\([^)]*\)|\*[^*]*\*")
_SPACE_BEFORE_PUNCTUATION = re.compile(r"\s+([.,!?;:])")  # left where a marker was cut out


class _Segment(Protocol):
    text: str


class _Transcript(Protocol):
    @property
    def segments(self) -> Sequence[_Segment]: ...


def speech_region(audio: np.ndarray, sample_rate: int = SAMPLE_RATE) -> VoicedRegion | None:
    """The part of mono ``audio`` to transcribe: its speech with a margin (``voiced_region``);
    None when it holds no speech, or too little for whisper to transcribe."""
    region = voiced_region(audio, sample_rate=sample_rate)
    if region is None or region.end - region.start < SHORTEST_SPEECH_S * sample_rate:
        return None
    return region


def speech_in(text: str) -> str:
    """A segment's text without whisper's non-speech markers; "" when nothing spoken is left
    (only markers, punctuation or blanks)."""
    words = _SPACE_BEFORE_PUNCTUATION.sub(r"\1", " ".join(_MARKER.sub(" ", text).split()))
    return words if any(ch.isalnum() for ch in words) else ""


def spoken_text(transcript: _Transcript) -> str:
    """What was said: the transcript's segments without the non-speech markers, a sentence that
    whisper wrote twice in a row once (``without_repeats``); "" if nothing."""
    return without_repeats(" ".join(filter(None, (speech_in(s.text) for s in transcript.segments))))


_SENTENCE = re.compile(r"[^.!?]+[.!?]*[\"')\]]*\s*")
REPEATED_WORDS = 3  # a sentence this long or longer, twice in a row, is whisper's loop


def without_repeats(text: str) -> str:
    """``text`` with a sentence of ``REPEATED_WORDS`` words or more that follows itself word for
    word dropped.  Primed with a prompt that the speech begins with ("Parley"), whisper tiny.en
    wrote "Parley, what is the capital of France? Parley, What is the capital of France?" for the
    question said once (2 of 3 takes on one thread, beside a busy core); nobody says a whole
    sentence twice in one breath, and a short one ("No. No.") is left alone."""
    kept: list[str] = []
    last = ""
    for sentence in _SENTENCE.findall(text):
        words = " ".join(re.findall(r"[\w']+", sentence.lower()))
        if words and words == last and len(words.split()) >= REPEATED_WORDS:
            continue
        kept.append(sentence)
        last = words or last
    return "".join(kept).strip()
