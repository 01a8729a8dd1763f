"""What a test needs from the machine, and what happens when it is missing.

``require(condition, reason)`` lets the test go on when ``condition`` holds.  Otherwise, on a
developer's machine, the test is skipped with ``reason`` (``-ra`` lists it in the summary);
in a strict run (``PARLEY_STRICT_TESTS=1``, which ``./setup.sh test`` and therefore CI set) it
fails instead: there every tool, service, build and model the suite uses must be present, and
a missing one must not turn into a green run that tested nothing.

Use it for missing tools and builds only; a test that cannot apply to this platform (no named
pipes, running as root) still uses ``pytest.skip``.
"""

from __future__ import annotations

import os

import pytest

STRICT_VARIABLE = "PARLEY_STRICT_TESTS"


def strict() -> bool:
    """Whether missing requirements fail the run rather than skip."""
    return os.environ.get(STRICT_VARIABLE, "") not in ("", "0")


def require(condition: object, reason: str) -> None:
    """Skip (or, in a strict run, fail) the calling test or fixture unless ``condition``."""
    if condition:
        return
    if strict():
        pytest.fail(f"missing requirement: {reason} ({STRICT_VARIABLE}=1: required, not skipped)", pytrace=False)
    pytest.skip(reason)
