"""The one path for background work: an ``EngineWorker`` per engine, each with its own thread.

A native model context must never be used from two threads, and widgets must never be
touched off the UI thread.  So each engine gets one worker that runs submitted callables in
submission order on its own ``QThread``; everything a job reports (progress pieces, its
result or its error) crosses back to the UI thread through queued Qt signals, and the job's
callbacks run there.

A call that is not an engine's and ends by itself within a timeout (checking a remote server:
a handshake of at most 3 s) goes through ``call_in_background`` instead: a plain daemon thread
for that one call, its result back on the UI thread.  Not a worker: a dialog that is dropped
while it waits must not leave a QThread running.

A job function receives its ``Job``: ``job.emit(payload)`` streams a piece to the job's
``on_progress`` callback (tokens, segments, load progress), and ``job.link(token)`` ties an
engine ``CancelToken`` to the job so that ``job.cancel()`` from the UI thread reaches the
native abort callback.
"""

from __future__ import annotations

import atexit
import logging
import threading
import weakref
from collections.abc import Callable
from typing import Any, Protocol

from PySide6.QtCore import QCoreApplication, QObject, QThread, Signal, Slot

from parley.engine.errors import Cancelled

from .signals import emit

log = logging.getLogger("parley.tasks")

# Every worker not yet shut down.  A QThread destroyed while it runs aborts the whole process
# ("QThread: Destroyed while thread is still running"), which is what interpreter teardown
# does to a worker nobody shut down; ``_stop_at_exit`` stops them first.
_LIVE: weakref.WeakSet[EngineWorker] = weakref.WeakSet()


class JobCancelled(Cancelled):
    """A job was cancelled before it started, so it never ran: a ``Cancelled`` like the engines'
    own, so ``except Cancelled`` (or ``isinstance(exc, Cancelled)``) covers both."""


class _Cancellable(Protocol):
    def cancel(self) -> None: ...


class Job:
    """One submitted callable, its callbacks, and its cancel state."""

    def __init__(
        self,
        fn: Callable[[Job], Any],
        on_done: Callable[[Any], None] | None,
        on_error: Callable[[BaseException], None] | None,
        on_progress: Callable[[Any], None] | None,
        name: str,
    ) -> None:
        self.fn = fn
        self.on_done = on_done
        self.on_error = on_error
        self.on_progress = on_progress
        self.name = name
        self._lock = threading.Lock()
        self._cancelled = False
        self._linked: list[_Cancellable] = []
        self._emit: Callable[[Any], None] | None = None

    def __repr__(self) -> str:
        return f"<Job {self.name}{' cancelled' if self._cancelled else ''}>"

    @property
    def cancelled(self) -> bool:
        return self._cancelled

    def cancel(self) -> None:
        """Ask the job to stop; safe from any thread, and before, during or after it runs."""
        with self._lock:
            self._cancelled = True
            linked = list(self._linked)
        for token in linked:
            token.cancel()

    def link(self, token: _Cancellable) -> Any:
        """Cancel ``token`` when this job is cancelled (at once if it already was); returns it."""
        with self._lock:
            self._linked.append(token)
            cancelled = self._cancelled
        if cancelled:
            token.cancel()
        return token

    def emit(self, payload: Any) -> None:
        """From the job function: hand ``payload`` to ``on_progress`` on the UI thread."""
        assert self._emit is not None, "emit() is for the running job function"
        self._emit(payload)


class _Runner(QObject):
    """Lives on the worker thread; runs each job it receives, in order."""

    progress = Signal(object, object)  # job, payload
    finished = Signal(object, bool, object)  # job, succeeded, result or exception

    @Slot(object)
    def run(self, job: Job) -> None:
        if job.cancelled:
            emit(self.finished, job, False, JobCancelled(f"{job.name} was cancelled"))
            return
        job._emit = lambda payload: emit(self.progress, job, payload)
        try:
            result = job.fn(job)
        except BaseException as exc:  # noqa: BLE001 - every failure goes back to the UI thread
            if not isinstance(exc, Exception):
                log.exception("job %s raised %r", job.name, exc)
            emit(self.finished, job, False, exc)
        else:
            emit(self.finished, job, True, result)


class EngineWorker(QObject):
    """Runs one engine's jobs in order on a dedicated thread; create and use it on the UI thread."""

    busy_changed = Signal(bool)
    _submit = Signal(object)

    def __init__(self, name: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self._pending: list[Job] = []  # submitted and not yet reported back, oldest first
        self._closed = False
        self._thread = QThread()
        self._thread.setObjectName(f"parley-{name}")
        self._runner = _Runner()
        self._runner.moveToThread(self._thread)
        self._submit.connect(self._runner.run)
        self._runner.progress.connect(self._on_progress)
        self._runner.finished.connect(self._on_finished)
        self._thread.start()
        _LIVE.add(self)

    @property
    def busy(self) -> bool:
        return bool(self._pending)

    @property
    def running(self) -> bool:
        """The worker's thread has not ended (``shutdown`` joins it)."""
        return bool(self._thread.isRunning())

    def submit(
        self,
        fn: Callable[[Job], Any],
        *,
        on_done: Callable[[Any], None] | None = None,
        on_error: Callable[[BaseException], None] | None = None,
        on_progress: Callable[[Any], None] | None = None,
        name: str = "",
    ) -> Job:
        """Queue ``fn(job)``; its callbacks run later on the UI thread, never inside this call."""
        if self._closed:
            raise RuntimeError(f"the {self.name} worker is shut down")
        job = Job(fn, on_done, on_error, on_progress, name or getattr(fn, "__name__", "job"))
        self._pending.append(job)
        if len(self._pending) == 1:
            emit(self.busy_changed, True)
        emit(self._submit, job)
        return job

    def cancel_all(self) -> None:
        for job in list(self._pending):
            job.cancel()

    def shutdown(self, timeout_s: float = 2.0, finalizer: Callable[[], None] | None = None) -> bool:
        """Cancel every job, run ``finalizer`` last on the worker thread, and join the thread.

        Results that were still on their way are delivered before this returns, so callbacks
        of a cancelled job (e.g. one that saves a partial reply) still run.  Returns False if
        the thread did not finish within ``timeout_s`` (a native call ignoring its abort).
        """
        if self._closed:
            return True
        self.cancel_all()

        def last_job(_job: Job) -> None:
            try:
                if finalizer is not None:
                    finalizer()
            finally:
                QThread.currentThread().quit()

        self.submit(
            last_job, on_error=lambda exc: log.error("closing %s failed: %s", self.name, exc), name=f"close {self.name}"
        )
        self._closed = True
        _LIVE.discard(self)
        joined = self._thread.wait(int(timeout_s * 1000))
        QCoreApplication.sendPostedEvents(self)
        if not joined:
            log.error("the %s thread did not stop within %.1f s", self.name, timeout_s)
        return joined

    @Slot(object, object)
    def _on_progress(self, job: Job, payload: Any) -> None:
        if job.on_progress is not None:
            job.on_progress(payload)

    @Slot(object, bool, object)
    def _on_finished(self, job: Job, succeeded: bool, outcome: Any) -> None:
        self._pending.remove(job)
        try:
            if succeeded:
                if job.on_done is not None:
                    job.on_done(outcome)
            elif job.on_error is not None:
                job.on_error(outcome)
            elif not isinstance(outcome, JobCancelled):
                log.error("job %s failed: %r", job.name, outcome)
        finally:
            if not self._pending:
                emit(self.busy_changed, False)


class _Answer(QObject):
    """Carries one background call's result to the UI thread (it lives there)."""

    ready = Signal(object)


_WAITING: set[_Answer] = set()  # the answers on their way, kept alive until they arrive


def call_in_background(fn: Callable[[], Any], on_done: Callable[[Any], None], name: str) -> None:
    """Run ``fn()`` on a daemon thread of its own; ``on_done(result)`` runs later on the UI
    thread, with the exception as the result if ``fn`` raised one.  Call it on the UI thread."""
    answer = _Answer()
    _WAITING.add(answer)

    def arrived(result: Any) -> None:
        _WAITING.discard(answer)
        on_done(result)

    def run() -> None:
        try:
            result = fn()
        except Exception as exc:  # noqa: BLE001 - every failure goes back to the UI thread
            result = exc
        emit(answer.ready, result)

    answer.ready.connect(arrived)
    threading.Thread(target=run, name=name, daemon=True).start()


@atexit.register
def _stop_at_exit(timeout_s: float = 2.0) -> None:
    """Cancel and join the threads of workers still running when Python exits."""
    for worker in list(_LIVE):
        try:
            worker.cancel_all()
            worker._thread.quit()
            if not worker._thread.wait(int(timeout_s * 1000)):
                log.error("the %s thread was still busy when Parley exited", worker.name)
        except RuntimeError:  # its C++ side is already gone, and its thread with it
            pass
