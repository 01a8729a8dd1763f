"""A conversation with tools as prompt text, and the grammar of a call the request forces.

Messages are Hugging Face's shape (what templates read): ``role``, ``content``, an assistant's
``tool_calls`` (``{"type": "function", "function": {"name", "arguments": {...}}}``, arguments as
an object) and a tool result's ``tool_call_id`` and ``name``.

- A template that lays out tools itself (Qwen, Llama 3.x, Mistral...) gets them as ``tools``.
- A template without tools (SmolLM2, Gemma 3), or no usable template at all (none in the file,
  or one that failed or passed a bound in its sandbox), gets the tools described in the system
  message with the Hermes form to answer in (``<tool_call>{...}</tool_call>``); without a
  template the conversation is then written in the model's built-in format, with tool results
  as user messages and earlier calls as their text.

A forced call (``tool_choice`` "required" or a function's name) starts the reply with the
family's opening (``<tool_call>\\n``, ``[TOOL_CALLS]``...) in the prompt and holds what follows
to a grammar: one call of an allowed function, its arguments matching its parameters' schema.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Any

from ..errors import PromptFormatError, TemplateRefusedError
from .chat_template import ChatTemplate
from .gbnf import Chars, Expr, Grammar, Rep, alt, lit, seq
from .json_schema import space, value_expr
from .prompt_format import Message, PromptFormat

log = logging.getLogger("parley.chat")

GENERIC_TOOLS = """# Tools

You may call one or more functions to assist with the user query. The functions are described in JSON within <tools></tools> tags:
<tools>
{tools}
</tools>

To call a function, answer with a JSON object of its name and arguments within <tool_call></tool_call> tags, one block per call:
<tool_call>
{{"name": <function-name>, "arguments": <args-json-object>}}
</tool_call>"""  # noqa: E501  (the model reads it as written)


_PROBE_TOOLS: list[dict[str, Any]] = [
    {"type": "function", "function": {"name": "probe", "parameters": {"type": "object", "properties": {}}}}
]
_PROBE: list[dict[str, Any]] = [
    {"role": "system", "content": "s"},
    {"role": "user", "content": "u"},
    {
        "role": "assistant",
        "content": "",
        "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "probe", "arguments": {}}}],
    },
    {"role": "tool", "tool_call_id": "c1", "name": "probe", "content": "r"},
]


def usable_template(source: str | None, bos_token: str = "", eos_token: str = "") -> ChatTemplate | None:
    """The model's template when it compiles and renders a conversation with tools within its
    bounds (a refusal of the probe conversation is the template's own rule: still usable);
    None for a template to leave aside (hostile, broken, too slow)."""
    if not source:
        return None
    try:
        template = ChatTemplate(source, bos_token, eos_token)
        render(template, _NO_BUILTIN, _PROBE, _PROBE_TOOLS, fall_back=False)
    except TemplateRefusedError:
        return template
    except PromptFormatError as exc:
        log.warning("the model's chat template is left aside for tool calls: %s", exc)
        return None
    return template


class _NoBuiltin(PromptFormat):
    def render(self, messages: Sequence[Message]) -> str:
        raise AssertionError("not used while probing")


_NO_BUILTIN = _NoBuiltin()


def family_of(template: str | None) -> str:
    """Which form a template's model calls tools in: hermes, llama3, mistral (or hermes for
    templates without tools, which are told to use it)."""
    source = template or ""
    if "[TOOL_CALLS]" in source:
        return "mistral"
    if "<|python_tag|>" in source or ("<|start_header_id|>" in source and "tools" in source):
        return "llama3"
    return "hermes"


def template_messages(messages: Sequence[dict[str, Any]], tools: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """``messages`` with the generic tool instructions in the system message (for a template
    that does not lay out tools itself)."""
    if not tools:
        return list(messages)
    described = GENERIC_TOOLS.format(tools="\n".join(json.dumps(t, ensure_ascii=False) for t in tools))
    out = [dict(m) for m in messages]
    if out and out[0].get("role") == "system":
        out[0]["content"] = f"{out[0].get('content') or ''}\n\n{described}".strip()
    else:
        out.insert(0, {"role": "system", "content": described})
    return out


def plain_messages(messages: Sequence[dict[str, Any]]) -> list[Message]:
    """The conversation in the built-in format's terms: tool results as user messages, calls as
    their Hermes text."""
    plain = []
    for m in messages:
        content = m.get("content") or ""
        if m["role"] == "tool":
            plain.append(Message("user", f"<tool_response>\n{content}\n</tool_response>"))
        elif m["role"] == "assistant" and m.get("tool_calls"):
            calls = "\n".join(
                "<tool_call>\n"
                + json.dumps(
                    {"name": c["function"]["name"], "arguments": c["function"]["arguments"]}, ensure_ascii=False
                )
                + "\n</tool_call>"
                for c in m["tool_calls"]
            )
            plain.append(Message("assistant", f"{content}\n{calls}".strip()))
        else:
            plain.append(Message(m["role"], content))
    return plain


def render(
    template: ChatTemplate | None,
    builtin: PromptFormat,
    messages: Sequence[dict[str, Any]],
    tools: list[dict[str, Any]] | None,
    fall_back: bool = True,
) -> str:
    """The prompt for ``messages`` with ``tools``: the model's template when it is usable (its
    TemplateRefusedError goes to the caller), else the built-in format."""
    if template is not None:
        try:
            if template.handles_tools:
                return template.render(list(messages), tools or None)
            return template.render(template_messages(messages, tools))
        except TemplateRefusedError:
            raise
        except PromptFormatError as exc:
            if not fall_back:
                raise
            log.warning("the chat template failed (%s); the built-in format is used", exc)
    return builtin.render(plain_messages(template_messages(messages, tools)))


def call_or_words(functions: list[dict[str, Any]]) -> str:
    """The grammar of a reply that is either one Hermes call of one of ``functions``
    (``<tool_call>`` and its JSON, arguments held to their schema) or words that are no call
    (not starting with ``<``, ``{``, ``[`` or a code fence, so a half-written call, a schema
    echoed back or a ``<tools>`` tag cannot be the reply).  SchemaError for parameters a grammar
    cannot hold."""
    grammar = Grammar()
    opening, call = _call_expr(grammar, "hermes", functions)
    first = Chars("^<{[`\\x00-\\x20")
    words = seq(first, Rep(Chars("^\\x00"), 0, None))
    return grammar.gbnf(alt(seq(lit(opening), call), words))


def forced_call(family: str, functions: list[dict[str, Any]]) -> tuple[str, str]:
    """The reply's opening (added to the prompt) and the grammar of what follows it: one call of
    one of ``functions`` (``{"name", "parameters"}``), arguments held to their schema.
    SchemaError for parameters a grammar cannot hold."""
    grammar = Grammar()
    opening, call = _call_expr(grammar, family, functions)
    return opening, grammar.gbnf(call)


def forced_arguments(family: str, function: dict[str, Any]) -> tuple[str, str]:
    """Like ``forced_call`` for a single function, with its name written into the opening too
    (``<tool_call>\\n{"name": "f", "arguments": ``): the model writes only the arguments, held to
    their schema, and the closing brace, about half the tokens of a whole call.  The family's
    closing marker is left out (the call is read without it)."""
    grammar = Grammar()
    key = "parameters" if family == "llama3" else "arguments"
    name = json.dumps(function["name"], ensure_ascii=False)
    head = f'{{"name": {name}, "{key}": '
    arguments = value_expr(grammar, function.get("parameters") or {"type": "object", "properties": {}})
    opening = {"mistral": "[TOOL_CALLS][", "llama3": ""}.get(family, "<tool_call>\n")
    tail = "}]" if family == "mistral" else "}"
    return opening + head, grammar.gbnf(seq(arguments, lit(tail)))


def _call_expr(grammar: Grammar, family: str, functions: list[dict[str, Any]]) -> tuple[str, Expr]:
    """A family's opening, and the expression of one call that follows it."""
    ws = space(grammar)
    key = "parameters" if family == "llama3" else "arguments"
    calls: list[Expr] = []
    for function in functions:
        arguments = value_expr(grammar, function.get("parameters") or {"type": "object", "properties": {}})
        name = lit(json.dumps(function["name"], ensure_ascii=False))
        head = seq(lit("{"), ws, lit('"name"'), ws, lit(":"), ws, name, lit(","), ws, lit(f'"{key}"'), ws, lit(":"))
        calls.append(seq(head, ws, arguments, ws, lit("}")))
    call = alt(*calls)
    if family == "mistral":
        return "[TOOL_CALLS]", seq(lit("["), call, lit("]"))
    if family == "llama3":
        return "", call
    return "<tool_call>\n", seq(call, lit("\n</tool_call>"))
