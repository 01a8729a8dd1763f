"""What counts as speech: the rules the app and the ``parley`` command share.

Two steps around every transcription, so that a clip gives the same text in the window and on
the command line:

- before: ``voiced_part`` cuts the silence around the speech (an energy threshold on 20 ms
  frames, with a margin so quiet word onsets and endings stay in).  A clip with no frame
  above the threshold holds no speech and is not transcribed at all: whisper would "hear"
  words in silence (tiny.en says "you").
- after: ``spoken_text`` leaves out whisper's non-speech markers ("[BLANK_AUDIO]",
  "(phone ringing)", "[MUSIC PLAYING]", "*cough*"), which are not something anyone said;
  whisper gives them for noise, tones and music loud enough to pass the threshold.
"""

from __future__ import annotations

import re
from typing import Protocol

import numpy as np

from .audio import SAMPLE_RATE

# Clips quieter than this all through (dBFS, 20 ms frames) hold no speech.  Well below quiet
# speech (about -40 dBFS), above the noise floor of a working microphone.
SPEECH_THRESHOLD_DB = -55.0
FRAME_S = 0.02
MARGIN_S = 0.3           # kept before the first and after the last loud frame
# whisper.cpp transcribes nothing from less than 100 ms of audio ("input is too short").
SHORTEST_SPEECH_S = 0.1

# One non-speech marker: [BLANK_AUDIO], [Music], (upbeat music), *cough*.
_MARKER = re.compile(r"\[[^\]]*\]|\([^)]*\)|\*[^*]*\*")
_SPACE_BEFORE_PUNCTUATION = re.compile(r"\s+([.,!?;:])")      # left where a marker was cut out


class _Segment(Protocol):
    text: str


class _Transcript(Protocol):
    @property
    def segments(self) -> list[_Segment]: ...


def voiced_span(audio: np.ndarray, sample_rate: int = SAMPLE_RATE) -> tuple[int, int]:
    """``(begin, end)``: the samples of mono ``audio`` from ``MARGIN_S`` before its first frame
    at or above ``SPEECH_THRESHOLD_DB`` to ``MARGIN_S`` after its last; ``(0, 0)`` when no
    frame is that loud or the span is too short for whisper to transcribe."""
    samples = np.asarray(audio)
    n = len(samples)
    if n == 0:
        return 0, 0
    frame = max(1, int(FRAME_S * sample_rate))
    starts = np.arange(0, n, frame)
    mean_square = np.add.reduceat(np.square(samples, dtype=np.float64), starts) / np.diff(np.append(starts, n))
    loud = np.flatnonzero(mean_square >= 10.0 ** (SPEECH_THRESHOLD_DB / 10.0))
    if len(loud) == 0:
        return 0, 0
    margin = int(MARGIN_S * sample_rate)
    begin = max(0, int(starts[loud[0]]) - margin)
    end = min(n, int(starts[loud[-1]]) + frame + margin)
    if end - begin < SHORTEST_SPEECH_S * sample_rate:
        return 0, 0
    return begin, end


def voiced_part(audio: np.ndarray, sample_rate: int = SAMPLE_RATE) -> np.ndarray:
    """``audio`` without the silence before and after the speech in it; empty when it holds
    no speech (see ``voiced_span``)."""
    begin, end = voiced_span(audio, sample_rate)
    return audio[begin:end]


def speech_in(text: str) -> str:
    """A segment's text without whisper's non-speech markers; "" when nothing spoken is left
    (only markers, punctuation or blanks)."""
    words = _SPACE_BEFORE_PUNCTUATION.sub(r"\1", " ".join(_MARKER.sub(" ", text).split()))
    return words if any(ch.isalnum() for ch in words) else ""


def spoken_text(transcript: _Transcript) -> str:
    """What was said: the transcript's segments without the non-speech markers; "" if nothing."""
    return " ".join(filter(None, (speech_in(s.text) for s in transcript.segments)))
