"""Replies read aloud: the voice the settings name, fed as the reply streams, silenced or held
when the user speaks over it (the barge-in flow, ``flows.barge_in``, decides which), and the
reference for hands-free's echo canceller.

The output is made on first need: ``make`` (tests pass their own) or the voice the settings
name, the natural voice by default and the system's voice (speech-dispatcher) when no natural
voice can speak.  A natural voice streams: each sentence is spoken while the reply is still
written.  The system voice reads the whole reply once it is written.  While the natural voice
speaks, what the speakers play goes to hands-free's echo canceller, so Parley does not hear
itself; without a canceller, hands-free ignores the microphone while Parley speaks.

Held for a check: when speech begins over Parley, the natural voice falls silent at once but
keeps what it has left to say (``hold_for_check``) until the barge-in flow has the words: it
then speaks on (``speak_on``) or is silenced (``silence``).  A check that no verdict ends
(an utterance cut at the length limit) ends by itself after ``CHECK_TIMEOUT_MS``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from ...config.settings import Settings
from ..engines import Engines
from ..signals import emit
from ..speech.hands_free import HandsFree
from ..status import StatusPresenter
from .read_aloud import NaturalReadAloud, ReadAloud

Output = ReadAloud | NaturalReadAloud
CHECK_TIMEOUT_MS = 20_000  # a pause that no verdict ends (an utterance cut at the length limit) ends here


class SpokenReplies(QObject):
    speaking_changed = Signal(bool)
    first_sound = Signal()  # a reply's first sound is playing

    def __init__(
        self,
        engines: Engines,
        hands_free: HandsFree,
        status: StatusPresenter,
        settings: Callable[[], Settings],
        make: Callable[[], Output] | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._engines, self._hands_free, self._status, self._settings = engines, hands_free, status, settings
        self._make = make or self._voice_from_settings
        self.output: Output | None = None
        self._reading = False  # the streaming reply is being spoken as it comes
        self._said = ""  # the text of the reply being read
        self._after = ""  # words to say after a reply read whole (its sources)
        self.checking = False  # paused: speech began over Parley, whose is it?
        self._check_timer = QTimer(self, singleShot=True, interval=CHECK_TIMEOUT_MS)
        self._check_timer.timeout.connect(self.speak_on)

    @property
    def speaking(self) -> bool:
        return self.output is not None and self.output.speaking

    @property
    def said(self) -> str:
        """The reply being read aloud, as far as it was written."""
        return self._said

    @property
    def can_hold(self) -> bool:
        """The voice can fall silent keeping what it has left to say (the natural voice can)."""
        return isinstance(self.output, NaturalReadAloud)

    def ensure(self) -> Output:
        """The output, made (and connected to hands-free) on first need."""
        if self.output is None:
            self.output = output = self._make()
            output.speaking_changed.connect(self._speaking_changed)
            output.first_sound.connect(self.first_sound)
            if isinstance(output, NaturalReadAloud):
                output.failed.connect(self._status.notice)
                self._hands_free.set_echo_canceller(self._engines.echo_canceller())
            else:
                self._hands_free.set_echo_canceller(None)  # the system voice gives no reference
            self.hold_speakers()
        return self.output

    def settings_changed(self, old: Settings, new: Settings) -> None:
        if old.voice != new.voice and self.output is not None:
            self.output.close()
            self.output = None
        if new.read_replies_aloud:
            self.ensure()
        elif self.output is not None:
            self.output.stop()

    def stop(self) -> None:
        self._end_check()
        if self.output is not None:
            self.output.stop()

    def close(self) -> None:
        if self.output is not None:
            self.output.close()

    def silence(self) -> bool:
        """Stop speaking now, and end any check; True if it was speaking."""
        self._end_check()
        if not self.speaking:
            return False
        self.stop()
        return True

    def hold_for_check(self) -> None:
        """Fall silent at once, keeping what is left to say, until ``speak_on`` or ``silence``."""
        if isinstance(self.output, NaturalReadAloud):
            self.output.pause(True)
            self.checking = True
            self._check_timer.start()

    def speak_on(self) -> None:
        """Go on where it paused for a check (what began over it was not the user)."""
        if self.checking:
            self._end_check()
            if isinstance(self.output, NaturalReadAloud):
                self.output.pause(False)

    def _end_check(self) -> None:
        self.checking = False
        self._check_timer.stop()

    def hold_speakers(self, *_args: Any) -> None:
        """Keep the speakers open while hands-free listens with the echo canceller."""
        if isinstance(self.output, NaturalReadAloud):
            self.output.hold_device(self._hands_free.listening and self._hands_free.cancels_echo)

    # ------------------------------------------------------------------ following the reply

    def reply_started(self) -> None:
        self._after = ""
        self._reading = False
        self._said = ""
        self._end_check()
        if self._settings().read_replies_aloud:
            output = self.ensure()
            if output.streams and not output.problem:
                output.begin()
                self._reading = True

    def reply_progress(self, piece: str) -> None:
        if self._reading and self.output is not None:
            self._said += piece
            self.output.feed(piece)

    def add_to_reply(self, words: str) -> None:
        """Words said after the reply being read, as its end (the sources of an answer from the
        user's documents): fed to a streaming voice before the reply ends, kept for one that
        reads a reply whole."""
        if self._reading and self.output is not None:
            self._said += " " + words
            self.output.feed("\n\n" + words)
        else:
            self._after = words

    def reply_finished(self, _text: str, how: str) -> None:
        if self._reading and self.output is not None:
            if how == "cancelled":
                self.output.stop()
            else:
                self.output.end()
        self._reading = False

    def reply_done(self, text: str) -> None:
        """A reply that ended by itself: read it whole, if the voice does not stream."""
        if not self._settings().read_replies_aloud:
            return
        output = self.ensure()
        if output.problem:
            self._status.announce(f"Replies cannot be read aloud: {output.problem}")
        elif not output.streams:
            output.say(f"{text}\n\n{self._after}" if self._after else text)
        self._after = ""

    def say(self, text: str) -> bool:
        """Say ``text`` now, whatever the read-aloud setting (a timer that rings); False when no
        voice can speak here."""
        output = self.ensure()
        if output.problem:
            return False
        output.say(text)
        return True

    # ------------------------------------------------------------------ internals

    def _voice_from_settings(self) -> Output:
        """The voice the settings name; the system's voice when no natural voice can speak."""
        settings = self._settings()
        if settings.voice != "system":
            problem = self._engines.natural_voice_problem()
            if problem is None:
                voice, threads = settings.voice, settings.threads or None

                def make_speaker(
                    on_speaking: Callable[[bool], None],
                    on_error: Callable[[BaseException], None],
                    on_first_audio: Callable[[], None],
                ) -> Any:
                    return self._engines.speaker(
                        voice,
                        threads,
                        on_speaking,
                        on_error,
                        self._echo_reference,
                        on_first_audio,
                        on_underflow=self._speakers_ran_dry,
                    )

                return NaturalReadAloud(make_speaker, None, self)
            self._status.notice(f"{problem}; replies are read with the system's voice.")
        return ReadAloud(parent=self)

    def _echo_reference(self, block: Any, rate: int) -> None:
        """The player's thread: what the speakers play, for the microphone's echo canceller."""
        echo = self._hands_free.echo
        if echo is not None:
            echo.reference(block, rate)

    def _speakers_ran_dry(self) -> None:
        """The player's thread: the speakers played a gap the reference does not hold."""
        echo = self._hands_free.echo
        if echo is not None:
            echo.output_interrupted()

    def _speaking_changed(self, speaking: bool) -> None:
        """Without an echo canceller, hands-free ignores the microphone while Parley speaks."""
        self._hands_free.ignore(speaking and not self._hands_free.cancels_echo)
        emit(self.speaking_changed, speaking)
