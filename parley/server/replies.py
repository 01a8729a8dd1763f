"""One reply on the batch engine, as every generating route runs it (chat, completions, Ollama's).

The engine's callbacks run on its own thread; they only hand each piece, each token's odds and
the result to the request's asyncio queue (``call_soon_threadsafe``).  A client that
disconnects cancels its job, which ends before its next token, whether it streams or waits for
the whole reply.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.types import Receive, Scope, Send

from ..engine.chat.batch import BatchJob, BatchResult, TokenLogprob
from ..engine.chat.model import ChatModel
from ..engine.chat.sampling import SamplingParams
from ..engine.errors import GrammarError, QueueFullError
from ..engine.handles.llama import LlamaGrammar
from .api_errors import ApiError
from .state import ClientGone, ServerState, unless_disconnected

FINISH_REASONS = {"eog": "stop", "stop": "stop", "max_tokens": "length", "context": "length"}
SHUTTING_DOWN = "the server is shutting down"

Event = str | BatchResult | TokenLogprob  # what the engine thread hands a request: text, the end, a token's odds


class RunningReply:
    """A job on the engine and the queue its events arrive in."""

    def __init__(self, job: BatchJob, events: asyncio.Queue[Event]) -> None:
        self.job = job
        self.events = events

    async def whole(self, request: Request) -> tuple[BatchResult, list[TokenLogprob]] | None:
        """The result and the tokens' odds once the reply is done; None when the client went
        away first (the job is then cancelled)."""
        try:
            return await unless_disconnected(request, collect(self.events))
        except ClientGone:
            return None
        finally:
            self.job.cancel()  # a no-op once the job is done


def start_reply(state: ServerState, tokens: list[int], params: SamplingParams, *, stream: bool) -> RunningReply:
    """Queue a reply to ``tokens``; 503 when the engine's line is full."""
    assert state.engine is not None
    loop = asyncio.get_running_loop()
    events: asyncio.Queue[Event] = asyncio.Queue()

    def hand_over(item: Event) -> None:
        loop.call_soon_threadsafe(events.put_nowait, item)

    def done(result: BatchResult) -> None:  # on the engine thread, its only writer of the counts
        state.replies[result.finish] += 1
        hand_over(result)

    try:
        job = state.engine.submit(
            tokens,
            params,
            on_text=hand_over if stream else None,
            on_done=done,
            on_logprob=hand_over if params.logprobs is not None else None,
        )
    except QueueFullError as exc:
        raise ApiError(503, f"the server is busy: {exc}; try again shortly", code="server_busy") from None
    return RunningReply(job, events)


def client_gone() -> Response:
    return Response(status_code=499)  # never delivered: the client has gone


async def collect(events: asyncio.Queue[Event]) -> tuple[BatchResult, list[TokenLogprob]]:
    logprobs: list[TokenLogprob] = []
    while True:
        item = await events.get()
        if isinstance(item, BatchResult):
            return item, logprobs
        if isinstance(item, TokenLogprob):
            logprobs.append(item)


def check_grammar(model: ChatModel, grammar: str, param: str = "response_format") -> None:
    try:
        LlamaGrammar(model.llama, grammar).close()
    except GrammarError as exc:
        raise ApiError(400, f"the schema's grammar was refused: {exc}", param=param) from None


def fit_max_tokens(asked: int | None, prompt: int, n_ctx: int, *, prompt_param: str, limit_param: str) -> int:
    """The reply's limit: as asked, or what the context leaves; 400 when they do not fit."""
    wanted = asked if asked is not None else max(1, n_ctx - prompt)
    if prompt + wanted > n_ctx:
        what = f"{prompt} in the prompt" + (f" and {wanted} for the reply" if asked is not None else "")
        raise ApiError(
            400,
            f"this model's context holds {n_ctx} tokens per request; the request needs {prompt + wanted} "
            f"({what}). Shorten the prompt or lower {limit_param}.",
            param=prompt_param if prompt >= n_ctx else limit_param,
            code="context_length_exceeded",
        )
    return wanted


def raise_for(result: BatchResult) -> None:
    """An ApiError for a reply that did not end as a reply may (shut down, failed)."""
    if result.finish == "cancelled":
        raise ApiError(503, SHUTTING_DOWN, code="server_shutting_down")
    if result.finish == "error":
        raise ApiError(500, f"the reply failed: {result.error}", code="generation_failed")


def usage(result: BatchResult) -> dict[str, Any]:
    return {
        "prompt_tokens": result.prompt_tokens,
        "completion_tokens": result.generated_tokens,
        "total_tokens": result.prompt_tokens + result.generated_tokens,
        "prompt_tokens_details": {"cached_tokens": result.cached_tokens},
    }


def sse(data: dict[str, Any]) -> bytes:
    return b"data: " + json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode() + b"\n\n"


class EventStream(StreamingResponse):
    """A streamed reply that calls ``on_close`` however the response ends: done, failed, or
    cut short because the client disconnected (Starlette then cancels the stream).
    Server-sent events unless another ``media_type`` is given (Ollama's JSON lines)."""

    def __init__(
        self, content: AsyncIterator[bytes], on_close: Callable[[], None], media_type: str = "text/event-stream"
    ) -> None:
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        super().__init__(content, media_type=media_type, headers=headers)
        self._on_close = on_close

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._on_close()
