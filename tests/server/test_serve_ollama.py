"""Ollama's API on ``parley serve``'s port, through the real ``ollama`` Python package and curl.

A tiny random model with fill-in-the-middle tokens (made here) checks that each Ollama route
answers what the same request gets on the OpenAI side (greedy, so the texts must be equal),
streamed as JSON lines or whole; Qwen2.5-Coder (the smaller model pack) calls a tool through
``ollama.chat`` and answers from its result.  Model management is refused with a pointer to
Parley's library, and the security rules of the OpenAI routes hold here too.
"""

from __future__ import annotations

import http.client
import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import ollama
import openai
import pytest

from parley.engine.chat.model import ChatModel
from parley.engine.library import packs
from parley.server import ServerHandle, ServerOptions, start_server
from tests.support.requirements import require
from tests.support.tinymodels import write_tiny_llama_gguf

WAIT = 120.0  # seconds: a bound that only a hang reaches
# Seeded sampling, the same draw on either API (a random model's greedy reply is line breaks)
SEEDED = {"temperature": 1.0, "seed": 3, "num_predict": 8}
QUESTION = "Name three colours."


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerHandle]:
    path = write_tiny_llama_gguf(tmp_path_factory.mktemp("tiny") / "tiny.gguf", n_ctx=512, never_ends=True, fim=True)
    model = ChatModel(path, device="cpu", n_ctx=512, threads=2)
    handle = start_server(model, None, ServerOptions(port=0, parallel=2, n_ctx=512, ollama_port=0))
    yield handle
    handle.stop()
    model.close()


def ollama_of(server: ServerHandle) -> ollama.Client:
    return ollama.Client(host=server.address, timeout=WAIT)


def openai_of(server: ServerHandle) -> openai.OpenAI:
    return openai.OpenAI(base_url=f"{server.address}/v1", api_key="unused", max_retries=0, timeout=WAIT)


def openai_chat(server: ServerHandle, messages: list[dict[str, Any]], **extra: Any) -> str:
    """The OpenAI route's reply with the same sampling as ``SEEDED`` (``extra`` overrides)."""
    fields: dict[str, Any] = {"temperature": 1.0, "seed": 3, "max_tokens": 8, **extra}
    if "response_format" in extra:
        fields |= {"temperature": 0, "seed": None}
    reply = openai_of(server).chat.completions.create(model="m", messages=messages, **fields)
    return reply.choices[0].message.content or ""


def test_the_client_lists_shows_and_reports_the_loaded_model(tiny: ServerHandle) -> None:
    client = ollama_of(tiny)
    conn = http.client.HTTPConnection(tiny.host, tiny.port, timeout=WAIT)
    conn.request("GET", "/api/version")
    assert json.loads(conn.getresponse().read())["version"]  # the package has no call for it
    conn.close()
    listed = client.list().models
    assert [m.model for m in listed] == ["tiny:latest"]
    assert listed[0].details is not None and listed[0].details.format == "gguf" and listed[0].details.family == "llama"
    assert listed[0].size and listed[0].size > 0
    shown = client.show("llama3.2")  # any name is the loaded model
    assert shown.capabilities is not None and {"completion", "tools", "insert"} <= set(shown.capabilities)
    assert shown.modelinfo is not None and shown.modelinfo["general.architecture"] == "llama"
    assert shown.template and "<|im_start|>" in shown.template
    assert [m.model for m in client.ps().models] == ["tiny:latest"]


def test_chat_and_generate_answer_as_the_openai_routes_do(tiny: ServerHandle) -> None:
    client = ollama_of(tiny)
    messages = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": QUESTION}]
    expected = openai_chat(tiny, messages)
    whole = client.chat(model="llama3.2", messages=messages, options=SEEDED, keep_alive="5m")
    assert whole.message.role == "assistant" and whole.message.content == expected and expected
    assert whole.done and whole.done_reason == "length" and whole.eval_count == 8
    assert whole.prompt_eval_count and whole.total_duration and whole.total_duration > 0
    chunks = list(client.chat(model="x", messages=messages, options=SEEDED, stream=True, keep_alive=0))
    assert "".join(c.message.content or "" for c in chunks) == expected
    assert chunks[-1].done and not any(c.done for c in chunks[:-1]) and chunks[-1].eval_count == 8

    generated = client.generate(model="x", prompt=QUESTION, system="Be brief.", options=SEEDED)
    assert generated.response == expected and generated.done_reason == "length"
    streamed = client.generate(model="x", prompt=QUESTION, system="Be brief.", options=SEEDED, stream=True)
    assert "".join(c.response for c in streamed) == expected

    completions = openai_of(tiny).completions
    raw = client.generate(model="x", prompt="Once upon a time", raw=True, options=SEEDED)
    assert (
        raw.response
        == completions.create(model="m", prompt="Once upon a time", max_tokens=8, temperature=1.0, seed=3)
        .choices[0]
        .text
    )
    filled = client.generate(model="x", prompt="def f(x):\n    return ", suffix="\n\nprint(f(2))\n", options=SEEDED)
    legacy = completions.create(
        model="m", prompt="def f(x):\n    return ", suffix="\n\nprint(f(2))\n", max_tokens=8, temperature=1.0, seed=3
    )
    assert filled.response == legacy.choices[0].text
    loaded = client.generate(model="x", prompt="")  # Ollama's way to load a model
    assert loaded.done and loaded.done_reason == "load"


def test_format_holds_the_reply_to_json_and_a_schema(tiny: ServerHandle) -> None:
    client = ollama_of(tiny)
    ask = [{"role": "user", "content": "A pet, as JSON."}]
    any_json = client.chat(model="x", messages=ask, format="json", options={"temperature": 0, "num_predict": 40})
    assert (any_json.message.content or "").startswith("{")  # a random model's strings may not end in 40 tokens
    assert any_json.message.content == openai_chat(tiny, ask, response_format={"type": "json_object"}, max_tokens=40)
    schema = {
        "type": "object",
        "properties": {"name": {"type": "string", "maxLength": 8}, "age": {"type": "integer", "minimum": 0}},
        "required": ["name", "age"],
        "additionalProperties": False,
    }
    pet = client.chat(model="x", messages=ask, format=schema, options={"temperature": 0, "num_predict": 200})
    jsonschema.validate(json.loads(pet.message.content or ""), schema)


def test_model_management_is_refused_with_a_pointer_to_the_library(tiny: ServerHandle) -> None:
    client = ollama_of(tiny)
    attempts = [
        lambda: client.pull("llama3.2"),
        lambda: client.push("me/model"),
        lambda: client.delete("tiny:latest"),
        lambda: client.copy("tiny:latest", "other"),
        lambda: client.create("mine", from_="tiny:latest"),
    ]
    for attempt in attempts:
        with pytest.raises(ollama.ResponseError) as caught:
            attempt()
        assert caught.value.status_code == 403 and "model library" in caught.value.error


def test_bad_requests_get_ollamas_error_shape(tiny: ServerHandle) -> None:
    client = ollama_of(tiny)
    with pytest.raises(ollama.ResponseError) as caught:
        client.chat(model="x", messages=[])
    assert caught.value.status_code == 400 and "messages" in caught.value.error
    with pytest.raises(ollama.ResponseError) as caught:
        client.chat(model="x", messages=[{"role": "user", "content": "hi"}], options={"num_predict": 100_000})
    assert caught.value.status_code == 400 and "num_predict" in caught.value.error
    with pytest.raises(ollama.ResponseError) as caught:
        client.generate(model="x", prompt="hi", context=[1, 2, 3])
    assert caught.value.status_code == 400 and "/api/chat" in caught.value.error


def post(server: ServerHandle, path: str, body: bytes, headers: dict[str, str]) -> tuple[int, Any]:
    conn = http.client.HTTPConnection(server.host, server.port, timeout=WAIT)
    try:
        conn.request("POST", path, body=body, headers=headers)
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


def test_the_security_rules_hold_on_ollamas_routes(tiny: ServerHandle) -> None:
    body = json.dumps({"model": "x", "prompt": "hi", "stream": False, "options": {"num_predict": 2}}).encode()
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    # curl -d sends a form type: fine from a program, which sends no Origin
    assert post(tiny, "/api/generate", body, form)[0] == 200
    # a web page's simple request (no preflight) is refused; its Host names another site
    status, answer = post(tiny, "/api/generate", body, {**form, "Origin": "http://evil.example"})
    assert status == 415 and isinstance(answer["error"], str)
    status, answer = post(tiny, "/api/generate", body, {"Host": "evil.example", "Content-Type": "application/json"})
    assert status == 400 and "localhost" in answer["error"]


def test_the_ollama_port_serves_the_same_routes(tiny: ServerHandle) -> None:
    assert tiny.ollama_address is not None and tiny.ollama_address != tiny.address
    client = ollama.Client(host=tiny.ollama_address, timeout=WAIT)
    assert [m.model for m in client.list().models] == ["tiny:latest"]


def test_curl_reads_json_lines(tiny: ServerHandle) -> None:
    curl = shutil.which("curl")
    require(curl, "curl (Debian package curl)")
    assert curl is not None
    body = {"model": "x", "messages": [{"role": "user", "content": QUESTION}], "options": SEEDED}
    out = subprocess.run(
        [curl, "-sN", f"{tiny.address}/api/chat", "-d", json.dumps(body)],  # Ollama's docs' own form
        capture_output=True,
        text=True,
        timeout=WAIT,
        check=True,
    ).stdout
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) >= 2 and lines[-1]["done"] and not any(line["done"] for line in lines[:-1])
    assert "".join(line["message"]["content"] for line in lines) == openai_chat(tiny, body["messages"])


def get_weather(city: str, unit: str) -> str:
    """The current weather in a city.

    Args:
      city: the city's name
      unit: celsius or fahrenheit
    """
    return f"18 degrees {unit} and sunny in {city}"


QWEN = {"temperature": 0, "num_predict": 80}


def test_qwen_calls_a_python_function_through_ollama() -> None:
    state = packs.pack_state(packs.find_pack("qwen2.5-coder-0.5b"))
    require(state.usable, "the 0.5B model pack (./setup.sh test)")
    model = ChatModel(packs.pack_path(state.pack), device="cpu", n_ctx=2048)
    server = start_server(model, None, ServerOptions(port=0, parallel=1, n_ctx=2048))
    try:
        client = ollama_of(server)
        messages: list[Any] = [{"role": "user", "content": "What is the weather in Paris right now, in celsius?"}]
        reply = client.chat(model="qwen2.5-coder", messages=messages, tools=[get_weather], options=QWEN)
        calls = reply.message.tool_calls
        assert calls and calls[0].function.name == "get_weather"
        arguments = dict(calls[0].function.arguments)
        assert arguments["city"] == "Paris"
        messages += [reply.message, {"role": "tool", "tool_name": "get_weather", "content": get_weather(**arguments)}]
        # Without tools on offer (the OpenAI test's tool_choice "none": offered them, the 0.5B model calls again)
        answer = client.chat(model="qwen2.5-coder", messages=messages, options=QWEN)
        assert not answer.message.tool_calls and "18" in (answer.message.content or "")
        streamed = list(client.chat(model="x", messages=messages[:1], tools=[get_weather], options=QWEN, stream=True))
        found = [c for chunk in streamed for c in chunk.message.tool_calls or []]
        assert [c.function.name for c in found] == ["get_weather"] and streamed[-1].done
    finally:
        server.stop()
        model.close()


def test_the_tiny_model_file_name_is_its_listed_name(tmp_path: Path) -> None:
    """A model is listed under its file's name with Ollama's tag, as `ollama list` shows names."""
    path = write_tiny_llama_gguf(tmp_path / "My-Model.Q4.gguf", n_ctx=256)
    model = ChatModel(path, device="cpu", n_ctx=256, threads=1)
    server = start_server(model, None, ServerOptions(port=0, parallel=1, n_ctx=256))
    try:
        assert [m.model for m in ollama_of(server).list().models] == ["My-Model.Q4:latest"]
    finally:
        server.stop()
        model.close()
