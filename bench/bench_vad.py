"""Hands-free turn detection: the neural detector (Silero VAD on ggml) against the energy one.

For each detector, through the same ``UtteranceSegmenter`` the app uses:

- false triggers: 20 s scenes, a quiet room for 2 s and then a noise that starts and goes on
  (a fan, keys typed, music, a television voice across the room), at three levels and three
  seeds: how many utterances start, and how many seconds of noise would go to transcription;
- missed speech: sentences of real speech (whisper.cpp's JFK sample), a natural voice (Piper)
  and espeak-ng, each alone in a quiet room and over a fan: a sentence is missed when the
  utterances cover less than 80% of it;
- end of turn: from the end of each sentence to the moment its utterance is complete;
- cost: CPU time of the neural detector per second of audio.

Also the agreement of whisper.cpp's Silero framing (each window alone, reflect-padded) with the
reference Silero (ONNX Runtime, the previous 64 samples as context), as the share of windows
decided alike.  Run: ``.venv/bin/python bench/bench_vad.py``.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
import soundfile
import soxr

from parley.engine.audio.silero import NeuralDetector, SileroVAD
from parley.engine.audio.vad import EnergyDetector, UtteranceSegmenter
from parley.engine.modelfiles.defaults import default_vad_model_path, default_vad_source
from tests.support import noises
from tests.support.speech import room_noise, synthesize
from tests.support.tinymodels import llama_cpp_source

RATE = 16000
BLOCK = 1600  # the listener's 100 ms blocks
SENTENCES = [
    "Turn on the kitchen light.",
    "What time is it in Tokyo?",
    "Remind me to call my sister tomorrow morning.",
    "How far is the moon from the earth?",
    "Play something quiet.",
    "Thank you very much.",
]


def run(segmenter: UtteranceSegmenter, audio: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """(sample at which each utterance was complete, the utterance)."""
    out = []
    for i in range(0, len(audio), BLOCK):
        for utterance in segmenter.push(audio[i : i + BLOCK]):
            out.append((min(len(audio), i + BLOCK), utterance))
    rest = segmenter.flush()
    if rest is not None:
        out.append((len(audio), rest))
    return out


def locate(scene: np.ndarray, utterance: np.ndarray) -> int:
    """Where ``utterance`` (a verbatim run of the scene's samples) starts in ``scene``."""
    for candidate in np.flatnonzero(scene == utterance[0]):
        if np.array_equal(scene[candidate : candidate + len(utterance)], utterance):
            return int(candidate)
    raise AssertionError("an utterance that is not part of the scene")


def speech_clips(tmp: Path) -> dict[str, list[np.ndarray]]:
    jfk, rate = soundfile.read(llama_cpp_source().parent / "whisper.cpp" / "samples" / "jfk.wav", dtype="float32")
    assert rate == RATE
    clips = {"real (JFK)": [jfk]}
    clips["espeak-ng"] = [
        soundfile.read(synthesize(s, tmp / f"e{i}.wav"), dtype="float32")[0] for i, s in enumerate(SENTENCES)
    ]
    from parley.engine.voice.voices import load_voice

    voice = load_voice(threads=2)
    clips["natural (Piper)"] = [
        soxr.resample(voice.synthesize(s), voice.sample_rate, RATE).astype(np.float32) for s in SENTENCES
    ]
    for name, group in clips.items():  # speech at a talking level (about -20 dBFS)
        clips[name] = [(c * (0.1 / max(1e-6, float(np.sqrt(np.mean(c**2)))))).astype(np.float32) for c in group]
    return clips


def onnx_agreement(audio: np.ndarray, probs: np.ndarray) -> float | None:
    try:
        import onnxruntime
    except ImportError:
        return None
    model = default_vad_source().parent / "silero_vad.onnx"
    if not model.is_file():
        return None
    session = onnxruntime.InferenceSession(str(model), providers=["CPUExecutionProvider"])
    state = np.zeros((2, 1, 128), np.float32)
    context = np.zeros(64, np.float32)
    ref = []
    for i in range(len(probs)):
        window = audio[i * 512 : (i + 1) * 512]
        x = np.concatenate([context, window])[None, :].astype(np.float32)
        out, state = session.run(None, {"input": x, "state": state, "sr": np.array(RATE, np.int64)})
        ref.append(float(out[0][0]))
        context = window[-64:]
    return float(np.mean((np.array(ref) >= 0.5) == (probs >= 0.5)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()
    vad = SileroVAD(default_vad_model_path())
    detectors = {"energy": lambda: EnergyDetector(), "neural": lambda: NeuralDetector(vad)}

    print("False triggers: 20 s scenes, 2 s of quiet room, then the noise (utterances started / seconds sent)")
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        clips = speech_clips(tmp)
        tv_speech = np.concatenate(clips["espeak-ng"])
        makers = {
            **noises.NOISES,
            "tv voice": lambda s, level_db, seed: noises.distant_voice(tv_speech, s, level_db, seed),
        }
        totals = {name: [0, 0.0, 0] for name in detectors}
        print(f"{'noise':<10} {'level':>6}  " + "  ".join(f"{n:>16}" for n in detectors))
        for noise, make in makers.items():
            for level in (-40.0, -30.0, -20.0):
                row = []
                for name, detector in detectors.items():
                    started, seconds = 0, 0.0
                    for seed in range(args.seeds):
                        scene = np.concatenate([room_noise(2.0, seed=seed), make(18.0, level_db=level, seed=seed)])
                        heard = run(UtteranceSegmenter(detector()), scene)
                        started += len(heard)
                        seconds += sum(len(u) for _, u in heard) / RATE
                    totals[name][0] += started
                    totals[name][1] += seconds
                    totals[name][2] += args.seeds
                    row.append(f"{started:>5} / {seconds:>6.1f} s")
                print(f"{noise:<10} {level:>6.0f}  " + "  ".join(f"{r:>16}" for r in row))
        for name, (started, seconds, scenes) in totals.items():
            print(f"  {name}: {started} utterances started in {scenes} noise scenes, {seconds:.0f} s of noise sent")

        print("\nMissed speech and end of turn (sentence end -> utterance complete)")
        for backdrop_name, backdrop in (
            ("quiet room", lambda n, s: room_noise(n, seed=s)),
            ("fan -35 dBFS", lambda n, s: noises.fan(n, -35.0, s)),
        ):
            for name, detector in detectors.items():
                missed, total, delays = 0, 0, []
                for group in clips.values():
                    for k, clip in enumerate(group):
                        lead = 2.0
                        scene = backdrop(lead + len(clip) / RATE + 3.0, k)
                        start = int(lead * RATE)
                        scene[start : start + len(clip)] += clip
                        heard = run(UtteranceSegmenter(detector()), scene)
                        covered = 0  # samples of the sentence inside the utterances
                        for _, utterance in heard:
                            lo = locate(scene, utterance)
                            covered += max(0, min(start + len(clip), lo + len(utterance)) - max(start, lo))
                        total += 1
                        if covered < 0.8 * len(clip):
                            missed += 1
                        ends = [done_at for done_at, _ in heard if done_at >= start + len(clip)]
                        if ends:
                            delays.append((ends[0] - (start + len(clip))) / RATE)
                p50 = np.percentile(delays, 50) if delays else float("nan")
                print(f"  {backdrop_name:<13} {name:<7} missed {missed}/{total}; end of turn p50 {p50 * 1000:.0f} ms")

        audio = np.concatenate([room_noise(1.0)] + [c for g in clips.values() for c in g])
        vad.reset()
        t0 = time.process_time()
        probs = vad.probabilities(audio)
        cpu = time.process_time() - t0
        print(
            f"\nNeural detector cost: {cpu / (len(audio) / RATE) * 1000:.1f} ms of CPU per second of audio (1 thread)"
        )
        agreement = onnx_agreement(audio, probs)
        if agreement is not None:
            share = f"{agreement * 100:.1f}%"
            print(f"Agreement with Silero's own framing (ONNX Runtime, 64-sample context): {share} of windows")


if __name__ == "__main__":
    main()
