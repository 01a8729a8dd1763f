"""JSON Schema to grammar, and replies held to it by llama.cpp's grammar sampler.

A tiny random-weight model writes noise, so whatever JSON it writes under a grammar is the
grammar's doing: each schema's replies (greedy, and sampled with several seeds) must parse and
validate against the schema with an independent validator (``jsonschema``), formats checked
with the standard library.  SmolLM2 shows that a real model still writes what it would have.
Schemas the grammar cannot hold are refused by name.
"""

from __future__ import annotations

import datetime
import ipaddress
import json
import re
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from parley.engine.chat import constrained
from parley.engine.chat.batch import BatchEngine, BatchResult
from parley.engine.chat.gbnf import MAX_REPEAT
from parley.engine.chat.json_schema import json_object_grammar, schema_grammar
from parley.engine.chat.model import ChatModel, Message, SamplingParams
from parley.engine.errors import GrammarError, SchemaError
from parley.engine.handles.llama import LlamaGrammar
from parley.engine.modelfiles.defaults import default_chat_model_path
from tests.support.tinymodels import write_tiny_llama_gguf

WAIT = 120.0

PET = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "maxLength": 12},
        "age": {"type": "integer", "minimum": 0, "maximum": 130},
        "weight": {"type": "number", "minimum": 0, "maximum": 80},
        "ok": {"type": "boolean"},
        "kind": {"enum": ["cat", "dog", 3, None]},
        "tags": {"type": "array", "items": {"type": "string", "maxLength": 5}, "minItems": 1, "maxItems": 3},
        "owner": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/person"}]},
    },
    "required": ["name", "age", "weight", "ok", "kind", "tags", "owner"],
    "additionalProperties": False,
    "$defs": {
        "person": {
            "type": "object",
            "properties": {"first": {"type": "string", "maxLength": 6}, "born": {"type": "string", "format": "date"}},
            "required": ["first", "born"],
            "additionalProperties": False,
        }
    },
}

SCHEMAS: dict[str, dict[str, Any]] = {
    "pet": PET,
    "optional properties": {
        "type": "object",
        "properties": {k: {"type": "integer", "exclusiveMinimum": -5, "exclusiveMaximum": 1000} for k in "abcd"},
        "required": ["c"],
    },
    "tuple": {"type": "array", "prefixItems": [{"const": "x"}, {"type": "boolean"}], "items": False, "minItems": 2},
    "formats": {
        "type": "object",
        "properties": {f: {"type": "string", "format": f} for f in ("date-time", "time", "uuid", "ipv4", "ipv6")},
        "required": ["date-time", "time", "uuid", "ipv4", "ipv6"],
        "additionalProperties": False,
    },
    "pattern": {"type": "string", "pattern": r"^(?:[A-Z]{2}|\d)-[a-f\d]{3,5}(x|yz)?$"},
    "tree": {
        "$defs": {
            "node": {
                "type": "object",
                "properties": {"v": {"type": "integer"}, "kids": {"$ref": "#/$defs/kids"}},
                "required": ["v", "kids"],
                "additionalProperties": False,
            },
            "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}, "maxItems": 2},
        },
        "$ref": "#/$defs/node",
    },
    "map": {
        "type": "object",
        "additionalProperties": {"type": "integer", "minimum": 7, "maximum": 7},
        "propertyNames": {"pattern": "^[a-z]{1,3}$"},
        "minProperties": 1,
        "maxProperties": 4,
    },
    "negative range": {"type": "integer", "minimum": -1234, "maximum": -17},
}


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ChatModel]:
    path = write_tiny_llama_gguf(tmp_path_factory.mktemp("tiny") / "tiny.gguf", n_ctx=1024, never_ends=True)
    model = ChatModel(path, device="cpu", n_ctx=1024, threads=2)
    yield model
    model.close()


@pytest.fixture(scope="module")
def tiny_engine(tiny: ChatModel) -> Iterator[BatchEngine]:
    engine = BatchEngine(tiny, parallel=4, n_ctx=1024)
    yield engine
    engine.close()


def run(engine: BatchEngine, prompt: str, params: SamplingParams) -> BatchResult:
    done = threading.Event()
    results: list[BatchResult] = []
    model = engine.model
    tokens = model.tokenize(model.prompt_format.render([Message("user", prompt)]))
    engine.submit(tokens, params, on_done=lambda r: (results.append(r), done.set()))
    assert done.wait(WAIT)
    return results[0]


def check_formats(value: Any) -> None:
    """The string formats, checked by the standard library."""
    datetime.datetime.fromisoformat(value["date-time"].replace("Z", "+00:00"))
    datetime.time.fromisoformat(value["time"].replace("Z", "+00:00"))
    uuid.UUID(value["uuid"])
    ipaddress.IPv4Address(value["ipv4"])
    ipaddress.IPv6Address(value["ipv6"])


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_a_random_model_writes_only_json_that_the_schema_accepts(tiny_engine: BatchEngine, name: str) -> None:
    schema = SCHEMAS[name]
    grammar = schema_grammar(schema)
    seeds: list[int | None] = [None, 1, 2, 3]
    for seed in seeds:
        params = SamplingParams(
            temperature=0 if seed is None else 1.0, seed=seed, max_tokens=700, repeat_penalty=1.0, grammar=grammar
        )
        result = run(tiny_engine, "Write JSON.", params)
        assert result.finish == "eog", (seed, result.text[-200:])
        value = json.loads(result.text)
        jsonschema.validate(value, schema)
        if name == "formats":
            check_formats(value)
        if name == "pattern":
            assert re.fullmatch(schema["pattern"], value)


@pytest.mark.parametrize("penalty", [1.0, 1.3])
def test_greedy_choices_after_a_refusal_are_those_of_the_whole_vocabulary(
    tiny_engine: BatchEngine, penalty: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    # After a refusal the best allowed token is looked for among the largest logits first; the
    # replies must be token for token those of the pass over the whole vocabulary.  The random
    # model strays from the grammar at most tokens, so both ways are taken many times.
    replies: dict[str, list[BatchResult]] = {"shortcut": [], "whole": []}
    for way in ("shortcut", "whole"):
        if way == "whole":
            monkeypatch.setattr(constrained, "CANDIDATES", ())
        for name in ("pet", "formats", "map"):
            params = SamplingParams(
                temperature=0, max_tokens=300, repeat_penalty=penalty, grammar=schema_grammar(SCHEMAS[name])
            )
            replies[way].append(run(tiny_engine, "Write JSON.", params))
    assert [r.text for r in replies["shortcut"]] == [r.text for r in replies["whole"]]
    shortcut, whole = replies["shortcut"], replies["whole"]
    assert sum(r.refused_tokens for r in shortcut) == sum(r.refused_tokens for r in whole) > 50
    assert sum(r.full_passes for r in whole) == sum(r.refused_tokens for r in whole)
    # A random model's logits are nearly flat, so the allowed tokens are often not among the
    # largest (a real model's are: see bench/bench_structured.py); the shortcut still settles some.
    assert sum(r.full_passes for r in shortcut) < sum(r.refused_tokens for r in shortcut)


def test_json_object_mode_gives_an_object(tiny_engine: BatchEngine) -> None:
    # Any object may nest without end, and a random model would: the reply is cut at max_tokens,
    # and what was written is a prefix of an object.
    params = SamplingParams(temperature=0, max_tokens=60, grammar=json_object_grammar())
    result = run(tiny_engine, "Write JSON.", params)
    assert result.text.startswith("{")


def test_the_real_model_still_says_what_it_would(tmp_path: Path) -> None:
    model = ChatModel(default_chat_model_path(), device="cpu", n_ctx=1024)
    engine = BatchEngine(model, parallel=1, n_ctx=1024)
    try:
        schema = {
            "type": "object",
            "properties": {"city": {"type": "string"}, "country": {"type": "string"}},
            "required": ["city", "country"],
            "additionalProperties": False,
        }
        prompt = 'What is the capital of France? Answer in JSON like {"city": "...", "country": "..."}.'
        params = SamplingParams(temperature=0, max_tokens=60, repeat_penalty=1.0, grammar=schema_grammar(schema))
        result = run(engine, prompt, params)
        assert result.finish == "eog"
        answer = json.loads(result.text)
        assert answer["city"] == "Paris" and answer["country"].lower() == "france"
    finally:
        engine.close()
        model.close()


@pytest.mark.parametrize(
    ("schema", "keyword"),
    [
        ({"type": "string", "not": {"const": "x"}}, "not"),
        ({"type": "array", "items": {"type": "integer"}, "uniqueItems": True}, "uniqueItems"),
        ({"type": "object", "patternProperties": {"^a": {}}}, "patternProperties"),
        ({"type": "number", "multipleOf": 3}, "multipleOf"),
        ({"type": "string", "format": "uri-template"}, "format"),
        ({"type": "string", "pattern": "(?=a)b"}, "pattern"),
        ({"type": "string", "pattern": r"\bword"}, "pattern"),
        ({"type": "string", "maxLength": MAX_REPEAT + 1}, "maxLength"),
        ({"$ref": "https://example.com/schema.json"}, "$ref"),
        ({"$ref": "#/$defs/missing"}, "$ref"),
        ({"type": "thing"}, "type"),
        ({"type": "number", "minimum": -3.5}, "minimum"),
        # Contradictory: no value of the type is in the enum.
        ({"type": "string", "enum": [1, 2]}, ""),
        # Recursive without end: a required property that is the object itself.
        (
            {"type": "object", "properties": {"me": {"$ref": "#"}}, "required": ["me"], "additionalProperties": False},
            "",
        ),
        # Huge: a grammar past the size bound.
        ({"enum": [f"value number {i:06d}" for i in range(20_000)]}, ""),
    ],
)
def test_schemas_a_grammar_cannot_hold_are_refused_by_keyword(schema: dict[str, Any], keyword: str) -> None:
    with pytest.raises(SchemaError) as caught:
        schema_grammar(schema)
    assert caught.value.keyword == keyword
    if keyword:
        assert keyword in str(caught.value)


def test_deeply_nested_schemas_are_bounded() -> None:
    schema: dict[str, Any] = {"type": "integer"}
    for _ in range(500):
        schema = {"type": "array", "items": schema}
    with pytest.raises(SchemaError, match="nested"):
        schema_grammar(schema)


def test_the_grammars_are_accepted_by_llama_cpp_and_a_bad_one_is_refused(tiny: ChatModel) -> None:
    for schema in SCHEMAS.values():
        LlamaGrammar(tiny.llama, schema_grammar(schema)).close()
    with pytest.raises(GrammarError):
        LlamaGrammar(tiny.llama, 'root ::= "a" missing-rule\n')
