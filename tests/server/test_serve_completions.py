"""``parley serve``'s legacy ``/v1/completions`` through the ``openai`` package and curl.

A tiny random model with fill-in-the-middle tokens (made here) checks the prompt's layout, echo,
streaming and the legacy log-probabilities against llama.cpp run directly on the same file;
Qwen2.5-Coder (the smaller model pack) fills in a real function body between a prefix and a
suffix, as an editor's completion plugin asks it.
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import openai
import pytest

from parley.engine.chat.model import ChatModel
from parley.engine.library import packs
from parley.server import ServerHandle, ServerOptions, start_server
from tests.support.requirements import require
from tests.support.tinymodels import FIM_TOKENS_FROM_END, run_llama, write_tiny_llama_gguf

WAIT = 120.0  # seconds: a bound that only a hang reaches
PROMPT = "The quick brown fox jumps over"


def serve(path: Path, n_ctx: int = 512) -> Iterator[tuple[ServerHandle, ChatModel]]:
    model = ChatModel(path, device="cpu", n_ctx=n_ctx)
    handle = start_server(model, None, ServerOptions(port=0, parallel=2, n_ctx=n_ctx))
    yield handle, model
    handle.stop()
    model.close()


@pytest.fixture(scope="module")
def tiny_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tiny_llama_gguf(tmp_path_factory.mktemp("tiny") / "fim.gguf", n_ctx=512, never_ends=True, fim=True)


@pytest.fixture(scope="module")
def tiny(tiny_path: Path) -> Iterator[tuple[ServerHandle, ChatModel]]:
    yield from serve(tiny_path)


def client_of(server: ServerHandle) -> openai.OpenAI:
    return openai.OpenAI(base_url=f"{server.address}/v1", api_key="unused", max_retries=0, timeout=WAIT)


def test_a_greedy_completion_continues_the_prompt_as_llama_cpp_does(
    tiny: tuple[ServerHandle, ChatModel], tiny_path: Path
) -> None:
    server, model = tiny
    client = client_of(server)
    whole = client.completions.create(model="m", prompt=PROMPT, max_tokens=12, temperature=0, logprobs=5)
    choice = whole.choices[0]
    assert whole.object == "text_completion" and choice.finish_reason == "length"
    assert whole.usage is not None and whole.usage.completion_tokens == 12
    assert whole.usage.prompt_tokens == len(model.tokenize(PROMPT))
    logprobs = choice.logprobs
    assert logprobs is not None and logprobs.tokens and logprobs.token_logprobs and logprobs.top_logprobs
    assert "".join(logprobs.tokens) == choice.text  # the whitespace kept: nothing stripped
    assert logprobs.text_offset == [sum(len(t) for t in logprobs.tokens[:i]) for i in range(12)]
    for chosen, top in zip(logprobs.token_logprobs, logprobs.top_logprobs, strict=True):
        assert 1 <= len(top) <= 5 and chosen == pytest.approx(max(top.values()))  # greedy: the likeliest
    # The first token and its log-probability, from llama.cpp's logits for the same prompt
    run = run_llama(tiny_path, PROMPT)
    last = run.logits[-1].astype(np.float64)
    first = int(last.argmax())
    log_total = last.max() + math.log(np.exp(last - last.max()).sum())
    assert logprobs.tokens[0] == model.token_bytes(first).decode("utf-8", "replace")
    assert logprobs.token_logprobs[0] == pytest.approx(last[first] - log_total, abs=1e-3)

    streamed = client.completions.create(model="m", prompt=PROMPT, max_tokens=12, temperature=0, stream=True)
    assert "".join(c.choices[0].text for c in streamed) == choice.text
    echoed = client.completions.create(model="m", prompt=[PROMPT], max_tokens=12, temperature=0, echo=True)
    assert echoed.choices[0].text == PROMPT + choice.text


def test_a_suffix_is_laid_out_for_fill_in_the_middle(tiny: tuple[ServerHandle, ChatModel]) -> None:
    server, model = tiny
    client = client_of(server)
    prefix, suffix = "def add(a, b):\n    return ", "\n\nprint(add(1, 2))\n"
    filled = client.completions.create(model="m", prompt=prefix, suffix=suffix, max_tokens=10, temperature=0)
    pre, suf, mid = (model.n_vocab - back for back in FIM_TOKENS_FROM_END)
    head, tail = model.llama.tokenize(prefix.encode(), False), model.llama.tokenize(suffix.encode(), False)
    layout = [pre, *head, suf, *tail, mid]
    assert filled.usage is not None and filled.usage.prompt_tokens == len(layout) + model.llama.adds_bos
    by_ids = client.completions.create(model="m", prompt=layout, max_tokens=10, temperature=0)
    assert filled.choices[0].text == by_ids.choices[0].text and filled.choices[0].text


def test_what_the_completions_api_refuses(tiny: tuple[ServerHandle, ChatModel], tmp_path: Path) -> None:
    client = client_of(tiny[0])
    cases = [
        ({"logprobs": 6}, "logprobs"),
        ({"echo": True, "logprobs": 1}, "echo"),
        ({"n": 2}, "n"),
        ({"best_of": 3}, "best_of"),
        ({"max_tokens": 100_000}, "max_tokens"),
    ]
    for extra, param in cases:
        with pytest.raises(openai.BadRequestError) as caught:
            client.completions.create(model="m", prompt=PROMPT, **extra)  # type: ignore[call-overload]
        assert caught.value.body["param"] == param, extra  # type: ignore[index]
    for prompt in ([1, -5], [[1], [2]], 7):
        with pytest.raises(openai.BadRequestError) as caught:
            client.completions.create(model="m", prompt=prompt, max_tokens=2)  # type: ignore[arg-type]
        assert caught.value.body["param"] == "prompt"  # type: ignore[index]
    plain = write_tiny_llama_gguf(tmp_path / "plain.gguf", n_ctx=256, never_ends=True)
    for server, _ in serve(plain, 256):
        with pytest.raises(openai.BadRequestError) as caught:
            client_of(server).completions.create(model="m", prompt="def f():", suffix="\n", max_tokens=4)
        assert caught.value.body["param"] == "suffix"  # type: ignore[index]
        assert "fill-in-the-middle" in caught.value.message


def test_curl_streams_a_completion(tiny: tuple[ServerHandle, ChatModel]) -> None:
    curl = shutil.which("curl")
    require(curl, "curl (Debian package curl)")
    assert curl is not None
    body = {"prompt": PROMPT, "max_tokens": 6, "temperature": 0, "stream": True}
    body["stream_options"] = {"include_usage": True}
    url = f"{tiny[0].address}/v1/completions"
    out = subprocess.run(
        [curl, "-sN", "-H", "Content-Type: application/json", "-d", json.dumps(body), url],
        capture_output=True,
        text=True,
        timeout=WAIT,
        check=True,
    ).stdout
    events = [line.removeprefix("data: ") for line in out.splitlines() if line.startswith("data: ")]
    assert events[-1] == "[DONE]"
    chunks = [json.loads(e) for e in events[:-1]]
    assert all(c["object"] == "text_completion" for c in chunks)
    assert chunks[-1]["usage"]["completion_tokens"] == 6 and chunks[-2]["choices"][0]["finish_reason"] == "length"
    whole = client_of(tiny[0]).completions.create(model="m", prompt=PROMPT, max_tokens=6, temperature=0)
    assert "".join(c["choices"][0]["text"] for c in chunks[:-1]) == whole.choices[0].text


def test_qwen_coder_fills_in_a_function_body() -> None:
    state = packs.pack_state(packs.find_pack("qwen2.5-coder-0.5b"))
    require(state.usable, "the 0.5B model pack (./setup.sh test)")
    for server, _ in serve(packs.pack_path(state.pack), 1024):
        filled = client_of(server).completions.create(
            model="m",
            prompt="def area_of_rectangle(width, height):\n    return ",
            suffix="\n\n\nprint(area_of_rectangle(3, 4))  # 12\n",
            max_tokens=16,
            temperature=0,
        )
        assert filled.choices[0].text.replace(" ", "").startswith(("width*height", "height*width"))
