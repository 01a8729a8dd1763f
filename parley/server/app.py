"""The routes, the error handlers and the middleware, put together as one ASGI application."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp

from . import ollama_api
from .api_errors import ApiError, error_body, is_ollama_path
from .audio_api import transcriptions
from .chat_api import chat_completions
from .completions_api import completions
from .embeddings_api import embeddings, ollama_embed, ollama_embeddings
from .guard import Activity, Guard
from .state import ServerState, state_of
from .voice_api import speech


def build_app(
    state: ServerState,
    *,
    api_key: str | None,
    loopback_hosts_only: bool,
    cors_origins: tuple[str, ...],
    activity: Activity,
) -> ASGIApp:
    routes = [
        Route("/v1/models", list_models, methods=["GET"]),
        Route("/v1/chat/completions", chat_completions, methods=["POST"]),
        Route("/v1/completions", completions, methods=["POST"]),
        Route("/v1/embeddings", embeddings, methods=["POST"]),
        Route("/v1/audio/transcriptions", transcriptions, methods=["POST"]),
        Route("/v1/audio/speech", speech, methods=["POST"]),
        # Ollama's API on the same port
        Route("/", ollama_api.root, methods=["GET", "HEAD"]),
        Route("/api/version", ollama_api.version, methods=["GET"]),
        Route("/api/tags", ollama_api.tags, methods=["GET"]),
        Route("/api/ps", ollama_api.running, methods=["GET"]),
        Route("/api/show", ollama_api.show, methods=["POST"]),
        Route("/api/chat", ollama_api.chat, methods=["POST"]),
        Route("/api/generate", ollama_api.generate, methods=["POST"]),
        Route("/api/embed", ollama_embed, methods=["POST"]),
        Route("/api/embeddings", ollama_embeddings, methods=["POST"]),
        *(Route(path, ollama_api.refused, methods=["POST", "DELETE"]) for path in ollama_api.REFUSED),
    ]
    starlette = Starlette(
        routes=routes,
        exception_handlers={ApiError: _api_error, HTTPException: _http_error, Exception: _unexpected},
    )
    starlette.state.parley = state
    app: ASGIApp = Guard(starlette, api_key=api_key, loopback_hosts_only=loopback_hosts_only, activity=activity)
    if cors_origins:  # outside the guard: a browser's preflight carries no key
        app = CORSMiddleware(
            app,
            allow_origins=list(cors_origins),
            allow_methods=["GET", "POST", "DELETE"],
            allow_headers=["Authorization", "Content-Type"],
        )
    return app


async def list_models(request: Request) -> Response:
    state = state_of(request)
    served = ((state.chat_name, state.engine), (state.speech_name, state.speech))
    names = [n for n, present in served if present]
    if state.embedder is not None and state.embedder.model.dedicated:
        names.append(state.embedder.model.name)
    return JSONResponse(
        {
            "object": "list",
            "data": [{"id": name, "object": "model", "created": state.created, "owned_by": "parley"} for name in names],
        }
    )


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return exc.response(request.url.path)


async def _http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own errors (no such route, wrong method, a malformed multipart body)."""
    assert isinstance(exc, HTTPException)
    return (
        ApiError(exc.status_code, exc.detail).response(request.url.path)
        if is_ollama_path(request.url.path)
        else JSONResponse(error_body(exc.status_code, exc.detail), status_code=exc.status_code, headers=exc.headers)
    )


async def _unexpected(request: Request, exc: Exception) -> Response:
    return ApiError(500, f"internal error: {type(exc).__name__}").response(request.url.path)
