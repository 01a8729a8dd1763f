"""The dictation history as the app keeps it: what the history window shows, and saving it.

Every dictation is added here, typed or not (``DictationLog.add``).  The history's file may be
unusable (full disk, read-only, another Parley writing it): the dictation is typed all the same,
the record is kept in memory for this session, ``problem`` says why it could not be saved, and
the records not saved yet are written with the next save that works.  Retention follows the
settings (``keep_days``; 0 keeps none, in the file or in memory), applied when the log opens,
after each save, and when the setting changes (``apply_retention``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import replace

from PySide6.QtCore import QObject, Signal

from ..signals import emit
from .database import StoreError
from .dictation_history import MAX_KEPT, DictationHistory
from .dictation_record import DictationRecord

log = logging.getLogger("parley.dictation")

KEPT_IN_MEMORY = " It is kept until Parley closes."


class DictationLog(QObject):
    changed = Signal()  # the records, or the problem, changed

    def __init__(
        self,
        history: DictationHistory,
        keep_days: Callable[[], int],
        clock: Callable[[], float] = time.time,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.history = history
        self.keep_days = keep_days
        self.clock = clock
        self.problem: str | None = history.problem  # one line for the user, None when all is saved
        self._unsaved: list[DictationRecord] = []  # oldest first
        self._session: dict[int, int] = {}  # saved id -> the X window it went into (this session)
        self.apply_retention()

    def records(self) -> list[DictationRecord]:
        """What the history shows, newest first: the saved dictations and those not saved yet."""
        try:
            saved = self.history.recent()
        except StoreError as exc:
            self.problem, saved = str(exc), []
        saved = [replace(r, window=self._session.get(r.id or 0, 0)) for r in saved]
        merged = sorted([*saved, *self._unsaved], key=lambda r: r.when, reverse=True)
        return merged[:MAX_KEPT]

    @property
    def keeping(self) -> bool:
        return self.keep_days() > 0

    def add(self, raw: str, typed: str, application: str = "", note: str = "", window: int = 0) -> None:
        """Keep a dictation (unless the settings keep none); never raises: a save that fails
        leaves it in memory and says why in ``problem``."""
        if not self.keeping:
            return
        self._unsaved.append(DictationRecord(self.clock(), raw, typed, application, note, window))
        self._save_unsaved()
        emit(self.changed)

    def clear(self) -> None:
        """Forget every dictation, saved or not."""
        self._unsaved.clear()
        self._session.clear()
        try:
            self.history.clear()
            self.problem = None
        except StoreError as exc:
            self.problem = str(exc)
        emit(self.changed)

    def apply_retention(self) -> None:
        """Forget what is older than the setting allows (all of it at 0)."""
        days = self.keep_days()
        cutoff = self.clock() - days * 86400
        self._unsaved = [r for r in self._unsaved if days > 0 and r.when >= cutoff]
        if self.history.read_only:
            return  # nothing can be deleted; ``problem`` already says why
        try:
            if self.history.forget_older_than(days, self.clock()):
                emit(self.changed)
        except StoreError as exc:
            self.problem = str(exc)
            emit(self.changed)

    def _save_unsaved(self) -> None:
        while self._unsaved:
            record = self._unsaved[0]
            try:
                saved = self.history.add(record)
            except StoreError as exc:
                log.warning("dictation not saved: %s", exc)
                self.problem = f"{exc}{KEPT_IN_MEMORY}"
                return
            self._unsaved.pop(0)
            if record.window:
                self._session[saved.id or 0] = record.window
        self.problem = None
        days = self.keep_days()
        if days:
            try:
                self.history.forget_older_than(days, self.clock())
            except StoreError as exc:
                self.problem = str(exc)
