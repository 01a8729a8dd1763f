"""``POST /v1/audio/transcriptions`` (multipart upload); ``/v1/audio/speech`` is ``voice_api``.

A transcription hears a file the way ``parley transcribe`` does (``transcribe_speech``: the
speech region only, whisper's non-speech markers dropped), so the two give the same text.
The upload is copied to a private temporary file and read by ``load_audio``, with its checks
(any format libsndfile decodes, header limits, at most ``MAX_AUDIO_SECONDS``).
"""

from __future__ import annotations

import asyncio
import math
import os
import shutil
import tempfile
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from ..engine.audio.files import load_audio
from ..engine.backend.cancel import CancelToken
from ..engine.errors import AudioError, AudioLimitError, Cancelled, InvalidSettingError, QueueFullError
from ..engine.formats import SAMPLE_RATE
from ..engine.speech import SpeechModel, Spoken, transcribe_speech
from .api_errors import ApiError
from .limits import MAX_AUDIO_SECONDS, MAX_FIELD_BYTES, MAX_FORM_FIELDS, MAX_NAME_CHARS, MAX_PROMPT_CHARS
from .state import ClientGone, require_content_type, state_of, unless_disconnected

FORMATS = ("json", "text", "srt", "verbose_json", "vtt")


async def transcriptions(request: Request) -> Response:
    state = state_of(request)
    if state.speech is None:
        raise ApiError(404, "this server has no speech model (start it with one)", code="model_not_found")
    require_content_type(request, "multipart/form-data")
    async with request.form(max_files=1, max_fields=MAX_FORM_FIELDS, max_part_size=MAX_FIELD_BYTES) as form:
        upload = form.get("file")
        if not isinstance(upload, UploadFile):
            raise ApiError(400, "the audio must be sent as the multipart file field 'file'", param="file")
        options = _options(form)
        path = await run_in_threadpool(_save, upload)
    try:
        try:
            future, cancel = state.speech.submit(lambda model, token: _transcribe(model, path, options, token))
        except QueueFullError as exc:
            raise ApiError(503, f"the server is busy: {exc}; try again shortly", code="server_busy") from None
        try:
            audio_seconds, spoken = await unless_disconnected(request, asyncio.wrap_future(future))
        except ClientGone:
            cancel.cancel()
            return Response(status_code=499)  # never delivered: the client has gone
    finally:
        os.unlink(path)
    return _respond(options["response_format"], audio_seconds, spoken)


def _options(form: FormData) -> dict[str, Any]:
    def text(name: str, default: str, limit: int = MAX_NAME_CHARS) -> str:
        value = form.get(name, default)
        if not isinstance(value, str) or len(value) > limit:
            raise ApiError(400, f"'{name}' must be text of at most {limit} characters", param=name)
        return value

    response_format = text("response_format", "json")
    if response_format not in FORMATS:
        raise ApiError(400, f"'response_format' must be one of {', '.join(FORMATS)}", param="response_format")
    for granularity in form.getlist("timestamp_granularities[]"):
        if granularity != "segment":
            raise ApiError(400, "only segment timestamps are supported", param="timestamp_granularities")
    if text("stream", "false").lower() == "true":
        raise ApiError(400, "streamed transcriptions are not supported", param="stream")
    try:
        temperature = float(text("temperature", "0"))
    except ValueError:
        temperature = math.nan
    if not 0.0 <= temperature <= 1.0:
        raise ApiError(400, "'temperature' must be a number from 0 to 1", param="temperature")
    language = text("language", "auto", 16).strip() or "auto"
    if not language.replace("-", "").isalpha():
        raise ApiError(400, "'language' must be a language code such as 'en'", param="language")
    text("model", "")  # any name: the loaded model answers
    return {
        "response_format": response_format,
        "language": language,
        "initial_prompt": text("prompt", "", MAX_PROMPT_CHARS) or None,
        "temperature": temperature,
    }


def _save(upload: UploadFile) -> str:
    """Copy the upload to a private temporary file (the name the client gave is not used)."""
    fd, path = tempfile.mkstemp(prefix="parley-upload-")
    try:
        with os.fdopen(fd, "wb") as out:
            upload.file.seek(0)
            shutil.copyfileobj(upload.file, out)
    except BaseException:
        os.unlink(path)
        raise
    return path


def _transcribe(
    model: SpeechModel, path: str, options: dict[str, Any], cancel: CancelToken
) -> tuple[float, Spoken | None]:
    """On the speech thread: decode the file and hear it; 400 for audio that cannot be used."""
    try:
        audio = load_audio(path, max_seconds=MAX_AUDIO_SECONDS)
        spoken = transcribe_speech(
            model,
            audio,
            language=options["language"],
            initial_prompt=options["initial_prompt"],
            temperature=options["temperature"],
            cancel=cancel,
        )
    except AudioLimitError as exc:
        raise ApiError(400, _without_path(str(exc), path), param="file", code="audio_too_long") from None
    except AudioError as exc:
        raise ApiError(400, _without_path(str(exc), path), param="file", code="invalid_audio") from None
    except InvalidSettingError as exc:  # e.g. a language whisper does not know
        raise ApiError(400, str(exc), param="language") from None
    except Cancelled:
        raise ApiError(503, "the server is shutting down", code="server_shutting_down") from None
    return len(audio) / SAMPLE_RATE, spoken


def _without_path(message: str, path: str) -> str:
    """An audio error names the file; the client knows it as "the file", not our temporary path."""
    return message.replace(f"{path}: ", "the file ").replace(path, "the file")


def _respond(kind: str, seconds: float, spoken: Spoken | None) -> Response:
    text = spoken.text if spoken else ""
    segments = spoken.segments if spoken else []
    if kind == "json":
        return JSONResponse({"text": text})
    if kind == "text":
        return PlainTextResponse(text + "\n" if text else "")
    if kind == "verbose_json":
        return JSONResponse(
            {
                "task": "transcribe",
                "language": spoken.language if spoken else "",
                "duration": round(seconds, 3),
                "text": text,
                "segments": [
                    {"id": i, "seek": 0, "start": round(s.start, 3), "end": round(s.end, 3), "text": s.text}
                    for i, s in enumerate(segments)
                ],
            }
        )
    if kind == "srt":
        blocks = [
            f"{i}\n{_clock(s.start, ',')} --> {_clock(s.end, ',')}\n{s.text}\n" for i, s in enumerate(segments, 1)
        ]
        return PlainTextResponse("\n".join(blocks))
    cues = [f"{_clock(s.start, '.')} --> {_clock(s.end, '.')}\n{s.text}\n" for s in segments]
    return PlainTextResponse("\n".join(["WEBVTT\n", *cues]), media_type="text/vtt")


def _clock(seconds: float, mark: str) -> str:
    millis = round(seconds * 1000)
    hours, millis = divmod(millis, 3_600_000)
    minutes, millis = divmod(millis, 60_000)
    secs, millis = divmod(millis, 1000)
    return f"{hours:02d}:{minutes:02d}:{secs:02d}{mark}{millis:03d}"
