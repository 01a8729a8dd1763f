"""A simulated room between Parley's speakers and the microphone, for the echo canceller's
tests and ``bench/bench_echo.py``: what the microphone hears of what the speakers play.

- a small loudspeaker: its loudest peaks softly clipped (what no linear filter can model);
- a synthetic room response: direct sound, a few early reflections and a reverberant tail
  (RT60 0.3 s);
- the echo's delay after the pairing by order (the devices' latencies plus the air);
- the microphone's clock running ``drift`` fast against the speakers' (0.001: 20 ms over 20 s);
- optionally, at ``jump_at_s``, the delay growing by ``jump_by_s`` with a new room response (a
  Bluetooth speaker relinking; a door opening).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import soxr

RATE = 16000


def reply(clips: list[np.ndarray], seconds: float, rng: np.random.Generator) -> np.ndarray:
    """Parley reading a reply: sentences in a random order with the pauses between them."""
    parts, total = [np.zeros(int(0.2 * RATE), np.float32)], 0.2
    while total < seconds:
        clip = clips[int(rng.integers(len(clips)))]
        pause = np.zeros(int(rng.uniform(0.15, 0.5) * RATE), np.float32)
        parts += [clip, pause]
        total += (len(clip) + len(pause)) / RATE
    return np.concatenate(parts)[: int(seconds * RATE)]


# ---------------------------------------------------------------- the room


def room_response(rng: np.random.Generator, rt60: float = 0.3, seconds: float = 0.3) -> np.ndarray:
    """Direct sound, a few early reflections and an exponentially decaying diffuse tail."""
    n = int(seconds * RATE)
    t = np.arange(n) / RATE
    ir = np.zeros(n)
    ir[0] = 1.0
    for _ in range(6):
        ir[int(rng.uniform(0.002, 0.02) * RATE)] += rng.uniform(-0.5, 0.5)
    start = int(0.005 * RATE)
    tail = rng.normal(0, 1, n) * np.exp(-6.9 * t / rt60)
    tail[:start] = 0.0
    ir += tail / np.sqrt(np.sum(tail**2))  # as loud as the direct sound and its reflections
    return ir / np.sqrt(np.sum(ir**2))


def convolve(x: np.ndarray, h: np.ndarray) -> np.ndarray:
    size = 1 << (len(x) + len(h) - 1).bit_length()
    return np.fft.irfft(np.fft.rfft(x, size) * np.fft.rfft(h, size), size)[: len(x)]


@dataclasses.dataclass
class Room:
    """One room; ``echo`` is what the microphone hears of what was played (times ``gain``)."""

    delay_s: float
    jump_at_s: float | None
    jump_by_s: float
    first: np.ndarray  # room responses, before and after the jump
    second: np.ndarray
    drift: float = 0.001
    gain: float = 1.0  # set so the echo is at the wanted level against the user

    @classmethod
    def drawn(cls, rng: np.random.Generator, jumps: bool, drift: float) -> Room:
        return cls(
            drift=drift,
            delay_s=float(rng.uniform(0.02, 0.2)),
            jump_at_s=float(rng.uniform(8.0, 12.0)) if jumps else None,
            jump_by_s=float(rng.uniform(0.04, 0.12)),
            first=room_response(rng),
            second=room_response(rng),
        )

    def echo(self, played: np.ndarray) -> np.ndarray:
        """What the microphone hears of ``played`` (before ``gain``)."""
        driven = np.tanh(2.0 * played.astype(np.float64)) / 2.0  # a small loudspeaker near its limit
        n = len(played)

        def through(ir: np.ndarray, delay_s: float) -> np.ndarray:
            wet = soxr.resample(convolve(driven, ir), RATE, RATE * (1 + self.drift))  # the mic's clock is fast
            delay = int(delay_s * RATE)
            return np.concatenate([np.zeros(delay), wet])[:n]

        out = through(self.first, self.delay_s)
        if self.jump_at_s is not None:
            at = int(self.jump_at_s * RATE)
            out[at:] = through(self.second, self.delay_s + self.jump_by_s)[at:]
        return out.astype(np.float32)
