#!/usr/bin/env python3
"""Tools in a spoken turn: does each chat model call the right tool with the right arguments,
leave the tools alone where none is needed, and answer right; and how much later the first
sound comes when a tool step stands between the user's message and the answer.

The requests are ``tool_request_set.py``'s: 150 as people say them (100 that need a tool: the
built-in ones and the two MCP test servers of ``tests/support/mcp_servers.py``, the pantry on
stdio and the office on Streamable HTTP; 50 that need none), on a fixed world (the clock, the
timers set, the history, the pantry, the office), each with its expected calls, a check of
their arguments and a check of the answer.

Per chat model, in a process of its own, one request after the other: a fresh ``ChatSession``
with Parley's default system prompt (as the app's), the built-in
tools and both servers' tools in the toolbox (the turn shows the model those the request's cues
call for: ``engine.tools.turn``), greedy, at most ``MAX_TOKENS`` tokens per reply, the
turn run by ``run_turn`` as the app runs it; a call that acts is allowed (the ``ask``
callback says yes and is counted).  The prompt's prefix (the system prompt and the tools) is
read once before the first request and kept in the KV cache between requests, as the app reads
it while the user speaks; its one-off time is reported apart.  A request whose call changed a
server's data (a booking, the shopping list) gets fresh servers after it, so that every request
sees the same data.  Scored (``tool_request_set.score``):

- **right tool**: the tools called are the expected ones (for a request that needs none: none);
- **right tool and arguments**: and each expected call has a call whose arguments pass its check;
- **needless calls**: a tool called where none was needed (of the 50 that need none);
- **answer right**: the turn's words hold the key fact.

Latency, from the call of ``run_turn`` (the user's message known: the release of the talk key
plus the transcription, which this bench does not count) to the **first sound**: the first
piece the app's voice would speak (``SentenceSplitter``'s early cut of the streamed words; the
voice's own synthesis, the same with or without a tool, is not counted), and to the end of the
first whole sentence.  What a tool step adds is measured pairwise: the same request asked of a
second instance of the model without tools (the plain system prompt, its own KV cache kept
warm the same way), stopped at its first whole sentence; the tool turn's first sound minus that
one.  The step's parts are reported too: the first reply (the message read and the call
written), the tool, and from the step's end to the answer's first sound (nothing where the
engine says a built-in tool's worded result as the answer; the result read back and the
answer's first words where the model words it); and when the call's name is known (where a
spoken "one moment" could start).  Each row records, from the request's
cues (``Toolbox.relevance``), the tools they were sure of, and any expected tool
they ruled out.

Not a test: it prints its figures and, with ``--json FILE``, every request's outcome (the
calls with their arguments and results, the words, the checks' reasons, the times).  It prints
the processor (``/proc/cpuinfo``) and the threads with the figures, and the failures of the
models named like ``1.5b`` (``--show-failures``: of every model).

    .venv/bin/python bench/bench_tools.py [--models starter pack:qwen2.5-coder-0.5b pack:qwen2.5-coder-1.5b]
                                          [--limit N] [--only built-in|mcp|none] [--kinds KIND ...]
                                          [--json out.json]
                                          [--threads N] [--no-direct] [--show-failures]
    .venv/bin/python bench/bench_tools.py --rescore out.json [--show-failures]   # a saved run, checked again
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.machine import processor
from bench.tool_request_set import (
    ACTING_MCP_TOOLS,
    GROUPS,
    KINDS,
    MCP_TOOLS,
    REQUESTS,
    MadeCall,
    Request,
    by_text,
    make_world,
    score,
)

REPO = Path(__file__).resolve().parents[1]
MAX_TOKENS = 200
N_CTX = 4096
DEFAULT_MODELS = ("starter", "pack:qwen2.5-coder-0.5b", "pack:qwen2.5-coder-1.5b")
GOALS = {"tool_args": 0.90, "needless": 0.05, "built_in_adds": 0.300}  # issue 41, for the 1.5B on 2 cores


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def engine_state() -> dict[str, str]:
    """Which engine ran: where ``parley`` was imported from, and a hash of the sources of the
    chat engine and the tools (the working tree may change between two runs)."""
    import hashlib

    import parley

    root = Path(parley.__file__).parent
    digest = hashlib.sha256()
    for path in sorted([*(root / "engine" / "tools").rglob("*.py"), *(root / "engine" / "chat").rglob("*.py")]):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return {"parley": str(root), "engine_sha256": digest.hexdigest()[:16]}


def resolve(model: str) -> Path:
    """``starter``, ``pack:ID`` (or a bare pack id) or a GGUF path, as the file it names."""
    if model == "starter":
        from parley.engine.modelfiles.defaults import default_chat_model_path

        return default_chat_model_path()
    if model.endswith(".gguf"):
        return Path(model)
    from parley.engine.library.packs import find_pack, pack_path

    return pack_path(find_pack(model.removeprefix("pack:")))


def chosen(only: str | None, limit: int | None, kinds: list[str] | None = None) -> list[Request]:
    """The requests of group ``only`` (all by default) and of ``kinds`` (all by default);
    ``limit``: that many, spread evenly over them (a quick look at every kind)."""
    pool = [r for r in REQUESTS if (only is None or r.group == only) and (not kinds or r.kind in kinds)]
    if limit is None or limit >= len(pool):
        return pool
    return [pool[i * len(pool) // limit] for i in range(limit)]


# --------------------------------------------------------------------------- one model (a worker process)


class Timeline:
    """When the words of a turn came, from its start: the first piece, the first piece the voice
    would speak (the app's early cut), the first whole sentence; the call's name known; a
    step's end; and the same marks for the words after the first step (the answer)."""

    def __init__(self) -> None:
        from parley.engine.voice.sentences import SentenceSplitter

        self.t0 = time.perf_counter()
        self.marks: dict[str, float] = {}
        self._sound, self._sentence, self._answer = SentenceSplitter(), SentenceSplitter(early=()), SentenceSplitter()
        self._after_step = False

    def _mark(self, key: str) -> None:
        self.marks.setdefault(key, round(time.perf_counter() - self.t0, 3))

    def text(self, piece: str) -> None:
        if piece.strip():
            self._mark("first_piece")
        if self._sound.push(piece):
            self._mark("first_sound")
        if self._sentence.push(piece):
            self._mark("first_sentence")
        if self._after_step:
            if self._answer.push(piece):
                self._mark("answer_sound")

    def step(self, step: Any) -> None:
        if step.status == "running":
            if step.name:
                self._mark("call_named")
        else:
            self._after_step = True
            self._mark("step_done")

    def finish(self) -> dict[str, float]:
        """The marks, the words that never reached a cut spoken at the end (as the app flushes)."""
        for key, splitter in (("first_sound", self._sound), ("first_sentence", self._sentence)):
            if key not in self.marks and splitter.flush():
                self._mark(key)
        if self._after_step and "answer_sound" not in self.marks and self._answer.flush():
            self._mark("answer_sound")
        self._mark("end")
        return dict(self.marks)


class Servers:
    """The pantry (stdio) and the office (Streamable HTTP) behind an ``McpHub``."""

    def __init__(self, reserved: list[str]) -> None:
        self.reserved = reserved
        self.restarts = -1
        self.start()

    def start(self) -> None:
        from parley.engine.tools.mcp.client import McpHub
        from tests.support.mcp_servers import Office, pantry_config

        self.office = Office()
        self.hub = McpHub([pantry_config(), self.office.config()], reserved_names=self.reserved)
        self.hub.start()
        ready = self.hub.wait_ready(60)
        self.tools = self.hub.tools()
        names = sorted(t.spec.name for t in self.tools)
        if not ready or names != sorted(MCP_TOOLS):
            states = "; ".join(s.describe() for s in self.hub.statuses())
            self.close()
            raise SystemExit(f"the MCP test servers did not start as expected: {states}; tools {names}")
        self.restarts += 1

    def restart(self) -> None:
        self.close()
        self.start()

    def close(self) -> None:
        self.hub.close()
        self.office.close()


def _stats(session: Any) -> list[dict[str, Any]]:
    return [
        {k: round(v, 4) if isinstance(v, float) else v for k, v in dataclasses.asdict(s).items()} for s in session.stats
    ]


def run_model(name: str, threads: int | None, requests: list[Request], direct: bool) -> dict[str, Any]:
    from parley.engine.chat.model import ChatModel, ChatSession, SamplingParams
    from parley.engine.chat.system_prompt import default_system_prompt
    from parley.engine.tools.tool import Toolbox
    from parley.engine.tools.turn import run_turn

    path = resolve(name)
    plain_prompt = system = default_system_prompt()
    params = SamplingParams(temperature=0, max_tokens=MAX_TOKENS)
    world = make_world()
    reserved = [t.spec.name for t in world.builtin_tools()]
    servers = Servers(reserved)
    rows: list[dict[str, Any]] = []
    started = time.perf_counter()
    try:
        model = ChatModel(path, device="cpu", n_ctx=N_CTX, threads=threads)
        plain = ChatModel(path, device="cpu", n_ctx=N_CTX, threads=threads) if direct else None
        load_s = time.perf_counter() - started

        def toolbox() -> Toolbox:
            return Toolbox([*world.builtin_tools(), *servers.tools])

        declared = toolbox().declarations()
        prefix = {}
        for key, on, prompt in (("tools", model, system), ("plain", plain, plain_prompt)):
            if on is None:
                continue
            session = ChatSession(on, prompt)
            t = time.perf_counter()
            tokens = session.prefill()
            prefix[key] = {"tokens": tokens, "seconds": round(time.perf_counter() - t, 3)}

        for index, request in enumerate(requests, 1):
            box = toolbox()
            if box.declarations() != declared:
                raise SystemExit("the tools' declarations changed between requests (the MCP servers' restart?)")
            session = ChatSession(model, system)
            read_before = session.prefill()  # 0: the prefix is in the cache already
            asks: list[str] = []

            def ask(call: Any, asks: list[str] = asks) -> bool:
                asks.append(call.describe())
                return True

            timeline = Timeline()
            error = ""
            try:
                result = run_turn(
                    session, box, request.text, params, ask=ask, on_text=timeline.text, on_step=timeline.step
                )
                text, steps = result.text, result.steps
            except Exception as exc:  # noqa: BLE001  (one request's failure is its row's, not the run's)
                error, text, steps = f"{type(exc).__name__}: {exc}", "", []
            marks = timeline.finish()
            calls = [
                {
                    "name": s.name,
                    "arguments": s.arguments,
                    "status": s.status,
                    "source": s.source,
                    "result": s.result[:400],
                    "seconds": s.seconds,
                }
                for s in steps
            ]
            row: dict[str, Any] = {
                "kind": request.kind,
                "group": request.group,
                "request": request.text,
                "expected_calls": request.shown(),
                "expected_answer": request.expected,
                "calls": calls,
                "text": text,
                "error": error,
                "asks": asks,
                "prefix_read": read_before,
                "cues": _cues(box, request),
                "marks": marks,
                "stats": _stats(session),
            }
            if direct and plain is not None and request.calls:
                row["direct"] = _direct(plain, plain_prompt, request.text, params)
            row.update(score(request, [MadeCall(c["name"], c["arguments"], c["status"]) for c in calls], text, world))
            rows.append(row)
            print(_progress(name, index, len(requests), row), file=sys.stderr, flush=True)
            if any(c["name"] in ACTING_MCP_TOOLS and c["status"] == "done" for c in calls):
                servers.restart()  # the next request sees the servers' data as it was
        template = model.tool_template() is not None
        used_threads = model.threads
        model.close()
        if plain is not None:
            plain.close()
    finally:
        servers.close()
    return {
        "model": name,
        **engine_state(),
        "file": str(path),
        "size": path.stat().st_size,
        "threads": used_threads,
        "tool_template": template,
        "load_s": round(load_s, 2),
        "prefix": prefix,
        "server_restarts": servers.restarts,
        "seconds": round(time.perf_counter() - started, 1),
        "rows": rows,
    }


def _cues(box: Any, request: Request) -> dict[str, Any]:
    """What the toolbox's cues say of the request: the path the turn
    takes ("forced": a call of a tool they are sure of; "offered": the tools that may be wanted
    described with the message; "plain": no tool), those tools, and the expected tools they
    rule out (a call of them is not run)."""
    from parley.engine.tools.tool import NEVER, SURE

    judged = {tool.spec.name: box.relevance(tool.spec.name, request.text) for tool in box}
    sure = sorted(n for n, v in judged.items() if v >= SURE)
    maybe = sorted(n for n, v in judged.items() if NEVER < v < SURE)
    return {
        "path": "forced" if sure else "offered" if maybe else "plain",
        "sure": sure,
        "maybe": maybe,
        "expected_never": sorted(c.tool for c in request.calls if judged.get(c.tool, NEVER) <= NEVER),
    }


def _direct(plain: Any, prompt: str, text: str, params: Any) -> dict[str, Any]:
    """The same request without tools, stopped at its first whole sentence: its marks."""
    from parley.engine.backend.cancel import CancelToken
    from parley.engine.chat.model import ChatSession

    session = ChatSession(plain, prompt)
    session.prefill()
    cancel = CancelToken()
    timeline = Timeline()

    def told(piece: str) -> None:
        timeline.text(piece)
        if "first_sentence" in timeline.marks:
            cancel.cancel()

    reply = session.reply(text, params, told, cancel)
    return {"marks": timeline.finish(), "text": reply.text, "stats": _stats(session)}


def _progress(name: str, index: int, count: int, row: dict[str, Any]) -> str:
    flags = " ".join(f"{k}{'+' if row[k] else '-'}" for k in ("tool", "args", "answer"))
    calls = ", ".join(f"{c['name']}({json.dumps(c['arguments'], ensure_ascii=False)[:60]})" for c in row["calls"])
    sound = row["marks"].get("first_sound", float("nan"))
    return f"{name} {index}/{count} {flags} sound {sound:.2f}s {row['request'][:48]!r} -> {calls or 'no call'}"


# --------------------------------------------------------------------------- the report


def _pct(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.0f}%)" if whole else "-"


def _quantiles(values: list[float]) -> tuple[float, float] | None:
    if not values:
        return None
    ordered = sorted(values)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]


def _seconds(q: tuple[float, float] | None, ms: bool = False) -> str:
    if q is None:
        return "-"
    if ms:
        return f"{q[0] * 1000:.0f} / {q[1] * 1000:.0f} ms"
    return f"{q[0]:.2f} / {q[1]:.2f}"


def _breakdown(rows: list[dict[str, Any]]) -> dict[str, float]:
    """Medians of a one-call turn's parts: the first reply (prompt read and the call written),
    the tool, the result read with the answer's words up to their first sound, the call's name
    known."""
    parts: dict[str, list[float]] = {"call": [], "tool": [], "after": [], "named": []}
    for r in rows:
        stats, marks = r["stats"], r["marks"]
        if len(r["calls"]) != 1 or not stats or "answer_sound" not in marks or "step_done" not in marks:
            continue
        parts["call"].append(stats[0]["prompt_seconds"] + stats[0]["generation_seconds"])
        parts["tool"].append(r["calls"][0]["seconds"])
        parts["after"].append(marks["answer_sound"] - marks["step_done"])
        if "call_named" in marks:
            parts["named"].append(marks["call_named"])
    return {k: statistics.median(v) for k, v in parts.items() if v}


def summarise(result: dict[str, Any]) -> dict[str, Any]:
    rows = result["rows"]
    tool_rows = [r for r in rows if r["group"] != "none"]
    none_rows = [r for r in rows if r["group"] == "none"]
    out: dict[str, Any] = {
        "model": result["model"],
        "parley": result.get("parley", "?"),
        "engine_sha256": result.get("engine_sha256", "?"),
        "threads": result["threads"],
        "prefix": result["prefix"],
        "tool_template": result["tool_template"],
        "asked": len(rows),
        "tool_requests": len(tool_rows),
        "none_requests": len(none_rows),
        "asks": sum(len(r["asks"]) for r in rows),
        "errors": sum(bool(r["error"]) for r in rows),
        "bad_calls": sum(c["status"] in ("refused", "failed") for r in rows for c in r["calls"]),
    }
    for key in ("tool", "args", "answer", "missed"):
        out[key] = sum(r[key] for r in tool_rows)
    for group in ("built-in", "mcp"):
        of = [r for r in tool_rows if r["group"] == group]
        out[group] = {"n": len(of), **{k: sum(r[k] for r in of) for k in ("tool", "args", "answer", "missed")}}
    out["needless"] = sum(r["needless"] for r in none_rows)
    out["none_answer"] = sum(r["answer"] for r in none_rows)
    out["by_kind"] = {
        kind: [len(of), *(sum(r[k] for r in of) for k in ("tool", "args", "answer"))]
        for kind in KINDS
        if (of := [r for r in rows if r["kind"] == kind])
    }

    def sound(of: list[dict[str, Any]], key: str = "first_sound") -> tuple[float, float] | None:
        return _quantiles([r["marks"][key] for r in of if key in r["marks"]])

    latency: dict[str, Any] = {"none": sound(none_rows), "none_sentence": sound(none_rows, "first_sentence")}
    for group in ("built-in", "mcp"):
        # a one-call request that called a tool, its direct answer measured: the pairs
        paired = [
            r
            for r in tool_rows
            if r["group"] == group
            and r["kind"] != "multi"
            and r["calls"]
            and "first_sound" in r["marks"]
            and "first_sound" in r.get("direct", {}).get("marks", {})
        ]
        latency[group] = sound(paired)
        latency[f"{group}_sentence"] = sound(paired, "first_sentence")
        latency[f"{group}_direct"] = _quantiles([r["direct"]["marks"]["first_sound"] for r in paired])
        latency[f"{group}_adds"] = _quantiles(
            [r["marks"]["first_sound"] - r["direct"]["marks"]["first_sound"] for r in paired]
        )
        latency[f"{group}_pairs"] = len(paired)
        latency[f"{group}_parts"] = _breakdown([r for r in tool_rows if r["group"] == group and r["kind"] != "multi"])
    for group in GROUPS:
        of = [r for r in rows if r["group"] == group]
        latency[f"{group}_message_tokens"] = _quantiles([r["stats"][0]["prompt_tokens"] for r in of if r["stats"]])
    out["latency"] = latency
    out["paths"] = {
        group: {
            path: sum(r.get("cues", {}).get("path") == path for r in rows if r["group"] == group)
            for path in ("forced", "offered", "plain")
        }
        for group in GROUPS
    }
    gen = [(s["generated_tokens"], s["generation_seconds"]) for r in rows for s in r["stats"]]
    tokens, seconds = sum(g[0] for g in gen), sum(g[1] for g in gen)
    out["tokens_per_s"] = tokens / seconds if seconds else 0.0
    return out


def print_tables(summaries: list[dict[str, Any]], header: dict[str, Any]) -> None:
    print(
        f"\n{header['date']}: {header['cpu']}, {header['cores']} cores; "
        f"{header['requests']} requests; greedy, at most {MAX_TOKENS} tokens a reply, context {N_CTX}"
    )
    engines = {(s.get("parley", "?"), s.get("engine_sha256", "?")) for s in summaries}
    print("engine: " + "; ".join(f"{where} (sources {digest})" for where, digest in sorted(engines)))
    print("\nAccuracy (tool requests: right tool / right tool and arguments / answer right; no tool called)\n")
    head = [
        "model",
        "threads",
        "right tool",
        "right tool + args",
        "answer right",
        "no call",
        "built-in: tool / args / answer",
        "MCP: tool / args / answer",
        "needless calls",
        "no-tool answer right",
        "asks",
        "refused or failed calls",
    ]
    print(" | ".join(head))
    print(" | ".join("---" for _ in head))
    for s in summaries:
        n = s["tool_requests"]
        cells = [
            s["model"],
            str(s["threads"]),
            _pct(s["tool"], n),
            _pct(s["args"], n),
            _pct(s["answer"], n),
            str(s["missed"]),
            *(
                f"{g['tool']} / {g['args']} / {g['answer']} of {g['n']}" if g["n"] else "-"
                for g in (s["built-in"], s["mcp"])
            ),
            _pct(s["needless"], s["none_requests"]),
            _pct(s["none_answer"], s["none_requests"]),
            str(s["asks"]),
            str(s["bad_calls"]),
        ]
        print(" | ".join(cells))

    print(
        "\nFirst sound, s from the message (p50 / p90); a step adds: the tool turn's first sound minus the same "
        "request's without tools (p50 / p90, one-call requests)\n"
    )
    head = [
        "model",
        "prefix, one-off",
        "no tool",
        "built-in",
        "same, no tools",
        "a built-in step adds",
        "MCP",
        "same, no tools",
        "an MCP step adds",
        "first sentence p50: no tool / built-in",
        "tok/s",
    ]
    print(" | ".join(head))
    print(" | ".join("---" for _ in head))
    for s in summaries:
        lat = s["latency"]
        pre = s["prefix"].get("tools", {})
        cells = [
            s["model"],
            f"{pre.get('tokens', 0)} tokens, {pre.get('seconds', 0):.1f} s",
            _seconds(lat["none"]),
            _seconds(lat["built-in"]),
            _seconds(lat["built-in_direct"]),
            _seconds(lat["built-in_adds"], ms=True) + f" (n={lat['built-in_pairs']})",
            _seconds(lat["mcp"]),
            _seconds(lat["mcp_direct"]),
            _seconds(lat["mcp_adds"], ms=True) + f" (n={lat['mcp_pairs']})",
            " / ".join(f"{q[0]:.2f}" if q else "-" for q in (lat["none_sentence"], lat["built-in_sentence"])),
            f"{s['tokens_per_s']:.1f}",
        ]
        print(" | ".join(cells))

    print("\nA one-call step's parts, p50 s: the first reply (the message read, the call written), the tool, ")
    print("the result read and the answer's words to their first sound; the call's name known (from the message)\n")
    head = ["model", "built-in: reply with the call / tool / to the sound / name known", "MCP: the same"]
    print(" | ".join(head))
    print(" | ".join("---" for _ in head))
    for s in summaries:
        cells = [s["model"]]
        for group in ("built-in", "mcp"):
            p = s["latency"][f"{group}_parts"]
            cells.append(
                " / ".join(f"{p[k]:.2f}" if k in p else "-" for k in ("call", "tool", "after", "named")) if p else "-"
            )
        print(" | ".join(cells))

    if any(sum(p.values()) for s in summaries for p in s["paths"].values()):
        print("\nThe path the cues chose (forced call / tools offered with the message / no tool), and the tokens")
        print("read for the message (p50 / p90: the message, and the tools offered with it)\n")
        head = ["model", *(f"{g}: forced / offered / plain" for g in GROUPS), *(f"{g}: tokens read" for g in GROUPS)]
        print(" | ".join(head))
        print(" | ".join("---" for _ in head))
        for s in summaries:
            paths = [" / ".join(str(s["paths"][g][p]) for p in ("forced", "offered", "plain")) for g in GROUPS]
            tokens = [f"{q[0]:.0f} / {q[1]:.0f}" if (q := s["latency"][f"{g}_message_tokens"]) else "-" for g in GROUPS]
            print(" | ".join([s["model"], *paths, *tokens]))

    print("\nPer kind: right tool / right tool and arguments / answer right, of n\n")
    head = ["kind", "group", *(s["model"] for s in summaries)]
    print(" | ".join(head))
    print(" | ".join("---" for _ in head))
    groups = {r.kind: r.group if r.kind != "multi" else "both" for r in REQUESTS}
    for kind in KINDS:
        if not any(kind in s["by_kind"] for s in summaries):
            continue
        cells = [kind, groups[kind]]
        for s in summaries:
            got = s["by_kind"].get(kind)
            cells.append(f"{got[1]} / {got[2]} / {got[3]} of {got[0]}" if got else "-")
        print(" | ".join(cells))

    print("\nGoals (issue 41: the 1.5B on a 2-core machine)\n")
    for s in summaries:
        n, m = s["tool_requests"], s["none_requests"]
        adds = s["latency"]["built-in_adds"]
        marks = []
        if n:
            share = s["args"] / n
            verdict = "met" if share >= GOALS["tool_args"] else "not met"
            marks.append(f"right tool and arguments {share:.0%} ({verdict})")
        if m:
            share = s["needless"] / m
            marks.append(f"needless calls {share:.0%} ({'met' if share <= GOALS['needless'] else 'not met'})")
        if adds:
            verdict = "met" if adds[0] <= GOALS["built_in_adds"] else "not met"
            marks.append(f"a built-in step adds {adds[0] * 1000:.0f} ms ({verdict})")
        print(f"- {s['model']}: " + "; ".join(marks))


def print_failures(result: dict[str, Any]) -> None:
    rows = [r for r in result["rows"] if not (r["tool"] and r["args"] and r["answer"]) or r["error"]]
    print(f"\n## {result['model']}: {len(rows)} requests with a failure\n")
    for r in rows:
        calls = "; ".join(
            f"{c['name']}({json.dumps(c['arguments'], ensure_ascii=False)})"
            + ("" if c["status"] == "done" else f" [{c['status']}]")
            for c in r["calls"]
        )
        print(f"- [{r['kind']}] {r['request']!r}")
        print(f"  expected: {r['expected_calls']} -> {r['expected_answer']!r}")
        print(f"  got: {calls or 'no call'} -> {' '.join(r['text'].split())[:240]!r}")
        print(f"  why: {'; '.join(r['why']) or r['error']}" + (f" ({r['error']})" if r["error"] and r["why"] else ""))


def rescore(path: Path, show_all: bool) -> int:
    """The tables of a saved run, every row scored again with today's checks."""
    saved = json.loads(path.read_text(encoding="utf-8"))
    requests = by_text()
    world = make_world()
    for result in saved["results"]:
        for row in result["rows"]:
            request = requests[row["request"]]
            made = [MadeCall(c["name"], c["arguments"], c["status"]) for c in row["calls"]]
            row.update(score(request, made, row["text"], world))
            row["expected_calls"], row["expected_answer"] = request.shown(), request.expected
    print_tables([summarise(r) for r in saved["results"]], saved["header"])
    for result in saved["results"]:
        if show_all or "1.5b" in result["model"]:
            print_failures(result)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", nargs="+", default=list(DEFAULT_MODELS), help="starter, pack:ID, GGUF files")
    parser.add_argument("--limit", type=int, help="only N requests, spread evenly over the set (a quick look)")
    parser.add_argument("--only", choices=GROUPS, help="only the requests of one group")
    parser.add_argument("--kinds", nargs="+", choices=KINDS, help="only the requests of these kinds")
    parser.add_argument("--json", type=Path, help="write every request's outcome and the summaries here")
    parser.add_argument("--threads", type=int, help="CPU threads (default: Parley's default)")
    parser.add_argument("--no-direct", action="store_true", help="skip the same requests without tools (faster)")
    parser.add_argument("--show-failures", action="store_true", help="list the failures of every model")
    parser.add_argument("--rescore", type=Path, help="score the rows saved by an earlier --json run again")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--worker-out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.rescore:
        return rescore(args.rescore, args.show_failures)
    requests = chosen(args.only, args.limit, args.kinds)
    if args.worker:
        result = run_model(args.worker, args.threads, requests, direct=not args.no_direct)
        args.worker_out.write_text(json.dumps(result, ensure_ascii=False), encoding="utf-8")
        return 0
    header = {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="minutes"),
        "cpu": processor(),
        "cores": cores(),
        "requests": len(requests),
        "only": args.only,
        "kinds": args.kinds,
        "limit": args.limit,
    }
    print(f"{header['cpu']}, {header['cores']} cores; {len(requests)} requests", file=sys.stderr)
    results = []
    with tempfile.TemporaryDirectory(prefix="bench-tools-") as folder:
        for name in args.models:
            out = Path(folder) / "result.json"
            command = [sys.executable, __file__, "--worker", name, "--worker-out", str(out)]
            command += ["--threads", str(args.threads)] if args.threads else []
            command += ["--limit", str(args.limit)] if args.limit else []
            command += ["--only", args.only] if args.only else []
            command += ["--kinds", *args.kinds] if args.kinds else []
            command += ["--no-direct"] if args.no_direct else []
            started = time.perf_counter()
            done = subprocess.run(command, cwd=REPO, check=False)
            if done.returncode != 0:
                print(f"{name}: the worker failed (exit {done.returncode})", file=sys.stderr)
                continue
            results.append(json.loads(out.read_text(encoding="utf-8")))
            print(f"{name}: {time.perf_counter() - started:.0f} s", file=sys.stderr)
    from parley.engine.chat.system_prompt import default_system_prompt

    header["system_prompt"] = default_system_prompt()
    summaries = [summarise(r) for r in results]
    print_tables(summaries, header)
    for result in results:
        if args.show_failures or "1.5b" in result["model"]:
            print_failures(result)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        document = {"header": header, "summaries": summaries, "results": results}
        args.json.write_text(json.dumps(document, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0 if len(results) == len(args.models) else 1


if __name__ == "__main__":
    sys.exit(main())
