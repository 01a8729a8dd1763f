#!/usr/bin/env python3
"""Will it fit, and how fast: what the first-start page and the Model library predict, against
what loading each model here measures.

For each chat model, in a process of its own:
- **memory**: the fit estimate (``memory_fit.estimate``: the weights, the KV cache for the
  context, the buffers) against what loading the model with that context and writing a reply
  adds to the process's peak resident memory (``VmHWM``, after the backends are loaded), and
  what it holds after the reply, split into the file's pages (the mapped weights: the kernel
  can drop those of weights the CPU backend copied into its own layout) and anonymous memory
  (KV cache, buffers, those copies);
- **speed**: the tokens per second the page expects (``recommend.expected_speed``'s scaling,
  ``speed.predict_speed``, from the first model's measured turn, as the page scales from the
  starter's) against the model's own measured turn (``speed.measure_speed``, the turn
  ``parley models measure`` times).

``--moe`` checks the one speed the page never measures: a mixture of experts (gpt-oss-20b,
Qwen3-30B-A3B), scaled by the share of its weights a token reads (``CatalogEntry.active_share``).
None can be had offline, so it makes one: random F16 ``llama`` weights with 8 experts, 2 used
per token (Mixtral's layout), and a dense model of the same layers whose feed-forward is the
size of those 2 experts.  The dense one is the anchor: the mixture's expected speed is scaled
from it by the mixture's active bytes (what the page does) and, for contrast, by its whole file.

Not a test: it prints its figures.  There is no native tool to compare with here: llama.cpp's
tools predict neither.  Models are given as ``starter`` (the built-in chat model),
``pack:ID`` (an installed model pack) or a GGUF path; the first is the one the others'
speeds are scaled from.

    .venv/bin/python bench/bench_fit.py [--models starter pack:qwen2.5-coder-0.5b ...]
                                        [--ctx 4096] [--threads 2] [--moe]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

CHILD = """
import json, sys
from pathlib import Path
from parley.engine.backend import native
from parley.engine.chat.model import ChatModel, ChatSession, SamplingParams
from parley.engine.chat.speed import measure_speed
from parley.engine.library.memory_fit import estimate

def status(field):
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(field)

path, ctx, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
native.load_backends()
before = {field: status(field) for field in ("VmRSS", "RssAnon", "RssFile")}
with ChatModel(path, device="cpu", n_ctx=ctx, threads=threads) as model:
    ChatSession(model, "You are helpful.").reply(
        "Tell me about the moon.", SamplingParams(temperature=0, max_tokens=32)
    )
    n_ctx = model.n_ctx
    anon, file = (status(field) - before[field] for field in ("RssAnon", "RssFile"))
peak = status("VmHWM") - before["VmRSS"]
fit = estimate(path, n_ctx=ctx, device="cpu")
speed = measure_speed(path, device="cpu", threads=threads)
print(json.dumps({
    "file_size": Path(path).stat().st_size, "n_ctx": n_ctx, "peak": peak, "anon": anon, "file": file,
    "weights": fit.weights, "kv": fit.context, "buffers": fit.buffers, "needed": fit.needed,
    "speed": speed.__dict__,
}))
"""


def resolve(model: str) -> Path:
    """``starter``, ``pack:ID`` or a path, as the file it names."""
    if model == "starter":
        from parley.engine.modelfiles.defaults import default_chat_model_path

        return default_chat_model_path()
    if model.startswith("pack:"):
        from parley.engine.library.packs import find_pack, pack_path

        return pack_path(find_pack(model.removeprefix("pack:")))
    return Path(model)


def measure(path: Path, ctx: int, threads: int) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(path), str(ctx), str(threads)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"measuring {path} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def active_share(path: Path) -> float:
    """The share of a GGUF's weight bytes one token reads: all but the experts, and of those
    ``expert_used_count`` in ``expert_count``."""
    from gguf import GGUFReader

    reader = GGUFReader(path)
    fields = {f.name: f for f in reader.fields.values()}
    count = next((int(f.parts[-1][0]) for n, f in fields.items() if n.endswith(".expert_count")), 0)
    used = next((int(f.parts[-1][0]) for n, f in fields.items() if n.endswith(".expert_used_count")), 0)
    total = experts = 0
    for tensor in reader.tensors:
        total += int(tensor.n_bytes)
        if "_exps." in tensor.name:
            experts += int(tensor.n_bytes)
    return (total - experts + experts * used / count) / total if count else 1.0


def moe_check(ctx: int, threads: int) -> None:
    """Measure a made mixture of experts against its dense twin; print the expected speeds."""
    import tempfile

    from parley.engine.chat.speed import ModelSpeed, predict_speed
    from tests.support.tinymodels import write_tiny_llama_gguf

    shape = {"n_vocab": 2048, "n_embd": 1024, "n_layer": 8, "n_head": 16, "n_head_kv": 4, "n_ctx": ctx, "wtype": "f16"}
    with tempfile.TemporaryDirectory(prefix="parley-moe-") as folder:
        dense = write_tiny_llama_gguf(Path(folder) / "dense.gguf", n_ff=2816, name="dense-twin", **shape)
        moe = write_tiny_llama_gguf(
            Path(folder) / "moe.gguf", n_ff=1408, n_expert=8, n_expert_used=2, name="moe-8x2", **shape
        )
        share = active_share(moe)
        anchor = ModelSpeed(**measure(dense, ctx, threads)["speed"])
        got = ModelSpeed(**measure(moe, ctx, threads)["speed"])
    by_share = predict_speed(anchor, int(got.file_size * share))[1]
    by_file = predict_speed(anchor, got.file_size)[1]
    mb = 1_000_000
    print(
        "| model | file | active share | tokens/s measured | expected by the active share "
        "| expected / measured | expected by the whole file | expected / measured |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    print(f"| dense twin (anchor) | {anchor.file_size / mb:.0f} MB | 1.00 | {anchor.gen_tps:.1f} | | | | |")
    print(
        f"| 8 experts, 2 used | {got.file_size / mb:.0f} MB | {share:.2f} | {got.gen_tps:.1f} | {by_share:.1f} "
        f"| {by_share / got.gen_tps:.2f} | {by_file:.1f} | {by_file / got.gen_tps:.2f} |"
    )
    print(
        f"first token of a turn: dense {anchor.turn_first_token_s * 1000:.0f} ms, mixture "
        f"{got.turn_first_token_s * 1000:.0f} ms (expected by the active share "
        f"{anchor.turn_first_token_s * got.file_size * share / anchor.file_size * 1000:.0f} ms)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", nargs="+", default=["starter", "pack:qwen2.5-coder-0.5b"])
    parser.add_argument("--ctx", type=int, default=4096, help="the context the estimate and the load use")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--moe", action="store_true", help="check the scaling of a mixture of experts instead")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    if args.moe:
        moe_check(args.ctx, args.threads)
        return
    from parley.engine.chat.speed import ModelSpeed, predict_speed

    mb = 1_000_000
    rows = []
    anchor: ModelSpeed | None = None
    for model in args.models:
        path = resolve(model)
        got = measure(path, args.ctx, args.threads)
        speed = ModelSpeed(**got["speed"])
        anchor = anchor or speed
        expected = predict_speed(anchor, got["file_size"])[1]
        rows.append((model, got, speed, expected))
        print(f"{model}: measured", file=sys.stderr, flush=True)

    print(
        "| model | file | context | memory predicted (weights + KV + buffers) "
        "| measured peak (after the reply: file + anonymous) | predicted / peak "
        f"| tokens/s expected (from {args.models[0]}) | measured | expected / measured |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for model, got, speed, expected in rows:
        parts = f"{got['weights'] / mb:.0f} + {got['kv'] / mb:.0f} + {got['buffers'] / mb:.0f}"
        held = f"{got['file'] / mb:.0f} file + {got['anon'] / mb:.0f} anonymous"
        print(
            f"| {model} | {got['file_size'] / mb:.0f} MB | {got['n_ctx']} "
            f"| {got['needed'] / mb:.0f} MB ({parts}) | {got['peak'] / mb:.0f} MB ({held}) "
            f"| {got['needed'] / got['peak']:.2f} "
            f"| {expected:.1f} | {speed.gen_tps:.1f} | {expected / speed.gen_tps:.2f} |"
        )


if __name__ == "__main__":
    main()
