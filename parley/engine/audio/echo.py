"""Acoustic echo cancellation on 16 kHz mono: WebRTC's AEC3 (``pywebrtc-audio``).

On a laptop's speakers the microphone hears what Parley says.  An echo canceller takes what the
speakers play (``reference``, from the player's thread) and removes its echo from what the
microphone hears (``process``, on the listener's thread).  ``EchoCanceller`` is the one the app
makes: ``WebRtcEchoCanceller``, AEC3, the canceller of browsers and video calls, which measures
the echo's delay itself, adapts two linear filters, tells double talk from echo and suppresses
what the filters leave.  (speexdsp's canceller, which Parley had before, was removed: in
``bench/bench_echo.py`` AEC3 removed more echo in every room, converged in under a second where
speexdsp took seconds, and kept up with clock drift that left speexdsp removing nothing;
docs/measurements.md has the figures.)

The two streams are paired by order, not by clock: each microphone frame is matched with the
next reference frame queued, so a reference block pushed as it goes to the device always comes
before its echo reaches the microphone (the device's output and input latencies and the room).
While nothing plays, no reference comes and the microphone frames are matched with silence.
The player keeps the device open, playing silence, between replies (``Player.hold``), so the
delay, and what the filter learnt, stay the same from one reply to the next.  (Matching by
sample count, dropping reference that came late, was tried: the pairing then depended on when
each stream started, and cancelled less.)

The echo's delay is also measured here (``echo_delay``: a phase-transform cross-correlation of
the last ``_HISTORY_S`` of microphone and reference).  AEC3 finds delays up to about half a
second itself, so the reference is held back by the measured delay only when the echo comes
later than that.  When the microphone's clock drifts against the speakers' the delay grows or
shrinks steadily (0.1%: 20 ms over 20 s, and AEC3 lost the echo after about 8 s); its slope is
measured too, and the reference is resampled by it (``Stretch``), so the delay AEC3 sees stays
put.
"""

from __future__ import annotations

import itertools
import logging
import math
import threading
from collections import deque
from typing import Any

import numpy as np
import soxr

from ..errors import EchoCancellerError
from ..formats import SAMPLE_RATE
from .files import rms_level
from .stretch import Stretch

MAX_BACKLOG_SECONDS = 2.0  # reference kept ahead of the microphone; older is dropped
MAX_DELAY_SECONDS = 0.8  # the longest echo delay looked for
_HISTORY_S = 2.0  # microphone and reference kept to measure the delay on
_ESTIMATE_EVERY_S = 0.5
_SILENT_DB = -70.0  # a reference this quiet is Parley silent (EchoGuard's threshold too)
_QUIET_S = 1.0  # Parley speaking again after this much silence may meet a changed echo path
_AEC3_MARGIN_S = 0.06  # AEC3 finds delays up to about half a second itself: the reference is held
_AEC3_BAND_S = (0.01, 0.45)  # back only when the echo comes later than 0.45 s after it (or too close)
log = logging.getLogger("parley.echo")

_DRIFT_WINDOW_S = 8.0  # the delays measured over this long give the clocks' drift
_DRIFT_SPAN_S = 3.0  # ... once they span this long (6 measurements or more)
_DRIFT_MIN_SAMPLES = 2.0  # a slope that moves the delay less than this over the span is noise
_DRIFT_LEAST = 0.0002  # AEC3 keeps up with less drift itself (100 ppm: resampling only cost barge-in time)
_DRIFT_MAX = 0.005  # a slope steeper than this is no clock: the echo path moved
_DRIFT_MEASURE_S = 0.5  # the drift's delays are measured on this much of the latest microphone audio
_DRIFT_CONFIDENT = 25.0  # ... and believed on a lower peak than the delay followed: the slope's fit weeds out strays
_DRIFT_MIN_PEAK = 0.08
_DRIFT_JUMP_S = 0.005  # a delay this far from the last one measured is a new path: the slope starts again
_SHARE_WINDOW_S = 1.0  # ``echo_share`` measures the delay again every second (drift and jumps move it)
_SHARE_SEGMENT = 4096  # ... and the coherence over 0.26 s segments: most of a room's echo tail
_SHARE_CONFIDENT = 8.0  # its delay is believed on a lower peak than the one followed: a wrong one explains nothing
_SHARE_MIN_PEAK = 0.05
_CONFIDENT = 50.0  # a delay is believed when its peak is this many times the median correlation
_MIN_PEAK = 0.15


def _webrtc_audio() -> Any:
    """pywebrtc-audio, imported when a canceller is first made (its wheel bundles WebRTC's
    audio processing module for Linux, macOS and Windows)."""
    try:
        import pywebrtc_audio
    except ImportError as e:
        raise EchoCancellerError(
            f"The echo canceller needs the pywebrtc-audio package (pip install pywebrtc-audio): {e}"
        ) from e
    return pywebrtc_audio


def available() -> str | None:
    """None when the app's echo canceller (``EchoCanceller``) can be made here, else why not."""
    try:
        _webrtc_audio()
    except EchoCancellerError as e:
        return str(e)
    return None


class _PairedReference:
    """The reference queued by the player's thread (resampled to 16 kHz) and taken by order,
    frame by frame, as the microphone's blocks come; microphone samples short of a whole frame
    wait for the next block."""

    frame: int
    # Times what the canceller removed may no longer hold: its filter started learning again (a
    # new delay, ``reset``), Parley speaks again after ``_QUIET_S`` of silence, in which the
    # echo path may have changed unseen (the output reopened or refilled its buffer: in the
    # PulseAudio loop the echo then came 0.5 s after the reference, where it had come 0.12 s),
    # or the speakers ran dry (``output_interrupted``).
    restarts: int

    def _init_queue(self) -> None:
        self._lock = threading.Lock()  # guards the reference queue and the resamplers
        self._reference: deque[np.ndarray] = deque()
        self._queued = 0
        self._resamplers: dict[int, soxr.ResampleStream] = {}
        self.drift_ratio = 1.0  # reference samples made per sample played: the microphone's clock over the speakers'
        self._drift: Stretch | None = None  # resamples the reference by ``drift_ratio``
        self._pending = np.zeros(0, dtype=np.float32)  # microphone samples short of a frame
        self.reference_level = -math.inf  # dBFS of the reference the last ``process`` paired with the microphone
        self.heard = np.zeros(0, dtype=np.float32)  # the whole frames of the microphone the last ``process`` took
        self.played = np.zeros(0, dtype=np.float32)  # ... and the reference paired with them by order
        self._quiet = 0  # reference samples in a row that were silence

    def reference(self, block: np.ndarray, rate: int) -> None:
        """What the speakers are about to play, mono float32 at ``rate``; any thread."""
        with self._lock:
            if rate != SAMPLE_RATE:
                resampler = self._resamplers.get(rate)
                if resampler is None:
                    resampler = self._resamplers[rate] = soxr.ResampleStream(rate, SAMPLE_RATE, 1, dtype="float32")
                block = resampler.resample_chunk(np.ascontiguousarray(block, dtype=np.float32))
            if self._drift is not None:
                block = self._drift.push(block)
            if len(block) == 0:
                return
            self._reference.append(np.asarray(block, dtype=np.float32))
            self._queued += len(block)
            while self._queued > MAX_BACKLOG_SECONDS * SAMPLE_RATE:
                self._queued -= len(self._reference.popleft())

    def _whole_frames(self, microphone: np.ndarray) -> np.ndarray:
        """The microphone samples that fill whole frames, the pending ones first; the rest waits."""
        audio = np.concatenate([self._pending, np.asarray(microphone, dtype=np.float32).reshape(-1)])
        whole = len(audio) // self.frame * self.frame
        self._pending = audio[whole:].copy()
        return audio[:whole]

    def _note_speakers(self, played: np.ndarray) -> None:
        """Parley speaking again after a silence counts as a restart.  ``played``: the reference
        taken by order, before ``_aligned`` holds it back, so the silence a new delay puts in
        front of it (which is no pause of Parley's; the new delay counted as a restart of its
        own) is not taken for one: 0.54 s of it beside a pause of 0.5 s counted twice."""
        if rms_level(played) <= _SILENT_DB:
            self._quiet += len(played)
            return
        if self._quiet >= _QUIET_S * SAMPLE_RATE:
            self._restarted()
        self._quiet = 0

    def output_interrupted(self) -> None:
        """The speakers ran dry (an output underflow: the player's thread was late on a loaded
        machine) and played a gap the reference does not hold, so from here on the echo comes
        later than it did, by as much: a restart.  AEC3 finds the new delay itself (or
        ``_aligned`` does, beyond its reach), the drift's slope starts again instead of taking
        the jump for drift, and ``EchoGuard`` waits for the canceller to converge again.  In the
        PulseAudio loop under load (a CPU hog beside the app), the guard trusted the old
        convergence and let the echo AEC3 had lost through as the user's voice (3 runs of 8,
        each just after an underflow).  Any thread."""
        self._restarted()

    def _restarted(self) -> None:
        with self._lock:  # the player's thread counts too
            self.restarts += 1

    def _forget_queue(self) -> None:
        with self._lock:
            self._reference.clear()
            self._queued = 0
            self._pending = self._pending[:0]
            self.drift_ratio, self._drift = 1.0, None

    def _set_drift(self, ratio: float) -> None:
        """Resample the reference by ``ratio`` from here on (``Stretch``: no seam where it changes)."""
        log.info("echo canceller: the microphone's clock runs %+.0f ppm against the speakers'", 1e6 * (ratio - 1.0))
        with self._lock:
            self.drift_ratio = ratio
            if self._drift is None:
                self._drift = Stretch(ratio)
            self._drift.ratio = ratio

    def _init_alignment(self, *, margin_s: float, band_s: tuple[float, float]) -> None:
        """Hold the reference back by the measured echo delay less ``margin_s``, measuring again
        every ``_ESTIMATE_EVERY_S``, and align again when what is left for the canceller's own
        filter leaves ``band_s`` (seconds after the reference held back)."""
        self._margin = int(margin_s * SAMPLE_RATE)
        self._band = (int(band_s[0] * SAMPLE_RATE), int(band_s[1] * SAMPLE_RATE))
        history = int(_HISTORY_S * SAMPLE_RATE)
        self._history_mic = np.zeros(history, dtype=np.float32)
        self._history_ref = np.zeros(history, dtype=np.float32)
        self._forget_alignment()

    def _forget_alignment(self) -> None:
        self.delay = 0  # samples the reference is held back by, beyond the pairing by order
        self._line = np.zeros(0, dtype=np.float32)  # the reference held back (``delay`` samples)
        self._history_mic[:] = 0.0
        self._history_ref[:] = 0.0
        self._since_estimate = 0
        self._candidate: int | None = None  # a delay measured once, believed when measured again
        self._heard = 0  # microphone samples paired so far
        self._lags: deque[tuple[int, int]] = deque()  # (``_heard``, delay measured) for the drift
        self._lags_restarts = self.restarts
        self._jumped: int | None = None  # a delay measured once far from the others

    def _realigned(self) -> None:
        """The reference moved by a new delay (``delay``)."""

    def _aligned(self, microphone: np.ndarray, reference: np.ndarray) -> np.ndarray:
        """The reference paired by order, held back by the measured delay (which this keeps
        measuring)."""
        count = len(reference)
        keep = len(self._history_mic) - count
        self._history_mic[:keep] = self._history_mic[count:]
        self._history_mic[keep:] = microphone
        self._history_ref[:keep] = self._history_ref[count:]
        self._history_ref[keep:] = reference
        self._since_estimate += count
        self._heard += count
        if self._since_estimate >= _ESTIMATE_EVERY_S * SAMPLE_RATE and rms_level(self._history_ref) > -60.0:
            self._since_estimate = 0
            self._follow(echo_delay(self._history_mic, self._history_ref, int(MAX_DELAY_SECONDS * SAMPLE_RATE)))
            self._follow_drift()
        line = np.concatenate([self._line, reference])
        self._line = line[count:]
        return line[:count]

    def _follow(self, measured: tuple[int, float] | None) -> None:
        """A delay measured twice in a row (within 2 ms) that leaves the canceller's filter
        outside its band becomes the one in use."""
        if measured is None:
            self._candidate = None
            return
        lag, _confidence = measured
        wanted = max(0, lag - self._margin)
        agreed = self._candidate is not None and abs(self._candidate - wanted) <= 0.002 * SAMPLE_RATE
        self._candidate = wanted
        left = lag - self.delay  # what the canceller's own filter has to cover
        if not agreed or self._band[0] <= left <= self._band[1]:
            return
        if wanted > self.delay:
            self._line = np.concatenate([np.zeros(wanted - self.delay, dtype=np.float32), self._line])
        else:
            self._line = self._line[self.delay - wanted :]
        self.delay = wanted
        log.info("echo canceller: the echo comes %.0f ms after the reference", 1000 * lag / SAMPLE_RATE)
        self._realigned()

    def _follow_drift(self) -> None:
        """Keep the echo's delay still when the microphone's clock drifts against the speakers'
        (0.1%: 20 ms over 20 s, which AEC3 loses after about 8 s): the slope of the delays
        measured over the last ``_DRIFT_WINDOW_S`` (Theil-Sen: the median of the slopes
        between every two, so a stray measurement does not tilt it) is how much faster the
        microphone runs, and the reference is resampled by it.  The delays are measured on the
        reference as resampled, so what is left of the slope corrects the ratio further.  Each
        is measured on the last ``_DRIFT_MEASURE_S`` only: over the two seconds the delay is
        followed on, 0.1% of drift smears the correlation's peak (by 2 ms) below belief.  A
        delay that jumps (a new echo path, told by two measurements that agree) or Parley
        speaking after a silence (the pairing starts again) begins a new slope.  A drift under
        ``_DRIFT_LEAST`` is left to AEC3."""
        window = int(_DRIFT_MEASURE_S * SAMPLE_RATE)
        max_lag = int(MAX_DELAY_SECONDS * SAMPLE_RATE)
        reference = self._history_ref[-(window + max_lag) :]
        if rms_level(reference[-window:]) <= -50.0:
            return
        microphone = np.concatenate([np.zeros(max_lag, dtype=np.float32), self._history_mic[-window:]])
        measured = echo_delay(microphone, reference, max_lag, confident=_DRIFT_CONFIDENT, min_peak=_DRIFT_MIN_PEAK)
        if self.restarts != self._lags_restarts:
            self._lags_restarts = self.restarts
            self._lags.clear()
        if measured is None:
            return
        lag = measured[0]
        if self._lags and abs(lag - self._lags[-1][1]) > _DRIFT_JUMP_S * SAMPLE_RATE:
            jumped = self._jumped is not None and abs(lag - self._jumped) <= _DRIFT_JUMP_S * SAMPLE_RATE
            self._jumped = lag
            if not jumped:
                return
            self._lags.clear()
        self._jumped = None
        self._lags.append((self._heard, lag))
        while self._heard - self._lags[0][0] > _DRIFT_WINDOW_S * SAMPLE_RATE:
            self._lags.popleft()
        span = self._heard - self._lags[0][0]
        if len(self._lags) < 6 or span < _DRIFT_SPAN_S * SAMPLE_RATE:
            return
        at = np.array([t for t, _ in self._lags], dtype=np.float64)
        lags = np.array([d for _, d in self._lags], dtype=np.float64)
        first, second = np.triu_indices(len(at), 1)
        slope = float(np.median((lags[second] - lags[first]) / (at[second] - at[first])))
        residual = lags - slope * at
        if np.median(np.abs(residual - np.median(residual))) > 3.0:  # the delays do not lie on a line
            return
        if abs(slope) * span < _DRIFT_MIN_SAMPLES or abs(slope) > _DRIFT_MAX:
            return
        if self._drift is None and abs(slope) < _DRIFT_LEAST:
            return
        self._set_drift(self.drift_ratio / (1.0 - slope))
        self._lags.clear()

    def _take_reference(self, count: int) -> np.ndarray:
        """The next ``count`` reference samples, silence where none was queued."""
        out = np.zeros(count, dtype=np.float32)
        filled = 0
        with self._lock:
            while self._reference and filled < count:
                head = self._reference[0]
                take = min(len(head), count - filled)
                out[filled : filled + take] = head[:take]
                filled += take
                if take == len(head):
                    self._reference.popleft()
                else:
                    self._reference[0] = head[take:]
            self._queued -= filled
        return out


class WebRtcEchoCanceller(_PairedReference):
    """Removes the speakers' echo with WebRTC's AEC3 (``pywebrtc-audio``; Apache-2.0), the
    canceller of browsers and video calls: it finds the echo's delay itself (up to about half a
    second), adapts two filters (one fast, one careful), tells the user's voice over Parley's
    from Parley's alone, and suppresses what its filters leave.

    Each 10 ms microphone frame goes in with the reference frame paired with it, the reference
    first, as AEC3 wants it.  The delay is also measured here (``echo_delay``), but the
    reference is held back only when the echo comes more than ``_AEC3_BAND_S[1]`` after it (in
    the PulseAudio loop under load, 0.6 s: an output device that took half a second of audio at
    once, a microphone that dropped input), which AEC3 alone would not find.
    """

    name = "aec3"

    def __init__(self) -> None:
        module = _webrtc_audio()
        try:
            self._aec: Any = module.EchoCanceller(sample_rate=SAMPLE_RATE, num_channels=1)
        except (RuntimeError, ValueError) as e:
            raise EchoCancellerError(f"WebRTC's echo canceller refused its settings: {e}") from e
        self.frame = SAMPLE_RATE // 100
        self.restarts = 0
        self._init_queue()
        self._init_alignment(margin_s=_AEC3_MARGIN_S, band_s=_AEC3_BAND_S)

    def process(self, microphone: np.ndarray) -> np.ndarray:
        """``microphone`` (16 kHz mono float32) without the echo; one thread at a time.  What is
        short of a whole 10 ms frame is held back for the next call."""
        audio = self._whole_frames(microphone)
        if len(audio) == 0:
            return audio
        played = self._take_reference(len(audio))
        self._note_speakers(played)
        self.heard, self.played = audio, played
        reference = self._aligned(audio, played)
        self.reference_level = rms_level(reference)
        return np.asarray(self._aec.process(np.clip(audio, -1.0, 1.0), reference), dtype=np.float32)

    def reset(self) -> None:
        """Forget the reference queued, the delay and what AEC3 learnt (a new microphone stream)."""
        self._forget_queue()
        self._forget_alignment()
        self._aec.reset()
        self._restarted()

    def _realigned(self) -> None:
        """AEC3 finds the new delay itself, in a second or two: until then, as after a reset,
        what it removes says little (``EchoGuard.filter_restarted``)."""
        self._restarted()


def echo_delay(
    microphone: np.ndarray,
    reference: np.ndarray,
    max_lag: int,
    *,
    confident: float = _CONFIDENT,
    min_peak: float = _MIN_PEAK,
) -> tuple[int, float] | None:
    """How many samples after ``reference`` its echo is heard in ``microphone`` (same length),
    at most ``max_lag``, and how sure (the peak over the median correlation); None when no
    delay stands out (a peak under ``min_peak``, or under ``confident`` times the median).  A
    cross-correlation with the phase transform (GCC-PHAT): every frequency weighs the same, so
    the voice's loud low tones do not blur the peak, and it stays sharp while the user talks
    over the echo."""
    size = 1 << (2 * len(microphone) - 1).bit_length()
    cross = np.fft.rfft(microphone, size) * np.conj(np.fft.rfft(reference, size))
    correlation = np.fft.irfft(cross / (np.abs(cross) + 1e-12), size)[: max_lag + 1]
    lag = int(np.argmax(correlation))
    peak, median = float(correlation[lag]), float(np.median(np.abs(correlation)))
    if peak < min_peak or peak < confident * median:
        return None
    return lag, peak / max(median, 1e-12)


def echo_share(microphone: np.ndarray, reference: np.ndarray) -> float:
    """The share of ``microphone``'s energy that is an echo of ``reference`` (which starts
    ``MAX_DELAY_SECONDS`` earlier: each echo comes up to that long after what was played), as
    found afresh, whatever the canceller learnt or lost: second by second, the echo's delay
    (``echo_delay``) and, at that delay, the coherence of the two in each frequency (Welch's
    averages over ``_SHARE_SEGMENT`` samples, less the share two unrelated signals show over so
    few averages), weighed by the energy the microphone heard there.  Over 1-4 s of Parley's
    voice alone it was 0.99-1.00 through a delay and a gain (the PulseAudio loop; 0.75-0.96
    with the clocks 0.05-0.1% apart, before the canceller follows the drift) and 0.55-0.91
    through simulated reverberant rooms; over the user asking, with Parley's voice held as
    barge-in holds it, at most 0.39 with the echo 18 dB below the user and 0.79 with it as
    loud.  0 where no delay is found."""
    lookback = int(MAX_DELAY_SECONDS * SAMPLE_RATE)
    microphone = np.asarray(microphone, dtype=np.float64)
    reference = np.asarray(reference, dtype=np.float64)
    total = float(np.dot(microphone, microphone))
    if total <= 0.0 or len(reference) != len(microphone) + lookback:
        return 0.0
    pieces = max(1, round(len(microphone) / (_SHARE_WINDOW_S * SAMPLE_RATE)))
    explained = 0.0
    for start, end in itertools.pairwise(np.linspace(0, len(microphone), pieces + 1).astype(int)):
        heard = microphone[start:end]
        played = reference[start : end + lookback]
        padded = np.concatenate([np.zeros(lookback), heard])
        measured = echo_delay(padded, played, lookback, confident=_SHARE_CONFIDENT, min_peak=_SHARE_MIN_PEAK)
        if measured is None:
            continue
        at = lookback - measured[0]
        explained += float(np.dot(heard, heard)) * _coherent_share(heard, played[at : at + len(heard)])
    return explained / total


def _coherent_share(heard: np.ndarray, played: np.ndarray) -> float:
    """The share of ``heard``'s spectrum coherent with ``played`` (aligned with it); 0 where
    it is too short to tell (two unrelated signals would seem half coherent)."""
    taper, hop = np.hanning(_SHARE_SEGMENT), _SHARE_SEGMENT // 4
    segments = range(0, len(heard) - _SHARE_SEGMENT + 1, hop)
    chance = 1.0 / max(1.0, 1.5 * len(segments) * hop / _SHARE_SEGMENT)  # about 1 / independent segments
    if chance > 0.5:
        return 0.0
    power_played: Any = 0.0
    power_heard: Any = 0.0
    cross: Any = 0.0
    for i in segments:
        x = np.fft.rfft(taper * played[i : i + _SHARE_SEGMENT])
        y = np.fft.rfft(taper * heard[i : i + _SHARE_SEGMENT])
        power_played = power_played + np.abs(x) ** 2
        power_heard = power_heard + np.abs(y) ** 2
        cross = cross + np.conj(x) * y
    coherence = np.abs(cross) ** 2 / np.maximum(power_played * power_heard, 1e-30)
    coherence = np.clip((coherence - chance) / (1.0 - chance), 0.0, 1.0)
    return float(np.sum(coherence * power_heard) / max(float(np.sum(power_heard)), 1e-30))


class UtteranceEcho:
    """What the microphone heard and the speakers played (by order: ``EchoCanceller.played``)
    around one utterance, to tell when it has ended whether it was Parley's voice
    (``echo_share``) that the canceller lost: under load the speakers run dry or the delay
    jumps, AEC3 removes nothing until it finds the echo again, and the guard and the
    utterance's loudness before and after cancelling can no longer tell it from the user.
    Keeps ``MAX_DELAY_SECONDS`` of reference and ``pre_roll_s`` of microphone before the
    utterance began, and at most ``longest_s`` of it."""

    def __init__(self, *, pre_roll_s: float, longest_s: float = 10.0) -> None:
        self._lookback = int(MAX_DELAY_SECONDS * SAMPLE_RATE)
        self._pre_roll = int(pre_roll_s * SAMPLE_RATE)
        self._longest = int(longest_s * SAMPLE_RATE)
        self._heard: deque[np.ndarray] = deque()
        self._played: deque[np.ndarray] = deque()
        self._kept = 0  # samples in each
        self._began: int | None = None  # samples kept before the utterance's pre-roll, once it began

    def push(self, heard: np.ndarray, played: np.ndarray) -> None:
        """A block of the microphone, raw, and the reference paired with it (as long)."""
        if len(heard) != len(played) or len(heard) == 0:
            return
        if self._began is not None and self._kept - self._began >= self._longest:
            return
        self._heard.append(np.asarray(heard, dtype=np.float32))
        self._played.append(np.asarray(played, dtype=np.float32))
        self._kept += len(heard)
        if self._began is None:
            self._trim()

    def begin(self) -> None:
        """An utterance was seen to begin with the block pushed last (one that began before
        and was never ended, while the microphone was ignored, is forgotten)."""
        self._trim()
        self._began = max(0, self._kept - self._pre_roll)

    def forget(self) -> None:
        """What began came to nothing."""
        self._began = None
        self._trim()

    def _trim(self) -> None:
        """Keep only what the next utterance may need from before it began."""
        while self._heard and self._kept - len(self._heard[0]) >= self._lookback + self._pre_roll:
            self._kept -= len(self._heard.popleft())
            self._played.popleft()

    def share(self) -> float:
        """``echo_share`` of what was heard since the utterance began; forgets it."""
        began, self._began = self._began, None
        if began is None or not self._heard:
            return 0.0
        heard, played = np.concatenate(self._heard), np.concatenate(self._played)
        self._heard.clear()
        self._played.clear()
        self._kept = 0
        reference = np.concatenate([np.zeros(max(0, self._lookback - began), dtype=np.float32), played])
        reference = reference[len(reference) - len(heard[began:]) - self._lookback :]
        if rms_level(reference) <= _SILENT_DB:
            return 0.0
        return echo_share(heard[began:], reference)


class EchoGuard:
    """Whether what the microphone hears, after the canceller, may be the user, block by block.

    A canceller removes Parley's voice only once it has learnt the room, and even then may leave
    a residue that a voice detector still calls speech.  So while Parley's voice plays (and
    ``hangover_seconds`` after: the room's echo, and an echo that comes later than the canceller
    has measured yet, up to ``MAX_DELAY_SECONDS``):
    - until the canceller has converged (its measured echo return loss enhancement, raw level
      over cleaned level on blocks with Parley's voice, reaches ``converged_db``), nothing heard
      is the user but by the level rule below.  AEC3 gets there 0.2 to 0.4 s after Parley's
      first words (bench/bench_echo.py: a question 0.5 s into a reply is heard as quickly as one
      later), so this is no longer a grace period anyone meets;
    - after that, a block may be the user only where, over the last ``window_seconds``, the
      canceller removed little (cleaned within ``keep_db`` of raw: it removes Parley's voice,
      not the user's; 10 dB: AEC3 also ducks the user a little while both speak) and what is
      left is not quiet (``quiet_db``: the residue of Parley's pauses and word endings, where
      removing little is removing little of nothing), and has been so for ``hold_seconds``
      without a break (the residue comes in short bursts);
    - at any time, a block may be the user where the microphone is louder than Parley's echo
      can be: ``loud_db`` over the loudest reference of the last ``echo_seconds`` plus the
      echo's gain (microphone over reference level, learnt while Parley speaks alone; it starts
      at 0 dB, as if the speakers were as loud at the microphone as the reference itself).  A
      double-talk detector by level: it hears a user who talks over Parley before the
      canceller has converged, which the first rule cannot.
    """

    def __init__(
        self,
        *,
        converged_db: float = 10.0,
        keep_db: float = 10.0,
        window_seconds: float = 0.06,
        quiet_db: float = -50.0,
        hold_seconds: float = 0.1,
        hangover_seconds: float = 1.0,
        loud_db: float = 10.0,
        echo_seconds: float = 0.2,
    ) -> None:
        self.converged_db = converged_db
        self.loud_db = loud_db
        self.echo_gain_db = 0.0  # the microphone's level over the reference's, Parley alone
        self._references: deque[tuple[float, float]] = deque()  # (seconds, dBFS) of recent references
        self._echo_seconds = echo_seconds
        self.keep_db = keep_db
        self.quiet_db = quiet_db
        self.hangover_seconds = hangover_seconds
        self.hold_seconds = hold_seconds
        self._user_for = 0.0  # seconds the windows have been user-like without a break
        self.erle_db = 0.0  # smoothed, over blocks where Parley's voice reaches the microphone
        self._echo_for = 0.0  # seconds its echo may still be heard
        self._window = max(1, round(window_seconds * SAMPLE_RATE))
        self._raw = np.zeros(0, dtype=np.float32)  # the latest ``window_seconds`` heard, and cleaned
        self._clean = np.zeros(0, dtype=np.float32)

    @property
    def converged(self) -> bool:
        return self.erle_db >= self.converged_db

    @property
    def echo_present(self) -> bool:
        """Parley's voice played within the hangover: what the microphone hears may hold its echo."""
        return self._echo_for > 0.0

    def filter_restarted(self) -> None:
        """The canceller's filter starts learning again (``EchoCanceller.restarts`` changed):
        what it removed so far says nothing about what it removes now."""
        self.erle_db = 0.0

    def admit(self, raw: np.ndarray, cleaned: np.ndarray, reference_level: float) -> bool:
        """Whether ``cleaned`` (the canceller's output for the microphone block ``raw``) may hold
        the user's voice; ``reference_level``: dBFS of what the speakers played for it."""
        seconds = len(raw) / SAMPLE_RATE
        self._raw = np.concatenate([self._raw, raw])[-self._window :]
        self._clean = np.concatenate([self._clean, cleaned])[-self._window :]
        if reference_level > -70.0:
            self._echo_for = self.hangover_seconds
        else:
            self._echo_for = max(0.0, self._echo_for - seconds)
            if self._echo_for == 0.0:
                return True
        reference_db = self._loudest_reference(seconds, reference_level)
        raw_db, clean_db = rms_level(self._raw), rms_level(self._clean)
        if not math.isfinite(raw_db) or raw_db < -60.0:
            return True  # nothing of Parley's voice reaches the microphone
        removed = raw_db - (clean_db if math.isfinite(clean_db) else -120.0)
        loud = raw_db >= reference_db + self.echo_gain_db + self.loud_db and raw_db >= self.quiet_db
        user_like = loud or self.converged and removed < self.keep_db and clean_db >= self.quiet_db
        if not user_like:  # learn from Parley's voice alone
            self.erle_db += 0.05 * (min(removed, 40.0) - self.erle_db)
            if reference_db > -60.0:
                self.echo_gain_db += 0.05 * (raw_db - reference_db - self.echo_gain_db)
        self._user_for = self._user_for + seconds if user_like else 0.0
        return self._user_for >= self.hold_seconds

    def _loudest_reference(self, seconds: float, level: float) -> float:
        """The loudest reference level (dBFS) of the last ``echo_seconds``: what the echo
        heard now may come from."""
        self._references.append((seconds, level))
        total = sum(s for s, _ in self._references)
        while self._references and total - self._references[0][0] >= self._echo_seconds:
            total -= self._references.popleft()[0]
        return max(level for _, level in self._references)


EchoCanceller = WebRtcEchoCanceller  # the one the app makes
