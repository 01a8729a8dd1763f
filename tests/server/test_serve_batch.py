"""The batch engine behind ``parley serve``: several replies in one context, on the real
default model (SmolLM2) and the real native build.  Replies are greedy wherever the text matters.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator

import pytest

from parley.engine.chat.batch import BatchEngine, BatchResult
from parley.engine.chat.model import ChatModel, ChatSession, Message, SamplingParams
from parley.engine.errors import ContextOverflowError, InvalidSettingError, ModelClosedError, QueueFullError
from parley.engine.modelfiles.defaults import default_chat_model_path

SYSTEM = "You are a helpful assistant."
PROMPTS = ["What is the capital of France?", "Write a haiku about the sea.", "Name three colours."]
WAIT = 120.0  # seconds: a bound that only a hang reaches


def greedy(max_tokens: int = 32) -> SamplingParams:
    return SamplingParams(temperature=0, max_tokens=max_tokens)


@pytest.fixture(scope="module")
def smol() -> Iterator[ChatModel]:
    model = ChatModel(default_chat_model_path(), device="cpu", n_ctx=512)
    yield model
    model.close()


@pytest.fixture(scope="module")
def alone(smol: ChatModel) -> list[str]:
    """Each prompt's greedy reply from a ChatSession, one at a time on the model's own context."""
    return [ChatSession(smol, SYSTEM).reply(p, greedy()).text for p in PROMPTS]


def prompt(model: ChatModel, text: str) -> list[int]:
    return model.tokenize(model.prompt_format.render([Message("system", SYSTEM), Message("user", text)]))


class Collector:
    """A job's callbacks: its pieces and its result, handed over through a queue."""

    def __init__(self) -> None:
        self.pieces: list[str] = []
        self.done: queue.Queue[BatchResult] = queue.Queue()

    def result(self) -> BatchResult:
        return self.done.get(timeout=WAIT)


def submit(engine: BatchEngine, tokens: list[int], params: SamplingParams) -> Collector:
    c = Collector()
    engine.submit(tokens, params, on_text=c.pieces.append, on_done=c.done.put)
    return c


def test_replies_decoded_together_equal_each_alone(smol: ChatModel, alone: list[str]) -> None:
    with BatchEngine(smol, parallel=len(PROMPTS), n_ctx=256) as engine:
        jobs = [submit(engine, prompt(smol, p), greedy()) for p in PROMPTS]
        results = [j.result() for j in jobs]
    for job, result, expected in zip(jobs, results, alone, strict=True):
        assert result.text == expected and result.finish in ("eog", "max_tokens")
        assert "".join(job.pieces) == result.text
        assert result.generated_tokens > 0 and result.time_to_first_token is not None


def test_more_requests_than_sequences_wait_their_turn(smol: ChatModel, alone: list[str]) -> None:
    with BatchEngine(smol, parallel=1, n_ctx=256) as engine:
        jobs = [submit(engine, prompt(smol, p), greedy()) for p in PROMPTS]
        assert [j.result().text for j in jobs] == alone


def test_a_repeated_prompt_reuses_the_cached_prefix(smol: ChatModel) -> None:
    tokens = prompt(smol, PROMPTS[0])
    with BatchEngine(smol, parallel=2, n_ctx=256) as engine:
        first = submit(engine, tokens, greedy(4)).result()
        second = submit(engine, tokens, greedy(4)).result()
    assert first.cached_tokens == 0 and second.cached_tokens == len(tokens) - 1
    assert first.text == second.text and second.prompt_tokens == len(tokens)


def test_cancel_stops_the_reply_before_its_next_token(smol: ChatModel, alone: list[str]) -> None:
    with BatchEngine(smol, parallel=2, n_ctx=256) as engine:
        other = submit(engine, prompt(smol, PROMPTS[1]), greedy())
        pieces: list[str] = []
        done: queue.Queue[BatchResult] = queue.Queue()
        job = None
        ready = threading.Event()

        def on_text(piece: str) -> None:
            pieces.append(piece)
            ready.wait(WAIT)
            assert job is not None
            job.cancel()  # on the engine thread, as a server's disconnect would be seen between tokens

        job = engine.submit(prompt(smol, PROMPTS[0]), greedy(200), on_text=on_text, on_done=done.put)
        ready.set()
        result = done.get(timeout=WAIT)
        assert result.finish == "cancelled"
        assert pieces == [result.text]  # no token after the one whose piece cancelled it
        assert other.result().text == alone[1]  # the other sequence goes on undisturbed


def test_a_waiting_request_cancelled_leaves_the_line(smol: ChatModel) -> None:
    with BatchEngine(smol, parallel=1, n_ctx=256, max_queue=1) as engine:
        running = submit(engine, prompt(smol, PROMPTS[0]), greedy(64))
        waiting = Collector()
        job = engine.submit(prompt(smol, PROMPTS[1]), greedy(), on_done=waiting.done.put)
        with pytest.raises(QueueFullError):
            engine.submit(prompt(smol, PROMPTS[2]), greedy())
        job.cancel()
        assert waiting.result().finish == "cancelled" and waiting.pieces == []
        third = submit(engine, prompt(smol, PROMPTS[2]), greedy(4))  # its place is free again
        assert running.result().finish in ("eog", "max_tokens")
        assert third.result().generated_tokens > 0
        assert not engine.busy


def test_limits_and_close(smol: ChatModel) -> None:
    with pytest.raises(InvalidSettingError):
        BatchEngine(smol, parallel=0)
    engine = BatchEngine(smol, parallel=2, n_ctx=64)
    with pytest.raises(ContextOverflowError):
        engine.submit(list(range(100, 100 + engine.n_ctx)), greedy())
    running = submit(engine, prompt(smol, PROMPTS[0]), greedy(200))
    engine.close()
    assert running.result().finish in ("cancelled", "eog", "context")
    with pytest.raises(ModelClosedError):
        engine.submit(prompt(smol, PROMPTS[0]), greedy())
