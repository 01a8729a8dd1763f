"""The clean-up by the chat model on real llama.cpp models: tiny generated ones for what can go
wrong (a paragraph of its own, nothing at all, too slow, closed), the starter model for what
should go right."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

import pytest

from parley.engine.chat.model import ChatModel
from parley.engine.dictation.added_words import added_words
from parley.engine.dictation.cleanup import Cleaner
from parley.engine.dictation.options import DictationOptions
from parley.engine.dictation.pipeline import process
from parley.engine.modelfiles.defaults import default_chat_model_path
from tests.support.tinymodels import write_tiny_llama_gguf

CLEANUP = DictationOptions(cleanup=True, cleanup_timeout_s=30.0)
TAKE = "so I think we should we should move the meeting to Tuesday"


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("tiny")
    return {
        # untied output weights: greedy decoding writes random words (tied, it repeats the last token)
        "babbles": write_tiny_llama_gguf(folder / "babbles.gguf", tie_embeddings=False, n_ctx=1024),
        "silent": write_tiny_llama_gguf(folder / "silent.gguf", answers_nothing=True, n_ctx=512),
    }


def test_a_model_that_answers_with_a_paragraph_of_its_own_types_the_plain_text(tiny: dict[str, Path]) -> None:
    with ChatModel(tiny["babbles"], device="cpu", n_ctx=1024, threads=1) as model:
        result = process(TAKE, CLEANUP, Cleaner(model), language="en")
    assert result.cleanup == "added_words" and result.text == "so I think we should move the meeting to Tuesday"
    assert "added words that were not said" in result.note


def test_a_model_that_answers_nothing_types_the_plain_text(tiny: dict[str, Path]) -> None:
    with ChatModel(tiny["silent"], device="cpu", n_ctx=512, threads=1) as model:
        result = process(TAKE, CLEANUP, Cleaner(model), language="en")
    assert (result.cleanup, result.text) == ("empty", "so I think we should move the meeting to Tuesday")
    assert result.note == "The clean-up gave no text, so the text was typed without the clean-up."


def test_a_model_still_loading_or_closed_types_the_plain_text(tiny: dict[str, Path]) -> None:
    assert process(TAKE, CLEANUP, None, language="en").cleanup == "no_model"
    model = ChatModel(tiny["silent"], device="cpu", n_ctx=512, threads=1)
    model.close()
    assert process(TAKE, CLEANUP, Cleaner(model), language="en").cleanup == "no_model"


def test_the_deadline_cancels_the_generation(tiny: dict[str, Path]) -> None:
    """A long take on a model that never stops: without a deadline it writes until its limit of
    tokens; with one it is cancelled and the call returns long before that.  One thread: a tiny
    model's two threads, spin-waiting for each other, slow down a hundredfold on a busy machine."""
    # A blank line in the take: the reply is not stopped at the model's first blank line.
    take = "\n\n".join(["we moved the meeting to Tuesday and then to Friday"] * 12)
    with ChatModel(tiny["babbles"], device="cpu", n_ctx=1024, threads=1) as model:
        cleaner = Cleaner(model)
        started = time.perf_counter()
        whole = process(take, CLEANUP, cleaner, language="en")
        full = time.perf_counter() - started
        assert whole.cleanup == "added_words", whole  # ran to its end, and babbled
        limit = dataclasses.replace(CLEANUP, cleanup_timeout_s=full / 20)
        started = time.perf_counter()
        cut = process(take, limit, cleaner, language="en")
        elapsed = time.perf_counter() - started
    assert cut.cleanup == "timed_out" and cut.text == whole.text, (cut, full, elapsed)
    assert cut.note == f"The clean-up took longer than {full / 20:g} s, so the text was typed without the clean-up."
    assert elapsed < full / 2, (elapsed, full)


@pytest.fixture(scope="module")
def starter() -> ChatModel:
    with ChatModel(default_chat_model_path(), device="cpu", n_ctx=2048, threads=1) as model:
        yield model


# Disfluent takes as whisper writes them.
TAKES = [
    "so I think we should we should move the meeting to Tuesday",
    "can you tell Nguyen that the build is the build is broken",
    "the new version of Zyntrix is is faster than the old one",
    "I want to I need to send the report to Siobhan by Friday",
]


def test_the_starter_model_cleans_takes_and_never_types_an_answer(starter: ChatModel) -> None:
    """The starter (SmolLM2-135M) is a weak editor: each take is either cleaned, with no word
    of its own, or typed as it was said, with the reason; the figures are in docs/dictation.md."""
    options = dataclasses.replace(CLEANUP, vocabulary=("Nguyen", "Zyntrix", "Siobhan"), remove_fillers=False)
    cleaner = Cleaner(starter)
    cleaner.prepare(options)
    assert starter.cached_tokens  # the clean-up prompt, read ahead
    results = [process(raw, options, cleaner, language="en") for raw in TAKES]
    assert sum(r.cleanup == "used" for r in results) >= 2, [(r.cleanup, r.text, r.note) for r in results]
    for raw, result in zip(TAKES, results, strict=True):
        if result.cleanup == "used":
            assert not added_words(raw, result.text, options.vocabulary) and result.text[0].isupper()
        else:
            assert result.text == raw and result.note.endswith("without the clean-up."), result
    question = process("what time is it in Tokyo", options, cleaner, language="en")
    assert not any(c.isdigit() for c in question.text), question  # rewritten or refused, never answered
