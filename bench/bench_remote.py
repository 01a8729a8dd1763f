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
  texts are equal.
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

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from parley.engine import remote  # noqa: E402
from parley.engine.audio import load_audio  # noqa: E402
from parley.engine.chat import ChatModel, ChatSession, SamplingParams  # noqa: E402
from parley.engine.models import default_chat_model_path, default_speech_model_path  # noqa: E402
from parley.engine.speech import SpeechModel  # noqa: E402

PROMPT = ("Here is a list of facts about the sea. " * 12).strip() + " Now write a long story about a lighthouse keeper."
GEN_TOKENS = 128


def start_server(device: str, threads: int) -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    endpoint = f"127.0.0.1:{port}"
    proc = subprocess.Popen([sys.executable, "-m", "parley", "rpc-server", "--port", str(port), "--device", device,
                             "--threads", str(threads)], env={**os.environ, "PYTHONPATH": str(REPO)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while True:
        try:
            remote.check_server(endpoint, timeout=1.0)
            return proc, endpoint
        except remote.RemoteError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the rpc-server did not start on {endpoint}")
            time.sleep(0.2)


def chat_round(model: ChatModel) -> dict[str, float]:
    model.clear_cache()
    session = ChatSession(model)
    reply = session.reply(PROMPT, SamplingParams(temperature=0, max_tokens=GEN_TOKENS, ignore_eos=True))
    s = reply.stats
    return {"prompt_tokens": s.prompt_tokens, "prompt_tps": s.prompt_tps, "gen_tps": s.gen_tps,
            "first_token_s": s.time_to_first_token, "text": reply.text}


def speech_round(model: SpeechModel, clips: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for name, audio in clips.items():
        started = time.perf_counter()
        text = model.transcribe(audio).text
        out[name] = {"seconds": time.perf_counter() - started, "text": text}
    return out


def jfk_clip() -> Path:
    work = subprocess.run([sys.executable, str(REPO / "native" / "build.py"), "--print-work"],
                          capture_output=True, text=True, check=True).stdout.strip()
    return Path(work) / "src" / "whisper.cpp" / "samples" / "jfk.wav"


def median(rows: list[dict[str, Any]], key: str) -> float:
    return statistics.median(r[key] for r in rows)


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
    args = parser.parse_args()

    server, endpoint = start_server(args.server_device, args.threads)
    try:
        (device,) = [d for d in remote.connect([endpoint]) if d.remote == endpoint]
        print(f"remote: {device.name} on {endpoint} (serving {args.server_device}); local: {args.local_device}; "
              f"{args.threads} threads", flush=True)
        results: dict[str, Any] = {"endpoint": endpoint, "server_device": args.server_device,
                                   "local_device": args.local_device, "threads": args.threads}

        chat: dict[str, list[dict[str, float]]] = {"local": [], "remote": []}
        path = args.chat_model or default_chat_model_path()
        with ChatModel(path, device=args.local_device, n_ctx=1024, threads=args.threads) as local, \
                ChatModel(path, device=device.name, n_ctx=1024, threads=args.threads) as far:
            assert far.device.device.remote == endpoint, far.device.fallback_reason
            chat_round(local), chat_round(far)  # warm-up
            for _ in range(args.rounds):
                chat["local"].append(chat_round(local))
                chat["remote"].append(chat_round(far))
        results["chat"] = chat
        same_text = chat["local"][0]["text"] == chat["remote"][0]["text"]
        print(f"chat ({path.name}, greedy, {GEN_TOKENS} tokens, median of {args.rounds}):")
        for key, label in (("prompt_tps", "prompt tokens/s"), ("gen_tps", "generation tokens/s")):
            lo, re_ = median(chat["local"], key), median(chat["remote"], key)
            print(f"  {label:<20} local {lo:8.1f}   remote {re_:8.1f}   remote/local {re_ / lo:.2f}")
        print(f"  first token         local {median(chat['local'], 'first_token_s'):.3f} s  "
              f"remote {median(chat['remote'], 'first_token_s'):.3f} s;  same text: {same_text}")

        clips = {"jfk.wav (11 s)": load_audio(args.clip or jfk_clip()),
                 "question.wav (3 s)": load_audio(REPO / "parley" / "resources" / "selftest" / "question.wav")}
        speech: dict[str, list[dict[str, Any]]] = {"local": [], "remote": []}
        model_path = args.speech_model or default_speech_model_path()
        with SpeechModel(model_path, device=args.local_device, threads=args.threads) as local, \
                SpeechModel(model_path, device=device.name, threads=args.threads) as far:
            assert far.device.device.remote == endpoint, far.device.fallback_reason
            speech_round(local, clips), speech_round(far, clips)  # warm-up
            for _ in range(args.rounds):
                speech["local"].append(speech_round(local, clips))
                speech["remote"].append(speech_round(far, clips))
        results["speech"] = speech
        print(f"speech ({model_path.name}, greedy, median of {args.rounds}):")
        for name in clips:
            lo = statistics.median(r[name]["seconds"] for r in speech["local"])
            re_ = statistics.median(r[name]["seconds"] for r in speech["remote"])
            same = speech["local"][0][name]["text"] == speech["remote"][0][name]["text"]
            print(f"  {name:<20} local {lo:.3f} s   remote {re_:.3f} s   remote/local {re_ / lo:.2f};  same text: {same}")
    finally:
        server.kill()
        server.wait()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2))
    print(f"written: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
