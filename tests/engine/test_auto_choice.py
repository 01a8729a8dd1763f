"""Auto's per-engine choice between a local GPU and the CPU: measured once, remembered, explained.

CI has no GPU, so the device here is a described one that the measurement function stands in
for; the measurements themselves run for real on the CPU (both engines, real models), and
``tests/engine/test_device.py`` runs the whole choice on a real device (lavapipe here, where the CPU
must win, and CUDA on the GPU machine).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from parley.engine import speech
from parley.engine.backend import auto_choice
from parley.engine.backend.devices import Device, DeviceChoice, select_device
from parley.engine.chat import model as chat_model
from parley.engine.errors import ModelLoadError
from parley.engine.modelfiles.defaults import default_speech_model_path
from tests.support.app_helpers import tiny_chat_model  # noqa: F401 - fixture

GPU = Device(
    index=7,
    name="Vulkan0",
    description="Intel(R) UHD Graphics 620",
    kind="igpu",
    memory_free=2 << 30,
    memory_total=4 << 30,
    backend="Vulkan",
)


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PARLEY_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


class Stopwatch:
    """A measurement with given figures per device, counting its calls."""

    def __init__(self, gpu: float, cpu: float) -> None:
        self.seconds = {"gpu": gpu, "cpu": cpu}
        self.calls: list[str] = []

    def __call__(self, choice: DeviceChoice) -> float:
        self.calls.append(choice.device.name)
        return self.seconds["gpu" if choice.device.is_gpu else "cpu"]


def test_a_slower_gpu_loses_to_the_cpu_once_measured_and_the_figures_are_kept(tmp_path: Path, cache: Path) -> None:
    model = tmp_path / "small.gguf"
    model.write_bytes(b"weights")
    watch = Stopwatch(gpu=0.90, cpu=0.30)
    chosen = auto_choice.settle("chat", model, DeviceChoice(GPU, "auto"), 4, watch)
    assert chosen.device.kind == "cpu" and chosen.requested == "auto" and chosen.fallback_reason is None
    assert chosen.note and chosen.note.startswith("the CPU ran it 3.0x faster: Vulkan0 0.90 s, CPU 0.30 s")
    assert watch.calls == ["Vulkan0", "CPU"]
    assert json.loads((cache / "device-trials.json").read_text())

    again = auto_choice.settle("chat", model, DeviceChoice(GPU, "auto"), 4, watch)
    assert again == chosen and watch.calls == ["Vulkan0", "CPU"], "measured once per device and model"
    [row] = auto_choice.known_trials()
    assert row["winner"] == "CPU" and row["model"] == "small.gguf" and row["device"].startswith("Vulkan0 (Intel")


def test_a_faster_gpu_is_kept_and_each_engine_model_and_thread_count_is_measured_apart(tmp_path: Path) -> None:
    model = tmp_path / "model.bin"
    model.write_bytes(b"weights")
    watch = Stopwatch(gpu=0.10, cpu=0.50)
    chosen = auto_choice.settle("speech", model, DeviceChoice(GPU, "auto"), 4, watch)
    assert chosen.device == GPU and chosen.note and chosen.note.startswith("Vulkan0 ran it 5.0x faster than the CPU")
    auto_choice.settle("chat", model, DeviceChoice(GPU, "auto"), 4, watch)
    auto_choice.settle("speech", model, DeviceChoice(GPU, "auto"), 8, watch)
    model.write_bytes(b"other weights")  # replaced: measured again
    auto_choice.settle("speech", model, DeviceChoice(GPU, "auto"), 4, watch)
    assert len(watch.calls) == 8


def test_a_close_race_keeps_the_gpu() -> None:
    """The CPU must be clearly faster (CPU_MARGIN): a GPU also leaves the CPU to the other engine."""
    close = auto_choice.Trial(gpu_seconds=0.11, cpu_seconds=0.10, measured="2026-11-25")
    assert auto_choice.decide(DeviceChoice(GPU, "auto"), close).device == GPU
    clear = auto_choice.Trial(gpu_seconds=0.13, cpu_seconds=0.10, measured="2026-11-25")
    assert auto_choice.decide(DeviceChoice(GPU, "auto"), clear).device.kind == "cpu"


def test_only_auto_s_choice_of_a_local_gpu_is_measured(tmp_path: Path) -> None:
    watch = Stopwatch(gpu=9.0, cpu=0.1)
    model = tmp_path / "m.gguf"
    model.write_bytes(b"x")
    for choice in (
        DeviceChoice(GPU, "Vulkan0"),  # asked for by name: the user's word stands
        select_device("cpu"),
        select_device("auto"),  # no GPU here: the CPU
        DeviceChoice(Device(8, "RPC0", "remote device on box:50052", "gpu", 1, 1, "RPC", "box:50052"), "auto"),
    ):
        assert auto_choice.settle("chat", model, choice, 2, watch) is choice
    assert watch.calls == []


def test_a_gpu_that_cannot_run_the_trial_is_left_to_the_load(tmp_path: Path) -> None:
    def broken(choice: DeviceChoice) -> float:
        raise ModelLoadError(f"{choice.device.name} could not load it: out of memory")

    model = tmp_path / "m.gguf"
    model.write_bytes(b"x")
    choice = DeviceChoice(GPU, "auto")
    assert auto_choice.settle("chat", model, choice, 2, broken) is choice
    assert auto_choice.known_trials() == []


@pytest.mark.parametrize(
    "content",
    [
        b"not json",
        b"[1, 2, 3]",
        b'{"k": {"gpu_seconds": -1, "cpu_seconds": 1}}',
        b'{"k": {"gpu_seconds": "0.1", "cpu_seconds": true}}',
        b'{"k": {"gpu_seconds": 1e999, "cpu_seconds": 1}}',
        b'{"k": ' * 100 + b"1" + b"}" * 100,
        b"{" + b'"a": 1,' * 60000 + b'"b": 2}',
    ],
)
def test_a_damaged_trials_file_means_measuring_again(tmp_path: Path, cache: Path, content: bytes) -> None:
    cache.mkdir(parents=True)
    (cache / "device-trials.json").write_bytes(content)
    model = tmp_path / "m.gguf"
    model.write_bytes(b"x")
    watch = Stopwatch(gpu=0.2, cpu=0.1)
    assert auto_choice.settle("chat", model, DeviceChoice(GPU, "auto"), 2, watch).device.kind == "cpu"
    assert watch.calls == ["Vulkan0", "CPU"]
    assert len(auto_choice.load_trials()) == 1, "the damaged file was replaced by a good one"


def test_a_trials_file_that_is_a_fifo_is_not_read(tmp_path: Path, cache: Path) -> None:
    cache.mkdir(parents=True)
    os.mkfifo(cache / "device-trials.json")
    assert auto_choice.load_trials() == {}


def test_the_real_measurements_run_on_the_cpu(tiny_chat_model: Path) -> None:  # noqa: F811
    """The engines' own trials: a short greedy reply and the self-test question, timed."""
    cpu = select_device("cpu")
    chat_seconds = chat_model.device_trial(tiny_chat_model, 2)(cpu)
    speech_seconds = speech.device_trial(default_speech_model_path(), 2)(cpu)
    assert 0 < chat_seconds < 60 and 0 < speech_seconds < 60


def test_loads_on_a_gpu_take_turns_and_cpu_loads_do_not_wait() -> None:
    """ggml sets a GPU up on first use without a lock: two engines loading onto the same GPU at
    once must not overlap (the Debian 11 bundle's self-test crashed on an NVIDIA H200 when the
    speech and chat loads met there); loads on the CPU are not held up."""
    import threading
    import time
    from collections.abc import Callable

    from parley.engine.backend.devices import load_with_fallback

    gpu = DeviceChoice(Device(0, "Vulkan0", "a GPU", "gpu", 1, 1, "Vulkan"), "Vulkan0")
    cpu = DeviceChoice(Device(1, "CPU", "the CPU", "cpu", 1, 1, "CPU"), "cpu")
    spans: dict[str, tuple[float, float]] = {}

    def load(name: str, seconds: float) -> Callable[[DeviceChoice], None]:
        def run(_choice: DeviceChoice) -> None:
            began = time.monotonic()
            time.sleep(seconds)
            spans[name] = (began, time.monotonic())

        return run

    threads = [
        threading.Thread(target=load_with_fallback, args=(gpu, load("speech", 0.3))),
        threading.Thread(target=load_with_fallback, args=(gpu, load("chat", 0.3))),
        threading.Thread(target=load_with_fallback, args=(cpu, load("cpu", 0.3))),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    (a0, a1), (b0, b1) = sorted([spans["speech"], spans["chat"]])
    assert a1 <= b0, "two loads on one GPU overlapped"
    c0, _ = spans["cpu"]
    assert c0 < b0, "the CPU load waited for the GPU's turn"
