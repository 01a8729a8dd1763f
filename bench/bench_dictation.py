"""Dictation benchmark: what each step of ``parley.engine.dictation`` does to disfluent takes.

21 dictations with hesitations, words said twice, restarts, spoken punctuation and names whisper
has never seen, each spoken by Parley's natural voice (its noise scales at 0, so a rerun hears
the same clips) and by espeak-ng: 42 clips, transcribed by the default speech model (tiny.en) on
the CPU.  The references are the clean sentences meant.

    .venv/bin/python bench/bench_dictation.py [--threads 2] [--out bench/out/dictation.json]

On a machine that other work keeps busy, use ``--threads 1``: two threads that spin-wait for
each other crawl when the cores are taken (the load average is printed with the figures).

Figures printed (WER against the clean reference, textmetrics' normalisation: punctuation and
case do not count):
- plain: whisper's text as Dictate typed it before issue 30;
- fillers: the default text steps without a vocabulary (fillers, repetitions, spoken punctuation);
- + vocabulary: the same with the names as whisper's prompt and near-miss correction;
- + clean-up by the starter model (SmolLM2-135M) and by the best installed pack model, each
  within the default 2 s limit (what is typed) and with no limit (30 s: what the model makes);
- how many listed names come out right; the clean-up's outcomes (used, refused by the
  added-content or dropped-content check, timed out); the added latency of each step, p50 and
  p95, and whisper's time with and without the prompt.
The clean-up prompt is read ahead (``Cleaner.prepare``) before each take, as the app does at
the key press; it is not counted.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
NAMES = [
    "Siobhan", "Nguyen", "Postgres", "Niamh", "Kubernetes", "Krzysztof", "Zyntrix", "Saoirse",
    "Aoife", "Xiaoling", "Grafana", "Joaquin", "Nginx", "Eilidh", "Anjali", "Tadhg",
]  # fmt: skip
# (what is said, what was meant)
TAKES = [
    ("Um, I think we should, uh, invite Siobhan to the meeting.", "I think we should invite Siobhan to the meeting."),
    ("Can you can you send the report to Doctor Nguyen?", "Can you send the report to Doctor Nguyen?"),
    ("We moved the, um, the database to Postgres last week.", "We moved the database to Postgres last week."),
    ("Uh, tell Niamh that the Kubernetes cluster is down.", "Tell Niamh that the Kubernetes cluster is down."),
    ("I want to, I need to call Krzysztof before noon.", "I need to call Krzysztof before noon."),
    ("The new version of Zyntrix is, er, much faster.", "The new version of Zyntrix is much faster."),
    ("Hmm, let's meet Saoirse at the the station at seven.", "Let's meet Saoirse at the station at seven."),
    ("Please ask Aoife to, um, review my pull request.", "Please ask Aoife to review my pull request."),
    ("The invoice from Xiaoling arrived, uh, this morning.", "The invoice from Xiaoling arrived this morning."),
    ("We we need to update Grafana before the release.", "We need to update Grafana before the release."),
    ("The meeting with Joaquin is, um, moved to Tuesday.", "The meeting with Joaquin is moved to Tuesday."),
    ("Restart the Nginx server, I mean, the proxy server tonight.", "Restart the proxy server tonight."),
    ("Eilidh said that, uh, the budget is approved.", "Eilidh said that the budget is approved."),
    ("I'll send it to, to Anjali and Tadhg tomorrow.", "I'll send it to Anjali and Tadhg tomorrow."),
    ("Um, the numbers look, uh, better than expected period", "The numbers look better than expected."),
    ("Dear Siobhan comma thank you for the the update period", "Dear Siobhan, thank you for the update."),
    ("Could you, um, could you check the Postgres logs question mark", "Could you check the Postgres logs?"),
    ("I think Zyntrix needs, er, a new a new logo.", "I think Zyntrix needs a new logo."),
    ("Let's go with the blue, no, the green design for Saoirse.", "Let's go with the green design for Saoirse."),
    ("Uh, remind Nguyen to, to renew the Grafana licence.", "Remind Nguyen to renew the Grafana licence."),
    ("Call Krzysztof, um, no wait, call Niamh first.", "Call Niamh first."),
]  # fmt: skip
DEFAULT_LIMIT_S = 2.0
NO_LIMIT_S = 30.0


@dataclasses.dataclass
class Clip:
    said: str
    meant: str
    voice: str
    path: Path
    plain: str = ""  # whisper without the prompt
    prompted: str = ""  # whisper with the vocabulary's prompt
    whisper_s: float = 0.0
    whisper_prompted_s: float = 0.0


def make_clips(folder: Path) -> list[Clip]:
    from tests.support.speech import synthesize
    from tests.support.voices import speak, steady_voice

    voice = steady_voice()
    clips = []
    for i, (said, meant) in enumerate(TAKES):
        clips.append(Clip(said, meant, "natural", speak(voice, said, folder / f"take{i:02d}-natural.wav")))
        clips.append(Clip(said, meant, "espeak-ng", synthesize(said, folder / f"take{i:02d}-espeak.wav")))
    return clips


def transcribe(clips: list[Clip], prompt: str, threads: int) -> None:
    from parley.engine.audio.files import load_audio
    from parley.engine.modelfiles.defaults import default_speech_model_path
    from parley.engine.speech import SpeechModel, transcribe_speech

    with SpeechModel(default_speech_model_path(), device="cpu", threads=threads) as model:
        transcribe_speech(model, load_audio(clips[0].path))  # warm-up
        for clip in clips:
            audio = load_audio(clip.path)
            started = time.perf_counter()
            heard = transcribe_speech(model, audio)
            clip.whisper_s = time.perf_counter() - started
            started = time.perf_counter()
            prompted = transcribe_speech(model, audio, initial_prompt=prompt)
            clip.whisper_prompted_s = time.perf_counter() - started
            clip.plain = heard.text if heard else ""
            clip.prompted = prompted.text if prompted else ""
            print(f"  {clip.voice:9s} {clip.plain!r}\n  {'+ prompt':9s} {clip.prompted!r}", flush=True)


def names_right(texts: list[str], clips: list[Clip]) -> tuple[int, int]:
    """How many of the names in the references are in the texts, spelled as listed."""
    right = total = 0
    for text, clip in zip(texts, clips, strict=True):
        for name in NAMES:
            if name in clip.meant:
                total += 1
                right += name in text
    return right, total


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else 0.0


def cleaned(clips: list[Clip], options: Any, model_path: Path, threads: int) -> dict[str, dict[str, Any]]:
    """The clean-up by one model within the default limit and with none."""
    from parley.engine.chat.model import ChatModel
    from parley.engine.dictation.cleanup import Cleaner
    from parley.engine.dictation.pipeline import process

    out: dict[str, dict[str, Any]] = {}
    with ChatModel(model_path, device="cpu", n_ctx=2048, threads=threads) as model:
        cleaner = Cleaner(model)
        for label, limit in (("2 s", DEFAULT_LIMIT_S), ("no limit", NO_LIMIT_S)):
            timed = dataclasses.replace(options, cleanup=True, cleanup_timeout_s=limit)
            results = []
            for clip in clips:
                cleaner.prepare(timed)  # as the app does at the key press, while the user speaks
                result = process(clip.prompted, timed, cleaner, language="en")
                results.append(result)
                print(f"  [{label}] {result.cleanup:13s} {result.text!r}", flush=True)
            out[label] = {
                "texts": [r.text for r in results],
                "outcomes": dict(Counter(r.cleanup for r in results)),
                "seconds": [dict(r.steps)["cleanup"] for r in results],
            }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "out" / "dictation.json")
    args = parser.parse_args()

    from parley.engine.dictation.options import DictationOptions
    from parley.engine.dictation.pipeline import process
    from parley.engine.library.packs import installed_packs
    from parley.engine.modelfiles.defaults import default_chat_model_path
    from parley.engine.textmetrics import corpus_word_error_rate

    load_before = os.getloadavg()
    vocabulary = DictationOptions(vocabulary=tuple(NAMES))
    prompt = vocabulary.whisper_prompt() or ""
    with tempfile.TemporaryDirectory(prefix="parley-bench-dictation-") as tmp:
        clips = make_clips(Path(tmp))
        print(f"{len(clips)} clips; whisper's prompt: {prompt!r}", flush=True)
        transcribe(clips, prompt, args.threads)

    steps_s: dict[str, list[float]] = {}

    def run(raw: list[str], options: DictationOptions) -> list[str]:
        texts = []
        for text in raw:
            result = process(text, options, language="en")
            for name, seconds in result.steps:
                steps_s.setdefault(name, []).append(seconds)
            texts.append(result.text)
        return texts

    conditions: dict[str, list[str]] = {
        "plain": [c.plain for c in clips],
        "fillers": run([c.plain for c in clips], DictationOptions()),
        "+ vocabulary": run([c.prompted for c in clips], vocabulary),
    }
    outcomes: dict[str, dict[str, int]] = {}
    cleanup_s: dict[str, list[float]] = {}
    models = [("starter", default_chat_model_path())]
    ready = sorted((s for s in installed_packs() if s.status == "ready" and s.path), key=lambda s: -s.pack.rank)
    if ready:
        models.append((ready[0].pack.name, ready[0].path))
    for label, path in models:
        print(f"clean-up by {label}", flush=True)
        for limit, figures in cleaned(clips, vocabulary, path, args.threads).items():
            key = f"+ clean-up, {label}, {limit}"
            conditions[key] = figures["texts"]
            outcomes[key] = figures["outcomes"]
            cleanup_s[key] = figures["seconds"]

    report: dict[str, Any] = {"clips": len(clips), "prompt": prompt, "threads": args.threads, "conditions": {}}
    report["load_average"] = {"before": load_before[0], "after": os.getloadavg()[0], "cpus": os.cpu_count()}
    print(f"\nload average {load_before[0]:.1f} before, {os.getloadavg()[0]:.1f} after, on {os.cpu_count()} CPUs")
    print(f"\n{'':48s} {'WER':>6s} {'natural':>8s} {'espeak':>7s} {'names':>7s}")
    for key, texts in conditions.items():
        pairs = [(c.meant, t) for c, t in zip(clips, texts, strict=True)]
        by_voice = {
            v: corpus_word_error_rate([p for p, c in zip(pairs, clips, strict=True) if c.voice == v])
            for v in ("natural", "espeak-ng")
        }
        right, total = names_right(texts, clips)
        wer = corpus_word_error_rate(pairs)
        print(f"{key:48s} {wer:6.3f} {by_voice['natural']:8.3f} {by_voice['espeak-ng']:7.3f} {right:3d}/{total}")
        report["conditions"][key] = {"wer": wer, "wer_by_voice": by_voice, "names_right": [right, total]}
    print("\nclean-up outcomes:")
    for key, counts in outcomes.items():
        print(f"  {key}: {dict(sorted(counts.items()))}")
        report["conditions"][key]["outcomes"] = counts
    print("\nadded latency (ms), p50 / p95:")
    latency = {name: values for name, values in steps_s.items()}
    latency |= {f"cleanup ({key.removeprefix('+ clean-up, ')})": values for key, values in cleanup_s.items()}
    latency["whisper"] = [c.whisper_s for c in clips]
    latency["whisper with the prompt"] = [c.whisper_prompted_s for c in clips]
    report["latency_ms"] = {}
    for name, values in latency.items():
        p50, p95 = percentile(values, 0.5) * 1000, percentile(values, 0.95) * 1000
        print(f"  {name:40s} {p50:9.2f} {p95:9.2f}")
        report["latency_ms"][name] = {"p50": p50, "p95": p95, "mean": statistics.fmean(values) * 1000}
    report["texts"] = {
        key: [{"said": c.said, "voice": c.voice, "typed": t} for c, t in zip(clips, texts, strict=True)]
        for key, texts in conditions.items()
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False))
    print(f"\nwritten to {args.out}")


if __name__ == "__main__":
    main()
