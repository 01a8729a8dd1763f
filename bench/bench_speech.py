"""Speech benchmark: Parley's whisper engine vs whisper-cli (same sources) vs faster-whisper.

12 short synthetic push-to-talk clips (espeak-ng, three voices), tiny.en, 2 threads, greedy.
Each engine runs in its own process so its peak memory (max RSS) is its own.

    .venv/bin/python bench/bench_speech.py [--threads 2] [--out bench/out/speech.json]

Figures printed:
- total transcription time over all clips (model load excluded; the mean of 3 warm passes) and
  corpus WER for
  ours with the sized audio context (the default), ours with whisper's full 30 s window,
  whisper-cli with the same settings as each of those, and faster-whisper (CTranslate2 float32);
- the ratios the targets are about: ours/faster-whisper (target <= 0.5), ours/whisper-cli with
  identical settings (target <= 1.02), WER ours vs whisper-cli greedy (target <= +1 point);
- peak memory of each process; cancel latency (cancel() to return) on a long clip.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
REPS = 3  # timed passes over all clips after a warm-up pass; figures are their mean

SENTENCES = [
    ("en-us", "Turn on the lights in the kitchen please."),
    ("en", "What time is my first meeting tomorrow?"),
    ("en-us+f3", "Remind me to buy milk and bread on the way home."),
    ("en-us", "How far is it from London to Paris by train?"),
    ("en", "Play some quiet music while I read."),
    ("en-us+f3", "Send a message to Anna saying I will be ten minutes late."),
    ("en-us", "What is the capital of Australia?"),
    ("en", "Set an alarm for six thirty in the morning."),
    ("en-us+f3", "Can you explain how a rainbow forms?"),
    ("en-us", "Add eggs, butter and flour to my shopping list."),
    ("en", "Tell me a short joke about computers."),
    ("en-us+f3", "How many days are there until the end of the month?"),
]


def make_clips(folder: Path) -> list[tuple[str, Path]]:
    from tests.support.speech import synthesize

    return [
        (text, synthesize(text, folder / f"clip{i:02d}.wav", voice=voice)) for i, (voice, text) in enumerate(SENTENCES)
    ]


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# --------------------------------------------------------------------------- engines (child side)


def run_ours(
    clips: list[Path], threads: int, audio_ctx: str, single_segment: bool | None = None, retry: bool = True
) -> dict:
    from parley.engine.audio.files import load_audio
    from parley.engine.modelfiles.defaults import default_speech_model_path
    from parley.engine.speech import SpeechModel

    model = SpeechModel(default_speech_model_path(), device="cpu", threads=threads)
    audio = [load_audio(p) for p in clips]
    texts, seconds = [], 0.0
    for rep in range(1 + REPS):  # a warm-up pass, then REPS timed passes
        started = time.perf_counter()
        texts = [
            model.transcribe(samples, audio_ctx=audio_ctx, single_segment=single_segment, retry_degenerate=retry).text
            for samples in audio
        ]
        if rep:
            seconds += (time.perf_counter() - started) / REPS
    return {"texts": texts, "seconds": seconds, "peak_mib": peak_rss_mib()}


def run_faster_whisper(clips: list[Path], threads: int) -> dict:
    from faster_whisper import WhisperModel

    from parley.engine.audio.files import load_audio
    from parley.engine.modelfiles.defaults import default_speech_source

    model = WhisperModel(str(default_speech_source()), device="cpu", compute_type="float32", cpu_threads=threads)
    audio = [load_audio(p) for p in clips]

    def once(samples) -> str:  # noqa: ANN001
        segments, _ = model.transcribe(
            samples,
            beam_size=1,
            best_of=1,
            temperature=0.0,
            language="en",
            condition_on_previous_text=False,
            vad_filter=False,
            without_timestamps=False,
        )
        return " ".join(s.text.strip() for s in segments)

    texts, seconds = [], 0.0
    for rep in range(1 + REPS):
        started = time.perf_counter()
        texts = [once(samples) for samples in audio]
        if rep:
            seconds += (time.perf_counter() - started) / REPS
    return {"texts": texts, "seconds": seconds, "peak_mib": peak_rss_mib()}


def run_cancel_latency(clips: list[Path], threads: int) -> dict:
    import numpy as np

    from parley.engine.audio.files import load_audio
    from parley.engine.backend.cancel import CancelToken
    from parley.engine.errors import Cancelled
    from parley.engine.modelfiles.defaults import default_speech_model_path
    from parley.engine.speech import SpeechModel

    model = SpeechModel(default_speech_model_path(), device="cpu", threads=threads)
    audio = np.concatenate([load_audio(p) for p in clips] * 4)
    latencies = []
    for _ in range(3):
        token, first = CancelToken(), threading.Event()
        done: list[float] = []

        def work() -> None:
            try:
                model.transcribe(audio, on_segment=lambda s: first.set(), cancel=token)  # noqa: B023 - runs in this round
            except Cancelled:
                done.append(time.perf_counter())  # noqa: B023 - runs in this round

        worker = threading.Thread(target=work)
        worker.start()
        first.wait()
        cancelled_at = time.perf_counter()
        token.cancel()
        worker.join()
        latencies.append((done[0] - cancelled_at) * 1000)
    return {"cancel_ms": latencies}


# --------------------------------------------------------------------------- whisper-cli


def whisper_cli(tool: Path, model: Path, clips: list[Path], threads: int, sized: bool) -> dict:
    """whisper-cli, greedy, no fallback, no text context, timestamps on: the settings of ours.

    Clips that get the same audio context share one process.  Warm time, as ours is measured:
    each group runs once, and then 1 + REPS times over (``-f`` repeated); the difference of
    whisper-cli's own "total - load" figures over REPS is the mean warm pass.  Texts come from
    ``-otxt`` files.
    """
    import soundfile

    from parley.engine.speech import audio_ctx_for

    groups: dict[int, list[Path]] = {}
    for clip in clips:
        groups.setdefault(audio_ctx_for(soundfile.info(str(clip)).duration) if sized else 0, []).append(clip)
    seconds = 0.0
    for ctx, group in groups.items():
        once = _cli_seconds(tool, model, group, threads, ctx, write_text=True)
        repeated = _cli_seconds(tool, model, group * (1 + REPS), threads, ctx, write_text=False)
        seconds += (repeated - once) / REPS
    texts = [" ".join(Path(f"{clip}.txt").read_text().split()) for clip in clips]
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return {"texts": texts, "seconds": seconds, "peak_mib": peak}


def _cli_seconds(tool: Path, model: Path, files: list[Path], threads: int, ctx: int, write_text: bool) -> float:
    cmd = [
        str(tool),
        "-m",
        str(model),
        "-t",
        str(threads),
        "-bs",
        "1",
        "-bo",
        "1",
        "-nf",
        "-mc",
        "0",
        "-l",
        "en",
        "-ac",
        str(ctx),
    ] + (["-otxt"] if write_text else [])
    for clip in files:
        cmd += ["-f", str(clip)]
    proc = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "LC_ALL": "C"})
    if proc.returncode != 0:
        raise RuntimeError(f"whisper-cli failed: {proc.stderr[-2000:]}")
    total = float(re.search(r"total time =\s*([\d.]+) ms", proc.stderr).group(1))
    load = float(re.search(r"load time =\s*([\d.]+) ms", proc.stderr).group(1))
    return (total - load) / 1000


# --------------------------------------------------------------------------- parent


def child(engine: str, clips: list[Path], threads: int) -> dict:
    """Run one engine in a fresh process and return its JSON result."""
    cmd = [sys.executable, __file__, "--child", engine, "--threads", str(threads), *map(str, clips)]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO)
    if proc.returncode != 0:
        raise RuntimeError(f"{engine} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "out" / "speech.json")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("clips", nargs="*", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.child:
        runners = {
            "ours-auto": lambda: run_ours(args.clips, args.threads, "auto"),
            # whisper-cli's settings exactly (no single-segment mode, no loop retry):
            "ours-auto-cli": lambda: run_ours(args.clips, args.threads, "auto", single_segment=False, retry=False),
            "ours-full-cli": lambda: run_ours(args.clips, args.threads, "full", single_segment=False, retry=False),
            "faster-whisper": lambda: run_faster_whisper(args.clips, args.threads),
            "cancel": lambda: run_cancel_latency(args.clips, args.threads),
        }
        if args.child.startswith("whisper-cli"):
            from native import build as native_build
            from parley.engine.backend import devices, native
            from parley.engine.modelfiles.defaults import default_speech_model_path

            native.load_backends()  # whisper-cli loads the CPU variant Parley loads
            tools = native_build.build_bench_tools(native_build.Options.from_env())
            tool = native_build.tools_with_cpu_variant(tools, devices.cpu_variant()) / "whisper-cli"
            result = whisper_cli(
                tool, default_speech_model_path(), args.clips, args.threads, sized=args.child == "whisper-cli-auto"
            )
        else:
            result = runners[args.child]()
        print(json.dumps(result))
        return 0

    from parley.engine.textmetrics import corpus_word_error_rate

    with tempfile.TemporaryDirectory(prefix="parley-bench-") as tmp:
        clips = make_clips(Path(tmp))
        paths = [p for _, p in clips]
        refs = [t for t, _ in clips]
        import soundfile

        audio_seconds = sum(soundfile.info(str(p)).duration for p in paths)
        print(f"{len(paths)} clips, {audio_seconds:.1f} s of audio, {args.threads} threads, tiny.en, greedy\n")
        results = {}
        for engine in (
            "ours-auto",
            "ours-auto-cli",
            "whisper-cli-auto",
            "ours-full-cli",
            "whisper-cli-full",
            "faster-whisper",
        ):
            results[engine] = r = child(engine, paths, args.threads)
            r["wer"] = corpus_word_error_rate(list(zip(refs, r["texts"], strict=True)))
            print(f"{engine:<17} {r['seconds']:7.2f} s   WER {r['wer'] * 100:5.1f}%   peak {r['peak_mib']:6.0f} MiB")
        cancel = child("cancel", paths, args.threads)["cancel_ms"]
    ours, fw = results["ours-auto"], results["faster-whisper"]
    summary = {
        "ours_vs_faster_whisper": ours["seconds"] / fw["seconds"],
        "ours_vs_whisper_cli_same_settings_auto": results["ours-auto-cli"]["seconds"]
        / results["whisper-cli-auto"]["seconds"],
        "ours_vs_whisper_cli_same_settings_full": results["ours-full-cli"]["seconds"]
        / results["whisper-cli-full"]["seconds"],
        "wer_points_vs_whisper_cli_full": (ours["wer"] - results["whisper-cli-full"]["wer"]) * 100,
        "speedup_sized_vs_full_window": results["ours-full-cli"]["seconds"] / ours["seconds"],
        "cancel_latency_ms": cancel,
    }
    print()
    print(f"ours (sized context) / faster-whisper:         {summary['ours_vs_faster_whisper']:.2f}x   (target <= 0.5)")
    print(
        "ours / whisper-cli, same settings (sized ctx): "
        f"{summary['ours_vs_whisper_cli_same_settings_auto']:.3f}x (target <= 1.02)"
    )
    print(
        "ours / whisper-cli, same settings (30 s ctx):  "
        f"{summary['ours_vs_whisper_cli_same_settings_full']:.3f}x (target <= 1.02)"
    )
    print(
        "WER ours (sized) - whisper-cli greedy (30 s):  "
        f"{summary['wer_points_vs_whisper_cli_full']:+.1f} points (target <= +1)"
    )
    print(f"sized context speed-up over the 30 s window:   {summary['speedup_sized_vs_full_window']:.1f}x")
    print(f"cancel latency (cancel() to return):           {', '.join(f'{c:.0f}' for c in cancel)} ms")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"results": results, "summary": summary}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
