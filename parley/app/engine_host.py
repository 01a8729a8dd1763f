"""The two engines of the app: their worker threads, loading, reloading and closing the models.

Each engine has one ``EngineWorker`` (its own thread): the speech model, microphone look-ups
and transcriptions run on the speech worker; the chat model and its replies on the chat worker.
An engine object is only ever called inside a job of its own worker.  The app's other parts never
get the host: they get ``speech`` or ``chat``, the ``EngineSlot`` of the engine they use (see
``engine_slots``), whose state only the host writes.

Each model is warmed up once loaded, in the same job (a throw-away transcription or a two-token
turn, ``Engines.warm_speech`` / ``warm_chat``), so that the first question after a start costs no
more than the next ones; the model is ready only after it.  A warm-up that fails leaves a
usable model (it is logged).

Loading reports through signals: ``speech_ready`` / ``chat_ready`` with the model, or
``load_failed`` with the role and the sentence shown to the user; ``changed`` after anything
the status bar shows (a model, a problem, load progress) changed.

Remote compute: before loading, the ``parley rpc-server``s of the settings (and of ``--rpc``,
``session_servers``) are connected, so their devices can be chosen.  When a remote device is
lost (its server stopped, mid-reply or while idle), each engine on it is loaded again on this
machine's CPU, and stays there until the device settings change (``device_lost``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal

from ..config.settings import Settings
from .engine_notes import said
from .engine_slots import ChatSlot, EngineSlot
from .engines import Engines
from .signals import emit
from .tasks import EngineWorker, Job

log = logging.getLogger("parley.engines")


class EngineHost(QObject):
    speech_ready = Signal(object)  # the loaded speech model
    chat_ready = Signal(object)  # the loaded chat model
    load_failed = Signal(str, str)  # "speech" | "chat", the message shown
    loading = Signal(str, object)  # "speech" | "chat", the fraction done (None: not known yet)
    may_not_fit = Signal(str, str)  # "speech" | "chat", why the model may not fit in memory
    remote_problem = Signal(str)  # a remote compute server that cannot be used, and why
    notice = Signal(str)  # something the user should know about the model loaded (a pack gone)
    server_lost = Signal(str)  # a remote compute server went away, and what happens now
    changed = Signal()
    _server_lost = Signal(str, str)  # endpoint, reason: from a relay thread

    def __init__(self, engines: Engines, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.engines = engines
        self._speech_worker = EngineWorker("speech", self)
        self._chat_worker = EngineWorker("chat", self)
        self.speech = EngineSlot("speech", self._speech_worker, engines, self.device_lost)
        self.chat = ChatSlot(self._chat_worker, engines, self.device_lost)
        self.session_servers: list[str] = []  # remote servers for this session only (--rpc)
        self.closing = False
        self._settings: Settings | None = None  # the settings of the last load
        self._lost_servers: dict[str, str] = {}  # endpoint -> why it went; not tried again
        self._announced: set[str] = set()  # lost servers the user was told about
        self._server_lost.connect(self._on_server_lost)

    @property
    def slots(self) -> tuple[EngineSlot, ChatSlot]:
        return self.speech, self.chat

    def slot(self, role: str) -> EngineSlot:
        return self.speech if role == "speech" else self.chat

    # ------------------------------------------------------------------ loading

    def load(self, settings: Settings) -> None:
        self.load_speech(settings)
        self.load_chat(settings)

    def reload(self, old: Settings, new: Settings) -> None:
        """Reload only the engines whose settings changed."""
        device_changed = (old.device, old.threads, old.rpc_servers) != (new.device, new.threads, new.rpc_servers)
        if device_changed:
            for slot in self.slots:  # the user chose again: servers are tried again
                slot.lost = None
            self._lost_servers.clear()
            self._announced.clear()
        if device_changed or old.speech_model != new.speech_model:
            self.load_speech(new)
        if device_changed or (old.chat_model, old.context_length) != (new.chat_model, new.context_length):
            self._chat_worker.cancel_all()  # a reply in progress ends first
            self.load_chat(new)

    def device_lost(self, role: str, reason: str) -> None:
        """The device ``role``'s engine runs on is gone (a remote server stopped): load it again
        on this machine's CPU.  (The server's loss itself is said once, by ``_on_server_lost``.)"""
        slot = self.slot(role)
        if self.closing or slot.lost is not None or self._settings is None:
            return
        slot.lost = f"{reason}; using this machine's CPU"
        endpoint = slot.model.device.device.remote if slot.model is not None else None
        if endpoint:  # not connected again by the reload, even if the relay has not said so yet
            self._lost_servers.setdefault(endpoint, reason)
        (self.load_speech if role == "speech" else self.load_chat)(self._settings)

    def _relay_lost(self, endpoint: str, reason: str) -> None:
        """On a relay thread: hand the loss to the UI thread (held weakly by the remote module,
        and registered once however often models load)."""
        emit(self._server_lost, endpoint, reason)

    def _on_server_lost(self, endpoint: str, reason: str) -> None:
        """A relay thread saw a server go (mid-reply, mid-load or idle): say so once, and move
        what ran on it to the CPU at once."""
        if endpoint in self._announced or self.closing:
            return
        self._announced.add(endpoint)
        self._lost_servers.setdefault(endpoint, reason)
        emit(
            self.server_lost,
            f"The remote compute server {endpoint} was lost ({reason}); Parley goes on with this machine's CPU",
        )
        for slot in self.slots:
            model = slot.model
            if model is not None and model.device.device.remote == endpoint:
                self.device_lost(
                    slot.role, f"the remote device {model.device.device.name} ({endpoint}) was lost: {reason}"
                )

    def _device(self, role: str, settings: Settings) -> str:
        return "cpu" if self.slot(role).lost is not None else settings.device

    def _connect(self, job: Job, servers: list[str]) -> None:
        """On an engine's thread, before a model loads: register the remote servers' devices
        (not those lost this session: they are tried again when the device settings change)."""
        from parley.engine.backend.rpc.endpoints import (
            server_endpoint,  # lost servers are named HOST:PORT, without a token
        )

        wanted = [endpoint for endpoint in servers if server_endpoint(endpoint) not in self._lost_servers]
        problem = self.engines.connect_remote(wanted, self._relay_lost)
        if problem:
            job.emit(("remote", problem))

    def _moved_by_a_loss(self, slot: EngineSlot, model: Any) -> None:
        """A model that fell back to the CPU while it was loading because its server was lost
        stays on the CPU from now on, like one moved after loading."""
        if (
            slot.lost is None
            and self._lost_servers
            and model.device.fallback_reason
            and not model.device.device.remote
            and model.device.requested.lower() != "cpu"
        ):
            slot.lost = model.device.fallback_reason

    def load_speech(self, settings: Settings) -> None:
        self._settings = settings
        setting, device, threads = settings.speech_model, self._device("speech", settings), settings.threads or None
        engines, previous = self.engines, self.speech.model
        servers = [*settings.rpc_servers, *self.session_servers]

        def load(job: Job) -> tuple[Any, float]:
            if previous is not None:
                previous.close()
            self._connect(job, servers)
            # The job is the conversion's cancel flag: closing the window during a first-use
            # conversion stops it between chunks instead of waiting for it.
            path = engines.speech_model_path(setting, lambda fraction: job.emit(("progress", fraction)), job)
            warning = engines.fit_warning(path, "speech", 0, device)
            if warning:
                job.emit(("fit", warning))
            started = time.perf_counter()
            model = engines.load_speech(path, device, threads)
            elapsed = time.perf_counter() - started
            self._warm("speech", lambda token: engines.warm_speech(model, token), job)
            return model, elapsed

        self.speech.model, self.speech.problem = None, None
        emit(self.loading, "speech", None)
        self._speech_worker.submit(
            load,
            on_done=self._speech_loaded,
            on_error=self._speech_failed,
            on_progress=lambda report: self._progress("speech", report),
            name="load speech model",
        )
        emit(self.changed)

    def _speech_loaded(self, loaded: tuple[Any, float]) -> None:
        model, self.speech.load_seconds = loaded
        if self.closing:
            return
        self._moved_by_a_loss(self.speech, model)
        self.speech.model = model
        log.info("the speech model is ready (%.1f s)", self.speech.load_seconds or 0.0)
        emit(self.changed)
        emit(self.speech_ready, model)

    def _speech_failed(self, exc: BaseException) -> None:
        if self.closing and self.speech.is_cancel(exc):
            return  # closed during the first-use preparation
        log.warning("speech model: %s", exc)
        self.speech.problem = self.tr("The speech model could not be loaded: {problem}").format(problem=said(exc))
        emit(self.changed)
        emit(self.load_failed, "speech", self.speech.problem)

    def load_chat(self, settings: Settings) -> None:
        self._settings = settings
        setting, device, n_ctx, threads, prompt = (
            settings.chat_model,
            self._device("chat", settings),
            settings.context_length,
            settings.threads or None,
            settings.system_prompt,
        )
        engines, previous = self.engines, self.chat.model
        servers = [*settings.rpc_servers, *self.session_servers]

        def load(job: Job) -> tuple[Any, Any, float]:
            if previous is not None:
                previous.close()
            self._connect(job, servers)
            shown = [-1]

            def progress(fraction: float) -> bool:  # llama.cpp's thread; False cancels the load
                percent = int(fraction * 100)
                if percent != shown[0]:
                    shown[0] = percent
                    job.emit(("progress", fraction))
                return not job.cancelled

            path, notice = engines.resolve_chat_model(setting, device, threads)
            if notice:
                job.emit(("notice", notice))
            warning = engines.fit_warning(path, "chat", n_ctx, device)
            if warning:
                job.emit(("fit", warning))
            started = time.perf_counter()
            model = engines.load_chat(path, device, n_ctx, threads, progress)
            elapsed = time.perf_counter() - started
            session = engines.chat_session(model, prompt, [])
            self._warm("chat", lambda token: engines.warm_chat(session, prompt, token), job)
            return model, session, elapsed

        chat = self.chat
        chat.model, chat.session, chat.problem, chat.load_fraction = None, None, None, None
        emit(self.loading, "chat", None)
        self._chat_worker.submit(
            load,
            on_done=self._chat_loaded,
            on_error=self._chat_failed,
            on_progress=lambda report: self._progress("chat", report),
            name="load chat model",
        )
        emit(self.changed)

    def _warm(self, role: str, warm: Callable[[Any], None], job: Job) -> None:
        """In a load job: warm the model just loaded (cancelled with the job); a failure is
        logged and the model used as it is."""
        from parley.engine.errors import Cancelled, ParleyError

        started = time.perf_counter()
        try:
            warm(job.link(self.engines.cancel_token()))
        except Cancelled:
            raise
        except ParleyError as exc:
            log.warning("warming the %s model failed: %s", role, exc)
            return
        log.info("the %s model is warmed up (%.2f s)", role, time.perf_counter() - started)

    def _progress(self, role: str, report: tuple[str, Any]) -> None:
        """A loading job's report: ("progress", fraction), ("fit", warning), ("notice", text) or
        ("remote", problem)."""
        kind, value = report
        if kind == "fit":
            emit(self.may_not_fit, role, value)
            return
        if kind == "notice":
            emit(self.notice, value)
            return
        if kind == "remote":
            emit(self.remote_problem, value)
            return
        if role == "chat":
            self.chat.load_fraction = value
        emit(self.loading, role, value)
        if role == "chat":
            emit(self.changed)

    def _chat_loaded(self, loaded: tuple[Any, Any, float]) -> None:
        model, session, self.chat.load_seconds = loaded
        if self.closing:
            return
        self._moved_by_a_loss(self.chat, model)
        self.chat.model, self.chat.session = model, session
        log.info("the chat model is ready (%.1f s)", self.chat.load_seconds or 0.0)
        emit(self.changed)
        emit(self.chat_ready, model)

    def _chat_failed(self, exc: BaseException) -> None:
        if self.closing and self.chat.is_cancel(exc):
            return
        log.warning("chat model: %s", exc)
        self.chat.problem = self.tr("The chat model could not be loaded: {problem}").format(problem=said(exc))
        emit(self.changed)
        emit(self.load_failed, "chat", self.chat.problem)

    # ------------------------------------------------------------------ closing

    def stop_all(self) -> None:
        """Cancel every job of both engines (the first step of closing)."""
        self.closing = True
        for slot in self.slots:
            slot.closing = True
        self._speech_worker.cancel_all()
        self._chat_worker.cancel_all()

    def close_chat(self, timeout_s: float) -> bool:
        """Close the chat model on its thread and join the thread; False if it did not end in time."""
        model = self.chat.model
        return self._chat_worker.shutdown(timeout_s, finalizer=model.close if model else None)

    @property
    def running(self) -> bool:
        """Either engine's thread is still running (after closing: it did not end in time)."""
        return self._speech_worker.running or self._chat_worker.running

    def close_speech(self, timeout_s: float) -> bool:
        model = self.speech.model
        return self._speech_worker.shutdown(timeout_s, finalizer=model.close if model else None)
