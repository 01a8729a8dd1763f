"""Sizes and durations written for people ("398 MB", "1 min 05 s")."""

from __future__ import annotations


def gb(n: int | float) -> str:
    """A size: "4.9 GB", "398 MB", "12 KB"."""
    return f"{n / 1e9:.1f} GB" if n >= 1e9 else f"{n / 1e6:.0f} MB" if n >= 1e6 else f"{n / 1e3:.0f} KB"


def duration(seconds: float) -> str:
    """A time left: "42 s", "3 min 05 s", "1 h 20 min"."""
    whole = int(seconds + 0.5)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60:02d} s"
    return f"{whole // 3600} h {whole % 3600 // 60:02d} min"
