"""Audio stretched by a ratio that may change at any time, without a seam: the echo canceller's
reference resampled to the microphone's clock when the two clocks drift (``echo.py``).

soxr, which resamples between the devices' rates, holds about 45 ms back and gives its output
in bursts of 50 ms, and a new ratio needs a new stream: each change would move the reference
against its echo.  Here every output sample is read from the input at a position that advances
by ``1 / ratio`` per sample (a windowed sinc over ``_HALF`` samples either side), so a new
ratio bends the line and never breaks it, and only ``_HALF`` samples (1 ms) wait for the next
block.
"""

from __future__ import annotations

import numpy as np

_HALF = 16  # taps either side of the read position
_CUTOFF = 0.95  # of the Nyquist frequency: the ratios are within 1% of 1, so no aliasing to speak of
_TAPS = np.arange(-_HALF + 1, _HALF + 1)


class Stretch:
    """``push`` blocks of audio in, get them back ``ratio`` times as long (``ratio`` > 1: more
    samples), sample for sample continuous across blocks and ratio changes."""

    def __init__(self, ratio: float = 1.0) -> None:
        self.ratio = ratio
        self._input = np.zeros(_HALF, dtype=np.float64)  # the samples the next outputs read; silence before the first
        self._position = float(_HALF)  # of the next output sample, in ``_input``

    def push(self, block: np.ndarray) -> np.ndarray:
        """The output for as much of ``block`` (and what came before) as can be read now."""
        self._input = np.concatenate([self._input, np.asarray(block, dtype=np.float64).reshape(-1)])
        step = 1.0 / self.ratio
        last = len(self._input) - _HALF  # the last position every tap can be read around
        count = int(np.ceil((last - self._position) / step)) if self._position < last else 0
        if count <= 0:
            return np.zeros(0, dtype=np.float32)
        positions = self._position + step * np.arange(count)
        base = np.floor(positions).astype(np.int64)
        offsets = (base[:, None] + _TAPS[None, :]) - positions[:, None]  # tap minus read position, -HALF..HALF
        window = 0.42 + 0.5 * np.cos(np.pi * offsets / _HALF) + 0.08 * np.cos(2 * np.pi * offsets / _HALF)
        weights = _CUTOFF * np.sinc(_CUTOFF * offsets) * window
        out = np.sum(self._input[base[:, None] + _TAPS[None, :]] * weights, axis=1)
        self._position = float(positions[-1] + step)
        keep = int(np.floor(self._position)) - _HALF  # samples no later output reads
        self._input = self._input[keep:]
        self._position -= keep
        return np.asarray(out, dtype=np.float32)
