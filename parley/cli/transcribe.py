"""``parley transcribe FILE...``: speech to text on this machine, with the app's rules.

As in the app, the silence around the speech is cut before whisper sees the audio, a file with
no speech in it is not transcribed, and whisper's non-speech markers ("[BLANK_AUDIO]") are left
out (``parley.engine.audio.utterance``).  Timestamps stay those of the file.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from ..engine.audio.files import check_audio_file, load_audio
from ..engine.backend.devices import fallback_to_cpu
from ..engine.backend.rpc import remote
from ..engine.errors import DeviceLostError, ParleyError
from ..engine.formats import SAMPLE_RATE
from .devices import add_rpc_option, rpc_endpoints

if TYPE_CHECKING:
    from ..engine.dictation.cleanup import Cleaner
    from ..engine.dictation.options import DictationOptions
    from ..engine.dictation.pipeline import DictationResult

CLEANUP_CONTEXT = 2048  # tokens: the clean-up prompt, a long take and its rewrite
EXIT_FAILED = 1  # a file could not be read or transcribed
EXIT_NO_SPEECH = 3  # every file was read, and at least one held no speech

EPILOG = (
    f"Exit status: 0 when every file was transcribed, {EXIT_FAILED} when a file could not be read or "
    f'transcribed, {EXIT_NO_SPEECH} when a file held no speech ("no speech" on stderr, nothing on stdout).'
)


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("transcribe", help="transcribe audio files (WAV, FLAC, OGG, MP3)", epilog=EPILOG)
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument(
        "--model",
        default="default",
        help="default (Whisper tiny.en), base (Whisper base, multilingual; needs the optional "
        "model packages), or a whisper.cpp .bin file; the first two are prepared on first use",
    )
    p.add_argument("--device", default="auto", help="auto, cpu, or a device name from `parley devices`")
    p.add_argument(
        "--threads",
        type=int,
        default=None,
        help="CPU threads, fixed (default: one per free physical core, up to 8, followed while it runs)",
    )
    p.add_argument("--language", default="auto", help="language code, or auto (multilingual models)")
    p.add_argument("--translate", action="store_true", help="translate to English (multilingual models)")
    p.add_argument("--prompt", default=None, help="initial prompt (names, spelling hints)")
    p.add_argument("--beam-size", type=int, default=0, help="beam search width (default: greedy)")
    add_rpc_option(p)
    add_dictation_options(p)
    out = p.add_mutually_exclusive_group()
    out.add_argument("--timestamps", action="store_true", help="print [start --> end] before each segment")
    out.add_argument("--json", action="store_true", help="print one JSON object per file")


def add_dictation_options(p: argparse.ArgumentParser) -> None:
    from ..engine.dictation.options import MODES

    d = p.add_argument_group("dictation (as Dictate types it; each option below implies --clean)")
    d.add_argument("--clean", action="store_true", help="apply what Dictate applies, with the dictation settings")
    d.add_argument("--vocabulary", metavar="FILE", help="names and words, one a line, instead of the settings' list")
    d.add_argument("--rules", metavar="FILE", help="replacement rules, 'spoken => written' one a line")
    d.add_argument(
        "--mode", choices=MODES, help="a per-application mode: plain, cleaned (the chat model's clean-up), ..."
    )
    d.add_argument("--no-fillers", action="store_true", help="keep um, uh and repeated words")
    d.add_argument("--no-spoken-punctuation", action="store_true", help='keep "comma", "new line" as words')
    d.add_argument("--cleanup-timeout", type=float, metavar="S", help="the clean-up's limit in seconds")
    d.add_argument("--chat-model", help="the clean-up's model (default: the settings' chat model)")


def readable_audio(paths: list[str]) -> list[str]:
    """The audio files that can be read, each other one said on stderr at once (before a model
    is prepared or loaded, which takes seconds)."""
    readable = []
    for path in paths:
        try:
            check_audio_file(path)
            readable.append(path)
        except ParleyError as exc:
            print(f"parley: {exc}", file=sys.stderr)
    return readable


def dictation_options(args: argparse.Namespace) -> DictationOptions | None:
    """The options of ``--clean`` and its kin (None: plain transcription), with their warnings
    printed; a bad rule or file is an error (exit status 2)."""
    from ..config.settings import load_settings
    from ..engine.dictation import lists
    from ..engine.dictation.options import DictationOptions
    from ..engine.dictation.replacements import check_rules

    implied = (args.vocabulary, args.rules, args.mode, args.no_fillers or None, args.no_spoken_punctuation or None)
    if not args.clean and all(v is None for v in (*implied, args.cleanup_timeout, args.chat_model)):
        return None
    if args.timestamps:
        raise ParleyError("--timestamps shows whisper's segments: it does not go with --clean")
    settings = load_settings().settings
    if args.vocabulary:
        settings.dictation_vocabulary = lists.read_vocabulary(args.vocabulary)
    if args.rules:
        settings.dictation_replacements = lists.read_rules(args.rules)
        if problems := check_rules(settings.dictation_replacements):
            raise ParleyError(f"{args.rules}: " + " ".join(problems))
    settings.dictation_remove_fillers &= not args.no_fillers
    settings.dictation_spoken_punctuation &= not args.no_spoken_punctuation
    if args.cleanup_timeout is not None:
        settings.dictation_cleanup_timeout_s = args.cleanup_timeout
    settings.language = args.language
    options = DictationOptions.from_settings(settings).with_mode(args.mode or "default")
    for warning in options.warnings:
        print(f"parley: {warning}", file=sys.stderr)
    args.chat_model = args.chat_model or settings.chat_model
    return options


def run(args: argparse.Namespace) -> int:
    from ..engine.dictation.pipeline import process
    from ..engine.modelfiles.defaults import speech_model_path
    from ..engine.modelfiles.whisper_file import check_whisper_ggml
    from ..engine.speech import SpeechModel, transcribe_speech

    if args.model not in ("", "default", "base"):  # the command line first: a bad model is status 2
        check_whisper_ggml(Path(args.model).expanduser())
    silent = 0
    readable = readable_audio(args.files)  # before any model is prepared or loaded
    failures = len(args.files) - len(readable)
    if not readable:
        return EXIT_FAILED
    dictation = dictation_options(args)
    if args.rpc:
        remote.connect(rpc_endpoints(args))
    model_path = speech_model_path(args.model, progress=_conversion_progress)
    prompt = args.prompt if args.prompt is not None or dictation is None else dictation.whisper_prompt()
    with contextlib.ExitStack() as stack:
        cleaner = stack.enter_context(_cleaner(dictation, args))
        model = stack.enter_context(SpeechModel(model_path, device=args.device, threads=args.threads))
        stack.callback(lambda: model.close())  # the CPU model that replaced a lost device's, if any
        if model.device.fallback_reason:
            print(f"parley: {model.device.fallback_reason}", file=sys.stderr)
        for path in readable:
            try:
                audio = load_audio(path)
                options = dict(
                    language=args.language,
                    translate=args.translate,
                    initial_prompt=prompt,
                    beam_size=args.beam_size,
                )
                try:
                    result = transcribe_speech(model, audio, **options)
                except DeviceLostError as exc:  # this file and the rest on this machine's CPU
                    model.close()
                    model = SpeechModel(
                        model_path, device=fallback_to_cpu(model.device, str(exc)), threads=args.threads
                    )
                    print(f"parley: {model.device.fallback_reason}", file=sys.stderr)
                    result = transcribe_speech(model, audio, **options)
            except ParleyError as exc:
                print(f"parley: {exc}", file=sys.stderr)
                failures += 1
                continue
            if result is None or not result.text:  # no speech
                print(f"parley: {path}: no speech", file=sys.stderr)
                silent += 1
                continue
            typed = None if dictation is None else process(result.text, dictation, cleaner, language=result.language)
            if typed is not None and typed.note:
                print(f"parley: {path}: {typed.note}", file=sys.stderr)
            if args.json:
                print(
                    json.dumps(
                        {
                            "file": path,
                            "language": result.language,
                            "text": result.text if typed is None else typed.text,
                            **({} if typed is None else _dictation_fields(typed)),
                            "audio_seconds": round(len(audio) / SAMPLE_RATE, 3),
                            "seconds": round(result.elapsed, 3),
                            "device": model.device.device.name,
                            "segments": [
                                {"start": round(s.start, 3), "end": round(s.end, 3), "text": s.text}
                                for s in result.segments
                            ],
                        },
                        ensure_ascii=False,
                    )
                )
            elif args.timestamps:
                if len(args.files) > 1:
                    print(f"# {path}")
                for s in result.segments:
                    print(f"[{_clock(s.start)} --> {_clock(s.end)}] {s.text}")
            else:
                print(result.text if typed is None else typed.text)
    return EXIT_FAILED if failures else EXIT_NO_SPEECH if silent else 0


@contextlib.contextmanager
def _cleaner(options: DictationOptions | None, args: argparse.Namespace) -> Iterator[Cleaner | None]:
    """The clean-up's model, loaded when the options ask for the clean-up (None otherwise)."""
    if options is None or not options.cleanup:
        yield None
        return
    from ..engine.chat.model import ChatModel
    from ..engine.dictation.cleanup import Cleaner
    from ..engine.library.choice import chat_model_path

    path = chat_model_path(args.chat_model or "default", device=args.device, threads=args.threads)
    with ChatModel(path, device=args.device, n_ctx=CLEANUP_CONTEXT, threads=args.threads) as model:
        yield Cleaner(model)


def _dictation_fields(typed: DictationResult) -> dict[str, object]:
    return {
        "raw": typed.raw,
        "cleanup": typed.cleanup,
        "note": typed.note,
        "steps": {name: round(seconds, 4) for name, seconds in typed.steps},
    }


def _clock(seconds: float) -> str:
    minutes, secs = divmod(seconds, 60)
    return f"{int(minutes):02d}:{secs:06.3f}"


_shown = [-1]


def _conversion_progress(fraction: float) -> None:
    percent = int(fraction * 100)
    if percent != _shown[0]:
        _shown[0] = percent
        print(
            f"\rpreparing the speech model: {percent:3d}%",
            end="" if percent < 100 else "\n",
            file=sys.stderr,
            flush=True,
        )
