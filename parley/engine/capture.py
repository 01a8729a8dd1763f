"""Microphone capture with push-to-talk semantics, on PortAudio through sounddevice.

``Recorder.start()`` opens the device at its own default rate when the key goes down,
``stop()`` closes it when the key comes up and returns the take as 16 kHz mono float32.
The whole take is resampled at ``stop()`` with soxr rather than block by block in the audio
callback: that is exact (no resampler state to flush), keeps the audio thread to a copy, and
costs about 30 ms (measured) for the 120 s maximum at 48 kHz, once, after the key is released.

sounddevice is imported on first use, not at import time, so a machine without PortAudio can
still run everything else and gets a ``CaptureError`` saying what to install.

Threads: ``start``/``stop``/``cancel`` may be called from any thread (they are serialised by a
lock and return within a few milliseconds).  ``on_level`` runs on PortAudio's audio thread, so
it must be quick and must not call back into the recorder; ``on_error`` and ``on_limit`` run on
a short-lived helper thread and may call ``stop()``.
"""

from __future__ import annotations

import dataclasses
import threading
from types import ModuleType
from typing import Callable

import numpy as np
import soxr

from .audio import SAMPLE_RATE, rms_level
from .errors import CaptureError

PORTAUDIO_MISSING = "PortAudio is not installed (Debian/Ubuntu: sudo apt install libportaudio2)"
_PA_DEVICE_UNAVAILABLE = -9985  # paDeviceUnavailable: typically opened exclusively elsewhere

_streams_lock = threading.Lock()
_open_streams = 0  # Recorder streams open in this process; PortAudio must not be re-initialised


def _sounddevice() -> ModuleType:
    try:
        import sounddevice
    except OSError as e:  # sounddevice raises OSError when libportaudio cannot be loaded
        raise CaptureError(PORTAUDIO_MISSING) from e
    return sounddevice


@dataclasses.dataclass(frozen=True)
class InputDevice:
    index: int                  # PortAudio device index
    name: str                   # e.g. "pulse", "default", "USB Audio Device: - (hw:1,0)"
    host_api: str               # e.g. "ALSA", "Core Audio", "Windows WASAPI"
    channels: int               # maximum input channels
    default_samplerate: float   # the rate the device runs at natively
    is_default: bool            # PortAudio's default input device


def list_input_devices(*, refresh: bool = False) -> list[InputDevice]:
    """The audio input devices PortAudio can see.

    PortAudio scans devices once, when it is initialised (on importing sounddevice), so a
    microphone plugged in or a sound server started later is not listed until ``refresh=True``
    re-initialises it.  Re-initialising invalidates every open PortAudio stream in the process,
    so it is skipped while a ``Recorder`` is recording; other code playing audio through
    sounddevice must not have a stream open either.
    """
    sd = _sounddevice()
    if refresh:
        with _streams_lock:
            if _open_streams == 0:
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
        raise CaptureError(
            "No microphone found: there is no audio input device. Connect a microphone, or "
            "check that the sound server (PulseAudio or PipeWire) is running."
        )
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


class _Take:
    """One recording, from ``start()`` to the stream closing.  Callbacks of a take only ever
    touch that take, so a late callback cannot leak into the next recording."""

    def __init__(self, device: InputDevice, rate: int, limit_frames: int) -> None:
        self.device = device
        self.rate = rate
        self.limit_frames = limit_frames
        self.chunks: list[np.ndarray] = []
        self.frames = 0
        self.limit_reached = False
        self.stopping = False  # set before we stop the stream ourselves
        self.ended = False     # the stream finished, for whatever reason
        self.error: CaptureError | None = None
        self.stream = None     # sounddevice.InputStream once opened

    def audio(self) -> np.ndarray:
        if not self.chunks:
            return np.zeros(0, dtype=np.float32)
        audio = np.concatenate(self.chunks)
        if self.rate != SAMPLE_RATE:
            audio = soxr.resample(audio, self.rate, SAMPLE_RATE, quality="HQ")
        return np.ascontiguousarray(audio, dtype=np.float32)


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

    @property
    def is_recording(self) -> bool:
        """True from ``start()`` until ``stop()``/``cancel()`` or the take ending by itself."""
        take = self._take
        return take is not None and not take.ended

    @property
    def elapsed(self) -> float:
        """Seconds of audio captured in the current take (0.0 when there is none)."""
        take = self._take
        return take.frames / take.rate if take is not None else 0.0

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
        return take.audio()

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
        global _open_streams
        sd = _sounddevice()
        rate = int(round(device.default_samplerate))
        channels = 1
        try:
            sd.check_input_settings(device.index, channels=1, samplerate=rate, dtype="float32")
        except sd.PortAudioError:
            channels = device.channels  # e.g. a raw ALSA device that only does stereo
        take = _Take(device, rate, limit_frames=max(1, int(self.max_seconds * rate)))
        with _streams_lock:  # no PortAudio re-initialisation while a stream is being opened
            try:
                stream = sd.InputStream(
                    device=device.index,
                    channels=channels,
                    samplerate=rate,
                    dtype="float32",
                    callback=lambda indata, _frames, _time, _status: self._on_block(take, indata),
                    finished_callback=lambda: self._on_finished(take),
                )
            except sd.PortAudioError as e:
                raise CaptureError(_open_failure(device, e)) from e
            try:
                stream.start()
            except sd.PortAudioError as e:
                stream.close(ignore_errors=True)
                raise CaptureError(_open_failure(device, e)) from e
            _open_streams += 1
        take.stream = stream
        return take

    @staticmethod
    def _close(take: _Take) -> None:
        global _open_streams
        take.stopping = True
        sd = _sounddevice()
        try:
            take.stream.stop()  # waits for the last block, so the end of the utterance is kept
        except sd.PortAudioError:
            pass  # the device is already gone; what was recorded is still in the take
        finally:
            take.stream.close(ignore_errors=True)
            take.ended = True
            with _streams_lock:
                _open_streams -= 1

    def _on_block(self, take: _Take, indata: np.ndarray) -> None:
        """PortAudio's audio thread: keep a mono copy of the block and report its level.

        Status flags (an input overflow dropped a few milliseconds) are not treated as
        errors: a small gap in a push-to-talk take still transcribes."""
        block = indata[:, 0].copy() if indata.shape[1] == 1 else indata.mean(axis=1)
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


def _notify(callback: Callable[..., None] | None, *args: object) -> None:
    """Call ``callback`` off PortAudio's thread, where it may safely call ``Recorder.stop()``."""
    if callback is not None:
        threading.Thread(
            target=callback, args=args, name="parley-capture-event", daemon=True
        ).start()


def _open_failure(device: InputDevice, error: Exception) -> str:
    """``error`` is a sounddevice.PortAudioError: args are (message, PortAudio error code, ...)."""
    message = f"Cannot open the microphone {device.name!r}: {error.args[0]}"
    if len(error.args) > 1 and error.args[1] == _PA_DEVICE_UNAVAILABLE:
        message += " - it may be in use by another application"
    return message


class EnergyVAD:
    """Energy-threshold voice activity detection on 16 kHz mono float32 audio.

    A block is speech when its RMS level reaches ``threshold_db`` (dBFS).  ``is_speech`` keeps
    saying so for ``hangover_seconds`` after the level drops, so the pauses between words and
    quiet word endings do not cut an utterance; ``trim`` keeps the same margin around the
    speech it finds.  Meant for a hands-free mode and for trimming takes; whisper.cpp's own VAD
    needs a Silero model that is not shipped.
    """

    def __init__(
        self,
        *,
        threshold_db: float = -40.0,
        hangover_seconds: float = 0.3,
        frame_seconds: float = 0.02,
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
        n = len(audio)
        if n == 0:
            return audio
        frame = max(1, int(self.frame_seconds * self.sample_rate))
        starts = np.arange(0, n, frame)
        mean_square = np.add.reduceat(np.square(audio, dtype=np.float64), starts) / np.diff(
            np.append(starts, n)
        )
        loud = np.flatnonzero(mean_square >= 10.0 ** (self.threshold_db / 10.0))
        if len(loud) == 0:
            return audio[:0]
        margin = int(self.hangover_seconds * self.sample_rate)
        begin = max(0, int(starts[loud[0]]) - margin)
        end = min(n, int(starts[loud[-1]]) + frame + margin)
        return audio[begin:end]
