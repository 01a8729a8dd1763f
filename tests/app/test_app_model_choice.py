"""The app chooses its chat model: built-in models measured in the background, the best that keeps
up with speech loaded when the user is idle, never competing with the user, and said.

Real window, real engines: the packs are tiny real models (a random-weight llama split into
chunk packages, ``tests/support/tinypacks.py``) or the real Qwen 0.5B pack, and the starter is
the real SmolLM2.
"""

from __future__ import annotations

import json
import logging
import math
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from parley.app import model_choice
from parley.engine.library import packs
from parley.engine.modelfiles.defaults import default_chat_model_path
from tests.support.app_helpers import LOAD_TIMEOUT_MS, REPLY_TIMEOUT_MS, make_controller, wait_idle
from tests.support.requirements import require
from tests.support.tinymodels import write_tiny_llama_gguf
from tests.support.tinypacks import TinyPacks


@pytest.fixture
def tiny_packs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TinyPacks]:
    model = write_tiny_llama_gguf(tmp_path / "tiny.gguf", n_vocab=2000, n_ctx=512).read_bytes()
    other = bytearray(model)
    at = other.index(b"tiny-llama")
    other[at : at + 10] = b"tiny-lbama"  # another file (another SHA-256), the same tiny model
    made = TinyPacks(tmp_path, {"tiny-a": model, "tiny-b": bytes(other)})
    monkeypatch.setenv("PARLEY_MODEL_PACKS", str(made.file))
    monkeypatch.setenv("PARLEY_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_DATA_DIRS", str(tmp_path / "share"))
    monkeypatch.syspath_prepend(str(made.site))
    packs._load.cache_clear()
    yield made
    packs._load.cache_clear()


@pytest.fixture
def measure_when_busy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Measure at once even when other programs keep the processor busy (a CI neighbour, the
    suite's own loaded runs): these tests are about what follows a measurement; the wait for a
    quiet machine has its own test below."""
    monkeypatch.setattr(model_choice, "BUSY_PATIENCE_S", 0.0)


def test_the_best_installed_model_is_measured_chosen_loaded_and_said(
    qtbot, tmp_path: Path, tiny_packs, measure_when_busy
) -> None:
    controller = make_controller(qtbot, tmp_path, chat_model="default", threads=1, context_length=512)
    assert Path(controller.chat.model.path) == default_chat_model_path()  # the starter until measured
    chooser = controller.model_choice
    with qtbot.waitSignal(chooser.measured, timeout=LOAD_TIMEOUT_MS):
        pass
    assert chooser.choice is not None and chooser.choice.chosen == "Tiny B"
    assert chooser.choice.reason.startswith("the most capable model installed, and it keeps up with speech here")
    qtbot.waitUntil(
        lambda: controller.chat.model is not None and "tiny-b" in Path(controller.chat.model.path).name,
        timeout=LOAD_TIMEOUT_MS,
    )
    assert "Parley now uses Tiny B: the most capable model installed" in controller.window.notice.label.text()
    assert Path(controller.chat.model.path).read_bytes() == tiny_packs.joined("tiny-b")
    stored = json.loads((tmp_path / "cache" / "model-speeds.json").read_text())
    assert len(stored["speeds"]) == 1 and stored["last"]["id"] == "tiny-b"

    # A later start uses the measured choice at once; nothing is measured again.
    controller.shutdown()
    (tmp_path / "again").mkdir()
    again = make_controller(qtbot, tmp_path / "again", chat_model="default", threads=1, context_length=512)
    assert "tiny-b" in Path(again.chat.model.path).name
    qtbot.waitUntil(lambda: again.model_choice.choice is not None, timeout=LOAD_TIMEOUT_MS)
    assert again.model_choice.choice.chosen == "Tiny B" and not again.model_choice.choice.unmeasured
    assert again.model_choice._job is None and "Parley now uses" not in again.window.notice.label.text()


def test_a_model_the_user_chose_is_never_replaced(qtbot, tmp_path: Path, tiny_packs) -> None:
    controller = make_controller(qtbot, tmp_path, chat_model="starter", threads=1, context_length=512)
    qtbot.wait(4000)  # longer than the idle time after which measuring would start
    assert controller.model_choice.choice is None and controller.model_choice._job is None
    assert Path(controller.chat.model.path) == default_chat_model_path()
    assert not (tmp_path / "cache" / "model-speeds.json").exists()


def test_a_pack_the_user_chose_by_name_is_joined_and_loaded(qtbot, tmp_path: Path, tiny_packs) -> None:
    controller = make_controller(qtbot, tmp_path, chat_model="pack:tiny-a", threads=1, context_length=512)
    assert Path(controller.chat.model.path).read_bytes() == tiny_packs.joined("tiny-a")


def test_a_chosen_pack_that_is_gone_gives_way_to_the_starter_and_is_said(qtbot, tmp_path: Path, tiny_packs) -> None:
    tiny_packs.remove("tiny-a")
    controller = make_controller(qtbot, tmp_path, chat_model="pack:tiny-a", threads=1, context_length=512)
    assert Path(controller.chat.model.path) == default_chat_model_path()
    assert "'tiny-a' is not installed, so Parley uses the starter model" in controller.window.notice.label.text()


def test_measuring_makes_way_for_the_user_and_resumes_when_idle(
    qtbot, tmp_path: Path, monkeypatch, measure_when_busy
) -> None:
    """The real Qwen 0.5B pack takes seconds to measure on 2 cores: a reply asked meanwhile stops
    the measurement at once (the starter answers), and it is done again once Parley is idle."""
    require(packs.pack_state(packs.find_pack("qwen2.5-coder-0.5b")).usable, "the 0.5B model pack (./setup.sh test)")
    monkeypatch.setenv("PARLEY_CACHE_DIR", str(tmp_path / "cache"))
    packs._load.cache_clear()
    controller = make_controller(qtbot, tmp_path, chat_model="default", max_tokens=16)
    chooser = controller.model_choice
    qtbot.waitUntil(lambda: chooser._job is not None, timeout=LOAD_TIMEOUT_MS)
    measuring = chooser._job
    assert controller.replies.send("Say hello.")
    qtbot.waitUntil(lambda: chooser._job is None, timeout=REPLY_TIMEOUT_MS)
    assert measuring.cancelled  # stopped for the user's question
    wait_idle(qtbot, controller)
    assert controller.book.current.messages[-1].role == "assistant"
    with qtbot.waitSignal(chooser.measured, timeout=120_000):
        pass
    assert chooser.choice is not None and "qwen2.5-coder-0.5b" not in chooser.choice.unmeasured


def test_a_busy_machine_is_waited_for_then_measured_anyway(
    qtbot, tmp_path: Path, tiny_packs, monkeypatch, caplog
) -> None:
    """Other programs keeping half the cores busy: measuring waits (a measurement beside a compiler
    would say less than the machine can do), looks again, and after its patience measures anyway."""
    monkeypatch.setattr(model_choice, "BUSY_RETRY_S", 0.5)
    monkeypatch.setattr(model_choice, "BUSY_PATIENCE_S", 2.0)
    caplog.set_level(logging.INFO, logger="parley.models")
    half = math.ceil((os.cpu_count() or 1) / 2)  # other programs keep half the cores busy: more than BUSY_SHARE
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(half)]
    try:
        controller = make_controller(qtbot, tmp_path, chat_model="default", threads=1, context_length=512)
        with qtbot.waitSignal(controller.model_choice.measured, timeout=LOAD_TIMEOUT_MS):
            pass
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    said = [r.getMessage() for r in caplog.records if r.name == "parley.models"]
    later = [i for i, m in enumerate(said) if m.endswith("of the processor: measuring later")]
    anyway = [i for i, m in enumerate(said) if "measuring anyway" in m]
    assert len(later) >= 2 and anyway and later[-1] < anyway[0], said  # waited, looked again, then measured
    assert controller.model_choice.choice is not None and controller.model_choice.choice.chosen == "Tiny B"
