"""Sideloading: real folder layouts of other tools in a temporary HOME, holding real model files.

The Hugging Face cache (blobs, snapshot links, refs), LM Studio's two folders, GPT4All's data
folder, Ollama's manifests and blobs, and a folder of the user's; real tiny GGUF chat models and
a real whisper.cpp file, plus broken files that must be listed with the reason.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from parley.engine import library
from parley.engine.library import local_models
from parley.engine.modelfiles.whisper_convert import convert_ct2_whisper
from tests.support.ct2_fixtures import write_ct2_whisper
from tests.support.tinymodels import write_tiny_llama_gguf


@pytest.fixture(scope="module")
def gguf_bytes(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    path = tmp_path_factory.mktemp("gguf") / "m.gguf"
    write_tiny_llama_gguf(path, n_vocab=1000, n_embd=32)
    return path.read_bytes()


@pytest.fixture(scope="module")
def whisper_bytes(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    folder = tmp_path_factory.mktemp("whisper")
    convert_ct2_whisper(write_ct2_whisper(folder / "ct2", size="tiny")["source"], folder / "ggml.bin")
    return (folder / "ggml.bin").read_bytes()


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("PARLEY_DATA_DIR", str(tmp_path / "data"))
    for key in (
        "HF_HOME",
        "HF_HUB_CACHE",
        "HUGGINGFACE_HUB_CACHE",
        "XDG_CACHE_HOME",
        "XDG_DATA_HOME",
        "OLLAMA_MODELS",
        "PARLEY_MODEL_CATALOG",
    ):
        monkeypatch.delenv(key, raising=False)
    return home


def put(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def hf_cache_file(cache: Path, repo: str, filename: str, data: bytes) -> Path:
    """Lay a file out as huggingface_hub does: blob by SHA-256, snapshot link, refs/main."""
    storage = cache / ("models--" + repo.replace("/", "--"))
    sha = hashlib.sha256(data).hexdigest()
    commit = hashlib.sha1(repo.encode()).hexdigest()
    put(storage / "blobs" / sha, data)
    link = storage / "snapshots" / commit / filename
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(Path("..") / ".." / "blobs" / sha)
    put(storage / "refs" / "main", commit.encode())
    return link


def ollama_model(
    root: Path, name: str, data: bytes, *, namespace: str = "library", tag: str = "latest", with_blob: bool = True
) -> Path:
    sha = hashlib.sha256(data).hexdigest()
    blob = root / "blobs" / f"sha256-{sha}"
    if with_blob:
        put(blob, data)
    params = put(root / "blobs" / "sha256-params", b'{"temperature": 0.7}')
    manifest = {
        "schemaVersion": 2,
        "mediaType": "application/vnd.docker.distribution.manifest.v2+json",
        "config": {"mediaType": "application/vnd.docker.container.image.v1+json", "digest": "sha256:" + "c" * 64},
        "layers": [
            {"mediaType": "application/vnd.ollama.image.model", "digest": f"sha256:{sha}", "size": len(data)},
            {
                "mediaType": "application/vnd.ollama.image.params",
                "digest": "sha256:" + "d" * 64,
                "size": params.stat().st_size,
            },
        ],
    }
    put(root / "manifests" / "registry.ollama.ai" / namespace / name / tag, json.dumps(manifest).encode())
    return blob


def test_models_of_every_tool_are_found_in_place_and_checked(
    home: Path, gguf_bytes: bytes, whisper_bytes: bytes, tmp_path: Path
) -> None:
    cache = home / ".cache" / "huggingface" / "hub"
    hf_chat = hf_cache_file(cache, "someone/Tiny-GGUF", "tiny-Q8_0.gguf", gguf_bytes)
    hf_speech = hf_cache_file(cache, "ggerganov/whisper.cpp", "ggml-tiny-test.bin", whisper_bytes)
    put(cache / "models--someone--Tiny-GGUF" / "snapshots" / "x" / "README.md", b"# not a model")
    lms = put(home / ".lmstudio" / "models" / "lmstudio-community" / "Tiny-GGUF" / "tiny.gguf", gguf_bytes)
    lms_old = put(home / ".cache" / "lm-studio" / "models" / "old" / "Tiny" / "old.gguf", gguf_bytes[:-1] + b"\1")
    broken = put(home / ".lmstudio" / "models" / "x" / "y" / "cut.gguf", gguf_bytes[: len(gguf_bytes) // 2])
    gpt4all = put(home / ".local" / "share" / "nomic.ai" / "GPT4All" / "gpt4all-tiny.gguf", gguf_bytes + b"")
    ollama = ollama_model(home / ".ollama" / "models", "tiny", gguf_bytes + b"\0" * 32)
    ollama_user = ollama_model(home / ".ollama" / "models", "tiny2", gguf_bytes + b"\0" * 64, namespace="me", tag="q8")
    ollama_lost = ollama_model(home / ".ollama" / "models", "gone", b"lost", with_blob=False)
    mine = tmp_path / "my models"
    own_chat = put(mine / "sub" / "chat.gguf", gguf_bytes + b"\0" * 96)
    own_speech = put(mine / "ggml-mine.bin", whisper_bytes)
    put(mine / "weights.bin", b"PK\3\4 not a ggml file")  # ignored: not a ggml .bin
    junk = put(mine / "junk.gguf", os.urandom(2000))
    before = {p: p.stat().st_mtime_ns for p in home.rglob("*") if p.is_file()}

    # The LM Studio folder added by the user as well: each file is listed once.
    models = library.list_models([str(mine), str(home / ".lmstudio" / "models")])
    by_path = {m.path: m for m in models}
    assert len(by_path) == len(models)

    expect = {
        hf_chat: ("Hugging Face cache", "chat", "someone/Tiny-GGUF / tiny-Q8_0.gguf"),
        hf_speech: ("Hugging Face cache", "speech", "ggerganov/whisper.cpp / ggml-tiny-test.bin"),
        lms: ("LM Studio", "chat", "lmstudio-community/Tiny-GGUF/tiny.gguf"),
        gpt4all: ("GPT4All", "chat", "gpt4all-tiny.gguf"),
        ollama: ("Ollama", "chat", "tiny:latest"),
        ollama_user: ("Ollama", "chat", "me/tiny2:q8"),
        own_chat: ("Your folder", "chat", "sub/chat.gguf"),
        own_speech: ("Your folder", "speech", "ggml-mine.bin"),
    }
    for path, (source, kind, name) in expect.items():
        model = by_path[path]
        assert (model.source, model.kind, model.name, model.usable) == (source, kind, name, True), model
        assert model.size == path.resolve().stat().st_size
    assert by_path[hf_speech].detail == "whisper tiny, English only, f16"
    assert by_path[hf_chat].detail.startswith("llama, ")

    for path, reason in (
        (broken, "truncated"),
        (junk, "not a GGUF model file"),
        (ollama_lost, "does not exist"),
        (lms_old, None),
    ):
        model = by_path[path]
        if reason is None:  # one changed byte in the tensor data: headers are still valid
            assert model.usable
            continue
        assert not model.usable and model.kind is None and reason in model.problem, model
    assert len(models) == len(expect) + 4

    # Nothing was copied, moved or touched.
    assert {p: p.stat().st_mtime_ns for p in home.rglob("*") if p.is_file()} == before
    assert not (tmp_path / "data").exists()


def test_environment_moves_the_hf_cache_and_ollama(
    home: Path, gguf_bytes: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    monkeypatch.setenv("OLLAMA_MODELS", str(tmp_path / "ollama"))
    link = hf_cache_file(tmp_path / "hf" / "hub", "a/B", "b.gguf", gguf_bytes)
    blob = ollama_model(tmp_path / "ollama", "b", gguf_bytes + b"\0")
    assert local_models.hf_cache_dir() == tmp_path / "hf" / "hub"
    paths = [m.path for m in library.list_models()]
    assert paths == [link, blob]
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "elsewhere"))
    assert local_models.hf_cache_dir() == tmp_path / "elsewhere"


def test_nothing_found_in_an_empty_home(home: Path) -> None:
    assert library.list_models() == []


def test_a_missing_user_folder_is_not_an_error(home: Path, tmp_path: Path) -> None:
    assert library.list_models([str(tmp_path / "no such folder")]) == []
