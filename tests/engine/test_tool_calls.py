"""Tool calls in replies (every family's form, whole and streamed), and chat templates in their
sandbox: hostile ones stopped within their bounds, real ones (Qwen2.5's) rendered as Hugging Face
renders them."""

from __future__ import annotations

import json
import time

import pytest

from parley.engine.chat.chat_template import MAX_SECONDS, ChatTemplate
from parley.engine.chat.tool_calls import ToolCallStream, ToolDelta, parse_reply
from parley.engine.chat.tool_prompt import forced_call, usable_template
from parley.engine.errors import PromptFormatError, SchemaError, TemplateRefusedError

NAMES = {"get_weather", "add"}
WEATHER = {"city": "Paris", "unit": "c"}

REPLIES = {
    "hermes": 'Let me look.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "unit": "c"}}'
    '\n</tool_call>\n<tool_call>\n{"name": "add", "arguments": {"a": 1, "b": [2, "}"]}}\n</tool_call>',
    "llama3 bare": '{"name": "get_weather", "parameters": {"city": "Paris", "unit": "c"}}',
    "llama3 python tag": '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris", "unit": "c"}}; '
    '{"name": "add", "parameters": {"a": 1, "b": [2, "}"]}}',
    "mistral": '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris", "unit": "c"}}, '
    '{"name": "add", "arguments": {"a": 1, "b": [2, "}"]}}]',
    "mistral new": '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris", "unit": "c"}',
    "gemma": 'Sure.\n```tool_code\nget_weather(city="Paris", unit="c")\nadd(a=1, b=[2, "}"])\n```',
    "fenced json": '```json\n{"name": "get_weather", "arguments": {"city": "Paris", "unit": "c"}}\n```',
}


def stream(text: str, names: set[str], size: int) -> tuple[str, list[tuple[str, str, str]]]:
    """``text`` fed to a ToolCallStream ``size`` characters at a time: (content, calls)."""
    parser = ToolCallStream(names)
    pieces: list[str | ToolDelta] = []
    for i in range(0, len(text), size):
        pieces += parser.push(text[i : i + size])
    pieces += parser.finish()
    content = "".join(p for p in pieces if isinstance(p, str))
    calls: dict[int, list[str]] = {}
    for p in pieces:
        if isinstance(p, ToolDelta):
            if p.id is not None:
                assert p.index not in calls and p.name
                calls[p.index] = [p.id, p.name, ""]
            calls[p.index][2] += p.arguments
    return content.strip(), [(c[0], c[1], c[2]) for _, c in sorted(calls.items())]


@pytest.mark.parametrize("family", sorted(REPLIES))
def test_each_familys_calls_parse_whole_and_streamed_alike(family: str) -> None:
    text = REPLIES[family]
    content, calls = parse_reply(text, NAMES)
    assert calls and calls[0].name == "get_weather" and json.loads(calls[0].arguments) == WEATHER
    if len(calls) > 1:
        assert calls[1].name == "add" and json.loads(calls[1].arguments) == {"a": 1, "b": [2, "}"]}
    assert "get_weather" not in content and "tool_call" not in content
    for size in (1, 3, 7, len(text)):
        streamed_content, streamed = stream(text, NAMES, size)
        assert streamed_content == content, size
        assert [(name, json.loads(args)) for _, name, args in streamed] == [
            (c.name, json.loads(c.arguments)) for c in calls
        ]


def test_arguments_stream_in_several_pieces() -> None:
    parser = ToolCallStream(NAMES)
    text = REPLIES["hermes"]
    deltas = [p for i in range(len(text)) for p in parser.push(text[i]) if isinstance(p, ToolDelta)]
    first = [d for d in deltas if d.index == 0]
    assert first[0].name == "get_weather" and len([d for d in first if d.arguments]) > 5


@pytest.mark.parametrize(
    "text",
    [
        '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Par',  # cut off
        '<tool_call>\n{"name": "launch_rockets", "arguments": {}}\n</tool_call>',  # no such tool
        '<tool_call>\n{"name": "get_weather", "arguments": "not json"}\n</tool_call>',
        "```tool_code\nimport os; os.system('rm -rf /')\n```",  # never run: not a call of a tool
        '{"name": "get_weather"',
        "Just text, with a { brace.",
    ],
)
def test_a_malformed_call_stays_in_the_content(text: str) -> None:
    content, calls = parse_reply(text, NAMES)
    assert not calls and content == text.strip()
    streamed_content, streamed = stream(text, NAMES, 4)
    # A call whose name was sent before its JSON broke stays as sent; its text comes as content.
    assert streamed_content == content and (not streamed or streamed[0][1] == "get_weather")


def test_a_forced_call_grammar_covers_every_allowed_function() -> None:
    functions = [
        {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}},
        {"name": "add", "parameters": {"type": "object", "properties": {"a": {"type": "integer"}}}},
    ]
    for family, opening in (("hermes", "<tool_call>\n"), ("mistral", "[TOOL_CALLS]"), ("llama3", "")):
        start, grammar = forced_call(family, functions)
        assert start == opening and '\\"get_weather\\"' in grammar and '\\"add\\"' in grammar
    with pytest.raises(SchemaError) as caught:
        forced_call("hermes", [{"name": "f", "parameters": {"type": "object", "not": {}}}])
    assert caught.value.keyword == "not"


HOSTILE = {
    "python objects": "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "globals": "{{ cycler.__init__.__globals__.os.system('id') }}",
    "loops without end": "{% for a in range(99999) %}{% for b in range(99999) %}{% for c in range(99999) %}"
    "{% endfor %}{% endfor %}{% endfor %}",
    "huge string": "{{ 'x' * 10**10 }}",
    "huge format": "{{ '%999999999d' % 1 }}",
    "huge filter": "{{ 'a' | center(10**9) }}",
    "doubling": "{% set ns = namespace(s='x') %}{% for i in range(64) %}{% set ns.s = ns.s + ns.s %}{% endfor %}",
    "recursion": "{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}",
    "mutation": "{{ messages.append(1) }}",
    "endless output": "{% for i in range(99999) %}{% for j in range(99999) %}xxxxxxxxxx{% endfor %}{% endfor %}",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_template_is_stopped_within_its_bounds(name: str) -> None:
    started = time.monotonic()
    with pytest.raises(PromptFormatError) as caught:
        ChatTemplate(HOSTILE[name]).render([{"role": "user", "content": "hi"}])
    assert type(caught.value) is PromptFormatError
    assert time.monotonic() - started < MAX_SECONDS + 1.0
    assert usable_template(HOSTILE[name]) is None


def test_a_templates_own_refusal_names_its_reason() -> None:
    template = ChatTemplate("{% if messages[0].role == 'system' %}{{ raise_exception('no system role') }}{% endif %}")
    with pytest.raises(TemplateRefusedError, match="no system role"):
        template.render([{"role": "system", "content": "s"}])
