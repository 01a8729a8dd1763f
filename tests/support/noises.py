"""Sounds that are not a person speaking to the computer, for voice activity tests and
``bench/bench_vad.py``: a fan, keys typed, music, a voice from a television across the room.

All are 16 kHz float32 at levels a laptop microphone picks up; all are loud enough for a
loudness detector to take them for speech, which is what makes them worth testing.
"""

from __future__ import annotations

import numpy as np

RATE = 16000


def _at_level(x: np.ndarray, level_db: float) -> np.ndarray:
    rms = float(np.sqrt(np.mean(np.square(x, dtype=np.float64)))) or 1.0
    return (x * (10 ** (level_db / 20) / rms)).astype(np.float32)


def fan(seconds: float, level_db: float = -30.0, seed: int = 0) -> np.ndarray:
    """Broadband noise tilted to the low end (brown plus pink-ish), with a blade hum at 120 Hz
    that beats slowly, like a desk fan a metre away."""
    rng = np.random.default_rng(seed)
    n = int(seconds * RATE)
    white = rng.normal(0, 1, n)
    brown = np.cumsum(white)
    brown -= np.convolve(brown, np.ones(801) / 801, mode="same")  # no drift below ~20 Hz
    t = np.arange(n) / RATE
    hum = (1 + 0.3 * np.sin(2 * np.pi * 0.7 * t)) * np.sin(2 * np.pi * 120 * t)
    mix = brown / (np.std(brown) or 1) + 0.5 * white + 0.4 * hum
    return _at_level(mix, level_db)


def keyboard(seconds: float, level_db: float = -32.0, seed: int = 0) -> np.ndarray:
    """Keys typed at 5 to 9 a second: each a click of 4 to 12 ms, decaying, over a quiet room."""
    rng = np.random.default_rng(seed)
    n = int(seconds * RATE)
    out = rng.normal(0, 10 ** (-62 / 20), n)
    pos = int(rng.uniform(0.05, 0.2) * RATE)
    while pos < n:
        length = int(rng.uniform(0.004, 0.012) * RATE)
        burst = rng.normal(0, 1, length) * np.exp(-np.arange(length) / (length / 4))
        end = min(n, pos + length)
        out[pos:end] += rng.uniform(0.3, 1.0) * burst[: end - pos]
        pos += int(RATE / rng.uniform(5, 9))
    return _at_level(out, level_db)


def music(seconds: float, level_db: float = -28.0, seed: int = 0) -> np.ndarray:
    """Chords of harmonic tones changing every half second, with a beat of percussive noise: a
    song playing in the room."""
    rng = np.random.default_rng(seed)
    n = int(seconds * RATE)
    t = np.arange(n) / RATE
    out = np.zeros(n)
    roots = [110.0, 130.8, 146.8, 164.8, 196.0]
    step = RATE // 2
    for start in range(0, n, step):
        seg = slice(start, min(n, start + step))
        root = roots[int(rng.integers(len(roots)))]
        for ratio in (1.0, 1.26, 1.5, 2.0):
            for harmonic in range(1, 6):
                out[seg] += np.sin(2 * np.pi * root * ratio * harmonic * t[seg]) / harmonic**1.5
        envelope = np.exp(-np.arange(seg.stop - seg.start) / (0.3 * RATE))
        out[seg] *= 0.6 + 0.4 * envelope
    for beat in range(0, n, RATE // 4):  # a drum on every quarter second
        length = min(n - beat, int(0.05 * RATE))
        out[beat : beat + length] += 2.0 * rng.normal(0, 1, length) * np.exp(-np.arange(length) / (0.01 * RATE))
    return _at_level(out, level_db)


def distant_voice(speech: np.ndarray, seconds: float, level_db: float = -38.0, seed: int = 0) -> np.ndarray:
    """``speech`` repeated for ``seconds``, through a room's reverberation (an exponentially
    decaying noise tail of 0.4 s) and lowered to ``level_db``: a television across the room."""
    rng = np.random.default_rng(seed)
    n = int(seconds * RATE)
    reps = int(np.ceil(n / max(1, len(speech))))
    dry = np.tile(speech.astype(np.float64), reps)[:n]
    tail = int(0.4 * RATE)
    impulse = rng.normal(0, 1, tail) * np.exp(-np.arange(tail) / (0.08 * RATE))
    impulse[0] = 4.0
    wet = np.convolve(dry, impulse)[:n]
    return _at_level(wet, level_db)


NOISES = {"fan": fan, "keyboard": keyboard, "music": music}
