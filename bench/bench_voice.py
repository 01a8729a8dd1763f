"""Voice benchmark (not a test): the natural voice's speed, intelligibility, stop latency, echo
cancelling and memory, on 2 threads with the default models.

    python bench/bench_voice.py [--sentences 20] [--no-playback]

- TTS real-time factor: synthesis time / audio length, per sentence (20 sentences);
- intelligibility: WER of tiny.en (and Whisper base when installed) on those sentences, made
  whole and as a streaming reply has them made (its first pieces cut early and made apart, the
  silence before the first cut: ``SentenceSplitter``, ``trim_leading_silence``);
- first audio: from a reply's first sentence being written to the first sound leaving the
  player, p50/p95 (the part of "release -> first audio" the voice adds; add the transcription
  and the chat model's first sentence, from bench_app.py, for the whole);
- barge-in stop latency: ``Speaker.stop`` until the device is silent, p50/p95;
- echo cancelling and barge-in with the app's canceller (AEC3), in bench_echo.py's simulated
  rooms (``--echo-runs`` per level): ERLE, turns Parley's own voice started, the time from a
  question's first word to the voice falling silent, and the question's WER, at -18 and 0 dB;
- resident memory the voice adds (RSS after loading it and synthesizing, minus before; ONNX
  Runtime included).
Playback parts use the default output device (a PulseAudio null sink is fine).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import soxr

from parley.engine.errors import ParleyError
from parley.engine.formats import SAMPLE_RATE

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench_echo, beside this file

SENTENCES = [
    "The weather is nice today.",
    "Please open the window in the kitchen.",
    "My brother lives in a small town near the sea.",
    "Parley runs on your own computer.",
    "We will meet at the station at seven.",
    "The children are playing in the garden.",
    "Could you tell me the way to the museum?",
    "She bought three apples and a loaf of bread.",
    "The train was late because of the snow.",
    "I would like a cup of tea with milk.",
    "Turn left at the next corner and keep going.",
    "The meeting has been moved to Thursday afternoon.",
    "He reads a book every night before bed.",
    "Our team won the game by two points.",
    "The library closes at six in the evening.",
    "Remember to water the plants on Sunday.",
    "The doctor said I should rest for a week.",
    "This recipe needs flour, sugar and butter.",
    "The river flows slowly through the valley.",
    "Thank you for helping me with the move.",
]


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sentences", type=int, default=20)
    parser.add_argument("--no-playback", action="store_true")
    parser.add_argument("--echo-runs", type=int, default=10, help="runs per echo level for the barge-in figures")
    args = parser.parse_args()
    sentences = SENTENCES[: args.sentences]

    from parley.engine.voice.voices import load_voice

    before = rss_mb()
    start = time.perf_counter()
    voice = load_voice(threads=2)
    print(f"voice loaded in {time.perf_counter() - start:.2f} s")
    clips, rtfs = [], []
    for text in sentences:
        t0 = time.perf_counter()
        audio = voice.synthesize(text)
        rtfs.append((time.perf_counter() - t0) / (len(audio) / voice.sample_rate))
        clips.append(soxr.resample(audio, voice.sample_rate, SAMPLE_RATE).astype(np.float32))
    streamed = [soxr.resample(as_streamed(voice, t), voice.sample_rate, SAMPLE_RATE) for t in sentences]
    print(f"TTS real-time factor: median {statistics.median(rtfs):.3f}, p95 {pct(rtfs, 95):.3f}")
    print(f"resident memory added by the voice (loaded, {len(sentences)} sentences said): {rss_mb() - before:.0f} MB")

    from parley.engine.modelfiles.defaults import base_speech_sources, default_speech_model_path, speech_model_path
    from parley.engine.speech import SpeechModel
    from parley.engine.textmetrics import corpus_word_error_rate

    models = [("tiny.en", default_speech_model_path())]
    try:
        if base_speech_sources():
            models.append(("base", speech_model_path("base")))
    except ParleyError as e:
        print(f"Whisper base is not installed ({e}): tiny.en only")
    for name, path in models:
        with SpeechModel(path, device="cpu", threads=2) as model:
            heard = [model.transcribe(c, language="en").text for c in clips]
            heard_streamed = [model.transcribe(c.astype(np.float32), language="en").text for c in streamed]
        wer = corpus_word_error_rate(list(zip(sentences, heard, strict=True)))
        wer_streamed = corpus_word_error_rate(list(zip(sentences, heard_streamed, strict=True)))
        print(
            f"WER of the natural voice, {name}: {100 * wer:.1f}% over {len(sentences)} sentences made whole, "
            f"{100 * wer_streamed:.1f}% made as a streaming reply has them made"
        )

    barge_in(args.echo_runs)
    if not args.no_playback:
        playback(voice, sentences)


def as_streamed(voice: Any, sentence: str) -> np.ndarray:
    """``sentence`` as the read-aloud voice speaks it when a reply streams in (a few characters
    at a time, as tokens come): cut into pieces made apart, the silence before the first cut."""
    from parley.engine.voice.sentences import SentenceSplitter
    from parley.engine.voice.speaker import trim_leading_silence

    splitter = SentenceSplitter()
    pieces = [p for i in range(0, len(sentence), 3) for p in splitter.push(sentence[i : i + 3])] + splitter.flush()
    audio = [voice.synthesize(p) for p in pieces]
    audio[0] = trim_leading_silence(audio[0], voice.sample_rate)
    return np.concatenate(audio)


def barge_in(runs: int) -> None:
    """The app's echo canceller and barge-in, measured as bench_echo.py measures them (its rooms,
    hands-free's path), at a typical clock drift (100 ppm)."""
    import bench_echo

    from parley.engine.audio.echo import EchoCanceller, EchoGuard
    from parley.engine.audio.silero import NeuralDetector, SileroVAD
    from parley.engine.audio.vad import UtteranceSegmenter
    from parley.engine.modelfiles.defaults import default_speech_model_path
    from parley.engine.speech import SpeechModel, transcribe_speech

    args = argparse.Namespace(runs=runs, seconds=20.0, drift=0.0001, no_wer=False)
    clips, questions = bench_echo.voice_clips(), bench_echo.question_clips()
    vad = SileroVAD.default()
    segmenter = UtteranceSegmenter(NeuralDetector(vad))
    app = bench_echo.Variant("app", EchoCanceller, EchoGuard)
    with SpeechModel(default_speech_model_path(), device="cpu", threads=2) as model:

        def transcribe(audio: np.ndarray) -> str:
            spoken = transcribe_speech(model, audio, language="en")
            return spoken.text if spoken is not None else ""

        for level in (-18.0, 0.0):
            row = bench_echo.measure(app, level, args, clips, questions, segmenter, transcribe)
            print(
                f"echo canceller {EchoCanceller.name}, echo at {level:.0f} dB against the user ({runs} runs of 20 s): "
                f"ERLE {row.erle_first:.1f} dB in the first 3 s, {row.erle_after:.1f} dB after; "
                f"{row.turns} turns started by Parley's own voice; a question over it silenced it "
                f"{pct(row.latency_ms, 50):.0f} ms after its first word (p95 {pct(row.latency_ms, 95):.0f}, "
                f"{row.missed} missed; asked 0.5-2.5 s into the reply: p50 {pct(row.early_latency_ms, 50):.0f} ms, "
                f"{row.early_missed} missed), WER {row.wer:.1f}%; the path costs {row.cpu_pct:.1f}% of a core"
            )
    vad.close()


def playback(voice: object, sentences: list[str]) -> None:
    from parley.engine.voice.speaker import Speaker

    firsts, stops = [], []
    speaker = Speaker(lambda: voice)  # type: ignore[arg-type, return-value]
    try:
        for text in sentences[:10]:
            speaker.begin()
            t0 = time.monotonic()
            speaker.feed(text + " And then it goes on for a while, long enough to be stopped.")
            while speaker.first_audio_at is None and time.monotonic() - t0 < 30:
                time.sleep(0.001)
            if speaker.first_audio_at is not None:
                firsts.append(speaker.first_audio_at - t0)
            time.sleep(0.3)
            t1 = time.monotonic()
            speaker.stop()
            stops.append(time.monotonic() - t1)
    finally:
        speaker.close()
    ms = [1000 * v for v in firsts]
    print(f"first sentence written -> first audio: p50 {pct(ms, 50):.0f} ms, p95 {pct(ms, 95):.0f} ms")
    ms = [1000 * v for v in stops]
    print(f"barge-in stop latency (stop -> device silent): p50 {pct(ms, 50):.0f} ms, p95 {pct(ms, 95):.0f} ms")


if __name__ == "__main__":
    main()
