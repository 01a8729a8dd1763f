"""The machine a benchmark runs on, as its figures name it."""

from __future__ import annotations

import platform
from pathlib import Path


def processor() -> str:
    """The processor's model name ("AMD EPYC ..."), from /proc/cpuinfo where there is one."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"
