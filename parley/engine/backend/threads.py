"""How many CPU threads the engines use when none is asked for: one policy for speech and chat.

Physical cores, not logical ones, at most 8.  ggml's matrix kernels keep a core's vector units
busy, and the two hyper-threads of one core share those units, so a second thread per core
adds contention rather than throughput (llama.cpp's own default, ``cpu_get_num_math``, counts
physical cores for the same reason).  Beyond about 8 threads token generation is bound by
memory bandwidth and the extra threads mostly spin.  The cores counted are those this process
may run on (``sched_getaffinity``: a container or ``taskset`` limit), not all of the machine's,
and no more than its cgroup's CPU quota allows (a container's ``cpu.max``: two cores' quota on a
64-core host is two threads).  How many of them an engine uses from moment to moment, while
other programs keep cores busy: ``cpu_load``.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

MAX_DEFAULT_THREADS = 8


def usable_threads(threads: int) -> int:
    """A thread count someone gave (a flag, a setting), no higher than the logical cores this
    process may use: more threads than cores only wait for each other (a count of 1,000 would
    start a thousand)."""
    return max(1, min(threads, allowed_cores()))


def default_threads() -> int:
    """Physical cores available to this process, at least 1 and at most 8."""
    return max(1, min(MAX_DEFAULT_THREADS, allowed_cores() // threads_per_core()))


def allowed_cores() -> int:
    """The cores this process may run on: its affinity mask, bounded by its cgroup's quota."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    quota = cgroup_quota()
    return max(1, min(cores, math.ceil(quota)) if quota is not None else cores)


def cgroup_quota(root: Path = Path("/sys/fs/cgroup")) -> float | None:
    """The CPU quota of this process's cgroup in cores (``cpu.max`` of cgroup v2, or v1's
    ``cpu.cfs_quota_us`` / ``cpu.cfs_period_us``), None when there is none or it cannot be read."""
    try:
        quota, period = (root / "cpu.max").read_text().split()[:2]
        if quota != "max" and float(period) > 0:
            return max(0.01, float(quota) / float(period))
        return None
    except (OSError, ValueError):
        pass
    try:
        quota_us = float((root / "cpu" / "cpu.cfs_quota_us").read_text())
        period_us = float((root / "cpu" / "cpu.cfs_period_us").read_text())
    except (OSError, ValueError):
        return None
    return max(0.01, quota_us / period_us) if quota_us > 0 and period_us > 0 else None


def threads_per_core() -> int:
    """Hardware threads per core (Linux sysfs; 1 where it cannot be read)."""
    try:
        siblings = Path("/sys/devices/system/cpu/cpu0/topology/thread_siblings_list").read_text().strip()
    except OSError:
        return 1
    count = 0
    for part in siblings.split(","):
        lo, _, hi = part.partition("-")
        count += int(hi) - int(lo) + 1 if hi else 1
    return max(1, count)
