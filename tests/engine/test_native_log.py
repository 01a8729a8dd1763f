"""Native log lines are captured per call and per thread, with both engines working at once.

The chat engine (tiny random llama models) and the speech engine (a tiny synthetic
multilingual whisper model) run on two threads at the same time.  The speech engine's native
error line on demand is whisper's own ``whisper_lang_id: unknown language 'xx'``; the chat
engine's are llama.cpp's load and decode errors.
"""

from __future__ import annotations

import logging
import struct
import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from parley.engine.backend.cancel import CancelToken
from parley.engine.chat.model import ChatModel, ChatSession, SamplingParams
from parley.engine.errors import DecodeError, ModelLoadError, UnknownLanguageError
from parley.engine.modelfiles.whisper_convert import convert_ct2_whisper
from parley.engine.speech import SpeechModel
from tests.support.ct2_fixtures import write_ct2_whisper
from tests.support.tinymodels import write_tiny_llama_gguf

WAIT = 60.0  # seconds; only reached if something hangs
WHISPER_LINE = "unknown language 'xx'"
CLIP = np.zeros(16000, dtype=np.float32)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("native-log")


@pytest.fixture(scope="module")
def speech(folder: Path) -> Iterator[SpeechModel]:
    source = write_ct2_whisper(folder / "ct2", size="tiny", n_vocab=51865)["source"]
    path = folder / "whisper-multilingual.bin"
    convert_ct2_whisper(source, path)
    with SpeechModel(path, device="cpu", threads=1) as model:
        assert model.multilingual
        yield model


@pytest.fixture(scope="module")
def llama(folder: Path) -> Path:
    return write_tiny_llama_gguf(folder / "llama.gguf", n_ctx=256, never_ends=True)


@pytest.fixture(scope="module")
def broken_llama(folder: Path) -> Path:
    """Passes our validation, but llama.cpp refuses it: the metadata says 3 layers, the
    tensors are those of 2 (llama.cpp logs ``tensor 'blk.2.attn_norm.weight' not found``)."""
    path = write_tiny_llama_gguf(folder / "broken.gguf", n_layer=2)
    data = bytearray(path.read_bytes())
    key = b"llama.block_count"
    at = data.index(key) + len(key) + 4  # after the key and its uint32 type tag
    assert struct.unpack_from("<I", data, at)[0] == 2
    struct.pack_into("<I", data, at, 3)
    path.write_bytes(bytes(data))
    return path


class _Lines(logging.Handler):
    """Every line that reaches the ``parley.native`` logger, with the thread that logged it."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[tuple[str, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append((record.threadName, record.getMessage()))


@pytest.fixture
def native_lines() -> Iterator[_Lines]:
    handler = _Lines()
    logger = logging.getLogger("parley.native")
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)


def _speech_failure(speech: SpeechModel) -> None:
    with pytest.raises(UnknownLanguageError):
        speech.transcribe(CLIP, language="xx")


def test_a_chat_failure_quotes_only_its_own_native_lines(
    speech: SpeechModel, broken_llama: Path, native_lines: _Lines
) -> None:
    stop, logged = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def speech_fails_over_and_over() -> None:
        try:
            while not stop.is_set():
                _speech_failure(speech)
                logged.set()
        except BaseException as exc:  # noqa: BLE001 - handed to the test thread
            errors.append(exc)
            logged.set()

    worker = threading.Thread(target=speech_fails_over_and_over, name="speech-worker")
    worker.start()
    try:
        assert logged.wait(WAIT)
        messages = []
        for _ in range(5):
            with pytest.raises(ModelLoadError) as info:
                ChatModel(broken_llama, device="cpu", n_ctx=64, threads=1)
            messages.append(str(info.value))
    finally:
        stop.set()
        worker.join(WAIT)
    assert not errors and not worker.is_alive()
    for message in messages:
        assert "tensor 'blk.2.attn_norm.weight' not found" in message, message
        assert "unknown language" not in message, message
    # The speech engine's lines were not swallowed either: they reached the log.
    assert any(t == "speech-worker" and WHISPER_LINE in m for t, m in native_lines.records)


def test_a_chat_decode_failure_quotes_llama_cpps_reason(llama: Path) -> None:
    with ChatModel(llama, device="cpu", n_ctx=64, threads=1) as model:
        with pytest.raises(DecodeError) as info:
            model.evaluate([model.n_vocab + 7])
        assert info.value.code == -1
        assert f"invalid token[0] = {model.n_vocab + 7}" in str(info.value)
        model.evaluate(model.tokenize("still works"))


def test_a_cancelled_reply_does_not_silence_the_other_engine(
    speech: SpeechModel, llama: Path, native_lines: _Lines
) -> None:
    """The reply is cancelled, and while it is still in progress (its own callback runs) the
    speech engine fails on another thread: that failure's native line must reach the log."""
    other_done = threading.Event()

    def speech_worker() -> None:
        _speech_failure(speech)
        other_done.set()

    cancel = CancelToken()

    def on_text(piece: str) -> None:
        if cancel.cancelled:
            return
        cancel.cancel()
        worker = threading.Thread(target=speech_worker, name="speech-worker")
        worker.start()
        worker.join(WAIT)

    with ChatModel(llama, device="cpu", n_ctx=256, threads=1) as model:
        reply = ChatSession(model).reply(
            "Hello there", SamplingParams(max_tokens=32, seed=1), on_text=on_text, cancel=cancel
        )
    assert other_done.is_set()
    assert reply.finish == "cancelled"
    assert [m for t, m in native_lines.records if t == "speech-worker" and WHISPER_LINE in m]


def test_a_cancelled_call_drops_its_own_abort_lines(llama: Path, native_lines: _Lines) -> None:
    """What the silencing is for: llama.cpp logs "failed to compute graph" for a decode that a
    cancel aborted; that is no error to show.  A real failure's lines do reach the log."""
    from parley.engine.errors import Cancelled

    with ChatModel(llama, device="cpu", n_ctx=256, threads=1) as model:
        cancel = CancelToken()
        cancel.cancel()
        with pytest.raises(Cancelled):
            model.evaluate(model.tokenize("word " * 100), cancel=cancel)
        assert native_lines.records == []
        with pytest.raises(DecodeError):
            model.evaluate([model.n_vocab + 7])
        assert [m for _, m in native_lines.records if "invalid token" in m]
