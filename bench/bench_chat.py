#!/usr/bin/env python3
"""Chat engine speed against llama-bench: same model, same threads, same native build.

Not a test: it prints its figures (and writes them as JSON with ``--json FILE``).

Measured after a warm-up, like llama-bench; llama-bench and our engine take turns
(``--rounds``) so that other load on the machine hits both alike, and the medians are compared:
- raw throughput through our binding layer (``ChatModel.evaluate``), the way llama-bench does
  it: prompt processing as one 512-token batch of random tokens (pp512), generation as 128
  single-token decodes (tg128), also with 512 tokens already in the cache (``@d512``);
- the same through the full ``ChatSession`` path (template, tokenizer, sampler chain,
  detokenizer, UTF-8 streaming, stop-string checks);
- time to first token for a 200-token prompt, prompt tokens evaluated per turn of a
  conversation, and peak resident memory;
- ``--session-tg N``: only the per-token overhead of a whole reply, as ``parley chat --stats``
  measures it (greedy, N tokens, streamed to a file and flushed per piece like the CLI does),
  against llama-bench's tgN, alternating, with the ratio of each round's pair and their median.

llama-bench is built from the same pinned sources with ``native/build.py --bench-tools``.

    .venv/bin/python bench/bench_chat.py [--model FILE] [--threads 2] [--reps 2] [--rounds 5]
    .venv/bin/python bench/bench_chat.py --session-tg 512 [--rounds 9]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from parley.engine.chat.model import ChatModel, ChatSession, Message, SamplingParams
from parley.engine.modelfiles.defaults import default_chat_model_path

REPO = Path(__file__).resolve().parents[1]

N_PROMPT, N_GEN, DEPTH, TTFT_PROMPT = 512, 128, 512, 200


def same_cpu_variant(bindir: Path) -> Path:
    """The tools' folder, narrowed to the CPU variant this process loaded (Parley's choice)."""
    from native.build import tools_with_cpu_variant
    from parley.engine.backend import devices, native

    native.load_backends()
    return tools_with_cpu_variant(bindir, devices.cpu_variant())


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def llama_bench(model: Path, threads: int, reps: int, tests: list[str] | None = None) -> dict[str, list[float]]:
    """tokens/s of each run per test name (pp512, tg128, pp512@d512, tg128@d512 unless
    ``tests`` gives llama-bench's own options)."""
    built = subprocess.run(
        [sys.executable, str(REPO / "native" / "build.py"), "--bench-tools"], check=True, capture_output=True, text=True
    )
    tool = same_cpu_variant(Path(built.stdout.strip().splitlines()[-1])) / "llama-bench"
    tests = tests or ["-p", str(N_PROMPT), "-n", str(N_GEN), "-d", f"0,{DEPTH}"]
    cmd = [str(tool), "-m", str(model), "-t", str(threads), *tests, "-r", str(reps), "-o", "json"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    results = {}
    for test in json.loads(out):
        name = f"pp{test['n_prompt']}" if test["n_prompt"] else f"tg{test['n_gen']}"
        if test.get("n_depth"):
            name += f"@d{test['n_depth']}"
        results[name] = [float(x) for x in test["samples_ts"]]
    return results


def throughput(
    evaluate: Callable[[list[int]], Any], clear: Callable[[], Any], n_vocab: int, reps: int
) -> dict[str, list[float]]:
    """llama-bench's method: random tokens, the cache cleared before each run; prompt processing
    as one batch, generation as single-token decodes, at depth 0 and DEPTH."""
    rng = random.Random(0)

    def tokens(n: int) -> list[int]:
        return [rng.randrange(n_vocab) for _ in range(n)]

    def pp(depth: int) -> float:
        clear()
        if depth:
            evaluate(tokens(depth))
        batch = tokens(N_PROMPT)
        start = time.perf_counter()
        evaluate(batch)
        return N_PROMPT / (time.perf_counter() - start)

    def tg(depth: int) -> float:
        clear()
        if depth:
            evaluate(tokens(depth))
        sequence = tokens(N_GEN)
        start = time.perf_counter()
        for token in sequence:
            evaluate([token])
        return N_GEN / (time.perf_counter() - start)

    pp(0), tg(0)  # warm-up, as llama-bench does
    results = {}
    for depth in (0, DEPTH):
        suffix = f"@d{DEPTH}" if depth else ""
        results[f"pp{N_PROMPT}{suffix}"] = [pp(depth) for _ in range(reps)]
        results[f"tg{N_GEN}{suffix}"] = [tg(depth) for _ in range(reps)]
    return results


def raw_throughput(model: ChatModel, reps: int) -> dict[str, list[float]]:
    """``throughput`` through our binding layer (``ChatModel.evaluate``)."""
    return throughput(model.evaluate, model.clear_cache, model.n_vocab, reps)


def llama_cpp_python(model: Path, threads: int, reps: int) -> dict[str, list[float]] | None:
    """The same raw-throughput tests through llama-cpp-python, in a child process (its own ggml
    must never share a process with ours); None when it is not installed."""
    proc = subprocess.run(
        [sys.executable, __file__, "--llama-cpp-python-child", str(model), str(threads), str(reps)],
        capture_output=True,
        text=True,
    )
    if proc.returncode == 3:
        return None
    if proc.returncode != 0:
        raise RuntimeError(f"llama-cpp-python run failed:\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _llama_cpp_python_child(model: str, threads: int, reps: int) -> int:
    try:
        from llama_cpp import Llama
    except ImportError:
        return 3
    llm = Llama(
        model_path=model, n_ctx=2048, n_batch=N_PROMPT, n_threads=threads, n_threads_batch=threads, verbose=False
    )
    # reset() rewinds the position; the next eval drops everything after it from the KV cache.
    results = throughput(llm.eval, llm.reset, llm.n_vocab(), reps)
    print(json.dumps(results))
    return 0


def message_of(model: ChatModel, n_tokens: int) -> str:
    """A user message whose whole prompt (with the chat template) is about ``n_tokens`` long."""
    words = (
        "the quick brown fox jumps over the lazy dog while seven wizards quietly "
        "judge boxing matches near an old lighthouse "
    ).split()
    overhead = len(model.tokenize(model.prompt_format.render([Message("user", "")])))
    text: list[str] = []
    while overhead + len(model.tokenize(" ".join(text))) < n_tokens:
        text.append(words[len(text) % len(words)])
    return " ".join(text)


def session_path(model: ChatModel, reps: int) -> dict[str, list[float]]:
    """Prompt and generation speed and TTFT through ChatSession, each run on a cleared cache."""
    long_message = message_of(model, N_PROMPT)
    ttft_message = message_of(model, TTFT_PROMPT)
    results: dict[str, list[float]] = {f"pp{N_PROMPT}": [], f"tg{N_GEN}": [], "ttft": [], "ttft_tokens": []}
    for rep in range(reps + 1):  # the first run is a warm-up
        model.clear_cache()
        prompt = ChatSession(model).reply(long_message, SamplingParams(temperature=0, max_tokens=1)).stats
        model.clear_cache()
        gen = ChatSession(model).reply("Tell me a story.", SamplingParams(max_tokens=N_GEN, seed=rep, ignore_eos=True))
        model.clear_cache()
        first = ChatSession(model).reply(ttft_message, SamplingParams(temperature=0, max_tokens=1)).stats
        if rep:
            results[f"pp{N_PROMPT}"].append(prompt.prompt_tps)
            results[f"tg{N_GEN}"].append(gen.stats.gen_tps)
            results["ttft"].append(first.time_to_first_token)
            results["ttft_tokens"].append(first.prompt_tokens)
    return results


def conversation(model: ChatModel) -> list[dict[str, Any]]:
    """Prompt tokens evaluated per turn of a short greedy conversation."""
    model.clear_cache()
    session = ChatSession(model, "You are a helpful assistant.")
    turns = []
    for question in (
        "What is the capital of France?",
        "And which river flows through that city?",
        "Name one famous museum there.",
        "Thank you, that is all for today.",
    ):
        reply = session.reply(question, SamplingParams(temperature=0, max_tokens=48))
        turns.append(
            {
                "message_tokens": len(model.tokenize(question)),
                "prompt_tokens": reply.stats.prompt_tokens,
                "cached_tokens": reply.stats.cached_tokens,
                "generated": reply.stats.generated_tokens,
                "finish": reply.finish,
            }
        )
    return turns


def session_tg(model: ChatModel, n_gen: int) -> tuple[float, float]:
    """One greedy reply of ``n_gen`` tokens through ChatSession, as ``parley chat --stats``
    reports it, each piece written to a file and flushed as the CLI does: its tokens/s, and
    the share of its generation time spent outside the one-token decodes (everything Parley
    adds per token: sampling, detokenizing, streaming, the callback, locks).  That share is
    measured in one process, so load from elsewhere, which moves the tokens/s of both sides
    by several percent from run to run on a shared machine, hardly touches it."""
    model.clear_cache()
    decode = model._evaluate_one
    in_decode = [0.0]

    def timed(token: int) -> None:
        started = time.perf_counter()
        decode(token)
        in_decode[0] += time.perf_counter() - started

    model._evaluate_one = timed  # type: ignore[method-assign]
    try:
        with open(os.devnull, "w") as sink:

            def write(piece: str) -> None:
                sink.write(piece)
                sink.flush()

            reply = ChatSession(model).reply(
                "Tell me a long story about a dragon.",
                SamplingParams(temperature=0, max_tokens=n_gen, ignore_eos=True),
                on_text=write,
            )
    finally:
        del model._evaluate_one
    assert reply.stats.generated_tokens == n_gen, reply.finish
    outside = 1 - in_decode[0] / reply.stats.generation_seconds
    return reply.stats.gen_tps, outside


def compare_session_tg(model_path: Path, threads: int, n_gen: int, rounds: int) -> int:
    """llama-bench tgN and a whole chat reply of N tokens, alternating; prints each round."""
    model = ChatModel(model_path, device="cpu", n_ctx=2048, threads=threads)
    session_tg(model, 32)  # warm-up, as llama-bench does its own
    ratios, bench_runs, ours_runs, outside_runs = [], [], [], []
    for round_ in range(1, rounds + 1):
        reference = llama_bench(model_path, threads, 1, ["-p", "0", "-n", str(n_gen)])[f"tg{n_gen}"][0]
        ours, outside = session_tg(model, n_gen)
        bench_runs.append(reference)
        ours_runs.append(ours)
        outside_runs.append(outside)
        ratios.append(ours / reference)
        load = os.getloadavg()[0]
        print(
            f"round {round_}: llama-bench tg{n_gen} {reference:6.1f} tokens/s, chat session {ours:6.1f} tokens/s, "
            f"ratio {ours / reference:.3f}, outside decode {outside:.1%} (load {load:.1f})",
            flush=True,
        )
    model.close()
    med = statistics.median
    print(
        f"\nmedians: llama-bench {med(bench_runs):.1f}, chat session {med(ours_runs):.1f} tokens/s; "
        f"ratio of the medians {med(ours_runs) / med(bench_runs):.3f}; median of the round ratios "
        f"{med(ratios):.3f} (range {min(ratios):.3f}-{max(ratios):.3f}); time outside the decodes "
        f"{med(outside_runs):.1%} (range {min(outside_runs):.1%}-{max(outside_runs):.1%})"
    )
    return 0


def merge(into: dict[str, list[float]], new: dict[str, list[float]]) -> None:
    for key, values in new.items():
        into.setdefault(key, []).extend(values)


def main() -> int:
    if len(sys.argv) == 5 and sys.argv[1] == "--llama-cpp-python-child":
        return _llama_cpp_python_child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", type=Path, default=None, help="GGUF model (default: SmolLM2-135M-Instruct Q4_1)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--reps", type=int, default=2, help="runs of each test per round")
    parser.add_argument(
        "--rounds",
        type=int,
        default=5,
        help="llama-bench and our engine take turns this many times, so that other load on the machine hits both alike",
    )
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    parser.add_argument(
        "--session-tg",
        type=int,
        default=None,
        metavar="N",
        help="only compare a whole greedy chat reply of N tokens with llama-bench tgN",
    )
    args = parser.parse_args()
    model_path = args.model or default_chat_model_path()
    if args.session_tg:
        return compare_session_tg(model_path, args.threads, args.session_tg, args.rounds)
    rss_before = peak_rss_mib()
    print(f"model: {model_path.name}, threads: {args.threads}, {args.rounds} rounds of {args.reps} runs")

    model = ChatModel(model_path, device="cpu", n_ctx=2048, threads=args.threads)
    rss_loaded = peak_rss_mib()
    reference: dict[str, list[float]] = {}
    ours: dict[str, list[float]] = {}
    session: dict[str, list[float]] = {}
    other: dict[str, list[float]] = {}
    for round_ in range(1, args.rounds + 1):
        print(f"round {round_}: llama-bench ...", end=" ", flush=True)
        merge(reference, llama_bench(model_path, args.threads, args.reps))
        print("llama-cpp-python ...", end=" ", flush=True)
        lcp = llama_cpp_python(model_path, args.threads, args.reps)
        if lcp is not None:
            merge(other, lcp)
        print("our engine ...", end=" ", flush=True)
        merge(ours, raw_throughput(model, args.reps))
        merge(session, session_path(model, args.reps))
        print("done", flush=True)
    turns = conversation(model)
    rss_peak = peak_rss_mib()
    model.close()

    med, best = statistics.median, max
    print()
    print("tokens/s: median of all runs [best run]; ratio = ours / llama-bench, of the medians [of the best runs].")
    print("Other load on the machine only ever slows a run down, so the best runs are the steadier comparison.")
    print(f"{'test':<11} {'llama-bench':>15} {'ours: raw decode':>16} {'ratio':>14} {'ChatSession':>15} {'ratio':>14}")
    for name, ref in reference.items():
        cells = [f"{med(ref):6.1f} [{best(ref):6.1f}]"]
        for mine in (ours.get(name), session.get(name)):
            if mine:
                cells += [
                    f"{med(mine):7.1f} [{best(mine):6.1f}]",
                    f"{med(mine) / med(ref):6.3f} [{best(mine) / best(ref):5.3f}]",
                ]
            else:
                cells += [f"{'-':>16}", f"{'-':>14}"]
        print(f"{name:<11} " + " ".join(cells))
    print()
    print(
        f"time to first token, {int(med(session['ttft_tokens']))}-token prompt on an empty cache: "
        f"{med(session['ttft']) * 1000:.1f} ms median, {min(session['ttft']) * 1000:.1f} ms best"
    )
    print("prompt tokens per turn (message tokens / evaluated / reused from the KV cache):")
    for i, turn in enumerate(turns, 1):
        print(
            f"  turn {i}: {turn['message_tokens']:3d} / {turn['prompt_tokens']:3d} / {turn['cached_tokens']:3d}"
            f"  ({turn['generated']} generated, {turn['finish']})"
        )
    print(
        f"peak RSS: {rss_before:.0f} MiB before loading, {rss_loaded:.0f} MiB with the model loaded, "
        f"{rss_peak:.0f} MiB at the end"
    )
    if other:
        print("ours vs llama-cpp-python (raw decode, same tests; median [best]):")
        for name, theirs in other.items():
            mine = ours[name]
            print(
                f"  {name:<11} llama-cpp-python {med(theirs):6.1f} [{best(theirs):6.1f}]  ours {med(mine):6.1f} "
                f"[{best(mine):6.1f}]  ratio {med(mine) / med(theirs):5.3f} [{best(mine) / best(theirs):5.3f}]"
            )
    else:
        print("llama-cpp-python: not installed (pip install llama-cpp-python==0.3.36), not compared")
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "model": str(model_path),
                    "threads": args.threads,
                    "rounds": args.rounds,
                    "reps": args.reps,
                    "llama_bench": reference,
                    "raw": ours,
                    "session": session,
                    "turns": turns,
                    "llama_cpp_python": other,
                    "peak_rss_mib": {"before": rss_before, "loaded": rss_loaded, "end": rss_peak},
                },
                indent=2,
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
