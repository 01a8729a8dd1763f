"""A mutating fake server against the real relay and ggml's real client: a fixed-seed slice of
what ``bench/fuzz_rpc_client.py`` runs by the hundred (tests/support/rpc_client_fuzzing.py says how
replies are spoiled).  Each case is a subprocess that connects, lists the devices, loads a tiny
model on the remote device and evaluates tokens: it must never crash (ggml abort), hang, print a
traceback, or refuse in more than one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import rpc_client_fuzzing as fuzz
from tests.support.tinymodels import write_tiny_llama_gguf

SEED = 20261124
CASES = 48


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tiny_llama_gguf(tmp_path_factory.mktemp("fuzz-client") / "tiny.gguf", n_ctx=256)


def test_spoiled_replies_never_crash_hang_or_trace_the_client(tiny: Path) -> None:
    outcomes = fuzz.run_fuzz(tiny, SEED, CASES, limit=60.0)
    print("\n" + fuzz.summary(outcomes))
    failed = [o for o in outcomes if o.failed]
    assert not failed, "\n".join(f"#{o.case} {o.verdict}: {o.mutation}: {o.detail[-600:]}" for o in failed)
    assert sum(o.verdict == "refused" for o in outcomes) >= CASES // 2, "the mutations must reach the checks"
