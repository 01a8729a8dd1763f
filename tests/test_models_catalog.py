"""The shipped catalog is well formed and says what the issue asks for; fit estimates."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest

from parley.engine import library
from parley.engine.library import fit
from parley.engine.models import default_chat_model_path
from tests.tinymodels import write_tiny_llama_gguf

cat = importlib.import_module("parley.engine.library.catalog")   # the facade's catalog() hides it


@pytest.fixture(autouse=True)
def shipped_catalog(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PARLEY_MODEL_CATALOG", raising=False)


def test_shipped_catalog_covers_whisper_and_chat_models() -> None:
    entries = library.catalog()
    speech = [e for e in entries if e.kind == "speech"]
    chat = [e for e in entries if e.kind == "chat"]
    assert len({e.id for e in entries}) == len(entries)
    for e in speech:
        assert e.repo == "ggerganov/whisper.cpp" and re.fullmatch(r"ggml-[a-z0-9._-]+\.bin", e.file), e
        assert e.licence == "MIT"
    names = {e.file for e in speech}
    for size in ("tiny", "base", "small", "medium"):
        assert {f"ggml-{size}.bin", f"ggml-{size}.en.bin"} <= names
    assert {"ggml-large-v3.bin", "ggml-large-v3-turbo.bin"} <= names
    assert any("-q5_" in n for n in names) and any("-q8_0" in n for n in names)
    for e in chat:
        assert e.file.endswith("Q4_K_M.gguf") and e.repo.endswith("GGUF"), e
        billions = float(e.parameters.rstrip("B"))
        assert 0.4 <= billions <= 8.5, e
    for e in entries:
        assert e.revision == "main" or re.fullmatch(r"[0-9a-f]{40}", e.revision), e
        assert e.size > 10**7 and e.note and e.languages and e.licence
    assert sum(e.sha256 is not None for e in entries) >= 20


def test_unknown_id_and_malformed_catalogs_are_clear_errors(tmp_path: Path, monkeypatch) -> None:
    with pytest.raises(library.UnknownModelError, match="no model 'nope' in the catalog"):
        library.find_entry("nope")
    bad = tmp_path / "bad.json"
    for doc, message in (({"format": 2, "models": []}, "format-1"),
                         ({"format": 1, "models": [{"id": "x"}]}, "lacks kind"),
                         ({"format": 1, "models": [dict(json.loads(_good()), sha256="abc")]}, "malformed sha256")):
        bad.write_text(json.dumps(doc))
        monkeypatch.setenv("PARLEY_MODEL_CATALOG", str(bad))
        cat._load.cache_clear()
        with pytest.raises(cat.CatalogError, match=message):
            library.catalog()


def _good() -> str:
    return json.dumps({"id": "x", "kind": "chat", "name": "X", "repo": "a/b", "revision": "main", "file": "x.gguf",
                       "size": 1, "licence": "MIT", "languages": ["en"], "parameters": "1B", "note": "n"})


def test_chat_fit_counts_weights_context_and_buffers(tmp_path: Path) -> None:
    path = write_tiny_llama_gguf(tmp_path / "m.gguf", n_vocab=1000, n_embd=64, n_layer=2, n_head=4,
                                 n_head_kv=2, n_ctx=256)
    weights, kv, buffers, ctx = fit.chat_needs(path, 4096)
    assert ctx == 256                                   # capped at the model's training context
    assert weights == path.stat().st_size
    assert kv == 256 * 2 * 2 * (16 + 16) * 2            # ctx x layers x kv heads x (k+v dims) x f16
    assert buffers == 256 * (1000 + 4 * 64) * 4 + fit.FIXED_OVERHEAD


def test_real_chat_model_estimate_and_warning(tmp_path: Path) -> None:
    path = default_chat_model_path()                    # SmolLM2-135M: 30 layers, 3 KV heads of 64
    weights, kv, _, ctx = fit.chat_needs(path, 4096)
    assert (weights, ctx, kv) == (path.stat().st_size, 4096, 4096 * 30 * 3 * 128 * 2)
    roomy = fit.estimate(path, n_ctx=4096, device="cpu")
    assert roomy.where == "memory" and roomy.available and roomy.available > 0
    cramped = fit.FitEstimate("SmolLM2", weights, kv, 10**8, 4096, 10**8, "memory")
    warning = cramped.warning()
    assert warning is not None and warning.startswith("SmolLM2 needs about 293 MB (model 98 MB + "
                                                      "4096-token context 94 MB + buffers 100 MB), "
                                                      "but only 100 MB of memory is free.")
    assert fit.FitEstimate("x", 1, 0, 1, None, 10, "memory").warning() is None


def test_fit_warning_is_none_for_a_model_that_fits() -> None:
    assert library.fit_warning(default_chat_model_path(), n_ctx=2048, device="cpu") is None
