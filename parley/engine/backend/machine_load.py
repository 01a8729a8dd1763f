"""How much of this machine's processor other programs are using: a measurement of speed taken
while a compiler or a video call runs would say a model is slower than it is, and stay wrong.

``OtherLoad.fraction()`` is the share of all cores that processes other than this one kept busy
since the last call (or since it was made), from the kernel's counters (Linux ``/proc/stat``)
less this process's own CPU time.  Elsewhere it is None: unknown, and a caller treats the
machine as quiet.
"""

from __future__ import annotations

import os
import sys
import time


def _sample() -> tuple[float, float, float] | None:
    """(all cores' busy seconds, all cores' seconds, this process's CPU seconds), or None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        with open("/proc/stat", encoding="ascii") as f:
            fields = f.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu" or len(fields) < 9:
        return None
    try:
        user, nice, system, idle, iowait, irq, softirq, steal = (int(v) for v in fields[1:9])
    except ValueError:
        return None
    hz = os.sysconf("SC_CLK_TCK") or 100
    total = (user + nice + system + idle + iowait + irq + softirq + steal) / hz
    busy = total - (idle + iowait) / hz
    return busy, total, time.process_time()  # all of this process's threads (no `resource` on Windows)


class OtherLoad:
    def __init__(self) -> None:
        self._last = _sample()

    def fraction(self) -> float | None:
        """Share (0 to 1) of all cores that other processes used since the last look."""
        now, last = _sample(), self._last
        self._last = now
        if now is None or last is None or now[1] <= last[1]:
            return None
        others = (now[0] - last[0]) - (now[2] - last[2])
        return min(1.0, max(0.0, others / (now[1] - last[1])))
