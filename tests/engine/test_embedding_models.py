"""The catalog's embedding model: installed from its pinned wheel, converted once to a GGUF,
loaded by name as ``--embedding-model`` takes it, and embedding as all-MiniLM-L6-v2 does.

The model is the real one (``setup.sh test`` installs it with the optional models): sentences
that say the same thing must score higher than unrelated ones, and the first figure is
sentence-transformers' own (0.755 for the documentation's two sentences about eating).  A
source file that is not the pinned one is refused by name.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import shutil
import zipfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from parley.engine.chat.embeddings import Embedder
from parley.engine.chat.model import ChatModel
from parley.engine.errors import ModelFileError
from parley.engine.library import embedding_models
from parley.engine.library.embedding_models import embedding_model_path, find_embedding_model
from parley.engine.library.local_models import check_model_file, find_models
from parley.engine.modelfiles.defaults import check_chat_model
from tests.support.requirements import require
from tests.support.tinymodels import write_tiny_llama_gguf

MINILM = "all-minilm-l6-v2"


@pytest.fixture(scope="module")
def minilm_installed() -> None:
    require(
        importlib.util.find_spec("all_minilm_l6_v2") is not None,
        f"the embedding model is not installed (`parley models install {MINILM}`)",
    )


@pytest.fixture(scope="module")
def embedder(minilm_installed: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Embedder]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PARLEY_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        path = embedding_model_path(MINILM.upper())  # names are taken in any case
        assert path.name == "all-minilm-l6-v2-f16.gguf" and path.is_file()
        assert embedding_model_path(MINILM) == path  # converted once
    model = Embedder(path, device="cpu", threads=2)
    yield model
    model.close()


def similarity(embedder: Embedder, texts: list[str]) -> np.ndarray:
    vectors = embedder.embed([embedder.tokenize(t, True) for t in texts]).vectors
    return np.asarray(vectors @ vectors.T)


def test_similar_sentences_score_higher_than_unrelated_ones(embedder: Embedder) -> None:
    assert embedder.n_embd == 384
    texts = [
        "A man is eating food.",
        "A man is eating a piece of bread.",
        "The stock market fell sharply today.",
        "Share prices dropped steeply this morning.",
        "A cat sleeps on the sofa.",
    ]
    s = similarity(embedder, texts)
    assert s[0, 1] == pytest.approx(0.755, abs=0.01)  # sentence-transformers: 0.7553
    assert s[0, 1] > 0.5 > max(s[0, 2], s[0, 3], s[0, 4])
    assert s[2, 3] > 0.5 > max(s[2, 0], s[2, 1], s[2, 4])
    # The tokenizer is BERT's uncased WordPiece: case and accents do not change a vector.
    same = similarity(embedder, ["Café au lait", "cafe AU LAIT"])
    assert same[0, 1] > 0.999


def test_an_embedding_gguf_is_found_as_an_embedding_model_not_a_chat_model(embedder: Embedder, tmp_path: Path) -> None:
    """The converted GGUF names its pooling, so a folder's copy is listed as an embedding model
    (what the Model library and `parley models` show), a chat GGUF still as chat."""
    folder = tmp_path / "mine"
    folder.mkdir()
    shutil.copyfile(embedder.info.path, folder / "minilm.gguf")
    write_tiny_llama_gguf(folder / "chat.gguf", n_vocab=300)
    kinds = {m.path.name: m.kind for m in find_models([folder], environ={}, home=tmp_path / "home")}
    assert kinds == {"minilm.gguf": "embedding", "chat.gguf": "chat"}
    assert check_model_file(folder / "minilm.gguf") == ("embedding", None, "bert, 23M parameters")
    with pytest.raises(ModelFileError, match="this is an embedding model .*not a chat model"):
        check_chat_model(folder / "minilm.gguf")  # what Settings and the Model library ask before choosing
    with pytest.raises(ModelFileError, match="not a chat model"):
        ChatModel(folder / "minilm.gguf", device="cpu", threads=2)  # refused before any native call
    check_chat_model(folder / "chat.gguf")


def test_a_name_outside_the_catalog_is_a_path() -> None:
    assert embedding_model_path("/some/model.gguf") == Path("/some/model.gguf")


def test_a_source_file_that_is_not_the_pinned_one_is_refused(
    minilm_installed: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = find_embedding_model(MINILM)
    assert model is not None
    package = tmp_path / "fake_minilm"
    package.mkdir()
    (package / "__init__.py").write_text("")
    real = embedding_models._archive(model)
    with zipfile.ZipFile(real) as src, zipfile.ZipFile(package / model.archive, "w") as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "tokenizer.json":
                data = data.replace(b'"[UNK]"', b'"[UNX]"')  # same size, another file
            dst.writestr(info.filename, data)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(embedding_models, "MODELS", (dataclasses.replace(model, module="fake_minilm"),))
    monkeypatch.setenv("PARLEY_CACHE_DIR", str(tmp_path / "cache"))
    with pytest.raises(ModelFileError, match="tokenizer.json is not the file Parley pins"):
        embedding_model_path(MINILM)
    assert not (tmp_path / "cache" / "models" / "embeddings" / model.gguf_name).exists()
    shutil.rmtree(package)
