"""``parley say TEXT``: speak with the read-aloud voice, to the speakers or into a WAV file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import soundfile

from ..engine.voice.speaker import Speaker
from ..engine.voice.voices import DEFAULT_VOICE, KNOWN_VOICES, load_voice


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("say", help="speak text with the read-aloud voice")
    p.add_argument("text", nargs="?", help="what to say (Markdown; default: standard input)")
    p.add_argument("--voice", default=DEFAULT_VOICE, choices=[v.id for v in KNOWN_VOICES], help="the natural voice")
    p.add_argument("--out", type=Path, metavar="FILE.wav", help="write a WAV file instead of playing it")
    p.add_argument("--threads", type=int, default=None, help="CPU threads for the voice")


def run(args: argparse.Namespace) -> int:
    text = args.text if args.text is not None else sys.stdin.read()
    voice = load_voice(args.voice, threads=args.threads)
    if args.out is not None:
        from ..engine.voice.sentences import SentenceSplitter

        splitter = SentenceSplitter(early=())
        sentences = [*splitter.push(text), *splitter.flush()]
        parts = [voice.synthesize(s) for s in sentences]
        audio = np.concatenate(parts) if parts else np.zeros(0, dtype=np.float32)
        soundfile.write(str(args.out), audio, voice.sample_rate, subtype="PCM_16")
        return 0
    errors: list[BaseException] = []
    speaker = Speaker(lambda: voice, on_error=errors.append)
    try:
        speaker.say(text)
        speaker.wait_until_quiet(timeout=3600.0)
    except KeyboardInterrupt:
        speaker.stop()
    finally:
        speaker.close()
    if errors:
        raise errors[0]
    return 0
