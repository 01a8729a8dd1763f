"""A mutating client against a real `parley rpc-server`: a fixed-seed slice of what
``bench/fuzz_rpc_server.py`` runs by the hundred (tests/support/rpc_fuzzing.py says how messages are
mutated).  The front process must never die, always serve a fresh client afterwards, never answer
a GET_TENSOR from outside the client's buffers, and say each refusal in one log line."""

from __future__ import annotations

from pathlib import Path

from tests.support import rpc_fuzzing

SEED = 20261124
CASES = 40


def test_mutated_sessions_never_kill_hang_or_leak_from_the_server(tmp_path: Path) -> None:
    outcomes, logs = rpc_fuzzing.run_fuzz(tmp_path, SEED, CASES)
    print("\n" + rpc_fuzzing.summary(outcomes))
    failed = [o for o in outcomes if o.failed]
    assert not failed, "\n".join(f"#{o.case} {o.verdict}: {o.mutation}: {o.detail[-300:]}" for o in failed)
    assert sum(o.verdict == "refused" for o in outcomes) >= CASES // 4, "the mutations must reach the checks"
    for log in logs:
        assert not rpc_fuzzing.stray_log_lines(log.read_text()), log.read_text()[-2000:]
