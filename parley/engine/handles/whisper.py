"""whisper.cpp's objects, one owner each: a model's context, the working state a transcription
runs in, and the voice activity detector's context.

A ``WhisperContext`` holds the weights only; a ``WhisperState`` made from it holds the buffers,
caches and results of ``whisper_full`` (whisper.cpp's own ``whisper_init_from_file`` makes
the two at once and frees them together).
"""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from .. import notes
from ..backend import native
from ..backend.cancel import CancelToken
from ..backend.devices import DeviceChoice
from ..backend.rpc import remote
from ..errors import ModelLoadError
from ..modelfiles.whisper_file import WhisperFileInfo
from ..notes import Note
from .owner import NativeHandle


def _model_path_arg(path: Path) -> bytes:
    """A model file's path as whisper.cpp opens it (``std::ifstream`` of a ``char *``)."""
    return native.ansi_path_arg(
        Path(path), "whisper.cpp cannot open a model file here", "move the model to a folder named in plain letters"
    )


class FullCall(Protocol):
    """What ``whisper_full``'s callbacks reach, on the transcribing thread.  whisper.cpp cannot
    take an exception: each method keeps its own failure and sets the call's cancel token."""

    def new_segments(self, n_new: int) -> None: ...

    def progress(self, percent: int) -> None: ...


_callbacks_installed = False
_callbacks_lock = threading.Lock()


def _install_callbacks() -> None:
    global _callbacks_installed
    with _callbacks_lock:
        if _callbacks_installed:
            return
        ffi = native.ffi()

        @native.def_extern(ffi)
        def parley_py_new_segment(ctx: Any, state: Any, n_new: int, user_data: Any) -> None:
            call: FullCall = ffi.from_handle(user_data)
            call.new_segments(int(n_new))

        @native.def_extern(ffi)
        def parley_py_progress(ctx: Any, state: Any, progress: int, user_data: Any) -> None:
            call: FullCall = ffi.from_handle(user_data)
            call.progress(int(progress))

        _callbacks_installed = True


def language_id(code: str) -> int:
    """whisper.cpp's id of a language code such as ``en`` (-1 when it does not know it)."""
    return int(native.lib().whisper_lang_id(code.encode()))


def language_code(lang_id: int) -> str:
    return native.string(native.lib().whisper_lang_str(lang_id))


class WhisperContext(NativeHandle):
    """A whisper model's weights on a device."""

    what = "whisper.cpp model"

    def __init__(self, info: WhisperFileInfo, choice: DeviceChoice, flash_attn: bool) -> None:
        """Load the file ``info`` describes: ``info`` is what ``check_whisper_ggml`` returned, so
        no file reaches whisper.cpp unchecked.  ModelLoadError when whisper.cpp refuses it."""
        super().__init__()
        self.path = info.path
        self.device = choice.device
        lib = native.lib()
        params = lib.whisper_context_default_params()
        params.use_gpu = choice.device.is_gpu
        params.gpu_device = choice.gpu_index or 0
        params.flash_attn = flash_attn
        with native.NativeLog() as errors:
            ctx = lib.whisper_init_from_file_with_params_no_state(_model_path_arg(self.path), params)
        if ctx == native.ffi().NULL:
            self.close()
            reason = errors.reason()
            where = {"engine": "whisper.cpp", "path": self.path, "device": choice.device.name}
            raise ModelLoadError(
                Note(notes.LOAD_REFUSED, **where, reason=reason)
                if reason
                else Note(notes.LOAD_REFUSED_SEE_LOG, **where)
            )
        self._adopt(ctx, lib.whisper_free)
        self.multilingual = bool(lib.whisper_is_multilingual(ctx))
        self.type_name = native.string(lib.whisper_model_type_readable(ctx))  # "tiny", "base"...


@dataclasses.dataclass(frozen=True)
class FullParams:
    """The settings of one ``whisper_full`` call that Parley chooses (whisper.cpp's defaults
    for the rest; it never prints)."""

    threads: int
    language: str  # a code whisper.cpp knows, or "auto"
    translate: bool
    no_context: bool  # no previous transcript as a prompt
    timestamps: bool
    single_segment: bool
    beam_size: int  # > 1: beam search; otherwise greedy
    temperature: float
    temperature_inc: float  # 0: no fallback to sampling at higher temperatures
    audio_ctx: int  # encoder frames (0: the full 30 s window)
    initial_prompt: str | None


class WhisperState(NativeHandle):
    """The working state of transcriptions with ``context``: one transcription at a time."""

    what = "whisper.cpp state"

    def __init__(self, context: WhisperContext) -> None:
        super().__init__(context)
        self._context = context
        lib = native.lib()
        with native.NativeLog() as errors:
            state = lib.whisper_init_state(context.handle)
        if state == native.ffi().NULL:
            self.close()
            reason = errors.reason()
            raise ModelLoadError(
                f"whisper.cpp could not make a working state for {context.path} on {context.device.name}"
                + (f": {reason}" if reason else "")
            )
        self._adopt(state, lib.whisper_free_state)
        _install_callbacks()

    def full(self, samples: np.ndarray, params: FullParams, call: FullCall, cancel: CancelToken) -> int:
        """Run ``whisper_full`` on 16 kHz mono float32 ``samples``: 0 when it succeeded.
        ``call`` gets the segments and the progress as they come; ``cancel`` stops it between
        graph nodes."""
        ffi, lib = native.ffi(), native.lib()
        strategy = lib.WHISPER_SAMPLING_BEAM_SEARCH if params.beam_size > 1 else lib.WHISPER_SAMPLING_GREEDY
        full = lib.whisper_full_default_params(strategy)
        full.n_threads = params.threads
        full.translate = params.translate
        full.no_context = params.no_context
        full.no_timestamps = not params.timestamps
        full.single_segment = params.single_segment
        full.print_special = full.print_progress = full.print_realtime = full.print_timestamps = False
        full.temperature = params.temperature
        full.temperature_inc = params.temperature_inc
        if params.beam_size > 1:
            full.beam_search.beam_size = params.beam_size
        full.audio_ctx = params.audio_ctx
        keep = [ffi.new("char[]", params.language.encode())]  # C strings must outlive the call
        full.language = keep[-1]
        full.detect_language = False
        if params.initial_prompt:
            keep.append(ffi.new("char[]", params.initial_prompt.encode()))
            full.initial_prompt = keep[-1]
        user_data = ffi.new_handle(call)
        full.new_segment_callback = lib.parley_py_new_segment
        full.new_segment_callback_user_data = user_data
        full.progress_callback = lib.parley_py_progress
        full.progress_callback_user_data = user_data
        full.abort_callback = ffi.addressof(lib, "parley_abort_flag_cb")
        full.abort_callback_user_data = cancel.c_pointer
        buf = ffi.from_buffer("float[]", samples)
        with remote.computing(self._context.device):
            return int(lib.whisper_full_with_state(self._context.handle, self.handle, full, buf, len(samples)))

    def n_segments(self) -> int:
        return int(native.lib().whisper_full_n_segments_from_state(self.handle))

    def segment(self, i: int) -> tuple[float, float, str]:
        """Segment ``i`` of the last transcription: start and end in seconds, and its text."""
        lib, state = native.lib(), self.handle
        return (
            lib.whisper_full_get_segment_t0_from_state(state, i) / 100.0,
            lib.whisper_full_get_segment_t1_from_state(state, i) / 100.0,
            native.string(lib.whisper_full_get_segment_text_from_state(state, i)),
        )

    def language_id(self) -> int:
        """The language of the last transcription (-1 when none)."""
        return int(native.lib().whisper_full_lang_id_from_state(self.handle))


class VadContext(NativeHandle):
    """whisper.cpp's Silero voice activity detector, on the CPU, with its LSTM state."""

    what = "voice activity model"

    def __init__(self, path: Path, threads: int) -> None:
        """Load ``path``, which ``audio.silero.check_vad_file`` accepted (whisper.cpp's VAD loader
        trusts the counts and shapes it reads).  ModelLoadError when whisper.cpp refuses it."""
        super().__init__()
        lib = native.lib()
        params = lib.whisper_vad_default_context_params()
        params.n_threads = max(1, threads)
        params.use_gpu = False  # a 1 MB network on 32 ms windows: the CPU answers in well under a millisecond
        with native.NativeLog() as errors:
            ctx = lib.whisper_vad_init_from_file_with_params(_model_path_arg(path), params)
        if ctx == native.ffi().NULL:
            self.close()
            reason = errors.reason()
            raise ModelLoadError(
                f"whisper.cpp could not load the voice activity model {path}" + (f": {reason}" if reason else "")
            )
        self._adopt(ctx, lib.whisper_vad_free)
        self.reset()  # the LSTM state starts uninitialised

    def reset(self) -> None:
        """Start the LSTM state afresh."""
        native.lib().whisper_vad_reset_state(self.handle)

    def detect(self, windows: np.ndarray) -> np.ndarray | None:
        """The speech probability of each 512-sample window of contiguous float32 ``windows``,
        carrying the LSTM state on from the last call; None when whisper.cpp fails."""
        ffi, lib = native.ffi(), native.lib()
        ctx = self.handle
        if not lib.whisper_vad_detect_speech_no_reset(ctx, ffi.cast("float *", windows.ctypes.data), len(windows)):
            return None
        n = lib.whisper_vad_n_probs(ctx)
        return np.array(np.frombuffer(ffi.buffer(lib.whisper_vad_probs(ctx), 4 * n), dtype=np.float32))
