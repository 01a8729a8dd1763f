"""``parley transcribe FILE...``: speech to text on this machine."""

from __future__ import annotations

import argparse
import json
import sys

from ..engine import remote
from ..engine.audio import load_audio
from ..engine.devices import fallback_to_cpu
from ..engine.errors import ParleyError
from .devices import add_rpc_option


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("transcribe", help="transcribe audio files (WAV, FLAC, OGG, MP3)")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--model", help="whisper.cpp .bin model (default: Whisper tiny.en, converted on first use)")
    p.add_argument("--device", default="auto", help="auto, cpu, or a device name from `parley devices`")
    p.add_argument("--threads", type=int, default=None, help="CPU threads (default: up to 8)")
    p.add_argument("--language", default="auto", help="language code, or auto (multilingual models)")
    p.add_argument("--translate", action="store_true", help="translate to English (multilingual models)")
    p.add_argument("--prompt", default=None, help="initial prompt (names, spelling hints)")
    p.add_argument("--beam-size", type=int, default=0, help="beam search width (default: greedy)")
    add_rpc_option(p)
    out = p.add_mutually_exclusive_group()
    out.add_argument("--timestamps", action="store_true", help="print [start --> end] before each segment")
    out.add_argument("--json", action="store_true", help="print one JSON object per file")


def run(args: argparse.Namespace) -> int:
    from ..engine.models import default_speech_model_path
    from ..engine.speech import SpeechModel

    if args.rpc:
        remote.connect(args.rpc)
    model_path = args.model or default_speech_model_path(progress=_conversion_progress)
    failures = 0
    with SpeechModel(model_path, device=args.device, threads=args.threads) as model:
        if model.device.fallback_reason:
            print(f"parley: {model.device.fallback_reason}", file=sys.stderr)
        for path in args.files:
            try:
                audio = load_audio(path)
                options = dict(language=args.language, translate=args.translate, initial_prompt=args.prompt,
                               beam_size=args.beam_size)
                try:
                    result = model.transcribe(audio, **options)
                except remote.RemoteDeviceLost as exc:  # this file and the rest on this machine's CPU
                    model.close()
                    model = SpeechModel(model_path, device=fallback_to_cpu(model.device, str(exc)), threads=args.threads)
                    print(f"parley: {model.device.fallback_reason}", file=sys.stderr)
                    result = model.transcribe(audio, **options)
            except ParleyError as exc:
                print(f"parley: {exc}", file=sys.stderr)
                failures += 1
                continue
            if args.json:
                print(json.dumps({
                    "file": path, "language": result.language, "text": result.text,
                    "audio_seconds": round(result.audio_seconds, 3), "seconds": round(result.elapsed, 3),
                    "device": model.device.device.name,
                    "segments": [{"start": s.start, "end": s.end, "text": s.text.strip()} for s in result.segments],
                }, ensure_ascii=False))
            elif args.timestamps:
                if len(args.files) > 1:
                    print(f"# {path}")
                for s in result.segments:
                    print(f"[{_clock(s.start)} --> {_clock(s.end)}] {s.text.strip()}")
            else:
                print(result.text)
    return 1 if failures else 0


def _clock(seconds: float) -> str:
    minutes, secs = divmod(seconds, 60)
    return f"{int(minutes):02d}:{secs:06.3f}"


_shown = [-1]


def _conversion_progress(fraction: float) -> None:
    percent = int(fraction * 100)
    if percent != _shown[0]:
        _shown[0] = percent
        print(f"\rpreparing the default speech model: {percent:3d}%", end="" if percent < 100 else "\n",
              file=sys.stderr, flush=True)
