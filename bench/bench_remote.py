"""Remote-device benchmark: chat and speech through a loopback `parley rpc-server`, next to local.

One run, one build: a `parley rpc-server` subprocess serves a device of this machine on
127.0.0.1 (the CPU by default, ``--server-device CUDA0`` for a GPU), this process connects to
it through Parley's relay, and the same model and inputs run on the remote device and on the
local one (``--local-device``, the CPU by default), in alternating rounds.  On loopback the
figures show the cost of the protocol and the relay, not of a network.

    .venv/bin/python bench/bench_remote.py [--threads 2] [--rounds 3] [--out bench/out/remote.json]

Figures printed (medians over the rounds):
- chat (default SmolLM2-135M, greedy): prompt tokens/s for a ~200-token prompt, and
  generation tokens/s for 128 tokens, local vs remote, with the ratio;
- speech (Whisper tiny.en, greedy): transcription time of an 11 s recording (whisper.cpp's
  jfk.wav from the pinned sources) and of the 3 s self-test clip, local vs remote; whether the
  texts are equal;
- the front's cost: the same chat through `parley rpc-server` (ggml's server behind Parley's
  validating front, one more loopback hop) and through ggml's server directly (the front's
  compute process started on its own), with the difference per generated token in ms.
  ``--front-only`` runs just this part.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from parley.engine.audio.files import load_audio
from parley.engine.backend import devices
from parley.engine.backend.rpc import remote
from parley.engine.chat.model import ChatModel, ChatSession, SamplingParams
from parley.engine.errors import RemoteError
from parley.engine.modelfiles.defaults import default_chat_model_path, default_speech_model_path
from parley.engine.speech import SpeechModel

REPO = Path(__file__).resolve().parents[1]

PROMPT = ("Here is a list of facts about the sea. " * 12).strip() + " Now write a long story about a lighthouse keeper."
GEN_TOKENS = 128


def start_server(device: str, threads: int) -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    endpoint = f"127.0.0.1:{port}"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "parley",
            "rpc-server",
            "--port",
            str(port),
            "--device",
            device,
            "--threads",
            str(threads),
        ],
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            remote.check_server(endpoint, timeout=1.0)
            return proc, endpoint
        except RemoteError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the rpc-server did not start on {endpoint}") from None
            time.sleep(0.2)


def start_direct(device: str, threads: int) -> tuple[subprocess.Popen[bytes], str]:
    """ggml's RPC server with nothing in front: the front's compute process, started on its own
    (it serves while its stdin stays open)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "parley.engine.backend.rpc.server_front", "--child", device, str(threads)],
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    line = proc.stdout.readline().decode()  # type: ignore[union-attr]
    if not line.startswith("PORT "):
        raise SystemExit(f"ggml's RPC server did not start: {line!r}")
    endpoint = f"127.0.0.1:{int(line.split()[1])}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with socket.create_connection(("127.0.0.1", int(line.split()[1])), timeout=1.0):
                pass
            return proc, endpoint
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"ggml's RPC server did not listen on {endpoint}") from None
            time.sleep(0.1)


def compare_front(path: Path, front: str, direct: str, threads: int, rounds: int) -> dict[str, Any]:
    """Chat through the front and through ggml's server directly; the front's cost per token."""
    chat = compare_chat(path, (direct, "direct"), (front, "front"), threads, rounds)
    per_token = {k: 1000 / median(chat[k], "gen_tps") for k in ("direct", "front")}
    overhead = per_token["front"] - per_token["direct"]
    print(
        f"  front overhead: {overhead:+.2f} ms per generated token ({per_token['direct']:.2f} ms direct, "
        f"{per_token['front']:.2f} ms through the front)"
    )
    return {"chat": chat, "ms_per_token": per_token, "overhead_ms_per_token": overhead}


def chat_round(model: ChatModel) -> dict[str, float]:
    model.clear_cache()
    session = ChatSession(model)
    reply = session.reply(PROMPT, SamplingParams(temperature=0, max_tokens=GEN_TOKENS, ignore_eos=True))
    s = reply.stats
    return {
        "prompt_tokens": s.prompt_tokens,
        "prompt_tps": s.prompt_tps,
        "gen_tps": s.gen_tps,
        "first_token_s": s.time_to_first_token,
        "text": reply.text,
    }


def speech_round(model: SpeechModel, clips: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for name, audio in clips.items():
        started = time.perf_counter()
        text = model.transcribe(audio).text
        out[name] = {"seconds": time.perf_counter() - started, "text": text}
    return out


def jfk_clip() -> Path:
    work = subprocess.run(
        [sys.executable, str(REPO / "native" / "build.py"), "--print-work"], capture_output=True, text=True, check=True
    ).stdout.strip()
    return Path(work) / "src" / "whisper.cpp" / "samples" / "jfk.wav"


def median(rows: list[dict[str, Any]], key: str) -> float:
    return statistics.median(r[key] for r in rows)


def default_clips(long_clip: Path | None = None) -> dict[str, Any]:
    return {
        "jfk.wav (11 s)": load_audio(long_clip or jfk_clip()),
        "question.wav (3 s)": load_audio(REPO / "parley" / "resources" / "selftest" / "question.wav"),
    }


def _on(model: Any, device: str) -> None:
    """The model runs where it was asked to (no silent CPU fallback)."""
    choice = model.device
    assert device in (choice.device.name, choice.device.name.lower()), choice.fallback_reason


def compare_chat(
    path: Path, first: tuple[str, str], second: tuple[str, str], threads: int, rounds: int
) -> dict[str, list[dict[str, Any]]]:
    """Greedy chat on two devices ``(device, label)``, warmed up, then alternating; prints medians."""
    (dev_a, a), (dev_b, b) = first, second
    chat: dict[str, list[dict[str, Any]]] = {a: [], b: []}
    with (
        ChatModel(path, device=dev_a, n_ctx=1024, threads=threads) as model_a,
        ChatModel(path, device=dev_b, n_ctx=1024, threads=threads) as model_b,
    ):
        _on(model_a, dev_a), _on(model_b, dev_b)
        chat_round(model_a), chat_round(model_b)  # warm-up
        for _ in range(rounds):
            chat[a].append(chat_round(model_a))
            chat[b].append(chat_round(model_b))
    print(f"chat ({path.name}, greedy, {GEN_TOKENS} tokens, median of {rounds}):")
    for key, label in (("prompt_tps", "prompt tokens/s"), ("gen_tps", "generation tokens/s")):
        x, y = median(chat[a], key), median(chat[b], key)
        print(f"  {label:<20} {a} {x:8.1f}   {b} {y:8.1f}   {b}/{a} {y / x:.2f}")
    print(
        f"  first token         {a} {median(chat[a], 'first_token_s'):.3f} s  {b} "
        f"{median(chat[b], 'first_token_s'):.3f} s;  same text: {chat[a][0]['text'] == chat[b][0]['text']}"
    )
    return chat


def compare_speech(
    path: Path, first: tuple[str, str], second: tuple[str, str], clips: dict[str, Any], threads: int, rounds: int
) -> dict[str, list[dict[str, Any]]]:
    """Transcription of ``clips`` on two devices ``(device, label)``, alternating; prints medians."""
    (dev_a, a), (dev_b, b) = first, second
    speech: dict[str, list[dict[str, Any]]] = {a: [], b: []}
    with (
        SpeechModel(path, device=dev_a, threads=threads) as model_a,
        SpeechModel(path, device=dev_b, threads=threads) as model_b,
    ):
        _on(model_a, dev_a), _on(model_b, dev_b)
        speech_round(model_a, clips), speech_round(model_b, clips)  # warm-up
        for _ in range(rounds):
            speech[a].append(speech_round(model_a, clips))
            speech[b].append(speech_round(model_b, clips))
    print(f"speech ({path.name}, greedy, median of {rounds}):")
    for name in clips:
        x = statistics.median(r[name]["seconds"] for r in speech[a])
        y = statistics.median(r[name]["seconds"] for r in speech[b])
        same = speech[a][0][name]["text"] == speech[b][0][name]["text"]
        print(f"  {name:<20} {a} {x:.3f} s   {b} {y:.3f} s   {b}/{a} {y / x:.2f};  same text: {same}")
    return speech


def write_results(path: Path, results: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=2))
    print(f"written: {path}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--server-device", default="cpu", help="the device the rpc-server serves (cpu, CUDA0...)")
    parser.add_argument("--local-device", default="cpu", help="the local device to compare with")
    parser.add_argument("--chat-model", type=Path, default=None, help="GGUF file (default: SmolLM2-135M)")
    parser.add_argument("--speech-model", type=Path, default=None, help="whisper.cpp file (default: tiny.en)")
    parser.add_argument("--clip", type=Path, default=None, help="long clip (default: jfk.wav from the sources)")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "out" / "remote.json")
    parser.add_argument("--front-only", action="store_true", help="only the front's cost (chat, front vs direct)")
    args = parser.parse_args()

    server, endpoint = start_server(args.server_device, args.threads)
    direct, direct_endpoint = start_direct(args.server_device, args.threads)
    try:
        remote.connect([endpoint, direct_endpoint])
        names = {d.remote: d.name for d in devices.remote_devices()}
        front_results = compare_front(
            args.chat_model or default_chat_model_path(),
            names[endpoint],
            names[direct_endpoint],
            args.threads,
            args.rounds,
        )
        if args.front_only:
            write_results(args.out, {"endpoint": endpoint, "threads": args.threads, "front": front_results})
            return 0
        remote.connect([endpoint])
        (device,) = [d for d in devices.remote_devices() if d.remote == endpoint]
        print(
            f"remote: {device.name} on {endpoint} (serving {args.server_device}); local: {args.local_device}; "
            f"{args.threads} threads",
            flush=True,
        )
        results: dict[str, Any] = {
            "endpoint": endpoint,
            "server_device": args.server_device,
            "local_device": args.local_device,
            "threads": args.threads,
        }

        path = args.chat_model or default_chat_model_path()
        results["chat"] = compare_chat(
            path, (args.local_device, "local"), (device.name, "remote"), args.threads, args.rounds
        )
        results["speech"] = compare_speech(
            args.speech_model or default_speech_model_path(),
            (args.local_device, "local"),
            (device.name, "remote"),
            default_clips(args.clip),
            args.threads,
            args.rounds,
        )
        results["front"] = front_results
    finally:
        for proc in (server, direct):
            proc.kill()
            proc.wait()
    write_results(args.out, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
