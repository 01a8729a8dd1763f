"""``POST /v1/completions``: the legacy text completion, as editors' completion plugins call it.

The prompt is read as text (no chat template), and the reply is text that continues it, its
whitespace kept.  With a ``suffix`` the prompt is laid out for fill-in-the-middle with the
model's own FIM tokens (prefix, suffix, middle: llama-server's order), and a model without
them gets a 400.  ``echo`` puts the prompt before the reply; ``logprobs`` (0-5) gives the
legacy API's ``tokens``, ``token_logprobs``, ``top_logprobs`` and ``text_offset`` for the
generated tokens (the prompt's own are not computed: echo with logprobs is refused).
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..engine.chat.batch import BatchResult, TokenLogprob
from ..engine.chat.model import ChatModel
from ..engine.chat.sampling import SamplingParams
from ..engine.errors import ChatError
from .api_errors import ApiError
from .chat_request import DEFAULT_TEMPERATURE, bool_field, int_field, number_field, parse_json, stop_field, string_field
from .limits import MAX_COMPLETION_LOGPROBS
from .replies import FINISH_REASONS, Event, EventStream, client_gone, fit_max_tokens, raise_for, sse, start_reply, usage
from .state import ServerState, require_content_type, state_of

DEFAULT_MAX_TOKENS = 16  # the legacy API's default


@dataclasses.dataclass
class CompletionRequest:
    prompt: str | list[int]  # text, or token ids
    suffix: str | None
    echo: bool
    stream: bool
    include_usage: bool
    max_tokens: int
    params: SamplingParams


def parse_completion_request(body: dict[str, Any]) -> CompletionRequest:
    string_field(body, "model", required=False)
    for name in ("n", "best_of"):
        value = body.get(name)
        if value is not None and (isinstance(value, bool) or value != 1):
            raise ApiError(400, f"only {name}=1 is supported: one choice per request", param=name)
    logprobs = int_field(body, "logprobs", 0)
    if logprobs is not None and logprobs > MAX_COMPLETION_LOGPROBS:
        raise ApiError(400, f"'logprobs' must be 0 to {MAX_COMPLETION_LOGPROBS}", param="logprobs")
    echo = bool_field(body, "echo")
    if echo and logprobs is not None:
        raise ApiError(
            400,
            "'echo' with 'logprobs' is not supported: the prompt's own log-probabilities are not computed",
            param="echo",
        )
    suffix = body.get("suffix")
    if suffix is not None and not isinstance(suffix, str):
        raise ApiError(400, "'suffix' must be a string", param="suffix")
    options = body.get("stream_options")
    if options is not None and not isinstance(options, dict):
        raise ApiError(400, "'stream_options' must be an object", param="stream_options")
    temperature = number_field(body, "temperature", 0.0, 2.0)
    top_p = number_field(body, "top_p", 0.0, 1.0)
    max_tokens = int_field(body, "max_tokens", 1)
    params = SamplingParams(
        temperature=DEFAULT_TEMPERATURE if temperature is None else temperature,
        top_p=1.0 if top_p is None else top_p,
        repeat_penalty=1.0,
        seed=int_field(body, "seed", -(2**63)),
        stop=stop_field(body.get("stop")),
        ignore_eos=bool_field(body, "ignore_eos"),
        logprobs=logprobs,
        completion=True,
    )
    return CompletionRequest(
        _prompt(body.get("prompt", "")),
        suffix or None,
        echo,
        bool_field(body, "stream"),
        bool(options and bool_field(options, "include_usage")),
        DEFAULT_MAX_TOKENS if max_tokens is None else max_tokens,
        params,
    )


def _prompt(value: object) -> str | list[int]:
    """One prompt: a string or an array of token ids (an array of one of either is taken too)."""
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], (str, list)):
        value = value[0]
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value and all(isinstance(t, int) and not isinstance(t, bool) for t in value):
        return value
    raise ApiError(400, "'prompt' must be a string or an array of token ids (one prompt per request)", param="prompt")


async def completions(request: Request) -> Response:
    state = state_of(request)
    if state.engine is None or state.chat_model is None:
        raise ApiError(404, "this server has no chat model (start it with one)", code="model_not_found")
    require_content_type(request, "application/json")
    completion = parse_completion_request(parse_json(await request.body()))
    tokens, prompt_text = await run_in_threadpool(prompt_tokens, state.chat_model, completion)
    completion.params.max_tokens = fit_max_tokens(
        completion.max_tokens, len(tokens), state.engine.n_ctx, prompt_param="prompt", limit_param="max_tokens"
    )
    reply = start_reply(state, tokens, completion.params, stream=completion.stream)
    answer = _Completion(state, completion, prompt_text if completion.echo else "")
    if completion.stream:
        return EventStream(answer.events(reply.events), on_close=reply.job.cancel)
    done = await reply.whole(request)
    if done is None:
        return client_gone()
    return JSONResponse(answer.whole(*done))


def prompt_tokens(model: ChatModel, completion: CompletionRequest) -> tuple[list[int], str]:
    """The prompt's tokens and its text (for echo), laid out for fill-in-the-middle with a suffix."""
    llama = model.llama
    prompt = completion.prompt
    if isinstance(prompt, list):
        if any(not 0 <= t < model.n_vocab for t in prompt):
            raise ApiError(400, f"'prompt' holds a token id outside 0-{model.n_vocab - 1}", param="prompt")
        text = b"".join(model.token_bytes(t) for t in prompt).decode("utf-8", "replace")
    else:
        text = prompt
    try:
        if completion.suffix is None:
            tokens = list(prompt) if isinstance(prompt, list) else model.tokenize(prompt)
        else:
            if not llama.fills_in:
                raise ApiError(
                    400,
                    f"{model.name} has no fill-in-the-middle tokens: 'suffix' needs a model trained for it "
                    "(e.g. Qwen2.5-Coder)",
                    param="suffix",
                )
            pre, suf, mid = llama.fim_tokens
            head = list(prompt) if isinstance(prompt, list) else llama.tokenize(prompt.encode(), False)
            tail = llama.tokenize(completion.suffix.encode(), False)
            tokens = ([llama.bos] if llama.adds_bos else []) + [pre, *head, suf, *tail, mid]
    except ChatError as exc:
        raise ApiError(400, str(exc), param="prompt") from None
    if not tokens:
        raise ApiError(400, "'prompt' is empty and this model starts with no token of its own", param="prompt")
    return tokens, text


class _Completion:
    """The API's objects for one completion."""

    def __init__(self, state: ServerState, completion: CompletionRequest, echo: str) -> None:
        self.id = f"cmpl-{uuid.uuid4().hex}"
        self.created = int(time.time())
        self.model = state.chat_name
        self.echo = echo
        self.include_usage = completion.include_usage
        self.logprobs = completion.params.logprobs is not None

    def whole(self, result: BatchResult, logprobs: list[TokenLogprob]) -> dict[str, Any]:
        raise_for(result)
        choice = self._choice(self.echo + result.text, FINISH_REASONS[result.finish], logprobs, len(self.echo))
        return {**self._head(), "choices": [choice], "usage": usage(result)}

    async def events(self, events: asyncio.Queue[Event]) -> AsyncIterator[bytes]:
        offset = len(self.echo)
        if self.echo:
            yield sse({**self._head(), "choices": [self._choice(self.echo, None, [], 0)]})
        pending: list[TokenLogprob] = []  # of the tokens whose text is still to be sent
        while True:
            item = await events.get()
            if isinstance(item, TokenLogprob):
                pending.append(item)
            elif isinstance(item, str):
                yield sse({**self._head(), "choices": [self._choice(item, None, pending, offset)]})
                offset += len(item)
                pending = []
            else:
                try:
                    raise_for(item)
                except ApiError as exc:
                    yield sse(exc.body())
                    return
                yield sse({**self._head(), "choices": [self._choice("", FINISH_REASONS[item.finish], pending, offset)]})
                if self.include_usage:
                    yield sse({**self._head(), "choices": [], "usage": usage(item)})
                yield b"data: [DONE]\n\n"
                return

    def _choice(self, text: str, finish: str | None, logprobs: list[TokenLogprob], offset: int) -> dict[str, Any]:
        return {
            "text": text,
            "index": 0,
            "logprobs": legacy_logprobs(logprobs, offset) if self.logprobs else None,
            "finish_reason": finish,
        }

    def _head(self) -> dict[str, Any]:
        return {"id": self.id, "object": "text_completion", "created": self.created, "model": self.model}


def legacy_logprobs(tokens: list[TokenLogprob], offset: int) -> dict[str, Any]:
    """The legacy API's log-probabilities: parallel lists, ``text_offset`` counted in characters
    from ``offset`` (the echoed prompt's length, and the text sent before)."""
    texts = [t.data.decode("utf-8", "replace") for t in tokens]
    offsets = []
    for text in texts:
        offsets.append(offset)
        offset += len(text)
    return {
        "tokens": texts,
        "token_logprobs": [t.logprob for t in tokens],
        "top_logprobs": [{d.decode("utf-8", "replace"): lp for d, lp in t.top} for t in tokens],
        "text_offset": offsets,
    }
