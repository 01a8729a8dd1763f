"""Which catalog models to recommend on this machine, and how fast each would answer here.

``this_machine()`` says what the first-start page shows about the computer: memory, the GPU and
its memory, ggml's CPU variant.  ``recommend_chat()`` and ``recommend_speech()`` pick two or
three chat models and one speech model that fit (``FitEstimate.verdict``), best first, each
with the generation speed expected here: ``chat.speed.predict_speed`` scales a speed measured
on this machine (a few seconds of generation, ``choice.measure``, which remembers it for
Parley's own choice of model too) to the model's size; a mixture of experts reads only its
active experts per token, so its active share of the file is what is scaled.

The choice among the models that fit follows ``CHAT_PREFERENCE`` (best answers first): first
those expected to keep pace with a spoken reply (``MIN_TOKENS_PER_S``), then, to make up at least
``MIN_CHAT_PICKS``, the quickest of the others that fit (smallest first), marked as slower than
speech: still the better answers for typed questions.  With no model that fits, the list is
empty and the page says that the starter is what fits.

A prediction from a much smaller model (the 98 MB starter) underestimates bigger ones: a small
model's time per token is mostly fixed costs, not reading weights.  So the measurement of the
largest model measured here is the one scaled (``anchor``).

Speech: a GPU runs Whisper large-v3-turbo easily; on a CPU, the size of the model follows the
cores (each doubling of the work a model does per second of audio wants about twice the cores),
multilingual by default.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable

from ..chat.speed import ModelSpeed, predict_speed
from .catalog import CatalogEntry
from .choice import Speed
from .memory_fit import FitEstimate, available_ram, estimate_entry

MIN_TOKENS_PER_S = 8.0  # the voice goal: slower than this, a spoken reply stalls
CHAT_PICKS = 3
MIN_CHAT_PICKS = 2
# Best answers first (2025 families, then the 2024 ones for small machines); ids of catalog.json.
CHAT_PREFERENCE = (
    "gpt-oss-20b",
    "qwen3-30b-a3b",
    "qwen3-8b",
    "qwen3-4b-instruct-2507",
    "phi-4-mini-instruct",
    "gemma-3-4b-it",
    "smollm3-3b",
    "qwen3-1.7b",
    "gemma-3-1b-it",
    "qwen2.5-1.5b-instruct",
    "qwen2.5-0.5b-instruct",
)
# (at least this many CPU cores, or "gpu"), the speech model for it; the first that applies wins.
SPEECH_BY_MACHINE = (
    ("gpu", "whisper-large-v3-turbo-q5_0"),
    (8, "whisper-small-q5_1"),
    (0, "whisper-base-q5_1"),
)


@dataclasses.dataclass(frozen=True)
class Machine:
    memory_total: int | None  # bytes of RAM
    memory_free: int | None  # bytes of RAM free now
    gpu: str | None  # the GPU's description, None without one
    gpu_memory: int | None  # bytes free on it
    cpu_variant: str | None  # ggml's CPU backend variant, e.g. "haswell"
    cores: int


@dataclasses.dataclass(frozen=True)
class Recommendation:
    entry: CatalogEntry
    fit: FitEstimate
    tokens_per_s: float | None  # generation expected here; None without a measurement

    @property
    def keeps_pace(self) -> bool | None:
        """Whether it is expected to generate as fast as a spoken reply needs (None: unknown)."""
        return None if self.tokens_per_s is None else self.tokens_per_s >= MIN_TOKENS_PER_S


def _total_ram() -> int | None:
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def this_machine() -> Machine:
    """Memory, the first usable local GPU and ggml's CPU variant (loads the native backends)."""
    from ..backend.devices import cpu_variant, list_devices

    devices = list_devices()
    gpu = next((d for d in devices if d.is_gpu and not d.remote and not d.unusable and not d.software), None)
    cpu = next((d for d in devices if d.kind == "cpu"), None)
    total = _total_ram() or (cpu.memory_total if cpu is not None and cpu.memory_total > 0 else None)
    return Machine(
        memory_total=total,
        memory_free=available_ram(),
        gpu=gpu.description if gpu is not None else None,
        gpu_memory=gpu.memory_free if gpu is not None else None,
        cpu_variant=cpu_variant(),
        cores=os.cpu_count() or 1,
    )


def as_model_speed(speed: Speed, file_size: int) -> ModelSpeed:
    """A remembered measurement (``choice.Speed``) of a model of ``file_size`` bytes, in the form
    ``predict_speed`` scales."""
    return ModelSpeed(
        path="",
        file_size=file_size,
        device=speed.device,
        threads=0,
        prompt_tps=speed.prompt_tps,
        gen_tps=speed.gen_tps,
        turn_first_token_s=speed.turn_first_token_s,
        prefix_tokens=0,
        question_tokens=0,
    )


def expected_speed(entry: CatalogEntry, measured: ModelSpeed | None) -> float | None:
    """Generated tokens/s expected for ``entry`` here, from a measurement of another model."""
    if measured is None or entry.kind != "chat":
        return None
    return float(predict_speed(measured, int(entry.size * entry.active_share))[1])


def anchor(measured: Iterable[ModelSpeed]) -> ModelSpeed | None:
    """The measurement to scale from: that of the largest model measured here."""
    return max(measured, key=lambda m: m.file_size, default=None)


def recommend_chat(
    entries: Iterable[CatalogEntry], measured: ModelSpeed | None, *, n_ctx: int = 4096, device: str = "auto"
) -> list[Recommendation]:
    """Up to ``CHAT_PICKS`` chat models that fit here, best first: those that keep pace with
    speech, then the quickest others to make up ``MIN_CHAT_PICKS``."""
    by_id = {e.id: e for e in entries if e.kind == "chat"}
    fitting: list[Recommendation] = []
    for model_id in CHAT_PREFERENCE:
        entry = by_id.get(model_id)
        if entry is None:
            continue
        fit = estimate_entry(entry, n_ctx=n_ctx, device=device)
        if fit.verdict == "fits":
            fitting.append(Recommendation(entry, fit, expected_speed(entry, measured)))
    picks = [r for r in fitting if r.keeps_pace is not False][:CHAT_PICKS]
    slower = sorted((r for r in fitting if r.keeps_pace is False), key=lambda r: r.entry.size)
    return picks + slower[: max(0, MIN_CHAT_PICKS - len(picks))]


def recommend_speech(
    entries: Iterable[CatalogEntry], machine: Machine, *, device: str = "auto"
) -> list[Recommendation]:
    """The one speech model for this machine, if it fits (an empty list otherwise)."""
    by_id = {e.id: e for e in entries if e.kind == "speech"}
    for need, model_id in SPEECH_BY_MACHINE:
        applies = machine.gpu is not None if need == "gpu" else isinstance(need, int) and machine.cores >= need
        entry = by_id.get(model_id)
        if applies and entry is not None:
            fit = estimate_entry(entry, device=device)
            return [Recommendation(entry, fit, None)] if fit.verdict == "fits" else []
    return []
