#!/usr/bin/env python3
"""Chat speed while other programs keep the cores busy: how ggml's OpenMP threads wait.

Not a test: it prints its figures.  Each run is a fresh process (libgomp reads its environment
once, when it is loaded) that writes ``--tokens`` greedy tokens of the starter model on
``--threads`` threads, while ``--hogs`` processes spin on the CPU beside it.  The ways of
waiting take turns (``--rounds``) so that the load hits them alike:
- ``parley``: what Parley sets (``native_loading.set_openmp_waiting``);
- ``libgomp``: libgomp's own default (spin 300,000 times at each barrier, then sleep);
- ``passive``: ``OMP_WAIT_POLICY=passive`` (sleep at once);
- ``one thread``: no barrier to wait at.

    .venv/bin/python bench/bench_busy.py [--hogs 2] [--rounds 3] [--tokens 64]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import subprocess
import sys
import time

RUN = """
import sys, time
from parley.engine.chat.model import ChatModel, ChatSession, SamplingParams
from parley.engine.modelfiles.defaults import default_chat_model_path
with ChatModel(default_chat_model_path(), device="cpu", n_ctx=1024, threads=int(sys.argv[1])) as model:
    reply = ChatSession(model, "You are helpful.").reply(
        "Tell me about the moon.", SamplingParams(temperature=0, max_tokens=int(sys.argv[2]))
    )
    print(reply.stats.gen_tps)
"""

WAYS: dict[str, tuple[dict[str, str], int | None]] = {  # environment, threads (None: --threads)
    "parley": ({}, None),
    "libgomp": ({"GOMP_SPINCOUNT": "300000"}, None),
    "passive": ({"OMP_WAIT_POLICY": "passive"}, None),
    "one thread": ({}, 1),
}


def hog() -> None:
    while True:
        pass


def run(way: str, threads: int, tokens: int, timeout: float) -> float | None:
    extra, fixed = WAYS[way]
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
    args = [sys.executable, "-c", RUN, str(fixed or threads), str(tokens)]
    try:
        proc = subprocess.run(args, env={**env, **extra}, capture_output=True, text=True, timeout=timeout, check=True)
    except subprocess.TimeoutExpired:
        return None  # slower than tokens / timeout
    return float(proc.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hogs", type=int, default=os.cpu_count() or 2, help="busy processes beside it")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--tokens", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds a run may take")
    args = parser.parse_args()
    hogs = [multiprocessing.Process(target=hog, daemon=True) for _ in range(args.hogs)]
    for process in hogs:
        process.start()
    time.sleep(1.0)
    speeds: dict[str, list[float | None]] = {way: [] for way in WAYS}
    try:
        for _ in range(args.rounds):
            for way in WAYS:
                speeds[way].append(run(way, args.threads, args.tokens, args.timeout))
                print(f"  {way}: {speeds[way][-1]}", flush=True)
    finally:
        for process in hogs:
            process.terminate()
    floor = args.tokens / args.timeout
    print(
        f"\nstarter, {args.tokens} greedy tokens on {args.threads} threads, {args.hogs} busy processes beside it, "
        f"{os.cpu_count()} CPUs; tokens/s, median of {args.rounds} (runs over {args.timeout:g} s count as {floor:.1f}):"
    )
    for way, values in speeds.items():
        shown = [v if v is not None else floor for v in values]
        print(f"  {way:<10} {statistics.median(shown):6.1f}   ({', '.join(f'{v:.1f}' for v in shown)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
