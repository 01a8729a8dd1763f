"""What the routes share: the engines and the names they are served under."""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import time
from collections.abc import Awaitable
from typing import TypeVar

from starlette.requests import Request

from ..engine.chat.batch import BatchEngine
from ..engine.chat.chat_template import ChatTemplate
from ..engine.chat.model import ChatModel
from ..engine.speech import SpeechModel
from ..engine.voice.piper import PiperVoice
from .api_errors import ApiError
from .embedder_slot import EmbedderSlot
from .model_worker import ModelWorker

T = TypeVar("T")


@dataclasses.dataclass
class ServerState:
    chat_model: ChatModel | None
    engine: BatchEngine | None
    chat_name: str
    speech: ModelWorker[SpeechModel] | None
    speech_name: str
    voice: ModelWorker[PiperVoice] | None = None  # the read-aloud voice, for /v1/audio/speech
    embedder: ModelWorker[EmbedderSlot] | None = None  # for /v1/embeddings and /api/embed
    chat_template: ChatTemplate | None = None  # the model's own template, for tools (None: the built-in format)
    tool_family: str = "hermes"  # the form its calls take (tool_prompt.family_of)
    created: int = dataclasses.field(default_factory=lambda: int(time.time()))
    replies: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)  # by finish


def state_of(request: Request) -> ServerState:
    state: ServerState = request.app.state.parley
    return state


def require_content_type(request: Request, wanted: str) -> None:
    """415 unless the request says its body is ``wanted``."""
    media = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media != wanted:
        raise ApiError(
            415, f"the body must be sent as {wanted}, not {media or 'an unnamed type'}", code="unsupported_media_type"
        )


class ClientGone(Exception):
    """The client disconnected before its answer was ready."""


async def unless_disconnected(request: Request, work: Awaitable[T]) -> T:
    """``work``'s result, or ClientGone as soon as the client disconnects (the body has been
    read, so the next message the server receives is the disconnect)."""
    task = asyncio.ensure_future(work)
    watch = asyncio.ensure_future(_disconnect(request))
    try:
        await asyncio.wait({task, watch}, return_when=asyncio.FIRST_COMPLETED)
        if task.done():
            return task.result()
        raise ClientGone
    finally:
        watch.cancel()
        if not task.done():
            task.cancel()


async def _disconnect(request: Request) -> None:
    while (await request.receive())["type"] != "http.disconnect":
        pass
