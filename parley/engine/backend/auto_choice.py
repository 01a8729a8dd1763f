"""Auto's choice between a local GPU and the CPU, per engine and model: measured once, remembered.

A GPU is not always the faster device.  An integrated GPU, or a slow one, can lose to ggml's
CPU backend on a small model (the default models are 135M parameters and Whisper tiny), which
users of other local apps report often.  So when ``auto`` picked a local GPU, each engine times
one small piece of its own work on that GPU and on the CPU the first time it loads a given model
there: a short reply for chat, the self-test question for speech, the GPU's run after one
warm-up (its first run compiles kernels).  The faster device is used; the CPU must be at least
``CPU_MARGIN`` faster to win, since a GPU also leaves the CPU free for the other engine.

The figures are kept in the cache folder (``device-trials.json``), keyed by the engine, the
device, the model file (path, size, time), the thread count and the native build, so a trial
runs once per combination; ``parley devices`` and Settings show the choice and the figures.
The file is read as untrusted: a damaged one means measuring again, never a crash.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import math
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from parley.config.paths import cache_dir

from .. import untrusted
from ..atomic import atomic_write
from ..errors import ParleyError
from .devices import DeviceChoice, gpu_setup, select_device

log = logging.getLogger("parley.devices")

TRIALS_FILE = "device-trials.json"
MAX_TRIALS_BYTES = 256 << 10
MAX_TRIALS = 256  # entries kept; the oldest go first
CPU_MARGIN = 1.2  # the CPU wins only when it is at least this much faster

Measure = Callable[[DeviceChoice], float]  # seconds for one fixed piece of work on a device

_lock = threading.Lock()


@dataclasses.dataclass(frozen=True)
class Trial:
    gpu_seconds: float
    cpu_seconds: float
    measured: str  # ISO date

    @property
    def cpu_wins(self) -> bool:
        return self.cpu_seconds * CPU_MARGIN < self.gpu_seconds


def trials_path() -> Path:
    return cache_dir() / TRIALS_FILE


def trial_key(engine: str, choice: DeviceChoice, model: Path, threads: int) -> str:
    from . import native

    device = choice.device
    try:
        st = model.stat()
        model_id = f"{model.resolve()}|{st.st_size}|{st.st_mtime_ns}"
    except OSError:
        model_id = str(model)
    build = str(native.build_info().get("key", "?"))
    fields = [engine, device.backend, device.name, device.description, device.memory_total, model_id, threads, build]
    return json.dumps(fields)


def load_trials(path: Path | None = None) -> dict[str, Trial]:
    """The remembered trials; anything unreadable or malformed is left out (measured again)."""
    path = path or trials_path()
    if not path.exists():
        return {}
    try:
        raw = untrusted.load_json(path, max_bytes=MAX_TRIALS_BYTES, max_depth=4)
    except ParleyError as exc:
        log.warning("device trials not read (%s); measuring again", exc)
        return {}
    trials: dict[str, Trial] = {}
    if not isinstance(raw, dict):
        return trials
    for key, value in list(raw.items())[:MAX_TRIALS]:
        if not (isinstance(key, str) and len(key) < 4096 and isinstance(value, dict)):
            continue
        gpu, cpu, when = _seconds(value.get("gpu_seconds")), _seconds(value.get("cpu_seconds")), value.get("measured")
        if gpu is not None and cpu is not None:
            trials[key] = Trial(gpu, cpu, when[:32] if isinstance(when, str) else "?")
    return trials


def _seconds(value: object) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value > 0:
        return float(value)
    return None


def save_trial(key: str, trial: Trial, path: Path | None = None) -> None:
    path = path or trials_path()
    with _lock:
        trials = load_trials(path)
        trials.pop(key, None)
        trials[key] = trial
        kept = list(trials.items())[-MAX_TRIALS:]
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with atomic_write(path, "w", encoding="utf-8") as fh:
                json.dump({k: dataclasses.asdict(t) for k, t in kept}, fh, indent=1)
        except (OSError, ParleyError) as exc:  # a full disk: the choice holds for this run only
            log.warning("device trial not saved (%s)", exc)


def settle(engine: str, model: Path, choice: DeviceChoice, threads: int, measure: Measure) -> DeviceChoice:
    """The device ``engine`` should load ``model`` on: ``choice`` unless ``auto`` picked a local
    GPU that the CPU beats on this work (then the CPU).  The returned choice's ``note`` says why.

    ``measure(choice)`` runs the fixed piece of work on that device and returns its seconds; it
    raises when the device cannot run it (then the GPU is kept and the load decides).
    """
    device = choice.device
    if choice.requested.strip().lower() != "auto" or not device.is_gpu or device.remote:
        return choice
    key = trial_key(engine, choice, model, threads)
    trial = load_trials().get(key)
    if trial is None:
        cpu = select_device("cpu")
        try:
            started = time.monotonic()
            with gpu_setup(choice):
                gpu_seconds = measure(choice)
            cpu_seconds = measure(cpu)
        except ParleyError as exc:
            log.warning("%s: no trial on %s (%s); the load decides", engine, device.name, exc)
            return choice
        trial = Trial(gpu_seconds, cpu_seconds, time.strftime("%Y-%m-%d"))
        log.info(
            "%s trial for %s: %s %.3f s, CPU %.3f s (%.1f s in all)",
            engine,
            model.name,
            device.name,
            gpu_seconds,
            cpu_seconds,
            time.monotonic() - started,
        )
        save_trial(key, trial)
    return decide(choice, trial)


def decide(choice: DeviceChoice, trial: Trial) -> DeviceChoice:
    """Apply a trial's figures to auto's GPU choice, with the reason as the choice's note."""
    name = choice.device.name
    figures = f"{name} {trial.gpu_seconds:.2f} s, CPU {trial.cpu_seconds:.2f} s (measured {trial.measured})"
    if trial.cpu_wins:
        cpu = select_device("cpu")
        ratio = trial.gpu_seconds / trial.cpu_seconds
        note = f"the CPU ran it {ratio:.1f}x faster: {figures}"
        return dataclasses.replace(cpu, requested=choice.requested, note=note)
    ratio = trial.cpu_seconds / trial.gpu_seconds
    how = f"{ratio:.1f}x faster than the CPU" if ratio >= 1 else "about as fast as the CPU"
    return dataclasses.replace(choice, note=f"{name} ran it {how}: {figures}")


def known_trials() -> list[dict[str, Any]]:
    """The remembered trials as rows for ``parley devices`` (engine, device, model, figures)."""
    rows = []
    for key, trial in load_trials().items():
        try:
            engine, _backend, name, description, _memory, model_id, threads, _build = json.loads(key)
        except (ValueError, TypeError):
            continue
        rows.append(
            {
                "engine": str(engine),
                "device": f"{name} ({description})",
                "model": Path(str(model_id).split("|")[0]).name,
                "threads": threads,
                "gpu_seconds": trial.gpu_seconds,
                "cpu_seconds": trial.cpu_seconds,
                "winner": "CPU" if trial.cpu_wins else str(name),
                "measured": trial.measured,
            }
        )
    return rows
