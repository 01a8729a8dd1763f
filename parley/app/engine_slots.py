"""The narrow handles the app's parts get for one engine: an ``EngineSlot`` per role.

The ``EngineHost`` loads, reloads and closes the models; everyone else (push-to-talk, the
transcription, the replies, the status bar) is handed the slot of the engine it uses, never the
host.  A slot says what that engine has now (its model, or why there is none) and runs work on
that engine's thread.  Only the host writes a slot's state; the slot's users read it on the UI
thread and call ``submit`` and ``device_lost``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from parley.engine.errors import Cancelled, DeviceLostError

from ..config.settings import Settings
from .engines import Engines
from .tasks import EngineWorker, Job


class EngineSlot:
    """One engine ("speech" or "chat") as its users see it."""

    def __init__(
        self, role: str, worker: EngineWorker, engines: Engines, on_device_lost: Callable[[str, str], None]
    ) -> None:
        self.role = role
        self.model: Any = None  # None while loading, or when the load failed (``problem``)
        self.problem: str | None = None  # the sentence shown when the model could not be loaded
        self.load_fraction: float | None = None  # of a load in progress, when known
        self.load_seconds: float | None = None  # how long the last load took
        self.lost: str | None = None  # why it runs on the CPU after a remote server was lost
        self.closing = False  # the app is closing: start nothing new
        self._worker = worker
        self._engines = engines
        self._on_device_lost = on_device_lost

    @property
    def busy(self) -> bool:
        """The engine's thread has work queued or running."""
        return self._worker.busy

    @property
    def fallback(self) -> str | None:
        """Why the engine runs on the CPU although another device was wanted (None: it does not)."""
        if self.model is None:
            return None
        return self.lost or self.model.device.fallback_reason or None

    def submit(
        self,
        fn: Callable[[Job], Any],
        *,
        on_done: Callable[[Any], None],
        on_error: Callable[[BaseException], None],
        on_progress: Callable[[Any], None] | None = None,
        name: str,
    ) -> Job:
        """Run ``fn(job)`` on the engine's thread; its outcome comes back on the UI thread."""
        return self._worker.submit(fn, on_done=on_done, on_error=on_error, on_progress=on_progress, name=name)

    def cancel_token(self) -> Any:
        """A fresh engine cancel token, to ``job.link`` into a transcription or a reply."""
        return self._engines.cancel_token()

    def is_cancel(self, exc: BaseException) -> bool:
        """``exc`` says a job was cancelled (by the user, or because the app is closing): an
        engine's own ``Cancelled`` or a job's that never ran (``JobCancelled``, a ``Cancelled``)."""
        return isinstance(exc, Cancelled)

    def device_lost(self, exc: BaseException) -> bool:
        """After a job failed with ``exc``: if it failed because its remote device is gone, have
        the engine loaded again on this machine's CPU, and say True."""
        if not isinstance(exc, DeviceLostError):
            return False
        self._on_device_lost(self.role, str(exc))
        return True


class ChatSlot(EngineSlot):
    """The chat engine: also the session (the conversation as the model holds it) and sampling."""

    def __init__(self, worker: EngineWorker, engines: Engines, on_device_lost: Callable[[str, str], None]) -> None:
        super().__init__("chat", worker, engines, on_device_lost)
        self.session: Any = None  # the chat session of ``model``; use it only in this slot's jobs

    def sampling(self, settings: Settings) -> Any:
        return self._engines.sampling(settings)

    def cleaner(self) -> Any:
        """The clean-up of dictations by this slot's model (``engine.dictation.cleanup.Cleaner``);
        use it only in this slot's jobs."""
        return self._engines.cleaner(self.model)

    def reset_session(self, session: Any, system_prompt: str, history: list[tuple[str, str]]) -> None:
        """In a job: make ``session`` (this slot's, taken when the job was made) hold exactly
        ``history`` after ``system_prompt``."""
        self._engines.reset_session(session, system_prompt, history)

    def run_turn(self, session: Any, toolbox: Any, user_text: str, params: Any, **how: Any) -> Any:
        """In a job: answer ``user_text`` with ``toolbox``'s tools (``Engines.run_turn``)."""
        return self._engines.run_turn(session, toolbox, user_text, params, **how)
