"""The utterances of ``bench/bench_turns.py`` and the turn-end tests: has the speaker finished?

Two kinds, 20 of each, spoken to a voice assistant:

- ``paused``: a request with a pause to think in the middle ("Can you remind me to ... call the
  dentist on Friday?"), 0.5 to 1.5 s long.  The whole request is synthesised with a comma at
  the pause, so its first part has the melody of a sentence that goes on; the comma's short
  pause is widened (room noise only).  Ending the turn in that pause sends half a sentence.
- ``finished``: a complete question or request, which should be answered as soon as it ends.

Each is spoken by Parley's natural voice (Piper) or by espeak-ng, alternately, at a talking
level (-20 dBFS) over a quiet room's noise, and everything random is seeded: ``utterances``
gives the same audio each run (Piper's noise included, seeded once before the voice loads, so
a clip depends on the clips made before it in the same process).
"""

from __future__ import annotations

import dataclasses
import functools
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import soundfile
import soxr

from tests.support.speech import room_noise, synthesize

RATE = 16000
LEAD_SECONDS = 1.0  # room noise before the speech
TAIL_SECONDS = 3.0  # and after it, longer than any pause that ends a turn
SPEECH_RMS = 0.1  # -20 dBFS
ROOM_DB = -55.0
VOICES = ("piper", "espeak-ng")

PAUSED = [
    ("Can you remind me to", "call the dentist on Friday?"),
    ("I'd like to book a table for", "four people tomorrow evening."),
    ("What's the weather going to be like in", "Lisbon this weekend?"),
    ("Set a timer for", "twenty minutes."),
    ("How many grams of flour are in", "one cup?"),
    ("Could you write an email to", "my landlord about the heating?"),
    ("Play some music by", "a jazz pianist."),
    ("What is the capital of", "Australia?"),
    ("Translate good morning into", "Spanish and French."),
    ("Turn the living room lights to", "half brightness."),
    ("How long does it take to boil", "an egg?"),
    ("Add milk, eggs and", "bread to my shopping list."),
    ("Tell me a short story about", "a dragon who loves books."),
    ("What's the difference between", "a virus and a bacterium?"),
    ("Remind me tomorrow at nine to", "water the plants."),
    ("How do I convert", "kilometres into miles?"),
    ("Summarise the last message from", "my manager."),
    ("When was the", "Eiffel Tower built?"),
    ("Send a message to Anna saying", "I'll be ten minutes late."),
    ("Explain how a", "rainbow is formed."),
]

FINISHED = [
    "What time is it in Tokyo?",
    "How far is the moon from the earth?",
    "Can you set an alarm for seven tomorrow?",
    "What's the weather like today?",
    "Who wrote Pride and Prejudice?",
    "How do you say thank you in Japanese?",
    "What is twelve times eight?",
    "Turn off the kitchen lights, please.",
    "Remind me to buy milk.",
    "What's on my calendar this afternoon?",
    "How many days are there in a leap year?",
    "Can you recommend a good book?",
    "Why is the sky blue?",
    "Play my morning playlist.",
    "What is the boiling point of water in Fahrenheit?",
    "Is it going to rain tomorrow?",
    "How tall is Mount Everest?",
    "Tell me a joke.",
    "What does photosynthesis mean?",
    "Where is the nearest pharmacy?",
]


@dataclasses.dataclass(frozen=True)
class Utterance:
    kind: str  # "paused" or "finished"
    text: str  # "head ... tail" for a paused one
    voice: str  # "piper" or "espeak-ng"
    audio: np.ndarray  # the whole scene, 16 kHz float32: room, speech, room
    speech_end: int  # sample after the last word
    pause: tuple[int, int] | None  # (first, one past the last) sample of the pause, for a paused one


def _speech_bounds(clip: np.ndarray) -> tuple[int, int]:
    """First and one past the last sample of the 10 ms frames above -50 dBFS."""
    frame = RATE // 100
    n = len(clip) // frame
    loud = np.flatnonzero(np.sqrt(np.mean(clip[: n * frame].reshape(n, frame) ** 2, axis=1)) >= 10 ** (-50 / 20))
    return int(loud[0]) * frame, (int(loud[-1]) + 1) * frame


def _trimmed(clip: np.ndarray) -> np.ndarray:
    start, end = _speech_bounds(clip)
    return clip[start:end]


@functools.cache
def _piper() -> Any:
    """The natural voice, its sampling noise seeded: ONNX Runtime seeds a session's random
    generators when it makes them, so the same texts in the same order give the same audio."""
    import onnxruntime

    from parley.engine.voice.voices import load_voice

    onnxruntime.set_seed(0)
    return load_voice(threads=2)


def speak(text: str, voice: str) -> np.ndarray:
    """``text`` in ``voice`` ("piper" or "espeak-ng"), 16 kHz, without silence around it."""
    if voice == "piper":
        piper = _piper()
        clip = soxr.resample(piper.synthesize(text), piper.sample_rate, RATE).astype(np.float32)
    else:
        with tempfile.TemporaryDirectory(prefix="parley-turns-") as tmp:
            clip = soundfile.read(synthesize(text, Path(tmp) / "clip.wav"), dtype="float32")[0]
    return _trimmed(clip)


def _level(*clips: np.ndarray) -> list[np.ndarray]:
    """The clips at one talking level (their joint RMS at ``SPEECH_RMS``)."""
    rms = float(np.sqrt(np.mean(np.concatenate(clips) ** 2))) or 1.0
    return [(c * (SPEECH_RMS / rms)).astype(np.float32) for c in clips]


def _comma_gap(clip: np.ndarray, at: float) -> tuple[int, int]:
    """The longest quiet run (10 ms frames 35 dB under the loudest) near the fraction ``at`` of
    ``clip`` (where the comma's letters fall, within 15% of the clip): the pause a voice makes
    at a comma (none: the place itself)."""
    frame = RATE // 100
    n = len(clip) // frame
    level = 20 * np.log10(np.sqrt(np.mean(clip[: n * frame].reshape(n, frame) ** 2, axis=1)) + 1e-9)
    quiet = np.concatenate([[False], level < level.max() - 35, [False]])
    edges = np.flatnonzero(np.diff(quiet.astype(int)))
    runs = [(int(a), int(b)) for a, b in zip(edges[::2], edges[1::2], strict=True) if b - a >= 3]
    near = [r for r in runs if abs((r[0] + r[1]) / 2 - at * n) <= 0.15 * n]
    if not near:  # no pause at the comma: cut there all the same
        return int(at * n) * frame, int(at * n) * frame
    best = max(near, key=lambda r: r[1] - r[0])
    return best[0] * frame, best[1] * frame


def paused(i: int, voice: str, seed: int = 0) -> Utterance:
    """``PAUSED[i]`` in ``voice``, its pause drawn from ``seed``.  The whole sentence is spoken
    with a comma where the pause goes, so the first part keeps the melody of a sentence that
    goes on; the comma's short pause is then widened to the drawn one."""
    head, tail = PAUSED[i]
    pause = np.random.default_rng(seed).uniform(0.5, 1.5, len(PAUSED))[i]
    (whole,) = _level(speak(f"{head}, {tail}", voice))
    gap_start, gap_end = _comma_gap(whole, (len(head) + 1) / (len(head) + len(tail) + 2))
    first, second = whole[:gap_start], whole[gap_end:]
    lead = int(LEAD_SECONDS * RATE)
    resume = lead + len(first) + int(pause * RATE)
    n = resume + len(second) + int(TAIL_SECONDS * RATE)
    scene = room_noise(n / RATE + 0.1, ROOM_DB, seed=seed * 1000 + i)[:n]
    scene[lead : lead + len(first)] += first
    scene[resume : resume + len(second)] += second
    return Utterance("paused", f"{head} ... {tail}", voice, scene, resume + len(second), (lead + len(first), resume))


def finished(i: int, voice: str, seed: int = 0) -> Utterance:
    """``FINISHED[i]`` in ``voice``."""
    (clip,) = _level(speak(FINISHED[i], voice))
    lead = int(LEAD_SECONDS * RATE)
    n = lead + len(clip) + int(TAIL_SECONDS * RATE)
    scene = room_noise(n / RATE + 0.1, ROOM_DB, seed=seed * 1000 + 100 + i)[:n]
    scene[lead : lead + len(clip)] += clip
    return Utterance("finished", FINISHED[i], voice, scene, lead + len(clip), None)


def utterances(seed: int = 0, both_voices: bool = False) -> list[Utterance]:
    """The set: 20 paused and 20 finished, each in one voice (alternately), or in both."""
    out = []
    for i in range(len(PAUSED)):
        out += [paused(i, v, seed) for v in (VOICES if both_voices else [VOICES[i % 2]])]
    for i in range(len(FINISHED)):
        out += [finished(i, v, seed) for v in (VOICES if both_voices else [VOICES[(i + 1) % 2]])]
    return out
