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
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.types import Receive, Scope, Send

from ..engine.chat.batch import BatchResult
from ..engine.chat.model import ChatModel
from ..engine.errors import ChatError, QueueFullError
from .api_errors import ApiError
from .chat_request import ChatRequest, parse_chat_request, parse_json
from .state import ClientGone, require_content_type, state_of, unless_disconnected

FINISH_REASONS = {"eog": "stop", "stop": "stop", "max_tokens": "length", "context": "length"}
SHUTTING_DOWN = "the server is shutting down"


async def chat_completions(request: Request) -> Response:
    state = state_of(request)
    if state.engine is None or state.chat_model is None:
        raise ApiError(404, "this server has no chat model (start it with one)", code="model_not_found")
    require_content_type(request, "application/json")
    chat = parse_chat_request(parse_json(await request.body()))
    engine, model = state.engine, state.chat_model
    tokens = await run_in_threadpool(_prompt_tokens, model, chat)
    chat.params.max_tokens = _max_tokens(chat, len(tokens), engine.n_ctx)
    loop = asyncio.get_running_loop()
    events: asyncio.Queue[str | BatchResult] = asyncio.Queue()

    def hand_over(item: str | BatchResult) -> None:
        loop.call_soon_threadsafe(events.put_nowait, item)

    def done(result: BatchResult) -> None:  # on the engine thread, its only writer of the counts
        state.replies[result.finish] += 1
        hand_over(result)

    try:
        job = engine.submit(tokens, chat.params, on_text=hand_over if chat.stream else None, on_done=done)
    except QueueFullError as exc:
        raise ApiError(503, f"the server is busy: {exc}; try again shortly", code="server_busy") from None
    reply = _Reply(state.chat_name)
    if chat.stream:
        return _EventStream(reply.events(events, chat.include_usage), on_close=job.cancel)
    try:
        result = await unless_disconnected(request, _result(events))
    except ClientGone:
        job.cancel()
        return Response(status_code=499)  # never delivered: the client has gone
    finally:
        job.cancel()  # a no-op once the job is done
    return JSONResponse(reply.whole(result))


def _prompt_tokens(model: ChatModel, chat: ChatRequest) -> list[int]:
    try:
        return model.tokenize(model.prompt_format.render(chat.messages))
    except ChatError as exc:
        raise ApiError(400, str(exc), param="messages") from None


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


async def _result(events: asyncio.Queue[str | BatchResult]) -> BatchResult:
    while True:
        item = await events.get()
        if isinstance(item, BatchResult):
            return item


class _Reply:
    """The API's objects for one completion."""

    def __init__(self, model: str) -> None:
        self.id = f"chatcmpl-{uuid.uuid4().hex}"
        self.created = int(time.time())
        self.model = model

    def whole(self, result: BatchResult) -> dict[str, Any]:
        _raise_for(result)
        return {
            **self._head("chat.completion"),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": result.text},
                    "finish_reason": FINISH_REASONS[result.finish],
                    "logprobs": None,
                }
            ],
            "usage": _usage(result),
        }

    async def events(self, events: asyncio.Queue[str | BatchResult], include_usage: bool) -> AsyncIterator[bytes]:
        yield self._chunk({"role": "assistant", "content": ""}, None)
        while True:
            item = await events.get()
            if isinstance(item, str):
                yield self._chunk({"content": item}, None)
                continue
            try:
                _raise_for(item)
            except ApiError as exc:
                yield _sse(exc.body())
                return
            yield self._chunk({}, FINISH_REASONS[item.finish])
            if include_usage:
                yield _sse({**self._head("chat.completion.chunk"), "choices": [], "usage": _usage(item)})
            yield b"data: [DONE]\n\n"
            return

    def _head(self, kind: str) -> dict[str, Any]:
        return {"id": self.id, "object": kind, "created": self.created, "model": self.model}

    def _chunk(self, delta: dict[str, str], finish: str | None) -> bytes:
        choice = {"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}
        return _sse({**self._head("chat.completion.chunk"), "choices": [choice]})


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
