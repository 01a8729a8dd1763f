"""The tools that come with Parley, on by default: they need no network and no other program.

- ``clock``: ``get_time``, the date and time here or in a named place (the IANA zones), and the
  date some days from today;
- ``calculator``: ``calculate``, exact arithmetic and percentages on an expression the model
  writes (parsed by our own walk of ``ast``, never ``eval``; bounded);
- ``units``: ``convert_units``, between units of the same kind;
- ``timers``: ``set_timer``, ``set_reminder``, ``list_timers``, ``cancel_timer`` and the
  ``TimerBook`` they share with the app, which rings them (kept in ``timers.json``);
- ``history``: ``search_history``, a read-only search of the user's conversations and
  dictations in the app's SQLite files;
- ``wording``: the words they share (folded text, numbers, durations, dates).

``builtin_tools`` makes the list.  Imports only ``tools.tool``, ``backend.cancel`` and the ground
modules (``errors``, ``atomic``, ``untrusted``, ``config.paths``); never the app."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import tzinfo
from pathlib import Path

from ..tool import Tool
from .calculator import Calculator
from .clock import Clock
from .history import HistorySearch
from .timers import CancelTimer, ListTimers, Ring, SetReminder, SetTimer, Timer, TimerBook, TimerError
from .units import UnitConverter

__all__ = ["Ring", "Timer", "TimerBook", "TimerError", "builtin_tools"]


def builtin_tools(
    timers: TimerBook,
    *,
    conversations: Path | None = None,
    dictations: Path | None = None,
    clock: Callable[[], float] = time.time,
    zone: tzinfo | None = None,
) -> list[Tool]:
    """The built-in tools.  ``timers``: the book the app rings (it has its own clock);
    ``conversations`` and ``dictations``: the app's databases (those in Parley's data folder by
    default); ``clock`` and ``zone``: now and here (the computer's by default), for tests."""
    return [
        Clock(clock, zone),
        Calculator(),
        UnitConverter(),
        SetTimer(timers),
        SetReminder(timers),
        ListTimers(timers),
        CancelTimer(timers),
        HistorySearch(conversations, dictations, clock=clock, zone=zone),
    ]
