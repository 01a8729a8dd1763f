"""``parley serve``'s tool calls, through the ``openai`` package.

Qwen2.5-Coder-0.5B (the smaller model pack) calls a tool on its own, in its template's Hermes
form, whole and streamed with argument deltas, and answers from the tool's result.  Forced calls
(``tool_choice`` a function or "required") are held to the function's schema by a grammar, so
the starter model and a tiny random one always produce arguments that parse and fit.  A random
model in ``auto`` writes noise, which comes back as content, never as an error; a chat template
that loops for ever or reaches for Python objects is left aside and the model still answers.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import jsonschema
import openai
import pytest

from parley.engine.chat.model import ChatModel
from parley.engine.library import packs
from parley.engine.modelfiles.defaults import default_chat_model_path
from parley.server import ServerHandle, ServerOptions, start_server
from tests.support.requirements import require
from tests.support.tinymodels import CHATML_TEMPLATE, write_tiny_llama_gguf

WAIT = 120.0
WEATHER: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "The current weather in a city",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string", "maxLength": 20}, "unit": {"enum": ["celsius", "fahrenheit"]}},
            "required": ["city", "unit"],
            "additionalProperties": False,
        },
    },
}
ADD: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "add",
        "parameters": {
            "type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
            "required": ["a", "b"],
            "additionalProperties": False,
        },
    },
}
ASK = [{"role": "user", "content": "What is the weather in Paris right now?"}]
# A Hermes-style template with tools, for the tiny model (Qwen2.5's layout, shortened).
HERMES_TEMPLATE = (
    "{% if tools %}<|im_start|>system\n<tools>{% for t in tools %}{{ t | tojson }}{% endfor %}</tools><|im_end|>\n"
    "{% endif %}{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content or '' }}"
    "{% if m.tool_calls %}{% for c in m.tool_calls %}<tool_call>{{ c.function | tojson }}</tool_call>{% endfor %}"
    "{% endif %}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
HOSTILE_TEMPLATE = (
    "{{ ''.__class__.__mro__ }}{% for a in range(99999) %}{% for b in range(99999) %}{% endfor %}{% endfor %}"
    + CHATML_TEMPLATE
)


def serve(path: Any, n_ctx: int = 2048) -> Iterator[ServerHandle]:
    model = ChatModel(path, device="cpu", n_ctx=n_ctx)
    handle = start_server(model, None, ServerOptions(port=0, parallel=1, n_ctx=n_ctx))
    yield handle
    handle.stop()
    model.close()


@pytest.fixture(scope="module")
def qwen() -> Iterator[ServerHandle]:
    state = packs.pack_state(packs.find_pack("qwen2.5-coder-0.5b"))
    require(state.usable, "the 0.5B model pack (./setup.sh test)")
    yield from serve(packs.pack_path(state.pack))


@pytest.fixture(scope="module")
def starter() -> Iterator[ServerHandle]:
    yield from serve(default_chat_model_path(), 1024)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerHandle]:
    path = tmp_path_factory.mktemp("tiny") / "tiny.gguf"
    yield from serve(write_tiny_llama_gguf(path, n_ctx=1024, never_ends=True, chat_template=HERMES_TEMPLATE), 1024)


def client_of(server: ServerHandle) -> openai.OpenAI:
    return openai.OpenAI(base_url=f"{server.address}/v1", api_key="unused", max_retries=0, timeout=WAIT)


def check_call(call: Any, tool: dict[str, Any]) -> dict[str, Any]:
    assert call.type == "function" and call.id and call.function.name == tool["function"]["name"]
    arguments: dict[str, Any] = json.loads(call.function.arguments)
    jsonschema.validate(arguments, tool["function"]["parameters"])
    return arguments


def test_qwen_calls_the_tool_and_answers_from_its_result(qwen: ServerHandle) -> None:
    client = client_of(qwen)
    reply = client.chat.completions.create(model="m", messages=ASK, tools=[WEATHER, ADD], temperature=0, max_tokens=80)
    choice = reply.choices[0]
    assert choice.finish_reason == "tool_calls" and choice.message.tool_calls
    call = choice.message.tool_calls[0]
    assert check_call(call, WEATHER)["city"] == "Paris"
    # Streamed: the same call, its arguments in several deltas.
    deltas, finish = [], None
    for chunk in client.chat.completions.create(
        model="m", messages=ASK, tools=[WEATHER, ADD], temperature=0, max_tokens=80, stream=True
    ):
        deltas += chunk.choices[0].delta.tool_calls or []
        finish = chunk.choices[0].finish_reason or finish
    assert finish == "tool_calls" and deltas[0].id and deltas[0].function and deltas[0].function.name == "get_weather"
    arguments = "".join(d.function.arguments or "" for d in deltas if d.function)
    assert json.loads(arguments) == json.loads(call.function.arguments) and len(deltas) > 2
    # The tool's result goes back through the template; the model answers from it.
    result = [
        *ASK,
        {"role": "assistant", "content": None, "tool_calls": [call.model_dump()]},
        {"role": "tool", "tool_call_id": call.id, "content": '{"temperature": 31, "sky": "clear"}'},
    ]
    answer = client.chat.completions.create(
        model="m", messages=result, tools=[WEATHER, ADD], temperature=0, max_tokens=60, tool_choice="none"
    )
    assert answer.choices[0].finish_reason == "stop" and "31" in (answer.choices[0].message.content or "")


def test_a_forced_call_fits_the_schema_even_on_the_starter(starter: ServerHandle) -> None:
    client = client_of(starter)
    for choice in ({"type": "function", "function": {"name": "get_weather"}}, "required"):
        reply = client.chat.completions.create(
            model="m", messages=ASK, tools=[WEATHER], tool_choice=choice, temperature=0, max_tokens=80
        )
        assert reply.choices[0].finish_reason == "tool_calls"
        check_call(reply.choices[0].message.tool_calls[0], WEATHER)


def test_a_random_model_forced_or_free(tiny: ServerHandle) -> None:
    client = client_of(tiny)
    for seed in (1, 2, 3):
        reply = client.chat.completions.create(
            model="m", messages=ASK, tools=[WEATHER, ADD], tool_choice="required", temperature=1.0, seed=seed,
            max_tokens=300,
        )  # fmt: skip
        calls = reply.choices[0].message.tool_calls
        assert reply.choices[0].finish_reason == "tool_calls" and calls and len(calls) == 1
        check_call(calls[0], WEATHER if calls[0].function.name == "get_weather" else ADD)
    # Free to write anything: noise comes back as content.
    reply = client.chat.completions.create(
        model="m", messages=ASK, tools=[WEATHER], temperature=1.0, seed=5, max_tokens=30
    )
    assert reply.choices[0].finish_reason == "length" and not reply.choices[0].message.tool_calls
    assert isinstance(reply.choices[0].message.content, str)


def test_a_hostile_template_is_left_aside_and_the_model_still_answers(tmp_path: Any) -> None:
    path = write_tiny_llama_gguf(tmp_path / "hostile.gguf", n_ctx=512, chat_template=HOSTILE_TEMPLATE)
    for handle in serve(path, 512):
        reply = client_of(handle).chat.completions.create(
            model="m", messages=ASK, tools=[WEATHER], tool_choice="required", max_tokens=100
        )
        check_call(reply.choices[0].message.tool_calls[0], WEATHER)


def test_tool_requests_beyond_the_bounds_get_a_400(tiny: ServerHandle) -> None:
    client = client_of(tiny)
    huge = {**WEATHER, "function": {**WEATHER["function"], "description": "x" * (1 << 20)}}
    bad: list[dict[str, Any]] = [
        {"tools": [huge]},
        {"tools": [WEATHER], "tool_choice": {"type": "function", "function": {"name": "nope"}}},
        {"tools": [{"type": "function", "function": {"name": "bad name!"}}]},
        {"tools": [WEATHER, WEATHER]},
        {"tools": [{**ADD, "function": {**ADD["function"], "parameters": {"type": "object", "not": {}}}}],
         "tool_choice": "required"},
    ]  # fmt: skip
    for extra in bad:
        with pytest.raises(openai.BadRequestError):
            client.chat.completions.create(model="m", messages=ASK, max_tokens=2, **extra)
    assert client.chat.completions.create(model="m", messages=ASK, max_tokens=2).choices
