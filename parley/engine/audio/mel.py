"""Whisper's mel filter bank, computed the way librosa does it.

OpenAI generated Whisper's table with ``librosa.filters.mel(sr=16000, n_fft=400, n_mels=N)``
(Slaney mel scale, Slaney area normalisation), and whisper.cpp expects that table inside its
model files.  CTranslate2 model folders do not ship it, so the converter recomputes it here.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..formats import SAMPLE_RATE

# Slaney's mel scale (librosa ``htk=False``): linear below 1 kHz, logarithmic above.
_F_SP = 200.0 / 3.0  # Hz per mel in the linear part
_MIN_LOG_HZ = 1000.0
_MIN_LOG_MEL = _MIN_LOG_HZ / _F_SP  # = 15 mels
_LOG_STEP = np.log(6.4) / 27.0  # mels per octave-ish step in the log part


def hz_to_mel(hz: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """Slaney mel value of each frequency in ``hz``."""
    hz = np.asarray(hz, dtype=np.float64)
    linear = hz / _F_SP
    logarithmic = _MIN_LOG_MEL + np.log(np.maximum(hz, _MIN_LOG_HZ) / _MIN_LOG_HZ) / _LOG_STEP
    return np.where(hz >= _MIN_LOG_HZ, logarithmic, linear)


def mel_to_hz(mel: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """Inverse of ``hz_to_mel``."""
    mel = np.asarray(mel, dtype=np.float64)
    linear = mel * _F_SP
    logarithmic = _MIN_LOG_HZ * np.exp(_LOG_STEP * (np.maximum(mel, _MIN_LOG_MEL) - _MIN_LOG_MEL))
    return np.where(mel >= _MIN_LOG_MEL, logarithmic, linear)


def mel_filters(n_mels: int = 80, n_fft: int = 400, sample_rate: int = SAMPLE_RATE) -> np.ndarray:
    """Triangular mel filters, float32 of shape ``[n_mels, n_fft // 2 + 1]``.

    Same result as ``librosa.filters.mel(sr=sample_rate, n_fft=n_fft, n_mels=n_mels,
    htk=False, norm="slaney")`` with ``fmin=0`` and ``fmax=sample_rate / 2``: band edges are
    evenly spaced in mel, each triangle peaks at its centre, and each row is scaled by
    ``2 / bandwidth`` so every filter has the same area.
    """
    if n_mels < 1 or n_fft < 2 or sample_rate <= 0:
        raise ValueError(f"bad mel filter parameters: n_mels={n_mels}, n_fft={n_fft}, sample_rate={sample_rate}")
    fft_freqs = np.linspace(0.0, sample_rate / 2.0, n_fft // 2 + 1)
    edges_mel = np.linspace(hz_to_mel(0.0), hz_to_mel(sample_rate / 2.0), n_mels + 2)
    edges_hz = mel_to_hz(edges_mel)

    widths = np.diff(edges_hz)  # [n_mels + 1]
    ramps = edges_hz[:, None] - fft_freqs[None, :]  # [n_mels + 2, n_bins]
    rising = -ramps[:-2] / widths[:-1, None]
    falling = ramps[2:] / widths[1:, None]
    # Rounding the triangles to float32 before normalising, as librosa does, reproduces
    # OpenAI's published table bit for bit (normalising in float64 first is 1 ulp off).
    weights = np.maximum(0.0, np.minimum(rising, falling)).astype(np.float32)
    weights *= (2.0 / (edges_hz[2:] - edges_hz[:-2]))[:, None]
    return weights
