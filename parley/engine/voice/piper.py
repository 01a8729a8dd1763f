"""Piper voices (VITS models in ONNX, with a JSON config) run with ONNX Runtime on the CPU.

A voice is checked before ONNX Runtime sees it: the config is read as untrusted JSON, its
phoneme table must map single symbols to ids within the model's symbol count, and the model
file must be a regular file of a sane size.  Phonemes come from espeak-ng (``phonemes``).
"""

from __future__ import annotations

import dataclasses
import os
import threading
from pathlib import Path
from typing import Any

import numpy as np

from ..backend import cpu_load
from ..errors import UntrustedFileError, VoiceError
from ..untrusted import is_regular_file, load_json
from .phonemes import phonemize, start_spare

MAX_MODEL_BYTES = 400 << 20  # Piper's "high" voices are about 110 MB
MAX_PIECE_CHARS = 400  # a longer sentence is spoken in pieces cut at spaces
_PAD, _BOS, _EOS = "_", "^", "$"


@dataclasses.dataclass(frozen=True)
class PiperConfig:
    sample_rate: int
    espeak_voice: str
    ids: dict[str, int]  # phoneme -> id
    scales: tuple[float, float, float]  # noise, length, noise_w

    @classmethod
    def read(cls, path: Path) -> PiperConfig:
        """The config at ``path``, checked; VoiceError says what is wrong with it."""
        try:
            raw = load_json(path)
        except UntrustedFileError as e:
            raise VoiceError(f"The voice's config cannot be read: {e}") from e
        try:
            symbols = int(raw.get("num_symbols", 256))
            rate = int(raw["audio"]["sample_rate"])
            table = raw["phoneme_id_map"]
            ids = {str(k): int(v[0]) for k, v in table.items() if isinstance(v, list) and v}
            inference = raw.get("inference", {})
            scales = (
                float(inference.get("noise_scale", 0.667)),
                float(inference.get("length_scale", 1.0)),
                float(inference.get("noise_w", 0.8)),
            )
            espeak_voice = str(raw.get("espeak", {}).get("voice", "en-us"))
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise VoiceError(f"{path}: not a Piper voice config ({e})") from e
        if not 8000 <= rate <= 48000:
            raise VoiceError(f"{path}: unusable sample rate {rate}")
        if int(raw.get("num_speakers", 1)) != 1:
            raise VoiceError(f"{path}: voices of several speakers are not supported")
        if not all(0 <= i < symbols for i in ids.values()) or not all(len(k) == 1 for k in ids):
            raise VoiceError(f"{path}: its phoneme table does not fit the model")
        if not {_PAD, _BOS, _EOS} <= ids.keys():
            raise VoiceError(f"{path}: its phoneme table lacks the pad, start or end symbol")
        if not all(0.0 <= s <= 5.0 for s in scales) or scales[1] <= 0.0:
            raise VoiceError(f"{path}: unusable inference scales {scales}")
        return cls(rate, espeak_voice, ids, scales)


VOICE_BUSY_CORE = 0.75  # others keep this much of a core busy: the voice makes its pieces on one thread


class PiperVoice:
    """A Piper voice loaded for synthesis; ``synthesize`` may be called from one thread at a time
    (a lock serialises calls).

    ``threads`` None: the voice follows the machine's load (``cpu_load``), as the models do.  ONNX
    Runtime fixes a session's threads when it is made, so there are at most two: one on all the
    cores the voice may use, made at load, and one on a single thread, made the first time other
    programs leave fewer cores free; each piece is made on the one that fits the moment."""

    def __init__(self, model: Path, config: Path, *, threads: int | None = None, speed: float = 1.0) -> None:
        self.config = PiperConfig.read(config)
        self.sample_rate = self.config.sample_rate
        if not is_regular_file(model) or not 0 < os.path.getsize(model) <= MAX_MODEL_BYTES:
            raise VoiceError(f"{model}: not a voice model file")
        if not 0.5 <= speed <= 2.0:
            raise VoiceError(f"Speaking speed {speed} is outside 0.5-2")
        self.speed = speed
        self._model = model
        self.threads = max(1, threads or min(4, os.cpu_count() or 1))
        self.governor = cpu_load.ThreadGovernor(self.threads) if not threads else None
        self._sessions = {self.threads: self._make_session(self.threads)}
        self.threads_used = self.threads  # by the last piece made
        names = {i.name for i in self._sessions[self.threads].get_inputs()}
        if names != {"input", "input_lengths", "scales"}:
            raise VoiceError(f"{model}: not a Piper voice (inputs {sorted(names)})")
        self._lock = threading.Lock()
        start_spare(self.config.espeak_voice)

    def _make_session(self, threads: int) -> Any:
        import onnxruntime

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        try:
            return onnxruntime.InferenceSession(str(self._model), options, providers=["CPUExecutionProvider"])
        except Exception as e:  # noqa: BLE001 - ONNX Runtime raises its own types for a bad model
            raise VoiceError(f"{self._model}: ONNX Runtime cannot load it: {e}") from e

    def _session(self) -> Any:
        """The session for this moment (the lock is held): all the voice's threads, or one when
        other programs keep most of a core busy.  Not at half a core: ONNX Runtime's pool makes
        a piece faster on two threads beside load that comes and goes (bench_threads: 31.9
        against 24.9 audio seconds a second), unlike llama.cpp's."""
        count = self.threads
        if self.governor is not None:
            self.governor.threads()  # looks at the load now and then
            count = self.threads if self.governor.free > self.threads - VOICE_BUSY_CORE else 1
        if count not in self._sessions:
            self._sessions[count] = self._make_session(count)
        self.threads_used = count
        return self._sessions[count]

    def ids(self, text: str) -> list[int]:
        """The model's input for ``text``: phoneme ids, each followed by the pad symbol."""
        table = self.config.ids
        pad = table[_PAD]
        out = [table[_BOS], pad]
        for n, clause in enumerate(phonemize(text, self.config.espeak_voice)):
            if n:
                out += [table[" "], pad] if " " in table else []
            for symbol in clause:
                if symbol in table:
                    out += [table[symbol], pad]
        out.append(table[_EOS])
        return out

    def synthesize(self, text: str) -> np.ndarray:
        """``text`` spoken, as mono float32 at ``sample_rate``; empty when it has nothing to say."""
        pieces = [self._piece(part) for part in _cut(text, MAX_PIECE_CHARS)]
        pieces = [p for p in pieces if len(p)]
        start_spare(self.config.espeak_voice)  # ready for the next text
        return np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.float32)

    def _piece(self, text: str) -> np.ndarray:
        ids = self.ids(text)
        if len(ids) <= 3:
            return np.zeros(0, dtype=np.float32)
        noise, length, noise_w = self.config.scales
        feed: dict[str, Any] = {
            "input": np.array([ids], dtype=np.int64),
            "input_lengths": np.array([len(ids)], dtype=np.int64),
            "scales": np.array([noise, length / self.speed, noise_w], dtype=np.float32),
        }
        with self._lock:
            try:
                audio = self._session().run(None, feed)[0]
            except Exception as e:  # noqa: BLE001 - ONNX Runtime's own error types
                raise VoiceError(f"The voice failed: {e}") from e
        samples = np.asarray(audio, dtype=np.float32).reshape(-1)
        if not np.all(np.isfinite(samples)):
            raise VoiceError("The voice produced audio that is not finite")
        peak = float(np.max(np.abs(samples))) if len(samples) else 0.0
        return samples / peak * 0.9 if peak > 0.9 else samples


def _cut(text: str, limit: int) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters, cut at spaces where possible."""
    pieces: list[str] = []
    while len(text) > limit:
        cut = text.rfind(" ", 0, limit)
        cut = cut if cut > 0 else limit
        pieces.append(text[:cut])
        text = text[cut:].lstrip()
    return [*pieces, text] if text else pieces
