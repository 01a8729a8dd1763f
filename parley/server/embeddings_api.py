"""``POST /v1/embeddings`` and Ollama's ``/api/embed`` and ``/api/embeddings``.

The vectors come from the embedding model the server was given (``parley serve
--embedding-model``), or else from the chat model's weights, mean-pooled (made on the first
request: a second small context, no second copy of the weights).  One request at a time runs on
the embedder's own thread (``ModelWorker``); its texts are decoded together in batches.
Vectors are L2-normalised; ``dimensions`` shortens them for Matryoshka-trained models only.
"""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import time
from typing import Any

import numpy as np
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..engine.backend.cancel import CancelToken
from ..engine.chat.embeddings import Embeddings
from ..engine.errors import Cancelled, ContextOverflowError, InvalidSettingError, QueueFullError
from .api_errors import ApiError
from .chat_request import parse_json, string_field
from .embedder_slot import EmbedderSlot
from .limits import MAX_EMBEDDING_INPUTS
from .state import ClientGone, require_content_type, state_of, unless_disconnected


@dataclasses.dataclass
class EmbeddingRequest:
    texts: list[str | list[int]]
    dimensions: int | None
    truncate: bool


async def embeddings(request: Request) -> Response:
    """OpenAI's ``/v1/embeddings``."""
    require_content_type(request, "application/json")
    body = parse_json(await request.body())
    string_field(body, "model", required=False)
    form = body.get("encoding_format", "float")
    if form not in ("float", "base64"):
        raise ApiError(400, "'encoding_format' must be float or base64", param="encoding_format")
    asked = EmbeddingRequest(_inputs(body.get("input"), "input"), _dimensions(body), truncate=False)
    name, done, _ = await _embed(request, asked)
    data = [
        {"object": "embedding", "index": i, "embedding": _encoded(vector, form)}
        for i, vector in enumerate(done.vectors)
    ]
    return JSONResponse(
        {
            "object": "list",
            "data": data,
            "model": name,
            "usage": {"prompt_tokens": done.tokens, "total_tokens": done.tokens},
        }
    )


async def ollama_embed(request: Request) -> Response:
    """Ollama's ``/api/embed``: ``input`` one text or several, cut to fit unless ``truncate`` is false."""
    body = await _ollama_body(request)
    truncate = body.get("truncate", True)
    if not isinstance(truncate, bool):
        raise ApiError(400, "'truncate' must be true or false", param="truncate")
    asked = EmbeddingRequest(_inputs(body.get("input"), "input", tokens=False), _dimensions(body), truncate)
    name, done, seconds = await _embed(request, asked)
    nanoseconds = int(seconds * 1e9)
    return JSONResponse(
        {
            "model": f"{name}:latest",
            "embeddings": done.vectors.tolist(),
            "total_duration": nanoseconds,
            "load_duration": 0,
            "prompt_eval_count": done.tokens,
        }
    )


async def ollama_embeddings(request: Request) -> Response:
    """Ollama's older ``/api/embeddings``: one ``prompt``, one ``embedding``."""
    body = await _ollama_body(request)
    prompt = body.get("prompt", "")
    if not isinstance(prompt, str):
        raise ApiError(400, "'prompt' must be a string", param="prompt")
    _, done, _ = await _embed(request, EmbeddingRequest([prompt], None, truncate=True))
    return JSONResponse({"embedding": done.vectors[0].tolist()})


async def _ollama_body(request: Request) -> dict[str, Any]:
    if "origin" in request.headers:  # a web page: the browser must ask first (see ollama_api)
        require_content_type(request, "application/json")
    body = parse_json(await request.body())
    keep_alive = body.get("keep_alive")  # accepted, no effect: the model stays loaded while serving
    if keep_alive is not None and (isinstance(keep_alive, bool) or not isinstance(keep_alive, (str, int, float))):
        raise ApiError(400, "'keep_alive' must be a duration such as \"5m\" or a number of seconds", param="keep_alive")
    return body


async def _embed(request: Request, asked: EmbeddingRequest) -> tuple[str, Embeddings, float]:
    """The request's vectors on the embedder's thread: the model's name, them, and the seconds taken."""
    state = state_of(request)
    if state.embedder is None:
        raise ApiError(404, "this server has no model for embeddings (start it with one)", code="model_not_found")
    slot = state.embedder.model
    started = time.perf_counter()
    try:
        future, cancel = state.embedder.submit(lambda slot, token: _run(slot, asked, token))
    except QueueFullError as exc:
        raise ApiError(503, f"the server is busy: {exc}; try again shortly", code="server_busy") from None
    try:
        done = await unless_disconnected(request, asyncio.wrap_future(future))
    except ClientGone:
        cancel.cancel()
        raise ApiError(499, "the client has gone") from None
    return slot.name, done, time.perf_counter() - started


def _run(slot: EmbedderSlot, asked: EmbeddingRequest, cancel: CancelToken) -> Embeddings:
    embedder = slot.get()
    texts = []
    for i, text in enumerate(asked.texts):
        if isinstance(text, list):
            if any(not 0 <= t < embedder.llama.n_vocab for t in text):
                raise ApiError(
                    400, f"'input[{i}]' holds a token id outside 0-{embedder.llama.n_vocab - 1}", param="input"
                )
            texts.append(text[: embedder.max_tokens] if asked.truncate else text)
            if len(text) > embedder.max_tokens and not asked.truncate:
                raise _too_long(i, len(text), embedder.max_tokens)
            continue
        try:
            texts.append(embedder.tokenize(text, asked.truncate))
        except ContextOverflowError as exc:
            raise _too_long(i, exc.tokens, embedder.max_tokens) from None
    try:
        done = embedder.embed(texts, cancel)
        if asked.dimensions is not None:
            done.vectors = embedder.shorten(done.vectors, asked.dimensions)
    except InvalidSettingError as exc:
        raise ApiError(400, str(exc), param="dimensions") from None
    except Cancelled:
        raise ApiError(503, "the server is shutting down", code="server_shutting_down") from None
    return done


def _too_long(index: int, tokens: int, limit: int) -> ApiError:
    return ApiError(
        400,
        f"'input[{index}]' is {tokens} tokens long; this embedding model reads at most {limit} per text",
        param="input",
        code="context_length_exceeded",
    )


def _inputs(value: object, param: str, tokens: bool = True) -> list[str | list[int]]:
    """One text or several (OpenAI's also token ids), at most MAX_EMBEDDING_INPUTS."""
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list) or not value:
        raise ApiError(400, f"'{param}' must be a string or a non-empty array of strings", param=param)
    if len(value) > MAX_EMBEDDING_INPUTS:
        raise ApiError(
            400,
            f"'{param}' holds {len(value)} texts; at most {MAX_EMBEDDING_INPUTS} are accepted per request",
            param=param,
        )
    if all(isinstance(v, str) for v in value):
        return list(value)
    if tokens and all(_is_ids(v) for v in value):
        return [list(v) for v in value]
    if tokens and _is_ids(value):
        return [list(value)]
    what = "strings or token id arrays" if tokens else "strings"
    raise ApiError(400, f"'{param}' must hold {what}", param=param)


def _is_ids(value: object) -> bool:
    return (
        isinstance(value, list) and bool(value) and all(isinstance(t, int) and not isinstance(t, bool) for t in value)
    )


def _dimensions(body: dict[str, Any]) -> int | None:
    value = body.get("dimensions")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ApiError(400, "'dimensions' must be a positive integer", param="dimensions")
    return value


def _encoded(vector: np.ndarray, form: str) -> list[float] | str:
    if form == "base64":  # little-endian float32, as OpenAI sends it and its SDK reads it
        return base64.b64encode(vector.astype("<f4").tobytes()).decode()
    values: list[float] = vector.tolist()
    return values
