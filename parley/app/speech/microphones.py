"""Which microphones there are, looked for on the speech thread, and what is wrong with them.

A look re-scans PortAudio's devices, which must not overlap a recording being opened, so it runs
as a job of the speech worker and push-to-talk waits for its answer (``probing``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal

from ..engine_notes import said
from ..engine_slots import EngineSlot
from ..signals import emit
from ..status import StatusPresenter
from ..tasks import Job


class Microphones(QObject):
    changed = Signal(object)  # the microphone names found (empty: none)

    def __init__(
        self,
        speech: EngineSlot,
        input_devices: Callable[[], list[Any]],
        status: StatusPresenter,
        wanted: Callable[[], str | None],
        parent: QObject | None = None,
    ) -> None:
        """``input_devices()`` lists the microphones (on the speech thread: it re-scans PortAudio);
        ``wanted()`` is the microphone the settings name (None: the system default)."""
        super().__init__(parent)
        self.speech = speech
        self.input_devices = input_devices
        self.status = status
        self.wanted = wanted
        self.names: list[str] | None = None  # None until looked for
        self.problem: str | None = None
        self.probing = False

    def probe(self) -> None:
        """Look for microphones again (unless a look is under way or the app is closing)."""
        if self.probing or self.speech.closing:
            return
        input_devices = self.input_devices

        def probe(_job: Job) -> list[str]:
            return [device.name for device in input_devices()]

        self.probing = True
        self.speech.submit(probe, on_done=self._found, on_error=self._failed, name="list microphones")
        emit(self.changed, self.names or [])

    def device(self) -> str | None:
        """The microphone to record from: the one the settings name if it is connected, else the
        system default (None)."""
        wanted = self.wanted()
        return wanted if wanted in (self.names or []) else None

    def failed_to_open(self, exc: BaseException) -> None:
        self.problem = self.tr("The microphone could not be opened: {problem}").format(problem=said(exc))
        emit(self.changed, self.names or [])

    def _found(self, names: list[str]) -> None:
        self.probing = False
        self.names = names
        self.problem = (
            None
            if names
            else self.tr(
                "No microphone was found. Connect one (or start the sound server); "
                "Parley looks again when you press the talk key."
            )
        )
        wanted = self.wanted()
        if names and wanted and wanted not in names:
            self.status.announce(
                self.tr("The microphone “{name}” is not connected; using the system default.").format(name=wanted)
            )
        emit(self.changed, list(names))

    def _failed(self, exc: BaseException) -> None:
        self.probing = False
        self.names = []
        self.problem = self.tr("Push-to-talk is unavailable: {problem}").format(problem=said(exc))
        emit(self.changed, [])

    def unavailable(self) -> str | None:
        """Why no recording can start now, as far as microphones go."""
        if self.problem and not self.probing:
            return self.problem
        if self.names is None or self.probing:
            return self.tr("Looking for microphones…")
        return None
