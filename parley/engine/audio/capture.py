"""Microphone capture on PortAudio through sounddevice: push-to-talk takes and hands-free listening.

``Recorder.start()`` opens the device at its own default rate when the key goes down,
``stop()`` closes it when the key comes up and returns the take as 16 kHz mono float32;
``snapshot()`` returns the take so far while it records (for a live transcript).  The audio
thread only copies blocks; they are resampled with soxr's streaming resampler when a snapshot or
the take is asked for, which gives exactly the samples a one-shot resampling of the whole take
gives (whatever the chunking), so a snapshot is a prefix of the final take.

``Listener`` keeps the microphone open and hands 16 kHz blocks to a callback on a helper
thread, keeping nothing: hands-free mode cuts them into utterances.

sounddevice is imported on first use (``portaudio``), so a machine without PortAudio can still
run everything else and gets a ``CaptureError`` saying what to install.

Threads: ``start``/``stop``/``cancel`` may be called from any thread (they are serialised by a
lock and return within a few milliseconds).  ``on_level`` runs on PortAudio's audio thread, so
it must be quick and must not call back into the recorder; ``on_error`` and ``on_limit`` run on
a short-lived helper thread and may call ``stop()``.
"""

from __future__ import annotations

import dataclasses
import logging
import queue
import threading
import time
from collections.abc import Callable
from types import ModuleType
from typing import Protocol

import numpy as np
import numpy.typing as npt
import soxr

from .. import notes
from ..errors import CaptureError
from ..formats import SAMPLE_RATE
from ..native_loading import NATIVE_LOADING
from ..notes import Note
from . import portaudio
from .files import rms_level

log = logging.getLogger("parley.capture")

BLOCK_SECONDS = 0.02  # PortAudio delivers blocks about this long (a latency of a frame)

LATE_AUDIO_S = 0.5  # a take short of the time it was held by more than this is logged as a warning
PORTAUDIO_MISSING = portaudio.PORTAUDIO_MISSING
_PA_DEVICE_UNAVAILABLE = -9985  # paDeviceUnavailable: typically opened exclusively elsewhere


def _sounddevice() -> ModuleType:
    try:
        return portaudio.sounddevice()
    except OSError as e:  # sounddevice raises OSError when libportaudio cannot be loaded
        raise CaptureError(PORTAUDIO_MISSING) from e


class _InputStream(Protocol):
    """What Parley calls on a ``sounddevice.InputStream``."""

    def start(self) -> None: ...

    def stop(self) -> None: ...

    def close(self, ignore_errors: bool = True) -> None: ...


@dataclasses.dataclass(frozen=True)
class InputDevice:
    index: int  # PortAudio device index
    name: str  # e.g. "pulse", "default", "USB Audio Device: - (hw:1,0)"
    host_api: str  # e.g. "ALSA", "Core Audio", "Windows WASAPI"
    channels: int  # maximum input channels
    default_samplerate: float  # the rate the device runs at natively
    is_default: bool  # PortAudio's default input device


def list_input_devices(*, refresh: bool = False) -> list[InputDevice]:
    """The audio input devices PortAudio can see.

    PortAudio scans devices once, when it is initialised (on importing sounddevice), so a
    microphone plugged in or a sound server started later is not listed until ``refresh=True``
    re-initialises it.  Re-initialising invalidates every open PortAudio stream in the process,
    so it is skipped while any stream is open (a ``Recorder`` recording, a ``Listener``, a
    ``playback.Player`` playing).
    """
    sd = _sounddevice()
    if refresh:
        with portaudio.STREAMS_LOCK:
            if portaudio.streams_open() == 0:
                with NATIVE_LOADING:
                    sd._terminate()
                    sd._initialize()
    try:
        devices = sd.query_devices()
        host_apis = sd.query_hostapis()
    except sd.PortAudioError as e:
        raise CaptureError(f"Cannot list audio devices: {e}") from e
    try:
        default_input = sd.query_devices(kind="input")["index"]  # honours sd.default.device
    except sd.PortAudioError:  # there is no default input device
        default_input = None
    return [
        InputDevice(
            index=d["index"],
            name=d["name"],
            host_api=host_apis[d["hostapi"]]["name"],
            channels=d["max_input_channels"],
            default_samplerate=float(d["default_samplerate"]),
            is_default=d["index"] == default_input,
        )
        for d in devices
        if d["max_input_channels"] > 0
    ]


def find_input_device(devices: list[InputDevice], wanted: int | str | None) -> InputDevice:
    """Pick ``wanted`` out of ``devices``: ``None`` for the default input, a PortAudio index,
    or a name (an exact match, else a case-insensitive part of exactly one device's name)."""
    if not devices:
        raise CaptureError(Note(notes.NO_MICROPHONE))
    if wanted is None:
        return next((d for d in devices if d.is_default), devices[0])
    available = ", ".join(repr(d.name) for d in devices)
    if isinstance(wanted, int):
        for d in devices:
            if d.index == wanted:
                return d
        raise CaptureError(f"No microphone with device number {wanted}; available: {available}")
    exact = [d for d in devices if d.name == wanted]
    partial = [d for d in devices if wanted.lower() in d.name.lower()]
    matches = exact or partial
    if not matches:
        raise CaptureError(f"Microphone {wanted!r} not found; available: {available}")
    if len(matches) > 1:
        names = ", ".join(repr(d.name) for d in matches)
        raise CaptureError(f"Microphone name {wanted!r} is ambiguous: it matches {names}")
    return matches[0]


class _To16k:
    """Blocks at ``rate`` in, 16 kHz out, through soxr's streaming resampler (exact: the output
    does not depend on how the input was cut into blocks)."""

    def __init__(self, rate: int) -> None:
        self._stream = (
            None if rate == SAMPLE_RATE else soxr.ResampleStream(rate, SAMPLE_RATE, 1, dtype="float32", quality="HQ")
        )

    def convert(self, block: np.ndarray, last: bool = False) -> np.ndarray:
        if self._stream is None:
            return np.ascontiguousarray(block, dtype=np.float32)
        out: npt.NDArray[np.float32] = self._stream.resample_chunk(
            np.ascontiguousarray(block, dtype=np.float32), last=last
        )
        return out


class _Take:
    """One recording, from ``start()`` to the stream closing.  Callbacks of a take only ever
    touch that take, so a late callback cannot leak into the next recording."""

    def __init__(self, device: InputDevice, rate: int, limit_frames: int) -> None:
        self.device = device
        self.rate = rate
        self.limit_frames = limit_frames
        self.chunks: list[np.ndarray] = []  # appended by the audio thread only
        self.frames = 0
        self.limit_reached = False
        self.stopping = False  # set before we stop the stream ourselves
        self.ended = False  # the stream finished, for whatever reason
        self.error: CaptureError | None = None
        self.first_sample_at: float | None = None  # time.monotonic() of the first sample, estimated
        self.last_block_at: float | None = None
        self.longest_gap = 0.0  # seconds between two blocks, at most
        self.overflows = 0  # blocks PortAudio flagged (input dropped before them)
        self.stream: _InputStream  # sounddevice.InputStream, set once opened
        self._lock = threading.Lock()  # guards the conversion below
        self._to16k = _To16k(rate)
        self._converted: list[np.ndarray] = []
        self._taken = 0  # chunks converted so far
        self._finished = False

    def audio(self, final: bool = False) -> np.ndarray:
        """The take so far at 16 kHz (``final``: the whole take, the resampler flushed)."""
        with self._lock:
            count = len(self.chunks)  # the audio thread may append meanwhile
            for chunk in self.chunks[self._taken : count]:
                self._converted.append(self._to16k.convert(chunk))
            self._taken = count
            if final and not self._finished:
                self._converted.append(self._to16k.convert(np.zeros(0, dtype=np.float32), last=True))
                self._finished = True
            if not self._converted:
                return np.zeros(0, dtype=np.float32)
            if len(self._converted) > 1:  # keep one array: the next call concatenates less
                self._converted = [np.concatenate(self._converted)]
            return self._converted[0]


class Recorder:
    """Push-to-talk microphone recorder.

    ``device`` is ``None`` (the default input), a PortAudio device index or a device name (see
    ``find_input_device``); it is looked up at each ``start()``.  With ``refresh=True`` a device
    that is not found makes PortAudio re-scan devices once before giving up.

    The take ends by itself after ``max_seconds`` (the audio is kept, ``limit_reached`` is set
    and ``on_limit`` called) or when the device stops delivering audio, e.g. unplugged (the
    audio so far is kept, ``error`` is set and ``on_error`` called).  Either way ``stop()``
    returns what was recorded.
    """

    def __init__(
        self,
        device: int | str | None = None,
        *,
        max_seconds: float = 120.0,
        on_level: Callable[[float], None] | None = None,
        on_error: Callable[[CaptureError], None] | None = None,
        on_limit: Callable[[], None] | None = None,
        refresh: bool = False,
    ) -> None:
        if max_seconds <= 0:
            raise ValueError(f"max_seconds must be positive, got {max_seconds}")
        self.device = device
        self.max_seconds = max_seconds
        self._on_level = on_level
        self._on_error = on_error
        self._on_limit = on_limit
        self._refresh = refresh
        self._lock = threading.Lock()
        self._take: _Take | None = None
        self._limit_reached = False
        self._error: CaptureError | None = None
        self._first_sample_at: float | None = None

    @property
    def is_recording(self) -> bool:
        """True from ``start()`` until ``stop()``/``cancel()`` or the take ending by itself."""
        take = self._take
        return take is not None and not take.ended

    @property
    def elapsed(self) -> float:
        """Seconds of audio captured in the current take (0.0 when there is none); a
        microphone that delivers nothing for a while (a silent virtual source) does not
        advance it."""
        take = self._take
        return take.frames / take.rate if take is not None else 0.0

    @property
    def first_sample_at(self) -> float | None:
        """``time.monotonic()`` when the current (or last returned) take's first sample was
        captured, estimated from its first block; None before any audio came."""
        take = self._take
        return take.first_sample_at if take is not None else self._first_sample_at

    @property
    def limit_reached(self) -> bool:
        """Whether the current or last returned take was cut at ``max_seconds``."""
        take = self._take
        return take.limit_reached if take is not None else self._limit_reached

    @property
    def error(self) -> CaptureError | None:
        """Why the current or last returned take ended early (device lost), else None."""
        take = self._take
        return take.error if take is not None else self._error

    def start(self) -> None:
        """Start a take.  Does nothing while already recording; discards an ended take that
        was never collected with ``stop()``."""
        with self._lock:
            if self.is_recording:
                return
            if self._take is not None:
                self._close(self._take)
                self._take = None
            self._limit_reached = False
            self._error = None
            self._take = self._open(self._resolve_device())

    def stop(self) -> np.ndarray:
        """End the take and return it as 16 kHz mono float32 (empty if nothing was recorded)."""
        with self._lock:
            take, self._take = self._take, None
            if take is None:
                return np.zeros(0, dtype=np.float32)
            self._close(take)
            self._limit_reached, self._error = take.limit_reached, take.error
            self._first_sample_at = take.first_sample_at
        _report_delivery(take, time.monotonic())
        return take.audio(final=True)

    def snapshot(self) -> np.ndarray:
        """The current take so far, 16 kHz mono float32 (empty when not recording); any thread.
        Each snapshot is a prefix of the next and of what ``stop()`` returns, but for the last
        few milliseconds the resampler still holds."""
        take = self._take
        return take.audio() if take is not None else np.zeros(0, dtype=np.float32)

    def cancel(self) -> None:
        """End the take and discard its audio."""
        with self._lock:
            take, self._take = self._take, None
            if take is not None:
                self._close(take)

    def _resolve_device(self) -> InputDevice:
        try:
            return find_input_device(list_input_devices(), self.device)
        except CaptureError:
            if not self._refresh:
                raise
        return find_input_device(list_input_devices(refresh=True), self.device)

    def _open(self, device: InputDevice) -> _Take:
        rate = int(round(device.default_samplerate))
        take = _Take(device, rate, limit_frames=max(1, int(self.max_seconds * rate)))
        take.stream = _open_stream(
            device,
            rate,
            lambda indata, flagged: self._on_block(take, indata, flagged),
            lambda: self._on_finished(take),
        )
        return take

    @staticmethod
    def _close(take: _Take) -> None:
        take.stopping = True
        try:
            _close_stream(take.stream)
        finally:
            take.ended = True

    def _on_block(self, take: _Take, indata: np.ndarray, flagged: bool) -> None:
        """PortAudio's audio thread: keep a mono copy of the block and report its level.

        Status flags (an input overflow dropped a few milliseconds) are not treated as
        errors: a small gap in a push-to-talk take still transcribes."""
        block = _mono(indata)
        now = time.monotonic()
        if take.first_sample_at is None:  # a block arrives once it is full: its first sample is older
            take.first_sample_at = now - len(block) / take.rate
        if take.last_block_at is not None:
            take.longest_gap = max(take.longest_gap, now - take.last_block_at)
        take.last_block_at = now
        take.overflows += flagged
        room = take.limit_frames - take.frames
        if len(block) >= room:
            block = block[:room]
            take.limit_reached = True
        take.chunks.append(block)
        take.frames += len(block)
        if self._on_level is not None:
            self._on_level(rms_level(block))
        if take.limit_reached:
            raise _sounddevice().CallbackStop

    def _on_finished(self, take: _Take) -> None:
        """PortAudio's thread, when the stream ends: by ``stop()``, at the limit, or because
        the device failed."""
        take.ended = True
        if take.stopping:
            return
        if take.limit_reached:
            _notify(self._on_limit)
            return
        take.error = CaptureError(
            f"The microphone {take.device.name!r} stopped delivering audio after "
            f"{take.frames / take.rate:.1f} s (disconnected?); the audio recorded so far is kept"
        )
        _notify(self._on_error, take.error)


def _report_delivery(take: _Take, ended_at: float) -> None:
    """Log how the device delivered a take: a microphone that delivered much less audio than the
    time it was held (it stalled, or its audio came late) explains a take with no speech in it."""
    if take.first_sample_at is None:
        log.warning("the microphone %r delivered no audio", take.device.name)
        return
    held, got = ended_at - take.first_sample_at, take.frames / take.rate
    report = log.warning if held - got > LATE_AUDIO_S else log.debug
    report(
        "the microphone %r delivered %.2f s of audio in %.2f s (%d blocks flagged; longest wait for a block %.0f ms)",
        take.device.name,
        got,
        held,
        take.overflows,
        take.longest_gap * 1000,
    )


def _mono(indata: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """A copy of a PortAudio block as one channel (the mean of several)."""
    single = indata.shape[1] == 1
    mono: npt.NDArray[np.float32] = indata[:, 0].copy() if single else indata.mean(axis=1, dtype=np.float32)
    return mono


def _open_stream(
    device: InputDevice,
    rate: int,
    on_block: Callable[[np.ndarray, bool], None],
    on_finished: Callable[[], None],
) -> _InputStream:
    """Open and start an input stream on ``device`` at ``rate``, mono when the device allows."""
    sd = _sounddevice()
    channels = 1
    try:
        sd.check_input_settings(device.index, channels=1, samplerate=rate, dtype="float32")
    except sd.PortAudioError:
        channels = device.channels  # e.g. a raw ALSA device that only does stereo
    with portaudio.STREAMS_LOCK:  # no PortAudio re-initialisation while a stream is being opened
        try:
            stream: _InputStream = sd.InputStream(
                device=device.index,
                channels=channels,
                samplerate=rate,
                dtype="float32",
                blocksize=max(1, int(BLOCK_SECONDS * rate)),
                callback=lambda indata, _frames, _time, status: on_block(indata, bool(status)),
                finished_callback=on_finished,
            )
        except sd.PortAudioError as e:
            raise CaptureError(_open_failure(device, e)) from e
        try:
            stream.start()
        except sd.PortAudioError as e:
            stream.close(ignore_errors=True)
            raise CaptureError(_open_failure(device, e)) from e
        portaudio.stream_opened()
    return stream


def _close_stream(stream: _InputStream) -> None:
    """Stop (waiting for the last block, so the end of an utterance is kept) and close."""
    sd = _sounddevice()
    try:
        stream.stop()
    except sd.PortAudioError:
        pass  # the device is already gone; what was recorded is kept
    finally:
        stream.close(ignore_errors=True)
        with portaudio.STREAMS_LOCK:
            portaudio.stream_closed()


def _notify(callback: Callable[..., None] | None, *args: object) -> None:
    """Call ``callback`` off PortAudio's thread, where it may safely call ``Recorder.stop()``."""
    if callback is not None:
        threading.Thread(target=callback, args=args, name="parley-capture-event", daemon=True).start()


def _open_failure(device: InputDevice, error: Exception) -> str:
    """``error`` is a sounddevice.PortAudioError: args are (message, PortAudio error code, ...)."""
    in_use = len(error.args) > 1 and error.args[1] == _PA_DEVICE_UNAVAILABLE
    return Note(
        notes.MICROPHONE_IN_USE if in_use else notes.MICROPHONE_NOT_OPENED, name=device.name, reason=error.args[0]
    )


class Listener:
    """The microphone kept open for hands-free use: 16 kHz mono blocks go to ``on_audio`` on a
    helper thread (never PortAudio's audio thread, so it may take its time), and nothing is kept.

    ``on_level`` gets each block's level in dBFS on the same thread.  When the device stops
    delivering audio (unplugged), ``on_error`` is called (on another helper thread) and the
    listener has stopped.  ``device`` is as for ``Recorder``.
    """

    def __init__(
        self,
        device: int | str | None = None,
        *,
        on_audio: Callable[[np.ndarray], None],
        on_level: Callable[[float], None] | None = None,
        on_error: Callable[[CaptureError], None] | None = None,
    ) -> None:
        self.device = device
        self._on_audio = on_audio
        self._on_level = on_level
        self._on_error = on_error
        self._lock = threading.Lock()
        self._stream: _InputStream | None = None
        self._blocks: queue.SimpleQueue[np.ndarray | None] = queue.SimpleQueue()
        self._worker: threading.Thread | None = None
        self._stopping = False
        self._name = ""

    @property
    def is_listening(self) -> bool:
        return self._stream is not None

    def start(self) -> None:
        """Open the microphone; does nothing while already listening."""
        with self._lock:
            if self._stream is not None:
                return
            device = find_input_device(list_input_devices(), self.device)
            rate = int(round(device.default_samplerate))
            self._name = device.name
            self._stopping = False
            self._blocks = queue.SimpleQueue()
            self._worker = threading.Thread(
                target=self._run, args=(self._blocks, _To16k(rate)), name="parley-listener", daemon=True
            )
            self._worker.start()
            blocks = self._blocks
            try:
                self._stream = _open_stream(
                    device, rate, lambda indata, _flagged: blocks.put(_mono(indata)), self._on_finished
                )
            except CaptureError:
                blocks.put(None)
                raise

    def stop(self) -> None:
        """Close the microphone; returns once ``on_audio`` has had its last call."""
        with self._lock:
            stream, worker, self._stream = self._stream, self._worker, None
            self._stopping = True
            if stream is not None:
                _close_stream(stream)
            self._blocks.put(None)
        if worker is not None and worker is not threading.current_thread():
            worker.join()

    def _run(self, blocks: queue.SimpleQueue[np.ndarray | None], to16k: _To16k) -> None:
        while True:
            block = blocks.get()
            if block is None:
                return
            audio = to16k.convert(block)
            if self._on_level is not None:
                self._on_level(rms_level(block))
            if len(audio):
                self._on_audio(audio)

    def _on_finished(self) -> None:
        """PortAudio's thread: the stream ended; unless we stopped it, the device failed."""
        if self._stopping:
            return
        error = CaptureError(f"The microphone {self._name!r} stopped delivering audio (disconnected?)")

        def report() -> None:
            self.stop()
            if self._on_error is not None:
                self._on_error(error)

        threading.Thread(target=report, name="parley-capture-event", daemon=True).start()
