"""Acoustic echo cancellation with speexdsp (Debian: libspeexdsp1; BSD licence), on 16 kHz mono.

On a laptop's speakers the microphone hears what Parley says.  ``EchoCanceller`` takes what
the speakers play (``reference``, from the player's thread) and removes its echo from what the
microphone hears (``process``, on the listener's thread): speexdsp's multi-delay block
frequency-domain adaptive filter, then its preprocessor's residual echo suppression.

The two streams are aligned by order, not by clock: each microphone frame is matched with the
next reference frame queued, so a reference block pushed as it goes to the device always comes
before its echo reaches the microphone (the device's output and input latencies and the room),
and the adaptive filter, ``tail_seconds`` long, finds the delay itself.  While nothing plays,
no reference comes and the microphone frames are matched with silence.  The player keeps the
device open, playing silence, between replies (``Player.hold``), so the delay, and what the
filter learnt, stay the same from one reply to the next.  (Matching by sample count, dropping
reference that came late, was tried: the pairing then depended on when each stream started,
and cancelled less.)
"""

from __future__ import annotations

import math
import threading
from collections import deque
from typing import Any

import numpy as np
import soxr
from cffi import FFI

from ..errors import EchoCancellerError
from ..formats import SAMPLE_RATE
from .files import rms_level

_LIBRARY = "libspeexdsp.so.1"
_SPEEX_ECHO_SET_SAMPLING_RATE = 24
_SPEEX_PREPROCESS_SET_DENOISE = 0
_SPEEX_PREPROCESS_SET_ECHO_SUPPRESS = 20
_SPEEX_PREPROCESS_SET_ECHO_SUPPRESS_ACTIVE = 22
_SPEEX_PREPROCESS_SET_ECHO_STATE = 24
MAX_BACKLOG_SECONDS = 2.0  # reference kept ahead of the microphone; older is dropped

_ffi = FFI()
_ffi.cdef(
    """
    typedef struct SpeexEchoState_ SpeexEchoState;
    typedef struct SpeexPreprocessState_ SpeexPreprocessState;
    SpeexEchoState *speex_echo_state_init(int frame_size, int filter_length);
    void speex_echo_state_destroy(SpeexEchoState *st);
    void speex_echo_cancellation(SpeexEchoState *st, const int16_t *rec, const int16_t *play, int16_t *out);
    int speex_echo_ctl(SpeexEchoState *st, int request, void *ptr);
    void speex_echo_state_reset(SpeexEchoState *st);
    SpeexPreprocessState *speex_preprocess_state_init(int frame_size, int sampling_rate);
    void speex_preprocess_state_destroy(SpeexPreprocessState *st);
    int speex_preprocess_run(SpeexPreprocessState *st, int16_t *x);
    int speex_preprocess_ctl(SpeexPreprocessState *st, int request, void *ptr);
    """
)
_lib: Any = None
_lib_lock = threading.Lock()


def _speexdsp() -> Any:
    global _lib
    with _lib_lock:
        if _lib is None:
            try:
                _lib = _ffi.dlopen(_LIBRARY)
            except OSError as e:
                raise EchoCancellerError(
                    "The echo canceller needs speexdsp (Debian/Ubuntu: sudo apt install libspeexdsp1)"
                ) from e
        return _lib


def available() -> str | None:
    """None when an echo canceller can be made here, else why not."""
    try:
        _speexdsp()
    except EchoCancellerError as e:
        return str(e)
    return None


def _to_int16(audio: np.ndarray) -> np.ndarray:
    return np.asarray(np.clip(audio, -1.0, 1.0) * 32767.0, dtype=np.int16)


class EchoCanceller:
    """Removes the speakers' echo from 16 kHz microphone audio (see the module docstring).

    ``frame_seconds``: speexdsp's frame (10 ms); ``tail_seconds``: the longest echo path the
    filter covers (device latencies plus the room's reverberation); ``suppress``: also run the
    residual echo suppressor (non-linear; it removes what the linear filter leaves).
    """

    def __init__(self, *, frame_seconds: float = 0.01, tail_seconds: float = 0.4, suppress: bool = True) -> None:
        if not 0.0 < frame_seconds <= 0.064 or not frame_seconds < tail_seconds <= 2.0:
            raise EchoCancellerError(f"Unusable echo canceller timing: frame {frame_seconds} s, tail {tail_seconds} s")
        lib = _speexdsp()
        self.frame = int(frame_seconds * SAMPLE_RATE)
        tail = int(tail_seconds * SAMPLE_RATE) // self.frame * self.frame
        echo = lib.speex_echo_state_init(self.frame, tail)
        if echo == _ffi.NULL:
            raise EchoCancellerError("speexdsp refused to make an echo canceller")
        self._echo = _ffi.gc(echo, lib.speex_echo_state_destroy)
        rate = _ffi.new("int *", SAMPLE_RATE)
        lib.speex_echo_ctl(self._echo, _SPEEX_ECHO_SET_SAMPLING_RATE, rate)
        self._pre: Any = None
        if suppress:
            pre = lib.speex_preprocess_state_init(self.frame, SAMPLE_RATE)
            if pre == _ffi.NULL:
                raise EchoCancellerError("speexdsp refused to make an echo suppressor")
            self._pre = _ffi.gc(pre, lib.speex_preprocess_state_destroy)
            lib.speex_preprocess_ctl(self._pre, _SPEEX_PREPROCESS_SET_ECHO_STATE, self._echo)
            lib.speex_preprocess_ctl(self._pre, _SPEEX_PREPROCESS_SET_DENOISE, _ffi.new("int *", 0))
            lib.speex_preprocess_ctl(self._pre, _SPEEX_PREPROCESS_SET_ECHO_SUPPRESS, _ffi.new("int *", -45))
            lib.speex_preprocess_ctl(self._pre, _SPEEX_PREPROCESS_SET_ECHO_SUPPRESS_ACTIVE, _ffi.new("int *", -30))
        self._lib = lib
        self._lock = threading.Lock()  # guards the reference queue and the resamplers
        self._reference: deque[np.ndarray] = deque()
        self._queued = 0
        self._resamplers: dict[int, soxr.ResampleStream] = {}
        self._pending = np.zeros(0, dtype=np.float32)  # microphone samples short of a frame
        self.reference_level = -math.inf  # dBFS of the reference the last ``process`` paired with the microphone
        self._rec = _ffi.new("int16_t[]", self.frame)
        self._play = _ffi.new("int16_t[]", self.frame)
        self._out = _ffi.new("int16_t[]", self.frame)

    def reference(self, block: np.ndarray, rate: int) -> None:
        """What the speakers are about to play, mono float32 at ``rate``; any thread."""
        with self._lock:
            if rate != SAMPLE_RATE:
                resampler = self._resamplers.get(rate)
                if resampler is None:
                    resampler = self._resamplers[rate] = soxr.ResampleStream(rate, SAMPLE_RATE, 1, dtype="float32")
                block = resampler.resample_chunk(np.ascontiguousarray(block, dtype=np.float32))
            if len(block) == 0:
                return
            self._reference.append(np.asarray(block, dtype=np.float32))
            self._queued += len(block)
            while self._queued > MAX_BACKLOG_SECONDS * SAMPLE_RATE:
                self._queued -= len(self._reference.popleft())

    def process(self, microphone: np.ndarray) -> np.ndarray:
        """``microphone`` (16 kHz mono float32) without the echo; one thread at a time.  What is
        short of a whole frame is held back for the next call (at most 10 ms)."""
        audio = np.concatenate([self._pending, np.asarray(microphone, dtype=np.float32).reshape(-1)])
        whole = len(audio) // self.frame * self.frame
        self._pending = audio[whole:].copy()
        if whole == 0:
            return audio[:0]
        reference = self._take_reference(whole)
        self.reference_level = rms_level(reference)
        out = np.empty(whole, dtype=np.float32)
        rec, play, cleaned, n = self._rec, self._play, self._out, self.frame
        mic16 = _to_int16(audio[:whole])
        ref16 = _to_int16(reference)
        for i in range(0, whole, n):
            _ffi.memmove(rec, mic16[i : i + n].tobytes(), 2 * n)
            _ffi.memmove(play, ref16[i : i + n].tobytes(), 2 * n)
            self._lib.speex_echo_cancellation(self._echo, rec, play, cleaned)
            if self._pre is not None:
                self._lib.speex_preprocess_run(self._pre, cleaned)
            out[i : i + n] = np.frombuffer(_ffi.buffer(cleaned), dtype=np.int16) / 32768.0
        return out

    def reset(self) -> None:
        """Forget the reference queued and what the filter learnt (a new microphone stream)."""
        with self._lock:
            self._reference.clear()
            self._queued = 0
            self._pending = self._pending[:0]
        self._lib.speex_echo_state_reset(self._echo)

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


class EchoGuard:
    """Whether what the microphone hears, after the canceller, may be the user, block by block.

    A canceller removes Parley's voice only once its filter has converged (a few seconds of
    Parley speaking), and even then leaves a residue that a voice detector still calls speech.
    So while Parley's voice plays (and ``hangover_seconds`` after, the room's echo):
    - until the canceller has converged (its measured echo return loss enhancement, raw level
      over cleaned level on blocks with Parley's voice, reaches ``converged_db``), nothing heard
      is the user: as without a canceller, the microphone is ignored;
    - after that, a block may be the user only where, over the last ``window_seconds``, the
      canceller removed little (cleaned within ``keep_db`` of raw: it removes Parley's voice,
      not the user's) and what is left is not quiet (``quiet_db``: the residue of Parley's
      pauses and word endings, where removing little is removing little of nothing), and has
      been so for ``hold_seconds`` without a break (the residue comes in short bursts).
    The filter keeps what it learnt while hands-free keeps the speakers open, so this costs the
    first seconds of the first reply read in a session, not every reply.
    """

    def __init__(
        self,
        *,
        converged_db: float = 10.0,
        keep_db: float = 6.0,
        window_seconds: float = 0.06,
        quiet_db: float = -50.0,
        hold_seconds: float = 0.1,
        hangover_seconds: float = 0.5,
    ) -> None:
        self.converged_db = converged_db
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
        raw_db, clean_db = rms_level(self._raw), rms_level(self._clean)
        if not math.isfinite(raw_db) or raw_db < -60.0:
            return True  # nothing of Parley's voice reaches the microphone
        removed = raw_db - (clean_db if math.isfinite(clean_db) else -120.0)
        user_like = removed < self.keep_db and clean_db >= self.quiet_db
        if not self.converged or not user_like:  # learn from Parley's voice alone
            self.erle_db += 0.05 * (min(removed, 40.0) - self.erle_db)
        self._user_for = self._user_for + seconds if user_like else 0.0
        return self.converged and self._user_for >= self.hold_seconds
