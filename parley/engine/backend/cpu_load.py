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
  waited, an average that may be stale by now, so the next look comes ``AFTER_A_WAIT_S`` later),
  and never goes above the engine's own limit or below 1.  (Smoothed from such a stale look
  instead, a server that had waited while another program ran computed on one thread for 1.5 s
  after it ended: the starter served 4 clients at 143 tokens/s on an idle machine where two
  threads gave 184, ``bench_threads.py --server``.)

A thread count the user set (``--threads``, Settings) is used as it is: no governor.

Steps of several tokens (the server's batch engine: several sequences at once, or a prompt) count
differently: they are longer, so a thread that waits at a barrier loses a smaller part of each, and
a core that is busy only half the time still takes a thread. When the others keep every core busy,
each of our threads gets its fair share of the cores from the scheduler, so more threads are more
share: every core takes one. Measured with 4 clients of ``parley serve`` and the 1.5B model on 2
cores (``bench_threads.py --server``): beside two hogs 2 threads gave 21.4 tokens/s against 16.6 on
one, beside a bursty one 34.2 against 27.3, beside one hog 22.7 against 25.1 (one thread still).
What the others *used* does not tell how many of them there are: two hogs beside two of our
threads use one core between them, as one hog does.  Where the cores are contested (all busy, the
others' part at least ``CONTESTED``), the shares tell it while we run fewer threads than our
limit: runnable threads share the cores evenly, so the others want ``used * ours / our share``
cores (one hog beside one thread of ours: 1 : 1; two: 4/3 : 2/3, two cores wanted).  On every
core the shares are alike for one hog or two (ggml's threads wait at barriers), so the estimate
is held there and read again now and then (every ``PROBE_EVERY_S``, and at once after a long
wait) with one thread fewer for a look's span.  Measured with 4 clients: auto 0.97-1.01 of the
best fixed count with the 1.5B idle, beside one or two hogs and a bursty one (0.80 beside two
hogs before), the starter 0.95-1.00 (docs/measurements.md).
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
AFTER_A_WAIT_S = 0.05  # the next look after a long one (a stale average) comes this soon
SATURATED = 0.9  # the cores count as all busy at this share of them (the ticks' jitter) ...
CONTESTED = 0.5  # ... and as contested when the others' part is this many cores or more ...
MIN_OWN = 0.2  # ... and ours this many (below it our threads were waiting, not running)
PROBE_EVERY_S = 2.0  # on every core of a contested machine: a look on one thread fewer this often
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
        self.own = 0.0  # logical cores this process kept busy in the last look's span

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
        self.own = max(0.0, min(float(len(self.cores)), own / elapsed))
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
        self._wants = 0.0  # the smoothed estimate of the cores the others would use (steps of several tokens)
        self._wants_stale = True  # ... from a long wait's look, or before a probe: the next reading replaces it
        self._handed = self.limit  # the count the last step was given
        self._probed = -math.inf  # when the governor last ran one thread fewer to read the shares
        self._stale = True  # the estimate is the average of a long wait: the next look replaces it
        self._threads = self._batch_threads = self.limit
        self.free = float(self.limit)  # the physical cores other programs left free, as last seen (smoothed)
        self.changes = 0  # how often the count changed (benchmarks and tests)
        self._meter.others()  # the first look: the counters the next one is measured from

    def threads(self, batch: bool = False) -> int:
        """The count to use for the next step (a look at the load at most every ``SAMPLE_S``);
        ``batch``: the step holds several tokens (see the module's docstring)."""
        self._look()
        self._handed = self._batch_threads if batch else self._threads
        return self._handed

    def _look(self) -> None:
        now = self._clock()
        if now < self._next:
            return
        with self._lock:
            if now < self._next:
                return
            seen = self._meter.others()
            spanned, self._looked = now - self._looked, now
            waited = spanned >= WINDOW_S
            self._next = now + (AFTER_A_WAIT_S if waited else SAMPLE_S)  # a stale average: look again soon
            if seen is None:
                return
            weight = 1.0 if self._stale else min(1.0, max(SMOOTHING, spanned / WINDOW_S))
            self._stale = waited
            self._others = weight * seen + (1 - weight) * (self._others or 0.0)
            free = (len(self._meter.cores) - self._others) / self._per_core  # in physical cores
            self.free = free
            wanted = max(1, min(self.limit, math.floor(free + TOLERANCE)))
            if wanted != self._threads:
                self._threads = wanted
                self.changes += 1
            self._batch_threads = self._batch_count(seen, weight, waited, now)

    def _batch_count(self, seen: float, weight: float, waited: bool, now: float) -> int:
        """The count for steps of several tokens, from what the others *want* (see the module's
        docstring): where the cores are contested, our threads' share of them against the others'
        tells how many others there are, but only while we run on fewer threads than our limit."""
        cores = len(self._meter.cores)
        own = self._meter.own
        contested = seen >= CONTESTED and own >= MIN_OWN and seen + own >= SATURATED * cores
        if not contested:
            wants: float | None = seen  # a core was idle: the others took all they wanted
        elif self._handed < self.limit:
            wants = seen * self._handed / own  # runnable threads share the cores evenly
        else:
            wants = None  # on every core the shares are alike for one busy program or more
        if wants is not None:
            fresh = 1.0 if self._wants_stale else weight
            self._wants = fresh * wants + (1 - fresh) * self._wants
            self._wants_stale = waited
        free = (cores - self._wants) / self._per_core
        count = self.limit if free < FAIR_SHARE else math.floor(free + BATCH_TOLERANCE)
        if wants is None and (self._wants_stale or now - self._probed >= PROBE_EVERY_S):
            self._probed = now  # one thread fewer for a look's span, to read the shares again
            self._wants_stale = True  # ... and take that reading as it is
            count = self.limit - 1
        return max(1, min(self.limit, count))


def _affinity() -> set[int]:
    return set(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else set(range(os.cpu_count() or 1))
