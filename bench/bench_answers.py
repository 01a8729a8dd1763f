#!/usr/bin/env python3
"""Are the answers right?  Every chat model that can be had here, on the questions people ask a
voice assistant (``answer_set.py``: arithmetic, units, facts, definitions, translation, how-to,
follow-ups), each checked automatically.

Not a test: it prints its figures (and writes them as JSON with ``--json FILE``).  Per model:
accuracy per kind and in all, the time to the first token of a question with the conversation's
prefix already read (as in the app, which reads it while the user speaks), generation speed,
peak memory of the process, how many replies hold Markdown, emoji or "As an AI" (they read
badly aloud), the replies' mean length in words, and the system prompt used.

Each model runs in a process of its own (its peak memory is its own), greedy, one reply after
the other; a follow-up is asked in the same conversation as the turn before it.

    .venv/bin/python bench/bench_answers.py                      # the starter and every installed pack
    .venv/bin/python bench/bench_answers.py --models starter,qwen2.5-coder-1.5b --threads 2
    .venv/bin/python bench/bench_answers.py --models /path/to/model.gguf --system prompt.txt
    .venv/bin/python bench/bench_answers.py --show-wrong           # list what each model got wrong
    .venv/bin/python bench/bench_answers.py --rescore bench/out/answers.json   # a saved run, checked again
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.answer_set import ITEMS, KINDS, speakable_problems

MAX_TOKENS = 200


def default_prompt() -> str:
    from parley.engine.chat.system_prompt import default_system_prompt

    return default_system_prompt()


def model_path(name: str) -> Path:
    """``starter``, a pack id, or a GGUF file."""
    from parley.engine.library import packs
    from parley.engine.modelfiles.defaults import default_chat_model_path

    if name == "starter":
        return default_chat_model_path()
    if Path(name).suffix == ".gguf":
        return Path(name)
    return packs.pack_path(packs.find_pack(name))


def installed_models() -> list[str]:
    from parley.engine.library.packs import installed_packs

    return ["starter", *(state.pack.id for state in installed_packs())]


# --------------------------------------------------------------------------- one model (a worker process)


def run_model(name: str, system: str, threads: int | None, limit: int | None) -> dict[str, Any]:
    from parley.engine.chat.model import ChatModel, ChatSession, SamplingParams

    path = model_path(name)
    params = SamplingParams(temperature=0, max_tokens=MAX_TOKENS)
    rows = []
    started = time.perf_counter()
    with ChatModel(path, n_ctx=2048, threads=threads) as model:
        load_s = time.perf_counter() - started
        session = ChatSession(model, system)
        for item in ITEMS[:limit]:
            session.reset(system)
            replies = []
            for turn in item.turns:
                session.prefill()  # the app reads the conversation while the user speaks
                replies.append(session.reply(turn, params))
            last = replies[-1]
            print(
                f"{name} {len(rows) + 1}/{len(ITEMS[:limit])} {'ok ' if item.check(last.text) else 'NO '} "
                f"{item.question[:50]!r}",
                file=sys.stderr,
                flush=True,
            )
            rows.append(
                {
                    "kind": item.kind,
                    "question": item.question,
                    "reply": last.text,
                    "right": item.check(last.text),
                    "expected": item.expected,
                    "speakable": speakable_problems(last.text),
                    "first_token_s": last.stats.time_to_first_token,
                    "tokens": last.stats.generated_tokens,
                    "gen_s": last.stats.generation_seconds,
                    "finish": last.finish,
                }
            )
        device = model.device.device.name
        used_threads = model.threads
    return {
        "model": name,
        "file": str(path),
        "size": path.stat().st_size,
        "device": device,
        "threads": used_threads,
        "load_s": load_s,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "rows": rows,
    }


# --------------------------------------------------------------------------- the report


def summarise(result: dict[str, Any]) -> dict[str, Any]:
    rows = result["rows"]
    by_kind = {}
    for kind in KINDS:
        of_kind = [r for r in rows if r["kind"] == kind]
        if of_kind:
            by_kind[kind] = (sum(r["right"] for r in of_kind), len(of_kind))
    tokens = sum(r["tokens"] for r in rows)
    gen_s = sum(r["gen_s"] for r in rows)
    first = sorted(r["first_token_s"] for r in rows)
    return {
        "model": result["model"],
        "size_mb": result["size"] / 1e6,
        "right": sum(r["right"] for r in rows),
        "asked": len(rows),
        "by_kind": by_kind,
        "first_token_p50": statistics.median(first),
        "first_token_p95": first[min(len(first) - 1, int(0.95 * len(first)))],
        "tokens_per_s": tokens / gen_s if gen_s else 0.0,
        # each reply's own rate, for replies of 8 tokens or more: a few replies stalled by other
        # programs (seen: 154 tokens in 65 s) pull the overall rate down, not the median
        "tokens_per_s_median": statistics.median(
            [r["tokens"] / r["gen_s"] for r in rows if r["tokens"] >= 8 and r["gen_s"] > 0] or [0.0]
        ),
        "peak_rss_mb": result["peak_rss_mb"],
        "markdown": sum("markdown" in r["speakable"] for r in rows),
        "emoji": sum("emoji" in r["speakable"] for r in rows),
        "as_an_ai": sum("as-an-ai" in r["speakable"] for r in rows),
        "words_mean": statistics.mean(len(r["reply"].split()) for r in rows),
        "cut_short": sum(r["finish"] == "max_tokens" for r in rows),
        "device": result["device"],
        "threads": result["threads"],
    }


def print_table(summaries: list[dict[str, Any]]) -> None:
    kinds = [k for k in KINDS if any(k in s["by_kind"] for s in summaries)]
    speeds = "tok/s: median reply / all"
    head = ["model", "right", *kinds, "1st token p50/p95", speeds, "peak MB", "md/emoji/AI", "words"]
    print(" | ".join(head))
    print(" | ".join("---" for _ in head))
    for s in summaries:
        cells = [
            s["model"],
            f"{s['right']}/{s['asked']} ({100 * s['right'] / s['asked']:.0f}%)",
            *(f"{s['by_kind'][k][0]}/{s['by_kind'][k][1]}" if k in s["by_kind"] else "-" for k in kinds),
            f"{s['first_token_p50']:.2f} / {s['first_token_p95']:.2f} s",
            f"{s['tokens_per_s_median']:.1f} / {s['tokens_per_s']:.1f}",
            f"{s['peak_rss_mb']:.0f}",
            f"{s['markdown']}/{s['emoji']}/{s['as_an_ai']}",
            f"{s['words_mean']:.0f}",
        ]
        print(" | ".join(cells))


def rescore(path: Path, show_wrong: bool) -> int:
    """The table of a saved run, every reply checked again with today's checks (the same questions)."""
    saved = json.loads(path.read_text(encoding="utf-8"))
    by_question = {item.question: item for item in ITEMS}
    for result in saved["results"]:
        for row in result["rows"]:
            item = by_question[row["question"]]
            row["right"], row["speakable"] = item.check(row["reply"]), speakable_problems(row["reply"])
    print(f"system prompt: {saved['system_prompt']!r}\n", file=sys.stderr)
    print_table([summarise(r) for r in saved["results"]])
    if show_wrong:
        print_wrong(saved["results"])
    return 0


def print_wrong(results: list[dict[str, Any]]) -> None:
    for result in results:
        print(f"\n## {result['model']}: wrong answers")
        for row in result["rows"]:
            if not row["right"]:
                print(f"- [{row['kind']}] {row['question']} (expected {row['expected']}): {row['reply'][:200]!r}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", help="comma-separated: starter, pack ids, GGUF files (default: all installed)")
    parser.add_argument("--system", help="a file with the system prompt (default: Parley's default prompt)")
    parser.add_argument("--threads", type=int, default=None, help="CPU threads (default: Parley's default)")
    parser.add_argument("--limit", type=int, default=None, help="only the first N questions (a quick look)")
    parser.add_argument("--json", type=Path, help="write every reply and the summaries here")
    parser.add_argument("--show-wrong", action="store_true", help="print each wrong answer")
    parser.add_argument("--rescore", type=Path, help="score the replies saved by an earlier --json run again")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.rescore:
        return rescore(args.rescore, args.show_wrong)
    system = Path(args.system).read_text(encoding="utf-8").strip() if args.system else default_prompt()
    if args.worker:
        json.dump(run_model(args.worker, system, args.threads, args.limit), sys.stdout)
        return 0
    models = args.models.split(",") if args.models else installed_models()
    print(f"{len(ITEMS[: args.limit])} questions; system prompt:\n  {system!r}\n", file=sys.stderr)
    results = []
    for name in models:
        command = [sys.executable, __file__, "--worker", name]
        command += ["--threads", str(args.threads)] if args.threads else []
        command += ["--limit", str(args.limit)] if args.limit else []
        command += ["--system", args.system] if args.system else []
        started = time.perf_counter()
        done = subprocess.run(command, check=True, stdout=subprocess.PIPE, text=True)  # progress on stderr
        result = json.loads(done.stdout)
        results.append(result)
        print(f"{name}: {time.perf_counter() - started:.0f} s", file=sys.stderr)
    summaries = [summarise(r) for r in results]
    print_table(summaries)
    if args.show_wrong:
        print_wrong(results)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(
            json.dumps({"system_prompt": system, "summaries": summaries, "results": results}, indent=1)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
