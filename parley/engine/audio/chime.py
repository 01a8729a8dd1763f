"""Parley's chime: two soft bell tones, made here (no sound file to ship or load).

Played when a timer or reminder rings (``app/flows/timer_ring.py``).  A bell is a sine with a
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


def chime(sample_rate: int = SAMPLE_RATE, repeats: int = 1) -> np.ndarray:
    """The chime, ``repeats`` times, as mono float32 at ``sample_rate``."""
    note_samples = int(NOTE_SECONDS * sample_rate)
    t = np.arange(note_samples, dtype=np.float64) / sample_rate
    attack = np.minimum(1.0, t / 0.005)
    out = np.zeros(int((NOTE_GAP_SECONDS * (len(NOTES_HZ) - 1) + NOTE_SECONDS) * sample_rate), dtype=np.float64)
    for i, pitch in enumerate(NOTES_HZ):
        note = sum(
            level * np.exp(-decay * t) * np.sin(2 * np.pi * pitch * ratio * t) for ratio, level, decay in _PARTIALS
        )
        start = int(i * NOTE_GAP_SECONDS * sample_rate)
        out[start : start + note_samples] += note * attack
    out *= PEAK / max(float(np.max(np.abs(out))), 1e-9)
    pause = np.zeros(int(0.4 * sample_rate), dtype=np.float64)
    whole = np.concatenate([np.concatenate([out, pause]) for _ in range(max(1, repeats))])
    return whole.astype(np.float32)
