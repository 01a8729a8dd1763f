"""Speaking a reply as it streams: sentences are synthesized on a thread of their own, one
after another, and played while the next ones are made.

``begin`` starts an utterance, ``feed`` gives it each piece of the reply as it comes, ``end``
says the reply is complete (``say`` does all three for a whole text).  ``stop`` silences the
speakers at once and drops what was still to be said; ``pause`` silences them keeping it (the
sentences go on being made), until ``pause(False)``.  ``on_speaking(True)`` is called when
an utterance starts and ``on_speaking(False)`` once its last sound has been played, or it was
stopped; ``on_first_audio()`` when an utterance's first sound starts playing; ``on_error`` when
the voice or the speakers fail (the utterance is dropped).  ``first_piece`` times the way of
the current utterance to its first sound (``FirstPiece``), for the benchmarks.

The way to the first sound is kept short: the splitter cuts the first piece after a word or two
(``sentences``), generation steps aside while it is made (``cpu_share``), and the silence the
voice puts before it is cut (``trim_leading_silence``).  The speakers open when that piece is
made (a few milliseconds): opened at ``begin`` and fed silence until then, they delayed the
first block by 100-600 ms in 5 of 12 replies on busy cores (a starved player thread, the
device running dry).

Threads: every method may be called from any thread; the callbacks run on the speaker's or the
player's thread.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from ..audio.playback import Player
from ..backend import cpu_share
from ..errors import ParleyError
from .sentences import SentenceSplitter

log = logging.getLogger("parley.speaker")


class Voice(Protocol):
    sample_rate: int

    def synthesize(self, text: str) -> np.ndarray: ...


# With less audio than this still to play, the next piece is made as urgent work: generation on
# the CPU steps aside meanwhile (see ``cpu_share``).
URGENT_AHEAD_SECONDS = 0.5

# The silence before a reply's first word is cut to this much before the first sample above
# QUIET (-50 dBFS); AUDIBLE (-40 dBFS) marks the first audible sample in the figures.
LEAD_KEPT_SECONDS = 0.015
QUIET = 10 ** (-50 / 20)
AUDIBLE = 10 ** (-40 / 20)

_END = object()  # in the sentence queue: the utterance has no more text


@dataclass
class FirstPiece:
    """The way of an utterance to its first sound, as ``time.monotonic()`` times (None: not yet):
    ``begun``, its first text fed (``text_at``), its first piece cut from the text (``cut_at``:
    ``piece``, the words), that piece's synthesis (``synth_start``, ``synth_end``), handed to
    the player (``queued_at``), its first block written to the device (``sound_at``), and the
    silence that starts the piece as played (``lead_s``, before a sample above ``AUDIBLE``).
    ``device_open_s``: opening and starting the device, when it was opened for this utterance
    (None when it was already open); ``output_latency_s``: what the device reports it buffers
    before a written sample is heard."""

    begun: float
    text_at: float | None = None
    cut_at: float | None = None
    piece: str = ""
    synth_start: float | None = None
    synth_end: float | None = None
    queued_at: float | None = None
    sound_at: float | None = None
    lead_s: float | None = None
    device_open_s: float | None = None
    output_latency_s: float | None = None

    @property
    def audible_at(self) -> float | None:
        """When its first audible sample was written to the device (``sound_at`` plus the
        silence that starts the piece)."""
        return None if self.sound_at is None or self.lead_s is None else self.sound_at + self.lead_s


def silence_before(audio: np.ndarray, level: float) -> int:
    """How many samples start ``audio`` before the first louder than ``level`` (all: none is)."""
    loud = np.flatnonzero(np.abs(audio) > level)
    return int(loud[0]) if len(loud) else len(audio)


def trim_leading_silence(audio: np.ndarray, rate: int) -> np.ndarray:
    """``audio`` without the silence the voice puts before its first word (30-70 ms for
    Piper's voices), but for ``LEAD_KEPT_SECONDS`` before the first sample above ``QUIET``:
    the first sound of a reply need not wait for it, and what is kept holds the onset of a
    soft first sound (an "h", an "f")."""
    start = silence_before(audio, QUIET) - int(LEAD_KEPT_SECONDS * rate)
    return audio[start:] if start > 0 else audio


class Speaker:
    """Speaks with the voice ``load_voice()`` returns (called once, on the speaker's thread, at
    the first utterance or ``preload``).  ``on_played(block, rate)``: every block the speakers
    play, the echo canceller's reference; ``on_underflow()``: the speakers ran dry (``Player``).
    ``device``: the output device (None: the default)."""

    def __init__(
        self,
        load_voice: Callable[[], Voice],
        *,
        device: int | str | None = None,
        on_speaking: Callable[[bool], None] | None = None,
        on_error: Callable[[ParleyError], None] | None = None,
        on_played: Callable[[np.ndarray, int], None] | None = None,
        on_underflow: Callable[[], None] | None = None,
        on_first_audio: Callable[[], None] | None = None,
    ) -> None:
        self._load_voice = load_voice
        self._on_first_audio = on_first_audio
        self._device = device
        self._on_speaking = on_speaking
        self._on_error = on_error
        self._on_played = on_played
        self._on_underflow = on_underflow
        self._lock = threading.Lock()
        self._queue: queue.SimpleQueue[tuple[int, object]] = queue.SimpleQueue()
        self._utterance = 0  # the current utterance; work of older ones is dropped
        self._splitter = SentenceSplitter()
        self._speaking = False
        self._ended = True  # the current utterance's text is all synthesized (or it was stopped)
        self._voice: Voice | None = None
        self._player: Player | None = None
        self._thread: threading.Thread | None = None
        self._closed = False
        self._held = False
        self._paused = False
        self.first_audio_at: float | None = None  # time.monotonic() of the utterance's first sound
        self.first_piece: FirstPiece | None = None  # the current utterance's way to its first sound

    @property
    def speaking(self) -> bool:
        return self._speaking

    def preload(self) -> None:
        """Load the voice now, on the speaker's thread, rather than at the first utterance."""
        self._post(self._utterance, None)

    def begin(self) -> None:
        """Start a new utterance (stopping one still being spoken)."""
        self.stop()
        self.pause(False)
        with self._lock:
            self._splitter = SentenceSplitter()
            self._ended = False
            self.first_audio_at = None
            self.first_piece = FirstPiece(begun=time.monotonic())
        self._set_speaking(True)

    def feed(self, piece: str) -> None:
        """The next piece of the utterance's text (Markdown); complete sentences are spoken."""
        with self._lock:
            if self._ended:
                return
            sentences = self._splitter.push(piece)
            utterance = self._utterance
            first = self.first_piece
            if first is not None and piece and first.text_at is None:
                first.text_at = time.monotonic()
            self._note_cut(sentences)
        for sentence in sentences:
            self._post(utterance, sentence)

    def end(self) -> None:
        """The utterance's text is complete: speak the rest, then stop speaking."""
        with self._lock:
            if self._ended:
                return
            sentences = self._splitter.flush()
            utterance = self._utterance
            self._note_cut(sentences)
        for sentence in sentences:
            self._post(utterance, sentence)
        self._post(utterance, _END)

    def say(self, text: str) -> None:
        """Speak ``text`` (Markdown) whole."""
        self.begin()
        self.feed(text)
        self.end()

    def stop(self) -> None:
        """Silence the speakers now and drop what was still to be said."""
        with self._lock:
            self._utterance += 1
            self._ended = True
            player = self._player
        if player is not None:
            player.stop()
        self._set_speaking(False)

    def pause(self, paused: bool) -> None:
        """Silence the speakers keeping what is still to be said (True), or go on (False); a new
        utterance (``begin``) is not paused."""
        with self._lock:
            self._paused = paused
            player = self._player
        if player is not None:
            player.pause(paused)

    def close(self) -> None:
        """Stop and end the speaker's thread."""
        self.stop()
        with self._lock:
            self._closed = True
            thread, player = self._thread, self._player
        self._queue.put((-1, None))
        if thread is not None and thread is not threading.current_thread():
            thread.join(5.0)
        if player is not None:
            player.close()

    def hold_device(self, held: bool) -> None:
        """Keep the speakers open between utterances (see ``Player.hold``): for echo cancelling."""
        with self._lock:
            self._held = held
            player = self._player
        if player is not None:
            player.hold(held)

    def wait_until_quiet(self, timeout: float) -> bool:
        """Wait (a script, ``parley say``) until nothing is being spoken; False on timeout."""
        deadline = time.monotonic() + timeout
        while self._speaking:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.01)
        return True

    # ------------------------------------------------------------------ the speaker's thread

    def _post(self, utterance: int, item: object) -> None:
        with self._lock:
            if self._closed:
                return
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="parley-speaker", daemon=True)
                self._thread.start()
        self._queue.put((utterance, item))

    def _run(self) -> None:
        while True:
            utterance, item = self._queue.get()
            if utterance < 0:
                return
            try:
                voice = self._ready_voice()
                if item is None or utterance != self._utterance:
                    continue
                if item is _END:
                    self._ended = True
                    player = self._player
                    if player is None or not player.busy:
                        self._set_speaking(False)
                    else:
                        player.finish()
                    continue
                first = self.first_piece
                if first is None or first.synth_start is not None:
                    first = None  # not the utterance's first piece
                else:
                    first.synth_start = time.monotonic()
                with cpu_share.urgent() if self._running_dry() else nullcontext():
                    audio = voice.synthesize(str(item))
                if first is not None:
                    first.synth_end = time.monotonic()
                    audio = trim_leading_silence(audio, voice.sample_rate)
                    first.lead_s = silence_before(audio, AUDIBLE) / voice.sample_rate
                if utterance == self._utterance and len(audio):
                    self._ready_player(voice.sample_rate).play(audio)
                    if first is not None:
                        first.queued_at = time.monotonic()
            except ParleyError as error:
                log.warning("speaking failed: %s", error)
                self.stop()
                if self._on_error is not None:
                    self._on_error(error)

    def _note_cut(self, sentences: list[str]) -> None:
        """Time the utterance's first piece cut from its text (called with the lock held)."""
        first = self.first_piece
        if first is not None and sentences and first.cut_at is None:
            first.cut_at, first.piece = time.monotonic(), sentences[0]

    def _running_dry(self) -> bool:
        """The speakers will fall silent before the next piece is made, unless it is made at
        once: the utterance's first piece, or playback caught up with the voice."""
        player = self._player
        return player is None or player.seconds_ahead < URGENT_AHEAD_SECONDS

    def _ready_voice(self) -> Voice:
        if self._voice is None:
            self._voice = self._load_voice()
        return self._voice

    def _ready_player(self, rate: int) -> Player:
        with self._lock:
            if self._player is None or self._player.sample_rate != rate:
                if self._player is not None:
                    self._player.close()
                self._player = Player(
                    rate,
                    device=self._device,
                    on_played=self._on_played,
                    on_underflow=self._on_underflow,
                    on_state=self._player_state,
                    on_error=self._player_failed,
                )
                self._player.hold(self._held)
                self._player.pause(self._paused)
            return self._player

    def _player_state(self, playing: bool) -> None:
        if playing and self.first_audio_at is None:
            self.first_audio_at = time.monotonic()
            self._note_first_sound(self.first_audio_at)
            if self._on_first_audio is not None:
                self._on_first_audio()
        if not playing and self._ended:
            self._set_speaking(False)

    def _note_first_sound(self, at: float) -> None:
        first, player = self.first_piece, self._player
        if first is None or player is None:
            return
        first.sound_at = at
        if player.opened_at is not None and player.opened_at >= first.begun:
            first.device_open_s = player.open_seconds
        first.output_latency_s = player.output_latency

    def _player_failed(self, error: ParleyError) -> None:
        self.stop()
        if self._on_error is not None:
            self._on_error(error)

    def _set_speaking(self, speaking: bool) -> None:
        with self._lock:
            if speaking == self._speaking:
                return
            self._speaking = speaking
        if self._on_speaking is not None:
            self._on_speaking(speaking)
