"""Sharing the CPU with work a person is waiting on right now.

When a reply is read aloud, its first words are synthesized while the chat model goes on
generating the rest, and on a machine with few cores both want every core: ggml's threads spin
while they wait for each other, and the voice's first piece takes twice as long as alone (2
cores: about 95 ms alone, about 225 ms beside generation).  That piece stands between the
user's last word and Parley's first sound, while the rest of the reply is needed only seconds
later.  So the voice marks such work ``urgent()``, and generation on the CPU calls
``step_aside()`` between two tokens: it waits while urgent work runs, for at most
``MAX_WAIT_SECONDS`` in all per call, so a stuck voice cannot stall a reply.

One process-wide state: the engines share one CPU whichever objects they belong to.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

MAX_WAIT_SECONDS = 1.0

_cond = threading.Condition()
_urgent = 0  # urgent works running now
_stepped_aside = 0.0  # seconds spent waiting in step_aside, in all (for benchmarks and tests)


@contextmanager
def urgent() -> Iterator[None]:
    """Mark the work inside the block as urgent: CPU work that can wait steps aside meanwhile."""
    global _urgent
    with _cond:
        _urgent += 1
    try:
        yield
    finally:
        with _cond:
            _urgent -= 1
            _cond.notify_all()


def step_aside(timeout: float = MAX_WAIT_SECONDS) -> float:
    """Wait while urgent work runs, at most ``timeout`` seconds; return the seconds waited."""
    global _stepped_aside
    with _cond:
        if not _urgent:
            return 0.0
        started = time.monotonic()
        _cond.wait_for(lambda: not _urgent, timeout=timeout)
        waited = time.monotonic() - started
        _stepped_aside += waited
        return waited


def busy() -> bool:
    """Urgent work is running now."""
    return _urgent > 0


def seconds_stepped_aside() -> float:
    """How long ``step_aside`` has waited in this process, in all."""
    return _stepped_aside
