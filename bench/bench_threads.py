#!/usr/bin/env python3
"""Threads that follow the load (``engine.backend.cpu_load``): chat and transcription speed on an
idle machine and beside busy programs, Parley's own choice ("auto") against each fixed count.

Not a test: it prints its figures, with the processor and the cores.  Per chat model, one process
loads the model three times (auto, and each fixed count from 1 to the machine's default) and
writes ``--tokens`` greedy tokens with each, in turns, under each load:

- ``idle``: nothing else runs;
- ``1 hog`` / ``2 hogs``: one or two processes that spin at nice 0 (a build, a busy browser tab);
- ``bursty``: one that spins for 100 ms and sleeps for 100 ms (load that changes every 100 ms).

Each figure is the median of ``--rounds`` replies (tokens per second of generation).  The same for
transcription (whisper tiny.en on whisper.cpp's own 11-second JFK sample; seconds of audio per
second), for the natural voice (Piper's default voice making a 15-word sentence; seconds of
audio per second), and with ``--server`` for ``parley serve``: one server per mode (auto, and
each fixed ``--threads``), each decoding ``--clients`` streaming requests together
(``--parallel``), the aggregate tokens per second of the clients' replies (``bench_serve``'s
load), the servers taking turns, each round in another order.  The goals (issue 45): beside a
busy core, auto at least 0.9x the best fixed count; idle, at least 0.98x the default count (what
Parley used before).

    .venv/bin/python bench/bench_threads.py [--models starter pack:qwen2.5-coder-0.5b ...]
                                            [--tokens 64] [--rounds 3] [--no-speech] [--no-voice]
                                            [--server MODEL ...] [--clients 4]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LOADS = ("idle", "1 hog", "2 hogs", "bursty")

CHAT = """
import json, sys, time, statistics
from parley.engine.backend.threads import default_threads
from parley.engine.chat.model import ChatModel, ChatSession, SamplingParams
path, tokens = sys.argv[1], int(sys.argv[2])
counts = list(range(1, default_threads() + 1))
models = {"auto": ChatModel(path, device="cpu", n_ctx=1024)}
models.update({str(n): ChatModel(path, device="cpu", n_ctx=1024, threads=n) for n in counts})
params = SamplingParams(temperature=0, max_tokens=tokens, ignore_eos=True)
for line in sys.stdin:  # one command per line: a number of rounds; the answer: tokens/s per mode
    rounds = int(line)
    speeds = {name: [] for name in models}
    for _ in range(rounds):
        for name, model in models.items():
            model.clear_cache()
            reply = ChatSession(model, "You are helpful.").reply("Tell me about the moon.", params)
            speeds[name].append(reply.stats.gen_tps)
    medians = {k: statistics.median(v) for k, v in speeds.items()}
    print(json.dumps({"speeds": medians, "auto_threads": models["auto"]._decoder.threads}), flush=True)
"""

SPEECH = """
import json, sys, statistics, time
from parley.engine.audio.files import load_audio
from parley.engine.backend.threads import default_threads
from parley.engine.modelfiles.defaults import default_speech_model_path
from parley.engine.speech import SpeechModel
audio = load_audio(sys.argv[1])
seconds = len(audio) / 16000
counts = list(range(1, default_threads() + 1))
path = default_speech_model_path()
models = {"auto": SpeechModel(path, device="cpu")}
models.update({str(n): SpeechModel(path, device="cpu", threads=n) for n in counts})
for line in sys.stdin:
    rounds = int(line)
    speeds = {name: [] for name in models}
    for _ in range(rounds):
        for name, model in models.items():
            started = time.perf_counter()
            model.transcribe(audio)
            speeds[name].append(seconds / (time.perf_counter() - started))
    print(json.dumps({"speeds": {k: statistics.median(v) for k, v in speeds.items()}}), flush=True)
"""

VOICE = """
import json, sys, statistics, time
from parley.engine.voice.voices import DEFAULT_VOICE, KNOWN_VOICES
from parley.engine.voice.piper import PiperVoice
from parley.engine.backend.threads import default_threads
paths = next(v for v in KNOWN_VOICES if v.id == DEFAULT_VOICE).paths()
counts = list(range(1, min(4, default_threads()) + 1))
voices = {"auto": PiperVoice(*paths)}
voices.update({str(n): PiperVoice(*paths, threads=n) for n in counts})
text = "The moon is about three hundred and eighty four thousand kilometres away from the earth."
for line in sys.stdin:
    rounds = int(line)
    speeds = {name: [] for name in voices}
    order = list(voices.items())
    for r in range(rounds):  # each round in another order: the voice made just before slows the next
        for name, voice in order[r % len(order):] + order[:r % len(order)]:
            time.sleep(0.2)
            started = time.perf_counter()
            audio = voice.synthesize(text)
            speeds[name].append(len(audio) / voice.sample_rate / (time.perf_counter() - started))
    print(json.dumps({"speeds": {k: statistics.median(v) for k, v in speeds.items()},
                      "auto_threads": voices["auto"].threads_used}), flush=True)
"""


def _spin() -> None:
    while True:
        pass


def _bursty() -> None:
    while True:
        end = time.monotonic() + 0.1
        while time.monotonic() < end:
            pass
        time.sleep(0.1)


@contextlib.contextmanager
def load(kind: str) -> Iterator[None]:
    """Other programs keeping the cores busy, for the block."""
    targets = {"idle": [], "1 hog": [_spin], "2 hogs": [_spin, _spin], "bursty": [_bursty]}[kind]
    hogs = [multiprocessing.Process(target=t, daemon=True) for t in targets]
    for hog in hogs:
        hog.start()
    try:
        time.sleep(1.0 if hogs else 0.0)  # the load is there before the first reply
        yield
    finally:
        for hog in hogs:
            hog.terminate()
            hog.join()


def model_path(name: str) -> str:
    if name == "starter":
        from parley.engine.modelfiles.defaults import default_chat_model_path

        return str(default_chat_model_path())
    from parley.engine.library.packs import find_pack, pack_path

    return str(pack_path(find_pack(name.removeprefix("pack:"))))


def measure(code: str, arg: str, extra: list[str], rounds: int) -> dict[str, dict[str, object]]:
    child = subprocess.Popen(
        [sys.executable, "-c", code, arg, *extra],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert child.stdin is not None and child.stdout is not None
    results = {}
    try:
        child.stdin.write("1\n")  # a warm-up round, not counted
        child.stdin.flush()
        child.stdout.readline()
        for kind in LOADS:
            with load(kind):
                child.stdin.write(f"{rounds}\n")
                child.stdin.flush()
                results[kind] = json.loads(child.stdout.readline())
    finally:
        child.stdin.close()
        child.wait(timeout=60)
    return results


def measure_server(model: str, clients: int, tokens: int, rounds: int) -> dict[str, dict[str, object]]:
    """``parley serve`` on ``model`` in each mode, ``clients`` streaming replies at once, under
    each load: the aggregate tokens/s (median of ``rounds``)."""
    import statistics
    import tempfile

    from bench.bench_serve import chat_load, free_port, running
    from parley.engine.backend.threads import default_threads

    modes = {"auto": [], **{str(n): ["--threads", str(n)] for n in range(1, default_threads() + 1)}}
    logs = Path(tempfile.mkdtemp(prefix="bench-threads-"))
    with contextlib.ExitStack() as servers:
        ports = {}
        for mode, threads in modes.items():
            port = free_port()
            cmd = [sys.executable, "-m", "parley", "serve", "--port", str(port), "--model", model, *threads]
            cmd += ["--speech-model", "none", "--voice", "none", "--parallel", str(clients), "--device", "cpu"]
            cmd += ["--ctx", "512"]
            ports[mode] = servers.enter_context(running(cmd, port, "/v1/models", logs / f"serve-{mode}.log"))
            chat_load(ports[mode], clients, 4, -1)  # warm-up
        results: dict[str, dict[str, object]] = {}
        order = list(ports.items())
        for kind in LOADS:
            with load(kind):
                speeds: dict[str, list[float]] = {mode: [] for mode in ports}
                for r in range(rounds):
                    for mode, port in order[r % len(order) :] + order[: r % len(order)]:
                        speeds[mode].append(chat_load(port, clients, tokens, r)["tokens_per_s"])
            results[kind] = {"speeds": {mode: statistics.median(v) for mode, v in speeds.items()}}
    return results


def table(title: str, unit: str, results: dict[str, dict[str, object]]) -> None:
    modes = list(next(iter(results.values()))["speeds"])  # type: ignore[arg-type]
    print(f"\n{title} ({unit}; auto's threads at the end in brackets where known)\n")
    print("load | " + " | ".join(modes) + " | auto / best fixed | auto / default")
    print("--- | " + " | ".join("---" for _ in modes) + " | --- | ---")
    for kind, row in results.items():
        speeds: dict[str, float] = row["speeds"]  # type: ignore[assignment]
        fixed = {k: v for k, v in speeds.items() if k != "auto"}
        best = max(fixed.values())
        default = fixed[max(fixed, key=int)]
        cells = [f"{speeds[m]:.1f}" for m in modes]
        if "auto_threads" in row:
            cells[0] += f" [{row['auto_threads']}]"
        print(f"{kind} | " + " | ".join(cells) + f" | {speeds['auto'] / best:.2f} | {speeds['auto'] / default:.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--models", nargs="*", default=["starter", "pack:qwen2.5-coder-0.5b", "pack:qwen2.5-coder-1.5b"]
    )
    parser.add_argument("--tokens", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-speech", action="store_true")
    parser.add_argument("--no-voice", action="store_true", help="leave out the natural voice (Piper)")
    parser.add_argument("--server", nargs="*", default=[], help="models to serve to --clients at once")
    parser.add_argument("--clients", type=int, default=4)
    args = parser.parse_args()
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    print(
        f"{time.strftime('%Y-%m-%d %H:%M')}: {cpu}, {len(os.sched_getaffinity(0))} cores; {args.tokens} tokens a reply"
    )
    for name in args.models:
        table(f"chat: {name}", "tokens/s", measure(CHAT, model_path(name), [str(args.tokens)], args.rounds))
    if not args.no_speech:
        from bench.bench_remote import jfk_clip

        clip = jfk_clip()
        table("transcription: whisper tiny.en, jfk.wav", "audio seconds/s", measure(SPEECH, str(clip), [], args.rounds))
    if not args.no_voice:
        table("the natural voice: Piper, a 15-word sentence", "audio seconds/s", measure(VOICE, "", [], args.rounds))
    for name in args.server:
        served = measure_server(model_path(name), args.clients, args.tokens, args.rounds)
        table(f"parley serve: {name}, {args.clients} clients at once", "aggregate tokens/s", served)
    return 0


if __name__ == "__main__":
    sys.exit(main())
