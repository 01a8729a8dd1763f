"""Speech to text for the app: a take's audio in, the words the user said out, to the flow
that asked (``transcribe(audio, purpose, then)``: ``then(text)`` on the UI thread).

The user's vocabulary (Settings > Dictation) biases whisper for every take (its initial prompt,
``DictationOptions.whisper_prompt``), and near misses of its words are corrected in what the
talk key, hands-free and Ask Parley hear (``corrected``); a dictation's words go to its flow as
heard, and the flow runs the whole dictation pipeline on them (the correction included).

Only the part of a take that holds speech is transcribed, and whisper's markers such as
``[BLANK_AUDIO]`` are not words: the rules of ``parley.engine.audio.utterance``, which ``parley
transcribe`` follows too.  A silent take is not transcribed at all (whisper makes words up from
silence).  Transcriptions run on the speech worker.

Live transcript: while a take is held, the speech so far is decoded about once a second and its
words are shown (``partial``).  Each time the speaker pauses long enough for the region's end
margin to be recorded (the region is *settled*), that region is decoded at once.  At release,
if the take's region is a region already decoded (the usual case: people stop speaking before
they let go), that transcript is used as it is: the same samples through the same greedy,
context-free decoding give the same text, so nothing is decoded again and the time from release
to transcript no longer grows with the take.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from PySide6.QtCore import QLocale, QObject, QTimer, Signal

from parley.engine.audio.files import rms_level
from parley.engine.audio.utterance import speech_region, spoken_text
from parley.engine.dictation.options import DictationOptions
from parley.engine.dictation.pipeline import process
from parley.engine.formats import SAMPLE_RATE
from parley.engine.wake.phrase import transcript_prompt

from ...config.settings import Settings
from ..engine_slots import EngineSlot
from ..signals import emit
from ..status import StatusPresenter
from ..take_purpose import TakePurpose
from ..tasks import Job

log = logging.getLogger("parley.transcription")

LIVE_TICK_MS = 100  # how often the take so far is looked at
LIVE_DISPLAY_S = 1.0  # the words shown are refreshed about this often


@dataclass
class _Decode:
    region: tuple[int, int]  # (start, end) samples of the take
    settled: bool = False  # the speaker had paused: the release sends this, unless they go on
    job: Job | None = None
    transcript: Any = None  # once done
    on_final: Callable[[Any], None] | None = None  # the release waits for it: its result
    on_final_error: Callable[[BaseException], None] | None = None
    failed: bool = False

    @property
    def usable(self) -> bool:
        """Done, or still running and not cancelled: a release may take its result."""
        if self.transcript is not None:
            return True
        return not self.failed and self.job is not None and not self.job.cancelled


def _loudness(audio: Any) -> str:
    """A take's length and levels, for the log: what tells a silent microphone from quiet speech."""
    samples = np.asarray(audio, dtype=np.float32)
    if samples.size == 0:
        return "no samples"
    peak = np.max(np.abs(samples), keepdims=True)  # the RMS level of that one sample is its level
    return f"{samples.size / SAMPLE_RATE:.2f} s, peak {rms_level(peak):.0f} dBFS, rms {rms_level(samples):.0f} dBFS"


Heard = Callable[[str], None]  # a flow's next step: a take's words ("" when nothing was recognised)


class Transcription(QObject):
    heard = Signal(str)  # a take's words, once its flow has used them (for whoever watches)
    partial = Signal(str)  # the words heard so far while a take is held
    # The words of a held take whose speaker has paused (a decode of its settled region, as
    # the release would send them): what the chat model may read whole ahead of the release.
    settled = Signal(str)
    working_changed = Signal(bool)  # a take is being transcribed (or not any more)

    def __init__(
        self,
        speech: EngineSlot,
        status: StatusPresenter,
        settings: Callable[[], Settings],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.speech = speech
        self.status = status
        self.settings = settings
        self.reused = 0  # releases answered by a live decode (diagnostics)
        self.working = False  # a take is being transcribed
        self.language_heard: str | None = None  # the language whisper found in the last take
        self._options: tuple[tuple[object, ...], DictationOptions] | None = None
        self._retry: tuple[Any, TakePurpose, Heard] | None = None  # a take to transcribe again once the model is back
        self._snapshot: Callable[[], Any] | None = None
        self._decodes: list[_Decode] = []  # live decodes of this take, newest last
        self._last_display = 0.0
        self._timer = QTimer(self, interval=LIVE_TICK_MS)
        self._timer.timeout.connect(self._tick)

    def language(self) -> str | None:
        """The language to hear (None: detect it).  "interface": the interface's language
        (the default locale, which the interface's language sets).  An English-only model
        hears English whatever this says."""
        language = self.settings().language
        if language == "interface":
            name = QLocale().name()
            return "en" if name == "C" else name.split("_")[0]
        return None if language == "auto" else language

    def dictation_options(self) -> DictationOptions:
        """The settings' dictation options (bounded by the engine; made again only when they change)."""
        s = self.settings()
        key = (
            tuple(s.dictation_vocabulary),
            s.dictation_vocabulary_threshold,
            tuple(map(tuple, s.dictation_replacements)),
            s.dictation_spoken_punctuation,
            s.dictation_remove_fillers,
            s.dictation_cleanup,
            s.dictation_cleanup_prompt,
            s.dictation_cleanup_timeout_s,
            s.language,
        )
        if self._options is None or self._options[0] != key:
            self._options = (key, DictationOptions.from_settings(s))
        return self._options[1]

    def corrected(self, text: str) -> str:
        """``text`` with near misses of the user's vocabulary corrected (nothing else changed)."""
        options = self.dictation_options()
        if not options.vocabulary or not text:
            return text
        only = dataclasses.replace(
            options, remove_fillers=False, replacements=(), spoken_punctuation=False, cleanup=False
        )
        return process(text, only).text

    # ------------------------------------------------------------------ a whole take

    def transcribe(self, audio: Any, purpose: TakePurpose, then: Heard, *, named: bool = False) -> bool:
        """Transcribe a take (16 kHz mono float32) and hand its words to ``then``; False if there
        is no speech model (``then`` is not called), or no sound in the take (``then("")`` is).
        ``named``: the take may begin with "Parley", its wake word (``wake.phrase.transcript_prompt``)."""
        self._timer.stop()
        self._snapshot = None
        if self.speech.model is None or self.speech.closing:
            self._drop_live()
            self.status.say(self.speech.problem or self.tr("The speech model is still loading…"))
            return False
        region = speech_region(audio)
        if region is None:
            log.info("no speech in the %s take: %s", purpose, _loudness(audio))
            self._drop_live()
            self.status.say(self.tr("No speech was heard (the microphone picked up only silence); nothing was sent."))
            self._hand_over("", then)
            return False
        self._set_working(True)
        key = (region.start, region.end)
        live = next((d for d in self._decodes if d.region == key and d.usable), None)
        self._drop_live(keep=live)
        if live is not None:
            self.reused += 1
            if live.transcript is not None:
                QTimer.singleShot(0, lambda: self._done(live.transcript, purpose, then))
            else:  # still decoding: its result is the answer
                self.status.say(self.tr("Transcribing…"), 0)
                live.on_final = lambda transcript: self._done(transcript, purpose, then)
                live.on_final_error = lambda exc: self._failed(exc, purpose, then, audio)
        else:
            self.status.say(self.tr("Transcribing…"), 0)
            self._submit(
                audio[region.start : region.end],
                key,
                lambda t: self._done(t, purpose, then),
                lambda exc: self._failed(exc, purpose, then, audio),
                named,
            )
        return True

    def retry(self, _model: Any = None) -> None:
        """The speech model is back (on another device): transcribe the take it lost."""
        if self._retry is not None:
            (audio, purpose, then), self._retry = self._retry, None
            self.transcribe(audio, purpose, then)

    def _done(self, transcript: Any, purpose: TakePurpose, then: Heard) -> None:
        self.status.show_clip_time(transcript.elapsed)
        self.language_heard = getattr(transcript, "language", None)
        text = spoken_text(transcript)
        if purpose not in (TakePurpose.DICTATE, TakePurpose.DICTATE_CLEANED):
            text = self.corrected(text)
        if not text:
            log.info("no words in the %s take's transcript %r", purpose, transcript.text)
            self.status.say(self.tr("No speech was recognised, so nothing was sent."))
        else:
            self.status.note(
                self.tr("Transcribed {audio} s of audio in {elapsed} s").format(
                    audio=QLocale().toString(float(transcript.audio_seconds), "f", 1),
                    elapsed=QLocale().toString(float(transcript.elapsed), "f", 2),
                )
            )
            if purpose is not TakePurpose.HANDS_FREE:  # its flow says what it sends (``tell_heard``)
                self.tell_heard(text)
        self._hand_over(text, then)

    def tell_heard(self, text: str) -> None:
        """Tell a screen reader the words heard (a hands-free utterance's flow does, once it knows
        whether they were Parley's own voice, or go on from the utterance before)."""
        self.status.tell(self.tr("Heard: {words}").format(words=text))

    def _failed(self, exc: BaseException, purpose: TakePurpose, then: Heard, audio: Any = None) -> None:
        if audio is not None and self.speech.device_lost(exc):
            self._retry = (audio, purpose, then)  # once the model is loaded on this machine
            self.status.say(self.tr("Transcribing again on this machine…"), 0)
            return
        cancelled = self.speech.is_cancel(exc)
        self.status.say(self.tr("Transcription stopped.") if cancelled else self.tr("Transcription failed."))
        if not cancelled:
            self.status.notice(self.tr("The recording could not be transcribed: {problem}").format(problem=exc))
        self._hand_over("", then)

    def _hand_over(self, text: str, then: Heard) -> None:
        """The words, to the flow that asked, then to whoever watches."""
        self._set_working(False)
        then(text)
        emit(self.heard, text)

    def _set_working(self, working: bool) -> None:
        if working != self.working:
            self.working = working
            emit(self.working_changed, working)

    # ------------------------------------------------------------------ live, while a take is held

    def begin_live(self, snapshot: Callable[[], Any]) -> None:
        """A take started; ``snapshot()`` returns it so far (any thread)."""
        self._drop_live()
        if not self.settings().live_transcript or self.speech.model is None:
            return
        self._snapshot = snapshot
        self._last_display = time.monotonic()
        self._timer.start()

    def stop_live(self) -> None:
        """The take ended: no more live decodes; those made stay for ``transcribe`` (the next
        ``begin_live`` drops them if it does not come)."""
        self._timer.stop()
        self._snapshot = None

    def _tick(self) -> None:
        if self._snapshot is None or self.speech.model is None:
            return
        audio = self._snapshot()
        region = speech_region(audio)
        if region is None:
            return
        key = (region.start, region.end)
        running = next((d for d in self._decodes if d.transcript is None and d.usable), None)
        known = any(d.region == key and d.usable for d in self._decodes)
        now = time.monotonic()
        if region.settled and not known:
            if running is not None and running.job is not None:  # usable, so it has a job
                running.job.cancel()  # outdated: the speaker paused since
            self._submit_live(audio, key, settled=True)
        elif running is None and not known and now - self._last_display >= LIVE_DISPLAY_S:
            self._submit_live(audio, key)

    def _submit_live(self, audio: Any, key: tuple[int, int], settled: bool = False) -> None:
        self._last_display = time.monotonic()
        decode = _Decode(key, settled)
        self._decodes = [d for d in self._decodes if d.usable][-4:] + [decode]

        def done(transcript: Any) -> None:
            decode.transcript = transcript
            if decode.on_final is not None:
                decode.on_final(transcript)
            elif self._snapshot is not None and all(
                decode.region[1] >= d.region[1] for d in self._decodes if d.transcript is not None
            ):
                emit(self.partial, spoken_text(transcript))
                if decode.settled:
                    emit(self.settled, self.corrected(spoken_text(transcript)))

        def failed(exc: BaseException) -> None:
            decode.failed = True  # else a release would wait for a result that never comes
            if decode.on_final_error is not None:
                decode.on_final_error(exc)
            elif not self.speech.is_cancel(exc):
                log.warning("a live transcription failed: %r", exc)

        decode.job = self._submit(audio[key[0] : key[1]], key, done, failed)

    def _submit(
        self,
        speech: Any,
        key: tuple[int, int],
        on_done: Callable[[Any], None],
        on_error: Callable[[BaseException], None],
        named: bool = False,
    ) -> Job:
        slot = self.speech
        model, language = slot.model, self.language()
        prompt = self.dictation_options().whisper_prompt()
        if named:
            prompt = transcript_prompt(prompt)

        def transcribe(job: Job) -> Any:
            return model.transcribe(
                speech, language=language, initial_prompt=prompt, cancel=job.link(slot.cancel_token())
            )

        return slot.submit(transcribe, on_done=on_done, on_error=on_error, name=f"transcribe {key[1] - key[0]} samples")

    def _drop_live(self, keep: _Decode | None = None) -> None:
        """Forget this take's live decodes, cancelling those still running (but ``keep``)."""
        for decode in self._decodes:
            if decode is not keep and decode.transcript is None and decode.job is not None:
                decode.job.cancel()
        self._decodes = []
        emit(self.partial, "")
