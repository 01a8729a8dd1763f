"""Parley's natural voice as a source of test speech: the same text gives the same clip.

The Piper voice draws random noise for each synthesis (its noise scales), so the same sentence
sounds a little different every time and whisper may hear it differently; with the two noise
scales at 0 it speaks the same samples each time, and a test or a benchmark that uses it can be
run again with the same outcome.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np
import soundfile
import soxr

RATE = 16_000


def steady(voice: Any) -> Any:
    """``voice`` (a ``PiperVoice``) without its random variation."""
    voice.config = dataclasses.replace(voice.config, scales=(0.0, voice.config.scales[1], 0.0))
    return voice


def steady_voice(threads: int = 2) -> Any:
    from parley.engine.voice.voices import load_voice

    return steady(load_voice(threads=threads))


def speak(voice: Any, text: str, path: Path) -> Path:
    """``text`` said by ``voice``, written to ``path`` as 16 kHz mono."""
    audio = soxr.resample(voice.synthesize(text), voice.sample_rate, RATE).astype(np.float32)
    soundfile.write(path, audio, RATE)
    return path
