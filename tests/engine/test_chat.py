"""The chat engine on the real native build: the default SmolLM2 model and tiny random models.

One SmolLM2 model is loaded for the module; the tiny random-weight models (GPT-2's tokenizer)
are written once into a temporary folder.  Replies are greedy wherever the text matters.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from parley.cli import main as cli_main
from parley.engine.backend.cancel import CancelToken
from parley.engine.chat.model import ChatModel, ChatSession, Message, SamplingParams
from parley.engine.chat.prompt_format import DialogueFormat, ReplyStream
from parley.engine.errors import (
    Cancelled,
    ContextOverflowError,
    ContextSizeError,
    InvalidHistoryError,
    MaxTokensError,
    ModelClosedError,
    ModelFileError,
    NothingToRegenerateError,
    ThreadCountError,
)
from parley.engine.modelfiles.defaults import default_chat_model_path
from parley.engine.modelfiles.gpt2_convert import convert_gpt2_ggml_to_gguf
from tests.support.tinymodels import (
    CHATML_TEMPLATE,
    vocab_source,
    write_tiny_gpt2_gguf,
    write_tiny_gpt2_legacy_ggml,
    write_tiny_llama_gguf,
)

SYSTEM = "You are a helpful assistant."


def greedy(max_tokens: int = 48, **kw: object) -> SamplingParams:
    return SamplingParams(temperature=0, max_tokens=max_tokens, **kw)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def smol() -> ChatModel:
    model = ChatModel(default_chat_model_path(), device="cpu", n_ctx=2048)
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


def test_prefill_reads_the_conversation_before_the_message_and_changes_no_reply(smol: ChatModel) -> None:
    history = [Message("user", "Name three colours of the rainbow."), Message("assistant", "Red, orange and yellow.")]
    question = "Which one of those is the colour of a ripe tomato?"
    smol.clear_cache()
    fresh = ChatSession(smol, SYSTEM, history).reply(question, greedy(24))

    smol.clear_cache()
    session = ChatSession(smol, SYSTEM, history)
    read = session.prefill()
    assert read > len(smol.tokenize(SYSTEM))  # the system prompt and both turns
    assert session.prefill() == 0  # read already
    reply = session.reply(question, greedy(24))
    assert reply.text == fresh.text  # the same answer, word for word
    assert reply.stats.cached_tokens >= read - 1
    assert reply.stats.prompt_tokens <= len(smol.tokenize(question)) + 12  # little more than the message
    assert reply.stats.prompt_tokens < fresh.stats.prompt_tokens - read + 12


def test_prefill_reads_the_message_heard_so_far_and_changes_no_reply(smol: ChatModel) -> None:
    """While the user still speaks, the words heard so far (but the last, which may grow) are
    read too: the reply then reads only the rest, and answers word for word as without."""
    question = "Which colour is a ripe tomato, and which colour is a lemon?"
    smol.clear_cache()
    fresh = ChatSession(smol, SYSTEM).reply(question, greedy(24))

    smol.clear_cache()
    session = ChatSession(smol, SYSTEM)
    conversation = session.prefill()
    heard = session.prefill(message_start="Which colour is a ripe tom")
    assert heard >= len(smol.tokenize("Which colour is a ripe")) - 1
    assert session.prefill(message_start="Which colour is a ripe tom") == 0  # read already
    reply = session.reply(question, greedy(24))
    assert reply.text == fresh.text
    assert reply.stats.cached_tokens >= conversation + heard - 1
    assert reply.stats.prompt_tokens < fresh.stats.prompt_tokens - conversation - heard + 12

    # Heard wrongly: the reply reads again from where the two part, and still answers alike.
    smol.clear_cache()
    session = ChatSession(smol, SYSTEM)
    session.prefill(message_start="Witch colours are ripe to")
    assert session.reply(question, greedy(24)).text == fresh.text


def test_a_message_read_whole_while_the_speaker_paused_leaves_one_token_for_the_reply(smol: ChatModel) -> None:
    """The user paused with the key held: the words heard are read with the start of the reply,
    so the reply reads one token (its prompt's last, again, for the logits) and answers word for
    word as without.  When they went on after all, it reads from where the two part."""
    question = "Which colour is a ripe tomato?"
    smol.clear_cache()
    fresh = ChatSession(smol, SYSTEM).reply(question, greedy(24))

    smol.clear_cache()
    session = ChatSession(smol, SYSTEM)
    read = session.prefill(message_start=question, whole=True)
    assert read == fresh.stats.prompt_tokens  # the whole prompt of the reply
    assert session.prefill(message_start=question, whole=True) == 0  # read already
    reply = session.reply(question, greedy(24))
    assert reply.text == fresh.text and reply.stats.prompt_tokens == 1

    smol.clear_cache()
    session = ChatSession(smol, SYSTEM)
    session.prefill(message_start="Which colour is a ripe", whole=True)  # then "tomato?" came
    reply = session.reply(question, greedy(24))
    assert reply.text == fresh.text
    assert 1 < reply.stats.prompt_tokens < fresh.stats.prompt_tokens // 2


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


@pytest.mark.parametrize(
    "kw",
    [
        {},
        {"ignore_eos": True},
        {"repeat_penalty": 1.0},
        {"repeat_penalty": 0.8},
        {"repeat_penalty": 1.5, "ignore_eos": True},
    ],
)
def test_greedy_picks_the_tokens_of_llama_cpps_greedy_chain(
    smol: ChatModel, monkeypatch: pytest.MonkeyPatch, kw: dict[str, object]
) -> None:
    """The greedy sampler computes in numpy what llama.cpp's chain (bias, penalty, greedy) does;
    the replies must be the same token for token."""
    from parley.engine.chat import model as chat
    from parley.engine.chat.sampling import ChainSampler

    def run() -> list[int]:
        smol.clear_cache()
        ChatSession(smol, SYSTEM).reply("Count from one to twenty, then say it again.", greedy(160, **kw))
        return smol.cached_tokens

    ours = run()
    monkeypatch.setattr(chat, "make_sampler", ChainSampler)
    assert run() == ours


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
    assert smol.cached_tokens[: len(prompt)] == prompt
    session.reset("Answer in one word.")
    assert session.messages == [Message("system", "Answer in one word.")]
    with pytest.raises(NothingToRegenerateError):
        session.regenerate()
    with pytest.raises(InvalidHistoryError, match="not 'tool'"):
        session.reset("", [Message("user", "hi"), Message("tool", "{}")])
    assert session.messages == [Message("system", "Answer in one word.")]


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
        assert model.cached_tokens[: len(system_tokens)] == system_tokens
    assert len(session.messages) == 21  # every message is kept; only the prompt leaves old ones out
    assert reply.stats.dropped_messages > 0
    # Old turns were shifted in the KV cache rather than evaluated again.
    assert reply.stats.cached_tokens > reply.stats.prompt_tokens


def test_reply_reaching_the_end_of_the_context() -> None:
    # The real model: its replies tokenize back to the same tokens, unlike a random model's.
    with ChatModel(default_chat_model_path(), device="cpu", n_ctx=128) as model:
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
    with pytest.raises(ContextOverflowError, match="too many for the 256-token context") as info:
        session.reply("word " * 300, greedy(8))
    assert info.value.n_ctx == 256 and info.value.tokens > 256 - 16
    assert session.messages == [Message("system", "System.")]
    with pytest.raises(MaxTokensError):
        session.reply("Fine now.", greedy(0))
    assert session.messages == [Message("system", "System.")]
    assert session.reply("Fine now.", greedy(8, ignore_eos=True)).stats.generated_tokens == 8


# --------------------------------------------------------------------------- callbacks and threads
#
# Each scenario runs in a child process with a timeout, so that a deadlock fails the test
# instead of hanging the suite (a thread stuck on the model's lock could not be cleaned up).

SCENARIO_TIMEOUT = 120  # seconds; only reached when the model deadlocks
_SCENARIO_HEAD = """
import json, sys, threading
from parley.engine.chat.model import ChatModel, ChatSession, SamplingParams
from parley.engine.errors import ModelBusyError, ModelClosedError
model = ChatModel(sys.argv[1], device="cpu", n_ctx=256, threads=1)
session = ChatSession(model, "Be brief.")
params = SamplingParams(max_tokens=48, seed=1, ignore_eos=True)
seen = {}
"""


def _run_scenario(model_path: Path, body: str) -> dict[str, object]:
    import json
    import os
    import subprocess
    import sys

    repo = Path(__file__).resolve().parents[2]
    try:
        proc = subprocess.run(
            [sys.executable, "-c", _SCENARIO_HEAD + body, str(model_path)],
            capture_output=True,
            text=True,
            timeout=SCENARIO_TIMEOUT,
            env={**os.environ, "PYTHONPATH": str(repo)},
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"the scenario did not finish within {SCENARIO_TIMEOUT} s: the model deadlocked")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_a_callback_may_use_the_model_and_gets_busy_for_new_work(tiny_files: dict[str, Path]) -> None:
    result = _run_scenario(
        tiny_files["llama"],
        """
def on_text(piece):
    if "tokens" in seen:
        return
    seen["tokens"] = model.tokenize(piece)
    seen["cached"] = len(model.cached_tokens)
    for name, call in (("reply", lambda: session.reply("again", params)), ("reset", session.reset),
                       ("evaluate", lambda: model.evaluate([1, 2])), ("clear", model.clear_cache)):
        try:
            call()
            seen[name] = "ran"
        except ModelBusyError as exc:
            seen[name] = "busy: " + str(exc)
reply = session.reply("Hello, who are you?", params, on_text=on_text)
print(json.dumps({**seen, "finish": reply.finish, "generated": reply.stats.generated_tokens,
                  "roles": [m.role for m in session.messages]}))
""",
    )
    assert result["tokens"] and result["cached"] > 0
    for name in ("reply", "reset", "evaluate", "clear"):
        assert str(result[name]).startswith("busy: the chat model is busy"), result
    assert result["finish"] == "max_tokens" and result["generated"] == 48
    assert result["roles"] == ["system", "user", "assistant"]


def test_closing_from_the_callback_ends_the_reply_as_cancelled(tiny_files: dict[str, Path]) -> None:
    result = _run_scenario(
        tiny_files["llama"],
        """
pieces = []
def on_text(piece):
    pieces.append(piece)
    if len(pieces) == 3:
        model.close()
reply = session.reply("Hello, who are you?", params, on_text=on_text)
try:
    session.reply("And now?", params)
    after = "replied"
except ModelClosedError as exc:
    after = str(exc)
print(json.dumps({"finish": reply.finish, "text": reply.text, "pieces": "".join(pieces), "after": after,
                  "generated": reply.stats.generated_tokens}))
""",
    )
    assert result["finish"] == "cancelled" and result["generated"] == 3
    assert result["text"] == result["pieces"] and result["text"]
    assert result["after"] == "the chat model is closed"


def test_close_from_another_thread_cancels_the_reply_instead_of_waiting(tiny_files: dict[str, Path]) -> None:
    """The reply's callback waits until ``close()`` on another thread has returned; with a
    close that waited for the whole reply, neither could finish (the wait times out)."""
    result = _run_scenario(
        tiny_files["llama"],
        """
closed = threading.Event()
def closer():
    model.close()
    closed.set()
def on_text(piece):
    if "closer" not in seen:
        seen["closer"] = threading.Thread(target=closer)
        seen["closer"].start()
        seen["closed_meanwhile"] = closed.wait(30)
reply = session.reply("Hello, who are you?", SamplingParams(max_tokens=200, seed=1, ignore_eos=True),
                      on_text=on_text)
seen["closer"].join(60)
print(json.dumps({"closed_meanwhile": seen["closed_meanwhile"], "finish": reply.finish,
                  "generated": reply.stats.generated_tokens}))
""",
    )
    assert result["closed_meanwhile"] is True
    assert result["finish"] == "cancelled" and result["generated"] == 1


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
    with pytest.raises(ModelClosedError):
        session.reply("Hello")
    with pytest.raises(ModelClosedError):
        model.tokenize("Hello")
    model.close()  # twice is fine
    with pytest.raises(Cancelled):
        ChatModel(tiny_files["gpt2"], device="cpu", n_ctx=64, progress=lambda fraction: False)
    with pytest.raises(ContextSizeError, match="at least 32 tokens, not 8"):
        ChatModel(tiny_files["gpt2"], device="cpu", n_ctx=8)
    with pytest.raises(ThreadCountError, match="not -2"):
        ChatModel(tiny_files["gpt2"], device="cpu", threads=-2)


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
    out = [
        stream.push(b"  caf"),
        stream.push(b"\xc3"),
        stream.push(b"\xa9 \xf0\x9f"),
        stream.push(b"\x98\x80\n"),
        stream.push(b"Us"),
        stream.push(b"er: more"),
    ]
    assert out == ["caf", "", "é", " 😀", "", ""]
    assert stream.stopped and stream.text == "café 😀"
    stream = ReplyStream(["STOP"])
    assert stream.push(b"ST") == "" and stream.push(b"AY here\n") == "STAY here"
    assert stream.push(b"\xe2\x82") == "" and stream.finish() == "" and stream.text == "STAY here"


@pytest.mark.parametrize(
    ("reply", "shown"),
    [
        ("<think>\nThe user asks about France. Paris.\n</think>\n\nParis is the capital.", "Paris is the capital."),
        ("<think>\n\n</think>\n\nParis.", "Paris."),  # Qwen3 told /no_think: an empty step
        ("<think>\nStill thinking when the reply was cut", ""),
        ("<b>Bold</b> and <think> later is text.", "<b>Bold</b> and <think> later is text."),
        ("< three", "< three"),
    ],
)
def test_a_thinking_step_that_opens_the_reply_is_neither_shown_nor_said(reply: str, shown: str) -> None:
    stream = ReplyStream([])
    data = reply.encode()
    pieces = [stream.push(data[i : i + 3]) for i in range(0, len(data), 3)] + [stream.finish()]
    assert "".join(pieces) == stream.text == shown


def test_a_model_that_thinks_unless_told_is_told_not_to(tmp_path: Path) -> None:
    """Qwen3 and SmolLM3 think before answering unless the system prompt says /no_think (their
    templates take ``enable_thinking``): a voice cannot wait, so Parley says it, unless the
    user's own prompt chose /think or /no_think.  Other models' prompts are left alone."""
    thinker = write_tiny_llama_gguf(
        tmp_path / "thinker.gguf", chat_template="{# enable_thinking #}" + CHATML_TEMPLATE, n_ctx=256
    )
    plain = write_tiny_llama_gguf(tmp_path / "plain.gguf", n_ctx=256)
    with ChatModel(thinker, device="cpu", n_ctx=256, threads=1) as model:
        assert model.thinks_unless_told
        session = ChatSession(model, "Be brief.")
        session.messages.append(Message("user", "Hi"))
        assert "<|im_start|>system\nBe brief.\n/no_think<|im_end|>" in session._prompt(session.prompt_messages())
        mine = ChatSession(model, "Think hard. /think")
        assert "/no_think" not in mine._prompt(mine.prompt_messages())
        bare = ChatSession(model)
        assert bare._prompt([Message("user", "Hi")]).startswith("<|im_start|>system\n/no_think<|im_end|>")
    with ChatModel(plain, device="cpu", n_ctx=256, threads=1) as model:
        assert not model.thinks_unless_told
        assert "/no_think" not in ChatSession(model, "Be brief.")._prompt([Message("system", "Be brief.")])


def test_dialogue_format() -> None:
    text = DialogueFormat().render(
        [Message("system", "Be nice."), Message("user", "Hi"), Message("assistant", "Hello!"), Message("user", "Bye")]
    )
    assert text == "Be nice.\n\nUser: Hi\nAssistant: Hello!\nUser: Bye\nAssistant:"


def test_cli_one_prompt(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli_main(
        [
            "chat",
            "--prompt",
            "What is the capital of France?",
            "--temp",
            "0",
            "--max-tokens",
            "24",
            "--stats",
            "--device",
            "cpu",
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0 and "Paris" in out
    assert "prompt:" in err and "tokens/s" in err and "first token" in err


def test_cli_bad_model_and_settings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["chat", "--model", str(tmp_path / "none.gguf"), "--prompt", "hi"]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert cli_main(["chat", "--ctx", "8", "--prompt", "hi"]) == 2
    assert "context length must be at least 32 tokens" in capsys.readouterr().err
    assert cli_main(["chat", "--max-tokens", "0", "--prompt", "hi", "--device", "cpu"]) == 2
    assert "longest reply must be at least 1 token" in capsys.readouterr().err
