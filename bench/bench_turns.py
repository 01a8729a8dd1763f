"""Hands-free's end of turn: a fixed pause against pauses that listen to what was said.

The set (``tests/support/turns.py``): 20 requests with a pause to think in the middle (0.5 to
1.5 s) and 20 finished questions, in Parley's natural voice and espeak-ng, over a quiet room.
Each goes through the ``UtteranceSegmenter`` the app uses (Silero's neural detector, the
listener's 100 ms blocks), with each way of ending a turn:

- ``fixed X s``: today's rule, a turn ends after X s without speech (0.8 s in the app);
- ``smart-turn``: Smart Turn v3.2 (``audio.turn_end``) is asked after a short pause; a turn it
  hears as finished ends there, otherwise after the long pause;
- ``words``: the adaptive pause without a new model (``WordsJudge`` here): after a
  short pause whisper (tiny.en, the app's speech model) transcribes the utterance so far, and a
  turn whose words end like a finished sentence (final punctuation, not on "and", "the", "to",
  ...) ends there, otherwise after the long pause;
- ``both``: Smart Turn, then the words: early only when both hear the turn finished.

Figures: false cut-offs (a paused request whose turn ended in its pause: half a sentence
sent; goal at most 1 in 20), and the time from the last word to the end of the turn over the
turns that were not cut (p50, p95; goal p50 <= 500 ms), which includes the time the judge
took (measured here, on this machine's load), and the judge's cost per call.
With ``--continuation``, also how many cut-offs the app takes back: those whose second part the
listener hears begin within ``flows.hands_free_turn.CONTINUATION_S`` of the cut (the span, from
the cut to speech beginning again, in audio time: the listener's blocks and the detector's lag
included), and the spread of that span over the cut-offs.
Run: ``nice -n 5 .venv/bin/python bench/bench_turns.py`` (``--both-voices``: 80 utterances).
"""

from __future__ import annotations

import argparse
import math
import os
import re
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from parley.engine.audio.silero import NeuralDetector, SileroVAD
from parley.engine.audio.turn_end import SmartTurn
from parley.engine.audio.utterance import speech_region, spoken_text
from parley.engine.audio.vad import TurnJudge, UtteranceSegmenter
from parley.engine.modelfiles.defaults import (
    default_speech_model_path,
    default_turn_model_path,
    default_vad_model_path,
)
from tests.support.turns import Utterance, utterances

RATE = 16000
BLOCK = 1600  # the listener's 100 ms blocks


# Words a request does not end on: articles, prepositions, conjunctions, possessives, auxiliaries,
# question words.  English only, like the rule that uses them.
GOES_ON = frozenset(
    """a an the and or but so to of for in on at by with from into about like than as my your his her
    its our their this that these those is are was were be been will would can could should
    i you he she we they it's what's how what when where who why which if because then""".split()
)
_WORD = re.compile(r"[a-z']+")


def sounds_finished(text: str) -> bool:
    """Whether a transcript ends like a finished sentence: final punctuation (whisper's), and a
    last word a sentence can end on ("Can you remind me to?" cannot)."""
    text = text.strip()
    words = _WORD.findall(text.lower())
    return bool(words) and text[-1] in ".?!" and not text.endswith("...") and words[-1] not in GOES_ON


class WordsJudge:
    """The adaptive pause without a new model (a ``vad.TurnJudge``): after a short pause the
    utterance so far is transcribed (``transcribe``: 16 kHz audio to the words said), and a turn
    whose words end like a finished sentence (``sounds_finished``) ends there."""

    name = "words"

    def __init__(
        self, transcribe: Callable[[np.ndarray], str], *, quick_seconds: float = 0.2, longest_seconds: float = 2.0
    ) -> None:
        self.transcribe = transcribe
        self.quick_seconds = quick_seconds
        self.longest_seconds = longest_seconds
        self.last_text = ""

    def finished(self, utterance: np.ndarray) -> bool:
        self.last_text = self.transcribe(utterance)
        return sounds_finished(self.last_text)

    def close(self) -> None:
        """The transcriber is its owner's."""


class Timed:
    """A judge whose calls are timed: the last call's seconds, all calls' seconds."""

    def __init__(self, judge: Any) -> None:
        self.judge = judge
        self.name = judge.name
        self.quick_seconds = judge.quick_seconds
        self.longest_seconds = judge.longest_seconds
        self.calls: list[float] = []

    def finished(self, utterance: np.ndarray) -> bool:
        started = time.perf_counter()
        verdict = bool(self.judge.finished(utterance))
        self.calls.append(time.perf_counter() - started)
        return verdict

    def close(self) -> None:
        self.judge.close()


class Both:
    """Smart Turn, then the words: a turn ends early only when both hear it finished."""

    name = "both"

    def __init__(self, smart: SmartTurn, words: WordsJudge) -> None:
        self.smart, self.words = smart, words
        self.quick_seconds, self.longest_seconds = words.quick_seconds, words.longest_seconds

    def finished(self, utterance: np.ndarray) -> bool:
        return self.smart.finished(utterance) and self.words.finished(utterance)

    def close(self) -> None:
        """The parts are the bench's."""


def transcriber(model: Any) -> Callable[[np.ndarray], str]:
    """The app's transcription rules (``audio.utterance``) around ``model``."""

    def transcribe(audio: np.ndarray) -> str:
        region = speech_region(audio)
        return "" if region is None else spoken_text(model.transcribe(audio[region.start : region.end]))

    return transcribe


def run(
    utterance: Utterance, detector: NeuralDetector, judge: Timed | None, fixed: float
) -> tuple[bool, float, float | None]:
    """(cut in the pause, seconds from the last word to the turn's end, and for a cut-off the
    seconds from the cut to the listener hearing speech begin again) for one utterance."""
    detector.reset()
    segmenter = UtteranceSegmenter(detector, end_silence_seconds=fixed, judge=judge)
    ends: list[tuple[int, float]] = []  # (sample the turn ended at, the judge's time on that block)
    begins: list[int] = []  # samples at which the listener said speech began
    audio = utterance.audio
    for i in range(0, len(audio), BLOCK):
        calls = len(judge.calls) if judge else 0
        was_in = segmenter.in_utterance
        done = segmenter.push(audio[i : i + BLOCK])
        at = min(len(audio), i + BLOCK)
        if done:
            spent = sum(judge.calls[calls:]) if judge else 0.0
            ends += [(at, spent)] * len(done)
        if segmenter.in_utterance and (not was_in or done):
            begins.append(at)
    if segmenter.flush() is not None:
        ends.append((len(audio) + 10 * RATE, 0.0))  # never ended: as late as it gets
    cut_at = next((at for at, _ in ends if utterance.pause is not None and at <= utterance.pause[1]), None)
    final = [(at, spent) for at, spent in ends if at >= utterance.speech_end]
    at, spent = final[0] if final else (len(audio), 0.0)
    resumed = None
    if cut_at is not None:
        again = [b for b in begins if b > cut_at]
        resumed = (again[0] - cut_at) / RATE if again else None
    return cut_at is not None, (at - utterance.speech_end) / RATE + spent, resumed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--both-voices", action="store_true", help="each utterance in both voices")
    parser.add_argument("--quick", type=float, nargs="+", default=[0.1, 0.2], help="short pauses to try")
    parser.add_argument("--longest", type=float, default=2.0)
    parser.add_argument("--no-words", action="store_true", help="leave out the candidates that need whisper")
    parser.add_argument(
        "--continuation",
        action="store_true",
        help="also: how many cut-offs the app takes back (speech began again within its window)",
    )
    args = parser.parse_args()

    started = time.perf_counter()
    items = utterances(args.seed, args.both_voices)
    n_paused = sum(u.kind == "paused" for u in items)
    print(
        f"{len(items)} utterances ({n_paused} paused, {len(items) - n_paused} finished), made in "
        f"{time.perf_counter() - started:.0f} s; load average {os.getloadavg()[0]:.1f}"
    )
    detector = NeuralDetector(SileroVAD(default_vad_model_path()))
    smart = SmartTurn(default_turn_model_path())
    candidates: list[tuple[str, Callable[[], Timed | None], float]] = [
        (f"fixed {s:.1f} s", lambda: None, s) for s in (0.5, 0.8, 1.0, 1.5)
    ]
    for quick in args.quick:
        smart_options = {"quick_seconds": quick, "longest_seconds": args.longest}
        candidates.append(
            (f"smart-turn {quick:.1f}/{args.longest:.1f} s", lambda o=smart_options: Timed(_with(smart, o)), 0.8)
        )
    if not args.no_words:
        from parley.engine.speech import SpeechModel

        model = SpeechModel(default_speech_model_path(), device="cpu", threads=2)
        for quick in args.quick:
            words = WordsJudge(transcriber(model), quick_seconds=quick, longest_seconds=args.longest)
            candidates.append((f"words {quick:.1f}/{args.longest:.1f} s", lambda w=words: Timed(w), 0.8))
        both = WordsJudge(transcriber(model), quick_seconds=args.quick[0], longest_seconds=args.longest)
        candidates.append(
            (
                f"both {args.quick[0]:.1f}/{args.longest:.1f} s",
                lambda: Timed(
                    Both(_with(smart, {"quick_seconds": args.quick[0], "longest_seconds": args.longest}), both)
                ),
                0.8,
            )
        )

    window = None
    if args.continuation:
        from parley.app.flows.hands_free_turn import CONTINUATION_S

        window = CONTINUATION_S
    taken = f"  {'taken back':>10} {'resumed ms':>15}" if window is not None else ""
    print(
        f"\n{'end of turn':<26} {'cut off':>9} {'p50 ms':>7} {'p95 ms':>7} {'finished p50':>13} {'call ms':>8}"
        f"{taken}  load"
    )
    for name, make, fixed in candidates:
        judge = make()
        cuts, delays, finished_delays, resumes = 0, [], [], []
        for u in items:
            cut, delay, resumed = run(u, detector, judge, fixed)
            cuts += cut
            if cut:
                resumes.append(math.inf if resumed is None else resumed)
            else:
                delays.append(delay)
                if u.kind == "finished":
                    finished_delays.append(delay)
        cost = f"{np.median(judge.calls) * 1000:8.0f}" if judge and judge.calls else f"{'-':>8}"
        if window is not None:
            back = sum(r <= window for r in resumes)
            spread = f"{min(resumes) * 1000:.0f}-{max(resumes) * 1000:.0f}" if resumes else "-"
            taken = f"  {back:>4} / {cuts:<3} {spread:>15}"
        print(
            f"{name:<26} {cuts:>3} / {n_paused:<3} {np.percentile(delays, 50) * 1000:7.0f} "
            f"{np.percentile(delays, 95) * 1000:7.0f} {np.percentile(finished_delays, 50) * 1000:13.0f} {cost}"
            f"{taken}  {os.getloadavg()[0]:.1f}"
        )


def _with(smart: SmartTurn, options: dict[str, float]) -> TurnJudge:
    """``smart`` with other pauses (one model, several settings)."""
    smart.quick_seconds = options["quick_seconds"]
    smart.longest_seconds = options["longest_seconds"]
    return smart


if __name__ == "__main__":
    main()
