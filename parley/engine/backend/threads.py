"""How many CPU threads the engines use when none is asked for: one policy for speech and chat.

Physical cores, not logical ones, at most 8.  ggml's matrix kernels keep a core's vector units
busy, and the two hyper-threads of one core share those units, so a second thread per core
adds contention rather than throughput (llama.cpp's own default, ``cpu_get_num_math``, counts
physical cores for the same reason).  Beyond about 8 threads token generation is bound by
memory bandwidth and the extra threads mostly spin.  The cores counted are those this process
may run on (``sched_getaffinity``: a container or ``taskset`` limit), not all of the machine's.
"""

from __future__ import annotations

import os
from pathlib import Path

MAX_DEFAULT_THREADS = 8


def default_threads() -> int:
    """Physical cores available to this process, at least 1 and at most 8."""
    logical = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(MAX_DEFAULT_THREADS, logical // _threads_per_core()))


def _threads_per_core() -> int:
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
