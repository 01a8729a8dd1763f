"""Hands-free with a wake word: only what begins with the word is taken, and a conversation then
goes on without it.

1. Waiting: hands-free listens as always, but an utterance counts only when the wake word was
   heard in it (a model word: ``speech.hands_free`` gives the detector's best score in it; past
   the threshold the word was heard, past the floor below it the utterance counts when its
   transcript begins with the phrase too, and one under the floor is dropped before it is
   transcribed) or its transcript begins with it ("Parley").  The chat model is not woken for
   what is dropped: it reads the conversation ahead only once the word is heard (past the
   threshold).
2. Woken: the words after the word in the same breath are the question ("Hey Jarvis, what time
   is it?" is sent as "What time is it?"); the word alone gets the rising cue, and Parley
   listens: the next utterance needs no word.
3. A conversation: while a reply is written or read aloud, and for ``FOLLOW_UP_S`` after it,
   speech that begins needs no word (a follow-up, or talking over Parley); then Parley goes back
   to waiting, with the falling cue, the words in the status bar and an announcement for screen
   readers.

What counts is where an utterance began: one begun in the window is taken whole, even when it
ends after, and the window does not close while it is heard and transcribed (``hearing``).  A
word said while already listening is cut from the message too.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QTimer

from ...engine.errors import WakeWordError
from ...engine.wake.phrase import after_wake_phrase, phrase_end
from ...engine.wake.words import WakeWord, find_word
from ..ui.i18n import translate
from .parts import Parts

FOLLOW_UP_S = 8.0
"""After a reply ends (its last word read aloud, or written when nothing reads it), speech that
begins this soon needs no wake word.  Long enough to hear the answer and ask the next thing; short
enough that a conversation in the room afterwards is not taken."""

PARLEY = find_word("parley")


class Waking:
    def __init__(self, parts: Parts, cue: Callable[[str], None]) -> None:
        """``cue(kind)`` plays the short chime: "listening" (rising) or "waiting" (falling)."""
        self.settings = parts.settings
        self.status = parts.status
        self.replies = parts.replies
        self.voice = parts.voice
        self.hands_free = parts.hands_free
        self.bar = parts.window.input_bar
        self._cue = cue
        self._listening = False  # the window after a reply, or after the word said alone
        self._hearing = False  # an utterance begun in the window is being heard or transcribed
        self._timer = QTimer()
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._window_closed)
        # Its edges: hands-free's listening and the word heard; the reply and the voice ending
        parts.hands_free.listening_changed.connect(self._listening_changed)
        parts.hands_free.woke.connect(self._woke)
        parts.replies.finished.connect(lambda *_: self._reply_over())
        parts.voice.speaking_changed.connect(self._speaking_changed)

    @property
    def word(self) -> WakeWord | None:
        """The wake word in use (None: hands-free takes everything)."""
        try:
            return find_word(self.settings().wake_word) if self.settings().wake_word else None
        except WakeWordError:
            return None

    @property
    def awake(self) -> bool:
        """Speech beginning now needs no wake word."""
        return self.word is None or self._listening or self.replies.busy or self.voice.speaking

    def heard(self, woken: float | None) -> bool | None:
        """What the detector's best score in an utterance says: the word was heard (True), may
        have been (None: its transcript decides; also without a detector), or was not (False)."""
        word = self.word
        if woken is None or word is None or word.heard_in_transcript:
            return None
        threshold = self.settings().wake_threshold or word.threshold
        if woken > threshold:
            return True
        return None if word.floor and woken > min(word.floor, threshold) else False

    def needs_words(self, woken: float | None, began_awake: bool) -> bool:
        """Whether an utterance is worth transcribing: not one that began while waiting and in
        which the model word was not heard (``woken`` None: no detector; the transcript decides)."""
        return began_awake or self.heard(woken) is not False or self.word is None

    def hearing(self, hearing: bool) -> None:
        """An utterance begun while awake is being heard and transcribed (True), or its words have
        been dealt with (False): the window waits for it, and closes after it if its time is up."""
        self._hearing = hearing
        if not hearing and self._listening and not self._timer.isActive():
            self._window_closed()

    def by_name(self, woken: float | None, began_awake: bool) -> bool:
        """Whether an utterance may begin with "Parley" as its wake word: the word in use, or the
        model word's stand-in when its detector could not load (``woken`` None)."""
        word = self.word
        return word is not None and not began_awake and (word.heard_in_transcript or woken is None)

    def take(self, text: str, woken: float | None, began_awake: bool) -> str | None:
        """What of an utterance's ``text`` is sent: the question after the wake word; "" for the
        word alone (Parley then listens); None when it is not for Parley."""
        return self.took(self.rest(text, woken, began_awake), began_awake)

    def took(self, rest: str | None, began_awake: bool) -> str | None:
        """``rest`` of an utterance was found for Parley (None: nothing was): the word alone ("")
        begun while waiting makes Parley listen."""
        if rest == "" and not began_awake and self.word is not None:
            self._listen()
            self._cue("listening")
            self.status.say(translate("Waking", "Listening…"))
        return rest

    def rest(self, text: str, woken: float | None, began_awake: bool) -> str | None:
        """``take`` without its effects: what of ``text`` is for Parley (None: nothing)."""
        word = self.word
        if word is None:
            return text
        if began_awake:
            rest = after_wake_phrase(text, word if woken is not None else PARLEY)
            return text if rest is None else rest
        if woken is None and not word.heard_in_transcript:
            word = PARLEY  # the model could not load: the transcript has the word instead
        heard = self.heard(woken)
        if heard is False or (heard is None and not phrase_end(text, word)):
            return None  # not heard, or only nearly and the transcript does not begin with it
        return after_wake_phrase(text, word)

    # ------------------------------------------------------------------ the edges

    def _listening_changed(self, listening: bool) -> None:
        self._listening = self._hearing = False
        self._timer.stop()
        word = self.word
        self.bar.show_wake_word(word.phrase if word is not None else "")
        if listening and word is not None:
            self.status.say(self._waiting_words(word))

    def _woke(self) -> None:
        """The word was heard: the model reads the conversation while the question is said."""
        self.replies.prepare()

    def _speaking_changed(self, speaking: bool) -> None:
        if not speaking:
            self._reply_over()

    def _reply_over(self) -> None:
        if self.word is not None and self.hands_free.listening and not (self.replies.busy or self.voice.speaking):
            self._listen()

    def _listen(self) -> None:
        self._listening = True
        self.bar.show_wake_word("")
        self._timer.start(int(FOLLOW_UP_S * 1000))

    def _window_closed(self) -> None:
        word = self.word
        if self._hearing or self.replies.busy or self.voice.speaking or word is None or not self.hands_free.listening:
            return  # a question or its reply is under way: the end of either closes or opens it again
        self._listening = False
        self._cue("waiting")
        self.bar.show_wake_word(word.phrase)
        self.status.say(self._waiting_words(word))

    @staticmethod
    def _waiting_words(word: WakeWord) -> str:
        return translate("Waking", "Hands-free: say “{word}” to ask something.").format(word=word.phrase)
