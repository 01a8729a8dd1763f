"""The shipped catalog is well formed and says what the issue asks for; fit estimates."""

from __future__ import annotations

import importlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from parley.engine import library
from parley.engine.errors import CatalogError, UnknownModelError
from parley.engine.library import memory_fit
from parley.engine.modelfiles.defaults import default_chat_model_path
from tests.support.tinymodels import write_tiny_llama_gguf

cat = importlib.import_module("parley.engine.library.catalog")  # the facade's catalog() hides it


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
        assert e.file.endswith(f"{e.quantisation}.gguf") and e.repo.endswith("GGUF"), e
        assert e.billions is not None and 0.4 <= e.billions <= 31, e
        assert e.context and e.context >= 8192 and e.kv_bytes_per_token and e.kv_bytes_per_token >= 8192, e
    for e in entries:
        assert e.size > 10**7 and e.note and e.languages and e.licence and e.quantisation


def test_the_catalog_offers_the_2025_families_people_ask_for() -> None:
    """Issue 34: Qwen3 in two or more sizes, Gemma 3, Phi-4-mini, SmolLM3, a large model for big
    GPUs and Whisper large-v3-turbo quantized, each pinned like the others (checked below)."""
    ids = {e.id: e for e in library.catalog()}
    assert len([i for i in ids if i.startswith("qwen3-")]) >= 2
    for wanted in ("gemma-3-1b-it", "gemma-3-4b-it", "phi-4-mini-instruct", "smollm3-3b", "gpt-oss-20b"):
        assert wanted in ids, wanted
    assert {"whisper-large-v3-turbo-q5_0", "whisper-large-v3-turbo-q8_0"} <= set(ids)
    big = ids["gpt-oss-20b"]
    assert (big.quantisation, big.size, big.active_parameters) == ("MXFP4", 12_109_566_624, "3.6B")
    assert 0.15 < big.active_share < 0.2  # 3.6B of 21B are read per token
    assert ids["qwen3-1.7b"].active_share == 1.0


def test_a_shipped_entry_must_carry_what_the_fit_estimate_needs() -> None:
    raw = json.loads((Path(cat.__file__).parents[2] / "resources" / "models" / "catalog.json").read_text())
    chat = next(e for e in raw["models"] if e["kind"] == "chat")
    for key in ("quantisation", "context", "kv_bytes_per_token"):
        lacking = {k: v for k, v in chat.items() if k != key}
        with pytest.raises(CatalogError, match=f"it lacks {key}"):
            cat.parse_catalog({"format": 1, "models": [lacking]}, shipped=True)
    with pytest.raises(CatalogError, match="the context is not a positive whole number"):
        cat.parse_catalog({"format": 1, "models": [dict(chat, context=-1)]}, shipped=True)
    user = {k: v for k, v in chat.items() if k not in ("quantisation", "context", "kv_bytes_per_token")}
    [entry] = cat.parse_catalog({"format": 1, "models": [user]}).entries  # a user's catalog may leave them out
    assert entry.context is None and entry.quantisation == ""


def test_recommendations_rank_by_how_soon_a_spoken_reply_starts_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 45's machine: 2 cores where the 1.5B pack gives its first token in 0.21 s and 28
    tokens/s, with memory for all.  gpt-oss-20b was first (its speed scaled by its active
    experts, its reasoning channel not counted); now a model that always thinks first is slow to
    speak, one that thinks unless told is told (and quick), and both say they are estimated."""
    from parley.engine.chat.speed import ModelSpeed
    from parley.engine.library import recommend

    monkeypatch.setattr(memory_fit, "available_ram", lambda: 64 << 30)
    measured = ModelSpeed("", 1_117_320_768, "CPU", 2, 180.0, 28.0, 0.21, 200, 12)
    picks = recommend.recommend_chat(library.catalog(), measured, device="cpu")
    assert [r.entry.id for r in picks] == ["smollm3-3b", "qwen3-1.7b", "gemma-3-1b-it"]
    assert all(r.quick_to_speak and r.thinking_s is None for r in picks)
    assert [r.estimated for r in picks] == [True, True, False]  # told /no_think: never measured so
    ranked = {r.entry.id: r for r in recommend.rank_for_speech(library.catalog(), measured, device="cpu")}
    four = ranked["qwen3-4b-instruct-2507"]  # 12.5 tokens/s: it keeps pace, but starts after 1.05 s
    assert four.keeps_pace and not four.quick_to_speak and 1.0 < four.first_sound_s < 1.1
    first = picks[0]
    assert first.first_sound_s == pytest.approx(
        0.21 * first.entry.size / measured.file_size + recommend.FIRST_PIECE_TOKENS / first.tokens_per_s + 0.1
    )
    oss = ranked["gpt-oss-20b"]
    assert not oss.quick_to_speak and oss.keeps_pace and oss.estimated  # fast, but it thinks first
    assert oss.thinking_s == pytest.approx(recommend.THINKING_TOKENS / oss.tokens_per_s)
    assert oss.first_sound_s > oss.thinking_s > 5
    assert ranked["qwen3-8b"].thinking_s is None and ranked["qwen3-8b"].quick_to_speak is False  # 6 tokens/s
    assert ranked["qwen3-30b-a3b"].estimated and not ranked["qwen2.5-1.5b-instruct"].estimated
    order = list(ranked)
    slow = [i for i in order if ranked[i].quick_to_speak is False]
    assert order[-len(slow) :] == slow  # the slow ones last, the soonest to speak of them first
    assert [ranked[i].first_sound_s for i in slow] == sorted(ranked[i].first_sound_s for i in slow)
    assert recommend.recommend_chat(library.catalog(), None, device="cpu")[0].first_sound_s is None  # unmeasured


def test_catalog_fit_counts_the_context_of_the_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    entry = library.find_entry("qwen3-4b-instruct-2507")
    estimate = library.estimate_entry(entry, n_ctx=4096, device="cpu")
    assert estimate.weights == entry.size and estimate.n_ctx == 4096
    assert estimate.context == 4096 * 36 * 8 * 128 * 2 * 2  # 36 layers, 8 KV heads of 128, K and V in f16
    assert estimate.buffers == 512 * memory_fit.TYPICAL_VOCAB * 4 + memory_fit.FIXED_OVERHEAD
    capped = library.estimate_entry(library.find_entry("gemma-2-2b-it"), n_ctx=32768, device="cpu")
    assert capped.n_ctx == 8192  # Gemma 2 was trained for 8k tokens
    speech = library.estimate_entry(library.find_entry("whisper-base-q5_1"), device="cpu")
    assert speech.buffers == memory_fit.WHISPER_WORK_MB["base"] * 1_000_000


def test_the_verdict_says_fits_tight_or_too_big() -> None:
    def verdict(needed: int, free: int | None) -> str:
        return memory_fit.FitEstimate("m", needed, 0, 0, None, free, "memory").verdict

    assert verdict(7, 10) == "fits" and verdict(8, 10) == "fits"
    assert verdict(9, 10) == "tight" and verdict(10, 10) == "tight"
    assert verdict(11, 10) == "too big" and verdict(1, None) == "unknown"


def test_every_shipped_entry_is_pinned_to_a_commit_and_a_sha256() -> None:
    """A moving revision ("main") or a missing SHA-256 would let the Hub (or whoever answers for
    it) change the bytes Parley hands to native code."""
    raw = json.loads((Path(cat.__file__).parents[2] / "resources" / "models" / "catalog.json").read_text())
    for e in raw["models"]:
        assert re.fullmatch(r"[0-9a-f]{40}", e["revision"]), e["id"]
        assert re.fullmatch(r"[0-9a-f]{64}", e.get("sha256") or ""), e["id"]
    assert len(library.catalog()) == len(raw["models"]) >= 30
    unpinned = dict(raw["models"][0], revision="main")
    with pytest.raises(CatalogError, match="is not a 40-character commit hash"):
        cat.parse_catalog({"format": 1, "models": [unpinned]}, shipped=True)
    with pytest.raises(CatalogError, match="sha256"):
        cat.parse_catalog({"format": 1, "models": [dict(raw["models"][0], sha256=None)]}, shipped=True)


def test_unknown_id_and_malformed_catalogs_are_clear_errors(tmp_path: Path, monkeypatch) -> None:
    with pytest.raises(UnknownModelError, match="no model 'nope' in the catalog"):
        library.find_entry("nope")
    bad = tmp_path / "bad.json"
    for text, message in (
        (json.dumps({"format": 2, "models": []}), "format-1"),
        ("[" * 100000 + "]" * 100000, "nested more than 64 levels"),
        ('{"format": 1, "models": [], "x": ' + "9" * 5000 + "}", "not valid JSON"),
        (" " * (2 << 20), "bytes, more than the 1048576 expected"),
    ):
        bad.write_text(text)
        monkeypatch.setenv("PARLEY_MODEL_CATALOG", str(bad))
        cat._load.cache_clear()
        with pytest.raises(CatalogError, match=message):
            library.catalog()
    cat._load.cache_clear()


HOSTILE_ENTRIES = {
    "dotdot-repo": ({"repo": "../../victim"}, "repository '../../victim' is not of the form owner/name"),
    "dash-repo": ({"repo": "-x/y"}, "is not of the form owner/name"),
    "sep-repo": ({"repo": "a--b/c"}, "is not of the form owner/name"),
    "dotdot-file": ({"file": "../../../victim/notes.txt"}, "is not a plain relative path"),
    "absolute-file": ({"file": "/etc/passwd"}, "is not a plain relative path"),
    "dot-file": ({"file": "a/./b.gguf"}, "is not a plain relative path"),
    "backslash-file": ({"file": "..\\x.gguf"}, "has characters or a length"),
    "nul-file": ({"file": "x\u0000.gguf"}, "has characters or a length"),
    "long-file": ({"file": "x" * 600}, "has characters or a length"),
    "ref-revision": ({"revision": "../../../../victim"}, "is not a 40-character commit hash or a plain branch"),
    "slash-revision": ({"revision": "refs/pr/1"}, "is not a 40-character commit hash or a plain branch"),
    "huge-size": ({"size": 10**15}, "size 1000000000000000 is not a number of bytes"),
    "negative-size": ({"size": -1}, "size -1 is not"),
    "text-size": ({"size": "12"}, "size 12 is not"),
    "short-sha": ({"sha256": "abc"}, "sha256 is not 64"),
    "escape-note": ({"note": "\u001b[2J"}, "the note is not a line of text"),
    "many-languages": ({"languages": ["en"] * 500}, "languages are not a list"),
    "odd-thinks": ({"thinks": "sometimes"}, "thinks is not one of"),
}


def _user_catalog(path: Path) -> Path:
    good = json.loads(_good())
    models = [dict(good, id="good"), dict(good, id="branch", revision="v1.0")]
    models += [dict(good, id=ident, **change) for ident, (change, _) in HOSTILE_ENTRIES.items()]
    models += [{"id": "lacking"}, "not an object", dict(good, id="good")]
    path.write_text(json.dumps({"format": 1, "models": models}))
    return path


def test_a_bad_user_catalog_entry_is_skipped_and_reported(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("PARLEY_MODEL_CATALOG", str(_user_catalog(tmp_path / "mine.json")))
    cat._load.cache_clear()
    assert [e.id for e in library.catalog()] == ["good", "branch"]
    problems = cat.catalog_problems()
    for ident, (_, reason) in HOSTILE_ENTRIES.items():
        [line] = [p for p in problems if p.startswith(f"catalog entry {ident!r} is skipped: ")]
        assert reason in line, line
    assert any(p.startswith("catalog entry 'lacking' is skipped: it lacks kind, name, repo") for p in problems)
    assert "catalog entry '#22' is skipped: it is not an object" in problems
    assert "catalog entry 'good' is skipped: the id appears twice" in problems
    assert all("\n" not in p for p in problems)
    with pytest.raises(UnknownModelError, match="'dotdot-file' is skipped: the file name"):
        library.find_entry("dotdot-file")
    cat._load.cache_clear()


def _parley(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "parley", "models", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **env, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
        timeout=120,
    )


def test_parley_models_reports_bad_catalog_entries_and_goes_on(tmp_path: Path) -> None:
    env = {
        "PARLEY_MODEL_CATALOG": str(_user_catalog(tmp_path / "mine.json")),
        "HOME": str(tmp_path),
        "PARLEY_DATA_DIR": str(tmp_path / "data"),
        "PARLEY_CONFIG_DIR": str(tmp_path / "config"),
        "HF_HUB_OFFLINE": "1",
    }
    listed = _parley("catalog", env=env)
    assert listed.returncode == 0, listed.stderr
    assert " good " in listed.stdout and " branch " in listed.stdout and "dotdot" not in listed.stdout
    assert listed.stderr.count("parley: warning: catalog entry") == len(HOSTILE_ENTRIES) + 3
    refused = _parley("download", "dotdot-file", env=env)
    assert refused.returncode == 2 and "parley: error: catalog entry 'dotdot-file' is skipped" in refused.stderr
    assert "Traceback" not in refused.stderr + listed.stderr
    (tmp_path / "deep.json").write_text("[" * 5000 + "]" * 5000)
    deep = {**env, "PARLEY_MODEL_CATALOG": str(tmp_path / "deep.json")}
    models = _parley(env=deep)  # the list of models on disk needs no catalog
    assert models.returncode == 0 and "parley: warning: the model catalog cannot be used" in models.stderr
    catalog = _parley("catalog", env=deep)
    assert catalog.returncode == 2 and "parley: error: the model catalog cannot be used" in catalog.stderr


def _good() -> str:
    return json.dumps(
        {
            "id": "x",
            "kind": "chat",
            "name": "X",
            "repo": "a/b",
            "revision": "main",
            "file": "x.gguf",
            "size": 1,
            "licence": "MIT",
            "languages": ["en"],
            "parameters": "1B",
            "note": "n",
        }
    )


def test_chat_fit_counts_weights_context_and_buffers(tmp_path: Path) -> None:
    path = write_tiny_llama_gguf(
        tmp_path / "m.gguf", n_vocab=1000, n_embd=64, n_layer=2, n_head=4, n_head_kv=2, n_ctx=256
    )
    weights, kv, buffers, ctx = memory_fit.chat_needs(path, 4096)
    assert ctx == 256  # capped at the model's training context
    assert weights == path.stat().st_size
    assert kv == 256 * 2 * 2 * (16 + 16) * 2  # ctx x layers x kv heads x (k+v dims) x f16
    assert buffers == 256 * (1000 + 4 * 64) * 4 + memory_fit.FIXED_OVERHEAD


def test_real_chat_model_estimate_and_warning(tmp_path: Path) -> None:
    path = default_chat_model_path()  # SmolLM2-135M: 30 layers, 3 KV heads of 64
    weights, kv, _, ctx = memory_fit.chat_needs(path, 4096)
    assert (weights, ctx, kv) == (path.stat().st_size, 4096, 4096 * 30 * 3 * 128 * 2)
    roomy = memory_fit.estimate(path, n_ctx=4096, device="cpu")
    assert roomy.where == "memory" and roomy.available and roomy.available > 0
    cramped = memory_fit.FitEstimate("SmolLM2", weights, kv, 10**8, 4096, 10**8, "memory")
    warning = cramped.warning()
    assert warning is not None and warning.startswith(
        "SmolLM2 needs about 293 MB (model 98 MB + "
        "4096-token context 94 MB + buffers 100 MB), "
        "but only 100 MB of memory is free."
    )
    assert memory_fit.FitEstimate("x", 1, 0, 1, None, 10, "memory").warning() is None


def test_fit_warning_is_none_for_a_model_that_fits() -> None:
    assert library.fit_warning(default_chat_model_path(), n_ctx=2048, device="cpu") is None
