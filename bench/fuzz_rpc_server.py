#!/usr/bin/env python3
"""Fuzz ``parley rpc-server`` with a mutating client (tests/support/rpc_fuzzing.py).

Not a test: it runs many cases (500 by default, fixed seed) against one real server.  Each case
is a real session (HELLO, ALLOC_BUFFER, BUFFER_GET_BASE, SET_TENSOR, GRAPH_COMPUTE, GET_TENSOR...)
with one message mutated (a tensor field, a word, a byte, the declared size, a truncated body
that then stalls, extra bytes); afterwards a fresh client must be served.  Printed: the counts
of served, refused (one log line), child restarted (ggml asserted inside the compute process:
fine), and the failures: server died (the front process), hang (no fresh client served within
the limit), leak (a GET_TENSOR answered from outside the client's buffers); then any log line
that is not one of the server's one-line messages.

    .venv/bin/python bench/fuzz_rpc_server.py [--count 500] [--seed 1] [--out DIR]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from tests.support import rpc_fuzzing


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stall", type=float, default=1.0, help="the server's --stall-timeout")
    parser.add_argument("--out", type=Path, default=None, help="where the server logs go")
    args = parser.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="parley-fuzz-rpc-"))
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()

    def progress(outcome: rpc_fuzzing.Outcome) -> None:
        if outcome.failed:
            print(
                f"FAILED #{outcome.case}: {outcome.verdict}: {outcome.mutation}\n    {outcome.detail[-500:]}",
                flush=True,
            )
        if (outcome.case + 1) % 50 == 0:
            print(f"{outcome.case + 1}/{args.count} cases, {time.perf_counter() - started:.0f} s", flush=True)

    outcomes, logs = rpc_fuzzing.run_fuzz(out, args.seed, args.count, args.stall, progress=progress)
    print(f"\n{rpc_fuzzing.summary(outcomes)} in {time.perf_counter() - started:.0f} s (seed {args.seed})")
    stray = [line for log in logs for line in rpc_fuzzing.stray_log_lines(log.read_text(errors="replace"))]
    print(f"log lines that are not one-line server messages: {len(stray)}")
    for line in stray[:20]:
        print(f"    {line}")
    failed = [o for o in outcomes if o.failed]
    print(f"{len(failed)} failures; server logs in {out}")
    return 1 if failed or stray else 0


if __name__ == "__main__":
    sys.exit(main())
