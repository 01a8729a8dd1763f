"""The app's parts that the flows use: built once by the controller, handed to each flow, which
takes in its constructor the ones it uses."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ...config.settings import Settings
from ..conversations.book import ConversationBook
from ..conversations.dictation_log import DictationLog
from ..conversations.replies import ReplyFlow
from ..conversations.turn_timings import TurnClock
from ..desktop.typing.typist import Typist
from ..engine_slots import ChatSlot
from ..speech.hands_free import HandsFree
from ..speech.push_to_talk import PushToTalk
from ..speech.transcription import Transcription
from ..status import StatusPresenter
from ..ui.main_window import MainWindow
from ..ui.quick_ask import QuickAskWindow
from ..voice.spoken_replies import SpokenReplies


@dataclass(frozen=True)
class Parts:
    talk: PushToTalk  # takes from the microphone while a key is held
    hands_free: HandsFree  # the microphone kept open
    transcription: Transcription  # a take's words, on the speech thread
    replies: ReplyFlow  # sending and the reply, on the chat thread
    book: ConversationBook  # the conversations
    turns: TurnClock  # each turn's timings
    voice: SpokenReplies  # replies read aloud
    typist: Typist  # typing into other applications
    status: StatusPresenter  # the status bar and notices
    chat: ChatSlot  # whether there is a chat model, and why not
    window: MainWindow
    quick_ask: QuickAskWindow
    settings: Callable[[], Settings]  # the settings now
    dictations: DictationLog  # the dictation history
    clock: Callable[[], float]  # seconds, the turn clock's (tests turn their own)
