"""One local device against the CPU: the same chat and speech work on both, in one process.

For a GPU backend (CUDA, Metal, Vulkan; Mesa's lavapipe is a CPU-backed Vulkan device when
``GGML_VK_VISIBLE_DEVICES=0`` is set): the chat engine offloads every layer to the device and
the speech engine runs on it, exactly as the app does, in alternating rounds with the CPU.
Inputs and figures are those of ``bench_remote.py``: greedy chat (a ~200-token prompt, 128
tokens) and Whisper tiny.en on an 11 s and a 3 s clip, medians over the rounds, and whether
the texts equal the CPU's.

    .venv/bin/python bench/bench_device.py --device Vulkan0 [--threads 2] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from bench_remote import chat_round, jfk_clip, median, speech_round  # noqa: E402

from parley.engine.audio import load_audio  # noqa: E402
from parley.engine.chat import ChatModel  # noqa: E402
from parley.engine.devices import list_devices  # noqa: E402
from parley.engine.models import default_chat_model_path, default_speech_model_path  # noqa: E402
from parley.engine.speech import SpeechModel  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", required=True, help="a device name from `parley devices` (CUDA0, Vulkan0...)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", type=Path, default=None, help="also write the figures here as JSON")
    args = parser.parse_args()
    described = {d.name: d.description for d in list_devices()}
    if args.device not in described:
        raise SystemExit(f"no device {args.device!r} here; devices: {', '.join(described)}")
    print(f"device: {args.device} ({described[args.device]}) against the CPU, {args.threads} threads", flush=True)
    results: dict[str, Any] = {"device": args.device, "description": described[args.device], "threads": args.threads}

    chat: dict[str, list[dict[str, Any]]] = {"cpu": [], "device": []}
    path = default_chat_model_path()
    with ChatModel(path, device="cpu", n_ctx=1024, threads=args.threads) as cpu, \
            ChatModel(path, device=args.device, n_ctx=1024, threads=args.threads) as dev:
        assert dev.device.device.name == args.device, dev.device.fallback_reason
        chat_round(cpu), chat_round(dev)  # warm-up
        for _ in range(args.rounds):
            chat["cpu"].append(chat_round(cpu))
            chat["device"].append(chat_round(dev))
    results["chat"] = chat
    same_text = chat["cpu"][0]["text"] == chat["device"][0]["text"]
    print(f"chat ({path.name}, greedy, median of {args.rounds}):")
    for key, label in (("prompt_tps", "prompt tokens/s"), ("gen_tps", "generation tokens/s")):
        c, d = median(chat["cpu"], key), median(chat["device"], key)
        print(f"  {label:<20} cpu {c:8.1f}   {args.device} {d:8.1f}   ratio {d / c:.2f}")
    print(f"  same text: {same_text}")

    clips = {"jfk.wav (11 s)": load_audio(jfk_clip()),
             "question.wav (3 s)": load_audio(REPO / "parley" / "resources" / "selftest" / "question.wav")}
    speech: dict[str, list[dict[str, Any]]] = {"cpu": [], "device": []}
    model_path = default_speech_model_path()
    with SpeechModel(model_path, device="cpu", threads=args.threads) as cpu, \
            SpeechModel(model_path, device=args.device, threads=args.threads) as dev:
        assert dev.device.device.name == args.device, dev.device.fallback_reason
        speech_round(cpu, clips), speech_round(dev, clips)  # warm-up
        for _ in range(args.rounds):
            speech["cpu"].append(speech_round(cpu, clips))
            speech["device"].append(speech_round(dev, clips))
    results["speech"] = speech
    print(f"speech ({model_path.name}, greedy, median of {args.rounds}):")
    for name in clips:
        c = statistics.median(r[name]["seconds"] for r in speech["cpu"])
        d = statistics.median(r[name]["seconds"] for r in speech["device"])
        same = speech["cpu"][0][name]["text"] == speech["device"][0][name]["text"]
        print(f"  {name:<20} cpu {c:.3f} s   {args.device} {d:.3f} s   ratio {d / c:.2f};  same text: {same}")
        if not same:
            print(f"    cpu:    {speech['cpu'][0][name]['text']!r}\n    device: {speech['device'][0][name]['text']!r}")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(results, indent=2))
        print(f"written: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
