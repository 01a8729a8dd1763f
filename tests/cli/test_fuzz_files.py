"""Mutated GGUF, whisper.cpp and audio files through ``parley chat`` and ``parley transcribe``.

A small fixed-seed sample of what ``bench/fuzz_files.py`` runs by the thousand (tests/support/fuzzing.py
says how the files are mutated).  Every run is its own process: none may die from a signal
(native code aborting on input it trusts), hang, or end in a Python traceback instead of a
message.  Cases run two at a time; the suite's share is a few dozen runs.
"""

from __future__ import annotations

import concurrent.futures
from pathlib import Path

import pytest

from tests.support import fuzzing

SEED = 20261124
CASES = 60  # twenty of each kind


@pytest.fixture(scope="module")
def seeds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[fuzzing.Seed]]:
    return fuzzing.make_seeds(tmp_path_factory.mktemp("fuzz-seeds"))


def test_the_seed_files_work(seeds: dict[str, list[fuzzing.Seed]], tmp_path: Path) -> None:
    """Unmutated, each seed goes through the command: the fuzz cases start from working input."""
    for kind, kind_seeds in seeds.items():
        for seed in kind_seeds:
            case = fuzzing.Case(kind, 0, seed.path, "unchanged", seed.path.read_bytes())
            outcome = fuzzing.run(case, tmp_path, seeds)
            assert outcome.verdict == "exit 0", (seed.path.name, outcome.stderr)


def test_mutated_files_never_crash_hang_or_raise(seeds: dict[str, list[fuzzing.Seed]], tmp_path: Path) -> None:
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        outcomes = list(pool.map(lambda case: fuzzing.run(case, tmp_path, seeds), fuzzing.cases(seeds, SEED, CASES)))
    print("\n" + fuzzing.summary(outcomes))
    failed = [o for o in outcomes if o.failed]
    assert not failed, "\n\n".join(
        f"{o.case.kind} case {o.case.number} ({o.case.description}): {o.verdict}\n{o.stderr[-3000:]}" for o in failed
    )
    # The mutations reach past the first check: not every case is refused the same way.
    assert len({o.message for o in outcomes if o.case.kind == "gguf"}) >= 3
