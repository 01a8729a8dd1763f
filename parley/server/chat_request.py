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
from typing import Any

from ..engine.chat.json_schema import json_object_grammar, schema_grammar
from ..engine.chat.prompt_format import Message
from ..engine.chat.sampling import SamplingParams
from ..engine.errors import SchemaError
from .api_errors import ApiError
from .limits import MAX_MESSAGES, MAX_NAME_CHARS, MAX_STOP, MAX_STOP_CHARS, MAX_TOP_LOGPROBS

ROLES = {"system": "system", "developer": "system", "user": "user", "assistant": "assistant"}

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
    model = _string(body, "model", required=False) or ""
    messages = _messages(body.get("messages"))
    n = body.get("n")
    if n is not None and (_is_bool(n) or n != 1):
        raise ApiError(400, "only n=1 is supported: one choice per request", param="n")
    for field in ("tools", "functions"):
        if body.get(field):
            raise ApiError(400, f"'{field}' is not supported by this server", param=field)
    response_format = _response_format(body.get("response_format"))
    stream = _bool(body, "stream")
    options = body.get("stream_options")
    if options is not None and not isinstance(options, dict):
        raise ApiError(400, "'stream_options' must be an object", param="stream_options")
    include_usage = bool(options and _bool(options, "include_usage"))
    max_tokens = _int(body, "max_completion_tokens", 1)
    if max_tokens is None:
        max_tokens = _int(body, "max_tokens", 1)
    temperature = _number(body, "temperature", 0.0, 2.0)
    top_p = _number(body, "top_p", 0.0, 1.0)
    seed = _int(body, "seed", -(2**63))
    params = SamplingParams(
        temperature=DEFAULT_TEMPERATURE if temperature is None else temperature,
        top_p=1.0 if top_p is None else top_p,
        repeat_penalty=1.0,
        seed=seed,
        stop=_stop(body.get("stop")),
        ignore_eos=_bool(body, "ignore_eos"),
        logprobs=logprobs_count(body),
    )
    return ChatRequest(model, messages, stream, include_usage, max_tokens, params, response_format)


def logprobs_count(body: dict[str, Any]) -> int | None:
    """``logprobs`` and ``top_logprobs`` (0 to MAX_TOP_LOGPROBS): None when not asked for."""
    top = _int(body, "top_logprobs", 0)
    if top is not None and top > MAX_TOP_LOGPROBS:
        raise ApiError(400, f"'top_logprobs' must be at most {MAX_TOP_LOGPROBS}", param="top_logprobs")
    if not _bool(body, "logprobs"):
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


def _messages(value: object) -> list[Message]:
    if not isinstance(value, list) or not value:
        raise ApiError(400, "'messages' must be a non-empty array", param="messages")
    if len(value) > MAX_MESSAGES:
        raise ApiError(400, f"at most {MAX_MESSAGES} messages are accepted", param="messages")
    messages = []
    for i, item in enumerate(value):
        where = f"messages[{i}]"
        if not isinstance(item, dict):
            raise ApiError(400, f"'{where}' must be an object", param=where)
        role = item.get("role")
        if role not in ROLES:
            raise ApiError(
                400, f"'{where}.role' must be one of system, developer, user, assistant", param=f"{where}.role"
            )
        messages.append(Message(ROLES[role], _content(item.get("content"), f"{where}.content")))
    return messages


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


def _stop(value: object) -> list[str]:
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


def _bool(body: dict[str, Any], name: str) -> bool:
    value = body.get(name)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise ApiError(400, f"'{name}' must be true or false", param=name)
    return value


def _string(body: dict[str, Any], name: str, required: bool) -> str | None:
    value = body.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, str) or len(value) > MAX_NAME_CHARS:
        raise ApiError(400, f"'{name}' must be a string of at most {MAX_NAME_CHARS} characters", param=name)
    return value


def _int(body: dict[str, Any], name: str, minimum: int) -> int | None:
    value = body.get(name)
    if value is None:
        return None
    if _is_bool(value) or not isinstance(value, int) or not minimum <= value < 2**63:
        raise ApiError(400, f"'{name}' must be an integer of at least {minimum}", param=name)
    return value


def _number(body: dict[str, Any], name: str, low: float, high: float) -> float | None:
    value = body.get(name)
    if value is None:
        return None
    if _is_bool(value) or not isinstance(value, (int, float)) or not math.isfinite(value) or not low <= value <= high:
        raise ApiError(400, f"'{name}' must be a number from {low:g} to {high:g}", param=name)
    return float(value)
