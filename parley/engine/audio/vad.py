"""Telling speech from silence, on 16 kHz mono float32 audio.

- ``EnergyVAD``: a threshold with a hangover, block by block, and ``trim`` for a whole take.
- ``voiced_region``: where the speech of a take is, with a margin; also on a take that is still
  growing, where it says whether more audio can still move the region's end.
- ``UtteranceSegmenter``: cuts a never-ending stream (hands-free listening) into utterances,
  with a ``SpeechDetector`` deciding frame by frame: ``EnergyDetector`` here, or the neural
  Silero VAD of ``audio.silero`` (on ggml), which tells speech from fans, keys and music.

Push-to-talk takes are trimmed by energy: the person chose when to speak, and it costs nothing.
"""

from __future__ import annotations

import dataclasses
import math
from collections import deque
from typing import TYPE_CHECKING, Protocol, TypedDict

import numpy as np

from ..formats import SAMPLE_RATE
from .files import rms_level

if TYPE_CHECKING:
    from typing_extensions import Unpack

SPEECH_THRESHOLD_DB = -55.0
"""Takes quieter than this all through (dBFS, 20 ms frames) hold no speech: whisper would "hear"
words in them (tiny.en says "you" to silence), so they are not transcribed.  Well below quiet
speech (about -40 dBFS), above the noise floor of a working microphone."""

FRAME_SECONDS = 0.02
MARGIN_SECONDS = 0.3
"""Kept around the speech a take holds, so the quiet starts and ends of words are not cut."""


@dataclasses.dataclass(frozen=True)
class VoicedRegion:
    start: int  # first sample of the region
    end: int  # one past its last sample
    settled: bool  # the margin after the speech is complete: only new speech can move ``end``


def voiced_region(
    audio: np.ndarray,
    *,
    threshold_db: float = SPEECH_THRESHOLD_DB,
    margin_seconds: float = MARGIN_SECONDS,
    frame_seconds: float = FRAME_SECONDS,
    sample_rate: int = SAMPLE_RATE,
) -> VoicedRegion | None:
    """Samples from ``margin_seconds`` before the first loud frame to ``margin_seconds`` after the
    last one (clipped to the audio); None when no frame reaches ``threshold_db``.

    Frames start at multiples of the frame length from the first sample, so a prefix of a take
    has the same frames as the whole take: the region of a prefix whose ``settled`` is true is
    the region of the whole take unless the rest holds more speech.
    """
    n = len(audio)
    if n == 0:
        return None
    frame = max(1, int(frame_seconds * sample_rate))
    starts = np.arange(0, n, frame)
    mean_square = np.add.reduceat(np.square(audio, dtype=np.float64), starts) / np.diff(np.append(starts, n))
    loud = np.flatnonzero(mean_square >= 10.0 ** (threshold_db / 10.0))
    if len(loud) == 0:
        return None
    margin = int(margin_seconds * sample_rate)
    start = max(0, int(starts[loud[0]]) - margin)
    wanted_end = int(starts[loud[-1]]) + frame + margin
    complete = n // frame * frame  # audio of whole frames; a partial last frame may still change
    return VoicedRegion(start, min(n, wanted_end), settled=wanted_end <= complete and loud[-1] < n // frame)


class RegionOptions(TypedDict, total=False):
    """The keyword options of ``voiced_region``."""

    threshold_db: float
    margin_seconds: float
    frame_seconds: float
    sample_rate: int


def voiced_part(audio: np.ndarray, **options: Unpack[RegionOptions]) -> np.ndarray:
    """``audio`` without the silence around the speech in it (``voiced_region``); empty when
    there is no speech."""
    region = voiced_region(audio, **options)
    return audio[:0] if region is None else audio[region.start : region.end]


class EnergyVAD:
    """A block is speech when its RMS level reaches ``threshold_db`` (dBFS); ``is_speech`` keeps
    saying so for ``hangover_seconds`` after the level drops, so the pauses between words and
    quiet word endings do not cut an utterance; ``trim`` keeps the same margin around the
    speech it finds."""

    def __init__(
        self,
        *,
        threshold_db: float = -40.0,
        hangover_seconds: float = MARGIN_SECONDS,
        frame_seconds: float = FRAME_SECONDS,
        sample_rate: int = SAMPLE_RATE,
    ) -> None:
        self.threshold_db = threshold_db
        self.hangover_seconds = hangover_seconds
        self.frame_seconds = frame_seconds
        self.sample_rate = sample_rate
        self._silent_for = float("inf")  # seconds since the last loud block

    def reset(self) -> None:
        """Forget the hangover state, e.g. between utterances."""
        self._silent_for = float("inf")

    def is_speech(self, block: np.ndarray) -> bool:
        """Whether ``block`` (consecutive with the previous call's) is within speech."""
        if rms_level(block) >= self.threshold_db:
            self._silent_for = 0.0
            return True
        self._silent_for += len(block) / self.sample_rate
        return self._silent_for < self.hangover_seconds

    def trim(self, audio: np.ndarray) -> np.ndarray:
        """``audio`` without the silence before and after the speech in it, keeping
        ``hangover_seconds`` of margin on each side; empty when there is no speech at all."""
        return voiced_part(
            audio,
            threshold_db=self.threshold_db,
            margin_seconds=self.hangover_seconds,
            frame_seconds=self.frame_seconds,
            sample_rate=self.sample_rate,
        )


class EnergyDetector:
    """Speech by level: a frame is speech when it is ``noise_margin_db`` above a noise floor that
    follows the quietest frames (falling at once, rising slowly), and never below
    ``threshold_db``, so the steady noise of a quiet room (-60 to -45 dBFS) never counts."""

    name = "energy"

    def __init__(
        self,
        *,
        threshold_db: float = -42.0,
        noise_margin_db: float = 15.0,
        frame_seconds: float = FRAME_SECONDS,
        sample_rate: int = SAMPLE_RATE,
    ) -> None:
        self.threshold_db = threshold_db
        self.noise_margin_db = noise_margin_db
        self.frame = max(1, int(frame_seconds * sample_rate))
        self._rise_db = 3.0 * self.frame / sample_rate  # the floor rises 3 dB a second
        self._floor: float | None = None

    def reset(self) -> None:
        self._floor = None

    def close(self) -> None:
        """Nothing to free."""

    @property
    def threshold(self) -> float:
        """The level (dBFS) a frame must reach to count as speech, now."""
        floor = self._floor if self._floor is not None else -120.0
        return max(self.threshold_db, floor + self.noise_margin_db)

    def is_speech(self, frame: np.ndarray, in_utterance: bool) -> bool:
        level = rms_level(frame)
        speech = level >= self.threshold
        if not in_utterance and math.isfinite(level):
            if self._floor is None or level < self._floor:
                self._floor = level
            else:
                self._floor = min(level, self._floor + self._rise_db)
        return speech


class SpeechDetector(Protocol):
    """Says, frame by consecutive frame, whether a frame holds speech."""

    name: str
    frame: int  # samples per decision

    def reset(self) -> None: ...

    def is_speech(self, frame: np.ndarray, in_utterance: bool) -> bool: ...

    def close(self) -> None:
        """Free what it holds (the neural detector's native context)."""


class TurnJudge(Protocol):
    """Hears whether the speaker of an utterance has finished (``audio.turn_end.SmartTurn``)."""

    name: str
    quick_seconds: float  # the pause after which it is asked
    longest_seconds: float  # the pause that ends a turn whatever it said

    def finished(self, utterance: np.ndarray) -> bool: ...

    def close(self) -> None: ...


class UtteranceSegmenter:
    """Cuts a continuous 16 kHz stream into utterances, for hands-free listening.

    A ``detector`` (``EnergyDetector`` unless another is given, such as the neural
    ``audio.silero.NeuralDetector``) says which frames hold speech.  An utterance starts when at
    least ``start_seconds`` of the last ``2 * start_seconds`` were speech (a click or a knock is
    not speech), and takes ``pre_roll_seconds`` from before that along; it ends after
    ``end_silence_seconds`` without speech (pauses between words and sentences of one utterance
    are shorter), keeping ``MARGIN_SECONDS`` of that quiet; an utterance longer than
    ``max_seconds`` is cut there and goes on as the next one.

    With a ``judge`` (a turn-end model) the pause that ends an utterance is not fixed: after
    ``judge.quick_seconds`` of quiet the judge hears the utterance so far, and one it hears as
    finished ends there; otherwise it ends after ``judge.longest_seconds`` of quiet, so a pause
    to think mid-sentence does not send half a sentence.  The judge is asked once a pause.  An
    utterance that starts in samples pushed with ``judged`` false (the user talking over Parley's
    voice, whose echo canceller holds the user down in gaps while both speak) ends after the
    fixed ``end_silence_seconds``: the judge would hear those gaps as the end of a question.
    """

    def __init__(
        self,
        detector: SpeechDetector | None = None,
        *,
        start_seconds: float = 0.12,
        end_silence_seconds: float = 0.8,
        pre_roll_seconds: float = MARGIN_SECONDS,
        max_seconds: float = 30.0,
        judge: TurnJudge | None = None,
        sample_rate: int = SAMPLE_RATE,
    ) -> None:
        self.detector: SpeechDetector = detector if detector is not None else EnergyDetector(sample_rate=sample_rate)
        self.judge = judge
        self.sample_rate = sample_rate
        self._frame = self.detector.frame
        per_second = sample_rate / self._frame
        self._start_frames = max(1, round(start_seconds * per_second))
        self._window: deque[bool] = deque(maxlen=2 * self._start_frames)  # speech or not, the latest frames
        self._fixed_frames = max(1, round(end_silence_seconds * per_second))
        self._ask_frames: int | None = None  # the quiet frames after which the judge is asked
        self._end_frames = self._fixed_frames
        if judge is not None:
            self._ask_frames = max(1, round(judge.quick_seconds * per_second))
            self._end_frames = max(self._ask_frames, round(judge.longest_seconds * per_second))
        self._judging = False  # the utterance being heard is ended by the judge
        self._keep_frames = round(MARGIN_SECONDS * per_second)
        self._pre_roll: deque[np.ndarray] = deque(maxlen=max(1, round(pre_roll_seconds * per_second)))
        self._max_frames = max(1, round(max_seconds * per_second))
        self._pending = np.zeros(0, dtype=np.float32)  # less than a frame, carried over
        self.reset()

    def reset(self) -> None:
        """Forget everything heard (e.g. while the microphone is to be ignored)."""
        self._pending = self._pending[:0]
        self._window.clear()
        self._pre_roll.clear()
        self._frames: list[np.ndarray] = []  # the utterance being heard
        self._quiet_run = 0
        self.detector.reset()

    @property
    def in_utterance(self) -> bool:
        return bool(self._frames)

    def push(self, block: np.ndarray, may_be_speech: bool = True, judged: bool = True) -> list[np.ndarray]:
        """Feed the next samples; return the utterances they completed, oldest first.

        ``may_be_speech`` false: none of these samples counts as speech, whatever the detector
        says (Parley's own voice, while it speaks), but they are kept like the rest: an
        utterance that starts just after takes them along as its pre-roll.  ``judged`` false: an
        utterance starting here ends after the fixed pause (see the class)."""
        audio = np.concatenate([self._pending, np.asarray(block, dtype=np.float32)])
        whole = len(audio) // self._frame * self._frame
        self._pending = audio[whole:].copy()
        done = []
        for i in range(0, whole, self._frame):
            utterance = self._frame_in(audio[i : i + self._frame], may_be_speech, judged)
            if utterance is not None:
                done.append(utterance)
        return done

    def _finished(self) -> bool:
        """The judge's word on the utterance so far, its pause included.  A judge that fails
        (closed, or its runtime refuses) says "not finished": the long pause still ends the
        turn, and listening goes on."""
        assert self.judge is not None
        try:
            return self.judge.finished(np.concatenate(self._frames))
        except Exception:  # noqa: BLE001 - any failure of the judge: the long pause decides
            return False

    def flush(self) -> np.ndarray | None:
        """The end of the stream: the utterance being heard, if any."""
        if not self._frames:
            return None
        utterance = np.concatenate(self._frames)
        self._frames, self._quiet_run = [], 0
        return utterance

    def _frame_in(self, frame: np.ndarray, may_be_speech: bool, judged: bool) -> np.ndarray | None:
        speech = self.detector.is_speech(frame, bool(self._frames)) and may_be_speech
        if not self._frames:
            self._window.append(speech)
            self._pre_roll.append(frame)
            if sum(self._window) >= self._start_frames:
                self._frames = list(self._pre_roll)
                self._pre_roll.clear()
                self._window.clear()
                self._quiet_run = 0
                self._judging = self.judge is not None and judged
            return None
        self._frames.append(frame)
        self._quiet_run = 0 if speech else self._quiet_run + 1
        end = self._end_frames if self._judging else self._fixed_frames
        if self._quiet_run >= end or (self._judging and self._quiet_run == self._ask_frames and self._finished()):
            keep = len(self._frames) - self._quiet_run + self._keep_frames
            utterance = np.concatenate(self._frames[:keep])
            self._frames, self._quiet_run = [], 0
            return utterance
        if len(self._frames) >= self._max_frames:
            return self.flush()
        return None
