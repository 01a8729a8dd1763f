"""A chat completion request, checked field by field before the engine sees any of it.

Fields the engine cannot honour and whose absence would change the answer the client expects
(``n`` > 1, images, a schema a grammar cannot hold) are refused with a 400 naming the field; the
rest of the API's optional fields (``user``, ``metadata``, penalties of 0...) are ignored, as
the API allows. ``ignore_eos`` is llama-server's extension, accepted for benchmarks (with a
response format the reply still ends where the grammar does).
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
from typing import Any

from ..engine.chat.json_schema import json_object_grammar, schema_grammar
from ..engine.chat.prompt_format import Message
from ..engine.chat.sampling import SamplingParams
from ..engine.errors import SchemaError
from .api_errors import ApiError
from .limits import MAX_MESSAGES, MAX_NAME_CHARS, MAX_STOP, MAX_STOP_CHARS, MAX_TOOLS, MAX_TOOLS_BYTES, MAX_TOP_LOGPROBS

ROLES = {"system": "system", "developer": "system", "user": "user", "assistant": "assistant", "tool": "tool"}
TOOL_NAME = re.compile(r"[A-Za-z0-9_.-]{1,64}")

# Sampling a request does not specify: llama-server's temperature, top-k (40) and min-p (0.05),
# the API's top-p (1), and no repeat penalty (the API has none).
DEFAULT_TEMPERATURE = 0.8


@dataclasses.dataclass
class ChatRequest:
    model: str
    messages: list[Message]
    stream: bool
    include_usage: bool
    max_tokens: int | None  # None: as many as the context leaves
    params: SamplingParams  # max_tokens is set once the prompt's length is known
    response_format: dict[str, Any] | None = None  # json_object or json_schema; made a grammar off the event loop
    turns: list[dict[str, Any]] = dataclasses.field(default_factory=list)  # the messages as templates read them
    tools: list[dict[str, Any]] = dataclasses.field(default_factory=list)  # {"type": "function", "function": ...}
    tool_choice: str = "auto"  # "auto", "none", "required" or a function's name
    parallel_tool_calls: bool = True

    @property
    def uses_template(self) -> bool:
        """Whether the prompt is the model's own template with tools (calls, results or tools)."""
        return bool(self.tools) or any(t["role"] == "tool" or t.get("tool_calls") for t in self.turns)

    @property
    def function_names(self) -> set[str]:
        return {t["function"]["name"] for t in self.tools} if self.tool_choice != "none" else set()


def parse_json(body: bytes) -> dict[str, Any]:
    """The body as a JSON object; 400 for anything else (not JSON, NaN, too deeply nested)."""
    try:
        value = json.loads(body, parse_constant=_refuse_constant)
    except (ValueError, RecursionError) as exc:
        raise ApiError(400, f"the body is not valid JSON: {str(exc)[:200]}", code="invalid_json") from None
    if not isinstance(value, dict):
        raise ApiError(400, "the body must be a JSON object", code="invalid_json")
    return value


def _refuse_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def parse_chat_request(body: dict[str, Any]) -> ChatRequest:
    model = string_field(body, "model", required=False) or ""
    turns = _turns(body.get("messages"))
    messages = [Message(t["role"], t["content"] or "") for t in turns]
    n = body.get("n")
    if n is not None and (_is_bool(n) or n != 1):
        raise ApiError(400, "only n=1 is supported: one choice per request", param="n")
    if body.get("functions"):
        raise ApiError(400, "'functions' is not supported by this server: use 'tools'", param="functions")
    tools = _tools(body.get("tools"))
    tool_choice = _tool_choice(body.get("tool_choice"), tools)
    response_format = _response_format(body.get("response_format"))
    stream = bool_field(body, "stream")
    options = body.get("stream_options")
    if options is not None and not isinstance(options, dict):
        raise ApiError(400, "'stream_options' must be an object", param="stream_options")
    include_usage = bool(options and bool_field(options, "include_usage"))
    max_tokens = int_field(body, "max_completion_tokens", 1)
    if max_tokens is None:
        max_tokens = int_field(body, "max_tokens", 1)
    temperature = number_field(body, "temperature", 0.0, 2.0)
    top_p = number_field(body, "top_p", 0.0, 1.0)
    seed = int_field(body, "seed", -(2**63))
    params = SamplingParams(
        temperature=DEFAULT_TEMPERATURE if temperature is None else temperature,
        top_p=1.0 if top_p is None else top_p,
        repeat_penalty=1.0,
        seed=seed,
        stop=stop_field(body.get("stop")),
        ignore_eos=bool_field(body, "ignore_eos"),
        logprobs=logprobs_count(body),
    )
    if response_format is not None and tool_choice not in ("auto", "none") and tools:
        raise ApiError(400, "a forced tool call and a response format cannot be combined", param="tool_choice")
    return ChatRequest(
        model,
        messages,
        stream,
        include_usage,
        max_tokens,
        params,
        response_format,
        turns,
        tools,
        tool_choice,
        bool_field(body, "parallel_tool_calls") if "parallel_tool_calls" in body else True,
    )


def _tools(value: object) -> list[dict[str, Any]]:
    """The request's functions, checked; 400 beyond MAX_TOOLS or MAX_TOOLS_BYTES of JSON."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise ApiError(400, "'tools' must be an array", param="tools")
    if len(value) > MAX_TOOLS or len(json.dumps(value)) > MAX_TOOLS_BYTES:
        raise ApiError(
            400,
            f"at most {MAX_TOOLS} tools of {MAX_TOOLS_BYTES // 1024} KiB of JSON in all are accepted",
            param="tools",
        )
    tools, names = [], set()
    for i, tool in enumerate(value):
        function = tool.get("function") if isinstance(tool, dict) and tool.get("type") == "function" else None
        name = function.get("name") if isinstance(function, dict) else None
        if (
            not isinstance(function, dict)
            or not isinstance(name, str)
            or not TOOL_NAME.fullmatch(name)
            or name in names
        ):
            raise ApiError(
                400,
                f"'tools[{i}]' must be a function with a unique name of 1-64 letters, digits, _ . -",
                param=f"tools[{i}]",
            )
        parameters = function.get("parameters", {"type": "object", "properties": {}})
        if not isinstance(parameters, dict):
            raise ApiError(400, f"'tools[{i}].function.parameters' must be an object", param=f"tools[{i}].function")
        description = function.get("description")
        names.add(name)
        clean = {"name": name, "parameters": parameters}
        if isinstance(description, str):
            clean["description"] = description
        tools.append({"type": "function", "function": clean})
    return tools


def _tool_choice(value: object, tools: list[dict[str, Any]]) -> str:
    if value is None or value in ("auto", "none", "required"):
        return str(value or "auto")
    function = value.get("function") if isinstance(value, dict) and value.get("type") == "function" else None
    name = function.get("name") if isinstance(function, dict) else None
    if not isinstance(name, str) or name not in {t["function"]["name"] for t in tools}:
        raise ApiError(400, "'tool_choice' must be auto, none, required or one of the tools", param="tool_choice")
    return name


def logprobs_count(body: dict[str, Any]) -> int | None:
    """``logprobs`` and ``top_logprobs`` (0 to MAX_TOP_LOGPROBS): None when not asked for."""
    top = int_field(body, "top_logprobs", 0)
    if top is not None and top > MAX_TOP_LOGPROBS:
        raise ApiError(400, f"'top_logprobs' must be at most {MAX_TOP_LOGPROBS}", param="top_logprobs")
    if not bool_field(body, "logprobs"):
        if top:
            raise ApiError(400, "'top_logprobs' needs 'logprobs': true", param="top_logprobs")
        return None
    return top or 0


def _response_format(value: object) -> dict[str, Any] | None:
    """The response format to hold the reply to (None: free text); checked for shape only."""
    if value is None:
        return None
    kind = value.get("type") if isinstance(value, dict) else None
    if not isinstance(value, dict) or kind not in ("text", "json_object", "json_schema"):
        raise ApiError(400, "'response_format.type' must be text, json_object or json_schema", param="response_format")
    if kind == "text":
        return None
    if kind == "json_schema":
        spec = value.get("json_schema")
        if not isinstance(spec, dict) or not isinstance(spec.get("schema", {}), (dict, bool)):
            raise ApiError(
                400, "'response_format.json_schema' must be an object with a 'schema'", param="response_format"
            )
    return value


def grammar_for(response_format: dict[str, Any] | None) -> str | None:
    """The GBNF of a response format (off the event loop: a large schema takes a while); 400 for
    a schema a grammar cannot hold, naming the keyword."""
    if response_format is None:
        return None
    if response_format["type"] == "json_object":
        return json_object_grammar()
    try:
        return schema_grammar(response_format["json_schema"].get("schema", {}))
    except SchemaError as exc:
        raise ApiError(
            400,
            f"the response format's schema cannot be used: {exc}",
            param="response_format.json_schema.schema" + (f".{exc.keyword}" if exc.keyword else ""),
            code="unsupported_schema",
        ) from None


def _turns(value: object) -> list[dict[str, Any]]:
    """The messages as chat templates read them: role, content, an assistant's tool calls
    (arguments as objects), a tool result's call id."""
    if not isinstance(value, list) or not value:
        raise ApiError(400, "'messages' must be a non-empty array", param="messages")
    if len(value) > MAX_MESSAGES:
        raise ApiError(400, f"at most {MAX_MESSAGES} messages are accepted", param="messages")
    turns = []
    for i, item in enumerate(value):
        where = f"messages[{i}]"
        if not isinstance(item, dict):
            raise ApiError(400, f"'{where}' must be an object", param=where)
        role = item.get("role")
        if role not in ROLES:
            raise ApiError(
                400, f"'{where}.role' must be one of system, developer, user, assistant, tool", param=f"{where}.role"
            )
        turn: dict[str, Any] = {"role": ROLES[role], "content": _content(item.get("content"), f"{where}.content")}
        if role == "assistant" and item.get("tool_calls"):
            turn["tool_calls"] = _calls(item["tool_calls"], f"{where}.tool_calls")
        if role == "tool":
            for key in ("tool_call_id", "name"):
                if isinstance(item.get(key), str):
                    turn[key] = item[key][:MAX_NAME_CHARS]
        turns.append(turn)
    return turns


def _calls(value: object, where: str) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        raise ApiError(400, f"'{where}' must be an array", param=where)
    calls = []
    for call in value:
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict) or not isinstance(function.get("name"), str):
            raise ApiError(400, f"'{where}' must hold function calls with a name", param=where)
        arguments = function.get("arguments", "{}")
        try:
            parsed = json.loads(arguments) if isinstance(arguments, str) else arguments
        except ValueError:
            parsed = arguments  # as the client sent it
        calls.append(
            {
                "id": str(call.get("id", ""))[:MAX_NAME_CHARS],
                "type": "function",
                "function": {"name": function["name"], "arguments": parsed},
            }
        )
    return calls


def _content(value: object, where: str) -> str:
    """A message's text: a string, or text parts (other parts, such as images, are refused)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        texts = []
        for part in value:
            if not isinstance(part, dict) or part.get("type") != "text" or not isinstance(part.get("text"), str):
                raise ApiError(400, f"'{where}' may hold text parts only", param=where)
            texts.append(part["text"])
        return "".join(texts)
    raise ApiError(400, f"'{where}' must be a string or an array of text parts", param=where)


def stop_field(value: object) -> list[str]:
    if value is None:
        return []
    stops = [value] if isinstance(value, str) else value
    if not isinstance(stops, list) or not all(isinstance(s, str) for s in stops):
        raise ApiError(400, "'stop' must be a string or an array of strings", param="stop")
    if len(stops) > MAX_STOP or any(len(s) > MAX_STOP_CHARS for s in stops):
        raise ApiError(400, f"at most {MAX_STOP} stop strings of {MAX_STOP_CHARS} characters each", param="stop")
    return [s for s in stops if s]


def _is_bool(value: object) -> bool:
    return isinstance(value, bool)


def bool_field(body: dict[str, Any], name: str) -> bool:
    value = body.get(name)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise ApiError(400, f"'{name}' must be true or false", param=name)
    return value


def string_field(body: dict[str, Any], name: str, required: bool) -> str | None:
    value = body.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, str) or len(value) > MAX_NAME_CHARS:
        raise ApiError(400, f"'{name}' must be a string of at most {MAX_NAME_CHARS} characters", param=name)
    return value


def int_field(body: dict[str, Any], name: str, minimum: int) -> int | None:
    value = body.get(name)
    if value is None:
        return None
    if _is_bool(value) or not isinstance(value, int) or not minimum <= value < 2**63:
        raise ApiError(400, f"'{name}' must be an integer of at least {minimum}", param=name)
    return value


def number_field(body: dict[str, Any], name: str, low: float, high: float) -> float | None:
    value = body.get(name)
    if value is None:
        return None
    if _is_bool(value) or not isinstance(value, (int, float)) or not math.isfinite(value) or not low <= value <= high:
        raise ApiError(400, f"'{name}' must be a number from {low:g} to {high:g}", param=name)
    return float(value)
