"""Model files already on this computer (sideloading): other tools' folders and the user's own.

Parley never copies these files; it lists where they are and uses them in place.  Every file is
validated with the same checks the engines use before native code opens a model
(``check_gguf`` / ``check_whisper_ggml``, headers only), so the list says which files are usable
and why the others are not.

Places looked at:
* the Hugging Face cache (``$HF_HUB_CACHE``, ``$HF_HOME/hub``, ``~/.cache/huggingface/hub``):
  ``models--*/snapshots/*/…`` GGUF files and whisper.cpp ``ggml-*.bin`` files;
* LM Studio: ``~/.lmstudio/models`` and ``~/.cache/lm-studio/models``;
* GPT4All: its data folder (Linux ``~/.local/share/nomic.ai/GPT4All``, macOS
  ``~/Library/Application Support/nomic.ai/GPT4All``, Windows ``%LOCALAPPDATA%\\nomic.ai\\GPT4All``);
* Ollama: ``$OLLAMA_MODELS`` or ``~/.ollama/models``: each manifest
  ``manifests/<registry>/<namespace>/<model>/<tag>`` names the blob of its model layer
  (media type ``application/vnd.ollama.image.model``), ``blobs/sha256-<hex>``, a GGUF file;
* folders the user added (GGUF files, and ``.bin`` files that start with the ggml magic).
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path

from ..errors import ModelFileError
from ..formats import GGML_MAGIC
from ..gguf_file import check_gguf
from ..whisper_file import check_whisper_ggml
from .catalog import Kind

OLLAMA_MODEL_LAYER = "application/vnd.ollama.image.model"
MAX_DEPTH = 6                    # folder levels below a root that are searched
_OLLAMA_DIGEST = re.compile(r"sha256[:-]([0-9a-f]{64})")

SOURCE_HF = "Hugging Face cache"
SOURCE_LMSTUDIO = "LM Studio"
SOURCE_GPT4ALL = "GPT4All"
SOURCE_OLLAMA = "Ollama"
SOURCE_FOLDER = "Your folder"


@dataclasses.dataclass(frozen=True)
class FoundModel:
    """A model file on disk and what the checks made of it."""

    path: Path
    name: str                   # for lists: e.g. "bartowski/Llama-3.2-1B-Instruct-GGUF / x.gguf"
    source: str                 # one of the SOURCE_* names, or "Downloaded by Parley"
    size: int
    kind: Kind | None           # None when the file is not a usable model
    problem: str | None = None  # why it cannot be used; None when usable
    detail: str = ""            # e.g. "llama, 1.2B parameters" or "whisper base, multilingual"

    @property
    def usable(self) -> bool:
        return self.problem is None


def check_model_file(path: Path) -> tuple[Kind | None, str | None, str]:
    """(kind, problem, detail) for a file: GGUF files are chat models, ggml files speech models."""
    try:
        with path.open("rb") as fh:
            magic = fh.read(4)
    except OSError as exc:
        return None, f"cannot be read: {exc.strerror or exc}", ""
    try:
        if magic == GGML_MAGIC:
            whisper = check_whisper_ggml(path)
            langs = "multilingual" if whisper.multilingual else "English only"
            return "speech", None, f"whisper {whisper.model_size}, {langs}, {whisper.weight_type}"
        info = check_gguf(path)
    except ModelFileError as exc:
        return None, exc.problem, ""
    params = f"{info.n_params / 1e9:.1f}B" if info.n_params >= 1e9 else f"{info.n_params / 1e6:.0f}M"
    detail = f"{info.architecture}, {params} parameters"
    if info.chat_template is None:
        detail += ", no chat template"
    return "chat", None, detail


def hf_cache_dir(environ: Mapping[str, str] | None = None, home: Path | None = None) -> Path:
    """The Hugging Face hub cache, resolved the way huggingface_hub does, from the environment now."""
    env = os.environ if environ is None else environ
    home = home or Path.home()
    for key in ("HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE"):
        if env.get(key):
            return Path(env[key]).expanduser()
    if env.get("HF_HOME"):
        return Path(env["HF_HOME"]).expanduser() / "hub"
    cache = Path(env["XDG_CACHE_HOME"]) if env.get("XDG_CACHE_HOME") else home / ".cache"
    return cache / "huggingface" / "hub"


def _gpt4all_dirs(environ: Mapping[str, str], home: Path) -> list[Path]:
    if sys.platform == "darwin":
        return [home / "Library" / "Application Support" / "nomic.ai" / "GPT4All"]
    if os.name == "nt":
        local = environ.get("LOCALAPPDATA")
        return [Path(local) / "nomic.ai" / "GPT4All"] if local else []
    data = Path(environ["XDG_DATA_HOME"]) if environ.get("XDG_DATA_HOME") else home / ".local" / "share"
    return [data / "nomic.ai" / "GPT4All"]


def _walk(root: Path, wanted: Callable[[Path], bool]) -> Iterator[Path]:
    """Files under ``root`` (not following folder links, skipping hidden folders) that ``wanted``."""
    if not root.is_dir():
        return
    base_depth = len(root.parts)
    for folder, dirs, files in os.walk(root, followlinks=False):
        here = Path(folder)
        if len(here.parts) - base_depth >= MAX_DEPTH:
            dirs[:] = []
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            path = here / name
            if wanted(path):
                yield path


def _is_gguf_name(path: Path) -> bool:
    return path.suffix.lower() == ".gguf"


def _is_user_model(path: Path) -> bool:
    if _is_gguf_name(path):
        return True
    if path.suffix.lower() != ".bin":
        return False
    try:
        with path.open("rb") as fh:
            return fh.read(4) == GGML_MAGIC
    except OSError:
        return False


def _hf_files(cache: Path) -> Iterator[tuple[Path, str]]:
    if not cache.is_dir():
        return
    for repo_dir in sorted(cache.glob("models--*")):
        repo = repo_dir.name[len("models--"):].replace("--", "/")
        snapshots = repo_dir / "snapshots"

        def wanted(path: Path) -> bool:
            return _is_gguf_name(path) or (path.name.startswith("ggml-") and path.suffix == ".bin")

        for path in _walk(snapshots, wanted):
            relative = path.relative_to(snapshots).parts[1:]
            yield path, f"{repo} / {'/'.join(relative)}"


def _ollama_files(root: Path) -> Iterator[tuple[Path, str]]:
    manifests = root / "manifests"
    if not manifests.is_dir():
        return
    for manifest in _walk(manifests, lambda p: True):
        parts = manifest.relative_to(manifests).parts
        if len(parts) != 4:
            continue
        registry, namespace, model, tag = parts
        try:
            layers = json.loads(manifest.read_text("utf-8")).get("layers", [])
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, AttributeError):
            continue
        for layer in layers if isinstance(layers, list) else []:
            if not isinstance(layer, dict) or layer.get("mediaType") != OLLAMA_MODEL_LAYER:
                continue
            match = _OLLAMA_DIGEST.fullmatch(str(layer.get("digest", "")))
            if match is None:
                continue
            prefix = "" if namespace == "library" else f"{namespace}/"
            host = "" if registry == "registry.ollama.ai" else f"{registry}/"
            yield root / "blobs" / f"sha256-{match.group(1)}", f"{host}{prefix}{model}:{tag}"


def _candidates(extra_folders: Sequence[str | Path], environ: Mapping[str, str],
                home: Path) -> Iterator[tuple[Path, str, str]]:
    """(path, display name, source) for every candidate file, in the order they are listed."""
    for path, name in _hf_files(hf_cache_dir(environ, home)):
        yield path, name, SOURCE_HF
    for root in (home / ".lmstudio" / "models", home / ".cache" / "lm-studio" / "models"):
        for path in _walk(root, _is_gguf_name):
            yield path, "/".join(path.relative_to(root).parts), SOURCE_LMSTUDIO
    for root in _gpt4all_dirs(environ, home):
        for path in _walk(root, _is_gguf_name):
            yield path, path.name, SOURCE_GPT4ALL
    ollama_roots = [Path(environ["OLLAMA_MODELS"])] if environ.get("OLLAMA_MODELS") else \
        [home / ".ollama" / "models"]
    for root in ollama_roots:
        for path, name in _ollama_files(root):
            yield path, name, SOURCE_OLLAMA
    for folder in extra_folders:
        root = Path(folder).expanduser()
        for path in _walk(root, _is_user_model):
            yield path, str(path.relative_to(root)), SOURCE_FOLDER


def find_models(extra_folders: Iterable[str | Path] = (), *, environ: Mapping[str, str] | None = None,
                home: Path | None = None) -> list[FoundModel]:
    """Every model file in the known places and ``extra_folders``, each checked, each listed once."""
    env = os.environ if environ is None else environ
    seen: set[Path] = set()
    found: list[FoundModel] = []
    for path, name, source in _candidates(list(extra_folders), env, home or Path.home()):
        try:
            real = path.resolve()
        except OSError:
            real = path
        if real in seen:
            continue
        seen.add(real)
        if not real.is_file():
            found.append(FoundModel(path, name, source, 0, None, "the file is missing (a broken link)"))
            continue
        kind, problem, detail = check_model_file(path)
        found.append(FoundModel(path, name, source, real.stat().st_size, kind, problem, detail))
    return found
