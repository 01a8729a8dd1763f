#!/usr/bin/env python3
"""``parley serve`` against llama-server and whisper-server: same model, same pinned sources.

Not a test: it prints its figures (and writes them as JSON with ``--json FILE``).

Both chat servers run at once, each with ``--parallel`` equal to the number of clients of the
level being measured, the same per-request context, the same threads, greedy decoding and
``ignore_eos`` (so every reply is exactly ``--tokens`` long).  For each level (1, 4 and 8
concurrent streaming clients by default) the load goes to one server, then the other, for
``--rounds`` rounds, so that other load on the machine hits both alike.  Each server's figures
are its medians; the ratios (Parley / llama-server; for TTFT below 1 is faster) are the medians
of the per-round ratios, which cancel the slow swings in a shared machine's speed.
Each round's prompts are new (the round number is in them), so neither server answers a prompt
from its cache.  Figures: aggregate generated tokens per second (all clients' tokens over the
wall time from the first request to the last token) and the median time to first token.

Transcription: requests per second for ``--speech-requests`` uploads of whisper.cpp's
``jfk.wav`` (11 s), two clients at a time, to ``parley serve`` and to whisper-server (run
with ``-nf``, no temperature fallback, as Parley decodes).  Parley's figure includes what its
transcriptions do beyond whisper-server's: the silence cut and the encoder context sized to
the clip.

llama-server and whisper-server are built from the same pinned sources with
``native/build.py --server-tools`` (bench only; several minutes the first time).

    .venv/bin/python bench/bench_serve.py [--levels 1,4,8] [--tokens 128] [--rounds 3] [--threads 2]
    .venv/bin/python bench/bench_serve.py --levels "" --speech-requests 0 --features --model QWEN.gguf

``--features`` (issue 31) adds, on the same model beside llama-server ``--jinja``: the share of
the 60 requests of ``tool_call_set.py`` answered with the right call; generation tokens/s held
to a ``json_schema`` (eight people as JSON) against free generation of as many tokens, on
each server; and texts embedded per second, 32 per request, against llama-server
``--embedding --pooling mean`` (``--embedding-model``, else the chat model's weights).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench.tool_call_set import TOOLS, cases, score
from parley.engine.library.embedding_models import embedding_model_path
from parley.engine.modelfiles.defaults import default_chat_model_path, default_speech_model_path

REPO = Path(__file__).resolve().parents[1]

START_TIMEOUT = 300.0  # seconds for a server to load its model and answer
REQUEST_TIMEOUT = 600.0
SYSTEM = "You are a helpful assistant. Answer in detail."
TOPICS = ["the sea", "mountains", "a city at night", "the moon", "trains", "bread", "winter", "music", "rivers"]


def server_tools() -> Path:
    built = subprocess.run(
        [sys.executable, str(REPO / "native" / "build.py"), "--server-tools"],
        check=True,
        capture_output=True,
        text=True,
    )
    from native.build import tools_with_cpu_variant
    from parley.engine.backend import devices, native

    native.load_backends()  # the servers load the CPU variant Parley loads (AMX in a VM: not the best-scoring)
    return tools_with_cpu_variant(Path(built.stdout.strip().splitlines()[-1]), devices.cpu_variant())


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running(cmd: list[str], port: int, ready_path: str, log: Path) -> Iterator[int]:
    """Start a server process and wait until ``ready_path`` answers 200; stop it afterwards."""
    with log.open("w") as out:
        proc = subprocess.Popen(
            cmd, stdout=out, stderr=subprocess.STDOUT, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)}
        )
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"{cmd[0]} exited with {proc.returncode}; see {log}")
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                conn.request("GET", ready_path)
                if conn.getresponse().status == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"{cmd[0]} did not start; see {log}")
            time.sleep(0.2)
        yield port
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


# --------------------------------------------------------------------------- chat load


def stream_one(port: int, prompt: str, tokens: int) -> tuple[float, float, int]:
    """One streaming chat request: (time to first content, end time, generated tokens as its
    usage says)."""
    body = {
        "model": "m",
        "messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": prompt}],
        "temperature": 0,
        "max_tokens": tokens,
        "ignore_eos": True,
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT)
    started = time.perf_counter()
    conn.request("POST", "/v1/chat/completions", body=json.dumps(body), headers={"Content-Type": "application/json"})
    response = conn.getresponse()
    if response.status != 200:
        raise RuntimeError(f"port {port}: HTTP {response.status}: {response.read()[:300]!r}")
    first, generated = None, 0
    for line in response:
        if not line.startswith(b"data: ") or line.startswith(b"data: [DONE]"):
            continue
        event = json.loads(line[6:])
        if event.get("usage"):
            generated = int(event["usage"]["completion_tokens"])
        for choice in event.get("choices", []):
            if choice.get("delta", {}).get("content"):
                first = first or time.perf_counter()
    ended = time.perf_counter()
    conn.close()
    if generated != tokens:
        raise RuntimeError(f"port {port}: {generated} tokens generated, not {tokens}")
    return (first or ended) - started, ended, generated


def chat_load(port: int, clients: int, tokens: int, round_no: int) -> dict[str, float]:
    """``clients`` streaming requests at once: aggregate tokens/s and median time to first token."""
    results: list[tuple[float, float, int]] = [(0.0, 0.0, 0)] * clients
    errors: list[BaseException] = []
    barrier = threading.Barrier(clients + 1)

    def client(i: int) -> None:
        prompt = f"(round {round_no}, {i}) Write a long story about {TOPICS[i % len(TOPICS)]}."
        barrier.wait()
        try:
            results[i] = stream_one(port, prompt, tokens)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    barrier.wait()
    started = time.perf_counter()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    generated = sum(r[2] for r in results)
    wall = max(r[1] for r in results) - started
    return {"tokens_per_s": generated / wall, "ttft_s": statistics.median(r[0] for r in results), "tokens": generated}


# --------------------------------------------------------------------------- transcription load


def multipart(fields: dict[str, str], file: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode() for k, v in fields.items()
    ]
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="clip.wav"\r\n'
        "Content-Type: audio/wav\r\n\r\n".encode()
        + file
        + b"\r\n"
    )
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def speech_load(port: int, path: str, clip: bytes, requests: int, clients: int = 2) -> tuple[float, str]:
    """Requests per second for ``requests`` uploads, ``clients`` at a time; and one text."""
    body, content_type = multipart({"response_format": "json", "temperature": "0"}, clip)
    left = list(range(requests))
    texts: list[str] = []
    lock = threading.Lock()

    def client() -> None:
        while True:
            with lock:
                if not left:
                    return
                left.pop()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT)
            conn.request("POST", path, body=body, headers={"Content-Type": content_type})
            response = conn.getresponse()
            answer = response.read()
            conn.close()
            if response.status != 200:
                raise RuntimeError(f"port {port}: HTTP {response.status}: {answer[:300]!r}")
            texts.append(json.loads(answer)["text"].strip())

    threads = [threading.Thread(target=client) for _ in range(clients)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return requests / (time.perf_counter() - started), texts[0] if texts else ""


# --------------------------------------------------------------------------- main


# --------------------------------------------------------------------------- features (issue 31)

PEOPLE_SCHEMA = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {
            "name": {"type": "string", "maxLength": 12},
            "age": {"type": "integer", "minimum": 0, "maximum": 120},
            "city": {"type": "string", "maxLength": 12},
        },
        "required": ["name", "age", "city"],
        "additionalProperties": False,
    },
    "minItems": 8,
    "maxItems": 8,
}
EMBED_TEXTS = [
    f"Sentence number {i} is about {TOPICS[i % len(TOPICS)]} and what people think of it." for i in range(64)
]


def post_json(port: int, path: str, body: dict[str, Any]) -> dict[str, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT)
    try:
        conn.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        data = response.read()
        if response.status != 200:
            raise RuntimeError(f"port {port}: HTTP {response.status}: {data[:300]!r}")
        answer: dict[str, Any] = json.loads(data)
        return answer
    finally:
        conn.close()


def tool_accuracy(ports: dict[str, int]) -> dict[str, dict[str, float]]:
    """The tool-call set's score on each server (by name): the share of requests whose first
    call names the right function, and whose arguments are right too.  The servers take each
    request in turn, and the running counts are printed every 10 requests, so that a run cut
    short still compares them."""
    names = dict.fromkeys(ports, 0)
    full = dict.fromkeys(ports, 0)
    for i, (message, name, arguments) in enumerate(cases(), 1):
        for label, port in ports.items():
            reply = post_json(
                port,
                "/v1/chat/completions",
                {
                    "model": "m",
                    "messages": [{"role": "user", "content": message}],
                    "tools": TOOLS,
                    "temperature": 0,
                    "max_tokens": 120,
                },
            )
            right_name, right = score(reply["choices"][0]["message"].get("tool_calls"), name, arguments)
            names[label] += right_name
            full[label] += right
        if i % 10 == 0:
            counts = ", ".join(f"{label} {names[label]} and {full[label]}" for label in ports)
            print(f"tool calls, {i} requests: name right, and name and arguments right: {counts}", flush=True)
    n = len(cases())
    return {label: {"calls": n, "name_right": names[label] / n, "all_right": full[label] / n} for label in ports}


def generation_speed(port: int, schema: dict[str, Any] | None, tokens: int) -> tuple[float, int]:
    """Tokens/s from the first streamed token to the last, and the tokens generated: held to
    ``schema``, or free for ``tokens`` tokens."""
    body: dict[str, Any] = {
        "model": "m",
        "messages": [{"role": "user", "content": "List eight people with their name, age and city, as JSON."}],
        "temperature": 0,
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    if schema is not None:
        body["response_format"] = {"type": "json_schema", "json_schema": {"name": "people", "schema": schema}}
        body["max_tokens"] = 1000
    else:
        body |= {"max_tokens": tokens, "ignore_eos": True}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT)
    conn.request("POST", "/v1/chat/completions", body=json.dumps(body), headers={"Content-Type": "application/json"})
    response = conn.getresponse()
    first = None
    generated = 0
    for line in response:
        if not line.startswith(b"data: ") or line.startswith(b"data: [DONE]"):
            continue
        event = json.loads(line[6:])
        if event.get("usage"):
            generated = int(event["usage"]["completion_tokens"])
        if any(c.get("delta", {}).get("content") for c in event.get("choices", [])):
            first = first or time.perf_counter()
    ended = time.perf_counter()
    conn.close()
    return (generated - 1) / (ended - (first or ended)), generated


def embedding_speed(port: int, batch: int, rounds: int) -> float:
    """Texts embedded per second, ``batch`` texts per request, one request at a time."""
    started = time.perf_counter()
    done = 0
    for r in range(rounds):
        for start in range(0, len(EMBED_TEXTS), batch):
            texts = [f"{t} ({r})" for t in EMBED_TEXTS[start : start + batch]]
            answer = post_json(port, "/v1/embeddings", {"model": "m", "input": texts})
            done += len(answer["data"])
    return done / (time.perf_counter() - started)


def feature_figures(args: argparse.Namespace, tools: Path, model: Path, logs: Path) -> dict[str, Any]:
    """Tool-call accuracy, json_schema speed against free, embeddings/s: Parley beside
    llama-server (--jinja; --embedding) on the same model."""
    figures: dict[str, Any] = {}
    parley_port, llama_port = free_port(), free_port()
    parley_cmd = [sys.executable, "-m", "parley", "serve", "--port", str(parley_port), "--model", str(model)]
    parley_cmd += ["--speech-model", "none", "--voice", "none", "--threads", str(args.threads), "--parallel", "1"]
    parley_cmd += ["--ctx", "2048", "--device", "cpu"]
    llama_cmd = [str(tools / "llama-server"), "-m", str(model), "--port", str(llama_port), "-t", str(args.threads)]
    llama_cmd += ["-tb", str(args.threads), "-np", "1", "-c", "2048", "-ngl", "0", "--jinja", "--no-webui"]
    with (
        running(parley_cmd, parley_port, "/v1/models", logs / "parley-features.log"),
        running(llama_cmd, llama_port, "/health", logs / "llama-server-features.log"),
    ):
        if args.tool_calls:
            figures["tool_calls"] = tool_accuracy({"parley": parley_port, "llama-server": llama_port})
            for name, got in figures["tool_calls"].items():
                print(
                    f"tool calls, {got['calls']} requests  {name:<13} name right {got['name_right']:.0%}, "
                    f"name and arguments right {got['all_right']:.0%}",
                    flush=True,
                )
        runs: dict[str, list[float]] = {"parley free": [], "parley schema": [], "llama free": [], "llama schema": []}
        for _ in range(args.rounds):
            for label, port in (("parley", parley_port), ("llama", llama_port)):
                held, count = generation_speed(port, PEOPLE_SCHEMA, 0)
                free, _ = generation_speed(port, None, count)
                runs[f"{label} schema"].append(held)
                runs[f"{label} free"].append(free)
        medians = {k: statistics.median(v) for k, v in runs.items()}
        figures["json_schema"] = {"runs": runs, "medians": medians}
        for label in ("parley", "llama"):
            free, held = medians[f"{label} free"], medians[f"{label} schema"]
            print(f"json_schema  {label:<7} free {free:6.1f} tok/s, held {held:6.1f} tok/s ({held / free - 1:+.0%})")
        print(f"json_schema held: parley / llama-server {medians['parley schema'] / medians['llama schema']:.2f}x")
    # a catalog name (all-minilm-l6-v2) is its converted GGUF, which llama-server is given too
    embed_model = embedding_model_path(args.embedding_model) if args.embedding_model else model
    parley_cmd = [sys.executable, "-m", "parley", "serve", "--port", str(parley_port), "--model", "none"]
    parley_cmd += ["--speech-model", "none", "--voice", "none", "--threads", str(args.threads), "--device", "cpu"]
    parley_cmd += ["--embedding-model", str(embed_model)]
    llama_cmd = [
        str(tools / "llama-server"),
        "-m",
        str(embed_model),
        "--port",
        str(llama_port),
        "-t",
        str(args.threads),
    ]
    llama_cmd += ["-tb", str(args.threads), "-ngl", "0", "--embedding", "--pooling", "mean", "--no-webui"]
    llama_cmd += ["-c", "2048", "-b", "2048", "-ub", "2048"]
    with (
        running(parley_cmd, parley_port, "/v1/models", logs / "parley-embed.log"),
        running(llama_cmd, llama_port, "/health", logs / "llama-server-embed.log"),
    ):
        embedding_speed(parley_port, 8, 1)  # warm-up
        embedding_speed(llama_port, 8, 1)
        ours = statistics.median(embedding_speed(parley_port, 32, 1) for _ in range(args.rounds))
        theirs = statistics.median(embedding_speed(llama_port, 32, 1) for _ in range(args.rounds))
    figures["embeddings"] = {"model": str(embed_model), "parley_per_s": ours, "llama_server_per_s": theirs}
    print(
        f"embeddings ({embed_model.name}, 32 texts per request): parley {ours:.1f}/s, llama-server {theirs:.1f}/s, "
        f"ratio {ours / theirs:.2f}x"
    )
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--levels", default="1,4,8", help="concurrent streaming clients (default: 1,4,8)")
    parser.add_argument("--tokens", type=int, default=128, help="tokens per reply (default: 128)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds per level (default: 3)")
    parser.add_argument("--threads", type=int, default=2, help="CPU threads of each server (default: 2)")
    parser.add_argument("--ctx", type=int, default=512, help="context tokens per request (default: 512)")
    parser.add_argument("--model", default=None, help="GGUF chat model (default: SmolLM2-135M)")
    parser.add_argument("--speech-requests", type=int, default=8, help="transcriptions per server (0: none)")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures to this file")
    parser.add_argument(
        "--features", action="store_true", help="also: tool-call accuracy, json_schema speed, embeddings/s"
    )
    parser.add_argument("--no-tool-calls", dest="tool_calls", action="store_false", help="features without the set")
    parser.add_argument("--embedding-model", default=None, help="GGUF for the embeddings figure (default: --model)")
    args = parser.parse_args()
    levels = [int(x) for x in args.levels.split(",") if x]
    tools = server_tools()
    model = Path(args.model) if args.model else default_chat_model_path()
    logs = Path(os.environ.get("TMPDIR", "/tmp")) / "parley-bench-serve"
    logs.mkdir(exist_ok=True)
    figures: dict[str, Any] = {"model": str(model), "threads": args.threads, "tokens": args.tokens, "levels": {}}
    print(f"model {model.name}, {args.threads} threads, {args.tokens} tokens per reply, {args.rounds} rounds")
    print(f"{'clients':>7}  {'server':<13} {'tokens/s':>9} {'TTFT (s)':>9}   ratio tokens/s, TTFT")
    for level in levels:
        parley_port, llama_port = free_port(), free_port()
        parley_cmd = [sys.executable, "-m", "parley", "serve", "--port", str(parley_port), "--model", str(model)]
        parley_cmd += ["--speech-model", "none", "--threads", str(args.threads), "--parallel", str(level)]
        parley_cmd += ["--ctx", str(args.ctx), "--device", "cpu"]
        llama_cmd = [str(tools / "llama-server"), "-m", str(model), "--port", str(llama_port), "-t", str(args.threads)]
        llama_cmd += ["-tb", str(args.threads), "-np", str(level), "-c", str(args.ctx * level), "-ngl", "0"]
        llama_cmd += ["--no-kv-unified", "--no-webui"]
        runs: dict[str, list[dict[str, float]]] = {"parley": [], "llama-server": []}
        with (
            running(parley_cmd, parley_port, "/v1/models", logs / "parley.log"),
            running(llama_cmd, llama_port, "/health", logs / "llama-server.log"),
        ):
            chat_load(parley_port, level, 4, -1)  # warm-up
            chat_load(llama_port, level, 4, -1)
            for r in range(args.rounds):
                runs["parley"].append(chat_load(parley_port, level, args.tokens, r))
                runs["llama-server"].append(chat_load(llama_port, level, args.tokens, r))
        medians = {
            name: {k: statistics.median(run[k] for run in rs) for k in ("tokens_per_s", "ttft_s")}
            for name, rs in runs.items()
        }
        # Each round's two runs follow each other, so the ratio within a round cancels the slow
        # swings in this machine's speed (a shared VM's can reach 20%); its median is the figure.
        paired = {
            k: statistics.median(a[k] / b[k] for a, b in zip(runs["parley"], runs["llama-server"], strict=True))
            for k in ("tokens_per_s", "ttft_s")
        }
        figures["levels"][level] = {"runs": runs, "medians": medians, "paired_ratios": paired}
        for name, m in medians.items():
            ratio = f"   {paired['tokens_per_s']:.2f}x, {paired['ttft_s']:.2f}x" if name == "parley" else ""
            print(f"{level:>7}  {name:<13} {m['tokens_per_s']:>9.1f} {m['ttft_s']:>9.3f}{ratio}", flush=True)
    if args.speech_requests:
        clip_path = tools.parent / "src" / "whisper.cpp" / "samples" / "jfk.wav"
        speech = default_speech_model_path()
        clip = clip_path.read_bytes()
        parley_port, whisper_port = free_port(), free_port()
        parley_cmd = [sys.executable, "-m", "parley", "serve", "--port", str(parley_port), "--model", "none"]
        parley_cmd += ["--speech-model", str(speech), "--threads", str(args.threads), "--device", "cpu"]
        whisper_cmd = [str(tools / "whisper-server"), "-m", str(speech), "--port", str(whisper_port)]
        whisper_cmd += ["-t", str(args.threads), "-nf", "-ng"]
        with (
            running(parley_cmd, parley_port, "/v1/models", logs / "parley-speech.log"),
            running(whisper_cmd, whisper_port, "/", logs / "whisper-server.log"),
        ):
            speech_load(parley_port, "/v1/audio/transcriptions", clip, 1)  # warm-up
            speech_load(whisper_port, "/inference", clip, 1)
            ours, our_text = speech_load(parley_port, "/v1/audio/transcriptions", clip, args.speech_requests)
            theirs, their_text = speech_load(whisper_port, "/inference", clip, args.speech_requests)
        figures["speech"] = {"parley_rps": ours, "whisper_server_rps": theirs, "texts": [our_text, their_text]}
        print(f"transcription of jfk.wav (11 s), {args.speech_requests} requests, 2 clients:")
        print(f"  parley serve   {ours:6.2f} requests/s  {our_text!r}")
        print(f"  whisper-server {theirs:6.2f} requests/s  {their_text!r}   ratio {ours / theirs:.2f}x")
    if args.features:
        figures["features"] = feature_figures(args, tools, model, logs)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
