"""Knowing when the user is done: judges that ``vad.UtteranceSegmenter`` asks after a short
pause whether the speaker has finished (``vad.TurnJudge``).

A fixed pause ends a turn too early when someone stops to think mid-sentence ("book a table
for ... four people") and too late when a question is plainly finished.  Smart Turn v3
(pipecat's audio turn-end model, BSD-2-Clause, a Whisper-tiny encoder with a classifier, 8.7 MB
of int8 ONNX) listens to the last 8 seconds of an utterance, intonation and words alike, and
gives the probability that the speaker has finished.  ``UtteranceSegmenter`` asks it after a
short pause (``SmartTurn.quick_seconds``); a turn it hears as finished ends there, one it hears
as unfinished waits for the long pause (``SmartTurn.longest_seconds``) unless speech resumes.
``bench/bench_turns.py`` measures it against the fixed pause.

The weights come from the ``pipecat-ai`` wheel on PyPI (pinned with its hash in
``requirements-starters.txt``); only its .onnx file is read, never its code.  The file is
another program's, so its SHA-256 must be the one pinned here before ONNX Runtime sees it.

The bench also measured an adaptive pause without a new model (the words of the utterance so
far, transcribed by whisper); Smart Turn did better (``docs/measurements.md``, "End of turn").
"""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path

import numpy as np

from ..errors import ModelClosedError, ModelFileError, UntrustedFileError
from ..formats import SAMPLE_RATE
from ..untrusted import read_bytes
from .mel import mel_filters

MODEL_SHA256 = "2bb026316b14a660486a75b1733cd3fbab8c2fd0314dc9af7be49f8cca967e4f"
"""smart-turn-v3.2-cpu.onnx as shipped in pipecat-ai 1.14.0."""
MODEL_BYTES = 8_679_182
WINDOW_SECONDS = 8  # the model hears the last 8 s, zero-padded in front when shorter
_N_FFT = 400
_HOP = 160
_FILTERS = mel_filters(80, _N_FFT).astype(np.float64)
_HANN = np.hanning(_N_FFT + 1)[:-1]  # periodic, as torch.hann_window


def log_mel(audio: np.ndarray) -> np.ndarray:
    """Whisper's log-mel features (80 x 800, float32) of the last ``WINDOW_SECONDS`` of 16 kHz
    ``audio``, the way the model was trained (transformers' ``WhisperFeatureExtractor`` with
    ``chunk_length=8`` and ``do_normalize=True``): the waveform scaled to zero mean and unit
    variance, a centred reflect-padded STFT, log10 of the mel power floored at 8 below its peak."""
    n = WINDOW_SECONDS * SAMPLE_RATE
    x = np.asarray(audio, dtype=np.float32).ravel()[-n:]
    x = np.pad(x, (n - len(x), 0))
    x = (x - x.mean()) / np.sqrt(x.var() + 1e-7)
    padded = np.pad(x.astype(np.float64), _N_FFT // 2, mode="reflect")
    frames = np.lib.stride_tricks.sliding_window_view(padded, _N_FFT)[::_HOP]
    power = np.abs(np.fft.rfft(frames * _HANN, axis=-1)) ** 2
    spec = np.log10(np.maximum(1e-10, _FILTERS @ power.T))[:, :-1]
    spec = np.maximum(spec, spec.max() - 8.0)
    features: np.ndarray = ((spec + 4.0) / 4.0).astype(np.float32)
    return features


def check_turn_file(path: Path) -> bytes:
    """The model file's bytes, once they are exactly the pinned file (size and SHA-256)."""
    try:
        data = read_bytes(path, MODEL_BYTES)
    except UntrustedFileError as exc:
        raise ModelFileError(path, f"the turn-end model cannot be read: {str(exc).removeprefix(f'{path}: ')}") from None
    if len(data) != MODEL_BYTES or hashlib.sha256(data).hexdigest() != MODEL_SHA256:
        raise ModelFileError(path, "this is not Smart Turn v3.2 as pinned (its size or SHA-256 differs)")
    return data


class SmartTurn:
    """Smart Turn v3 on ONNX Runtime (CPU): ``finished(utterance)`` says whether the speaker is
    done.  Made and used on one thread (the hands-free listener's)."""

    name = "smart-turn"

    def __init__(
        self,
        path: str | Path,
        *,
        threshold: float = 0.5,
        quick_seconds: float = 0.1,
        longest_seconds: float = 2.0,
        threads: int = 1,
    ) -> None:
        import onnxruntime

        self.path = Path(path)
        self.threshold = threshold
        self.quick_seconds = quick_seconds
        self.longest_seconds = longest_seconds
        self.last_probability = 0.0
        self._lock = threading.Lock()
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
        self._session: onnxruntime.InferenceSession | None = onnxruntime.InferenceSession(
            check_turn_file(self.path), sess_options=options, providers=["CPUExecutionProvider"]
        )

    def probability(self, utterance: np.ndarray) -> float:
        """The probability (0..1) that the speaker of 16 kHz ``utterance`` has finished."""
        features = log_mel(np.nan_to_num(utterance, nan=0.0, posinf=1.0, neginf=-1.0))[None]
        with self._lock:
            if self._session is None:
                raise ModelClosedError("the turn-end model is closed")
            out = self._session.run(None, {"input_features": features})[0]
        return float(np.clip(np.asarray(out, dtype=np.float64).ravel()[0], 0.0, 1.0))

    def finished(self, utterance: np.ndarray) -> bool:
        self.last_probability = self.probability(utterance)
        return self.last_probability >= self.threshold

    def close(self) -> None:
        with self._lock:
            self._session = None
