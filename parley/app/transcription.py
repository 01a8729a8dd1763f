"""Speech to text for the app: a take's audio in, the words the user said out (``heard``).

Only the part of a take that holds speech is transcribed: whisper makes words up from silence
("you"), so a silent take is not transcribed at all, and markers such as ``[BLANK_AUDIO]`` are
not words.  Transcriptions run on the speech worker.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal

from .engine_host import EngineHost
from .settings import Settings
from .signals import emit
from .status import StatusPresenter
from .tasks import Job


class Transcription(QObject):
    heard = Signal(str)                   # the words of a take; "" when nothing was recognised

    def __init__(self, host: EngineHost, status: StatusPresenter, settings: Callable[[], Settings],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.host = host
        self.status = status
        self.settings = settings

    def language(self) -> str | None:
        language = self.settings().language
        return None if language == "auto" else language

    def transcribe(self, audio: Any) -> bool:
        """Transcribe a take (16 kHz mono float32); False if there is no speech model, or no
        sound in the take (nothing is sent then)."""
        model, engines = self.host.speech_model, self.host.engines
        if model is None or self.host.closing:
            self.status.say(self.host.speech_problem or "The speech model is still loading…")
            return False
        speech = engines.voiced_part(audio)
        if len(speech) == 0:
            self.status.say("No speech was heard (the microphone picked up only silence); nothing was sent.")
            emit(self.heard, "")
            return False
        language = self.language()

        def transcribe(job: Job) -> Any:
            return model.transcribe(speech, language=language, cancel=job.link(engines.cancel_token()))

        self.status.say("Transcribing…", 0)
        self.host.speech_worker.submit(transcribe, on_done=self._done, on_error=self._failed, name="transcribe")
        return True

    def _done(self, transcript: Any) -> None:
        self.status.show_clip_time(transcript.elapsed)
        text = self.host.engines.spoken_text(transcript)
        if not text:
            self.status.say("No speech was recognised, so nothing was sent.")
        else:
            self.status.say(f"Transcribed {transcript.audio_seconds:.1f} s of audio in {transcript.elapsed:.2f} s")
        emit(self.heard, text)

    def _failed(self, exc: BaseException) -> None:
        cancelled = self.host.is_cancel(exc)
        self.status.say("Transcription stopped." if cancelled else "Transcription failed.")
        if not cancelled:
            self.status.notice(f"The recording could not be transcribed: {exc}")
        emit(self.heard, "")
