"""Speech synthesis for ``/v1/audio/speech``, one request at a time, on one thread of its own.

An ONNX Runtime session serves the voice; requests take turns in a bounded line
(``QueueFullError`` beyond it).  The text is cut into sentences as the read-aloud voice cuts it,
and a cancelled request (its client went away) stops before its next sentence.
"""

from __future__ import annotations

import concurrent.futures
import threading

import numpy as np

from ..engine.backend.cancel import CancelToken
from ..engine.errors import Cancelled, QueueFullError
from ..engine.voice.piper import PiperVoice
from ..engine.voice.sentences import SentenceSplitter
from .limits import MAX_VOICE_WAITING


class VoiceWorker:
    """Synthesis, one request at a time, on one thread (an ONNX Runtime session per voice)."""

    def __init__(self, voice: PiperVoice, max_waiting: int = MAX_VOICE_WAITING) -> None:
        self.voice = voice
        self.max_waiting = max_waiting
        self._executor = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="parley-voice")
        self._lock = threading.Lock()
        self._tokens: set[CancelToken] = set()

    @property
    def busy(self) -> bool:
        return bool(self._tokens)

    def submit(self, text: str) -> tuple[concurrent.futures.Future[np.ndarray], CancelToken]:
        token = CancelToken()
        with self._lock:
            if len(self._tokens) > self.max_waiting:
                raise QueueFullError(f"a voice request is running and {self.max_waiting} are waiting")
            self._tokens.add(token)
        try:
            return self._executor.submit(self._speak, text, token), token
        except RuntimeError:
            self._done(token)
            raise Cancelled("the server is shutting down") from None

    def _speak(self, text: str, token: CancelToken) -> np.ndarray:
        try:
            splitter = SentenceSplitter(first_clause_chars=0)
            parts = []
            for sentence in [*splitter.push(text), *splitter.flush()]:
                if token.cancelled:
                    raise Cancelled("speech cancelled")
                parts.append(self.voice.synthesize(sentence))
            return np.concatenate(parts) if parts else np.zeros(0, np.float32)
        finally:
            self._done(token)

    def _done(self, token: CancelToken) -> None:
        with self._lock:
            self._tokens.discard(token)

    def close(self) -> None:
        with self._lock:
            tokens = list(self._tokens)
        for token in tokens:
            token.cancel()
        self._executor.shutdown(wait=True, cancel_futures=True)
