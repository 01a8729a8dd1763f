"""Mutated Hub answers through the real download code: a fixed-seed slice of bench/fuzz_hub.py.

bench/fuzz_hub.py says how the answers are mutated (headers, statuses, bodies, cuts and stalls).
No case may crash (an exception that is not a ParleyError), hang, write, change or delete a file
outside the temporary hub cache (a tree of sentinel files surrounds it), leave a link in the
cache that leads out, accept bytes other than the pinned ones, or refuse without a one-line
message.  The suite's share is a couple of hundred cases, about 20 s.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

SEED = 20261124
CASES = 200
_spec = importlib.util.spec_from_file_location(
    "fuzz_hub", Path(__file__).resolve().parents[2] / "bench" / "fuzz_hub.py"
)
fuzz_hub = sys.modules["fuzz_hub"] = importlib.util.module_from_spec(_spec)  # type: ignore[arg-type]
_spec.loader.exec_module(fuzz_hub)  # type: ignore[union-attr]


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for key, value in fuzz_hub.environment(tmp_path).items():
        monkeypatch.setenv(key, value)
    for key in ("HF_TOKEN", "HF_HUB_OFFLINE", "HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy"):
        monkeypatch.delenv(key, raising=False)
    return tmp_path


def test_mutated_hub_answers_never_crash_hang_or_touch_files_outside_the_cache(root: Path) -> None:
    outcomes = fuzz_hub.fuzz(root, SEED, CASES, limit_s=30.0)
    print("\n" + fuzz_hub.summary(outcomes))
    failed = [o for o in outcomes if o.failed]
    assert not failed, "\n\n".join(
        f"case {o.case.number} ({o.case.description}): {o.verdict}\n{o.message[-3000:]}" for o in failed
    )
    assert len(outcomes) == CASES
    # The mutations reach past the first check: cases are refused for many reasons, and some
    # (a harmless mutation, or a resume) still download the right file.
    assert sum(o.verdict == "downloaded" for o in outcomes) >= 10
    assert len({fuzz_hub.shape(o.message) for o in outcomes if o.verdict == "refused"}) >= 12
    assert (root / "victim" / "notes.txt").read_text() == "notes"
    assert not os.path.exists(root / "data" / "downloads.json.unreadable")
