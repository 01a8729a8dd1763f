#!/usr/bin/env python3
"""Fuzz Parley's RPC client side (the relay and ggml's client) with a mutating fake server.

Not a test: it runs many cases (300 by default, fixed seed).  Each case starts a fake ggml RPC
server (tests/support/rpc_client_fuzzing.py) that spoils one reply (a field out of range, a wrong length,
a stall, an early close, garbage, a huge length, data nobody asked for), then a fresh
subprocess connects through the real relay and the real ggml client, lists the devices, loads a
tiny model on ``--device rpc`` and evaluates a few tokens.  With ``--upstream`` the fake server
is a proxy in front of a real ``parley rpc-server`` started here, which reaches the states a
real session leads to.  Printed: the counts of served (no harm done), refused (a one-line
error, or the server marked lost with a one-line reason and the work went on on the CPU), and
the failures: crash (a signal or an unexpected exit: ggml aborted), hang, traceback, multi-line.

    .venv/bin/python bench/fuzz_rpc_client.py [--count 300] [--seed 1] [--upstream]
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from parley.engine.backend.rpc import remote
from parley.engine.errors import RemoteError
from tests.support import rpc_client_fuzzing as fuzz
from tests.support.tinymodels import write_tiny_llama_gguf

REPO = Path(__file__).resolve().parents[1]


def _real_server() -> tuple[subprocess.Popen, str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "parley", "rpc-server", "--port", str(port), "--threads", "2"],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    endpoint = f"127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            remote.check_server(endpoint, timeout=1.0)
            return proc, endpoint
        except RemoteError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise SystemExit("the rpc-server did not start") from None
            time.sleep(0.2)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per case before it counts as a hang")
    parser.add_argument("--upstream", action="store_true", help="proxy a real `parley rpc-server`")
    args = parser.parse_args()
    model = write_tiny_llama_gguf(Path(tempfile.mkdtemp(prefix="parley-fuzz-client-")) / "tiny.gguf", n_ctx=256)
    server, upstream = _real_server() if args.upstream else (None, None)
    started = time.perf_counter()

    def progress(outcome: fuzz.Outcome) -> None:
        if outcome.failed:
            print(
                f"FAILED #{outcome.case}: {outcome.verdict}: {outcome.mutation}\n    {outcome.detail[-800:]}",
                flush=True,
            )
        if (outcome.case + 1) % 50 == 0:
            print(f"{outcome.case + 1}/{args.count} cases, {time.perf_counter() - started:.0f} s", flush=True)

    try:
        outcomes = fuzz.run_fuzz(model, args.seed, args.count, upstream=upstream, limit=args.limit, progress=progress)
    finally:
        if server is not None:
            server.kill()
            server.wait(10)
    print(
        f"\n{fuzz.summary(outcomes)} in {time.perf_counter() - started:.0f} s (seed {args.seed}"
        f"{', through a real rpc-server' if upstream else ''})"
    )
    reasons: dict[str, int] = {}
    for o in outcomes:
        if o.verdict == "refused":
            key = o.detail.split(" (")[0].split(":")[-1].strip()[:70]
            reasons[key] = reasons.get(key, 0) + 1
    for reason, n in sorted(reasons.items(), key=lambda item: -item[1]):
        print(f"  {n:4d}  {reason}")
    return 1 if any(o.failed for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
