"""Settings > Desktop, "Let other apps on this computer use Parley's models": ``parley serve``
inside the app, on the models the app already holds.

The server (``parley.server``) opens its own llama.cpp context on the loaded chat model's weights
(no second copy of the model) and transcribes with the loaded speech model, whose transcriptions
take turns with the app's own (``SpeechModel`` holds a lock).  Requests from other apps never
reach the conversations.  The server starts once both models are loaded and stops before either
is replaced or closed (``models_changing``): a model must not be freed under a running server.
Starting it waits for uvicorn, so it runs on a thread of its own; stopping is quick (the replies
in progress end) and runs where it is asked, so that the models are free when it returns.

Its ``/v1/embeddings`` come from the embedding model chosen in Settings > Desktop
(``serve_embedding_model``), loaded by ``load_embedding`` on the server's thread as it starts and
closed after it stops; with none chosen, from the chat model's weights, mean-pooled (weaker for
search, but nothing more is loaded).  Another choice restarts the server.  A chosen model that
cannot load (uninstalled, or its file moved since it was chosen) does not keep other apps from
chat and transcription: the server starts with the chat model's embeddings, and a notice says
why, once (``take_notice``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal

from .engine_notes import said
from .engine_slots import ChatSlot, EngineSlot
from .signals import emit
from .tasks import EngineWorker, Job

log = logging.getLogger("parley.local_server")

LOOPBACK = "127.0.0.1"
PARALLEL = 2  # replies decoded together for other apps
CONTEXT = 2048  # tokens per reply for other apps (prompt and answer)


class LocalServer(QObject):
    changed = Signal()  # the address, the problem or whether a request runs changed
    _busy = Signal(bool)  # from a server thread

    def __init__(
        self,
        speech: EngineSlot,
        chat: ChatSlot,
        load_embedding: Callable[[str], Any] | None = None,
        parent: QObject | None = None,
    ) -> None:
        """``load_embedding(setting)``: the embedding model a setting names, loaded (on the
        server's thread; the server closes it); None: embeddings from the chat model only."""
        super().__init__(parent)
        self._speech, self._chat = speech, chat
        self._load_embedding = load_embedding
        self._worker: EngineWorker | None = None  # started on first use
        self._handle: Any = None
        self._embedder: Any = None  # the embedding model loaded for the running server
        self._serving: tuple[Any, Any, str] = (None, None, "")  # the chat, speech and embedding models served
        self._starting = False
        self.wanted = False
        self.port = 8080
        self.embedding_model = ""  # the setting served: "" the chat model's own embeddings
        self.busy = False
        self.problem: str | None = None
        self._notice: str | None = None  # to show once: what the server does other than asked
        self._busy.connect(self._set_busy)

    @property
    def address(self) -> str | None:
        """``http://127.0.0.1:PORT/v1`` while serving."""
        return f"{self._handle.address}/v1" if self._handle is not None else None

    def sync(self, wanted: bool, port: int, embedding_model: str = "") -> None:
        """Serve when ``wanted`` and both models are loaded; stop otherwise (or on a new port or
        another embedding model: ``embedding_model`` is the setting, "" for the chat model's own)."""
        if port != self.port or embedding_model != self.embedding_model or not wanted:
            self.stop()
        self.wanted, self.port, self.embedding_model = wanted, port, embedding_model
        if not wanted or self._handle is not None or self._starting:
            return
        chat, speech = self._chat.model, self._speech.model
        if chat is None or speech is None or self._chat.closing:
            return
        self._starting = True
        self._serving = (chat, speech, embedding_model)
        on_busy = self._busy_from_server
        load = self._load_embedding if embedding_model else None

        def start(_job: Job) -> Any:
            from parley.server import ServerOptions, start_server

            options = ServerOptions(host=LOOPBACK, port=port, parallel=PARALLEL, n_ctx=CONTEXT)
            embedder, unloadable = None, None
            if load is not None:
                try:
                    embedder = load(embedding_model)
                except Exception as exc:  # noqa: BLE001 - the chat model's embeddings stand in, said
                    log.warning("the embedding model %s could not load: %s", embedding_model, exc)
                    unloadable = exc
            try:
                return start_server(chat, speech, options, on_busy=on_busy, embedding=embedder), embedder, unloadable
            except BaseException:
                if embedder is not None:
                    embedder.close()
                raise

        if self._worker is None:
            self._worker = EngineWorker("local-server", self)
        self._worker.submit(start, on_done=self._started, on_error=self._failed, name="start the local server")

    def models_changing(self, *_args: Any) -> None:
        """A model is about to be replaced or closed: stop serving it first (``sync`` starts again
        once the new one is loaded)."""
        self.stop()

    def stop(self) -> None:
        handle, self._handle = self._handle, None
        embedder, self._embedder = self._embedder, None
        if handle is not None:
            handle.stop()
            if embedder is not None:
                embedder.close()  # after the server: no request uses it any more
            self.busy = False
            emit(self.changed)

    def shutdown(self) -> None:
        """Closing Parley: stop serving and end the server's thread."""
        self.wanted = False
        self.stop()
        if self._worker is not None:
            self._worker.shutdown(2.0)

    def _busy_from_server(self, busy: bool) -> None:
        emit(self._busy, busy)

    def _set_busy(self, busy: bool) -> None:
        if self._handle is not None and busy != self.busy:
            self.busy = busy
            emit(self.changed)

    def take_notice(self) -> str | None:
        """What the running server does other than the settings asked, once; else None."""
        notice, self._notice = self._notice, None
        return notice

    def _started(self, started: tuple[Any, Any, BaseException | None]) -> None:
        self._starting = False
        handle, embedder, unloadable = started
        if not self.wanted or self._serving != (self._chat.model, self._speech.model, self.embedding_model):
            handle.stop()  # the switch went off, or a model changed, while it started
            if embedder is not None:
                embedder.close()
            self.sync(self.wanted, self.port, self.embedding_model)
            return
        self._handle, self._embedder, self.problem = handle, embedder, None
        if unloadable is not None:
            self._notice = self.tr(
                "Other apps get embeddings from the chat model: the embedding model {model} could not load ({problem})."
            ).format(model=self.embedding_model, problem=said(unloadable))
        log.info("serving other apps at %s", self.address)
        emit(self.changed)

    def _failed(self, exc: BaseException) -> None:
        self._starting = False
        self.problem = f"Other apps cannot use Parley's models: {exc}"
        log.warning("%s", self.problem)
        emit(self.changed)
