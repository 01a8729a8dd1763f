"""Sharing the CPU with urgent work: generation on the CPU waits between two tokens while the
voice makes a reply's first words, and never longer than the bound."""

from __future__ import annotations

import threading
import time

import pytest

from parley.engine.backend import cpu_share
from parley.engine.chat.model import ChatModel, ChatSession, SamplingParams
from tests.support.tinymodels import write_tiny_llama_gguf


@pytest.fixture(scope="module")
def tiny_llama(tmp_path_factory: pytest.TempPathFactory) -> ChatModel:
    path = write_tiny_llama_gguf(tmp_path_factory.mktemp("tiny") / "llama.gguf", n_ctx=256)
    model = ChatModel(path, device="cpu", n_ctx=256, threads=2)
    yield model
    model.close()


def test_step_aside_waits_only_while_urgent_work_runs() -> None:
    assert not cpu_share.busy() and cpu_share.step_aside() == 0.0
    released = threading.Event()

    def hold() -> None:
        with cpu_share.urgent():
            released.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    while not cpu_share.busy():
        time.sleep(0.001)
    threading.Timer(0.2, released.set).start()
    waited = cpu_share.step_aside(timeout=10.0)
    holder.join()
    assert 0.15 <= waited < 10.0 and not cpu_share.busy()  # it ended with the urgent work
    # A stuck urgent work holds others back for the bound at most.
    with cpu_share.urgent():
        assert 0.1 <= cpu_share.step_aside(timeout=0.1) < 5.0


def test_generation_on_the_cpu_pauses_while_urgent_work_runs(tiny_llama: ChatModel) -> None:
    session = ChatSession(tiny_llama, "")
    times: list[float] = []
    hold: list[tuple[float, float]] = []
    started, holding = threading.Event(), threading.Event()

    def on_text(_piece: str) -> None:
        times.append(time.monotonic())
        if len(times) == 1:  # the urgent work begins before the second token is made
            started.set()
            holding.wait(10)

    def urgent() -> None:
        started.wait(10)
        with cpu_share.urgent():
            begun = time.monotonic()
            holding.set()
            time.sleep(0.3)
            hold.append((begun, time.monotonic()))

    before = cpu_share.seconds_stepped_aside()
    worker = threading.Thread(target=urgent)
    worker.start()
    reply = session.reply("hello", SamplingParams(max_tokens=100, seed=1, ignore_eos=True), on_text=on_text)
    worker.join()
    ((begun, ended),) = hold
    assert reply.stats.generated_tokens == 100
    assert not [t for t in times if begun < t < ended]  # no token while the urgent work ran
    assert times[1] >= ended  # the next one came once it was done
    assert cpu_share.seconds_stepped_aside() - before >= 0.2
