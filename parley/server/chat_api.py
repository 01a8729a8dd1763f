"""``POST /v1/chat/completions``: one reply from the batch engine (``replies``), whole or as
server-sent events, with tool calls read from the model's text.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..engine.chat import tool_prompt
from ..engine.chat.batch import BatchResult, TokenLogprob
from ..engine.chat.model import ChatModel
from ..engine.chat.tool_calls import ToolCall, ToolCallStream, ToolDelta, parse_reply
from ..engine.errors import ChatError, SchemaError, TemplateRefusedError
from .api_errors import ApiError
from .chat_request import ChatRequest, grammar_for, parse_chat_request, parse_json
from .replies import (
    FINISH_REASONS,
    Event,
    EventStream,
    check_grammar,
    client_gone,
    fit_max_tokens,
    raise_for,
    sse,
    start_reply,
    usage,
)
from .state import ServerState, require_content_type, state_of


async def chat_completions(request: Request) -> Response:
    state = state_of(request)
    if state.engine is None or state.chat_model is None:
        raise ApiError(404, "this server has no chat model (start it with one)", code="model_not_found")
    require_content_type(request, "application/json")
    chat = parse_chat_request(parse_json(await request.body()))
    tokens, opening = await run_in_threadpool(prepare_chat, state, state.chat_model, chat)
    chat.params.max_tokens = fit_max_tokens(
        chat.max_tokens, len(tokens), state.engine.n_ctx, prompt_param="messages", limit_param="max_tokens"
    )
    reply = start_reply(state, tokens, chat.params, stream=chat.stream)
    answer = _Reply(state.chat_name, chat, opening)
    if chat.stream:
        return EventStream(answer.events(reply.events, chat.include_usage), on_close=reply.job.cancel)
    done = await reply.whole(request)
    if done is None:
        return client_gone()
    result, logprobs = done
    return JSONResponse(answer.whole(result, logprobs if chat.params.logprobs is not None else None))


def prepare_chat(state: ServerState, model: ChatModel, chat: ChatRequest) -> tuple[list[int], str]:
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
        raise_for(result)
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
            "usage": usage(result),
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
                raise_for(item)
            except ApiError as exc:
                yield sse(exc.body())
                return
            finish = FINISH_REASONS[item.finish]
            if calls is not None:
                for delta in self._deltas(calls.finish()):
                    yield self._chunk(delta, None)
                if calls.calls:
                    finish = "tool_calls"
            yield self._chunk({}, finish, logprobs)
            if include_usage:
                yield sse({**self._head("chat.completion.chunk"), "choices": [], "usage": usage(item)})
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
        return sse({**self._head("chat.completion.chunk"), "choices": [choice]})


def _call(call: ToolCall) -> dict[str, Any]:
    return {"id": call.id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}
