"""Does a model fit this machine?  An estimate of the memory it needs, against what is free.

Chat (GGUF): the weights (the file size: llama.cpp maps the whole file), the KV cache for the
context length (2 x layers x context x KV heads x head size x 2 bytes, f16, read from the GGUF
header with our parser) and llama.cpp's compute buffers (dominated by one batch of logits:
512 x vocabulary x 4 bytes).  Speech (whisper.cpp): the file plus the working memory the
whisper.cpp model table gives for each size (its "Mem" minus "Disk" column).

A catalog model that is not downloaded yet: its file size, and the KV cache from the entry's
bytes per token (``estimate_entry``); the buffers then assume a vocabulary of 152k tokens, the
size of today's common ones.

Against: the memory of the device the model would run on: free RAM for the CPU, the GPU's free
memory when the model is offloaded (``parley.engine.backend.devices``).  The result is a warning with
the figures, never a refusal: estimates are estimates, and swap or unified memory may cope.
``FitEstimate.verdict`` says it in a word: "fits" (at most ``TIGHT_SHARE`` of what is free),
"tight" (the rest of it) or "too big".
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

from ..modelfiles.gguf_file import GGUFContents, read_gguf
from ..modelfiles.whisper_file import check_whisper_ggml
from .catalog import CatalogEntry
from .human_units import gb

N_BATCH = 512  # tokens per llama_decode (parley.engine.chat.decoder.N_BATCH)
KV_BYTES = 2  # f16 K and V
FIXED_OVERHEAD = 64 << 20  # graph, context and backend bookkeeping
# whisper.cpp's model table (models/README.md), "Mem" minus "Disk", in MB, by model size.
WHISPER_WORK_MB = {"tiny": 315, "base": 358, "small": 534, "medium": 1100, "large": 1800}
TYPICAL_VOCAB = 152_000  # tokens: Qwen's 151,936; Llama 3's 128,256; Gemma 3's 262,144
TIGHT_SHARE = 0.8  # a model needing more than this share of the free memory is "tight"
VERDICTS = ("fits", "tight", "too big")


@dataclasses.dataclass(frozen=True)
class FitEstimate:
    name: str
    weights: int  # bytes
    context: int  # KV cache bytes (0 for speech models)
    buffers: int  # compute and working buffers
    n_ctx: int | None  # the context length the estimate is for (chat only)
    available: int | None  # free bytes where it would run; None when unknown
    where: str  # "memory" or e.g. "GPU memory (CUDA0)"

    @property
    def needed(self) -> int:
        return self.weights + self.context + self.buffers

    @property
    def fits(self) -> bool:
        return self.available is None or self.needed <= self.available

    @property
    def verdict(self) -> str:
        """ "fits", "tight" or "too big" for this machine now ("unknown" when free memory is)."""
        if self.available is None:
            return "unknown"
        if self.needed <= TIGHT_SHARE * self.available:
            return "fits"
        return "tight" if self.needed <= self.available else "too big"

    def summary(self) -> str:
        """One line with the figures, e.g. for a Fit column."""
        free = f"{gb(self.available)} free" if self.available is not None else "free memory unknown"
        return f"needs about {gb(self.needed)}, {free}"

    def warning(self) -> str | None:
        """What to tell the user before loading, or None when it fits."""
        if self.fits:
            return None
        parts = f"model {gb(self.weights)}"
        if self.n_ctx is not None:
            parts += f" + {self.n_ctx}-token context {gb(self.context)}"
        parts += f" + buffers {gb(self.buffers)}"
        advice = "a smaller model or a shorter context" if self.n_ctx is not None else "a smaller model"
        return (
            f"{self.name} needs about {gb(self.needed)} ({parts}), but only {gb(self.available or 0)} "
            f"of {self.where} is free. It may load very slowly or fail; {advice} would fit better."
        )


def available_ram() -> int | None:
    """Free RAM in bytes (Linux: MemAvailable, which counts reclaimable cache), else ggml's CPU figure."""
    if sys.platform.startswith("linux"):
        try:
            for line in Path("/proc/meminfo").read_text().splitlines():
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
        except (OSError, ValueError, IndexError):
            pass
    from ..backend.devices import list_devices

    cpu = next((d for d in list_devices() if d.kind == "cpu"), None)
    return cpu.memory_free if cpu is not None and cpu.memory_free > 0 else None


def _target(device: str) -> tuple[int | None, str]:
    """Free bytes and a name for where a model loaded with device policy ``device`` would live."""
    if device.strip().lower() != "cpu":
        from ..backend.devices import select_device

        choice = select_device(device)
        if choice.device.is_gpu:
            return choice.device.memory_free, f"GPU memory ({choice.device.name})"
    return available_ram(), "memory"


def _int(contents: GGUFContents, key: str) -> int | None:
    value = contents.get(key)
    if isinstance(value, list):
        value = max(value) if value else None
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def chat_needs(path: str | Path, n_ctx: int) -> tuple[int, int, int, int]:
    """(weights, KV cache, buffers, effective context) in bytes for a GGUF chat model."""
    path = Path(path)
    contents = read_gguf(path)
    arch = contents.get("general.architecture", "")
    kv_key = f"{arch}.attention.head_count_kv"
    if contents.metadata.get(kv_key) is not None and contents.get(kv_key) is None:  # a per-layer array
        contents = read_gguf(path, arrays=[kv_key])
    train = _int(contents, f"{arch}.context_length")
    ctx = min(n_ctx, train) if train else n_ctx
    layers = _int(contents, f"{arch}.block_count") or 0
    embd = _int(contents, f"{arch}.embedding_length") or 0
    heads = _int(contents, f"{arch}.attention.head_count") or 1
    kv_heads = _int(contents, kv_key) or heads
    k_len = _int(contents, f"{arch}.attention.key_length") or embd // heads
    v_len = _int(contents, f"{arch}.attention.value_length") or embd // heads
    tokens = contents.metadata.get("tokenizer.ggml.tokens")
    vocab = tokens.count if tokens is not None else 32000
    kv = ctx * layers * kv_heads * (k_len + v_len) * KV_BYTES
    buffers = min(N_BATCH, ctx) * (vocab + 4 * embd) * 4 + FIXED_OVERHEAD
    return contents.file_size, kv, buffers, ctx


def estimate(
    path: str | Path, *, kind: str = "chat", n_ctx: int = 4096, device: str = "auto", name: str | None = None
) -> FitEstimate:
    """The estimate for a model file (``kind`` "chat" or "speech") on ``device`` (a policy)."""
    path = Path(path)
    available, where = _target(device)
    if kind == "speech":
        info = check_whisper_ggml(path)
        work = WHISPER_WORK_MB.get(info.model_size, WHISPER_WORK_MB["large"]) * 1_000_000
        return FitEstimate(name or path.name, info.file_size, 0, work, None, available, where)
    weights, kv, buffers, ctx = chat_needs(path, n_ctx)
    return FitEstimate(name or path.name, weights, kv, buffers, ctx, available, where)


def estimate_size(size: int, *, name: str, kind: str, device: str = "auto") -> FitEstimate:
    """A rough estimate from a file size alone (catalog entries not downloaded yet): a whisper
    model's working memory by the size in its name, else a fifth of the file for context and
    buffers."""
    available, where = _target(device)
    work = (
        next((mb * 1_000_000 for size_name, mb in WHISPER_WORK_MB.items() if size_name in name.lower()), None)
        if kind == "speech"
        else None
    )
    extra = work if work is not None else size // 5 + FIXED_OVERHEAD
    return FitEstimate(name, size, 0, extra, None, available, where)


def estimate_entry(entry: CatalogEntry, *, n_ctx: int = 4096, device: str = "auto") -> FitEstimate:
    """The estimate for a catalog model before it is downloaded: its size, and for a chat model
    that says its KV cache per token, that cache for ``n_ctx`` (capped at its training context)
    and buffers for a typical vocabulary; else ``estimate_size``'s rough figure."""
    if entry.kind != "chat" or entry.kv_bytes_per_token is None:
        return estimate_size(entry.size, name=entry.name, kind=entry.kind, device=device)
    available, where = _target(device)
    ctx = min(n_ctx, entry.context) if entry.context else n_ctx
    buffers = min(N_BATCH, ctx) * TYPICAL_VOCAB * 4 + FIXED_OVERHEAD
    return FitEstimate(entry.name, entry.size, ctx * entry.kv_bytes_per_token, buffers, ctx, available, where)


def fit_warning(path: str | Path, *, kind: str = "chat", n_ctx: int = 4096, device: str = "auto") -> str | None:
    """The warning to show before loading ``path``, or None when it should fit.  This is the one
    call the app and ``parley chat`` make; it reads headers only and never refuses."""
    return estimate(path, kind=kind, n_ctx=n_ctx, device=device).warning()
