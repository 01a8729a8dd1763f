"""The owners of the native handles (parley.engine.handles), on the real native build.

Each native object is freed exactly once, whatever closes it and in whatever order: ``close``
twice, ``with``, the garbage collector, or a load that fails half-way.  An object others were
made from (a model and its contexts, a whisper context and its state) outlives them.  A call
after ``close`` is a ModelClosedError, not a crash.

The frees are counted by wrapping each free function an owner registers (the real free still
runs), in ``NativeHandle._adopt``.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from parley.engine.backend.cancel import CancelToken
from parley.engine.backend.devices import DeviceChoice, select_device
from parley.engine.chat.decoder import Decoder
from parley.engine.errors import Cancelled, ModelClosedError, ModelLoadError
from parley.engine.handles.llama import (
    LlamaBatch,
    LlamaContext,
    LlamaModel,
    LlamaSampler,
    start_cpu_threadpool,
)
from parley.engine.handles.owner import NativeHandle
from parley.engine.handles.whisper import FullParams, VadContext, WhisperContext, WhisperState
from parley.engine.modelfiles import silero_convert
from parley.engine.modelfiles.defaults import default_speech_model_path, default_vad_source
from parley.engine.modelfiles.gguf_file import GGUFInfo, check_gguf
from parley.engine.modelfiles.whisper_file import WhisperFileInfo, check_whisper_ggml
from tests.support.tinymodels import write_tiny_llama_gguf

MODEL, CONTEXT, BATCH, SAMPLER, POOL = (
    "llama.cpp model",
    "llama.cpp context",
    "llama.cpp batch",
    "llama.cpp sampler",
    "CPU threadpool",
)


@pytest.fixture(scope="module")
def cpu() -> DeviceChoice:
    return select_device("cpu")


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> GGUFInfo:
    return check_gguf(write_tiny_llama_gguf(tmp_path_factory.mktemp("tiny") / "llama.gguf", n_ctx=256))


@pytest.fixture(scope="module")
def whisper_file() -> WhisperFileInfo:
    return check_whisper_ggml(default_speech_model_path())


@pytest.fixture
def freed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """What each free that runs frees (``what`` of its owner), in order."""
    calls: list[str] = []
    adopt = NativeHandle._adopt

    def counting(self: NativeHandle, handle: Any, free: Callable[[Any], object]) -> None:
        what = self.what

        def counted(h: Any) -> object:
            calls.append(what)
            return free(h)

        adopt(self, handle, counted)

    monkeypatch.setattr(NativeHandle, "_adopt", counting)
    yield calls


def context_on(model: LlamaModel, **kw: Any) -> LlamaContext:
    settings: dict[str, Any] = {"n_ctx": 64, "n_batch": 64, "n_seq_max": 1, "threads": 1, "threadpool": None}
    return LlamaContext(model, **{**settings, **kw})


# --------------------------------------------------------------------------- freed once


def test_each_llama_object_is_freed_once(tiny: GGUFInfo, cpu: DeviceChoice, freed: list[str]) -> None:
    with LlamaModel(tiny, cpu.device) as model:
        pool = start_cpu_threadpool(1)
        assert pool is not None  # our CPU backend exports ggml's threadpool
        with pool, context_on(model, threadpool=pool) as context, LlamaBatch(8) as batch, LlamaSampler() as chain:
            chain.add_greedy()
            for owner in (context, batch, chain):
                owner.close()
                owner.close()
            assert freed == [CONTEXT, BATCH, SAMPLER]
        assert freed == [CONTEXT, BATCH, SAMPLER, POOL]  # the ``with`` closed them again: nothing more
    assert freed == [CONTEXT, BATCH, SAMPLER, POOL, MODEL]
    del model, pool, context, batch, chain
    gc.collect()
    assert freed == [CONTEXT, BATCH, SAMPLER, POOL, MODEL]  # __del__ after close frees nothing


def test_a_model_closed_before_its_context_lives_until_the_context_closes(
    tiny: GGUFInfo, cpu: DeviceChoice, freed: list[str]
) -> None:
    model = LlamaModel(tiny, cpu.device)
    decoder = Decoder(model, n_ctx=64, sequences=1, threads=1)
    model.close()
    assert model.closed and freed == []
    with pytest.raises(ModelClosedError, match="the llama.cpp model is closed"):
        model.tokenize(b"hello", add_bos=False)
    with pytest.raises(ModelClosedError):
        Decoder(model, n_ctx=64, sequences=1, threads=1)  # no new context on a closed model
    assert freed == [POOL]  # that decoder's threadpool, made before the context was refused
    freed.clear()
    decoder.evaluate(0, [1, 2, 3])  # the weights are still there for the context made before
    assert decoder.kv[0] == [1, 2, 3] and decoder.context.logits().shape == (model.n_vocab,)
    decoder.close()
    assert freed == [BATCH, CONTEXT, MODEL, POOL]  # the model as soon as its last context is freed
    assert decoder.kv == [[]]


def test_the_garbage_collector_frees_a_context_before_its_model(
    tiny: GGUFInfo, cpu: DeviceChoice, freed: list[str]
) -> None:
    """Objects in a reference cycle are finalised in no particular order: the model's own
    finaliser must not free the weights while the context still uses them."""
    for close_model_first in (False, True):
        freed.clear()
        model = LlamaModel(tiny, cpu.device)
        context = context_on(model)
        cycle: dict[str, Any] = {"model": model, "context": context}
        cycle["self"] = cycle
        if close_model_first:
            model.close()
        del model, context, cycle
        gc.collect()
        assert freed == [CONTEXT, MODEL], close_model_first


def test_a_whisper_state_keeps_its_context(whisper_file: WhisperFileInfo, cpu: DeviceChoice, freed: list[str]) -> None:
    context = WhisperContext(whisper_file, cpu, flash_attn=True)
    state = WhisperState(context)
    context.close()
    assert freed == []
    assert state.n_segments() == 0
    state.close()
    state.close()
    assert freed == ["whisper.cpp state", "whisper.cpp model"]


def test_the_voice_activity_context_is_freed_once(tmp_path: Path, freed: list[str]) -> None:
    path = silero_convert.ensure_vad_model(default_vad_source(), tmp_path)
    with VadContext(path, threads=1) as vad:
        probabilities = vad.detect(np.zeros(4 * 512, dtype=np.float32))
        assert probabilities is not None and len(probabilities) == 4
    vad.close()
    assert freed == ["voice activity model"]
    with pytest.raises(ModelClosedError, match="the voice activity model is closed"):
        vad.detect(np.zeros(512, dtype=np.float32))


# --------------------------------------------------------------------------- a load that fails half-way


def test_a_decoder_that_fails_half_way_frees_what_it_made(tiny: GGUFInfo, cpu: DeviceChoice, freed: list[str]) -> None:
    """The threadpool is made, then llama.cpp refuses the context (more than its 256
    sequences): the threadpool is freed and the model is no longer in use."""
    model = LlamaModel(tiny, cpu.device)
    with pytest.raises(ModelLoadError, match="could not create a context with 300 sequences.*n_seq_max"):
        Decoder(model, n_ctx=64, sequences=300, threads=1)
    assert freed == [POOL]
    model.close()
    assert freed == [POOL, MODEL]  # freed at once: the failed context let go of it


def test_a_cancelled_model_load_leaves_nothing_to_free(tiny: GGUFInfo, cpu: DeviceChoice, freed: list[str]) -> None:
    seen: list[float] = []

    def stop(fraction: float) -> bool:
        seen.append(fraction)
        return False

    with pytest.raises(Cancelled):
        LlamaModel(tiny, cpu.device, progress=stop)
    assert seen and freed == []


# --------------------------------------------------------------------------- use after close


def test_every_owner_refuses_use_after_close(tiny: GGUFInfo, whisper_file: WhisperFileInfo, cpu: DeviceChoice) -> None:
    model = LlamaModel(tiny, cpu.device)
    decoder = Decoder(model, n_ctx=64, sequences=1, threads=1)
    context = decoder.context
    chain = LlamaSampler()
    chain.add_greedy()
    decoder.evaluate(0, model.tokenize(b"hello there", add_bos=False))
    token = chain.sample(context)
    batch = LlamaBatch(4)
    for owner in (batch, chain, decoder, model):
        owner.close()
    calls: list[Callable[[], object]] = [
        lambda: model.tokenize(b"x", add_bos=False),
        lambda: model.piece(token),
        lambda: model.chat_template(),
        lambda: context.decode(batch),
        lambda: context.logits(),
        lambda: context.stored(0),
        lambda: context.set_abort(None),
        lambda: batch.arrays(),
        lambda: chain.sample(context),
        lambda: chain.accept(token),
        lambda: decoder.put(0, token, True),
        lambda: decoder.evaluate(0, [token]),
    ]
    whisper = WhisperContext(whisper_file, cpu, flash_attn=True)
    state = WhisperState(whisper)
    state.close()
    whisper.close()
    params = FullParams(1, "en", False, True, True, True, 0, 0.0, 0.0, 0, None)
    calls += [
        lambda: state.n_segments(),
        lambda: state.full(np.zeros(16000, dtype=np.float32), params, _NoCalls(), CancelToken()),
        lambda: WhisperState(whisper),
    ]
    for call in calls:
        with pytest.raises(ModelClosedError, match="is closed"):
            call()


class _NoCalls:
    def new_segments(self, n_new: int) -> None:
        raise AssertionError("whisper_full must not run")

    def progress(self, percent: int) -> None:
        raise AssertionError("whisper_full must not run")
