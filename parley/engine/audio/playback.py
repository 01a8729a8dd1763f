"""Playing audio through PortAudio (sounddevice), from a player thread of its own.

``Player.play`` queues mono float32 audio; the player thread opens the default output when
there is something to play, writes it out in short blocks (silence while it waits for more, so
the device never underruns mid-sentence), and closes the device once ``finish`` was called and
everything queued has been played.  ``stop`` drops what is queued and silences the device: the
thread notices between two blocks (one block is ``BLOCK_SECONDS``), aborts the stream, which
discards what the device still buffers, and ``stop`` returns once that is done.

Every block written (silence included) goes to ``on_played``, on the player thread: what the
speakers play, the echo canceller's reference.  An output underflow (the player thread was late
and the device ran dry: a loaded machine) goes to ``on_underflow``: the device played a gap that
no block holds, so the echo comes later than the reference says from there on.

``hold(True)`` keeps the device open, playing silence, between utterances (hands-free with
echo cancelling): the echo canceller's reference then stays in step with the microphone, so
what its filter learnt still holds for the next reply, and the next reply starts without
opening the device.  A ``stop`` while holding drops the queue without closing the device: what
the device buffers (``latency="low"``, a few tens of milliseconds) still plays out.
``pause(True)`` plays silence instead of the queue, which it keeps, until ``pause(False)`` (the
user may be talking over Parley: see ``SpokenReplies``).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import notes
from ..errors import AudioError, PlaybackError
from ..notes import Note
from . import portaudio

log = logging.getLogger("parley.playback")

BLOCK_SECONDS = 0.02
IDLE_CLOSE_SECONDS = 2.0  # with nothing queued and no ``finish``, the device closes after this
STOP_WAIT_SECONDS = 2.0  # ``stop`` gives up waiting for the thread after this (a hung device)


class Player:
    """Queues and plays audio at ``sample_rate`` on the output ``device`` (None: the default).

    ``on_state(playing)`` is called on the player thread when queued audio starts to play
    (True) and when it has all been played, or was stopped (False); ``on_error(error)`` when
    the device cannot be opened or fails (a ``PlaybackError``; what was queued is dropped).
    All methods may be called from any thread.
    """

    def __init__(
        self,
        sample_rate: int,
        *,
        device: int | str | None = None,
        on_played: Callable[[np.ndarray, int], None] | None = None,
        on_underflow: Callable[[], None] | None = None,
        on_state: Callable[[bool], None] | None = None,
        on_error: Callable[[PlaybackError], None] | None = None,
    ) -> None:
        if not 8000 <= sample_rate <= 192_000:
            raise AudioError(f"Cannot play audio at {sample_rate} Hz")
        self.sample_rate = sample_rate
        self.device = device
        self._on_played = on_played
        self._on_underflow = on_underflow
        self._on_state = on_state
        self._on_error = on_error
        self._block = max(1, int(BLOCK_SECONDS * sample_rate))
        self._cond = threading.Condition()
        self._chunks: deque[np.ndarray] = deque()
        self._ending = False  # close the device once the queue is empty
        self._stops = 0  # ``stop`` calls so far: a block taken before the latest one is not played
        self._stopped_through = 0  # the stops the thread has carried out
        self._closed = False
        self._held = False
        self._paused = False
        self._playing = False
        self._thread: threading.Thread | None = None
        # The device's last opening, for the figures of the first sound: when it began
        # (time.monotonic()), how long opening and starting it took, and the output latency
        # PortAudio reports (how long a written sample waits in the buffers before it is heard).
        self.opened_at: float | None = None
        self.open_seconds: float | None = None
        self.output_latency: float | None = None

    @property
    def playing(self) -> bool:
        """Queued audio is being played."""
        return self._playing

    @property
    def seconds_ahead(self) -> float:
        """Seconds of queued audio not yet played (what the device buffers not counted)."""
        with self._cond:
            return sum(len(chunk) for chunk in self._chunks) / self.sample_rate

    @property
    def busy(self) -> bool:
        """Audio is queued or playing."""
        with self._cond:
            return self._playing or bool(self._chunks)

    def hold(self, held: bool) -> None:
        """Keep the device open between utterances (True), or let it close when idle."""
        with self._cond:
            self._held = held
            if held:
                self._start_thread()
            self._cond.notify_all()

    def pause(self, paused: bool) -> None:
        """Play silence, keeping what is queued (True), or go on with it (False).  Silent within
        one block plus what the device buffers, as ``stop``; the device stays open meanwhile."""
        with self._cond:
            self._paused = paused
            self._cond.notify_all()

    def play(self, audio: np.ndarray) -> None:
        """Queue mono ``audio`` (float32 at ``sample_rate``, clipped to [-1, 1]) to be played."""
        samples = np.asarray(audio, dtype=np.float32).reshape(-1)
        if not np.all(np.isfinite(samples)):
            raise AudioError("Cannot play audio that is not finite")
        if len(samples) == 0:
            return
        with self._cond:
            if self._closed:
                raise PlaybackError("The player is closed")
            self._chunks.append(np.clip(samples, -1.0, 1.0))
            self._ending = False
            self._start_thread()
            self._cond.notify_all()

    def finish(self) -> None:
        """Nothing more is coming for now: close the device once the queue has been played."""
        with self._cond:
            self._ending = True
            self._cond.notify_all()

    def stop(self) -> None:
        """Drop everything queued and silence the device; returns once it is silent."""
        with self._cond:
            self._chunks.clear()
            self._ending = True
            self._stops += 1
            target = self._stops
            self._cond.notify_all()
            if self._thread is None:
                self._stopped_through = target
                return
            if not self._cond.wait_for(lambda: self._stopped_through >= target, timeout=STOP_WAIT_SECONDS):
                log.warning("the audio device did not stop within %.1f s", STOP_WAIT_SECONDS)

    def close(self) -> None:
        """Stop, and end the player thread; the player cannot be used again."""
        self.stop()
        with self._cond:
            self._closed = True
            thread, self._thread = self._thread, None
            self._cond.notify_all()
        if thread is not None and thread is not threading.current_thread():
            thread.join(STOP_WAIT_SECONDS)

    # ------------------------------------------------------------------ the player thread

    def _start_thread(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="parley-player", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(
                    lambda: self._closed or self._held or bool(self._chunks) or self._stops > self._stopped_through
                )
                self._stopped_through = self._stops
                self._cond.notify_all()
                if self._closed:
                    return
                if not self._chunks and not self._held:
                    continue
            try:
                self._play_session()
            except PlaybackError as error:
                with self._cond:
                    self._chunks.clear()
                    self._stopped_through = self._stops
                    self._cond.notify_all()
                if self._on_error is not None:
                    self._on_error(error)

    def _play_session(self) -> None:
        """Open the device, play until the queue is done (or stopped) and nothing holds the
        device open, close it."""
        stream = self._open()
        aborted = False
        try:
            idle = 0
            while True:
                with self._cond:
                    stops = self._stops
                    block = None if self._paused else self._take()
                    if block is None and self._paused and self._chunks:
                        idle = 0  # paused with more to say: the device stays open
                        block = np.zeros(self._block, dtype=np.float32)
                    elif block is None:
                        stopped = self._stopped_through != stops
                        if stopped:
                            self._stopped_through = stops
                            self._cond.notify_all()
                        if self._playing and (self._ending or stopped):
                            self._set_playing(False)
                        done = self._ending or idle * BLOCK_SECONDS >= IDLE_CLOSE_SECONDS
                        if self._closed or (done and not self._held):
                            break
                        idle += 1
                        block = np.zeros(self._block, dtype=np.float32)
                    else:
                        idle = 0
                        if not self._playing:
                            self._set_playing(True)
                underflowed = stream.write(block.reshape(-1, 1))
                if underflowed and self._on_underflow is not None:
                    self._on_underflow()
                if self._on_played is not None:
                    self._on_played(block, self.sample_rate)
                if self._stops != stops and not self._held:
                    aborted = True
                    break
        except Exception as exc:  # noqa: BLE001 - a device error ends the session, reported
            aborted = True
            raise PlaybackError(Note(notes.PLAYING_FAILED, reason=exc)) from exc
        finally:
            self._close(stream, abort=aborted or self._stops != self._stopped_through)
            with self._cond:
                self._stopped_through = self._stops
                self._cond.notify_all()
            if self._playing:
                self._set_playing(False)

    def _take(self) -> np.ndarray | None:
        """Up to one block of queued audio (called with the lock held)."""
        if not self._chunks:
            return None
        parts, wanted = [], self._block
        while self._chunks and wanted > 0:
            head = self._chunks[0]
            parts.append(head[:wanted])
            if len(head) <= wanted:
                self._chunks.popleft()
            else:
                self._chunks[0] = head[wanted:]
            wanted -= len(parts[-1])
        return np.concatenate(parts) if len(parts) > 1 else parts[0]

    def _open(self) -> Any:
        try:
            sd = portaudio.sounddevice()
        except OSError as e:
            raise PlaybackError(portaudio.PORTAUDIO_MISSING) from e
        started = time.monotonic()
        with portaudio.STREAMS_LOCK:
            try:
                stream = sd.OutputStream(
                    device=self.device,
                    channels=1,
                    samplerate=self.sample_rate,
                    dtype="float32",
                    blocksize=self._block,
                    latency="low",
                )
                stream.start()
            except Exception as e:  # noqa: BLE001 - sounddevice raises PortAudioError or ValueError
                raise PlaybackError(Note(notes.SPEAKERS_NOT_OPENED, reason=e)) from e
            portaudio.stream_opened()
        self.opened_at, self.open_seconds = started, time.monotonic() - started
        self.output_latency = float(stream.latency)
        return stream

    @staticmethod
    def _close(stream: Any, *, abort: bool) -> None:
        """``abort`` drops what the device still buffers; otherwise it is played out first."""
        try:
            if abort:
                stream.abort()
            else:
                stream.stop()
        except Exception as exc:  # noqa: BLE001 - a device that is gone cannot be stopped
            log.debug("closing the output stream: %s", exc)
        finally:
            with portaudio.STREAMS_LOCK:
                stream.close(ignore_errors=True)
                portaudio.stream_closed()

    def _set_playing(self, playing: bool) -> None:
        self._playing = playing
        if self._on_state is not None:
            self._on_state(playing)
