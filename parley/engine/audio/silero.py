"""The neural voice activity detector: Silero VAD, run by whisper.cpp on Parley's one ggml.

``SileroVAD`` holds a ``whisper_vad_context`` and gives a speech probability for each 32 ms
window (512 samples at 16 kHz) of a stream, keeping the network's LSTM state from one call to
the next (``whisper_vad_detect_speech_no_reset``); ``reset`` starts afresh.  A context is used
by one thread at a time: hands-free creates its detector where it listens.

``NeuralDetector`` turns the probabilities into the frame decisions ``vad.UtteranceSegmenter``
asks for, with Silero's own hysteresis: speech starts at ``threshold`` and goes on while the
probability stays above ``threshold - 0.15``.  It tells speech from a fan, keys, music and
other noise that the energy detector takes for speech (``bench/bench_vad.py`` measures both).
"""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np

from ..backend import native
from ..errors import ModelClosedError, ModelFileError, ParleyError, UntrustedFileError
from ..handles.owner import Owner
from ..handles.whisper import VadContext
from ..modelfiles import silero_convert
from ..untrusted import read_bytes
from .files import rms_level

WINDOW = silero_convert.WINDOW


def check_vad_file(path: Path) -> None:
    """Refuse a file whisper.cpp's VAD loader must not see: it trusts the counts and shapes it
    reads.  Parley's file is made from checked weights (``silero_convert``); this checks that
    the file at ``path`` still has exactly that layout (header, every tensor's name and shape,
    the total size), so only the weights' values can differ."""
    try:
        data = read_bytes(path, silero_convert.MAX_SOURCE_BYTES)
    except UntrustedFileError as exc:
        raise ModelFileError(
            path, f"the voice activity model cannot be read: {str(exc).removeprefix(f'{path}: ')}"
        ) from None
    if not silero_convert.has_vad_layout(data):
        raise ModelFileError(path, "this is not Parley's Silero VAD file (its layout differs)")


class SileroVAD(Owner):
    """Speech probabilities for consecutive 512-sample windows of 16 kHz audio."""

    def __init__(self, path: str | Path, threads: int = 1) -> None:
        super().__init__()
        self.path = Path(path)
        self._lock = threading.Lock()  # one thread in the context at a time; close() waits for it
        self._pending = np.zeros(0, dtype=np.float32)
        with self._building():
            check_vad_file(self.path)
            native.load_backends()
            self._vad = self._resources.enter_context(VadContext(self.path, threads))

    @classmethod
    def default(cls, threads: int = 1) -> SileroVAD:
        """The Silero VAD shipped in the ``silero-vad`` package (ModelFileError when it is not)."""
        from ..modelfiles.defaults import default_vad_model_path

        return cls(default_vad_model_path(), threads)

    def probabilities(self, audio: np.ndarray) -> np.ndarray:
        """The speech probability of each whole window completed by ``audio`` (consecutive with
        the previous call's audio); a partial window waits for the next call."""
        samples = np.concatenate([self._pending, np.asarray(audio, dtype=np.float32).ravel()])
        whole = len(samples) // WINDOW * WINDOW
        self._pending = samples[whole:].copy()
        if whole == 0:
            return np.zeros(0, dtype=np.float32)
        windows = np.ascontiguousarray(np.nan_to_num(samples[:whole], nan=0.0, posinf=1.0, neginf=-1.0))
        with self._lock:
            if self.closed:
                raise ModelClosedError("the voice activity model is closed")
            probs = self._vad.detect(windows)
        if probs is None or len(probs) != whole // WINDOW:
            raise ParleyError("whisper.cpp could not run the voice activity model")
        return probs

    def reset(self) -> None:
        """Forget the stream so far (the LSTM state and a partial window)."""
        self._pending = self._pending[:0]
        with self._lock:
            if not self.closed:
                self._vad.reset()

    def close(self) -> None:
        with self._lock:
            super().close()


class NeuralDetector:
    """``vad.SpeechDetector`` on Silero's probabilities, one 32 ms window per frame.

    A window also has to reach ``min_level_db``: digital silence and a barely audible murmur are
    never speech, whatever the network says of them."""

    name = "neural"
    frame = WINDOW

    def __init__(self, vad: SileroVAD, *, threshold: float = 0.5, min_level_db: float = -55.0) -> None:
        self.vad = vad
        self.threshold = threshold
        self.end_threshold = max(0.01, threshold - 0.15)
        self.min_level_db = min_level_db
        self.last_probability = 0.0

    def reset(self) -> None:
        self.vad.reset()
        self.last_probability = 0.0

    def close(self) -> None:
        self.vad.close()

    def is_speech(self, frame: np.ndarray, in_utterance: bool) -> bool:
        probs = self.vad.probabilities(frame)
        if len(probs):
            self.last_probability = float(probs[-1])
        wanted = self.end_threshold if in_utterance else self.threshold
        return self.last_probability >= wanted and rms_level(frame) >= self.min_level_db
