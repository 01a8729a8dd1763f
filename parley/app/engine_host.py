"""The two engines of the app: their worker threads, loading, reloading and closing the models.

Each engine has one ``EngineWorker`` (its own thread): the speech model, microphone look-ups
and transcriptions run on ``speech_worker``; the chat model and its replies on ``chat_worker``.
An engine object is only ever called inside a job of its own worker.

Loading reports through signals: ``speech_ready`` / ``chat_ready`` with the model, or
``load_failed`` with the role and the sentence shown to the user; ``changed`` after anything
the status bar shows (a model, a problem, load progress) changed.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from PySide6.QtCore import QObject, Signal

from .engines import Engines
from .settings import Settings
from .signals import emit
from .tasks import EngineWorker, Job, JobCancelled

log = logging.getLogger("parley.engines")


class EngineHost(QObject):
    speech_ready = Signal(object)         # the loaded speech model
    chat_ready = Signal(object)           # the loaded chat model
    load_failed = Signal(str, str)        # "speech" | "chat", the message shown
    loading = Signal(str, object)         # "speech" | "chat", the fraction done (None: not known yet)
    may_not_fit = Signal(str, str)        # "speech" | "chat", why the model may not fit in memory
    changed = Signal()

    def __init__(self, engines: Engines, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.engines = engines
        self.speech_worker = EngineWorker("speech", self)
        self.chat_worker = EngineWorker("chat", self)
        self.speech_model: Any = None
        self.chat_model: Any = None
        self.session: Any = None                        # the chat session of ``chat_model``
        self.speech_problem: str | None = None
        self.chat_problem: str | None = None
        self.chat_load_fraction: float | None = None
        self.load_seconds: dict[str, float] = {}        # "speech"/"chat": how long the last load took
        self.closing = False

    @property
    def fallbacks(self) -> dict[str, str]:
        """Why an engine runs on the CPU although another device was wanted, by role."""
        return {role: model.device.fallback_reason for role, model in
                (("speech", self.speech_model), ("chat", self.chat_model))
                if model is not None and model.device.fallback_reason}

    def is_cancel(self, exc: BaseException) -> bool:
        return isinstance(exc, JobCancelled) or self.engines.is_cancelled(exc)

    # ------------------------------------------------------------------ loading

    def load(self, settings: Settings) -> None:
        self.load_speech(settings)
        self.load_chat(settings)

    def reload(self, old: Settings, new: Settings) -> None:
        """Reload only the engines whose settings changed."""
        device_changed = (old.device, old.threads) != (new.device, new.threads)
        if device_changed or old.speech_model != new.speech_model:
            self.load_speech(new)
        if device_changed or (old.chat_model, old.context_length) != (new.chat_model, new.context_length):
            self.chat_worker.cancel_all()               # a reply in progress ends first
            self.load_chat(new)

    def load_speech(self, settings: Settings) -> None:
        setting, device, threads = settings.speech_model, settings.device, settings.threads or None
        engines, previous = self.engines, self.speech_model

        def load(job: Job) -> tuple[Any, float]:
            if previous is not None:
                previous.close()
            # The job is the conversion's cancel flag: closing the window during a first-use
            # conversion stops it between chunks instead of waiting for it.
            path = engines.speech_model_path(setting, lambda fraction: job.emit(("progress", fraction)), job)
            warning = engines.fit_warning(path, "speech", 0, device)
            if warning:
                job.emit(("fit", warning))
            started = time.perf_counter()
            model = engines.load_speech(path, device, threads)
            return model, time.perf_counter() - started

        self.speech_model, self.speech_problem = None, None
        emit(self.loading, "speech", None)
        self.speech_worker.submit(load, on_done=self._speech_loaded, on_error=self._speech_failed,
                                  on_progress=lambda report: self._progress("speech", report),
                                  name="load speech model")
        emit(self.changed)

    def _speech_loaded(self, loaded: tuple[Any, float]) -> None:
        model, self.load_seconds["speech"] = loaded
        if self.closing:
            return
        self.speech_model = model
        emit(self.changed)
        emit(self.speech_ready, model)

    def _speech_failed(self, exc: BaseException) -> None:
        if self.closing and self.is_cancel(exc):
            return                                      # closed during the first-use preparation
        log.warning("speech model: %s", exc)
        self.speech_problem = f"The speech model could not be loaded: {exc}"
        emit(self.changed)
        emit(self.load_failed, "speech", self.speech_problem)

    def load_chat(self, settings: Settings) -> None:
        setting, device, n_ctx, threads, prompt = settings.chat_model, settings.device, settings.context_length, \
            settings.threads or None, settings.system_prompt
        engines, previous = self.engines, self.chat_model

        def load(job: Job) -> tuple[Any, Any, float]:
            if previous is not None:
                previous.close()
            shown = [-1]

            def progress(fraction: float) -> bool:     # llama.cpp's thread; False cancels the load
                percent = int(fraction * 100)
                if percent != shown[0]:
                    shown[0] = percent
                    job.emit(("progress", fraction))
                return not job.cancelled

            path = engines.chat_model_path(setting)
            warning = engines.fit_warning(path, "chat", n_ctx, device)
            if warning:
                job.emit(("fit", warning))
            started = time.perf_counter()
            model = engines.load_chat(path, device, n_ctx, threads, progress)
            elapsed = time.perf_counter() - started
            return model, engines.chat_session(model, prompt, []), elapsed

        self.chat_model, self.session, self.chat_problem, self.chat_load_fraction = None, None, None, None
        emit(self.loading, "chat", None)
        self.chat_worker.submit(load, on_done=self._chat_loaded, on_error=self._chat_failed,
                                on_progress=lambda report: self._progress("chat", report), name="load chat model")
        emit(self.changed)

    def _progress(self, role: str, report: tuple[str, Any]) -> None:
        """A loading job's report: ("progress", fraction) or ("fit", warning)."""
        kind, value = report
        if kind == "fit":
            emit(self.may_not_fit, role, value)
            return
        if role == "chat":
            self.chat_load_fraction = value
        emit(self.loading, role, value)
        if role == "chat":
            emit(self.changed)

    def _chat_loaded(self, loaded: tuple[Any, Any, float]) -> None:
        model, session, self.load_seconds["chat"] = loaded
        if self.closing:
            return
        self.chat_model, self.session = model, session
        emit(self.changed)
        emit(self.chat_ready, model)

    def _chat_failed(self, exc: BaseException) -> None:
        if self.closing and self.is_cancel(exc):
            return
        log.warning("chat model: %s", exc)
        self.chat_problem = f"The chat model could not be loaded: {exc}"
        emit(self.changed)
        emit(self.load_failed, "chat", self.chat_problem)

    # ------------------------------------------------------------------ closing

    def stop_all(self) -> None:
        """Cancel every job of both engines (the first step of closing)."""
        self.closing = True
        self.speech_worker.cancel_all()
        self.chat_worker.cancel_all()

    def close_chat(self, timeout_s: float) -> bool:
        """Close the chat model on its thread and join the thread; False if it did not end in time."""
        model = self.chat_model
        return self.chat_worker.shutdown(timeout_s, finalizer=model.close if model else None)

    def close_speech(self, timeout_s: float) -> bool:
        model = self.speech_model
        return self.speech_worker.shutdown(timeout_s, finalizer=model.close if model else None)
