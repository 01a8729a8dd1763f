#!/usr/bin/env python3
"""Fuzz the ``parley`` command with mutated model and audio files (tests/support/fuzzing.py).

Not a test: it runs many cases (1000 by default, fixed seed) and prints the outcome counts by
kind (exit codes, signals, hangs, tracebacks) and the error messages grouped.  Cases that
crashed, hung or printed a traceback are kept in the output folder with their description,
to replay one: ``python -m parley ...`` on the kept file.

    .venv/bin/python bench/fuzz_files.py [--count 1000] [--seed 1] [--jobs 2] [--out DIR]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import tempfile
import time
from pathlib import Path

from tests.support import fuzzing


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=1000, help="cases in all, spread over the three kinds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2, help="cases run at once")
    parser.add_argument("--kinds", default=",".join(fuzzing.KINDS), help="gguf, whisper, audio")
    parser.add_argument("--out", type=Path, default=None, help="where to keep the failing cases")
    args = parser.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="parley-fuzz-"))
    out.mkdir(parents=True, exist_ok=True)
    seeds = fuzzing.make_seeds(out / "seeds")
    kinds = tuple(args.kinds.split(","))
    started = time.perf_counter()
    outcomes = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [
            pool.submit(fuzzing.run, case, out, seeds) for case in fuzzing.cases(seeds, args.seed, args.count, kinds)
        ]
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            outcome = future.result()
            outcomes.append(outcome)
            if outcome.failed:
                note = out / f"case-{outcome.case.kind}-{outcome.case.number}.txt"
                note.write_text(f"{outcome.verdict}\n{outcome.case.description}\n\n{outcome.stderr}")
                print(
                    f"FAILED {outcome.case.kind} #{outcome.case.number}: {outcome.verdict}: {outcome.case.description}",
                    flush=True,
                )
            if done % 50 == 0:
                print(f"{done}/{args.count} runs, {time.perf_counter() - started:.0f} s", flush=True)
    outcomes.sort(key=lambda o: (o.case.kind, o.case.number))
    print(f"\n{len(outcomes)} runs in {time.perf_counter() - started:.0f} s (seed {args.seed}, {args.jobs} at a time)")
    print(fuzzing.summary(outcomes))
    failed = [o for o in outcomes if o.failed]
    print(f"\n{len(failed)} crashed, hung or printed a traceback" + (f"; kept in {out}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
