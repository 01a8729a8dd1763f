"""A model wake word heard in a 16 kHz stream (pymicro-wakeword's microWakeWord runtime).

The stream is read in 10 ms features (pymicro-features' micro frontend, as on the ESP32 devices
the models were trained for); the model gives a probability every 30 ms, and the word is heard
when the mean of its last few (``WakeWord.window``) rises above the threshold (Parley's,
measured per word: ``WakeWord.threshold``).  One word is one
detection: the next needs the mean to fall below the cutoff and ``REFRACTORY_S`` to pass, so a
word said a hundred times in a row gives at most one detection a second (``Trigger``).

A score past the word's second-look floor (``WakeWord.floor``) but not its threshold is kept
too (``peak_since``): hands-free then takes the utterance only when its transcript begins with
the phrase.
The TensorFlow Lite model is made from the bytes ``words.model_bytes`` checked (never from the
file, which could change between the check and the read), and the detector owns the model and
its interpreter: ``close`` frees them.  One thread at a time uses a detector.
"""

from __future__ import annotations

import ctypes
import dataclasses
from collections import deque
from typing import Any

import numpy as np

from ..errors import WakeWordError
from ..formats import SAMPLE_RATE
from .words import WakeWord, library_path, model_bytes

FEATURE_S = 0.010  # one micro-frontend feature per 10 ms of audio...
FEATURE_WINDOW_S = 0.030  # ...each of the 30 ms up to its end
REFRACTORY_S = 1.0  # after a detection, the least time before the next
KEPT_SCORES = 2000  # the latest scores past the floor kept for ``peak_since`` (a minute of the word said)


@dataclasses.dataclass(frozen=True)
class Detection:
    seconds: float  # in the stream since it began (or the last ``reset``): where the word was heard
    word: str  # the word's id
    score: float  # the mean probability that crossed the cutoff


def check_threshold(threshold: float | None) -> None:
    """``WakeWordError`` unless ``threshold`` is None (the model's own) or strictly between 0 and
    1: at 0 everything wakes, at 1 nothing does."""
    if threshold is not None and not (isinstance(threshold, (int, float)) and 0.0 < threshold < 1.0):
        raise WakeWordError(f"A wake word threshold must be between 0 and 1 (not included), not {threshold!r}")


class Trigger:
    """The rule that turns the model's scores into detections: one when the score rises above the
    threshold, the next only once it has fallen to it or below and ``REFRACTORY_S`` has passed."""

    def __init__(self, threshold: float) -> None:
        self.threshold = threshold
        self._above = False
        self._last_at = -REFRACTORY_S

    def step(self, seconds: float, score: float) -> bool:
        """The score at ``seconds``; True when it is a detection."""
        if score <= self.threshold:
            self._above = False
            return False
        fired = not self._above and seconds - self._last_at >= REFRACTORY_S
        if fired:
            self._last_at = seconds
        self._above = True
        return fired


class WakeDetector:
    """Hears one model wake word in a stream of 16 kHz mono float32 blocks."""

    def __init__(self, word: WakeWord, threshold: float | None = None) -> None:
        check_threshold(threshold)
        if word.heard_in_transcript:
            raise WakeWordError(f"{word.phrase!r} is heard in the transcript, not by a detector")
        self.word = word
        self.threshold = threshold if threshold is not None else word.threshold
        data = model_bytes(word)
        from pymicro_wakeword import MicroWakeWordFeatures

        self._model = _load(word, data)
        self._features = MicroWakeWordFeatures()
        self._feature_count = 0
        self._samples = 0
        self._trigger = Trigger(self.threshold)
        self.floor = min(word.floor, self.threshold) if word.floor else self.threshold
        self._near: deque[tuple[float, float]] = deque(maxlen=KEPT_SCORES)  # (seconds, score) past the floor

    @property
    def seconds(self) -> float:
        """How much of the stream has been read, in seconds."""
        return self._samples / SAMPLE_RATE

    def push(self, block: np.ndarray) -> list[Detection]:
        """Read one block (16 kHz mono float32, any length); the detections in it."""
        found = []
        for now, score in self.scores(block):
            if score > self.floor:
                self._near.append((now, score))
            if self._trigger.step(now, score):
                found.append(Detection(now, self.word.id, score))
        return found

    def peak_since(self, seconds: float) -> float:
        """The highest score since ``seconds`` in the stream, if it passed the floor (else 0)."""
        return max((score for at, score in self._near if at >= seconds), default=0.0)

    def scores(self, block: np.ndarray) -> list[tuple[float, float]]:
        """Read one block; the model's score at each of its outputs in it (every ``stride``
        features, 30 ms), with its time: the mean of its last ``window`` probabilities, 0 until
        it has that many.  ``push`` uses it; a benchmark reads it to try thresholds."""
        pcm = (np.clip(np.asarray(block, dtype=np.float32), -1.0, 1.0) * 32767.0).astype("<i2").tobytes()
        self._samples += len(pcm) // 2
        out = []
        for features in self._features.process_streaming(pcm):
            self._feature_count += 1
            score = self._model.process_streaming_prob(features)
            if score is None:
                raise WakeWordError("The wake word detector was used after it was closed")
            if self._feature_count % self._model.stride == 0:  # the model ran (between runs it says 0)
                out.append(((self._feature_count - 1) * FEATURE_S + FEATURE_WINDOW_S, float(score)))
        return out

    def reset(self) -> None:
        """Forget the stream so far (the model's state too): a new stream begins at 0 s."""
        self._model.reset()
        from pymicro_wakeword import MicroWakeWordFeatures

        self._features = MicroWakeWordFeatures()
        self._feature_count = self._samples = 0
        self._trigger = Trigger(self.threshold)
        self._near.clear()

    def close(self) -> None:
        self._model.close()


def _load(word: WakeWord, data: bytes) -> Any:
    """pymicro-wakeword's model object, its TensorFlow Lite model made from ``data``."""
    from pymicro_wakeword import MicroWakeWord

    class _CheckedModel(MicroWakeWord):
        """Made from checked bytes; every native step's result checked."""

        def __init__(self) -> None:
            self._buffer = ctypes.create_string_buffer(data, len(data))  # the model reads from it while it lives
            super().__init__(
                word.id,
                wake_word=word.phrase,
                tflite_model=word.model,
                probability_cutoff=word.cutoff,
                sliding_window_size=word.window,
                trained_languages=[],
                libtensorflowlite_c_path=library_path(),
            )

        def _load_model(self) -> None:
            lib = self.lib
            lib.TfLiteModelCreate.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
            lib.TfLiteModelCreate.restype = ctypes.c_void_p
            self.model = lib.TfLiteModelCreate(ctypes.addressof(self._buffer), len(self._buffer))
            if not self.model:
                raise WakeWordError(f"The wake word model for {word.phrase!r} is not a TensorFlow Lite model")
            self.interpreter = lib.TfLiteInterpreterCreate(self.model, None)
            if not self.interpreter or lib.TfLiteInterpreterAllocateTensors(self.interpreter) != 0:
                self.close()
                raise WakeWordError(f"The wake word model for {word.phrase!r} could not be prepared")
            self.input_tensor = lib.TfLiteInterpreterGetInputTensor(self.interpreter, 0)
            self.output_tensor = lib.TfLiteInterpreterGetOutputTensor(self.interpreter, 0)
            self.stride = lib.TfLiteTensorDim(self.input_tensor, 1)
            quantized_in = lib.TfLiteTensorQuantizationParams(self.input_tensor)
            quantized_out = lib.TfLiteTensorQuantizationParams(self.output_tensor)
            self.input_scale, self.input_zero_point = quantized_in.scale, quantized_in.zero_point
            self.output_scale, self.output_zero_point = quantized_out.scale, quantized_out.zero_point
            types = {3: np.uint8, 9: np.int8}  # kTfLiteUInt8, kTfLiteInt8
            try:
                self.input_dtype = types[lib.TfLiteTensorType(self.input_tensor)]
                self.output_dtype = types[lib.TfLiteTensorType(self.output_tensor)]
            except KeyError:
                self.close()
                raise WakeWordError(f"{word.phrase!r}: not a quantized microWakeWord model") from None

    return _CheckedModel()
