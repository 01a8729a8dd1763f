#!/usr/bin/env python3
"""Ask Parley about your own files (issue 42): how fast the documents are indexed, whether the
passages that answer a question are found, whether a question the files do not answer is told
apart, whether the chat models answer from the passages, and how fast a question is searched in
a large index.

The documents are ``docs_set.py``'s (pages of the Python 3.11 documentation in seven formats and
a few standard library sources, built at bench time), the questions ``docs_questions.py``'s (each
with its file, the verbatim evidence a passage that answers it holds, the answer's keywords, and
its kind: ``direct``, ``paraphrase``, ``two_passages``, ``unanswerable``).  The stages
(``--stages``, all by default), each table printed as it is done:

- **index**: the set indexed into a fresh index (one collection of the set's document folders:
  ``LICENSE.txt`` and ``manifest.json`` are left out) by ``DocumentStore.update`` in a child
  process with all-MiniLM-L6-v2 on the CPU: files, pages (the manifest's and the index's),
  passages, the time (the model's load apart; the embedding's share), pages a minute, the peak
  memory (``ru_maxrss`` of the child, and of the reader process it started for PDF, DOCX, ODT and
  EPUB: psutil is not used), the index on disk (the SQLite file plus its ``-wal``), and an update
  with nothing changed.
- **retrieval**: per mode (keyword, vector, fused), recall@3 (the share of the answerable
  questions whose evidence is in one of the first 3 passages; each of a two-passage question's
  two snippets counts a half) and MRR over the first 10 (the first passage holding a snippet),
  per kind and per format; a snippet matches a passage's text with whitespace collapsed, case
  aside.  Snippets that no passage of the index holds at all (a reader's text differing from
  ``docs_questions.text_of``'s, or a passage boundary through the snippet) are counted.  Then
  what ``store.ground`` does with each question: the unanswerable ones it says are
  not found, the answerable ones it wrongly cuts off (``grounding.NOTHING_NEAR``), and the best
  passage similarity of both (the similarities of the passages ``ground`` is given), with what
  other floors would do.
- **answers**: per chat model, in a process of its own: each question's grounding (the passages
  and the rule, as ``parley chat --docs`` sends it) to a fresh conversation with Parley's default
  system prompt (read before the question, as the app reads it while the user speaks), greedy,
  at most 160 tokens.  An answerable question is right when the reply holds one of its answer
  keywords (case aside); an unanswerable one when the grounding was not found (the model is not
  asked) or the reply says so (``grounding.said_not_found``).  Also: the answerable questions
  whose message held all their evidence (retrieval's part) and how many of those the model got
  right (its part), answerable replies that say not found, replies whose sources (``cited``: the
  ones shown under the reply) name the question's file, the time to the first token (the
  grounded message read) and the message's tokens.
- **latency**: indexes filled directly (``DocumentIndex.put_file``) to 1,000, 10,000 and 100,000
  passages: the real ones with their vectors, the rest their texts again with a variant number
  and random unit vectors; in a child process each, ``store.search`` fused for 30 questions with
  the question's embedding: the first (the vectors read into memory) apart, then the median and
  p95, the embedding alone (after a pause, and right after a search), keyword and vector alone,
  ``store.ground`` (the search and the check for documents short enough to give whole), the
  index on disk and the process's peak memory.  Each timed call comes after a pause of
  ``PAUSE`` (a person's questions come seconds apart; an embedding right after other native work
  runs faster, with the threads still awake, or slower, with OpenBLAS's still spinning).

Not a test: it prints its figures (and writes them as JSON with ``--json FILE``), with the
processor and its cores.  Wall-clock figures depend on what else the machine runs.

    .venv/bin/python bench/bench_docs.py                                    # every stage, starter,0.5b,1.5b
    .venv/bin/python bench/bench_docs.py --stages index,retrieval,latency   # no chat model
    .venv/bin/python bench/bench_docs.py --stages answers --models starter,0.5b --set /tmp/set --index /tmp/ix
    .venv/bin/python bench/bench_docs.py --stages answers --models 1.5b --limit 40 --show-wrong
    .venv/bin/python bench/bench_docs.py --stages latency --sizes 1000,10000

``--set DIR`` builds the set there (kept; an existing build with its ``manifest.json`` is used
as it is), ``--index FILE`` keeps the index (an existing one is brought up to date and used;
the index stage always indexes afresh): two runs can share them.  ``--limit N`` asks the chat
models N questions, spread evenly over the set (every kind in it); the other stages use all.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.docs_questions import KINDS, QUESTIONS, Question
from bench.machine import processor

REPO = Path(__file__).resolve().parents[1]
STAGES = ("index", "retrieval", "answers", "latency")
MODES = ("keyword", "vector", "fused")
ANSWERABLE = tuple(k for k in KINDS if k != "unanswerable")
DEFAULT_MODELS = "starter,0.5b,1.5b"
MAX_TOKENS = 160
N_CTX = 4096
TOP = 10  # passages looked at for MRR
RECALL_AT = 3
COLLECTION = "bench"
EMBEDDING_MODEL = "all-minilm-l6-v2"
LATENCY_QUESTIONS = 30
PAUSE = 0.2  # seconds before each timed query
DEFAULT_SIZES = "1000,10000,100000"
FLOORS = (0.10, 0.15, 0.20, 0.25, 0.30, 0.35, 0.40, 0.45, 0.50)


# --------------------------------------------------------------------------- the machine


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def peak_mb(who: int = resource.RUSAGE_SELF) -> float:
    """``ru_maxrss`` in MB (Linux gives kB)."""
    return resource.getrusage(who).ru_maxrss / 1024


def disk_mb(path: Path) -> float:
    """The SQLite file and its ``-wal``, in MB."""
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists()) / 1e6


def embedder(threads: int | None) -> Any:
    from parley.engine.chat.embeddings import Embedder
    from parley.engine.library.embedding_models import embedding_model_path

    return Embedder(embedding_model_path(EMBEDDING_MODEL), device="cpu", threads=threads)


# --------------------------------------------------------------------------- small helpers


def folded(text: str) -> str:
    return " ".join(text.split()).lower()


def quantile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0 to 1) of ``values``, linear between the nearest two."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    at = q * (len(ordered) - 1)
    low = int(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


def pct(part: float, whole: int) -> str:
    shown = f"{part:g}" if isinstance(part, float) else str(part)
    return f"{shown}/{whole} ({100 * part / whole:.0f}%)" if whole else "-"


def table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    print(" | ".join(head))
    print(" | ".join("---" for _ in head))
    for row in rows:
        print(" | ".join(row))
    print(flush=True)


def spread(items: Sequence[Question], limit: int | None) -> list[Question]:
    """``limit`` of ``items`` spread evenly over them (all when None)."""
    if limit is None or limit >= len(items):
        return list(items)
    return [items[i * len(items) // limit] for i in range(limit)]


def relative(path: str, root: Path) -> str:
    try:
        return Path(path).resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path


def run_worker(args: list[str], out: Path) -> dict[str, Any]:
    """This file as a worker process (its progress on stderr); what it wrote to ``out``."""
    done = subprocess.run([sys.executable, __file__, *args, "--worker-out", str(out)], cwd=REPO, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the worker {args[:2]} failed (exit {done.returncode})")
    result: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return result


# --------------------------------------------------------------------------- the set


def the_set(folder: Path) -> dict[str, Any]:
    """The set built into ``folder`` (an existing build is used as it is); its manifest."""
    manifest = folder / "manifest.json"
    if manifest.exists():
        print(f"the set: {folder} (built before)", file=sys.stderr)
    else:
        from bench.docs_set import build_set

        started = time.perf_counter()
        build_set(folder)
        print(f"the set: built into {folder} in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    loaded: dict[str, Any] = json.loads(manifest.read_text(encoding="utf-8"))
    return loaded


def document_folders(folder: Path, manifest: dict[str, Any]) -> list[Path]:
    """The set's folders of documents (the top folder of each file in the manifest)."""
    return sorted({folder / Path(f["path"]).parts[0] for f in manifest["files"]})


# --------------------------------------------------------------------------- stage: index (a worker)


def index_worker(set_folder: Path, index_path: Path, threads: int | None) -> dict[str, Any]:
    """Index the set afresh into ``index_path``, timed; in a process of its own."""
    from parley.engine.documents.store import DocumentStore

    manifest = json.loads((set_folder / "manifest.json").read_text(encoding="utf-8"))
    for leftover in (index_path, Path(f"{index_path}-wal"), Path(f"{index_path}-shm")):
        leftover.unlink(missing_ok=True)
    started = time.perf_counter()
    model = embedder(threads)
    load_s = time.perf_counter() - started
    embedding = {"seconds": 0.0, "texts": 0, "tokens": 0}
    embed = model.embed

    def timed_embed(texts: Any, cancel: Any = None) -> Any:
        t = time.perf_counter()
        result = embed(texts, cancel)
        embedding["seconds"] += time.perf_counter() - t
        embedding["texts"] += len(texts)
        embedding["tokens"] += result.tokens
        return result

    model.embed = timed_embed  # the embedding's share of the indexing
    try:
        store = DocumentStore(index_path, embedder=model)
        for folder in document_folders(set_folder, manifest):
            store.add(folder, COLLECTION)
        started = time.perf_counter()
        (summary,) = store.update(COLLECTION)
        seconds = time.perf_counter() - started
        collection = store.collection(COLLECTION)
        failed = [(r.path, r.note) for r in store.files(COLLECTION) if r.state != "indexed"]
        open_mb = disk_mb(index_path)
        started = time.perf_counter()
        (again,) = store.update(COLLECTION)
        again_s = time.perf_counter() - started
        store.close()
    finally:
        model.close()
    return {
        "files": collection.files,
        "indexed": collection.indexed,
        "failed": failed,
        "pages_manifest": sum(f["pages"] for f in manifest["files"]),
        "pages_index": collection.pages,
        "passages": collection.passages,
        "load_s": load_s,
        "seconds": seconds,
        "summary_seconds": summary.seconds,
        "embedding": embedding,
        "peak_mb": peak_mb(),
        "reader_peak_mb": peak_mb(resource.RUSAGE_CHILDREN),
        "disk_open_mb": open_mb,
        "disk_closed_mb": disk_mb(index_path),
        "again_s": again_s,
        "again_read": again.read,
    }


def print_index(r: dict[str, Any]) -> None:
    minutes = r["seconds"] / 60
    e = r["embedding"]
    print(f"Indexing the set (a fresh index; all-MiniLM-L6-v2 on the CPU, model load {r['load_s']:.1f} s apart)\n")
    table(
        [
            "files (failed)",
            "pages: manifest / index",
            "passages",
            "time",
            "of which embedding",
            "pages/min",
            "passages/s",
            "peak MB: indexer / reader",
            "index on disk MB: open (db+wal) / closed",
            "update, nothing changed",
        ],
        [
            [
                f"{r['indexed']} ({len(r['failed'])})",
                f"{r['pages_manifest']} / {r['pages_index']}",
                str(r["passages"]),
                f"{r['seconds']:.1f} s",
                f"{e['seconds']:.1f} s ({e['texts']} texts, {e['tokens']} tokens)",
                f"{r['pages_index'] / minutes:.0f}" if minutes else "-",
                f"{r['passages'] / r['seconds']:.1f}" if r["seconds"] else "-",
                f"{r['peak_mb']:.0f} / {r['reader_peak_mb']:.0f}",
                f"{r['disk_open_mb']:.1f} / {r['disk_closed_mb']:.1f}",
                f"{r['again_s']:.2f} s ({r['again_read']} read)",
            ]
        ],
    )
    for path, note in r["failed"]:
        print(f"- not indexed: {path}: {note}")
    print(
        "peak MB: ru_maxrss of the indexing process (the embedding model included) and of the reader "
        "process it started (PDF, DOCX, ODT, EPUB); psutil not used\n"
    )


# --------------------------------------------------------------------------- stage: retrieval and floor


def holds(text: str, snippets: Sequence[str]) -> list[bool]:
    body = folded(text)
    return [folded(s) in body for s in snippets]


def retrieval(store: Any, set_folder: Path, questions: Sequence[Question]) -> dict[str, Any]:
    """Each answerable question searched in every mode: its recall@3 share and reciprocal rank."""
    rows = []
    answerable = [q for q in questions if q.kind != "unanswerable"]
    for n, q in enumerate(answerable, 1):
        row: dict[str, Any] = {"question": q.question, "kind": q.kind, "file": q.file, "modes": {}}
        for mode in MODES:
            started = time.perf_counter()
            found = store.search(q.question, [COLLECTION], k=TOP, mode=mode)
            ms = (time.perf_counter() - started) * 1000
            hits = [holds(p.text, q.evidence) for p in found]
            seen = [any(h[i] for h in hits[:RECALL_AT]) for i in range(len(q.evidence))]
            first = next((rank for rank, h in enumerate(hits, 1) if any(h)), None)
            row["modes"][mode] = {
                "recall": sum(seen) / len(seen) if seen else 0.0,
                "rr": 1 / first if first else 0.0,
                "rank": first,
                "ms": ms,
                "top": [relative(p.path, set_folder) for p in found[:RECALL_AT]],
            }
        rows.append(row)
        if n % 20 == 0:
            print(f"retrieval {n}/{len(answerable)}", file=sys.stderr, flush=True)
    return {"rows": rows, "unmatched": unmatched_snippets(store, answerable)}


def unmatched_snippets(store: Any, questions: Sequence[Question]) -> list[tuple[str, str]]:
    """(file, snippet) of each evidence snippet no passage of the index holds."""
    index = store.index
    ids, _ = index.vectors(index.collection_ids([COLLECTION]))
    texts: list[str] = []
    id_list = [int(i) for i in ids]
    for at in range(0, len(id_list), 500):
        texts += [folded(row[3]) for row in index.passages(id_list[at : at + 500]).values()]
    missing = []
    for q in questions:
        for snippet in q.evidence:
            wanted = folded(snippet)
            if not any(wanted in text for text in texts):
                missing.append((q.file or "", snippet))
    return missing


def file_format(file: str | None, manifest: dict[str, Any]) -> str:
    formats = {f["path"]: f["format"] for f in manifest["files"]}
    return formats.get(file or "", "?")


def print_retrieval(result: dict[str, Any], manifest: dict[str, Any], show_misses: bool) -> None:
    rows = result["rows"]
    print(
        f"Retrieval: {len(rows)} answerable questions; recall@{RECALL_AT} (a two-passage question's snippets a half "
        f"each) / MRR over the first {TOP}\n"
    )
    kinds = [k for k in ANSWERABLE if any(r["kind"] == k for r in rows)]
    head = ["mode", f"recall@{RECALL_AT}", "MRR@10", "found in 10", *kinds, "search ms p50"]
    lines = []
    for mode in MODES:
        of = [r["modes"][mode] for r in rows]
        cells = [
            mode,
            pct(round(sum(m["recall"] for m in of), 1), len(of)),
            f"{statistics.mean(m['rr'] for m in of):.3f}" if of else "-",
            pct(sum(m["rank"] is not None for m in of), len(of)),
        ]
        for kind in kinds:
            mk = [r["modes"][mode] for r in rows if r["kind"] == kind]
            cells.append(f"{sum(m['recall'] for m in mk) / len(mk):.0%} / {statistics.mean(m['rr'] for m in mk):.3f}")
        cells.append(f"{statistics.median(m['ms'] for m in of):.1f}" if of else "-")
        lines.append(cells)
    table([*head[:4], *(f"{k}: recall / MRR" for k in kinds), head[-1]], lines)

    formats = sorted({file_format(r["file"], manifest) for r in rows})
    print(f"Per format, recall@{RECALL_AT} / MRR (questions)\n")
    lines = []
    for mode in MODES:
        cells = [mode]
        for fmt in formats:
            mk = [r["modes"][mode] for r in rows if file_format(r["file"], manifest) == fmt]
            cells.append(f"{sum(m['recall'] for m in mk) / len(mk):.0%} / {statistics.mean(m['rr'] for m in mk):.2f}")
        lines.append(cells)
    table(["mode", *(f"{f} ({sum(file_format(r['file'], manifest) == f for r in rows)})" for f in formats)], lines)

    unmatched = result["unmatched"]
    snippets = sum(len(q.evidence) for q in QUESTIONS if q.kind != "unanswerable")
    print(f"evidence snippets that no passage of the index holds: {len(unmatched)} of {snippets}")
    for file, snippet in unmatched[:20]:
        print(f"- {file}: {snippet!r}")
    if len(unmatched) > 20:
        print(f"- ... and {len(unmatched) - 20} more")
    print()
    if show_misses:
        print("Fused misses (no snippet in the first 3)\n")
        for r in rows:
            m = r["modes"]["fused"]
            if m["recall"] < 1:
                print(f"- [{r['kind']}] {r['question']!r} ({r['file']}; rank {m['rank']}): top 3 {m['top']}")
        print()


def groundings(store: Any, set_folder: Path, questions: Sequence[Question]) -> list[dict[str, Any]]:
    """What ``ground`` makes of each question: the message, the sources, found, the best similarity."""
    rows = []
    for q in questions:
        started = time.perf_counter()
        grounding = store.ground(q.question, [COLLECTION])
        ground_ms = (time.perf_counter() - started) * 1000
        # the passages ground was given (the fused first 5): their best similarity
        passages = store.search(q.question, [COLLECTION])
        best = max((p.similarity for p in passages), default=-1.0)
        given = holds(grounding.message, q.evidence) if grounding.found else [False] * len(q.evidence)
        rows.append(
            {
                "question": q.question,
                "kind": q.kind,
                "file": q.file,
                "answer": list(q.answer),
                "message": grounding.message,
                "sources": [[relative(s.path, set_folder), s.title, s.place] for s in grounding.sources],
                "found": grounding.found,
                "texts": grounding.texts,
                "best": best,
                "evidence_given": sum(given) / len(given) if given else 0.0,
                "ground_ms": ground_ms,
            }
        )
    return rows


def print_floor(rows: list[dict[str, Any]]) -> None:
    from parley.engine.documents.grounding import NOTHING_NEAR

    answerable = [r for r in rows if r["kind"] != "unanswerable"]
    unanswerable = [r for r in rows if r["kind"] == "unanswerable"]
    ground_ms = [r["ground_ms"] for r in rows]
    print(f"Not found by the floor (grounding.NOTHING_NEAR = {NOTHING_NEAR}): store.ground's found flag\n")
    table(
        ["unanswerable said not found", "answerable wrongly cut off", "ground ms p50 / p95"],
        [
            [
                pct(sum(not r["found"] for r in unanswerable), len(unanswerable)),
                pct(sum(not r["found"] for r in answerable), len(answerable)),
                f"{quantile(ground_ms, 0.5):.1f} / {quantile(ground_ms, 0.95):.1f}",
            ]
        ],
    )
    print("The best similarity of the passages ground is given (cosine, the fused first 5)\n")
    lines = []
    for label, of in (("answerable", answerable), ("unanswerable", unanswerable)):
        best = [r["best"] for r in of]
        lines.append(
            [label, str(len(of)), *(f"{quantile(best, q):.3f}" for q in (0.0, 0.05, 0.5, 0.95, 1.0))]
            if best
            else [label, "0", *"-----"]
        )
    table(["questions", "n", "min", "p5", "median", "p95", "max"], lines)
    print("Other floors: answerable cut off / unanswerable said not found\n")
    floors = sorted({*FLOORS, NOTHING_NEAR})
    table(
        ["floor", *(f"{f:.2f}" for f in floors)],
        [
            ["answerable cut", *(f"{sum(r['best'] < f for r in answerable)}" for f in floors)],
            ["unanswerable cut", *(f"{sum(r['best'] < f for r in unanswerable)}" for f in floors)],
        ],
    )


# --------------------------------------------------------------------------- stage: answers (a worker per model)


def model_path(name: str) -> Path:
    """``starter``, ``pack:ID``, a pack's id or the end of one (``0.5b``: ``qwen2.5-coder-0.5b``), a GGUF."""
    if name == "starter":
        from parley.engine.modelfiles.defaults import default_chat_model_path

        return default_chat_model_path()
    if name.endswith(".gguf"):
        return Path(name)
    from parley.engine.library import packs

    wanted = name.removeprefix("pack:")
    matches = [p for p in packs.packs() if p.id == wanted] or [p for p in packs.packs() if p.id.endswith(f"-{wanted}")]
    if len(matches) != 1:
        known = ", ".join(p.id for p in packs.packs())
        raise SystemExit(f"{name!r} names {len(matches)} packs (the packs: {known})")
    return packs.pack_path(matches[0])


def answers_worker(name: str, rows_path: Path, threads: int | None) -> dict[str, Any]:
    from parley.engine.chat.model import ChatModel, ChatSession, SamplingParams
    from parley.engine.chat.system_prompt import default_system_prompt
    from parley.engine.documents.grounding import NOT_FOUND, Grounding, Source, cited, said_not_found, supported

    rows = json.loads(rows_path.read_text(encoding="utf-8"))
    path = model_path(name)
    system = default_system_prompt()
    params = SamplingParams(temperature=0, max_tokens=MAX_TOKENS)
    started = time.perf_counter()
    out = []
    with ChatModel(path, device="cpu", n_ctx=N_CTX, threads=threads) as model:
        load_s = time.perf_counter() - started
        session = ChatSession(model, system)
        for n, row in enumerate(rows, 1):
            grounding = Grounding(
                row["message"], [Source(*s) for s in row["sources"]], row["found"], row["texts"], row["question"]
            )
            asked = grounding.found
            if asked:
                session.reset(system)
                session.prefill()  # the system prompt, read while the user speaks
                reply = session.reply(grounding.message, params)
                text, stats, finish = reply.text, reply.stats, reply.finish
            else:
                text, stats, finish = NOT_FOUND, None, "not asked"
            not_found = said_not_found(text)
            if row["kind"] == "unanswerable":
                right = not asked or not_found
            else:
                right = any(word.lower() in text.lower() for word in row["answer"])
            sources = [s.path for s in cited(text, grounding)]  # the sources shown under the reply
            flagged = asked and not supported(text, grounding)  # told "not from your documents"
            out.append(
                {
                    "question": row["question"],
                    "kind": row["kind"],
                    "file": row["file"],
                    "answer": row["answer"],
                    "reply": text,
                    "asked": asked,
                    "right": right,
                    "not_found": not_found,
                    "flagged": flagged,
                    "sources": sources,
                    "sources_right": row["file"] in sources,
                    "evidence_given": row["evidence_given"],
                    "first_token_s": stats.time_to_first_token if stats else None,
                    "prompt_tokens": stats.prompt_tokens if stats else None,
                    "tokens": stats.generated_tokens if stats else 0,
                    "gen_s": stats.generation_seconds if stats else 0.0,
                    "finish": finish,
                }
            )
            print(
                f"{name} {n}/{len(rows)} {'ok ' if right else 'NO '}[{row['kind']}] {row['question'][:50]!r}",
                file=sys.stderr,
                flush=True,
            )
        threads_used = model.threads
    return {
        "model": name,
        "file": str(path),
        "size_mb": path.stat().st_size / 1e6,
        "threads": threads_used,
        "load_s": load_s,
        "peak_mb": peak_mb(),
        "rows": out,
    }


def print_answers(results: list[dict[str, Any]], show_wrong: bool) -> None:
    if not results:
        return
    n = len(results[0]["rows"])
    print(
        f"Answers from the passages: {n} questions; greedy, at most {MAX_TOKENS} tokens, context {N_CTX}, "
        "Parley's default system prompt\n"
    )
    kinds = [k for k in KINDS if any(r["kind"] == k for r in results[0]["rows"])]
    given = [r for r in results[0]["rows"] if r["kind"] != "unanswerable" and r["evidence_given"] == 1]
    answerable_n = sum(r["kind"] != "unanswerable" for r in results[0]["rows"])
    print(
        f"The message held all the evidence for {len(given)}/{answerable_n} answerable questions "
        "(the passages given: retrieval's part); \"right, evidence given\": of those, the model's part.  "
        '"sources right": the sources shown under the reply (grounding.cited) name the question\'s file.\n'
    )
    head = [
        "model",
        "right",
        *kinds,
        "right, evidence given",
        "unanswerable: model said not found",
        "unanswerable: told (said, or flagged not from them)",
        "answerable said not found",
        "right but flagged",
        "sources right",
        "1st token p50 / p95",
        "message tokens p50",
        "tok/s",
        "cut short",
        "peak MB",
        "run",
    ]
    lines = []
    for result in results:
        rows = result["rows"]
        asked = [r for r in rows if r["asked"]]
        unans_asked = [r for r in asked if r["kind"] == "unanswerable"]
        answerable = [r for r in rows if r["kind"] != "unanswerable"]
        first = [r["first_token_s"] for r in asked]
        tokens, gen_s = sum(r["tokens"] for r in asked), sum(r["gen_s"] for r in asked)
        lines.append(
            [
                result["model"],
                pct(sum(r["right"] for r in rows), len(rows)),
                *(
                    pct(sum(r["right"] for r in rows if r["kind"] == k), sum(r["kind"] == k for r in rows))
                    for k in kinds
                ),
                pct(sum(r["right"] for r in answerable if r["evidence_given"] == 1), len(given)),
                pct(sum(r["not_found"] for r in unans_asked), len(unans_asked)),
                pct(
                    sum(
                        not r["asked"] or r["not_found"] or r.get("flagged", False)
                        for r in rows
                        if r["kind"] == "unanswerable"
                    ),
                    sum(r["kind"] == "unanswerable" for r in rows),
                ),
                pct(sum(r["not_found"] for r in answerable), len(answerable)),
                pct(sum(r["right"] and r.get("flagged", False) for r in answerable), len(answerable)),
                pct(sum(r["sources_right"] for r in answerable), len(answerable)),
                f"{quantile(first, 0.5):.2f} / {quantile(first, 0.95):.2f} s" if first else "-",
                f"{quantile([r['prompt_tokens'] for r in asked], 0.5):.0f}" if asked else "-",
                f"{tokens / gen_s:.1f}" if gen_s else "-",
                str(sum(r["finish"] == "max_tokens" for r in asked)),
                f"{result['peak_mb']:.0f}",
                f"{result['run_s']:.0f} s",
            ]
        )
    table(head, lines)
    if show_wrong:
        for result in results:
            print(f"## {result['model']}: wrong answers\n")
            for r in result["rows"]:
                if not r["right"]:
                    expected = r["answer"] or "not found"
                    evidence = "" if r["kind"] == "unanswerable" else f"; evidence given {r['evidence_given']:.0%}"
                    reply = " ".join(r["reply"].split())[:200]
                    print(f"- [{r['kind']}] {r['question']} (expected {expected}{evidence}): {reply!r}")
            print()


# --------------------------------------------------------------------------- stage: latency (a worker per size)


def variant(text: str, number: int) -> str:
    """A real passage's text again, told apart: its sentences turned by ``number`` and numbered."""
    sentences = re.split(r"(?<=[.!?])\s+", text)
    turn = number % len(sentences)
    return f"Variant {number}. " + " ".join(sentences[turn:] + sentences[:turn])


def fill(index: Any, real_index: Any, size: int, seed: int = 42) -> dict[str, Any]:
    """``index`` (empty) filled to ``size`` passages: the real index's passages with their vectors,
    then their texts again as variants with random unit vectors, a file of 100 passages each."""
    import numpy as np

    from parley.engine.documents.index import NewPassage

    ids, matrix = real_index.vectors(real_index.collection_ids([COLLECTION]))
    id_list = [int(i) for i in ids]
    real: dict[int, tuple[str, str, str, str, int]] = {}
    for at in range(0, len(id_list), 500):
        real.update(real_index.passages(id_list[at : at + 500]))
    index.forget_vectors(real_index.meta("embedding_model") or "")
    index.add_source("latency", Path("/bench-docs/latency"))
    (collection,) = index.collection_ids(["latency"])
    rng = np.random.default_rng(seed)
    started = time.perf_counter()
    used_real = min(size, len(id_list))
    by_file: dict[str, list[Any]] = {}
    titles: dict[str, str] = {}
    for row, pid in enumerate(id_list[:used_real]):
        path, title, place, text, ordinal = real[pid]
        titles[path] = title
        by_file.setdefault(path, []).append(NewPassage(ordinal, place, text, matrix[row]))
    with index.transaction() as db:
        for path, passages in by_file.items():
            index.put_file(db, collection, path, (0, 0), title=titles[path], passages=passages)
    made = used_real
    number = 0
    while made < size:
        number += 1
        with index.transaction() as db:
            for start in range(0, min(len(id_list), size - made), 100):
                count = min(100, len(id_list) - start, size - made)
                vectors = rng.standard_normal((count, matrix.shape[1])).astype(np.float32)
                vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
                passages = []
                for i in range(count):
                    path, title, place, text, _ = real[id_list[start + i]]
                    passages.append(NewPassage(i, place, variant(text, number), vectors[i]))
                index.put_file(
                    db,
                    collection,
                    f"/bench-docs/variants/{number}/{start // 100}.txt",
                    (0, 0),
                    title=f"{titles.get(path) or Path(path).stem} (variant {number})",
                    passages=passages,
                )
                made += count
    return {"real": used_real, "fill_s": time.perf_counter() - started}


def latency_worker(real_path: Path, size: int, folder: Path, threads: int | None) -> dict[str, Any]:
    from parley.engine.documents.index import DocumentIndex
    from parley.engine.documents.store import DocumentStore

    path = folder / f"latency-{size}.sqlite3"
    questions = [q.question for q in spread(QUESTIONS, LATENCY_QUESTIONS)]
    with DocumentIndex(real_path) as real_index, DocumentIndex(path) as index:
        filled = fill(index, real_index, size)
        passages = index.collection("latency").passages
        open_mb = disk_mb(path)
    closed_mb = disk_mb(path)
    model = embedder(threads)
    try:
        model.embed([model.tokenize("a first embedding, so that the cold query is the index's", True)])
        store = DocumentStore(path, embedder=model)
        started = time.perf_counter()
        store.search(questions[0], ["latency"], mode="fused")
        cold_ms = (time.perf_counter() - started) * 1000
        times: dict[str, list[float]] = {k: [] for k in ("fused", "embedding", "after", "keyword", "vector", "ground")}

        def timed(key: str, call: Any, *args: Any, **kwargs: Any) -> None:
            started = time.perf_counter()
            call(*args, **kwargs)
            times[key].append((time.perf_counter() - started) * 1000)

        def embed(question: str) -> None:
            model.embed([model.tokenize(question, True)])

        for question in questions:
            # a pause before each: the questions of a person come seconds apart, and the threads
            # of the last matrix product (OpenBLAS's) still spin for a while after it
            time.sleep(PAUSE)
            timed("fused", store.search, question, ["latency"], mode="fused")
            timed("after", embed, question)  # right after a search: what the next native work meets
            time.sleep(PAUSE)
            timed("embedding", embed, question)
            for mode in ("keyword", "vector"):
                time.sleep(PAUSE)
                timed(mode, store.search, question, ["latency"], mode=mode)
            time.sleep(PAUSE)
            timed("ground", store.ground, question, ["latency"])
        store.close()
    finally:
        model.close()
    return {
        "size": size,
        "passages": passages,
        **filled,
        "cold_ms": cold_ms,
        "p50_ms": quantile(times["fused"], 0.5),
        "p95_ms": quantile(times["fused"], 0.95),
        **{f"{k}_p50_ms": quantile(v, 0.5) for k, v in times.items()},
        "disk_open_mb": open_mb,
        "disk_closed_mb": closed_mb,
        "peak_mb": peak_mb(),
    }


def print_latency(results: list[dict[str, Any]]) -> None:
    print(
        f"Query latency, store.search fused, k=5, the question's embedding included ({LATENCY_QUESTIONS} questions; "
        "the first query, which reads the vectors into memory, apart)\n"
    )
    table(
        [
            "passages (real)",
            "first query ms",
            "p50 ms",
            "p95 ms",
            "embedding alone p50: idle / just after a search",
            "keyword / vector p50 ms",
            "store.ground p50 ms",
            "on disk MB: open (db+wal) / closed",
            "peak MB",
            "fill s",
        ],
        [
            [
                f"{r['passages']:,} ({r['real']:,})",
                f"{r['cold_ms']:.0f}",
                f"{r['p50_ms']:.1f}",
                f"{r['p95_ms']:.1f}",
                f"{r['embedding_p50_ms']:.1f} / {r['after_p50_ms']:.1f}",
                f"{r['keyword_p50_ms']:.1f} / {r['vector_p50_ms']:.1f}",
                f"{r['ground_p50_ms']:.1f}",
                f"{r['disk_open_mb']:.0f} / {r['disk_closed_mb']:.0f}",
                f"{r['peak_mb']:.0f}",
                f"{r['fill_s']:.0f}",
            ]
            for r in results
        ],
    )


# --------------------------------------------------------------------------- the run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--stages", default=",".join(STAGES), help=f"comma-separated, of {','.join(STAGES)}")
    parser.add_argument("--set", type=Path, help="build the set here, or use the build there (default: a temp folder)")
    parser.add_argument("--index", type=Path, help="the index file (default: in a temp folder)")
    parser.add_argument("--models", default=DEFAULT_MODELS, help="starter, pack ids or their ends (0.5b), GGUF files")
    parser.add_argument("--limit", type=int, help="ask the chat models only N questions, spread over the set")
    parser.add_argument("--sizes", default=DEFAULT_SIZES, help="passages of the latency stage's indexes")
    parser.add_argument("--threads", type=int, help="CPU threads (default: Parley's default)")
    parser.add_argument("--json", type=Path, help="write every figure (and every reply) here")
    parser.add_argument("--show-misses", action="store_true", help="list the fused searches that missed")
    parser.add_argument("--show-wrong", action="store_true", help="list each model's wrong answers")
    parser.add_argument("--worker", choices=("index", "answers", "latency"), help=argparse.SUPPRESS)
    parser.add_argument("--worker-in", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--worker-size", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--worker-model", help=argparse.SUPPRESS)
    parser.add_argument("--worker-out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    threads = ["--threads", str(args.threads)] if args.threads else []

    if args.worker:
        if args.worker == "index":
            result = index_worker(args.set, args.index, args.threads)
        elif args.worker == "answers":
            result = answers_worker(args.worker_model, args.worker_in, args.threads)
        else:
            result = latency_worker(args.index, args.worker_size, args.worker_in, args.threads)
        args.worker_out.write_text(json.dumps(result, ensure_ascii=False), encoding="utf-8")
        return 0

    stages = [s.strip() for s in args.stages.split(",") if s.strip()]
    unknown = set(stages) - set(STAGES)
    if unknown:
        parser.error(f"unknown stages {sorted(unknown)}: the stages are {','.join(STAGES)}")
    if not QUESTIONS:
        raise SystemExit("bench/docs_questions.py holds no questions yet")
    header = {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="minutes"),
        "cpu": processor(),
        "cores": cores(),
        "stages": stages,
    }
    print(f"{header['date']}: {header['cpu']}, {header['cores']} cores\n", flush=True)
    report: dict[str, Any] = {"header": header}
    with tempfile.TemporaryDirectory(prefix="bench-docs-") as temp:
        folder = Path(temp)
        set_folder = (args.set or folder / "set").resolve()
        index_path = (args.index or folder / "index.sqlite3").resolve()
        manifest = the_set(set_folder)
        counts = {k: sum(q.kind == k for q in QUESTIONS) for k in KINDS}
        print(
            f"{len(manifest['files'])} files; {len(QUESTIONS)} questions ("
            + ", ".join(f"{v} {k}" for k, v in counts.items())
            + ")\n",
            flush=True,
        )
        needs_index = any(s in stages for s in ("retrieval", "answers", "latency"))
        if "index" in stages or (needs_index and not index_path.exists()):
            print("indexing the set ...", file=sys.stderr, flush=True)
            result = run_worker(
                ["--worker", "index", "--set", str(set_folder), "--index", str(index_path), *threads],
                folder / "index.json",
            )
            report["index"] = result
            print_index(result)

        rows: list[dict[str, Any]] = []
        if "retrieval" in stages or "answers" in stages:
            from parley.engine.documents.store import DocumentStore

            model = embedder(args.threads)
            try:
                with DocumentStore(index_path, embedder=model) as store:
                    store.update(COLLECTION)  # a kept index: brought up to date
                    if "retrieval" in stages:
                        result = retrieval(store, set_folder, QUESTIONS)
                        report["retrieval"] = result
                        print_retrieval(result, manifest, args.show_misses)
                    rows = groundings(store, set_folder, QUESTIONS)
                    report["groundings"] = [{k: v for k, v in r.items() if k not in ("message", "texts")} for r in rows]
                    if "retrieval" in stages:
                        print_floor(rows)
            finally:
                model.close()

        if "answers" in stages:
            chosen = {q.question for q in spread(QUESTIONS, args.limit)}
            asked_rows = [r for r in rows if r["question"] in chosen]
            rows_path = folder / "groundings.json"
            rows_path.write_text(json.dumps(asked_rows, ensure_ascii=False), encoding="utf-8")
            results = []
            for name in args.models.split(","):
                started = time.perf_counter()
                command = ["--worker", "answers", "--worker-model", name, "--worker-in", str(rows_path), *threads]
                result = run_worker(command, folder / "answers.json")
                result["run_s"] = time.perf_counter() - started
                results.append(result)
                print(f"{name}: {result['run_s']:.0f} s", file=sys.stderr, flush=True)
            report["answers"] = results
            print_answers(results, args.show_wrong)

        if "latency" in stages:
            results = []
            for size in (int(s) for s in args.sizes.split(",")):
                print(f"latency at {size:,} passages ...", file=sys.stderr, flush=True)
                command = ["--worker", "latency", "--worker-size", str(size), "--index", str(index_path)]
                command += ["--worker-in", str(folder), *threads]
                results.append(run_worker(command, folder / "latency.json"))
                for leftover in folder.glob(f"latency-{size}.sqlite3*"):
                    leftover.unlink()
            report["latency"] = results
            print_latency(results)

    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
