"""Replies: sending a message, streaming the answer, stopping, regenerating, continuing.

One reply is generated at a time, as a job of the chat worker.  ``ReplyFlow`` decides what
can be done now and runs the engine; the reply's life (its message, checkpoints, how it ended,
transcripts held meanwhile) is ``state``, a ``ReplyMachine`` (see ``reply_state``), which the
window follows through the signals the controller connects.  Nothing here touches a widget.

The reply's text reaches the UI thread paced: the first piece at once (the first words, the
time to the first token), then what came meanwhile at most every ``PACE_MS``, so that a fast
model wakes the UI thread about 25 times a second rather than once per token; on a machine
with no core to spare, each wake-up takes its time from the model's threads.

With tools (the tools part hands a ``TurnTools``), a new reply is a turn with tools
(``engine.tools.turn``): the words stream as before, each tool call is a step of the reply
(``stepped``), and a call that acts waits for the user's yes: its ``Question`` is asked in the
reply (its words are shown and read aloud like the reply's own, ``asked``) and answered on the
UI thread (a button, or a spoken yes or no, ``flows.asking_first``), while the chat thread waits.

In a conversation that answers from the user's documents (``documents``, the app's document
room), a request plainly for a tool ("set a timer") is a turn with tools as anywhere else; any
other message is answered from the documents without tools (their specs cost the first token
hundreds of prompt tokens, and the 0.5B answered worse beside them).  The chat thread first asks
the documents: the model reads the user's words with the passages found
(the conversation keeps the words alone), and the reply keeps the sources it names with its
figures (``sourced``); when nothing in the documents is near the question, the reply says so and
the model is not asked.

The chat session holds the conversation as the engine sees it.  After a reply that ended
normally it matches the open conversation (``synced``) and the next message only adds to it;
after anything else (a stop, an error, another conversation, another system prompt or model)
it is reset from the conversation's messages before the next reply.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Collection
from typing import Any, Protocol

from PySide6.QtCore import QObject, QTimer, Signal

from ...config.settings import Settings
from ..engine_notes import said
from ..engine_slots import ChatSlot
from ..signals import emit
from ..status import StatusPresenter
from ..tasks import Job
from .book import ConversationBook
from .conversation import Message
from .reply_state import PieceInbox, Reply, ReplyKind, ReplyMachine

log = logging.getLogger("parley.replies")
PACE_MS = 40  # the UI thread takes the reply's new text at most this often (after its first piece)


def stats_record(stats: Any, finish: str, model: Any) -> dict[str, Any]:
    """What is stored with a reply: the engine's figures, the finish reason and the model."""
    record: dict[str, Any] = {"finish": finish, "model": getattr(model, "name", None)}
    if stats is not None:
        record.update(
            prompt_tokens=stats.prompt_tokens,
            prompt_seconds=round(stats.prompt_seconds, 4),
            generated_tokens=stats.generated_tokens,
            generation_seconds=round(stats.generation_seconds, 4),
            gen_tps=round(stats.gen_tps, 2) if stats.generation_seconds > 0 else None,
        )
    return record


class TurnTools(Protocol):
    """The tools a reply may call (the tools part, ``app/tools``, gives them)."""

    def toolbox(self) -> Any | None:
        """The tools now (an ``engine.tools.tool.Toolbox``); None: answer without tools."""
        ...

    def allowed(self) -> Collection[str]:
        """The tools that act and that the user always allows."""
        ...


class Question:
    """A tool call that acts, waiting for the user's yes: asked on the chat thread (``wait``),
    answered on the UI thread (``answer``).  A stopped reply answers no."""

    def __init__(self, action: str, tool: str, source: str) -> None:
        self.action = action  # the call in a few words: "set a timer for 10 minutes"
        self.tool = tool
        self.source = source  # built-in, or the MCP server's name
        self.yes: bool | None = None
        self._answered = threading.Event()

    @property
    def text(self) -> str:
        return f"Shall I {self.action}?"

    def answer(self, yes: bool) -> None:
        if self.yes is None:
            self.yes = yes
        self._answered.set()

    def wait(self, cancel: Any) -> bool:
        """The user's answer (False once ``cancel`` is set); on the chat thread."""
        while not self._answered.wait(0.05):
            if cancel.cancelled:
                self.answer(False)
        return bool(self.yes)


class Grounded(Protocol):
    """A question with what the user's documents say (``documents.room``)."""

    found: bool  # False: nothing in the documents is near it; the reply says so without the model
    message: str  # the user's words with the passages, as the model reads them
    nothing_found: str  # the reply when not found

    def sources_of(self, reply: str) -> list[dict[str, str]]:
        """The sources ``reply`` names (each a path, title and place)."""
        ...

    def from_them(self, reply: str) -> bool:
        """Whether ``reply`` came from the documents (its words are theirs), or the model's own."""
        ...


class ReplyDocuments(Protocol):
    def grounder(self, conversation: int | None) -> Callable[[str], Grounded] | None:
        """What the chat thread calls with the user's words, for a reply in ``conversation``;
        None when it answers from the model alone."""
        ...


class _NothingFound:
    """The reply when the documents hold nothing near the question: said, not guessed."""

    stats = None
    finish = "eog"

    def __init__(self, text: str) -> None:
        self.text = text


class ReplyFlow(QObject):
    started = Signal()
    progress = Signal(str)  # each piece of reply text, as it is shown
    finished = Signal(str, str)  # the reply text, and how it ended: an engine finish reason
    # ("eog", "max_tokens", ...), "cancelled" or "error"
    answered = Signal(str)  # a reply that ended by itself in the open conversation
    asked = Signal(object)  # a Question: a tool call waits for the user's yes
    question_closed = Signal(object)  # that Question was answered (or the reply stopped)
    stepped = Signal(object, object)  # a tool step began or ended: the Reply and the step's record (a dict)
    # a reply from documents ended: the Reply and the sources it names (dicts; none when the
    # reply did not come from the documents)
    sourced = Signal(object, object)

    def __init__(
        self,
        chat: ChatSlot,
        book: ConversationBook,
        status: StatusPresenter,
        settings: Callable[[], Settings],
        parent: QObject | None = None,
        tools: TurnTools | None = None,
        documents: ReplyDocuments | None = None,
    ) -> None:
        super().__init__(parent)
        self.tools = tools
        self.documents = documents
        self._grounded: tuple[Reply, Grounded] | None = None  # the streaming reply's documents
        self.question: Question | None = None  # a tool call waiting for the user's yes
        self.chat = chat
        self.book = book
        self.status = status
        self.settings = settings
        self.state = ReplyMachine(parent=self)
        self.synced = False  # does the chat session hold exactly the open conversation?
        self._desyncs = 0  # desync() calls so far: a prepare that began before the last one is stale
        self._preparing: Job | None = None
        # The words of the message heard so far while the user speaks, and whether they are
        # whole (the user paused: the reply's start is read too); and those the session has read.
        self._heard: tuple[str, bool] = ("", False)
        self._heard_read: tuple[str, bool] = ("", False)
        self._job: Job | None = None
        self._taking_back: Message | None = None  # the user's message to take back once the reply stops
        self._inbox: tuple[Reply, PieceInbox] | None = None  # the streaming reply's text, paced
        self._pace = QTimer(self, singleShot=True, interval=PACE_MS)
        self._pace.timeout.connect(self._take)

    @property
    def busy(self) -> bool:
        """A reply is being generated (the Send button is a Stop button)."""
        return self.state.busy

    @property
    def text(self) -> str:
        """The reply streamed so far ("" when none is being generated)."""
        return self.state.reply.text if self.state.reply else ""

    @property
    def queued(self) -> list[str]:
        """Transcripts waiting for the reply being generated, oldest first."""
        return list(self.state.queued)

    def desync(self, *_args: object) -> None:
        """The chat session must be rebuilt from the conversation before the next reply."""
        self.synced = False
        self._desyncs += 1

    def reread(self, *_args: object) -> None:
        """Another conversation is shown, or another model or system prompt is used: the chat
        session is rebuilt and reads the open conversation ahead of the next message."""
        self.desync()
        self.prepare()

    def prepare(self, *_args: object) -> None:
        """Have the chat model read the open conversation (the system prompt and the turns so
        far) before the next message comes: when the model is ready, a conversation is opened,
        a reply was stopped, the user starts to speak.  The reply then reads little more than
        the message, and it is the same reply (``ChatSession.prefill``)."""
        if self._preparing is not None or self.busy or self.chat.model is None or self.chat.closing:
            return
        if self.synced and self._heard_read == self._heard:
            return
        chat, conversation = self.chat, self.book.current
        prompt = self.settings().system_prompt
        session, desyncs, heard, synced = chat.session, self._desyncs, self._heard, self.synced
        history = [(m.role, m.content) for m in conversation.messages]

        def read(job: Job) -> int:
            token = job.link(chat.cancel_token())
            if not synced:
                chat.reset_session(session, prompt, history)
            return int(session.prefill(cancel=token, message_start=heard[0], whole=heard[1]))

        def done(tokens: int) -> None:
            self._preparing = None
            if desyncs != self._desyncs:
                self.prepare()  # another conversation was opened meanwhile: read that one
            elif not self.busy:
                self.synced, self._heard_read = True, heard
                log.debug("the open conversation was read ahead of the next message (%d tokens)", tokens)
                if self._heard != heard:
                    self.prepare()  # more words were heard meanwhile

        def failed(exc: BaseException) -> None:
            self._preparing = None  # the next reply reads it all, and reports what fails then
            if not chat.is_cancel(exc):
                log.info("reading the conversation ahead failed: %s", exc)

        self._preparing = chat.submit(read, name="prepare", on_done=done, on_error=failed)

    def read_ahead(self, words: str, whole: bool = False) -> None:
        """The words of the user's next message heard so far (the live transcript of a take
        that will be sent): the model reads them too, while the user still speaks, so that
        after the release it reads little more than the last words.  "" when a take starts.
        ``whole``: the user paused, and these may be all their words: the model reads them and
        the start of its reply (``ChatSession.prefill``)."""
        self._heard = (words, whole)
        self.prepare()

    # ------------------------------------------------------------------ the user's actions

    def send(self, text: str) -> bool:
        """Post ``text`` as the user's message and start the reply; False if it cannot be sent now."""
        text = text.strip()
        if not text or self.chat.closing:
            return False
        if self.chat.model is None:
            self.status.say(self.chat.problem or "The chat model is still loading…")
            return False
        if self.busy:
            self.status.say("Wait for the reply to finish, or press Stop.")
            return False
        self.book.add_user_message(text)
        self._generate(ReplyKind.NEW, reset=not self.synced)
        return True

    def send_when_free(self, text: str) -> None:
        """Send ``text`` now, or after the reply that is streaming (a transcript)."""
        if not self.state.hold(text):
            self.send(text)

    def take_back(self, text: str) -> bool:
        """Take back the user's last message, ``text``, as if it had not been sent: a transcript
        still held for later is dropped; a message sent goes from the conversation (the window and
        the store) with what was written of the reply to it, which stops first (the message is
        taken back once it has).  False, and nothing done, when ``text`` is not the last thing the
        user sent.  A hands-free turn that ended in a pause, where the user went on: their words
        come back as the start of the next message (``flows.hands_free_turn``)."""
        text = text.strip()
        if self.state.queued:
            if self.state.queued[-1] != text:
                return False
            self.state.queued.pop()
            return True
        messages = self.book.current.messages
        users = [i for i, m in enumerate(messages) if m.role == "user"]
        if not users or messages[users[-1]].content != text or users[-1] < len(messages) - 2:
            return False  # another message came after it, or a reply and more
        message = messages[users[-1]]
        if self.state.reply is not None and self.state.reply.conversation is self.book.current:
            self._taking_back = message
            self.stop()
        else:
            self._take_back_now(message)
        return True

    def regenerate(self) -> None:
        """Answer the last user message again: replace the last reply, or reply to a message that
        has none (a failed reply, or one lost in a crash)."""
        messages = self.book.current.messages
        if self.busy or self.chat.model is None or not messages:
            return
        if messages[-1].role == "assistant":
            self._generate(ReplyKind.REGENERATE, reset=not self.synced)
        elif messages[-1].role == "user":
            self._generate(ReplyKind.NEW, reset=True)

    def continue_reply(self) -> None:
        """Carry on writing the last reply from where it ended (an interrupted one)."""
        messages = self.book.current.messages
        if self.busy or self.chat.model is None or not messages or messages[-1].role != "assistant":
            return
        self._generate(ReplyKind.CONTINUE, reset=True)

    def stop(self) -> None:
        """Stop the streaming reply; its text so far is kept, marked stopped."""
        if self.busy and self._job is not None:
            self._job.cancel()
            self._close_question(False)

    def answer(self, yes: bool) -> None:
        """The user's answer to the tool call waiting for it (a button, or a spoken yes or no)."""
        self._close_question(yes)

    def _close_question(self, yes: bool) -> None:
        question, self.question = self.question, None
        if question is not None:
            question.answer(yes)
            emit(self.question_closed, question)

    def abandon(self) -> None:
        """The engine did not stop in time while closing: keep what was shown, marked stopped."""
        self.state.close()

    # ------------------------------------------------------------------ generating

    def _generate(self, kind: ReplyKind, reset: bool) -> None:
        """Start a reply to the open conversation; ``reset`` rebuilds the chat session first."""
        chat, settings = self.chat, self.settings()
        session, conversation = chat.session, self.book.current
        messages = conversation.messages
        params = chat.sampling(settings)
        toolbox = self._toolbox() if kind is not ReplyKind.CONTINUE else None
        prompt = settings.system_prompt
        allowed = set(self.tools.allowed()) if self.tools is not None else set()
        new = kind is ReplyKind.NEW
        grounder = self.documents.grounder(conversation.id) if self.documents is not None else None
        if kind is ReplyKind.CONTINUE:
            grounder = None
        if (toolbox is not None or grounder is not None) and kind is ReplyKind.REGENERATE and len(messages) >= 2:
            # a turn with tools or documents is answered again from the user's message
            new, reset = True, True
            messages = messages[:-1]
        history = [(m.role, m.content) for m in (messages[:-1] if new else messages)]
        user_text = messages[-1].content if new else ""
        if grounder is not None and toolbox is not None:
            if toolbox.plainly_for(user_text):
                grounder = None  # a tool's request ("set a timer"): not a question for the documents
            else:
                toolbox = None  # a question for the documents: answered from the passages, no tools offered

        def generate(job: Job) -> Any:
            token = job.link(chat.cancel_token())
            on_text = PieceInbox(job.emit).put
            if reset:
                chat.reset_session(session, prompt, history)
            question = user_text
            if new and grounder is not None:
                grounded = grounder(user_text)
                job.emit(grounded)
                if not grounded.found:
                    on_text(grounded.nothing_found)
                    return _NothingFound(grounded.nothing_found)
                question = grounded.message
            if new and toolbox is not None:

                def ask(call: Any) -> bool:
                    question = Question(call.describe(), call.name, call.tool.spec.source)
                    job.emit(question)
                    return question.wait(token)

                return chat.run_turn(
                    session,
                    toolbox,
                    question,
                    params,
                    ask=ask,
                    on_text=on_text,
                    on_step=lambda step: job.emit(step.record()),
                    allowed=allowed,
                    cancel=token,
                )
            if kind is ReplyKind.REGENERATE:
                return session.regenerate(params, on_text=on_text, cancel=token)
            if kind is ReplyKind.CONTINUE:
                return session.continue_reply(params, on_text=on_text, cancel=token)
            return session.reply(question, params, on_text=on_text, cancel=token)

        self.synced = False  # until this reply ends normally
        self._heard = self._heard_read = ("", False)
        reply = self.state.start(conversation, kind)
        self._job = chat.submit(
            generate,
            name="reply",
            on_progress=lambda item: self._progress(reply, item),
            on_done=lambda result: self._done(reply, result),
            on_error=lambda exc: self._failed(reply, exc),
        )
        emit(self.started)

    def _toolbox(self) -> Any | None:
        return self.tools.toolbox() if self.tools is not None else None

    def _progress(self, reply: Reply, item: Any) -> None:
        """What the chat thread told: the reply's text, a tool step, or a question for the user."""
        if isinstance(item, PieceInbox):
            self._told(reply, item)
        elif isinstance(item, Question):
            self._ask(reply, item)
        elif isinstance(item, dict):
            self.state.step(reply, item)
            emit(self.stepped, reply, item)
        else:  # the question with what the documents say
            self._grounded = (reply, item)

    def _ask(self, reply: Reply, question: Question) -> None:
        """A tool call waits for the user's yes: its question joins the reply's words (shown,
        read aloud, told to a screen reader), and the flows take the answer."""
        if reply is not self.state.reply or reply.conversation is not self.book.current or self.chat.closing:
            question.answer(False)
            return
        self._close_question(False)  # never two at once
        self.question = question
        if self._inbox is not None and self._inbox[0] is reply:
            self._grow(reply, self._inbox[1].take_and_hold())
        self._grow(reply, ("\n\n" if self.state.reply and self.state.reply.text.strip() else "") + question.text)
        emit(self.asked, question)

    def _told(self, reply: Reply, inbox: PieceInbox) -> None:
        """The reply's inbox announced text (its first, or the first after a pause)."""
        self._inbox = (reply, inbox)
        self._take()

    def _take(self) -> None:
        """The text that came since the last look, if any; then look again in ``PACE_MS``."""
        if self._inbox is None:
            return
        reply, inbox = self._inbox
        text = inbox.take_and_hold()
        if text:
            self._grow(reply, text)
            self._pace.start()

    def _take_last(self, reply: Reply) -> None:
        """The reply ended: what is still in its inbox, now, and no more looking."""
        if self._inbox is not None and self._inbox[0] is reply:
            text = self._inbox[1].take()
            self._inbox = None
            self._pace.stop()
            if text:
                self._grow(reply, text)

    def _grow(self, reply: Reply, text: str) -> None:
        if self.state.add(reply, text):
            emit(self.progress, text)

    def _done(self, reply: Reply, result: Any) -> None:
        self._take_last(reply)
        self._close_question(False)
        if reply is not self.state.reply:
            return
        current = reply.conversation is self.book.current
        steps = [step.record() for step in getattr(result, "steps", ())]
        engine_reply = getattr(result, "reply", result)  # a turn with tools: its last reply
        record = stats_record(engine_reply.stats, engine_reply.finish, self.chat.model)
        if steps:
            record["steps"] = steps
        grounded, self._grounded = self._grounded, None
        from_documents = grounded is not None and grounded[0] is reply and grounded[1].found
        sources = grounded[1].sources_of(result.text) if grounded is not None and from_documents else []
        if sources:
            record["sources"] = sources
        elif from_documents and grounded is not None and not grounded[1].from_them(result.text):
            record["not_from_documents"] = True
        result = _Ended(result.text, engine_reply.finish)
        if result.finish == "cancelled":
            self.state.stop(reply, result.text, record)
        else:
            self.synced = current
            if record.get("gen_tps") is not None:
                self.status.show_reply_speed(record["gen_tps"])
            self.state.finish(reply, result.text, record)
            if current and result.finish == "context":
                self.status.notice(
                    "The conversation no longer fits in the model's context. "
                    "Start a new chat, or raise the context length in Settings."
                )
            if sources or record.get("not_from_documents"):
                emit(self.sourced, reply, sources)
            if current and not self.chat.closing:
                emit(self.answered, result.text)
        emit(self.finished, result.text, result.finish)
        self._send_queued()
        self.prepare()  # a stopped reply: the next one need not read the conversation again

    def _failed(self, reply: Reply, exc: BaseException) -> None:
        self._take_last(reply)
        self._close_question(False)
        self._grounded = None
        if reply is not self.state.reply:
            return
        if self.chat.is_cancel(exc):
            self.state.stop(reply, reply.text, stats_record(None, "cancelled", self.chat.model))
            emit(self.finished, reply.text, "cancelled")
        else:
            log.warning("reply failed: %s", exc)
            self.state.fail(reply, said(exc))
            if reply.conversation is self.book.current:
                self.status.notice(self.tr("The reply failed: {problem}").format(problem=said(exc)))
            self.chat.device_lost(exc)  # if its device is gone, the next reply runs on this machine
            emit(self.finished, reply.text, "error")
        self._send_queued()
        self.prepare()

    def _take_back_now(self, message: Message) -> None:
        if message in self.book.current.messages:
            self.book.take_back(message)
            self.desync()  # the chat session read the message, and maybe the reply

    def _send_queued(self) -> None:
        message, self._taking_back = self._taking_back, None
        if message is not None:
            self._take_back_now(message)
        if not self.chat.closing:
            text = self.state.next_queued()
            if text is not None:
                self.send(text)


class _Ended:
    """A reply's end as ``_done`` reads it: the text shown and how the engine ended it."""

    def __init__(self, text: str, finish: str) -> None:
        self.text, self.finish = text, finish
