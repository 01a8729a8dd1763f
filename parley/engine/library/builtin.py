"""The models Parley starts with: the starters, installed from PyPI with Parley (pinned and
hash-checked, ``parley models install starters``), and what each is not good at; and the offline
chat model packs that are installed (``parley models install PACK``).

They run offline from the first start.  ``builtin_models()`` lists each one with the file it is
read from (``None`` when its package is not installed here), so ``parley models`` and the
first-start page can say what runs now and what is missing.  The packages are located with
``importlib.util.find_spec`` and never imported (see ``modelfiles.defaults``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

from ..errors import ModelFileError
from ..modelfiles import defaults
from ..voice.voices import KNOWN_VOICES

SOURCE_BUILTIN = "Built in"


@dataclasses.dataclass(frozen=True)
class BuiltinModel:
    name: str
    kind: str  # "chat", "speech", "voice activity", "turn end" or "voice"
    role: str  # what Parley uses it for
    path: Path | None  # the file it is read from; None when not installed here
    size: int  # bytes of that file (0 when not installed)
    limits: str  # what it is not good at ("" when nothing worth saying)
    install: str  # the command that installs it
    usable_unjoined: bool = False  # a model pack whose parts are installed, joined on first use (no path yet)

    @property
    def installed(self) -> bool:
        return self.path is not None or self.usable_unjoined


def _file(find: Callable[[], Path]) -> Path | None:
    """The file ``find`` names, or None when its package is not installed or the file is missing."""
    try:
        path = find()
    except ModelFileError:
        return None
    return path if path.is_file() else None


def _sized(path: Path | None) -> int:
    return path.stat().st_size if path is not None else 0


def builtin_models() -> list[BuiltinModel]:
    """The starters (installed or not), then the optional multilingual Whisper base if installed."""
    chat = _file(defaults.default_chat_model_path)
    speech_source = _file(lambda: defaults.default_speech_source() / "model.bin")
    vad = _file(defaults.default_vad_source)
    turn = _file(defaults.default_turn_model_path)
    voice_paths = KNOWN_VOICES[0].paths()
    voice = voice_paths[0] if voice_paths else None
    starters = "parley models install starters"
    models = [
        BuiltinModel(
            "SmolLM2 135M Instruct",
            "chat",
            "the starter chat model",
            chat,
            _sized(chat),
            "tiny: fine for small talk, often wrong on facts, arithmetic and translation",
            starters,
        ),
        BuiltinModel(
            "Whisper tiny.en",
            "speech",
            "the starter speech model",
            speech_source,
            _sized(speech_source),
            "English only; rough with accents, noise and names",
            starters,
        ),
        BuiltinModel(
            "Silero VAD 6.2.3",
            "voice activity",
            "tells speech from noise in hands-free",
            vad,
            _sized(vad),
            "",
            starters,
        ),
        BuiltinModel(
            "Smart Turn v3.2",
            "turn end",
            "hears when you have finished speaking in hands-free",
            turn,
            _sized(turn),
            "heard a silent pause mid-sentence as the end about half the time (measured on synthetic speech)",
            starters,
        ),
        BuiltinModel("Piper Joe (US English)", "voice", "reads replies aloud", voice, _sized(voice), "", starters),
    ]
    try:
        sources = defaults.base_speech_sources()
    except ModelFileError:
        sources = []
    parts = [source / f"model.bin.part{n}" for n, source in enumerate(sources, 1)]
    if parts and all(part.is_file() for part in parts):
        models.append(
            BuiltinModel(
                "Whisper base (multilingual)",
                "speech",
                "speech in 99 languages (Settings > Models)",
                parts[0],
                sum(_sized(part) for part in parts),
                "slower than tiny.en; rough with accents and noise",
                "parley models install multilingual",
            )
        )
    return models + _packs()


def _packs() -> list[BuiltinModel]:
    """The offline chat model packs that are installed, whole or in part (``packs.py``)."""
    from .packs import pack_state, packs

    found = []
    for pack in packs():
        state = pack_state(pack)
        if state.status == "absent":
            continue
        found.append(
            BuiltinModel(
                f"{pack.name} ({pack.quantisation})",
                "chat",
                "an offline model pack" + ("" if state.status == "ready" else ", joined and checked on first use"),
                state.path if state.status == "ready" else None,
                pack.size if state.usable else 0,
                pack.note if state.usable else (state.problem or "incomplete"),
                f"parley models install {pack.id}",
                usable_unjoined=state.status == "joinable",
            )
        )
    return found
