"""Echo cancellers compared offline (not a test): Parley's natural voice played through a
simulated room into the microphone, with and without a user's question over it, through the
same listening path as hands-free (canceller, ``EchoGuard``, Silero VAD in the
``UtteranceSegmenter``, the mostly-echo check), on the same recordings for every canceller.

    .venv/bin/python bench/bench_echo.py [--runs 20] [--seconds 20] [--variants pywebrtc+guard,livekit+guard]

The room (one per run, the same for every canceller; seeded):
- the far end: Parley's default natural voice reading sentences (as a reply is read: 0.15 to
  0.5 s between them), 16 kHz;
- a small loudspeaker (its loudest peaks softly clipped: what no linear filter can model), a
  synthetic room response (direct sound, early reflections, a reverberant tail, RT60 0.3 s),
  an echo delay of 20 to 200 ms after the pairing by order (device latencies plus the air),
  the microphone's clock 0.1% fast (20 ms of drift over 20 s), and in every other run the
  delay jumping by 40 to 120 ms at 8 to 12 s with a new room response (a Bluetooth speaker
  relinking; a door opening);
- the echo at the microphone -18 dB or 0 dB against the user's voice (both RMS over their
  voiced 20 ms frames; the user at -23 dBFS); room noise at -65 dBFS.

Figures, per variant and echo level:
- ERLE: microphone over output power on 20 ms blocks with Parley's echo and nobody else, in
  the first 3 s and after (median of the runs; room noise caps it at ~24 dB at -18 dB);
- own-voice turns: turns Parley's voice started in ``--runs`` runs of ``--seconds`` s alone
  (each would pause the voice for a check) and those that reached transcription (not taken
  for mostly echo);
- barge-in: from the question's first word to the turn starting, where the voice falls silent
  (it is then silenced in the simulation too, 20 ms later: the measured stop), median and p95,
  and questions never heard; asked 5 to 14 s into the reply, and "early" at 0.5 to 2.5 s (while
  a canceller is still learning the room);
- conv: seconds from Parley's first sound until ``EchoGuard`` takes the canceller as converged
  (median and slowest run): until then only a voice clearly louder than the echo interrupts;
- CPU: the listening path's processor time (canceller, guard, Silero) per second of audio;
- WER (Whisper tiny.en, the app's transcription rules) of what was sent from the question on,
  against the same questions alone in the same room noise.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import math
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import soundfile
import soxr

from parley.engine.audio.echo import EchoGuard, WebRtcEchoCanceller, _PairedReference
from parley.engine.audio.files import rms_level
from parley.engine.audio.silero import NeuralDetector, SileroVAD
from parley.engine.audio.vad import UtteranceSegmenter

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_voice import SENTENCES  # noqa: E402 - bench/ is not a package

from tests.support.echo_room import RATE, Room, reply  # noqa: E402

BLOCK = int(0.02 * RATE)  # the listener's blocks
USER_DB = -23.0  # the user's voice at the microphone, RMS of its voiced frames
NOISE_DB = -65.0
STOP_S = 0.02  # from the decision to a silent device (bench_voice: 17 ms p50)
ECHO_UTTERANCE_DB = 8.0  # parley/app/speech/hands_free.py: an utterance the canceller took this much from was echo
QUESTIONS = [
    "How far away is the moon from the earth?",
    "Stop. What time is it in Tokyo right now?",
    "Wait, can you remind me to call my sister tomorrow?",
    "What was the name of the lighthouse keeper's cat?",
    "Please tell me a different story instead.",
]
CACHE = Path.home() / ".cache" / "parley" / "bench-echo"


# ---------------------------------------------------------------- material


def voice_clips() -> list[np.ndarray]:
    """Parley's default voice reading ``SENTENCES`` at 16 kHz (cached: synthesis is the slow part)."""
    from parley.engine.voice.voices import DEFAULT_VOICE, load_voice

    key = hashlib.sha256(("\n".join(SENTENCES) + DEFAULT_VOICE).encode()).hexdigest()[:16]
    path = CACHE / f"voice-{key}.npz"
    if path.is_file():
        with np.load(path) as data:
            return [data[f"c{i}"] for i in range(len(SENTENCES))]
    voice = load_voice(threads=2)
    clips = [soxr.resample(voice.synthesize(s), voice.sample_rate, RATE).astype(np.float32) for s in SENTENCES]
    CACHE.mkdir(parents=True, exist_ok=True)
    np.savez(path, **{f"c{i}": c for i, c in enumerate(clips)})
    return clips


def question_clips() -> list[np.ndarray]:
    """``QUESTIONS`` spoken by espeak-ng (a voice unlike Parley's), 16 kHz."""
    from tests.support.speech import synthesize

    clips = []
    with tempfile.TemporaryDirectory(prefix="parley-bench-echo-") as tmp:
        for i, text in enumerate(QUESTIONS):
            path = synthesize(text, Path(tmp) / f"q{i}.wav", voice="en-us", rate_wpm=150)
            clips.append(soundfile.read(path, dtype="float32")[0])
    return clips


def voiced_rms_db(audio: np.ndarray) -> float:
    """RMS level (dBFS) over the 20 ms frames within 30 dB of the loudest."""
    frames = audio[: len(audio) // BLOCK * BLOCK].reshape(-1, BLOCK)
    levels = 10 * np.log10(np.mean(frames.astype(np.float64) ** 2, axis=1) + 1e-20)
    voiced = frames[levels >= levels.max() - 30.0]
    return 10 * math.log10(float(np.mean(voiced.astype(np.float64) ** 2)) + 1e-20)


def first_word(audio: np.ndarray) -> int:
    """The first sample of the first 10 ms frame within 30 dB of the clip's loudest frame."""
    frame = RATE // 100
    frames = audio[: len(audio) // frame * frame].reshape(-1, frame)
    levels = 10 * np.log10(np.mean(frames.astype(np.float64) ** 2, axis=1) + 1e-20)
    return int(np.argmax(levels >= levels.max() - 30.0)) * frame


# ---------------------------------------------------------------- the listening path


@dataclasses.dataclass
class Variant:
    name: str
    canceller: Callable[[], Any] | None  # None: the raw microphone
    guard: Callable[[], EchoGuard] | None  # None: every block may be speech


@dataclasses.dataclass
class Heard:
    starts: list[int]  # samples at which a turn started
    sent: list[tuple[int, np.ndarray]]  # (sample at which it was complete, utterance) not taken for echo
    dropped_as_echo: int
    clean: np.ndarray  # the canceller's output
    converged_at: int | None = None  # the sample at which the guard found the canceller converged


def listen(
    variant: Variant,
    segmenter: UtteranceSegmenter,
    played: np.ndarray,
    microphone: Callable[[np.ndarray], np.ndarray],
    barge_in_after: int | None = None,
) -> Heard:
    """Hands-free's path (``HandsFree._audio``) block by block.  ``barge_in_after``: a turn
    starting after this sample silences the voice (STOP_S later), and the microphone is heard
    again from the changed room."""
    canceller = variant.canceller() if variant.canceller else None
    guard = variant.guard() if variant.guard else None
    segmenter.reset()
    played = played.copy()
    mic = microphone(played)
    restarts = canceller.restarts if canceller is not None else 0
    energy = [0.0, 0.0]
    heard = Heard([], [], 0, np.zeros(len(mic), np.float32))
    done = 0
    for i in range(0, len(mic) - BLOCK + 1, BLOCK):
        raw = mic[i : i + BLOCK]
        may_be_speech = True
        cleaned = raw
        if canceller is not None:
            canceller.reference(played[i : i + BLOCK], RATE)
            cleaned = canceller.process(raw)
            if guard is not None:
                if canceller.restarts != restarts:
                    restarts = canceller.restarts
                    guard.filter_restarted()
                may_be_speech = guard.admit(raw, cleaned, canceller.reference_level)
                if heard.converged_at is None and guard.converged:
                    heard.converged_at = i + BLOCK
        heard.clean[done : done + len(cleaned)] = cleaned
        done += len(cleaned)
        heard_e, left_e = float(np.dot(raw, raw)), float(np.dot(cleaned, cleaned))
        was = segmenter.in_utterance
        utterances = segmenter.push(cleaned, may_be_speech)
        energy[0] += heard_e
        energy[1] += left_e
        for utterance in utterances:
            if energy[0] > 0 and (energy[1] <= 0 or 10 * math.log10(energy[0] / energy[1]) >= ECHO_UTTERANCE_DB):
                heard.dropped_as_echo += 1
            else:
                heard.sent.append((i + BLOCK, utterance))
            energy = [0.0, 0.0]
        if segmenter.in_utterance and not was:
            energy = [heard_e, left_e]
            heard.starts.append(i + BLOCK)
            if barge_in_after is not None and i + BLOCK >= barge_in_after:
                barge_in_after = None
                played[i + BLOCK + int(STOP_S * RATE) :] = 0.0
                mic = microphone(played)
    rest = segmenter.flush()
    if rest is not None:
        heard.sent.append((len(mic), rest))
    return heard


# ---------------------------------------------------------------- LiveKit's AEC3, for the comparison


class LiveKitEchoCanceller(_PairedReference):
    """WebRTC's AEC3 as LiveKit builds it (``livekit.rtc.AudioProcessingModule``), for the
    comparison only: ``pip install livekit`` (it brings protobuf and aiofiles) to run it."""

    name = "livekit"
    delay = 0

    def __init__(self) -> None:
        from livekit import rtc

        self._rtc = rtc
        self.frame = RATE // 100
        self.restarts = 0
        self._apm = self._new_module()
        self._init_queue()

    def _new_module(self) -> Any:
        try:
            apm = self._rtc.AudioProcessingModule(echo_cancellation=True, high_pass_filter=True)
            apm.set_stream_delay_ms(0)  # AEC3 measures the delay; the hint is only asked for
        except Exception as e:
            raise RuntimeError(f"LiveKit's echo canceller could not be made: {e}") from e
        return apm

    def process(self, microphone: np.ndarray) -> np.ndarray:
        """``microphone`` (16 kHz mono float32) without the echo; one thread at a time.  What is
        short of a whole 10 ms frame is held back for the next call."""
        audio = self._whole_frames(microphone)
        if len(audio) == 0:
            return audio
        reference = self._take_reference(len(audio))
        self.reference_level = rms_level(reference)
        near, far, n = int16(audio), int16(reference), self.frame
        out = np.empty(len(audio), dtype=np.float32)
        frame = self._rtc.AudioFrame
        for i in range(0, len(near), n):
            self._apm.process_reverse_stream(frame(bytearray(far[i : i + n].tobytes()), RATE, 1, n))
            heard = frame(bytearray(near[i : i + n].tobytes()), RATE, 1, n)
            self._apm.process_stream(heard)  # in place
            out[i : i + n] = np.frombuffer(heard.data, dtype=np.int16) / 32768.0
        return out

    def reset(self) -> None:
        """Forget the reference queued and what AEC3 learnt (a new microphone stream)."""
        self._forget_queue()
        self._apm = self._new_module()
        self.restarts += 1


def int16(audio: np.ndarray) -> np.ndarray:
    return np.asarray(np.clip(audio, -1.0, 1.0) * 32767.0, dtype=np.int16)


VARIANTS = {
    "raw": Variant("raw", None, None),
    "pywebrtc+guard": Variant("pywebrtc+guard", WebRtcEchoCanceller, EchoGuard),
    "pywebrtc": Variant("pywebrtc", WebRtcEchoCanceller, None),
    "livekit+guard": Variant("livekit+guard", LiveKitEchoCanceller, EchoGuard),
    "livekit": Variant("livekit", LiveKitEchoCanceller, None),
}


# ---------------------------------------------------------------- the measurements


@dataclasses.dataclass
class Row:
    variant: str
    level_db: float
    erle_first: float
    erle_after: float
    turns: int
    turns_sent: int
    latency_ms: list[float]
    missed: int
    early_latency_ms: list[float]
    early_missed: int
    wer: float
    cpu_pct: float
    converged_s: list[float]


def variant(name: str) -> Variant:
    """A variant by name: one of ``VARIANTS``, or a canceller with the guard's settings changed,
    such as ``livekit+guard(keep_db=10;converged_db=0)``."""
    if name in VARIANTS:
        return VARIANTS[name]
    base, _, settings = name.partition("(")
    options = dict(kv.split("=") for kv in settings.rstrip(")").split(";"))
    return Variant(name, VARIANTS[base].canceller, lambda: EchoGuard(**{k: float(v) for k, v in options.items()}))


def pct(values: list[float], q: float) -> float:
    """The ``q`` percentile; inf where it falls on a run that never got there."""
    return float(np.percentile(values, q, method="inverted_cdf")) if values else float("nan")


def erle(mic: np.ndarray, clean: np.ndarray, echo: np.ndarray, part: slice) -> float:
    """Microphone over output power on the blocks of ``part`` where the echo is 10 dB over the noise."""
    m, c, e = mic[part], clean[part], echo[part]
    n = min(len(m), len(c)) // BLOCK * BLOCK
    blocks = lambda a: a[:n].astype(np.float64).reshape(-1, BLOCK)  # noqa: E731
    power_e = np.mean(blocks(e) ** 2, axis=1)
    active = power_e > 10 ** ((NOISE_DB + 10) / 10)
    if not active.any():
        return float("nan")
    return 10 * math.log10(np.sum(blocks(m)[active] ** 2) / max(np.sum(blocks(c)[active] ** 2), 1e-20))


def measure(
    variant: Variant,
    level_db: float,
    args: argparse.Namespace,
    clips: list[np.ndarray],
    questions: list[np.ndarray],
    segmenter: UtteranceSegmenter,
    transcribe: Callable[[np.ndarray], str],
) -> Row:
    spent = 0.0
    audio_s = 0.0
    erle_first, erle_after, turns, sent, converged = [], [], 0, 0, []
    for run in range(args.runs):
        rng = np.random.default_rng(1000 + run)
        room = Room.drawn(rng, jumps=run % 2 == 1, drift=args.drift)
        played = reply(clips, args.seconds, rng)
        echo_full = room.echo(played)
        room.gain = 10 ** ((USER_DB + level_db - voiced_rms_db(echo_full)) / 20)
        noise = np.random.default_rng(5000 + run).normal(0, 10 ** (NOISE_DB / 20), len(played)).astype(np.float32)

        def alone(p: np.ndarray, room: Room = room, noise: np.ndarray = noise) -> np.ndarray:
            return room.gain * room.echo(p) + noise

        t0 = time.process_time()
        heard = listen(variant, segmenter, played, alone)
        spent += time.process_time() - t0
        audio_s += len(played) / RATE
        mic = alone(played)
        echo = room.gain * echo_full
        if variant.canceller is not None:
            erle_first.append(erle(mic, heard.clean, echo, slice(0, 3 * RATE)))
            erle_after.append(erle(mic, heard.clean, echo, slice(3 * RATE, None)))
        turns += len(heard.starts)
        sent += len(heard.sent)
        if variant.guard is not None:
            speaks = int(np.argmax(np.abs(played) > 1e-3))
            converged.append(math.inf if heard.converged_at is None else (heard.converged_at - speaks) / RATE)

    latencies, missed, early, early_missed, pairs = [], 0, [], 0, []
    for run in range(args.runs):
        for early_run in (False, True):
            rng = np.random.default_rng(2000 + run + (500 if early_run else 0))
            room = Room.drawn(rng, jumps=run % 2 == 1, drift=args.drift)
            index = run % len(questions)
            question = questions[index] * 10 ** ((USER_DB - voiced_rms_db(questions[index])) / 20)
            at = int((rng.uniform(0.5, 2.5) if early_run else rng.uniform(5.0, 14.0)) * RATE)
            length = at + len(question) + int(1.5 * RATE)
            played = reply(clips, length / RATE, rng)
            room.gain = 10 ** ((USER_DB + level_db - voiced_rms_db(room.echo(played))) / 20)
            noise = np.random.default_rng(6000 + run).normal(0, 10 ** (NOISE_DB / 20), length).astype(np.float32)
            user = np.zeros(length, np.float32)
            user[at : at + len(question)] = question
            onset = at + first_word(question)

            def asked(
                p: np.ndarray, room: Room = room, noise: np.ndarray = noise, user: np.ndarray = user
            ) -> np.ndarray:
                return room.gain * room.echo(p) + noise + user

            heard = listen(variant, segmenter, played, asked, barge_in_after=onset - int(0.05 * RATE))
            started = [s for s in heard.starts if s >= onset - int(0.05 * RATE) and s <= at + len(question)]
            if started:
                (early if early_run else latencies).append(1000 * (started[0] - onset) / RATE)
            elif early_run:
                early_missed += 1
            else:
                missed += 1
            if not early_run:
                words = [transcribe(u) for end, u in heard.sent if end > onset]
                pairs.append((QUESTIONS[index], " ".join(w for w in words if w)))
    from parley.engine.textmetrics import corpus_word_error_rate

    return Row(
        variant.name,
        level_db,
        float(np.nanmedian(erle_first)) if erle_first else float("nan"),
        float(np.nanmedian(erle_after)) if erle_after else float("nan"),
        turns,
        sent,
        latencies,
        missed,
        early,
        early_missed,
        100 * corpus_word_error_rate(pairs) if not args.no_wer else float("nan"),
        100 * spent / audio_s,
        converged,
    )


def silence_wer(questions: list[np.ndarray], runs: int, transcribe: Callable[[np.ndarray], str]) -> float:
    """The questions alone in the room's noise, cut by the same segmenter, as the baseline."""
    from parley.engine.textmetrics import corpus_word_error_rate

    pairs = []
    for run in range(runs):
        index = run % len(questions)
        question = questions[index] * 10 ** ((USER_DB - voiced_rms_db(questions[index])) / 20)
        audio = np.concatenate([np.zeros(RATE // 2, np.float32), question, np.zeros(int(1.5 * RATE), np.float32)])
        audio = audio + np.random.default_rng(7000 + run).normal(0, 10 ** (NOISE_DB / 20), len(audio)).astype(
            np.float32
        )
        pairs.append((QUESTIONS[index], transcribe(audio)))
    return 100 * corpus_word_error_rate(pairs) if any(said for _, said in pairs) else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--levels", default="-18,0", help="echo levels against the user's voice, dB")
    parser.add_argument("--variants", default="pywebrtc+guard")
    parser.add_argument("--drift", type=float, default=0.001, help="the microphone's clock over the speakers', less 1")
    parser.add_argument(
        "--pre-roll",
        type=float,
        default=None,
        help="seconds the segmenter keeps from before a turn starts (its default if not given)",
    )
    parser.add_argument("--no-wer", action="store_true", help="skip transcribing (faster; the WER column reads nan)")
    args = parser.parse_args()

    from parley.engine.modelfiles.defaults import default_speech_model_path
    from parley.engine.speech import SpeechModel, transcribe_speech

    clips, questions = voice_clips(), question_clips()
    vad = SileroVAD.default()
    segmenter = UtteranceSegmenter(
        NeuralDetector(vad), **({} if args.pre_roll is None else {"pre_roll_seconds": args.pre_roll})
    )
    with SpeechModel(default_speech_model_path(), device="cpu", threads=2) as model:

        def transcribe(audio: np.ndarray) -> str:
            if args.no_wer:
                return ""
            spoken = transcribe_speech(model, audio, language="en")
            return spoken.text if spoken is not None else ""

        baseline = silence_wer(questions, args.runs, transcribe)
        print(f"the questions alone (room noise {NOISE_DB:.0f} dBFS): WER {baseline:.1f}%")
        print(
            f"{args.runs} runs of {args.seconds:.0f} s alone and {args.runs} questions asked at 5-14 s and at "
            "0.5-2.5 s, per echo level (dB against the user's voice)"
        )
        header = (
            f"{'variant':<20}{'echo':>5}{'ERLE 0-3s':>10}{'ERLE 3s-':>9}{'own turns':>10}{'sent':>5}"
            f"{'barge p50':>10}{'p95':>6}{'missed':>7}{'early p50':>10}{'missed':>7}{'WER %':>7}{'CPU %':>7}"
        )
        print(header)
        for name in args.variants.split(","):
            for level in (float(v) for v in args.levels.split(",")):
                row = measure(variant(name), level, args, clips, questions, segmenter, transcribe)
                print(
                    f"{row.variant:<20}{row.level_db:>5.0f}{row.erle_first:>10.1f}{row.erle_after:>9.1f}"
                    f"{row.turns:>10}{row.turns_sent:>5}{pct(row.latency_ms, 50):>10.0f}{pct(row.latency_ms, 95):>6.0f}"
                    f"{row.missed:>7}{pct(row.early_latency_ms, 50):>10.0f}{row.early_missed:>7}{row.wer:>7.1f}"
                    f"{row.cpu_pct:>7.1f}{pct(row.converged_s, 50):>7.2f}{pct(row.converged_s, 100):>6.2f}",
                    flush=True,
                )
    vad.close()


if __name__ == "__main__":
    main()
