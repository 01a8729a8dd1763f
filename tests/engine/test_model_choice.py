"""Parley's choice of chat model: the most capable installed model that keeps up with speech here.

The packs are tiny real models (a random-weight llama GGUF split into chunk packages), so the
measurement loads and runs them for real; the decision tests store figures through the same
``record_speed`` the measurement uses, then read the choice and its reason.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from parley.engine.chat.speed import measure_speed, predict_speed
from parley.engine.library import choice, packs
from parley.engine.library.choice import Speed, chat_model_path
from parley.engine.modelfiles.defaults import default_chat_model_path
from tests.support.tinymodels import write_tiny_llama_gguf
from tests.support.tinypacks import TinyPacks

FAST = Speed(prompt_tps=400.0, gen_tps=30.0, turn_first_token_s=0.12, device="CPU", measured="2026-11-27")
SLOW_START = Speed(prompt_tps=60.0, gen_tps=12.0, turn_first_token_s=0.55, device="CPU", measured="2026-11-27")
SLOW_PACE = Speed(prompt_tps=300.0, gen_tps=5.0, turn_first_token_s=0.2, device="CPU", measured="2026-11-27")


@pytest.fixture(scope="module")
def tiny_gguf(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    path = write_tiny_llama_gguf(tmp_path_factory.mktemp("gguf") / "tiny.gguf", n_vocab=2000, n_ctx=512)
    return path.read_bytes()


@pytest.fixture
def tiny(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tiny_gguf: bytes) -> Iterator[TinyPacks]:
    # Two packs of the same tiny model (the second with one metadata byte changed, so their
    # SHA-256s differ): what is measured is the machinery, not the model.
    other = bytearray(tiny_gguf)
    at = other.index(b"tiny-llama")
    other[at : at + 10] = b"tiny-lbama"
    made = TinyPacks(tmp_path, {"tiny-a": tiny_gguf, "tiny-b": bytes(other)})
    monkeypatch.setenv("PARLEY_MODEL_PACKS", str(made.file))
    monkeypatch.setenv("PARLEY_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_DATA_DIRS", str(tmp_path / "share"))
    monkeypatch.delenv("PARLEY_PACKS_DIR", raising=False)
    monkeypatch.syspath_prepend(str(made.site))
    packs._load.cache_clear()
    yield made
    packs._load.cache_clear()


def candidate(pack_id: str) -> choice.Candidate:
    return next(c for c in choice.candidates() if c.id == pack_id)


def measured_slow(pack_id: str, speed: Speed) -> None:
    """As often as a model that does not keep up is measured before the choice is final."""
    for _ in range(choice.MAX_TRIES):
        choice.record_speed(candidate(pack_id), speed)


def test_the_candidates_are_the_starter_and_the_installed_packs(tiny: TinyPacks) -> None:
    found = choice.candidates()
    assert [(c.id, c.rank) for c in found] == [("starter", 0), ("tiny-a", 1), ("tiny-b", 2)]
    assert found[0].path() == default_chat_model_path()


def test_until_measured_the_starter_is_used_and_the_reason_says_so(tiny: TinyPacks) -> None:
    picked = choice.choose()
    assert picked.candidate is not None and picked.candidate.id == "starter"
    assert [c.id for c in picked.unmeasured] == ["tiny-a", "tiny-b"]
    assert picked.reason == "until Tiny A, Tiny B are measured on this machine"
    assert chat_model_path("default") == default_chat_model_path()


def test_the_most_capable_model_that_keeps_up_is_chosen(tiny: TinyPacks) -> None:
    choice.record_speed(candidate("tiny-a"), FAST)
    choice.record_speed(candidate("tiny-b"), FAST)
    picked = choice.choose()
    assert picked.candidate is not None and picked.candidate.id == "tiny-b" and not picked.unmeasured
    assert picked.reason.startswith("the most capable model installed, and it keeps up with speech here")
    assert "first token 0.12 s, 30.0 tokens/s" in picked.reason
    path = chat_model_path("default")  # joined on first use
    assert path.read_bytes() == tiny.joined("tiny-b")


@pytest.mark.parametrize("slow", [SLOW_START, SLOW_PACE], ids=["first token too late", "too few tokens/s"])
def test_a_model_that_cannot_keep_up_gives_way_to_a_smaller_one(tiny: TinyPacks, slow: Speed) -> None:
    choice.record_speed(candidate("tiny-a"), FAST)
    measured_slow("tiny-b", slow)
    picked = choice.choose()
    assert picked.candidate is not None and picked.candidate.id == "tiny-a"
    assert "the most capable model that keeps up with speech here" in picked.reason
    assert f"too slow here: Tiny B: {slow.figures()}" in picked.reason


def test_when_none_keeps_up_the_starter_is_used(tiny: TinyPacks) -> None:
    measured_slow("tiny-a", SLOW_START)
    measured_slow("tiny-b", SLOW_PACE)
    picked = choice.choose()
    assert picked.candidate is not None and picked.candidate.id == "starter"
    assert "the starter, since none keeps up" in picked.reason


def test_a_choice_the_user_made_always_wins(tiny: TinyPacks, tmp_path: Path) -> None:
    choice.record_speed(candidate("tiny-b"), FAST)
    mine = tmp_path / "mine.gguf"
    mine.write_bytes(tiny.joined("tiny-a"))
    picked = choice.choose(str(mine))
    assert picked.candidate is None and picked.reason == "you chose it in Settings"
    assert chat_model_path(str(mine)) == mine


def test_other_hardware_means_measuring_again(tiny: TinyPacks) -> None:
    choice.record_speed(candidate("tiny-b"), FAST, threads=2)
    assert "tiny-b" in choice.stored_speeds(threads=2)
    assert choice.stored_speeds(threads=3) == {}  # another thread count: another machine, in effect
    assert [c.id for c in choice.choose(threads=3).unmeasured] == ["tiny-a", "tiny-b"]


def test_a_pack_removed_since_is_said_once_and_the_next_best_used(tiny: TinyPacks) -> None:
    choice.record_speed(candidate("tiny-a"), FAST)
    choice.record_speed(candidate("tiny-b"), FAST)
    assert choice.resolve().name == "Tiny B"
    tiny.remove("tiny-b")
    for joined in packs.packs_cache_dir().glob("tiny-b*"):
        joined.unlink()
    resolved = choice.resolve()
    assert resolved.name == "Tiny A"
    assert resolved.notice == "Tiny B is no longer installed, so Parley uses Tiny A instead."
    assert choice.resolve().notice is None  # said once


def test_a_pack_that_cannot_be_joined_now_gives_way_to_the_starter(tiny: TinyPacks) -> None:
    choice.record_speed(candidate("tiny-b"), FAST)
    data = bytearray(tiny.part("tiny-b", 2).read_bytes())
    data[10] ^= 1
    tiny.part("tiny-b", 2).write_bytes(bytes(data))
    resolved = choice.resolve()
    assert resolved.path == default_chat_model_path()
    assert resolved.notice is not None and resolved.notice.startswith("Tiny B cannot be used (")
    assert "part 2 of Tiny B" in resolved.notice and resolved.notice.endswith("uses the starter model instead.")


@pytest.mark.parametrize(
    "content",
    [b"\x00\xff garbage", b"[" * 100_000, json.dumps({"speeds": {"k": {"gen_tps": "fast"}}, "last": [1]}).encode()],
    ids=["not JSON", "too deep", "wrong types"],
)
def test_a_damaged_speeds_file_means_measuring_again(tiny: TinyPacks, content: bytes) -> None:
    path = choice.speeds_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    picked = choice.choose()
    assert picked.candidate is not None and picked.candidate.id == "starter" and len(picked.unmeasured) == 2
    choice.record_speed(candidate("tiny-a"), FAST)  # and the file is written anew
    assert choice.stored_speeds() == {"tiny-a": FAST}


@pytest.mark.parametrize("tries", [-5, 10**9, True, "3", 2.5, None])
def test_a_hostile_count_of_tries_in_the_speeds_file_reads_as_one(tiny: TinyPacks, tries: object) -> None:
    """0 is a count the file may hold now (too slow while busy: not counted); anything else out of
    0-1000, or not a whole number, is one try, never a model shut out or measured forever."""
    choice.record_speed(candidate("tiny-b"), SLOW_START)
    path = choice.speeds_path()
    doc = json.loads(path.read_text())
    for record in doc["speeds"].values():
        record["tries"] = tries
    path.write_text(json.dumps(doc))
    assert choice.stored_speeds()["tiny-b"].tries == 1


def test_measuring_a_pack_joins_it_runs_a_turn_and_remembers(tiny: TinyPacks) -> None:
    speed = choice.measure(candidate("tiny-a"), threads=1)
    assert speed.gen_tps > 0 and speed.prompt_tps > 0 and 0 < speed.turn_first_token_s < 60
    assert choice.stored_speeds(threads=1) == {"tiny-a": speed}
    assert packs.pack_state(packs.find_pack("tiny-a")).status == "ready"


def test_measure_speed_reads_only_the_question_after_the_prefix(tmp_path: Path, tiny_gguf: bytes) -> None:
    model = tmp_path / "m.gguf"
    model.write_bytes(tiny_gguf)
    figures = measure_speed(model, threads=1)
    assert figures.prefix_tokens > 40  # the system prompt and two turns
    # the question and the template around it (ChatML tags are plain text to GPT-2), not the prefix again
    assert 0 < figures.question_tokens < figures.prefix_tokens / 4
    assert figures.file_size == len(tiny_gguf) and figures.threads == 1
    prompt, gen = predict_speed(figures, 2 * figures.file_size)
    assert prompt == pytest.approx(figures.prompt_tps / 2) and gen == pytest.approx(figures.gen_tps / 2)


def test_a_model_measured_too_slow_is_measured_again_and_the_best_figures_kept(tiny: TinyPacks) -> None:
    """A measurement taken while the machine was busy must not shut a model out for good: up to
    MAX_TRIES measurements, the best kept."""
    kept = choice.record_speed(candidate("tiny-b"), SLOW_START)
    assert kept.tries == 1
    assert [c.id for c in choice.choose().unmeasured] == ["tiny-a", "tiny-b"]
    assert "until Tiny A, Tiny B are measured on this machine" in choice.choose().reason
    choice.record_speed(candidate("tiny-a"), FAST)
    assert choice.choose().reason == "until Tiny B is measured again on this machine"
    kept = choice.record_speed(candidate("tiny-b"), SLOW_PACE)
    assert kept.tries == 2 and kept.gen_tps == SLOW_START.gen_tps  # the better of the two stays
    kept = choice.record_speed(candidate("tiny-b"), SLOW_START)
    assert kept.tries == 3
    picked = choice.choose()
    assert not picked.unmeasured and picked.candidate is not None and picked.candidate.id == "tiny-a"
    kept = choice.record_speed(candidate("tiny-b"), FAST)  # e.g. measured by hand on a quiet machine
    assert kept.keeps_up and choice.choose().candidate.id == "tiny-b"  # type: ignore[union-attr]


def test_a_model_found_too_slow_on_a_busy_machine_is_not_counted_as_tried(tiny: TinyPacks) -> None:
    """Measured while other programs kept the processor busy: too slow counts as no try, so the
    model is measured again however often that happens; kept up counts (quiet is only faster)."""
    for _ in range(choice.MAX_TRIES + 1):
        kept = choice.record_speed(candidate("tiny-b"), dataclasses.replace(SLOW_START, tries=0))
    assert kept.tries == 0 and "tiny-b" in [c.id for c in choice.choose().unmeasured]
    assert choice.stored_speeds()["tiny-b"].tries == 0  # as read back from the file
    kept = choice.record_speed(candidate("tiny-b"), SLOW_START)  # quiet, and still too slow
    assert kept.tries == 1


def test_other_programs_load_is_seen_and_this_process_is_not() -> None:
    """Relative to what the rest of the machine does meanwhile (CI runs alone; a developer's
    machine may not): this process spinning adds nothing, a child spinning adds a core's share."""
    import subprocess
    import sys
    import time

    from parley.engine.backend.machine_load import OtherLoad

    cores = os.cpu_count() or 1
    load = OtherLoad()
    time.sleep(1.0)
    baseline = load.fraction()
    spin = time.perf_counter() + 1.0
    while time.perf_counter() < spin:  # this process itself: not "other programs"
        pass
    own = load.fraction()
    assert baseline is not None and own is not None
    assert own <= baseline + 0.25, (baseline, own)
    hog = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.2)
        load.fraction()
        time.sleep(1.5)
        others = load.fraction()
    finally:
        hog.kill()
        hog.wait()
    assert others is not None and others >= min(0.9, baseline + 0.6 / cores), (baseline, others)
