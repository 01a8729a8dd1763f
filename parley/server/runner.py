"""Start and stop the server around models that are already loaded.

Threads: uvicorn runs its asyncio loop on a thread of its own (so the caller, the CLI or the
app's UI thread, is never blocked); the batch engine decodes on its thread and the speech
worker transcribes on its own.  The engines are used by those threads only.

``stop()`` ends every reply and transcription in progress (their clients get an error event
or a 503), stops uvicorn, and frees the engine's context; the models stay loaded and stay the
caller's to close, after ``stop()``.
"""

from __future__ import annotations

import dataclasses
import socket
import threading
import time
from collections.abc import Callable

import uvicorn

from ..engine.chat.batch import DEFAULT_MAX_QUEUE, BatchEngine
from ..engine.chat.embeddings import Embedder
from ..engine.chat.model import ChatModel
from ..engine.chat.tool_prompt import family_of
from ..engine.errors import InvalidSettingError
from ..engine.speech import SpeechModel
from ..engine.voice.piper import PiperVoice
from .app import build_app
from .embedder_slot import EmbedderSlot
from .guard import Activity, is_loopback
from .limits import MAX_EMBEDDING_WAITING, MAX_SPEECH_WAITING, MAX_VOICE_WAITING
from .model_worker import ModelWorker
from .state import ServerState

START_TIMEOUT = 30.0  # seconds for uvicorn to start on a socket that is already bound
STOP_TIMEOUT = 10.0  # seconds for open connections to close after the replies were ended


@dataclasses.dataclass
class ServerOptions:
    host: str = "127.0.0.1"
    port: int = 8080  # 0: any free port (the handle's address says which)
    api_key: str | None = None  # required off loopback
    parallel: int = 4  # chat replies decoded together
    n_ctx: int | None = None  # tokens per reply (prompt and answer); default: the model's context
    max_queue: int = DEFAULT_MAX_QUEUE  # chat requests that may wait for a sequence
    cors_origins: tuple[str, ...] = ()  # browser origins allowed to call the API; none by default
    # A second port on the same host with the same routes, for apps that look for Ollama only
    # on its own port (11434); None: the one port serves both APIs
    ollama_port: int | None = None


class ServerHandle:
    """A running server: its address, whether a request is in progress, and ``stop()``."""

    def __init__(
        self,
        server: uvicorn.Server,
        thread: threading.Thread,
        sockets: list[socket.socket],
        state: ServerState,
        activity: Activity,
    ) -> None:
        self._server, self._thread, self._sockets = server, thread, sockets
        sock = sockets[0]
        self._state, self._engine, self._speech, self._activity = state, state.engine, state.speech, activity
        self._voice = state.voice
        self._embedder = state.embedder
        host, port = sock.getsockname()[:2]
        self.host, self.port = host, int(port)
        self.address = f"http://{f'[{host}]' if ':' in host else host}:{port}"
        # The Ollama port's address, when one was asked for
        self.ollama_address = (
            f"http://{f'[{host}]' if ':' in host else host}:{sockets[1].getsockname()[1]}" if len(sockets) > 1 else None
        )

    @property
    def busy(self) -> bool:
        """Whether a chat or transcription request is in progress (a reply whose client has
        just gone counts until it has stopped)."""
        parts = (self._activity, self._engine, self._speech, self._voice, self._embedder)
        return any(part is not None and part.busy for part in parts)

    @property
    def replies(self) -> dict[str, int]:
        """How many chat replies ended each way so far ("eog", "stop", "max_tokens", "context",
        "cancelled" (the client went away), "error")."""
        return dict(self._state.replies)

    def stop(self) -> None:
        self._server.should_exit = True
        if self._engine is not None:
            self._engine.close()
        for worker in (self._speech, self._voice, self._embedder):
            if worker is not None:
                worker.close()
        if self._embedder is not None:
            self._embedder.model.close()
        self._thread.join(STOP_TIMEOUT)
        if self._thread.is_alive():  # a client that still holds its connection open
            self._server.force_exit = True
            self._thread.join(STOP_TIMEOUT)
        for sock in self._sockets:
            sock.close()


def check_address(host: str, api_key: str | None) -> None:
    """InvalidSettingError for an address beyond this computer without an API key."""
    if not is_loopback(host) and not api_key:
        raise InvalidSettingError(
            f"serving on {host}, beyond this computer, requires an API key (--api-key); "
            "without one the server listens on 127.0.0.1 only"
        )


def start_server(
    chat: ChatModel | None,
    speech: SpeechModel | None,
    options: ServerOptions,
    on_busy: Callable[[bool], None] | None = None,
    voice: PiperVoice | None = None,
    embedding: Embedder | None = None,
) -> ServerHandle:
    """Serve ``chat``, ``speech``, ``voice`` and ``embedding`` (any may be None; without an
    embedding model, embeddings come from the chat model's weights) as ``options`` say;
    ``on_busy(bool)`` is called from a server thread when requests start or stop running.
    The models stay the caller's to close, after ``stop()``."""
    if chat is None and speech is None and voice is None and embedding is None:
        raise InvalidSettingError("the server needs a chat model, a speech model, a voice or an embedding model")
    check_address(options.host, options.api_key)
    sockets = [_bind(options.host, options.port)]
    engine = speech_worker = voice_worker = embedder = None
    try:
        if options.ollama_port is not None:
            sockets.append(_bind(options.host, options.ollama_port))
        if chat is not None:
            engine = BatchEngine(chat, parallel=options.parallel, n_ctx=options.n_ctx, max_queue=options.max_queue)
        if speech is not None:
            speech_worker = ModelWorker(speech, MAX_SPEECH_WAITING, "transcription")
        if voice is not None:
            voice_worker = ModelWorker(voice, MAX_VOICE_WAITING, "voice request")
        if embedding is not None or chat is not None:
            embedder = ModelWorker(EmbedderSlot(embedding, chat), MAX_EMBEDDING_WAITING, "embeddings request")
        template = chat.tool_template() if chat is not None else None
        state = ServerState(
            chat_template=template,
            tool_family=family_of(template.source if template else None),
            chat_model=chat,
            engine=engine,
            chat_name=chat.path.stem if chat else "",
            speech=speech_worker,
            speech_name=speech.name if speech else "",
            voice=voice_worker,
            embedder=embedder,
        )
        activity = Activity(on_busy)
        app = build_app(
            state,
            api_key=options.api_key,
            # Without a key, a loopback server answers only requests addressed to a loopback
            # name (DNS rebinding); with one, a page that does not know it gets nothing anyway,
            # and a TLS proxy in front may pass its own Host.
            loopback_hosts_only=is_loopback(options.host) and not options.api_key,
            cors_origins=options.cors_origins,
            activity=activity,
        )
        config = uvicorn.Config(
            app, lifespan="off", log_level="warning", access_log=False, timeout_graceful_shutdown=int(STOP_TIMEOUT)
        )
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, kwargs={"sockets": sockets}, name="parley-http", daemon=True)
        thread.start()
        handle = ServerHandle(server, thread, sockets, state, activity)
        _wait_started(server, thread)
    except BaseException:
        for part in (engine, speech_worker, voice_worker, embedder):
            if part is not None:
                part.close()
        for sock in sockets:
            sock.close()
        raise
    return handle


def _bind(host: str, port: int) -> socket.socket:
    if not 0 <= port <= 65535:
        raise InvalidSettingError(f"the port must be 0 to 65535, not {port}")
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
    except OSError as exc:
        raise InvalidSettingError(f"cannot listen on {host}: {exc}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise InvalidSettingError(f"cannot listen on {host} port {port}: {exc.strerror or exc}") from None
    return sock


def _wait_started(server: uvicorn.Server, thread: threading.Thread) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while not server.started:
        if not thread.is_alive():
            raise InvalidSettingError("the HTTP server stopped while starting (see the log)")
        if time.monotonic() > deadline:
            raise InvalidSettingError("the HTTP server did not start")
        time.sleep(0.02)
