"""``POST /v1/chat/completions``: one reply from the batch engine, whole or as server-sent events.

The engine's callbacks run on its own thread; they only hand each piece and the result to
this request's asyncio queue (``call_soon_threadsafe``).  A client that disconnects cancels its
job, which ends before its next token, whether it streams or waits for the whole reply.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.types import Receive, Scope, Send

from ..engine.chat import tool_prompt
from ..engine.chat.batch import BatchResult, TokenLogprob
from ..engine.chat.model import ChatModel
from ..engine.chat.tool_calls import ToolCall, ToolCallStream, ToolDelta, parse_reply
from ..engine.errors import ChatError, GrammarError, QueueFullError, SchemaError, TemplateRefusedError
from ..engine.handles.llama import LlamaGrammar
from .api_errors import ApiError
from .chat_request import ChatRequest, grammar_for, parse_chat_request, parse_json
from .state import ClientGone, ServerState, require_content_type, state_of, unless_disconnected

FINISH_REASONS = {"eog": "stop", "stop": "stop", "max_tokens": "length", "context": "length"}
SHUTTING_DOWN = "the server is shutting down"

Event = str | BatchResult | TokenLogprob  # what the engine thread hands a request: text, the end, a token's odds


async def chat_completions(request: Request) -> Response:
    state = state_of(request)
    if state.engine is None or state.chat_model is None:
        raise ApiError(404, "this server has no chat model (start it with one)", code="model_not_found")
    require_content_type(request, "application/json")
    chat = parse_chat_request(parse_json(await request.body()))
    engine, model = state.engine, state.chat_model
    tokens, opening = await run_in_threadpool(_prepare, state, model, chat)
    chat.params.max_tokens = _max_tokens(chat, len(tokens), engine.n_ctx)
    loop = asyncio.get_running_loop()
    events: asyncio.Queue[Event] = asyncio.Queue()

    def hand_over(item: Event) -> None:
        loop.call_soon_threadsafe(events.put_nowait, item)

    def done(result: BatchResult) -> None:  # on the engine thread, its only writer of the counts
        state.replies[result.finish] += 1
        hand_over(result)

    try:
        job = engine.submit(
            tokens,
            chat.params,
            on_text=hand_over if chat.stream else None,
            on_done=done,
            on_logprob=hand_over if chat.params.logprobs is not None else None,
        )
    except QueueFullError as exc:
        raise ApiError(503, f"the server is busy: {exc}; try again shortly", code="server_busy") from None
    reply = _Reply(state.chat_name, chat, opening)
    if chat.stream:
        return _EventStream(reply.events(events, chat.include_usage), on_close=job.cancel)
    try:
        result, logprobs = await unless_disconnected(request, _result(events))
    except ClientGone:
        job.cancel()
        return Response(status_code=499)  # never delivered: the client has gone
    finally:
        job.cancel()  # a no-op once the job is done
    return JSONResponse(reply.whole(result, logprobs if chat.params.logprobs is not None else None))


def _prepare(state: ServerState, model: ChatModel, chat: ChatRequest) -> tuple[list[int], str]:
    """Off the event loop: the prompt's tokens and the reply's opening (a forced call's start,
    in the prompt), with the grammar of the response format or the forced call, checked by
    llama.cpp (400 when it refuses it)."""
    chat.params.grammar = grammar_for(chat.response_format)
    opening = ""
    try:
        if chat.uses_template:
            tools = chat.tools if chat.tool_choice != "none" else None
            prompt = tool_prompt.render(state.chat_template, model.prompt_format, chat.turns, tools)
            if tools and chat.tool_choice != "auto":
                opening, chat.params.grammar = _forced(state, chat)
                prompt += opening
        else:
            prompt = model.prompt_format.render(chat.messages)
        tokens = model.tokenize(prompt)
    except TemplateRefusedError as exc:
        raise ApiError(400, str(exc), param="messages") from None
    except ChatError as exc:
        raise ApiError(400, str(exc), param="messages") from None
    if chat.params.grammar is not None:
        check_grammar(model, chat.params.grammar)
    return tokens, opening


def _forced(state: ServerState, chat: ChatRequest) -> tuple[str, str]:
    """A forced call's opening and grammar (400 for parameters a grammar cannot hold)."""
    functions = [t["function"] for t in chat.tools if chat.tool_choice in ("required", t["function"]["name"])]
    try:
        return tool_prompt.forced_call(state.tool_family, functions)
    except SchemaError as exc:
        raise ApiError(
            400, f"a tool's parameters cannot be held by a grammar: {exc}", param="tools", code="unsupported_schema"
        ) from None


def check_grammar(model: ChatModel, grammar: str) -> None:
    try:
        LlamaGrammar(model.llama, grammar).close()
    except GrammarError as exc:
        raise ApiError(400, f"the schema's grammar was refused: {exc}", param="response_format") from None


def _max_tokens(chat: ChatRequest, prompt: int, n_ctx: int) -> int:
    """The reply's limit: as asked, or what the context leaves; 400 when they do not fit."""
    wanted = chat.max_tokens if chat.max_tokens is not None else max(1, n_ctx - prompt)
    if prompt + wanted > n_ctx:
        asked = f"{prompt} in the messages" + (f" and {wanted} for the reply" if chat.max_tokens is not None else "")
        raise ApiError(
            400,
            f"this model's context holds {n_ctx} tokens per request; the request needs {prompt + wanted} "
            f"({asked}). Shorten the messages or lower max_tokens.",
            param="messages" if prompt >= n_ctx else "max_tokens",
            code="context_length_exceeded",
        )
    return wanted


async def _result(events: asyncio.Queue[Event]) -> tuple[BatchResult, list[TokenLogprob]]:
    logprobs: list[TokenLogprob] = []
    while True:
        item = await events.get()
        if isinstance(item, BatchResult):
            return item, logprobs
        if isinstance(item, TokenLogprob):
            logprobs.append(item)


def logprob_entry(item: TokenLogprob) -> dict[str, Any]:
    """A token's log-probabilities as the chat API gives them."""

    def one(data: bytes, logprob: float) -> dict[str, Any]:
        return {"token": data.decode("utf-8", "replace"), "logprob": logprob, "bytes": list(data)}

    return {**one(item.data, item.logprob), "top_logprobs": [one(d, lp) for d, lp in item.top]}


class _Reply:
    """The API's objects for one completion."""

    def __init__(self, model: str, chat: ChatRequest, opening: str) -> None:
        self.id = f"chatcmpl-{uuid.uuid4().hex}"
        self.created = int(time.time())
        self.model = model
        self.names = chat.function_names  # none: the reply is text only
        self.parallel = chat.parallel_tool_calls
        self.opening = opening

    def whole(self, result: BatchResult, logprobs: list[TokenLogprob] | None) -> dict[str, Any]:
        _raise_for(result)
        message: dict[str, Any] = {"role": "assistant", "content": result.text}
        finish = FINISH_REASONS[result.finish]
        if self.names:
            content, calls = parse_reply(self.opening + result.text, self.names)
            if calls:
                calls = calls if self.parallel else calls[:1]
                message = {"role": "assistant", "content": content or None, "tool_calls": [_call(c) for c in calls]}
                finish = "tool_calls"
        return {
            **self._head("chat.completion"),
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": finish,
                    "logprobs": None if logprobs is None else {"content": [logprob_entry(x) for x in logprobs]},
                }
            ],
            "usage": _usage(result),
        }

    async def events(self, events: asyncio.Queue[Event], include_usage: bool) -> AsyncIterator[bytes]:
        yield self._chunk({"role": "assistant", "content": ""}, None)
        logprobs: list[TokenLogprob] = []  # of the tokens whose text is still to be sent
        calls = ToolCallStream(self.names) if self.names else None
        if calls is not None and self.opening:
            calls.push(self.opening)  # a forced call's start, in the prompt: never sent as text
        while True:
            item = await events.get()
            if isinstance(item, TokenLogprob):
                logprobs.append(item)
                continue
            if isinstance(item, str):
                if calls is None:
                    yield self._chunk({"content": item}, None, logprobs)
                else:
                    for delta in self._deltas(calls.push(item)):
                        yield self._chunk(delta, None, logprobs)
                        logprobs = []
                logprobs = []
                continue
            try:
                _raise_for(item)
            except ApiError as exc:
                yield _sse(exc.body())
                return
            finish = FINISH_REASONS[item.finish]
            if calls is not None:
                for delta in self._deltas(calls.finish()):
                    yield self._chunk(delta, None)
                if calls.calls:
                    finish = "tool_calls"
            yield self._chunk({}, finish, logprobs)
            if include_usage:
                yield _sse({**self._head("chat.completion.chunk"), "choices": [], "usage": _usage(item)})
            yield b"data: [DONE]\n\n"
            return

    def _deltas(self, pieces: list[str | ToolDelta]) -> Iterator[dict[str, Any]]:
        for piece in pieces:
            if isinstance(piece, str):
                yield {"content": piece}
            elif self.parallel or piece.index == 0:
                call: dict[str, Any] = {"index": piece.index, "function": {"arguments": piece.arguments}}
                if piece.id is not None:
                    call.update(id=piece.id, type="function")
                    call["function"]["name"] = piece.name
                yield {"tool_calls": [call]}

    def _head(self, kind: str) -> dict[str, Any]:
        return {"id": self.id, "object": kind, "created": self.created, "model": self.model}

    def _chunk(self, delta: dict[str, Any], finish: str | None, logprobs: list[TokenLogprob] | None = None) -> bytes:
        content = {"content": [logprob_entry(x) for x in logprobs]} if logprobs else None
        choice = {"index": 0, "delta": delta, "finish_reason": finish, "logprobs": content}
        return _sse({**self._head("chat.completion.chunk"), "choices": [choice]})


def _call(call: ToolCall) -> dict[str, Any]:
    return {"id": call.id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}


def _raise_for(result: BatchResult) -> None:
    if result.finish == "cancelled":
        raise ApiError(503, SHUTTING_DOWN, code="server_shutting_down")
    if result.finish == "error":
        raise ApiError(500, f"the reply failed: {result.error}", code="generation_failed")


def _usage(result: BatchResult) -> dict[str, Any]:
    return {
        "prompt_tokens": result.prompt_tokens,
        "completion_tokens": result.generated_tokens,
        "total_tokens": result.prompt_tokens + result.generated_tokens,
        "prompt_tokens_details": {"cached_tokens": result.cached_tokens},
    }


def _sse(data: dict[str, Any]) -> bytes:
    return b"data: " + json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode() + b"\n\n"


class _EventStream(StreamingResponse):
    """Server-sent events that call ``on_close`` however the response ends: done, failed, or
    cut short because the client disconnected (Starlette then cancels the stream)."""

    def __init__(self, content: AsyncIterator[bytes], on_close: Callable[[], None]) -> None:
        super().__init__(
            content,
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )
        self._on_close = on_close

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._on_close()
