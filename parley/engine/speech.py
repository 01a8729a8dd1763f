"""Speech to text with whisper.cpp on the shared ggml build.

One ``SpeechModel`` holds one whisper context and its working state (``handles.whisper``),
loaded once and reused.  They are used by one thread at a time: ``transcribe`` holds a lock for
the whole call.  ``close()`` from
another thread cancels a transcription in progress instead of waiting for it, and a callback
that calls ``transcribe`` on the model it is called from gets ModelBusyError.

Two choices make push-to-talk fast and repeatable:
- the audio context (encoder frames, 50 per second) is sized to the clip instead of whisper's
  fixed 30 s window, which is most of the cost for a 2-10 s utterance;
- decoding is greedy without the previous transcript as a prompt and without temperature
  fallback, so a clip gives the same text whatever was transcribed before it.  Fallback would
  sample from a random generator that lives in the context and carries over between calls.
  What fallback is for, escaping a repetition loop, is done deterministically instead: an
  implausible transcript (more words than anyone says in that time, or text that compresses
  like a loop) is decoded again with a larger audio context.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import threading
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from .audio.files import prepare_for_model
from .audio.utterance import speech_in, speech_region, spoken_text
from .backend import auto_choice, cpu_load, native
from .backend.cancel import CancelToken
from .backend.devices import DeviceChoice, load_with_fallback, select_device
from .backend.rpc import remote
from .backend.threads import default_threads, usable_threads
from .errors import (
    AudioContextError,
    Cancelled,
    InvalidSettingError,
    ModelBusyError,
    ModelClosedError,
    ModelLoadError,
    ThreadCountError,
    TranscriptionError,
    UnknownLanguageError,
)
from .formats import SAMPLE_RATE
from .handles.owner import Owner
from .handles.whisper import FullParams, WhisperContext, WhisperState, language_code, language_id
from .modelfiles.whisper_file import check_whisper_ggml

FRAMES_PER_SECOND = 50  # encoder positions per second of audio (1500 per 30 s)
FULL_AUDIO_CTX = 1500
# Sized contexts are multiples of 256: with flash attention whisper.cpp reads the cross-attention
# KV cache padded to 256 entries without a mask, so any other size also attends to entries left
# by an earlier, longer clip and the text would depend on what was transcribed before.
AUDIO_CTX_STEP = 256
# Encoder frames beyond the clip: a little silence after the speech, as whisper saw in training
# (measured in bench/bench_speech.py).
AUDIO_CTX_MARGIN = 64


@dataclasses.dataclass
class Segment:
    start: float  # seconds
    end: float  # seconds
    text: str


@dataclasses.dataclass
class Transcript:
    segments: list[Segment]
    language: str
    audio_seconds: float
    elapsed: float  # seconds spent in whisper

    @property
    def text(self) -> str:
        return " ".join(s.text.strip() for s in self.segments if s.text.strip())


# A transcript is taken for a decoding loop when it says more words per second than people
# speak, or compresses better than this ratio (whisper's own compression threshold).
MAX_WORDS_PER_SECOND = 6.0
MAX_COMPRESSION_RATIO = 2.4


def looks_degenerate(text: str, seconds: float) -> bool:
    """True for a transcript that is a decoding loop rather than speech."""
    words = text.split()
    if len(words) > max(8.0, seconds * MAX_WORDS_PER_SECOND):
        return True
    data = text.encode()
    return len(data) > 40 and len(data) / len(zlib.compress(data)) > MAX_COMPRESSION_RATIO


def audio_ctx_for(seconds: float) -> int:
    """Encoder context for a clip of ``seconds``: the clip plus a margin, whisper's 1500 at most."""
    frames = math.ceil(seconds * FRAMES_PER_SECOND) + AUDIO_CTX_MARGIN
    frames = max(AUDIO_CTX_STEP, math.ceil(frames / AUDIO_CTX_STEP) * AUDIO_CTX_STEP)
    return frames if frames < FULL_AUDIO_CTX else 0  # 0: whisper's own full window


def _larger_ctx(ctx: int) -> int:
    """The next context to try after ``ctx`` produced a loop: twice as long, or the full window."""
    doubled = ctx * 2
    return doubled if 0 < doubled < FULL_AUDIO_CTX else 0


class _Call:
    """One ``whisper_full`` call: what its callbacks report, on the transcribing thread."""

    def __init__(
        self,
        state: WhisperState,
        on_segment: Callable[[Segment], None] | None,
        on_progress: Callable[[int], None] | None,
        cancel: CancelToken,
        seconds: float,
    ) -> None:
        self.state = state
        self.seconds = seconds
        self.on_segment = on_segment
        self.on_progress = on_progress
        self.cancel = cancel
        self.segments: list[Segment] = []
        self.error: BaseException | None = None  # surfaced after whisper_full returns

    def new_segments(self, n_new: int) -> None:
        try:
            total = self.state.n_segments()
            for i in range(total - n_new, total):
                start, end, text = self.state.segment(i)
                # Times are clamped to the clip (a single segment ends at the window's end).
                segment = Segment(min(self.seconds, start), min(self.seconds, end), text)
                self.segments.append(segment)
                if self.on_segment is not None:
                    self.on_segment(segment)
        except BaseException as exc:
            self.error = exc
            self.cancel.cancel()

    def progress(self, percent: int) -> None:
        try:
            if self.on_progress is not None:
                self.on_progress(percent)
        except BaseException as exc:
            self.error = exc
            self.cancel.cancel()


class SpeechModel(Owner):
    """A whisper.cpp model loaded on a device, ready to transcribe 16 kHz mono audio."""

    def __init__(
        self, path: str | Path, device: str | DeviceChoice = "auto", threads: int | None = None, flash_attn: bool = True
    ) -> None:
        super().__init__()
        self.path = Path(path)
        self._lock = threading.Lock()
        self._busy_thread: int | None = None  # the thread inside whisper_full
        self._cancel: CancelToken | None = None  # that call's token; close() sets it
        self._closing = False
        self._state: WhisperState
        with self._building():
            self.info = check_whisper_ggml(self.path)  # raises ModelFileError before native code sees it
            if threads is not None and threads < 0:
                raise ThreadCountError(f"the number of CPU threads must be at least 1, not {threads}")
            native.load_backends()
            self.threads = usable_threads(threads) if threads else default_threads()
            # No count given: the threads follow the machine's load (cpu_load); a given one stays.
            self.governor = cpu_load.ThreadGovernor(self.threads) if not threads else None
            choice = device if isinstance(device, DeviceChoice) else select_device(device)
            choice = auto_choice.settle(
                "speech", self.path, choice, self.threads, device_trial(self.path, self.threads)
            )
            self.device = load_with_fallback(choice, lambda on: self._load(on, flash_attn))

    def _threads_now(self) -> int:
        """The threads a transcription computes with: the machine's free cores now (``cpu_load``)
        on the CPU when no count was given, else the count."""
        if self.governor is not None and not self.device.device.is_gpu and not self.device.device.remote:
            return self.governor.threads()
        return self.threads

    def _load(self, choice: DeviceChoice, flash_attn: bool) -> None:
        """Load the model and its working state on ``choice``; ModelLoadError on failure,
        RemoteDeviceLost when its server went away meanwhile.  A failure frees what was made."""
        with contextlib.ExitStack() as made:
            try:
                context = made.enter_context(WhisperContext(self.info, choice, flash_attn))
                state = made.enter_context(WhisperState(context))
            except ModelLoadError:
                remote.check(choice.device)  # a lost server is the reason, when it is one
                raise
            if remote.lost_reason(choice.device):  # lost while the weights were sent
                remote.check(choice.device)
            self._resources.enter_context(made.pop_all())
        self._state = state
        self.multilingual = context.multilingual
        self.name = f"whisper {context.type_name}" + ("" if self.multilingual else ".en")

    def close(self) -> None:
        """Free the model; a transcription in progress on another thread is cancelled
        (it raises Cancelled) rather than waited for.  Later calls raise ModelClosedError."""
        self._closing = True
        cancel = self._cancel
        if cancel is not None:
            cancel.cancel()
        with self._lock:
            super().close()

    def transcribe(
        self,
        audio: np.ndarray,
        *,
        sample_rate: int = SAMPLE_RATE,
        language: str | None = None,
        translate: bool = False,
        threads: int | None = None,
        initial_prompt: str | None = None,
        single_segment: bool | None = None,
        audio_ctx: int | str = "auto",
        beam_size: int = 0,
        timestamps: bool = True,
        retry_degenerate: bool = True,
        temperature: float = 0.0,
        on_segment: Callable[[Segment], None] | None = None,
        on_progress: Callable[[int], None] | None = None,
        cancel: CancelToken | None = None,
    ) -> Transcript:
        """Transcribe ``audio`` (any rate; resampled to 16 kHz mono and validated).

        ``language``: a code such as ``en``, or None/``auto`` to detect (multilingual models).
        ``single_segment``: None chooses it for clips up to 30 s (push-to-talk).
        ``audio_ctx``: ``auto`` sizes the encoder context to the clip, ``full`` uses 1500,
        or an explicit number of frames.  ``beam_size`` > 1 selects beam search.
        ``on_segment`` is called on this thread as each segment is decoded.
        ``cancel`` stops whisper within a graph node; ``Cancelled`` is raised then.
        ``retry_degenerate``: decode a looping transcript again with a larger context (in
        which case ``on_segment`` may have seen the discarded attempt's segments).
        ``temperature`` > 0 samples instead of decoding greedily (from a random generator that
        lives in the context, so the text may differ between calls); at most 1.
        """
        samples = prepare_for_model(audio, sample_rate)
        seconds = len(samples) / SAMPLE_RATE
        cancel = cancel or CancelToken()
        if cancel.cancelled:
            raise Cancelled("transcription cancelled")
        ctx = self._audio_ctx(audio_ctx, seconds)
        if not 0.0 <= temperature <= 1.0:  # also refuses NaN
            raise InvalidSettingError(f"the temperature must be 0 to 1, not {temperature}")

        def full(encoder_ctx: int) -> Transcript:
            return self._full(
                samples,
                seconds,
                encoder_ctx,
                language=language,
                translate=translate,
                threads=threads,
                initial_prompt=initial_prompt,
                single_segment=single_segment,
                beam_size=beam_size,
                timestamps=timestamps,
                temperature=temperature,
                on_segment=on_segment,
                on_progress=on_progress,
                cancel=cancel,
            )

        result = full(ctx)
        elapsed = result.elapsed
        for larger in (_larger_ctx(ctx), 0):
            if not retry_degenerate or ctx == 0 or not looks_degenerate(result.text, seconds):
                break
            ctx = larger
            result = full(ctx)
            elapsed += result.elapsed
        result.elapsed = elapsed
        return result

    def _full(
        self,
        samples: np.ndarray,
        seconds: float,
        audio_ctx: int,
        *,
        language: str | None,
        translate: bool,
        threads: int | None,
        initial_prompt: str | None,
        single_segment: bool | None,
        beam_size: int,
        timestamps: bool,
        temperature: float,
        on_segment: Callable[[Segment], None] | None,
        on_progress: Callable[[int], None] | None,
        cancel: CancelToken,
    ) -> Transcript:
        """One ``whisper_full`` call with the given audio context (0: the full window)."""
        lang = (language or "auto").strip().lower()
        if not self.multilingual:
            lang = "en"
        elif lang != "auto" and language_id(lang) < 0:
            raise UnknownLanguageError(str(language))
        params = FullParams(
            threads=threads or self._threads_now(),
            language=lang,
            translate=translate,
            no_context=True,
            timestamps=timestamps,
            single_segment=(seconds <= 30.0) if single_segment is None else single_segment,
            beam_size=beam_size,
            temperature=temperature,
            temperature_inc=0.0,  # no random fallback: same clip, same text
            audio_ctx=audio_ctx,
            initial_prompt=initial_prompt,
        )
        if self._busy_thread == threading.get_ident():
            raise ModelBusyError(
                "the speech model is busy on this thread: it cannot transcribe from "
                "the callback of a transcription in progress"
            )
        with self._lock:
            if self.closed:
                raise ModelClosedError("the speech model is closed")
            call = _Call(self._state, on_segment, on_progress, cancel, seconds)
            self._busy_thread, self._cancel = threading.get_ident(), cancel
            if self._closing:
                cancel.cancel()
            try:
                started = time.perf_counter()
                with native.NativeLog(silenced=lambda: cancel.cancelled) as errors:
                    rc = self._state.full(samples, params, call, cancel)
                elapsed = time.perf_counter() - started
                remote.check(self.device.device)  # a lost server's stand-in results are garbage
                lang_id = self._state.language_id()
            finally:
                self._busy_thread = self._cancel = None
            if call.error is not None:
                raise call.error
            if cancel.cancelled:
                raise Cancelled("transcription cancelled")
            if rc != 0:
                reason = errors.reason()
                raise TranscriptionError(
                    f"whisper.cpp failed to transcribe (error {rc})" + (f": {reason}" if reason else ""), rc
                )
            language_found = language_code(lang_id) if lang_id >= 0 else lang
        return Transcript(call.segments, language_found, seconds, elapsed)

    @staticmethod
    def _audio_ctx(audio_ctx: int | str, seconds: float) -> int:
        if audio_ctx == "auto":
            return audio_ctx_for(seconds) if seconds <= 30.0 else 0
        if audio_ctx == "full":
            return 0
        try:
            value = int(audio_ctx)
        except (TypeError, ValueError):
            value = -1
        if not 0 <= value <= FULL_AUDIO_CTX:
            raise AudioContextError(
                f"the audio context must be auto, full or 0 to {FULL_AUDIO_CTX} frames, not {audio_ctx!r}"
            )
        return value


@dataclasses.dataclass
class Spoken:
    """What was said in a clip, as the app and ``parley transcribe`` report it."""

    text: str  # "" when nothing was said
    segments: list[Segment]  # times in the clip, whisper's non-speech markers left out
    language: str
    elapsed: float


def transcribe_speech(model: SpeechModel, audio: np.ndarray, **options: Any) -> Spoken | None:
    """Transcribe the speech in 16 kHz mono ``audio`` with the app's rules: only the part that
    holds speech is transcribed (none: None, whisper is not run) and non-speech markers such as
    ``[BLANK_AUDIO]`` are dropped (``parley.engine.audio.utterance``).  ``options`` go to
    ``SpeechModel.transcribe``."""
    region = speech_region(audio)
    if region is None:
        return None
    result = model.transcribe(audio[region.start : region.end], **options)
    offset = region.start / SAMPLE_RATE
    segments = [Segment(s.start + offset, s.end + offset, said) for s in result.segments if (said := speech_in(s.text))]
    return Spoken(spoken_text(result), segments, result.language, result.elapsed)


def device_trial(path: Path, threads: int) -> auto_choice.Measure:
    """Auto's measurement for speech: seconds to transcribe the self-test question (3 s) on a
    device; on a GPU the run after one warm-up."""

    def measure(choice: DeviceChoice) -> float:
        from importlib import resources

        from .audio.files import load_audio

        with resources.as_file(resources.files("parley").joinpath("resources/selftest/question.wav")) as clip:
            audio = load_audio(clip)
        on = dataclasses.replace(choice, requested="trial", note=None)
        with SpeechModel(path, device=on, threads=threads) as model:
            if model.device.device.index != choice.device.index:
                raise ModelLoadError(f"{choice.device.name} could not load {path.name}: {model.device.fallback_reason}")
            best = math.inf
            for _ in range(2 if choice.device.is_gpu else 1):
                started = time.perf_counter()
                model.transcribe(audio)
                best = min(best, time.perf_counter() - started)
        return best

    return measure
