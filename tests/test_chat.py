"""The chat engine on the real native build: the default SmolLM2 model and tiny random models.

One SmolLM2 model is loaded for the module; the tiny random-weight models (GPT-2's tokenizer)
are written once into a temporary folder.  Replies are greedy wherever the text matters.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from parley.cli import main as cli_main
from parley.engine.cancel import CancelToken
from parley.engine.chat import ChatModel, ChatSession, Message, SamplingParams
from parley.engine.chat_format import DialogueFormat, ReplyStream
from parley.engine.errors import Cancelled, ModelFileError, ParleyError
from parley.engine.gpt2_convert import convert_gpt2_ggml_to_gguf
from parley.engine.models import default_chat_model_path
from tests.tinymodels import vocab_source, write_tiny_gpt2_gguf, write_tiny_gpt2_legacy_ggml, write_tiny_llama_gguf

SYSTEM = "You are a helpful assistant."


def greedy(max_tokens: int = 48, **kw: object) -> SamplingParams:
    return SamplingParams(temperature=0, max_tokens=max_tokens, **kw)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def smol() -> ChatModel:
    model = ChatModel(default_chat_model_path(), device="cpu", n_ctx=2048, threads=2)
    yield model
    model.close()


@pytest.fixture(scope="module")
def tiny_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("tiny")
    legacy = write_tiny_gpt2_legacy_ggml(folder / "ggml-model.bin")
    converted = folder / "gpt2-converted.gguf"
    convert_gpt2_ggml_to_gguf(legacy, converted, vocab=vocab_source())
    return {
        "llama": write_tiny_llama_gguf(folder / "llama.gguf", n_ctx=256),
        "gpt2": write_tiny_gpt2_gguf(folder / "gpt2.gguf", n_ctx=256),
        "gpt2-legacy": converted,
    }


@pytest.fixture(scope="module")
def tiny_llama(tiny_files: dict[str, Path]) -> ChatModel:
    model = ChatModel(tiny_files["llama"], device="cpu", n_ctx=256, threads=2)
    yield model
    model.close()


# --------------------------------------------------------------------------- the real model


def test_default_model_answers_and_streams(smol: ChatModel) -> None:
    assert smol.has_template and smol.prompt_format.name == "template"
    assert smol.device.device.kind == "cpu" and smol.n_ctx == 2048
    session = ChatSession(smol, SYSTEM)
    pieces: list[str] = []
    reply = session.reply("What is the capital of France?", greedy(), on_text=pieces.append)
    assert "Paris" in reply.text
    assert len(pieces) > 1 and "".join(pieces) == reply.text
    assert reply.finish in ("eog", "max_tokens")
    assert [m.role for m in session.messages] == ["system", "user", "assistant"]
    assert session.messages[-1].content == reply.text
    s = reply.stats
    assert s.prompt_tokens > 0 and s.generated_tokens > 0 and s.prompt_tps > 0 and s.gen_tps > 0
    assert 0 < s.time_to_first_token <= s.prompt_seconds + s.generation_seconds


def test_second_turn_evaluates_only_the_new_tokens(smol: ChatModel) -> None:
    session = ChatSession(smol, SYSTEM)
    first = session.reply("Name three colours of the rainbow.", greedy(32))
    question = "Which one of those colours is the colour of the sky on a clear day?"
    second = session.reply(question, greedy(32))
    new_tokens = len(smol.tokenize(question))
    history = first.stats.context_tokens  # the first prompt and reply, in the KV cache
    assert second.stats.prompt_tokens <= new_tokens + 12  # ChatML adds about 10 tokens per turn
    assert second.stats.cached_tokens >= history - 2
    assert second.stats.prompt_tokens < history
    # The same prompt again (regenerate) evaluates only its last token, for its logits.
    again = session.regenerate(greedy(32))
    assert again.stats.prompt_tokens == 1
    assert len(session.messages) == 5 and session.messages[-1].content == again.text


def test_cancel_mid_reply_keeps_the_partial_reply(smol: ChatModel) -> None:
    session = ChatSession(smol, SYSTEM)
    cancel = CancelToken()
    third_piece, cancelled = threading.Event(), threading.Event()
    pieces: list[str] = []

    def on_text(piece: str) -> None:
        pieces.append(piece)
        if len(pieces) == 3:
            third_piece.set()
            cancelled.wait()  # the other thread has cancelled before generation goes on

    def canceller() -> None:
        third_piece.wait()
        cancel.cancel()
        cancelled.set()

    thread = threading.Thread(target=canceller)
    thread.start()
    params = SamplingParams(max_tokens=400, seed=1, ignore_eos=True)
    reply = session.reply("Tell me a long story about a dragon.", params, on_text=on_text, cancel=cancel)
    thread.join()
    assert reply.finish == "cancelled"
    assert reply.stats.generated_tokens < 400
    assert reply.text == "".join(pieces) and reply.text
    assert session.messages[-1] == Message("assistant", reply.text)
    after = session.reply("What is the capital of France?", greedy(24))
    assert after.finish in ("eog", "max_tokens") and after.text


def test_cancelled_before_start_and_during_prompt_evaluation(smol: ChatModel) -> None:
    session = ChatSession(smol, SYSTEM)
    cancel = CancelToken()
    cancel.cancel()
    reply = session.reply("Hello!", greedy(), cancel=cancel)
    assert reply.finish == "cancelled" and reply.text == "" and reply.stats.generated_tokens == 0
    assert session.messages[-1] == Message("assistant", "")
    # The abort callback reaches llama_decode: a long evaluation stops before any batch is done.
    smol.clear_cache()
    with pytest.raises(Cancelled):
        smol.evaluate(smol.tokenize("word " * 600), cancel=cancel)
    assert smol.cached_tokens == []
    assert session.reply("Hello!", greedy(16)).finish in ("eog", "max_tokens")


def test_non_ascii_streams_whole_characters(smol: ChatModel) -> None:
    session = ChatSession(smol, SYSTEM)
    pieces: list[str] = []
    reply = session.reply("Write the word café followed by three emoji.", greedy(40), on_text=pieces.append)
    assert "".join(pieces) == reply.text
    assert any(ord(c) > 127 for c in reply.text)
    assert "\ufffd" not in reply.text
    for piece in pieces:
        piece.encode("utf-8")  # no lone surrogates


def test_stop_strings_are_never_emitted(smol: ChatModel) -> None:
    session = ChatSession(smol, SYSTEM)
    pieces: list[str] = []
    reply = session.reply("What is the capital of France?", greedy(stop=["Paris"]), on_text=pieces.append)
    assert reply.finish == "stop"
    assert "Par" not in "".join(pieces) and "".join(pieces) == reply.text
    assert reply.text and "France" in reply.text


def test_history_and_reset(smol: ChatModel) -> None:
    history = [Message("user", "My name is Ada."), Message("assistant", "Nice to meet you, Ada!")]
    session = ChatSession(smol, SYSTEM, history)
    reply = session.reply("What is my name?", greedy(24))
    prompt = smol.tokenize(smol.prompt_format.render(session.messages[:4]))
    assert reply.stats.cached_tokens + reply.stats.prompt_tokens == len(prompt)  # the history was in it
    assert smol.cached_tokens[:len(prompt)] == prompt
    session.reset("Answer in one word.")
    assert session.messages == [Message("system", "Answer in one word.")]
    with pytest.raises(ParleyError):
        session.regenerate()


# --------------------------------------------------------------------------- the context window


def test_conversation_longer_than_the_context(tiny_llama: ChatModel) -> None:
    model = tiny_llama
    assert model.n_ctx == 256
    session = ChatSession(model, "You are a test system prompt.")
    system_part = model.prompt_format.render(session.messages[:1]).rsplit("<|im_start|>assistant", 1)[0]
    system_tokens = model.tokenize(system_part)
    params = greedy(40, ignore_eos=True)
    for turn in range(10):
        reply = session.reply(f"This is user message number {turn}, with a few more words in it.", params)
        assert reply.finish == "max_tokens" and reply.stats.generated_tokens == 40
        assert reply.stats.context_tokens <= model.n_ctx
        assert session.prompt_messages()[0] == Message("system", "You are a test system prompt.")
        assert model.cached_tokens[:len(system_tokens)] == system_tokens
    assert len(session.messages) == 21  # every message is kept; only the prompt leaves old ones out
    assert reply.stats.dropped_messages > 0
    # Old turns were shifted in the KV cache rather than evaluated again.
    assert reply.stats.cached_tokens > reply.stats.prompt_tokens


def test_reply_reaching_the_end_of_the_context() -> None:
    # The real model: its replies tokenize back to the same tokens, unlike a random model's.
    with ChatModel(default_chat_model_path(), device="cpu", n_ctx=128, threads=2) as model:
        session = ChatSession(model, "System.")
        first = session.reply("Hello there.", greedy(250, ignore_eos=True))
        assert first.finish == "context"  # nothing older to leave out
        assert first.stats.context_tokens == model.n_ctx
        second = session.reply("Short.", greedy(10, ignore_eos=True))
        # This reply does not fit after the previous turn: that turn is left out mid-reply and it goes on.
        third = session.reply("Again.", greedy(100, ignore_eos=True))
        assert third.finish == "max_tokens" and third.stats.generated_tokens == 100
        assert third.stats.dropped_messages > second.stats.dropped_messages
        assert session.reply("Still working?", greedy(8, ignore_eos=True)).stats.generated_tokens == 8
        assert [m.role for m in session.messages] == ["system"] + ["user", "assistant"] * 4


def test_message_too_long_for_the_context(tiny_llama: ChatModel) -> None:
    session = ChatSession(tiny_llama, "System.")
    with pytest.raises(ParleyError, match="too many for the 256-token context"):
        session.reply("word " * 300, greedy(8))
    assert session.messages == [Message("system", "System.")]
    assert session.reply("Fine now.", greedy(8, ignore_eos=True)).stats.generated_tokens == 8


# --------------------------------------------------------------------------- other models and files


@pytest.mark.parametrize("kind", ["llama", "gpt2", "gpt2-legacy"])
def test_tiny_models_generate_exactly_max_tokens(tiny_files: dict[str, Path], kind: str) -> None:
    with ChatModel(tiny_files[kind], device="cpu", n_ctx=128, threads=2) as model:
        assert model.prompt_format.name == ("template" if kind == "llama" else "dialogue")
        session = ChatSession(model, "Be brief.")
        pieces: list[str] = []
        reply = session.reply("Hello, who are you?", greedy(24, ignore_eos=True), on_text=pieces.append)
        assert reply.finish == "max_tokens" and reply.stats.generated_tokens == 24
        assert "".join(pieces) == reply.text


def test_load_progress_cancel_and_close(tiny_files: dict[str, Path]) -> None:
    fractions: list[float] = []
    model = ChatModel(tiny_files["gpt2"], device="cpu", n_ctx=64, progress=fractions.append)
    assert fractions and fractions[-1] == 1.0
    session = ChatSession(model)
    model.close()
    with pytest.raises(ParleyError, match="closed"):
        session.reply("Hello")
    with pytest.raises(Cancelled):
        ChatModel(tiny_files["gpt2"], device="cpu", n_ctx=64, progress=lambda fraction: False)


def test_bad_model_files(tmp_path: Path) -> None:
    truncated = tmp_path / "truncated.gguf"
    with default_chat_model_path().open("rb") as fh:
        truncated.write_bytes(fh.read(1 << 20))
    text = tmp_path / "notes.gguf"
    text.write_text("not a model")
    for path in (tmp_path / "missing.gguf", truncated, tmp_path, text):
        with pytest.raises(ModelFileError) as info:
            ChatModel(path, device="cpu")
        assert str(path) in str(info.value)


# --------------------------------------------------------------------------- formatting pieces


def test_reply_stream_utf8_stop_and_whitespace() -> None:
    stream = ReplyStream(["\nUser:"])
    out = [stream.push(b"  caf"), stream.push(b"\xc3"), stream.push(b"\xa9 \xf0\x9f"), stream.push(b"\x98\x80\n"),
           stream.push(b"Us"), stream.push(b"er: more")]
    assert out == ["caf", "", "é", " 😀", "", ""]
    assert stream.stopped and stream.text == "café 😀"
    stream = ReplyStream(["STOP"])
    assert stream.push(b"ST") == "" and stream.push(b"AY here\n") == "STAY here"
    assert stream.push(b"\xe2\x82") == "" and stream.finish() == "" and stream.text == "STAY here"


def test_dialogue_format() -> None:
    text = DialogueFormat().render([Message("system", "Be nice."), Message("user", "Hi"),
                                    Message("assistant", "Hello!"), Message("user", "Bye")])
    assert text == "Be nice.\n\nUser: Hi\nAssistant: Hello!\nUser: Bye\nAssistant:"


def test_cli_one_prompt(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli_main(["chat", "--prompt", "What is the capital of France?", "--temp", "0",
                     "--max-tokens", "24", "--stats", "--device", "cpu"])
    out, err = capsys.readouterr()
    assert code == 0 and "Paris" in out
    assert "prompt:" in err and "tokens/s" in err and "first token" in err


def test_cli_bad_model(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["chat", "--model", str(tmp_path / "none.gguf"), "--prompt", "hi"]) == 2
    assert "does not exist" in capsys.readouterr().err
