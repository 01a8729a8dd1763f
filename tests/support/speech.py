"""Real speech for tests, synthesized offline with espeak-ng, and a way to find it again.

espeak-ng always writes 22.05 kHz 16-bit mono WAV; ``synthesize`` resamples that with soxr
(band-limited, the same library the engine uses) and writes the result with soundfile, so the
output format follows the file suffix (``.wav``, ``.flac``, ``.ogg``, ...).
``natural_speech`` speaks with Parley's natural voice (Piper), as the wake word models were
trained on Piper voices, which espeak-ng's "Hey Jarvis" does not sound like to them.
``correlation_peak`` says how well a clip is contained in a recording of it.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import soundfile
import soxr

ESPEAK = "espeak-ng"


@functools.cache
def espeak_available() -> bool:
    """True when espeak-ng is installed and runs."""
    if shutil.which(ESPEAK) is None:
        return False
    probe = subprocess.run([ESPEAK, "--version"], capture_output=True, check=False)
    return probe.returncode == 0


def synthesize(
    text: str,
    path: Path,
    *,
    voice: str = "en-us",
    rate_wpm: int = 160,
    sample_rate: int = 16000,
) -> Path:
    """Speak ``text`` into the audio file ``path`` at ``sample_rate`` (mono) and return ``path``.

    The text goes through stdin, so text starting with "-" is spoken, not parsed as an option.
    Raises ``RuntimeError`` with espeak-ng's message if it fails.
    """
    path = Path(path)
    with tempfile.TemporaryDirectory(prefix="parley-espeak-") as tmp:
        raw = Path(tmp) / "espeak.wav"
        result = subprocess.run(
            [ESPEAK, "-v", voice, "-s", str(rate_wpm), "-w", str(raw), "--stdin"],
            input=text.encode(),
            capture_output=True,
            check=False,
        )
        if result.returncode != 0 or not raw.is_file() or raw.stat().st_size <= 44:
            raise RuntimeError(f"espeak-ng failed (exit {result.returncode}): {result.stderr.decode().strip()}")
        samples, rate = soundfile.read(raw, dtype="float32")
    if rate != sample_rate:
        samples = soxr.resample(samples, rate, sample_rate, quality="HQ")
    soundfile.write(path, samples, sample_rate)
    return path


@functools.cache
def _natural_voice() -> Any:
    from parley.engine.voice.voices import load_voice

    return load_voice(threads=1)


def natural_speech(text: str, *, pad_s: float = 0.5) -> np.ndarray:
    """``text`` in Parley's natural voice, 16 kHz mono float32, with ``pad_s`` of silence around it."""
    voice = _natural_voice()
    speech = soxr.resample(np.asarray(voice.synthesize(text), dtype=np.float32), voice.sample_rate, 16000)
    silence = np.zeros(int(pad_s * 16000), dtype=np.float32)
    return np.concatenate([silence, speech.astype(np.float32), silence])


def correlation_peak(recording: np.ndarray, clip: np.ndarray) -> float:
    """The highest normalized cross-correlation (-1..1) between ``clip`` and any window of
    ``recording`` of the same length, i.e. how exactly the recording contains the clip at
    some delay, whatever its gain.  Both at the same sample rate; 0.0 if the recording is
    shorter than the clip.  Computed with FFTs, so seconds of audio take milliseconds.
    """
    x = np.asarray(recording, dtype=np.float64)
    c = np.asarray(clip, dtype=np.float64)
    if len(x) < len(c) or len(c) == 0:
        return 0.0
    n = len(x) + len(c)
    spectrum = np.fft.rfft(x, n) * np.conj(np.fft.rfft(c, n))
    products = np.fft.irfft(spectrum, n)[: len(x) - len(c) + 1]
    energy = np.concatenate(([0.0], np.cumsum(x * x)))
    window_energy = energy[len(c) :] - energy[: len(x) - len(c) + 1]
    # Windows of (near) digital silence would divide rounding noise by rounding noise.
    audible = window_energy > 1e-6 * max(float(window_energy.max()), 1e-30)
    norms = np.sqrt(window_energy[audible]) * np.linalg.norm(c)
    if not audible.any() or norms.max() == 0.0:
        return 0.0
    return float(np.max(products[audible] / norms))


SENTENCES = ("Turn on the kitchen light.", "What time is it in Tokyo?", "Thank you very much.")


def room_noise(seconds: float, level_db: float = -60.0, seed: int = 0) -> np.ndarray:
    """White noise at ``level_db`` dBFS RMS: a quiet room on a decent microphone is -60 to -50."""
    rng = np.random.default_rng(seed)
    return rng.normal(0, 10 ** (level_db / 20), int(seconds * 16000)).astype(np.float32)
