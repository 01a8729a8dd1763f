"""A quick question: hold the Ask Parley shortcut (default Ctrl+Alt+Return) in any application,
ask, let go; the answer streams into the quick-ask window above the other windows.

The window shows that Parley listens and what it hears so far, then the question and the answer
as it streams; its buttons copy the answer, type it into the application that had the focus, or
open the conversation in Parley's window.  A question asked while the window still shows the
last answer follows up in the same conversation; any other starts a new one.
"""

from __future__ import annotations

from typing import Any

from ..desktop.typing.modes import mode_name, typing_mode
from ..desktop.typing.typist import focused_application
from ..take_purpose import TakePurpose
from ..ui.i18n import translate
from .barge_in import BargeIn
from .dictation import HANDS_FREE_OFF
from .hands_free_turn import HandsFreeTurn
from .parts import Parts


class QuickQuestion:
    def __init__(self, parts: Parts, barge_in: BargeIn, hands_free: HandsFreeTurn) -> None:
        self.quick_ask = parts.quick_ask
        self.main_window = parts.window
        self.bar = parts.window.input_bar
        self.talk = parts.talk
        self.transcription = parts.transcription
        self.replies = parts.replies
        self.book = parts.book
        self.turns = parts.turns
        self.typist = parts.typist
        self.status = parts.status
        self.chat = parts.chat
        self.settings = parts.settings
        self.barge_in = barge_in
        self.hands_free = hands_free
        self.conversation: int | None = None  # the conversation of the questions asked from anywhere
        self.focus = 0  # the X window an answer is typed into (0: unknown)
        self._take_focus = 0  # the X window that had the focus when this question's take started
        self._follows_up = False  # the window still showed the last answer when this question began
        self._waiting = False  # asked; the reply that answers it has not started yet
        self._answering = False  # the reply streaming now is the answer

    def start(self, focus: int = 0) -> bool:
        """1. The shortcut goes down in any application (``focus``: the X window that has the
        focus, 0 when unknown): as for a dictation, Parley stops speaking, hands-free is turned
        off and a take starts; the quick-ask window shows that Parley listens, and the model
        reads the conversation meanwhile.  False when no take started."""
        self.barge_in.key_pressed()
        if self.hands_free.turn_off():
            self.status.say(translate("Dictation", str(HANDS_FREE_OFF)))
        if not self.talk.press(TakePurpose.ASK, self.recorded):
            return False
        self.replies.stop()
        self._take_focus = focus
        self._follows_up = self.quick_ask.isVisible()
        self.quick_ask.listening()
        self.replies.prepare()
        return True

    def heard_so_far(self, text: str) -> None:
        """2. While the question is spoken: the words heard so far (the live transcript)."""
        if self.talk.recording and self.talk.purpose is TakePurpose.ASK:
            self.quick_ask.heard_so_far(text)

    # 3. The shortcut comes up (or, after a tap, is pressed again): ``FromAnywhere`` ends the take.

    def recorded(self, audio: Any, ended_at: float) -> None:
        """4. The take's audio: transcribed on the speech thread."""
        self.turns.ended(TakePurpose.ASK, ended_at)
        self.transcription.transcribe(audio, TakePurpose.ASK, then=self.heard)

    def heard(self, text: str) -> None:
        """5. The question's words: asked in the conversation of the quick-ask window, or, with no
        chat model to answer, kept in Parley's text box."""
        if not text:
            self.turns.forget()
            return
        if self.chat.model is None:
            self.turns.forget()
            self.quick_ask.problem(self.chat.problem or "The chat model is still loading…")
            self.bar.insert_text(text)
            return
        self.turns.transcribed()
        follow_up = self._follows_up and self.conversation == self.book.current.id
        if not follow_up or self.book.current.id is None:
            self.book.new()
            self.conversation = self.book.current.id
        self.focus = self._take_focus or self.focus
        self._waiting = True
        self.quick_ask.asked(text)
        self.replies.send_when_free(text)  # after the reply that is streaming, if one is

    # ------------------------------------------------------------------ 6. the answer, as it streams

    def reply_started(self) -> None:
        self._answering, self._waiting = self._waiting, False

    def reply_grew(self, piece: str) -> None:
        if self._answering:
            self.quick_ask.grew(piece)

    def reply_finished(self, text: str, how: str) -> None:
        if self._answering:
            self._answering = False
            self.quick_ask.answered(text, how)

    # ------------------------------------------------------------------ 7. the window's buttons

    def insert(self, answer: str) -> None:
        """Type the answer into the application that had the focus, in its mode (a terminal:
        pasted with Ctrl+Shift+V, or its line breaks typed as spaces)."""
        self.quick_ask.hide()
        s = self.settings()
        mode = typing_mode(mode_name(focused_application(self.focus) if self.focus else None, s.dictation_app_modes))
        self.typist.type(
            mode.text(answer, space_after=False),
            method=mode.method or s.dictation_method,
            chars_per_s=s.typing_rate,
            window=self.focus,
            paste_keys=mode.paste_keys,
        )

    def open_in_parley(self) -> None:
        """Show the conversation in Parley's window."""
        self.quick_ask.hide()
        if self.conversation is not None:
            self.book.open(self.conversation)
        self.main_window.bring_forward()
