"""Parley's choice of chat model in the app: the built-in models measured in the background, and
the best one that keeps up with speech loaded when the user is not in the middle of something.

At first start (and after new hardware or a new pack, when a candidate has no figures for this
machine) each installed built-in model that could be chosen is timed on a worker thread of its
own (``Engines.measure_chat_model``: a few seconds each, the most capable first).  The user
comes first: measuring waits until Parley has been idle for ``IDLE_S`` and other programs leave
the processor mostly free (``machine_load``: a measurement taken beside a compiler would say the
model is slower than it is), stops the moment a take or a reply starts (llama.cpp's abort
callback, within a token), and resumes once idle again.  On a machine that other programs keep
busy for ``BUSY_PATIENCE_S`` it measures anyway, rather than never: such figures are kept only
until better ones come, and a model they find too slow is not counted as tried
(``choice.measure(busy=True)``), so it is measured again when the machine is quiet.  A model
measured too slow is measured again at later starts (up to ``choice.MAX_TRIES``), the best
figures kept.
When the figures change the choice, the chosen model is loaded at the next idle moment and the
window says which model and why.  All of this only while the chat model setting is "default": a
model the user chose is left alone.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from parley.engine.backend.machine_load import OtherLoad
from parley.engine.errors import Cancelled

from ..config.settings import DEFAULT_MODEL, Settings
from .engines import ChatModelChoice, Engines
from .signals import emit
from .status import StatusPresenter
from .tasks import EngineWorker, Job

log = logging.getLogger("parley.models")

IDLE_S = 3.0  # quiet time before measuring starts (or resumes)
BUSY_SHARE = 0.35  # other programs using more of the cores than this: measure later
BUSY_RETRY_S = 20.0
BUSY_PATIENCE_S = 60.0  # busy this long (looked at every BUSY_RETRY_S): measure anyway


class ModelChooser(QObject):
    choice_changed = Signal(object)  # the new ChatModelChoice, once measured
    measured = Signal()  # every candidate has figures for this machine (tests, benchmarks)
    settled = Signal(bool)  # after settle(): True when the chosen model is being loaded

    def __init__(
        self,
        engines: Engines,
        status: StatusPresenter,
        settings: Callable[[], Settings],
        idle: Callable[[], bool],
        reload_chat: Callable[[], None],
        parent: QObject | None = None,
    ) -> None:
        """``idle``: whether the user is doing nothing Parley works on (no take, no reply, no
        engine job); ``reload_chat``: load the chat model the settings name again."""
        super().__init__(parent)
        self._engines, self._status = engines, status
        self._settings, self._idle, self._reload_chat = settings, idle, reload_chat
        self._worker = EngineWorker("model choice", self)
        self._job: Job | None = None
        self._pending: list[str] = []  # ids still to measure
        self._failed: set[str] = set()  # ids that could not be measured: not tried again this session
        self._loaded_name: str | None = None  # the chosen model when the chat model last loaded
        self._switch_to: str | None = None  # a chosen model waiting for an idle moment to load
        self.choice: ChatModelChoice | None = None
        self._eager = False  # settle(): no waiting for idle moments
        self._timer = QTimer(self, singleShot=True, interval=int(IDLE_S * 1000))
        self._timer.timeout.connect(self._when_idle)
        self._others = OtherLoad()  # other programs' share of the CPU since the timer started
        self._busy_since: float | None = None  # when other programs were first seen busy, while waiting

    @property
    def _auto(self) -> bool:
        return self._settings().chat_model == DEFAULT_MODEL

    def chat_loaded(self, _model: Any) -> None:
        """The chat model (re)loaded: look up the choice, and measure what has no figures yet."""
        self._switch_to = None
        if not self._auto:
            return
        settings = self._settings()
        device, threads = settings.device, settings.threads or None
        self._worker.submit(
            lambda _job: self._engines.chat_choice(device, threads),
            on_done=self._choice_known,
            on_error=lambda exc: None if isinstance(exc, Cancelled) else log.warning("no model choice: %s", exc),
            name="model choice",
        )

    def settle(self) -> None:
        """Measure what is pending now and load the choice at once, without waiting for idle
        moments (the self-test, which then goes on with the chosen model); ``settled`` says when."""
        self._eager = True
        if not self._auto or (self.choice is not None and not self._pending and self._job is None):
            self._settled(False)
        elif self.choice is not None:
            self._again()
        # else: chat_loaded's lookup is under way, and _choice_known goes on

    def _choice_known(self, choice: ChatModelChoice) -> None:
        first = self.choice is None
        self.choice = choice
        if first:
            self._loaded_name = choice.chosen
        self._pending = [i for i in choice.unmeasured if i not in self._failed]
        if self._pending:
            self._again()
        else:
            emit(self.measured)
            self._settled(False)

    def make_way(self, *_signal_args: object) -> None:
        """The user started something: stop measuring now, and try again once idle."""
        if self._job is not None:
            self._job.cancel()
        if self._pending or self._switch_to:
            self._again()

    def close(self, timeout_s: float = 1.0) -> bool:
        """Stop measuring (within a token) and end the worker thread; False if it did not end in time."""
        self._timer.stop()
        self._pending.clear()
        self._switch_to = None
        if self._job is not None:
            self._job.cancel()
        return self._worker.shutdown(timeout_s)

    def _when_idle(self) -> None:
        if not self._auto:
            return
        others = self._others.fraction()
        if not self._eager and not self._idle():
            self._again()
            return
        busy = not self._eager and bool(self._pending) and others is not None and others > BUSY_SHARE
        if busy:
            now = time.monotonic()
            self._busy_since = self._busy_since if self._busy_since is not None else now
            if now - self._busy_since < BUSY_PATIENCE_S:
                log.info("other programs use %.0f%% of the processor: measuring later", 100 * (others or 0))
                self._again(BUSY_RETRY_S)
                return
            log.info("other programs have kept the processor busy for %.0f s: measuring anyway", now - self._busy_since)
        else:
            self._busy_since = None
        if self._switch_to is not None:
            self._switch()
        elif self._pending and self._job is None:
            self._measure(self._pending[-1], busy)  # the most capable first: if it keeps up, the rest need not wait

    def _measure(self, model_id: str, busy: bool = False) -> None:
        settings = self._settings()
        device, threads = settings.device, settings.threads or None
        engines = self._engines

        def work(job: Job) -> ChatModelChoice:
            engines.measure_chat_model(model_id, device, threads, job.link(engines.cancel_token()), busy=busy)
            return engines.chat_choice(device, threads)

        log.info("measuring %s on this machine", model_id)
        self._job = self._worker.submit(work, on_done=self._measured, on_error=self._not_measured, name="measure model")

    def _measured(self, choice: ChatModelChoice) -> None:
        self._job = None
        self.choice = choice
        self._pending = [i for i in choice.unmeasured if i not in self._failed]
        if self._pending:
            self._again()
            return
        emit(self.measured)
        emit(self.choice_changed, choice)
        if choice.chosen != self._loaded_name and self._auto:
            self._switch_to = choice.chosen
            self._again()
        else:
            self._settled(False)

    def _not_measured(self, exc: BaseException) -> None:
        self._job = None
        if isinstance(exc, Cancelled):
            self._again()  # made way for the user: again when idle
            return
        failed = self._pending.pop() if self._pending else "?"
        self._failed.add(failed)
        log.warning("measuring %s failed: %s", failed, exc)
        if self._pending:
            self._again()
        else:
            self._settled(False)

    def _switch(self) -> None:
        chosen, self._switch_to = self._switch_to, None
        choice = self.choice
        if chosen is None or choice is None:
            return
        self._loaded_name = chosen
        self._status.notice(f"Parley now uses {chosen}: {choice.reason}.")
        self._reload_chat()
        self._settled(True)

    def _settled(self, reloading: bool) -> None:
        """The end of a ``settle()``: said once, then back to waiting for idle moments."""
        if self._eager:
            self._eager = False
            emit(self.settled, reloading)

    def _again(self, seconds: float = IDLE_S) -> None:
        """Look again after ``seconds`` (at once while settling); other programs' load is
        counted from now."""
        self._others.fraction()
        self._timer.start(0 if self._eager else int(seconds * 1000))
