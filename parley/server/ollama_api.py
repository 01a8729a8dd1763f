"""Ollama's own API on the same server: ``/api/chat``, ``/api/generate``, ``/api/tags``,
``/api/show``, ``/api/ps``, ``/api/version`` (and ``/api/embed`` in ``embeddings_api``).

Many desktop apps speak it rather than OpenAI's.  Each request is translated into the OpenAI
request the rest of the server already checks (``chat_request``, ``completions_api``), so the
same bounds, grammars and tool-call reading apply; only the shapes differ: replies stream as
JSON lines (``application/x-ndjson``, streaming is the default), a tool call's arguments are an
object, errors are ``{"error": "..."}``.  Any model name is the model Parley has loaded, as on
the OpenAI side: an app configured for ``llama3.2`` is answered by it.  ``keep_alive`` is
accepted and has no effect (the models stay loaded while Parley serves).  Pulling, pushing,
creating, copying and deleting models is refused with a pointer to Parley's model library.
"""

from __future__ import annotations

import asyncio
import datetime
import hashlib
import json
import time
from collections.abc import AsyncIterator
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from ..engine.chat.batch import BatchResult, TokenLogprob
from ..engine.chat.tool_calls import ToolCallStream, parse_reply
from ..engine.modelfiles.gguf_file import GGUFInfo
from .api_errors import ApiError
from .chat_api import prepare_chat
from .chat_request import ChatRequest, parse_chat_request, parse_json
from .completions_api import CompletionRequest, parse_completion_request, prompt_tokens
from .replies import FINISH_REASONS, Event, EventStream, client_gone, fit_max_tokens, raise_for, start_reply
from .state import ServerState, require_content_type, state_of

# The Ollama release whose API these routes follow (clients check for a minimum version)
OLLAMA_API_VERSION = "0.12.0"
JSON_LINES = "application/x-ndjson"
LIBRARY = (
    "Parley serves the models it has loaded and does not {what} models over this API: "
    "add or remove models in Parley's model library (`parley models`, or Settings > Model library in the app), "
    "and choose the served one with `parley serve --model`"
)
REFUSED = {
    "/api/pull": "download",
    "/api/push": "upload",
    "/api/create": "create",
    "/api/copy": "copy",
    "/api/delete": "delete",
}


async def root(request: Request) -> Response:
    return PlainTextResponse("Ollama is running (Parley's Ollama-compatible API)")


async def version(request: Request) -> Response:
    return JSONResponse({"version": OLLAMA_API_VERSION})


async def refused(request: Request) -> Response:
    what = REFUSED.get(request.url.path, "change")
    raise ApiError(403, LIBRARY.format(what=what), code="model_management_refused")


async def tags(request: Request) -> Response:
    state = state_of(request)
    return JSONResponse({"models": [_listing(state, name) for name in ollama_names(state)]})


async def running(request: Request) -> Response:
    """``/api/ps``: the loaded models, kept loaded as long as Parley serves."""
    state = state_of(request)
    forever = "2999-12-31T23:59:59Z"
    models = []
    for name in ollama_names(state):
        entry = _listing(state, name)
        models.append({**entry, "expires_at": forever, "size_vram": 0, "context_length": _context(state, name)})
    return JSONResponse({"models": models})


async def show(request: Request) -> Response:
    state = state_of(request)
    body = await _json_body(request)
    name = _name(body, state)
    info = _info_of(state, name)
    arch = info.architecture if info else "unknown"
    model_info: dict[str, Any] = {"general.architecture": arch}
    if info is not None:
        model_info["general.parameter_count"] = info.n_params
        if info.name:
            model_info["general.name"] = info.name
        if info.context_length:
            model_info[f"{arch}.context_length"] = info.context_length
    capabilities = ["completion", "tools"] if _is_chat(state, name) else ["embedding"]
    if _is_chat(state, name) and state.chat_model is not None and state.chat_model.llama.fills_in:
        capabilities.append("insert")
    template = state.chat_template.source if state.chat_template and _is_chat(state, name) else ""
    return JSONResponse(
        {
            "modelfile": f"# {name}: served by Parley from {info.path.name if info else 'a loaded model'}\n",
            "parameters": "",
            "template": template,
            "details": _details(state, name),
            "model_info": model_info,
            "capabilities": capabilities,
            "modified_at": _modified(state, name),
        }
    )


async def chat(request: Request) -> Response:
    state = _chat_state(request)
    body = await _json_body(request)
    _name(body, state)
    openai_chat = parse_chat_request(_openai_chat_body(body))
    return await _run_chat(request, state, body, openai_chat, "chat")


async def generate(request: Request) -> Response:
    state = _chat_state(request)
    body = await _json_body(request)
    name = _name(body, state)
    prompt = body.get("prompt", "")
    if not isinstance(prompt, str):
        raise ApiError(400, "'prompt' must be a string", param="prompt")
    if body.get("images"):
        raise ApiError(400, "images are not supported: the loaded model reads text only", param="images")
    if body.get("context"):
        raise ApiError(400, "'context' is not supported: send the conversation to /api/chat", param="context")
    if body.get("template"):
        raise ApiError(400, "'template' is not supported: the model's own chat template is used", param="template")
    if not prompt and not body.get("suffix"):  # Ollama's way to load a model: it is loaded
        return JSONResponse({"model": name, "created_at": _now(), "response": "", "done": True, "done_reason": "load"})
    if body.get("raw") or body.get("suffix"):
        return await _run_completion(request, state, body, name)
    messages = [{"role": "system", "content": body["system"]}] if isinstance(body.get("system"), str) else []
    chat_body = {**body, "messages": [*messages, {"role": "user", "content": prompt}]}
    openai_chat = parse_chat_request(_openai_chat_body(chat_body))
    return await _run_chat(request, state, body, openai_chat, "generate")


# --------------------------------------------------------------------------- translation


def _openai_chat_body(body: dict[str, Any]) -> dict[str, Any]:
    """An Ollama chat request as the OpenAI request ``parse_chat_request`` checks."""
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise ApiError(400, "'messages' must be a non-empty array", param="messages")
    turns = []
    for i, message in enumerate(messages):
        if not isinstance(message, dict):
            raise ApiError(400, f"'messages[{i}]' must be an object", param=f"messages[{i}]")
        if message.get("images"):
            raise ApiError(400, "images are not supported: the loaded model reads text only", param=f"messages[{i}]")
        turn = {k: message[k] for k in ("role", "content") if k in message}
        if isinstance(message.get("tool_name"), str):
            turn["name"] = message["tool_name"]
        calls = message.get("tool_calls")
        if calls:
            if not isinstance(calls, list):
                raise ApiError(400, f"'messages[{i}].tool_calls' must be an array", param=f"messages[{i}]")
            turn["tool_calls"] = [{"id": f"call_{i}_{j}", **c} for j, c in enumerate(calls) if isinstance(c, dict)]
        turns.append(turn)
    out: dict[str, Any] = {"messages": turns, "stream": _stream(body)}
    if body.get("tools"):
        out["tools"] = body["tools"]
    form = body.get("format")
    if form == "json":
        out["response_format"] = {"type": "json_object"}
    elif isinstance(form, dict):
        out["response_format"] = {"type": "json_schema", "json_schema": {"name": "format", "schema": form}}
    elif form not in (None, ""):
        raise ApiError(400, "'format' must be \"json\" or a JSON schema", param="format")
    if body.get("logprobs") is not None:
        out["logprobs"] = body["logprobs"]
    if body.get("top_logprobs") is not None:
        out["top_logprobs"] = body["top_logprobs"]
    return out | _options(body)


def _options(body: dict[str, Any]) -> dict[str, Any]:
    """Ollama's ``options`` as OpenAI sampling fields (the rest, such as ``num_ctx``, ignored:
    the server's context is set when it starts)."""
    options = body.get("options") or {}
    if not isinstance(options, dict):
        raise ApiError(400, "'options' must be an object", param="options")
    _keep_alive(body)
    out: dict[str, Any] = {}
    for ours, theirs in (("temperature", "temperature"), ("top_p", "top_p"), ("seed", "seed"), ("stop", "stop")):
        if options.get(theirs) is not None:
            out[ours] = options[theirs]
    predict = options.get("num_predict")
    if isinstance(predict, int) and not isinstance(predict, bool) and predict > 0:
        out["max_tokens"] = predict  # -1 (no limit) and -2 (fill the context): the context's limit
    elif predict is not None and not isinstance(predict, int):
        raise ApiError(400, "'options.num_predict' must be an integer", param="options.num_predict")
    return out


def _top_k(body: dict[str, Any], default: int) -> int:
    options = body.get("options") or {}
    value = options.get("top_k") if isinstance(options, dict) else None
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 1_000_000:
        raise ApiError(400, "'options.top_k' must be a non-negative integer", param="options.top_k")
    return value


def _keep_alive(body: dict[str, Any]) -> None:
    """``keep_alive`` is accepted (a duration string or seconds) and has no effect."""
    value = body.get("keep_alive")
    if value is not None and (isinstance(value, bool) or not isinstance(value, (str, int, float))):
        raise ApiError(400, "'keep_alive' must be a duration such as \"5m\" or a number of seconds", param="keep_alive")


def _stream(body: dict[str, Any]) -> bool:
    value = body.get("stream", True)
    if not isinstance(value, bool):
        raise ApiError(400, "'stream' must be true or false", param="stream")
    return value


# --------------------------------------------------------------------------- replies


async def _run_chat(
    request: Request, state: ServerState, body: dict[str, Any], openai_chat: ChatRequest, route: str
) -> Response:
    assert state.engine is not None and state.chat_model is not None
    openai_chat.params.top_k = _top_k(body, openai_chat.params.top_k)
    started = time.perf_counter_ns()
    tokens, opening = await run_in_threadpool(prepare_chat, state, state.chat_model, openai_chat)
    openai_chat.params.max_tokens = fit_max_tokens(
        openai_chat.max_tokens, len(tokens), state.engine.n_ctx, prompt_param="messages", limit_param="num_predict"
    )
    reply = start_reply(state, tokens, openai_chat.params, stream=openai_chat.stream)
    answer = _OllamaReply(_chat_name(state), route, openai_chat.function_names, opening, started)
    if openai_chat.stream:
        return EventStream(answer.lines(reply.events), on_close=reply.job.cancel, media_type=JSON_LINES)
    done = await reply.whole(request)
    if done is None:
        return client_gone()
    return JSONResponse(answer.whole(*done))


async def _run_completion(request: Request, state: ServerState, body: dict[str, Any], name: str) -> Response:
    """``/api/generate`` with ``raw`` or a ``suffix``: the prompt as text, filled in the middle."""
    assert state.engine is not None and state.chat_model is not None
    openai_body = {"prompt": body.get("prompt", ""), "stream": _stream(body)} | _options(body)
    if body.get("suffix"):
        openai_body["suffix"] = body["suffix"]
    completion: CompletionRequest = parse_completion_request(openai_body)
    completion.params.top_k = _top_k(body, completion.params.top_k)
    started = time.perf_counter_ns()
    tokens, _ = await run_in_threadpool(prompt_tokens, state.chat_model, completion)
    asked = openai_body.get("max_tokens")
    completion.params.max_tokens = fit_max_tokens(
        asked, len(tokens), state.engine.n_ctx, prompt_param="prompt", limit_param="num_predict"
    )
    reply = start_reply(state, tokens, completion.params, stream=completion.stream)
    answer = _OllamaReply(_chat_name(state), "generate", set(), "", started)
    if completion.stream:
        return EventStream(answer.lines(reply.events), on_close=reply.job.cancel, media_type=JSON_LINES)
    done = await reply.whole(request)
    if done is None:
        return client_gone()
    return JSONResponse(answer.whole(*done))


class _OllamaReply:
    """Ollama's objects for one reply: ``message`` (chat) or ``response`` (generate)."""

    def __init__(self, model: str, route: str, names: set[str], opening: str, started: int) -> None:
        self.model = model
        self.chat = route == "chat"
        self.names = names
        self.opening = opening
        self.started = started

    def whole(self, result: BatchResult, logprobs: list[TokenLogprob]) -> dict[str, Any]:
        raise_for(result)
        text, calls = result.text, []
        if self.names:
            text, found = parse_reply(self.opening + result.text, self.names)
            calls = [{"function": {"name": c.name, "arguments": json.loads(c.arguments)}} for c in found]
        return {**self._piece(text, calls), **self._end(result)}

    async def lines(self, events: asyncio.Queue[Event]) -> AsyncIterator[bytes]:
        calls = ToolCallStream(self.names) if self.names else None
        text: list[str] = []
        if calls is not None and self.opening:
            calls.push(self.opening)
        while True:
            item = await events.get()
            if isinstance(item, TokenLogprob):
                continue
            if isinstance(item, str):
                text.append(item)
                pieces = [item] if calls is None else [p for p in calls.push(item) if isinstance(p, str)]
                for piece in pieces:
                    yield _line(self._piece(piece, []))
                continue
            try:
                raise_for(item)
            except ApiError as exc:
                yield _line({"error": exc.message})
                return
            if calls is not None:
                for rest in calls.finish():
                    if isinstance(rest, str):
                        yield _line(self._piece(rest, []))
                _, found = parse_reply(self.opening + "".join(text), self.names)
                if found:
                    made = [{"function": {"name": c.name, "arguments": json.loads(c.arguments)}} for c in found]
                    yield _line(self._piece("", made))
            yield _line({**self._piece("", []), **self._end(item)})
            return

    def _piece(self, text: str, calls: list[dict[str, Any]]) -> dict[str, Any]:
        head: dict[str, Any] = {"model": self.model, "created_at": _now()}
        if not self.chat:
            return {**head, "response": text, "done": False}
        message: dict[str, Any] = {"role": "assistant", "content": text}
        if calls:
            message["tool_calls"] = calls
        return {**head, "message": message, "done": False}

    def _end(self, result: BatchResult) -> dict[str, Any]:
        total = time.perf_counter_ns() - self.started
        return {
            "done": True,
            "done_reason": FINISH_REASONS[result.finish],
            "total_duration": total,
            "load_duration": 0,
            "prompt_eval_count": result.prompt_tokens - result.cached_tokens,
            "prompt_eval_duration": int((result.time_to_first_token or 0) * 1e9),
            "eval_count": result.generated_tokens,
            "eval_duration": max(0, total - int((result.time_to_first_token or 0) * 1e9)),
        }


def _line(data: dict[str, Any]) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


# --------------------------------------------------------------------------- names


def ollama_names(state: ServerState) -> list[str]:
    """The names the loaded models are listed under: the file's name with Ollama's tag (an
    embedding model of its own too)."""
    names = [_chat_name(state)] if state.chat_model is not None else []
    if state.embedder is not None and state.embedder.model.dedicated:
        names.append(f"{state.embedder.model.name}:latest")
    return names


def _chat_name(state: ServerState) -> str:
    return f"{state.chat_name}:latest"


def _name(body: dict[str, Any], state: ServerState) -> str:
    """The listed name a request's ``model`` maps to: its own, or else the chat model (any name
    is the chat model, as on the OpenAI side)."""
    value = body.get("model", body.get("name"))
    if value is not None and not isinstance(value, str):
        raise ApiError(400, "'model' must be a string", param="model")
    names = ollama_names(state)
    if not names:
        raise ApiError(404, "this server has no model (start it with one)", code="model_not_found")
    return value if value in names else names[0]


def _chat_state(request: Request) -> ServerState:
    state = state_of(request)
    if state.engine is None or state.chat_model is None:
        raise ApiError(404, "this server has no chat model (start it with one)", code="model_not_found")
    return state


async def _json_body(request: Request) -> dict[str, Any]:
    """The body as a JSON object, whatever type it is sent as (Ollama's clients and its own docs'
    ``curl -d`` send form or no type), except from a web page: a request with an ``Origin`` must
    say ``application/json``, so that the browser asks first (CORS) and only allowed origins
    get through, as on the OpenAI routes."""
    if "origin" in request.headers:
        require_content_type(request, "application/json")
    return parse_json(await request.body())


def _is_chat(state: ServerState, name: str) -> bool:
    return state.chat_model is not None and name == _chat_name(state)


def _info_of(state: ServerState, name: str) -> GGUFInfo | None:
    if _is_chat(state, name):
        return state.chat_model.info if state.chat_model is not None else None
    return state.embedder.model.info if state.embedder is not None else None


def _context(state: ServerState, name: str) -> int:
    if _is_chat(state, name):
        return state.engine.n_ctx if state.engine is not None else 0
    return state.embedder.model.info.context_length or 0 if state.embedder is not None else 0


def _listing(state: ServerState, name: str) -> dict[str, Any]:
    info = _info_of(state, name)
    digest = hashlib.sha256(f"{info.path}:{info.file_size}".encode()).hexdigest() if info else ""
    return {
        "name": name,
        "model": name,
        "modified_at": _modified(state, name),
        "size": info.file_size if info else 0,
        "digest": digest,
        "details": _details(state, name),
    }


def _details(state: ServerState, name: str) -> dict[str, Any]:
    info = _info_of(state, name)
    arch = info.architecture if info else "unknown"
    return {
        "parent_model": "",
        "format": "gguf",
        "family": arch,
        "families": [arch],
        "parameter_size": _parameter_size(info.n_params if info else 0),
        "quantization_level": _quantisation(info.file_type if info else None),
    }


def _parameter_size(n: int) -> str:
    return f"{n / 1e9:.1f}B" if n >= 1e9 else f"{n / 1e6:.0f}M"


def _quantisation(file_type: int | None) -> str:
    from gguf import LlamaFileType  # llama.cpp's own names for the file types

    try:
        return LlamaFileType(file_type).name.removeprefix("MOSTLY_") if file_type is not None else "unknown"
    except ValueError:
        return "unknown"


def _modified(state: ServerState, name: str) -> str:
    info = _info_of(state, name)
    try:
        stamp = info.path.stat().st_mtime if info else state.created
    except OSError:
        stamp = state.created
    return datetime.datetime.fromtimestamp(stamp, datetime.timezone.utc).isoformat().replace("+00:00", "Z")


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat().replace("+00:00", "Z")
