"""How many threads the engines compute with now: the cores this process may use, less what
other programs keep busy.

ggml splits each step of a model over its threads and waits at a barrier for the slowest.  When
another program keeps one of two cores busy, one of two threads runs only part of the time, and
every step waits for it: measured on a 2-core machine beside one CPU hog, the starter wrote 47.7
tokens/s on 2 threads against 87.1 on 1 (issue 45), and llama-bench collapses the same way.  So
an engine that was given no thread count follows the machine: as many threads as there are cores
no other program keeps busy (at least 1), looked at again while it runs.

- ``CpuMeter``: other programs' busy cores since its last look, from ``/proc/stat`` (the allowed
  cores' lines) less this process's own CPU time (``/proc/self/stat``); None where these cannot
  be read or make no sense (another system, a container whose ``/proc`` shows the host's);
- ``ThreadGovernor``: the thread count to use now, for one engine: looks at most every
  ``SAMPLE_S``, smooths what it sees (a load that changes every 100 ms is followed on average;
  a look that spans a second or more, as between two transcriptions, is taken as it is, and so
  is the next short look after it: the long one told what the others did while this engine
  waited, an average that may be stale by now), and never goes above the engine's own limit or
  below 1.  (Smoothed from such a stale look instead, a server that had waited while another
  program ran computed on one thread for 1.5 s after it ended: the starter served 4 clients at
  143 tokens/s on an idle machine where two threads gave 184, ``bench_threads.py --server``.)

A thread count the user set (``--threads``, Settings) is used as it is: no governor.

Steps of several tokens (the server's batch engine: several sequences at once, or a prompt) count
differently: they are longer, so a thread that waits at a barrier loses a smaller part of each, and
a core that is busy only half the time still takes a thread. When the others keep every core busy,
each of our threads gets its fair share of the cores from the scheduler, so more threads are more
share: every core takes one. Measured with 4 clients of ``parley serve`` and the 1.5B model on 2
cores (``bench_threads.py --server``): beside two hogs 2 threads gave 21.4 tokens/s against 16.6 on
one, beside a bursty one 34.2 against 27.3, beside one hog 22.7 against 25.1 (one thread still).
The rule reads what the others used, though, and two hogs beside two of our threads use one core
between them: auto stays on one thread there (0.80 of two; docs/measurements.md).
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Callable

from .threads import threads_per_core

SAMPLE_S = 0.25  # how often a governor looks at the load (two small /proc reads)
SMOOTHING = 0.3  # weight of the newest look in the running estimate of the others' load ...
WINDOW_S = 1.0  # ... or more, up to all of it, for a look that spans this long (a transcription's)
TOLERANCE = 0.35  # a core the others keep this busy (on average) still takes a thread of ours
BATCH_TOLERANCE = 0.75  # ... in steps of several tokens
FAIR_SHARE = 0.5  # fewer free cores than this: batched steps take every core (the scheduler's fair share)


def _read(path: str) -> str:
    with open(path, "rb") as file:
        return file.read(1 << 20).decode("ascii", "replace")


class CpuMeter:
    """Other programs' busy cores on the allowed cores, between two looks (``others``)."""

    def __init__(self, read: Callable[[str], str] = _read, cores: set[int] | None = None) -> None:
        """``read(path)``: a file's text (tests give their own); ``cores``: the logical cores
        this process may use (its affinity mask)."""
        self._read = read
        self.cores = cores if cores is not None else _affinity()
        self._last: tuple[float, float, float] | None = None  # ticks: the cores' busy, ours, all

    def others(self) -> float | None:
        """Logical cores the other programs kept busy since the last call (None: the first call,
        or the counters cannot be read or went backwards).  Counters are in the kernel's clock
        ticks, ``/proc/stat``'s and ``/proc/self/stat``'s alike."""
        now = self._sample()
        last, self._last = self._last, now
        if now is None or last is None:
            return None
        busy, own, total = (a - b for a, b in zip(now, last, strict=True))
        if total <= 0 or busy < 0 or own < 0:
            return None
        elapsed = total / len(self.cores)  # ticks that passed on each core
        return max(0.0, min(float(len(self.cores)), (busy - own) / elapsed))

    def _sample(self) -> tuple[float, float, float] | None:
        try:
            stat = self._read("/proc/stat")
            own_fields = self._read("/proc/self/stat").rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            return None
        busy = total = 0.0
        seen = 0
        for line in stat.splitlines():
            name, _, rest = line.partition(" ")
            if not name.startswith("cpu") or name == "cpu" or not name[3:].isdigit():
                continue
            if int(name[3:]) not in self.cores:
                continue
            try:
                values = [float(v) for v in rest.split()[:8]]
            except ValueError:
                return None
            if len(values) < 5:
                return None
            idle = values[3] + values[4]  # idle, iowait
            total += sum(values)
            busy += sum(values) - idle
            seen += 1
        if seen != len(self.cores):
            return None  # /proc/stat does not show the cores this process runs on (a container)
        try:
            own = float(own_fields[11]) + float(own_fields[12])  # utime, stime (fields 14, 15)
        except (IndexError, ValueError):
            return None
        return busy, own, total


class ThreadGovernor:
    """The thread count one engine computes with now, between 1 and ``limit``."""

    def __init__(
        self,
        limit: int,
        meter: CpuMeter | None = None,
        clock: Callable[[], float] = time.monotonic,
        per_core: int | None = None,
    ) -> None:
        """``limit``: the engine's most threads (physical cores, ``threads.default_threads``);
        ``per_core``: hardware threads per core (the meter counts logical cores)."""
        self.limit = max(1, limit)
        self._meter = meter or CpuMeter()
        self._per_core = per_core or threads_per_core()
        self._clock = clock
        self._lock = threading.Lock()
        self._next = 0.0
        self._looked = clock()  # when the meter last looked
        self._others: float | None = None  # the smoothed estimate
        self._stale = True  # the estimate is the average of a long wait: the next look replaces it
        self._threads = self._batch_threads = self.limit
        self.free = float(self.limit)  # the physical cores other programs left free, as last seen (smoothed)
        self.changes = 0  # how often the count changed (benchmarks and tests)
        self._meter.others()  # the first look: the counters the next one is measured from

    def threads(self, batch: bool = False) -> int:
        """The count to use for the next step (a look at the load at most every ``SAMPLE_S``);
        ``batch``: the step holds several tokens (see the module's docstring)."""
        self._look()
        return self._batch_threads if batch else self._threads

    def _look(self) -> None:
        now = self._clock()
        if now < self._next:
            return
        with self._lock:
            if now < self._next:
                return
            self._next = now + SAMPLE_S
            seen = self._meter.others()
            spanned, self._looked = now - self._looked, now
            if seen is None:
                return
            weight = 1.0 if self._stale else min(1.0, max(SMOOTHING, spanned / WINDOW_S))
            self._stale = spanned >= WINDOW_S
            self._others = weight * seen + (1 - weight) * (self._others or 0.0)
            free = (len(self._meter.cores) - self._others) / self._per_core  # in physical cores
            self.free = free
            wanted = max(1, min(self.limit, math.floor(free + TOLERANCE)))
            if wanted != self._threads:
                self._threads = wanted
                self.changes += 1
            shared = self.limit if free < FAIR_SHARE else math.floor(free + BATCH_TOLERANCE)
            self._batch_threads = max(1, min(self.limit, shared))


def _affinity() -> set[int]:
    return set(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else set(range(os.cpu_count() or 1))
