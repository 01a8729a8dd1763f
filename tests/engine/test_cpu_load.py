"""Threads that follow the machine's load (``engine.backend.cpu_load``): what other programs keep
busy, read from ``/proc``; the count an engine computes with; a container's CPU quota."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from parley.engine.backend import threads as thread_policy
from parley.engine.backend.cpu_load import CpuMeter, ThreadGovernor
from tests.support.app_helpers import write_tiny_chat_model
from tests.support.requirements import require


def proc(cpus: dict[int, tuple[int, int]], own: int) -> dict[str, str]:
    """/proc/stat with each cpu's (busy, idle) ticks, and /proc/self/stat with ``own`` ticks."""
    lines = ["cpu  1 2 3 4 5 6 7 8 0 0"]
    lines += [f"cpu{n} {busy} 0 0 {idle} 0 0 0 0 0 0" for n, (busy, idle) in cpus.items()]
    fields = ["S"] + ["0"] * 10 + [str(own), "0"] + ["0"] * 30
    return {"/proc/stat": "\n".join(lines) + "\nintr 1 2 3\n", "/proc/self/stat": "12 (python (x)) " + " ".join(fields)}


class Files:
    def __init__(self, *snapshots: dict[str, str]) -> None:
        self.snapshots = list(snapshots)
        self.now: dict[str, str] = {}

    def next(self) -> None:
        self.now = self.snapshots.pop(0)

    def read(self, path: str) -> str:
        if path not in self.now:
            raise OSError(f"no {path}")
        return self.now[path]


def test_the_others_load_is_the_cores_busy_less_this_process() -> None:
    files = Files(proc({0: (100, 100), 1: (100, 100)}, own=50), proc({0: (300, 100), 1: (200, 200)}, own=150))
    meter = CpuMeter(files.read, cores={0, 1})
    files.next()
    assert meter.others() is None  # the first look
    files.next()
    # 400 ticks in all passed: 200 per core; 300 busy, 100 of them ours: the others kept 1 core busy.
    assert meter.others() == pytest.approx(1.0)


@pytest.mark.parametrize(
    "second",
    [
        proc({0: (300, 100)}, own=150),  # a core of ours missing from /proc/stat (a container's view)
        {"/proc/stat": "cpu0 x y z\ncpu1 1 2\n", "/proc/self/stat": "1 (p) S"},  # garbage
        {"/proc/self/stat": "1 (p) S"},  # unreadable
        proc({0: (50, 100), 1: (50, 100)}, own=10),  # counters that went backwards
    ],
)
def test_counters_that_cannot_be_read_say_nothing(second: dict[str, str]) -> None:
    files = Files(proc({0: (100, 100), 1: (100, 100)}, own=50), second)
    meter = CpuMeter(files.read, cores={0, 1})
    files.next()
    meter.others()
    files.next()
    assert meter.others() is None


class Scripted:
    """A meter that reports the others' load the test gives (the real one reads /proc)."""

    def __init__(self, cores: int, loads: list[float | None], owns: list[float] | None = None) -> None:
        """``owns``: the cores this process used in each look (0 where not given)."""
        self.cores = set(range(cores))
        self.loads = loads
        self.owns = owns or []
        self.own = 0.0

    def others(self) -> float | None:
        self.own = self.owns.pop(0) if self.owns else 0.0
        return self.loads.pop(0) if self.loads else None


def governed(loads: list[float | None]) -> tuple[int, int]:
    """The counts a 2-core governor gives a step of one token and a step of several, after a
    look at each of ``loads`` (a quarter second and more apart)."""
    clock = [0.0]
    meter = Scripted(2, [0.0, *loads])
    governor = ThreadGovernor(2, meter, clock=lambda: clock[0], per_core=1)  # type: ignore[arg-type]
    for _ in loads:
        clock[0] += 0.3
        governor.threads()
    return governor.threads(), governor.threads(batch=True)


@pytest.mark.parametrize(
    ("loads", "threads"),
    [
        ([0.0, 0.0], 2),  # idle: every core
        ([1.0, 1.0, 1.0], 1),  # a program keeps a core busy: one thread
        ([0.25, 0.3], 2),  # a little background load: still both
        ([2.0, 2.0, 2.0], 1),  # both cores busy: never fewer than one
        ([1.0, 0.0, 1.0, 0.0, 1.0, 0.0], 1),  # a load that changes at every look: followed on average
        ([None, None], 2),  # nothing can be read: the engine's own count
    ],
)
def test_the_governor_gives_a_thread_per_free_core(loads: list[float | None], threads: int) -> None:
    assert governed(loads)[0] == threads


@pytest.mark.parametrize(
    ("loads", "threads"),
    [
        ([0.0, 0.0], 2),  # idle: every core
        ([1.0, 1.0, 1.0], 1),  # a program keeps a core busy: one thread, as for short steps
        ([0.5, 0.5, 0.5], 2),  # a core busy half the time (a bursty program): still both
        ([2.0, 2.0, 2.0], 2),  # every core busy: more threads, more of the scheduler's fair share
        ([1.8, 1.8, 1.8], 2),
        ([None, None], 2),  # nothing can be read: the engine's own count
    ],
)
def test_steps_of_several_tokens_take_a_thread_per_core_not_kept_busy(loads: list[float | None], threads: int) -> None:
    one, several = governed(loads)
    assert several == threads
    assert one == (1 if loads[-1] and loads[-1] >= 0.5 else 2)  # one token a step: as before


def test_after_a_long_wait_the_load_now_counts_not_its_average() -> None:
    """An engine that waited 10 s while another program kept a core busy sees that average at its
    first look; the program has ended: the next look, 0.3 s later, is taken as it is (smoothed from
    the stale average it would take five more looks to give the core back)."""
    clock = [0.0]
    governor = ThreadGovernor(2, Scripted(2, [0.0, 0.0, 1.0, 0.0, 0.0]), clock=lambda: clock[0], per_core=1)  # type: ignore[arg-type]
    clock[0] = 0.3
    assert governor.threads() == 2
    clock[0] = 10.3  # the first look after the wait: a core was busy all along
    assert governor.threads() == 1
    clock[0] = 10.6
    assert governor.threads() == 2
    clock[0] = 10.9  # short looks are smoothed again
    assert governor.threads() == 2


def test_a_hyperthreaded_machine_counts_physical_cores() -> None:
    """8 logical cores, 2 per physical one: the others keep 2 logical busy, so 3 of 4 are free."""
    governor = ThreadGovernor(4, Scripted(8, [0.0, 2.0]), clock=iter([0.0, 1.0]).__next__, per_core=2)  # type: ignore[arg-type]
    assert governor.threads() == 3


def test_a_real_cpu_hog_is_seen() -> None:
    meter = CpuMeter()
    hog = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        meter.others()
        deadline = time.monotonic() + 10
        seen = 0.0
        while time.monotonic() < deadline and seen < 0.6:
            time.sleep(0.3)
            seen = meter.others() or 0.0
        assert seen >= 0.6, seen  # a busy loop keeps a core busy
    finally:
        hog.kill()
        hog.wait()


@pytest.mark.parametrize(
    ("files", "quota"),
    [
        ({"cpu.max": "150000 100000\n"}, 1.5),
        ({"cpu.max": "max 100000\n"}, None),
        ({"cpu/cpu.cfs_quota_us": "200000\n", "cpu/cpu.cfs_period_us": "100000\n"}, 2.0),
        ({"cpu/cpu.cfs_quota_us": "-1\n", "cpu/cpu.cfs_period_us": "100000\n"}, None),
        ({"cpu.max": "lots of\n"}, None),
        ({}, None),
    ],
)
def test_a_containers_cpu_quota(tmp_path: Path, files: dict[str, str], quota: float | None) -> None:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text)
    assert thread_policy.cgroup_quota(tmp_path) == quota


CHILD = """
import os, subprocess, sys, time
from parley.engine.chat.model import ChatModel, ChatSession, SamplingParams
two = sorted(os.sched_getaffinity(0))[:2]
os.sched_setaffinity(0, set(two))  # this process: two cores, whatever the machine has
hog = subprocess.Popen([sys.executable, "-c", "while True: pass"])
os.sched_setaffinity(hog.pid, {two[1]})  # and another program keeps one of them busy
try:
    path = sys.argv[1]
    auto, fixed = ChatModel(path, device="cpu", n_ctx=2048), ChatModel(path, device="cpu", n_ctx=2048, threads=2)
    with auto, fixed:
        assert auto.threads == 2 and auto.governor is not None and fixed.governor is None
        deadline = time.monotonic() + 30
        while auto._decoder.threads != 1 and time.monotonic() < deadline:
            ChatSession(auto).reply("Hello", SamplingParams(temperature=0, max_tokens=32))
        ChatSession(fixed).reply("Hello", SamplingParams(temperature=0, max_tokens=32))
        # The server's batch engine, made from the model: it follows the load too.
        import threading
        from parley.engine.chat.batch import BatchEngine
        with BatchEngine(auto, parallel=2, n_ctx=512) as engine:
            done = threading.Event()
            engine.submit(auto.tokenize("Hello there"), SamplingParams(temperature=0, max_tokens=16),
                          on_done=lambda *_: done.set())
            assert done.wait(60)
            print(auto._decoder.threads, fixed._decoder.threads, engine._decoder.threads)
finally:
    hog.kill()
"""


def test_a_chat_model_without_a_thread_count_follows_a_busy_core(tmp_path: Path) -> None:
    """On two cores, one kept busy by another program: the tiny model computes on one thread
    within seconds, and so does the server's batch engine made from it; given a count, a model
    keeps it."""
    require(len(os.sched_getaffinity(0)) >= 2 and thread_policy.threads_per_core() == 1, "two cores, no SMT")
    path = write_tiny_chat_model(tmp_path / "tiny.gguf")
    done = subprocess.run([sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["1", "2", "1"], done.stdout


VOICE_CHILD = """
import os, subprocess, sys, time
from parley.engine.voice.voices import DEFAULT_VOICE, KNOWN_VOICES
from parley.engine.voice.piper import PiperVoice
two = sorted(os.sched_getaffinity(0))[:2]
os.sched_setaffinity(0, set(two))
paths = next(v for v in KNOWN_VOICES if v.id == DEFAULT_VOICE).paths()
auto, fixed = PiperVoice(*paths), PiperVoice(*paths, threads=2)
auto.synthesize("Hello there.")
idle = auto.threads_used
hog = subprocess.Popen([sys.executable, "-c", "while True: pass"])
os.sched_setaffinity(hog.pid, {two[1]})
try:
    deadline = time.monotonic() + 30
    while auto.threads_used != 1 and time.monotonic() < deadline:
        auto.synthesize("The moon is far away.")
    fixed.synthesize("The moon is far away.")
    print(idle, auto.threads_used, fixed.threads_used, len(auto._sessions))
finally:
    hog.kill()
"""


def test_the_natural_voice_without_a_thread_count_follows_a_busy_core() -> None:
    """On two cores: the voice makes its pieces on both while they are free (or one, when the
    machine is already busy), on one within seconds of another program taking a core (a second
    session, made then); given a count, it keeps it."""
    require(len(os.sched_getaffinity(0)) >= 2 and thread_policy.threads_per_core() == 1, "two cores, no SMT")
    from parley.engine.voice.voices import unavailable

    require(unavailable() is None, f"the natural voice: {unavailable()}")
    done = subprocess.run([sys.executable, "-c", VOICE_CHILD], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    idle, busy, fixed, sessions = done.stdout.split()
    assert idle in ("1", "2") and (busy, fixed, sessions) == ("1", "2", "2"), done.stdout


def test_an_absurd_thread_count_is_the_cores_there_are(tmp_path: Path) -> None:
    from parley.engine.chat.model import ChatModel

    with ChatModel(write_tiny_chat_model(tmp_path / "tiny.gguf"), device="cpu", n_ctx=256, threads=1000) as model:
        assert model.threads == thread_policy.allowed_cores() and model.governor is None


def test_the_meter_reports_this_process_s_own_share_too() -> None:
    files = Files(proc({0: (100, 100), 1: (100, 100)}, own=50), proc({0: (300, 100), 1: (200, 200)}, own=150))
    meter = CpuMeter(files.read, cores={0, 1})
    files.next()
    meter.others()
    files.next()
    meter.others()
    assert meter.own == pytest.approx(0.5)  # 100 of the 200 ticks each core saw


def batch_counts(looks: list[tuple[float, float]], spacing: float = 0.3) -> list[int]:
    """The count a 2-core governor gives steps of several tokens after each look, ``looks`` being
    (the others' cores, ours) over the span since the one before, with the count it gave then."""
    clock = [0.0]
    meter = Scripted(2, [0.0] + [o for o, _ in looks], [0.0] + [w for _, w in looks])
    governor = ThreadGovernor(2, meter, clock=lambda: clock[0], per_core=1)  # type: ignore[arg-type]
    counts = []
    for _ in looks:
        clock[0] += spacing
        counts.append(governor.threads(batch=True))
    return counts


def test_on_one_thread_the_shares_tell_one_busy_program_from_two() -> None:
    """Both cores busy, one of our threads: one other program uses the other core (1 : 1); two
    share the cores with it (4 : 2, three runnable threads on two cores).  The first look, on
    both cores, is a probe (one thread for a look's span): beside one program, steps of several
    tokens stay on one thread; beside two, each takes every core, the scheduler's fair share."""
    assert batch_counts([(1.0, 1.0)] * 3) == [1, 1, 1]
    assert batch_counts([(1.33, 0.67)] * 3) == [1, 2, 2]


def test_on_every_core_a_contested_machine_is_probed_now_and_then() -> None:
    """On both cores beside busy programs the shares are the same for one program or two (ggml's
    threads wait at barriers): the estimate is held, and every ``PROBE_EVERY_S`` one look's span
    runs one thread fewer to read it again."""
    from parley.engine.backend.cpu_load import PROBE_EVERY_S

    two_hogs_on_two = (1.0, 1.0)
    two_hogs_on_one = (1.33, 0.67)
    looks = [two_hogs_on_two, two_hogs_on_one] + [two_hogs_on_two] * 6 + [two_hogs_on_one, two_hogs_on_two]
    counts = batch_counts(looks, spacing=0.3)
    assert PROBE_EVERY_S == pytest.approx(2.0)  # the looks below are 0.3 s apart
    assert counts == [1, 2, 2, 2, 2, 2, 2, 1, 2, 2]  # probes at the first look and 2.1 s later


def test_an_idle_machine_is_never_probed() -> None:
    """Both cores ours but for a little (the clients reading the replies): no contest, no probe."""
    assert batch_counts([(0.1, 1.9)] * 20) == [2] * 20
