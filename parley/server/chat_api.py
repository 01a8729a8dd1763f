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

from ..engine.chat.batch import BatchResult, TokenLogprob
from ..engine.chat.model import ChatModel
from ..engine.errors import ChatError, GrammarError, QueueFullError
from ..engine.handles.llama import LlamaGrammar
from .api_errors import ApiError
from .chat_request import ChatRequest, grammar_for, parse_chat_request, parse_json
from .state import ClientGone, require_content_type, state_of, unless_disconnected

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
    tokens = await run_in_threadpool(_prepare, model, chat)
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
    reply = _Reply(state.chat_name)
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


def _prepare(model: ChatModel, chat: ChatRequest) -> list[int]:
    """Off the event loop: the prompt's tokens, and the response format's grammar, checked by
    llama.cpp (400 when it refuses it)."""
    chat.params.grammar = grammar_for(chat.response_format)
    if chat.params.grammar is not None:
        check_grammar(model, chat.params.grammar)
    try:
        return model.tokenize(model.prompt_format.render(chat.messages))
    except ChatError as exc:
        raise ApiError(400, str(exc), param="messages") from None


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

    def __init__(self, model: str) -> None:
        self.id = f"chatcmpl-{uuid.uuid4().hex}"
        self.created = int(time.time())
        self.model = model

    def whole(self, result: BatchResult, logprobs: list[TokenLogprob] | None) -> dict[str, Any]:
        _raise_for(result)
        return {
            **self._head("chat.completion"),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": result.text},
                    "finish_reason": FINISH_REASONS[result.finish],
                    "logprobs": None if logprobs is None else {"content": [logprob_entry(x) for x in logprobs]},
                }
            ],
            "usage": _usage(result),
        }

    async def events(self, events: asyncio.Queue[Event], include_usage: bool) -> AsyncIterator[bytes]:
        yield self._chunk({"role": "assistant", "content": ""}, None)
        logprobs: list[TokenLogprob] = []  # of the tokens whose text is still to be sent
        while True:
            item = await events.get()
            if isinstance(item, TokenLogprob):
                logprobs.append(item)
                continue
            if isinstance(item, str):
                yield self._chunk({"content": item}, None, logprobs)
                logprobs = []
                continue
            try:
                _raise_for(item)
            except ApiError as exc:
                yield _sse(exc.body())
                return
            yield self._chunk({}, FINISH_REASONS[item.finish], logprobs)
            if include_usage:
                yield _sse({**self._head("chat.completion.chunk"), "choices": [], "usage": _usage(item)})
            yield b"data: [DONE]\n\n"
            return

    def _head(self, kind: str) -> dict[str, Any]:
        return {"id": self.id, "object": kind, "created": self.created, "model": self.model}

    def _chunk(self, delta: dict[str, Any], finish: str | None, logprobs: list[TokenLogprob] | None = None) -> bytes:
        content = {"content": [logprob_entry(x) for x in logprobs]} if logprobs else None
        choice = {"index": 0, "delta": delta, "finish_reason": finish, "logprobs": content}
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
