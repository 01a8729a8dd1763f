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

Everything in these folders is another program's, so nothing in them is trusted: only regular
files are opened (never blocking on a FIFO, never reading a device), a manifest is read with a
bounded size and nesting, folder links are not followed, and the search reads a bounded number
of entries per folder, in all and to a bounded depth.  Whatever goes wrong is listed against
its entry (or the folder where the search stopped), never raised for the whole list.
"""

from __future__ import annotations

import dataclasses
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Literal

from ..errors import ModelFileError, UntrustedFileError
from ..formats import GGML_MAGIC
from ..modelfiles.bounded_reader import read_head
from ..modelfiles.gguf_file import check_gguf
from ..modelfiles.whisper_file import check_whisper_ggml
from ..untrusted import load_json
from .catalog import Kind

FoundKind = Kind | Literal["embedding"]  # a GGUF with a pooling is an embedding model

OLLAMA_MODEL_LAYER = "application/vnd.ollama.image.model"
MAX_DEPTH = 6  # folder levels below a root that are searched
MAX_FOLDER_ENTRIES = 10_000  # entries read from one folder
MAX_ENTRIES = 200_000  # entries read in one search, all folders together
MAX_MANIFEST_BYTES = 64 << 10  # an Ollama manifest is under a kilobyte
MAX_MANIFEST_DEPTH = 8  # and nests 3 deep
MAX_NAME_CHARS = 200  # of a name as listed
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
    name: str  # for lists: e.g. "bartowski/Llama-3.2-1B-Instruct-GGUF / x.gguf"
    source: str  # one of the SOURCE_* names, or "Downloaded by Parley"
    size: int
    kind: FoundKind | None  # None when the file is not a usable model
    problem: str | None = None  # why it cannot be used; None when usable
    detail: str = ""  # e.g. "llama, 1.2B parameters" or "whisper base, multilingual"

    @property
    def usable(self) -> bool:
        return self.problem is None


def check_model_file(path: Path) -> tuple[FoundKind | None, str | None, str]:
    """(kind, problem, detail) for a file: GGUF files are chat models (embedding models when they
    name a pooling or only encode: ``GGUFInfo.embedding``), ggml files speech models.
    Anything but a regular file (a FIFO, a device, a folder, a loop of links) is a problem."""
    try:
        if read_head(path, 4) == GGML_MAGIC:
            whisper = check_whisper_ggml(path)
            langs = "multilingual" if whisper.multilingual else "English only"
            return "speech", None, f"whisper {whisper.model_size}, {langs}, {whisper.weight_type}"
        info = check_gguf(path)
    except ModelFileError as exc:
        return None, exc.problem, ""
    params = f"{info.n_params / 1e9:.1f}B" if info.n_params >= 1e9 else f"{info.n_params / 1e6:.0f}M"
    detail = f"{info.architecture}, {params} parameters"
    if info.embedding:
        return "embedding", None, detail
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


@dataclasses.dataclass(frozen=True)
class _Candidate:
    """A file to check and list, or (``problem`` set) an entry listed with what went wrong."""

    path: Path
    name: str
    problem: str | None = None


@dataclasses.dataclass
class _Budget:
    """How many more folder entries this search may read, all folders together."""

    left: int


@dataclasses.dataclass
class _Listing:
    files: list[str]
    folders: list[str]  # real folders, not links to one
    problem: str | None = None  # why not every entry was read


def _list_folder(folder: Path, budget: _Budget) -> _Listing:
    """The entries of ``folder``, at most MAX_FOLDER_ENTRIES and what is left of ``budget``;
    hidden folders and links to folders are left out (a link loop cannot be followed)."""
    listing = _Listing([], [])
    try:
        with os.scandir(folder) as entries:
            for count, entry in enumerate(entries):
                if count == MAX_FOLDER_ENTRIES:
                    listing.problem = f"the search for models read only the first {count} entries of this folder"
                    break
                if budget.left == 0:
                    listing.problem = f"the search for models stopped here, after {MAX_ENTRIES} entries in all"
                    break
                budget.left -= 1
                if _is_real_folder(entry):
                    if not entry.name.startswith("."):
                        listing.folders.append(entry.name)
                elif not _is_folder_link(entry):
                    listing.files.append(entry.name)
    except (OSError, ValueError):  # unreadable, gone, or a NUL in the name: nothing to list
        pass
    listing.files.sort()
    listing.folders.sort()
    return listing


def _is_real_folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def _is_folder_link(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_symlink() and entry.is_dir()
    except OSError:
        return False


def _walk(root: Path, wanted: Callable[[Path], bool], budget: _Budget) -> Iterator[_Candidate]:
    """Files under ``root`` that ``wanted`` (not following folder links, skipping hidden
    folders, MAX_DEPTH levels deep), and each folder where the search stopped early.  A root
    that is missing or not a folder has nothing in it."""
    yield from _walk_folder(root, 0, wanted, budget)


def _walk_folder(folder: Path, depth: int, wanted: Callable[[Path], bool], budget: _Budget) -> Iterator[_Candidate]:
    listing = _list_folder(folder, budget)
    if listing.problem:
        yield _Candidate(folder, printable(str(folder)), listing.problem)
    for name in listing.files:
        path = folder / name
        if wanted(path):
            yield _Candidate(path, "")
    if depth < MAX_DEPTH:
        for name in listing.folders:
            yield from _walk_folder(folder / name, depth + 1, wanted, budget)


def printable(text: str, limit: int | None = MAX_NAME_CHARS) -> str:
    """A name or path from another program's folder as it can be shown in one line and written
    to any terminal: control characters and undecodable bytes become "?", and past ``limit``
    characters it is cut."""
    shown = "".join(c if c.isprintable() else "?" for c in text[:limit])
    return shown + ("..." if limit is not None and len(text) > limit else "")


def _is_gguf_name(path: Path) -> bool:
    return path.suffix.lower() == ".gguf"


def _is_user_model(path: Path) -> bool:
    if _is_gguf_name(path):
        return True
    if path.suffix.lower() != ".bin":
        return False
    try:
        return read_head(path, 4) == GGML_MAGIC
    except ModelFileError:
        return False


def _hf_files(cache: Path, budget: _Budget) -> Iterator[_Candidate]:
    listing = _list_folder(cache, budget)
    if listing.problem:
        yield _Candidate(cache, printable(str(cache)), listing.problem)

    def wanted(path: Path) -> bool:
        return _is_gguf_name(path) or (path.name.startswith("ggml-") and path.suffix == ".bin")

    for repo_name in listing.folders:
        if not repo_name.startswith("models--"):
            continue
        repo = repo_name[len("models--") :].replace("--", "/")
        snapshots = cache / repo_name / "snapshots"
        for found in _walk(snapshots, wanted, budget):
            relative = found.path.relative_to(snapshots).parts[1:]
            yield _named(found, f"{repo} / {'/'.join(relative)}")


def _ollama_files(root: Path, budget: _Budget) -> Iterator[_Candidate]:
    manifests = root / "manifests"
    for manifest in _walk(manifests, lambda p: True, budget):
        if manifest.problem:
            yield manifest
            continue
        parts = manifest.path.relative_to(manifests).parts
        if len(parts) != 4:
            continue
        registry, namespace, model, tag = parts
        prefix = "" if namespace == "library" else f"{namespace}/"
        host = "" if registry == "registry.ollama.ai" else f"{registry}/"
        name = printable(f"{host}{prefix}{model}:{tag}")
        try:
            blobs = _ollama_model_blobs(manifest.path)
        except UntrustedFileError as exc:
            yield _Candidate(manifest.path, name, f"its Ollama manifest cannot be used: {_reason(exc, manifest.path)}")
            continue
        for digest in blobs:
            yield _Candidate(root / "blobs" / f"sha256-{digest}", name)


def _ollama_model_blobs(manifest: Path) -> list[str]:
    """The digests of the model layers an Ollama manifest names (a regular file of at most
    MAX_MANIFEST_BYTES); UntrustedFileError when it cannot be read."""
    document = load_json(manifest, max_bytes=MAX_MANIFEST_BYTES, max_depth=MAX_MANIFEST_DEPTH)
    layers = document.get("layers", []) if isinstance(document, dict) else []
    digests = []
    for layer in layers if isinstance(layers, list) else []:
        if not isinstance(layer, dict) or layer.get("mediaType") != OLLAMA_MODEL_LAYER:
            continue
        digest = layer.get("digest")
        match = _OLLAMA_DIGEST.fullmatch(digest) if isinstance(digest, str) else None
        if match is not None:
            digests.append(match.group(1))
    return digests


def _reason(error: UntrustedFileError, path: Path) -> str:
    return str(error).removeprefix(f"{path}: ")


def _candidates(
    extra_folders: Sequence[str | Path], environ: Mapping[str, str], home: Path
) -> Iterator[tuple[_Candidate, str]]:
    """(candidate, source) for every candidate file, in the order they are listed."""
    budget = _Budget(MAX_ENTRIES)
    for found in _hf_files(hf_cache_dir(environ, home), budget):
        yield found, SOURCE_HF
    for root in (home / ".lmstudio" / "models", home / ".cache" / "lm-studio" / "models"):
        for found in _walk(root, _is_gguf_name, budget):
            yield _named(found, "/".join(found.path.relative_to(root).parts)), SOURCE_LMSTUDIO
    for root in _gpt4all_dirs(environ, home):
        for found in _walk(root, _is_gguf_name, budget):
            yield _named(found, found.path.name), SOURCE_GPT4ALL
    ollama_roots = [Path(environ["OLLAMA_MODELS"])] if environ.get("OLLAMA_MODELS") else [home / ".ollama" / "models"]
    for root in ollama_roots:
        for found in _ollama_files(root, budget):
            yield found, SOURCE_OLLAMA
    for folder in extra_folders:
        user_root = _user_folder(folder)
        if user_root is None:
            continue
        for found in _walk(user_root, _is_user_model, budget):
            yield _named(found, str(found.path.relative_to(user_root))), SOURCE_FOLDER


def _user_folder(folder: str | Path) -> Path | None:
    """A folder the user added, ``~`` expanded; None for an empty one (not the current folder)
    or a ``~user`` that names nobody."""
    if not str(folder).strip():
        return None
    try:
        return Path(folder).expanduser()
    except RuntimeError:
        return None


def _named(found: _Candidate, name: str) -> _Candidate:
    """A file found with its name for the list (a folder where the search stopped keeps its own)."""
    return found if found.problem else dataclasses.replace(found, name=printable(name))


def find_models(
    extra_folders: Iterable[str | Path] = (), *, environ: Mapping[str, str] | None = None, home: Path | None = None
) -> list[FoundModel]:
    """Every model file in the known places and ``extra_folders``, each checked, each listed once.
    A file or folder that cannot be read is listed with the reason; this never raises for one."""
    env = os.environ if environ is None else environ
    seen: set[Path] = set()
    found: list[FoundModel] = []
    for candidate, source in _candidates(list(extra_folders), env, home or Path.home()):
        path = candidate.path
        real = real_path(path)
        if real in seen:
            continue
        seen.add(real)
        if candidate.problem:
            found.append(FoundModel(path, candidate.name, source, 0, None, candidate.problem))
            continue
        kind, problem, detail = check_model_file(path)
        found.append(FoundModel(path, candidate.name, source, _size(path), kind, problem, detail))
    return found


def real_path(path: Path) -> Path:
    """``path`` with its links resolved as far as they go; never raises (``Path.resolve``
    raises RuntimeError for a loop of links before Python 3.13)."""
    try:
        return Path(os.path.realpath(path))
    except (OSError, ValueError):
        return path


def _size(path: Path) -> int:
    try:
        return os.stat(path).st_size
    except (OSError, ValueError):
        return 0
