"""Parley's chime: two soft bell tones, made here (no sound file to ship or load).

Played when a timer or reminder rings (``app/flows/timer_ring.py``); ``cue`` is its short form,
rising when Parley starts to listen for a question and falling when it goes back to waiting for
its wake word (``app/flows/waking.py``).  A bell is a sine with a
few inharmonic partials that fade at their own rates; a short attack keeps it from clicking.
"""

from __future__ import annotations

import numpy as np

SAMPLE_RATE = 24_000
_PARTIALS = ((1.0, 1.0, 3.0), (2.0, 0.45, 4.5), (2.76, 0.25, 6.0), (5.4, 0.08, 9.0))  # ratio, level, decay/s
NOTES_HZ = (880.0, 659.25)  # A5 then E5: a falling "ding-dong"
NOTE_SECONDS = 0.9
NOTE_GAP_SECONDS = 0.35
PEAK = 0.35  # of full scale: noticeable, never harsh


CUE_NOTE_SECONDS = 0.3
CUE_GAP_SECONDS = 0.1
CUE_PEAK = 0.2  # quieter than the timer's bell: it is heard often


def _bells(notes: tuple[float, ...], note_seconds: float, gap_seconds: float, peak: float, rate: int) -> np.ndarray:
    """Bell notes ``gap_seconds`` apart, each ringing ``note_seconds``, scaled to ``peak``."""
    note_samples = int(note_seconds * rate)
    t = np.arange(note_samples, dtype=np.float64) / rate
    attack = np.minimum(1.0, t / 0.005)
    out = np.zeros(int((gap_seconds * (len(notes) - 1) + note_seconds) * rate), dtype=np.float64)
    for i, pitch in enumerate(notes):
        note = sum(
            level * np.exp(-decay * t) * np.sin(2 * np.pi * pitch * ratio * t) for ratio, level, decay in _PARTIALS
        )
        start = int(i * gap_seconds * rate)
        out[start : start + note_samples] += note * attack
    fade = np.minimum(1.0, (len(out) - np.arange(len(out))) / (0.01 * rate))  # no click where it is cut
    return out * fade * (peak / max(float(np.max(np.abs(out))), 1e-9))


def cue(rising: bool, sample_rate: int = SAMPLE_RATE) -> np.ndarray:
    """The short cue: rising (listening) or falling (back to waiting), mono float32."""
    notes = (NOTES_HZ[1], NOTES_HZ[0]) if rising else NOTES_HZ
    return _bells(notes, CUE_NOTE_SECONDS, CUE_GAP_SECONDS, CUE_PEAK, sample_rate).astype(np.float32)


def chime(sample_rate: int = SAMPLE_RATE, repeats: int = 1) -> np.ndarray:
    """The chime, ``repeats`` times, as mono float32 at ``sample_rate``."""
    out = _bells(NOTES_HZ, NOTE_SECONDS, NOTE_GAP_SECONDS, PEAK, sample_rate)
    pause = np.zeros(int(0.4 * sample_rate), dtype=np.float64)
    whole = np.concatenate([np.concatenate([out, pause]) for _ in range(max(1, repeats))])
    return whole.astype(np.float32)
