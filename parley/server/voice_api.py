"""``POST /v1/audio/speech``: text read with Parley's natural voice (Piper, ``engine.voice``).

One request speaks at a time, on a thread of its own (``model_worker``), in a bounded line; a client
that disconnects stops its synthesis before the next sentence.  ``voice`` may name
anything (OpenAI's names included): the loaded voice answers.  Formats: ``wav`` and ``flac`` at
the voice's rate, ``pcm`` as OpenAI sends it (raw 16-bit little-endian mono at 24 kHz), ``mp3``
where this libsndfile writes MP3.  ``speed`` other than 1 is refused (400) rather than ignored.
"""

from __future__ import annotations

import asyncio
import io
from typing import Any

import numpy as np
import soundfile
import soxr
from starlette.requests import Request
from starlette.responses import Response

from ..engine.backend.cancel import CancelToken
from ..engine.errors import Cancelled, QueueFullError
from ..engine.voice.piper import PiperVoice
from ..engine.voice.sentences import SentenceSplitter
from .api_errors import ApiError
from .chat_request import parse_json
from .limits import MAX_NAME_CHARS, MAX_SPEECH_INPUT_CHARS
from .state import ClientGone, require_content_type, state_of, unless_disconnected

PCM_RATE = 24_000  # OpenAI's pcm format
MEDIA = {"wav": "audio/wav", "flac": "audio/flac", "pcm": "audio/pcm", "mp3": "audio/mpeg"}


def formats() -> tuple[str, ...]:
    """The response formats this machine can encode."""
    return tuple(f for f in MEDIA if f != "mp3" or "MP3" in soundfile.available_formats())


async def speech(request: Request) -> Response:
    state = state_of(request)
    if state.voice is None:
        raise ApiError(404, "this server has no voice (start it with one: --voice)", code="model_not_found")
    require_content_type(request, "application/json")
    body = parse_json(await request.body())
    text = _text(body)
    kind = _format(body)
    speed = body.get("speed", 1.0)
    if isinstance(speed, bool) or not isinstance(speed, (int, float)) or speed != 1:
        raise ApiError(400, "only 'speed' 1 is supported", param="speed")
    try:
        future, token = state.voice.submit(lambda voice, cancel: speak(voice, text, cancel))
    except QueueFullError as exc:
        raise ApiError(503, f"the server is busy: {exc}; try again shortly", code="server_busy") from None
    except Cancelled:
        raise ApiError(503, "the server is shutting down", code="server_shutting_down") from None
    try:
        audio = await unless_disconnected(request, asyncio.wrap_future(future))
    except ClientGone:
        token.cancel()
        return Response(status_code=499)
    except Cancelled:
        raise ApiError(503, "the server is shutting down", code="server_shutting_down") from None
    return Response(_encode(audio, state.voice.model.sample_rate, kind), media_type=MEDIA[kind])


def speak(voice: PiperVoice, text: str, cancel: CancelToken) -> np.ndarray:
    """On the voice's thread: ``text`` sentence by sentence, as the read-aloud voice cuts it."""
    splitter = SentenceSplitter(early=())
    parts = []
    for sentence in [*splitter.push(text), *splitter.flush()]:
        if cancel.cancelled:
            raise Cancelled("speech cancelled")
        parts.append(voice.synthesize(sentence))
    return np.concatenate(parts) if parts else np.zeros(0, np.float32)


def _text(body: dict[str, Any]) -> str:
    text = body.get("input")
    if not isinstance(text, str) or not text.strip():
        raise ApiError(400, "'input' must be the text to speak", param="input")
    if len(text) > MAX_SPEECH_INPUT_CHARS:
        raise ApiError(400, f"'input' is longer than {MAX_SPEECH_INPUT_CHARS} characters", param="input")
    for name in ("model", "voice"):
        value = body.get(name, "")
        if not isinstance(value, str) or len(value) > MAX_NAME_CHARS:
            raise ApiError(400, f"'{name}' must be a name of at most {MAX_NAME_CHARS} characters", param=name)
    return text


def _format(body: dict[str, Any]) -> str:
    kind = body.get("response_format", "mp3")
    available = formats()
    if kind not in available:
        raise ApiError(400, f"'response_format' must be one of {', '.join(available)}", param="response_format")
    return str(kind)


def _encode(audio: np.ndarray, rate: int, kind: str) -> bytes:
    if kind == "pcm":
        resampled = soxr.resample(audio, rate, PCM_RATE) if rate != PCM_RATE else audio
        return (np.clip(resampled, -1.0, 1.0) * 32767).astype("<i2").tobytes()
    out = io.BytesIO()
    subtype = None if kind == "mp3" else "PCM_16"
    soundfile.write(out, audio, rate, format=kind.upper(), subtype=subtype)
    return out.getvalue()
