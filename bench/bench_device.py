"""One local device against the CPU: the same chat and speech work on both, in one process.

For a GPU backend (CUDA, Metal, Vulkan; Mesa's lavapipe is a CPU-backed Vulkan device when
``GGML_VK_VISIBLE_DEVICES=0`` is set): the chat engine offloads every layer to the device and
the speech engine runs on it, exactly as the app does, in alternating rounds with the CPU.
Inputs and figures are those of ``bench_remote.py``: greedy chat (a ~200-token prompt, 128
tokens) and Whisper tiny.en on an 11 s and a 3 s clip, medians over the rounds, and whether
the texts equal the CPU's.

    .venv/bin/python bench/bench_device.py --device Vulkan0 [--threads 2] [--rounds 3] [--long-clip jfk.wav]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from bench.bench_remote import compare_chat, compare_speech, default_clips, write_results
from parley.engine.backend.devices import list_devices
from parley.engine.modelfiles.defaults import default_chat_model_path, default_speech_model_path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", required=True, help="a device name from `parley devices` (CUDA0, Vulkan0...)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", type=Path, default=None, help="also write the figures here as JSON")
    parser.add_argument(
        "--long-clip", type=Path, default=None, help="the 11 s clip (default: jfk.wav of the native build's sources)"
    )
    args = parser.parse_args()
    described = {d.name: d.description for d in list_devices()}
    if args.device not in described:
        raise SystemExit(f"no device {args.device!r} here; devices: {', '.join(described)}")
    print(f"device: {args.device} ({described[args.device]}) against the CPU, {args.threads} threads", flush=True)
    results: dict[str, Any] = {"device": args.device, "description": described[args.device], "threads": args.threads}

    results["chat"] = compare_chat(
        default_chat_model_path(), ("cpu", "cpu"), (args.device, args.device), args.threads, args.rounds
    )
    results["speech"] = compare_speech(
        default_speech_model_path(),
        ("cpu", "cpu"),
        (args.device, args.device),
        default_clips(args.long_clip),
        args.threads,
        args.rounds,
    )
    if args.out:
        write_results(args.out, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
