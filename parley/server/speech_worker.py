"""Transcriptions, one at a time, on one thread of their own.

A whisper context serves one thread at a time, and one transcription already uses every core
it is given, so requests take turns in a bounded line (``QueueFullError`` beyond it) instead of
queueing on the model's lock inside the HTTP server's thread pool.  Each job gets a
``CancelToken``: a client that disconnects stops whisper between graph nodes, or drops its
job before it starts.
"""

from __future__ import annotations

import concurrent.futures
import threading
from collections.abc import Callable
from typing import TypeVar

from ..engine.backend.cancel import CancelToken
from ..engine.errors import Cancelled, QueueFullError
from ..engine.speech import SpeechModel

T = TypeVar("T")


class SpeechWorker:
    def __init__(self, model: SpeechModel, max_waiting: int) -> None:
        self.model = model
        self.max_waiting = max_waiting
        self._executor = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="parley-speech")
        self._lock = threading.Lock()
        self._tokens: set[CancelToken] = set()  # of the jobs running or waiting

    @property
    def busy(self) -> bool:
        return bool(self._tokens)

    def submit(self, work: Callable[[SpeechModel, CancelToken], T]) -> tuple[concurrent.futures.Future[T], CancelToken]:
        """Run ``work(model, cancel)`` when the model is free; QueueFullError when the line is full."""
        token = CancelToken()
        with self._lock:
            if len(self._tokens) > self.max_waiting:
                raise QueueFullError(f"a transcription is running and {self.max_waiting} are waiting")
            self._tokens.add(token)
        try:
            return self._executor.submit(self._run, work, token), token
        except RuntimeError:  # shut down
            self._done(token)
            raise Cancelled("the server is shutting down") from None

    def _run(self, work: Callable[[SpeechModel, CancelToken], T], token: CancelToken) -> T:
        try:
            if token.cancelled:
                raise Cancelled("transcription cancelled")
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
