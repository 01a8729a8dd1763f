"""Which catalog models to recommend on this machine, and how fast each would answer here.

``this_machine()`` says what the first-start page shows about the computer: memory, the GPU and
its memory, ggml's CPU variant.  ``recommend_chat()`` and ``recommend_speech()`` pick two or
three chat models and one speech model that fit (``FitEstimate.verdict``), best first, each
with the generation speed expected here: ``chat.speed.predict_speed`` scales a speed measured
on this machine (a few seconds of generation, ``choice.measure``, which remembers it for
Parley's own choice of model too) to the model's size; a mixture of experts reads only its
active experts per token, so its active share of the file is what is scaled.

The choice among the models that fit follows ``CHAT_PREFERENCE`` (best answers first): first
those quick to speak here (``Recommendation.quick_to_speak``: the first sound of a spoken reply
within ``SPOKEN_FIRST_SOUND_S`` of the release, and generation that keeps pace with the voice,
``MIN_TOKENS_PER_S``), then, to make up at least ``MIN_CHAT_PICKS``, the others that fit by how
soon they would speak, marked as slow to speak: still the better answers for typed questions.
With no model that fits, the list is empty and the page says that the starter is what fits.

The first sound (``first_sound_s``) is what a spoken reply waits for: the question's first token
(the measured turn, scaled like the speed), a thinking step before the answer where the model
always takes one (gpt-oss's reasoning channel; a model that thinks unless told not to is told,
``chat.model.without_thinking``), the voice's first piece (a few words: ``FIRST_PIECE_TOKENS``)
and its synthesis (``VOICE_S``).  No thinking model can be had offline, so neither a thinking
step's length (``THINKING_TOKENS`` is a typical one for a short spoken question) nor the answers
of a model told not to think were measured here: such figures say they are estimated
(``Recommendation.estimated``), as does one scaled by a mixture of experts' active share, which
was never run here.  That
scaling was checked on a mixture made here (``bench/bench_fit.py --moe``: 8 random experts, 2
used): its generation came within 2-13% of the speed expected by its active share; its first
token took 1.8 times as long, since a question's tokens touch more experts than one token does.

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
SPOKEN_FIRST_SOUND_S = 1.0  # longer than this from the release to the first word, a reply feels slow
# From the reply's first token to the voice's first piece cut: about four words, and the token
# that shows the fourth complete (``voice.sentences``: "The moon is approximately" + " 2").
FIRST_PIECE_TOKENS = 6
# The first piece's synthesis and its first block written to the speakers: 65-90 ms and ~10 ms
# on 2 AMD EPYC cores (bench/bench_app.py --read-aloud).
VOICE_S = 0.1
THINKING_TOKENS = 200  # a thinking step before a short spoken answer: typical, never measured here
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
    first_sound_s: float | None = None  # release to the first word of a spoken reply; None: unknown

    @property
    def keeps_pace(self) -> bool | None:
        """Whether it is expected to generate as fast as a spoken reply needs (None: unknown)."""
        return None if self.tokens_per_s is None else self.tokens_per_s >= MIN_TOKENS_PER_S

    @property
    def quick_to_speak(self) -> bool | None:
        """Whether a spoken reply would start soon enough and keep pace (None: unknown)."""
        if self.first_sound_s is None or self.keeps_pace is None:
            return None
        return self.keeps_pace and self.first_sound_s <= SPOKEN_FIRST_SOUND_S

    @property
    def estimated(self) -> bool:
        """Whether its figures rest on a guess, not only on a model measured here: a mixture of
        experts scaled by its active share, or a thinking step of typical length."""
        return self.entry.active_share < 1.0 or bool(self.entry.thinks)

    @property
    def thinking_s(self) -> float | None:
        """The thinking step's share of ``first_sound_s`` (None: it has none, or unknown)."""
        if self.entry.thinks != "always" or not self.tokens_per_s:
            return None
        return THINKING_TOKENS / self.tokens_per_s


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


def expected_first_sound(entry: CatalogEntry, measured: ModelSpeed | None) -> float | None:
    """Seconds from the release to the first word of a spoken reply with ``entry`` here (see the
    module's docstring), from a measurement of another model; None without one."""
    speed = expected_speed(entry, measured)
    if measured is None or not speed or measured.file_size <= 0:
        return None
    # A question's dozen tokens each pick their own experts, so reading it touches more of a
    # mixture than one generated token does: half-way between its active share and all of it
    # (bench_fit.py --moe: 44-48 ms measured, 25 ms by the active share, 81 ms by the whole file).
    read_share = (1.0 + entry.active_share) / 2
    first_token = measured.turn_first_token_s * entry.size * read_share / measured.file_size
    thinking = THINKING_TOKENS if entry.thinks == "always" else 0
    return first_token + (thinking + FIRST_PIECE_TOKENS) / speed + VOICE_S


def anchor(measured: Iterable[ModelSpeed]) -> ModelSpeed | None:
    """The measurement to scale from: that of the largest model measured here."""
    return max(measured, key=lambda m: m.file_size, default=None)


def stored_anchor(device: str, threads: int | None) -> tuple[ModelSpeed | None, str]:
    """The largest built-in model measured on this machine so far (the starter, or an installed
    pack), and its name ("" for the starter); (None, "") when none was."""
    from . import choice

    known = {c.id: c for c in choice.candidates()}
    stored = choice.stored_speeds(device, threads)
    measured = {k: as_model_speed(s, known[k].size) for k, s in stored.items() if k in known}
    speed = anchor(measured.values())
    if speed is None:
        return None, ""
    model_id = next(k for k, m in measured.items() if m is speed)
    return speed, "" if model_id == choice.STARTER_ID else known[model_id].name


def recommend_chat(
    entries: Iterable[CatalogEntry], measured: ModelSpeed | None, *, n_ctx: int = 4096, device: str = "auto"
) -> list[Recommendation]:
    """Up to ``CHAT_PICKS`` chat models that fit here, best first: those quick to speak, then
    the soonest to speak of the others, to make up ``MIN_CHAT_PICKS``."""
    preferred = [e for e in entries if e.id in CHAT_PREFERENCE]
    ranked = rank_for_speech(preferred, measured, n_ctx=n_ctx, device=device)
    picks = [r for r in ranked if r.quick_to_speak is not False][:CHAT_PICKS]
    slower = [r for r in ranked if r.quick_to_speak is False]
    return picks + slower[: max(0, MIN_CHAT_PICKS - len(picks))]


def rank_for_speech(
    entries: Iterable[CatalogEntry],
    measured: ModelSpeed | None,
    *,
    n_ctx: int = 4096,
    device: str = "auto",
    verdicts: tuple[str, ...] = ("fits",),
) -> list[Recommendation]:
    """Every chat model whose fit is one of ``verdicts``, ranked for a spoken reply here: those
    quick to speak (or not known not to be) in ``CHAT_PREFERENCE`` order, then the rest by how
    soon they would speak (models outside the preference list after those in it, by size)."""
    chat = [e for e in entries if e.kind == "chat"]
    order = {model_id: i for i, model_id in enumerate(CHAT_PREFERENCE)}
    chat.sort(key=lambda e: (order.get(e.id, len(order)), e.size))
    ranked: list[Recommendation] = []
    for entry in chat:
        fit = estimate_entry(entry, n_ctx=n_ctx, device=device)
        if fit.verdict in verdicts:
            ranked.append(
                Recommendation(entry, fit, expected_speed(entry, measured), expected_first_sound(entry, measured))
            )
    quick = [r for r in ranked if r.quick_to_speak is not False]
    slow = sorted((r for r in ranked if r.quick_to_speak is False), key=lambda r: r.first_sound_s or 0.0)
    return quick + slow


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
