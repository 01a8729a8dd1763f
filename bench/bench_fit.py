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

Not a test: it prints its figures.  There is no native tool to compare with here: llama.cpp's
tools predict neither.  Models are given as ``starter`` (the built-in chat model),
``pack:ID`` (an installed model pack) or a GGUF path; the first is the one the others'
speeds are scaled from.

    .venv/bin/python bench/bench_fit.py [--models starter pack:qwen2.5-coder-0.5b ...]
                                        [--ctx 4096] [--threads 2]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", nargs="+", default=["starter", "pack:qwen2.5-coder-0.5b"])
    parser.add_argument("--ctx", type=int, default=4096, help="the context the estimate and the load use")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
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
