"""Voice benchmark (not a test): the natural voice's speed, intelligibility, stop latency, echo
cancelling and memory, on 2 threads with the default models.

    python bench/bench_voice.py [--sentences 20] [--no-playback]

- TTS real-time factor: synthesis time / audio length, per sentence (20 sentences);
- intelligibility: WER of tiny.en (and Whisper base when installed) on those sentences;
- first audio: from a reply's first sentence being written to the first sound leaving the
  player, p50/p95 (the part of "release -> first audio" the voice adds; add the transcription
  and the chat model's first sentence, from bench_app.py, for the whole);
- barge-in stop latency: ``Speaker.stop`` until the device is silent, p50/p95;
- ERLE (dB) of the echo canceller on simulated speakers: the played voice mixed into the
  microphone 60 ms later at half the level with room noise, measured after the first 3 s;
- resident memory the voice adds (RSS after loading it and synthesizing, minus before; ONNX
  Runtime included).
Playback parts use the default output device (a PulseAudio null sink is fine).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

import numpy as np
import soxr

from parley.engine.errors import ParleyError
from parley.engine.formats import SAMPLE_RATE

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
        wer = corpus_word_error_rate(list(zip(sentences, heard, strict=True)))
        print(f"WER of the natural voice, {name}: {100 * wer:.1f}% over {len(sentences)} sentences")

    erle()
    if not args.no_playback:
        playback(voice, sentences)


def erle() -> None:
    from parley.engine.audio.echo import EchoCanceller
    from parley.engine.voice.voices import load_voice

    voice = load_voice(threads=2)
    played = soxr.resample(
        np.concatenate([voice.synthesize(s) for s in SENTENCES[:8]]), voice.sample_rate, SAMPLE_RATE
    ).astype(np.float32)
    for delay_s in (0.06, 0.2):  # PulseAudio's loopback is ~0.085 s; real sound cards up to a few tenths
        delay = int(delay_s * SAMPLE_RATE)
        mic = np.concatenate([np.zeros(delay, np.float32), 0.5 * played])[: len(played)]
        mic = (mic + np.random.default_rng(0).normal(0, 1e-3, len(mic))).astype(np.float32)
        echo, block, out = EchoCanceller(), int(0.02 * SAMPLE_RATE), []
        t0 = time.perf_counter()
        for i in range(0, len(played) - block + 1, block):
            echo.reference(played[i : i + block], SAMPLE_RATE)
            out.append(echo.process(mic[i : i + block]))
        cost = (time.perf_counter() - t0) / (len(played) / SAMPLE_RATE)
        clean = np.concatenate(out)
        figures = []
        for start_s, end_s in ((0, 3), (3, 6), (6, len(clean) / SAMPLE_RATE)):
            part = slice(int(start_s * SAMPLE_RATE), int(end_s * SAMPLE_RATE))
            figures.append(10 * np.log10(np.mean(mic[part] ** 2) / np.mean(clean[part] ** 2)))
        print(
            f"echo canceller ERLE (simulated speakers, echo {1000 * delay_s:.0f} ms late at half level; "
            f"measured delay {1000 * echo.delay / SAMPLE_RATE:.0f} ms + 20 ms margin): "
            f"{figures[0]:.1f} dB in the first 3 s, {figures[1]:.1f} dB in the next 3 s, {figures[2]:.1f} dB after; "
            f"it costs {100 * cost:.1f}% of a core"
        )


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
