"""``parley serve``'s structured output and log-probabilities, through the ``openai`` package.

``chat.completions.parse`` with a pydantic model sends the model's strict JSON schema; the
server holds the reply to it with a grammar, so even a tiny random-weight model's reply parses
into the model.  The starter model answers a real question the same way.  A schema beyond what
a grammar holds gets a 400 naming the keyword.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from typing import Annotated, Literal

import openai
import pytest
from pydantic import BaseModel, Field

from parley.engine.chat.model import ChatModel
from parley.engine.modelfiles.defaults import default_chat_model_path
from parley.server import ServerHandle, ServerOptions, start_server
from tests.support.tinymodels import write_tiny_llama_gguf

WAIT = 120.0


class Owner(BaseModel):
    first: str = Field(max_length=8)
    born: str = Field(json_schema_extra={"format": "date"})


class Pet(BaseModel):
    name: str = Field(max_length=10)
    kind: Literal["cat", "dog", "fish"]
    age: int = Field(ge=0, le=30)
    weight: float = Field(ge=0, le=80)
    tags: list[Annotated[str, Field(max_length=5)]] = Field(max_length=3)
    owner: Owner | None
    happy: bool


class Capital(BaseModel):
    city: str
    country: str


@pytest.fixture(scope="module")
def tiny_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerHandle]:
    path = write_tiny_llama_gguf(tmp_path_factory.mktemp("tiny") / "tiny.gguf", n_ctx=1024, never_ends=True)
    model = ChatModel(path, device="cpu", n_ctx=1024, threads=2)
    handle = start_server(model, None, ServerOptions(port=0, parallel=2, n_ctx=1024))
    yield handle
    handle.stop()
    model.close()


@pytest.fixture(scope="module")
def starter_server() -> Iterator[ServerHandle]:
    model = ChatModel(default_chat_model_path(), device="cpu", n_ctx=1024)
    handle = start_server(model, None, ServerOptions(port=0, parallel=1, n_ctx=1024))
    yield handle
    handle.stop()
    model.close()


def client_of(server: ServerHandle) -> openai.OpenAI:
    return openai.OpenAI(base_url=f"{server.address}/v1", api_key="unused", max_retries=0, timeout=WAIT)


def test_a_random_model_parses_into_the_pydantic_model(tiny_server: ServerHandle) -> None:
    client = client_of(tiny_server)
    for seed in (None, 7, 8):
        completion = client.chat.completions.parse(
            model="any",
            messages=[{"role": "user", "content": "Describe a pet."}],
            response_format=Pet,
            temperature=0 if seed is None else 1.0,
            seed=seed,
            max_tokens=600,
        )
        choice = completion.choices[0]
        assert choice.finish_reason == "stop"
        pet = choice.message.parsed
        assert isinstance(pet, Pet) and pet == Pet.model_validate_json(choice.message.content or "")


def test_json_object_and_streamed_json_schema(tiny_server: ServerHandle) -> None:
    client = client_of(tiny_server)
    reply = client.chat.completions.create(
        model="any",
        messages=[{"role": "user", "content": "JSON please."}],
        response_format={"type": "json_object"},
        temperature=0,
        max_tokens=40,
    )
    assert (reply.choices[0].message.content or "").startswith("{")
    schema = {"type": "array", "items": {"enum": ["red", "green"]}, "minItems": 2, "maxItems": 4}
    stream = client.chat.completions.create(
        model="any",
        messages=[{"role": "user", "content": "Colours."}],
        response_format={"type": "json_schema", "json_schema": {"name": "colours", "schema": schema, "strict": True}},
        temperature=0,
        max_tokens=200,
        stream=True,
    )
    text = "".join(c.choices[0].delta.content or "" for c in stream if c.choices)
    colours = json.loads(text)
    assert 2 <= len(colours) <= 4 and set(colours) <= {"red", "green"}


def test_a_schema_beyond_a_grammar_gets_a_400_naming_the_keyword(tiny_server: ServerHandle) -> None:
    client = client_of(tiny_server)
    schema = {"type": "object", "properties": {"a": {"type": "string", "not": {"const": ""}}}}
    with pytest.raises(openai.BadRequestError) as caught:
        client.chat.completions.create(
            model="any",
            messages=[{"role": "user", "content": "x"}],
            response_format={"type": "json_schema", "json_schema": {"name": "n", "schema": schema}},
        )
    assert caught.value.code == "unsupported_schema" and "'not'" in caught.value.message
    assert caught.value.param is not None and caught.value.param.endswith(".not")
    recursive = {"type": "object", "properties": {"me": {"$ref": "#"}}, "required": ["me"]}
    with pytest.raises(openai.BadRequestError):
        client.chat.completions.create(
            model="any",
            messages=[{"role": "user", "content": "x"}],
            response_format={"type": "json_schema", "json_schema": {"name": "n", "schema": recursive}},
        )
    # Still serving.
    assert client.chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}], max_tokens=2)


def test_the_starter_model_answers_in_the_schema(starter_server: ServerHandle) -> None:
    completion = client_of(starter_server).chat.completions.parse(
        model="any",
        messages=[{"role": "user", "content": "What is the capital of France? Answer in JSON."}],
        response_format=Capital,
        temperature=0,
        max_tokens=60,
    )
    capital = completion.choices[0].message.parsed
    assert capital is not None and capital.city == "Paris"


def test_logprobs_on_chat_completions(starter_server: ServerHandle) -> None:
    client = client_of(starter_server)
    reply = client.chat.completions.create(
        model="any",
        messages=[{"role": "user", "content": "Say hello."}],
        temperature=0,
        max_tokens=8,
        logprobs=True,
        top_logprobs=3,
    )
    choice = reply.choices[0]
    assert choice.logprobs is not None and choice.logprobs.content
    entries = choice.logprobs.content
    assert "".join(e.token for e in entries).strip() == choice.message.content
    for entry in entries:
        assert entry.logprob <= 0 and len(entry.top_logprobs) == 3
        # Greedy: the chosen token is the most likely one.
        assert entry.top_logprobs[0].logprob == pytest.approx(entry.logprob)
        assert sum(math.exp(t.logprob) for t in entry.top_logprobs) <= 1.0 + 1e-6
        assert bytes(entry.bytes or []).decode() == entry.token
    stream = client.chat.completions.create(
        model="any",
        messages=[{"role": "user", "content": "Say hello."}],
        temperature=0,
        max_tokens=8,
        logprobs=True,
        stream=True,
    )
    streamed = [e for c in stream if c.choices and c.choices[0].logprobs for e in c.choices[0].logprobs.content or []]
    assert [e.token for e in streamed] == [e.token for e in entries]
    with pytest.raises(openai.BadRequestError):
        client.chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}], top_logprobs=30)
