"""Work on one engine object, one request at a time, on one thread of its own.

A whisper context and the voice's ONNX Runtime session each serve one thread at a time, and one
transcription (or synthesis) already uses every core it is given, so requests wait in a
bounded line (``QueueFullError`` beyond it) instead of queueing on a lock inside the HTTP
server's thread pool.  Each job gets a ``CancelToken``: a client that disconnects stops its job
where the work checks the token, or drops it before it starts.
"""

from __future__ import annotations

import concurrent.futures
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

from ..engine.backend.cancel import CancelToken
from ..engine.errors import Cancelled, QueueFullError

M = TypeVar("M")
T = TypeVar("T")


class ModelWorker(Generic[M]):
    """Runs jobs on ``model`` one at a time; ``what`` names a job in the busy message."""

    def __init__(self, model: M, max_waiting: int, what: str) -> None:
        self.model = model
        self.max_waiting = max_waiting
        self._what = what
        self._executor = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"parley-{what}")
        self._lock = threading.Lock()
        self._tokens: set[CancelToken] = set()  # of the jobs running or waiting

    @property
    def busy(self) -> bool:
        return bool(self._tokens)

    def submit(self, work: Callable[[M, CancelToken], T]) -> tuple[concurrent.futures.Future[T], CancelToken]:
        """Run ``work(model, cancel)`` when the model is free; QueueFullError when the line is full."""
        token = CancelToken()
        with self._lock:
            if len(self._tokens) > self.max_waiting:
                raise QueueFullError(f"a {self._what} is running and {self.max_waiting} are waiting")
            self._tokens.add(token)
        try:
            return self._executor.submit(self._run, work, token), token
        except RuntimeError:  # shut down
            self._done(token)
            raise Cancelled("the server is shutting down") from None

    def _run(self, work: Callable[[M, CancelToken], T], token: CancelToken) -> T:
        try:
            if token.cancelled:
                raise Cancelled(f"{self._what} cancelled")
            return work(self.model, token)
        finally:
            self._done(token)

    def _done(self, token: CancelToken) -> None:
        with self._lock:
            self._tokens.discard(token)

    def close(self) -> None:
        """Cancel every job and wait for the thread."""
        with self._lock:
            tokens = list(self._tokens)
        for token in tokens:
            token.cancel()
        self._executor.shutdown(wait=True, cancel_futures=True)
