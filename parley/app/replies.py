"""Replies: sending a message, streaming the answer, stopping, regenerating, continuing.

One reply is generated at a time, as a job of the chat worker.  Its text streams into the
window piece by piece and into its ``Message``; the message is checkpointed to the store at
most once per ``CHECKPOINT_S`` while it streams (state ``streaming``), so a crash loses at most
about a second of it and the next start shows it as interrupted, with Continue and Retry.

The chat session holds the conversation as the engine sees it.  After a reply that ended
normally it matches the open conversation (``synced``) and the next message only adds to it;
after anything else (a stop, an error, another conversation, another system prompt or model)
it is reset from the conversation's messages before the next reply.

Transcripts that arrive while a reply streams wait in ``queued`` and are sent in order after it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from .book import ConversationBook
from .conversation import Conversation, Message
from .engine_host import EngineHost
from .settings import Settings
from .signals import emit
from .status import StatusPresenter
from .tasks import Job
from .ui.conversation_view import reply_footer
from .ui.main_window import MainWindow

log = logging.getLogger("parley.replies")

CHECKPOINT_S = 1.0


@dataclass(eq=False)
class _Generation:
    """A reply being generated: where its text goes, and the text so far."""
    conversation: Conversation
    kind: str                        # "new" | "regenerate" | "continue"
    message: Message | None          # the assistant message written into (a new reply: from its first text)
    before: tuple[str, str, Any]     # the message's content, state and stats before, restored if nothing came
    text: str = ""                   # the whole reply so far (a continued reply: with what it continues)
    job: Job | None = None


def stats_record(stats: Any, finish: str, model: Any) -> dict[str, Any]:
    """What is stored with a reply: the engine's figures, the finish reason and the model."""
    record: dict[str, Any] = {"finish": finish, "model": getattr(model, "name", None)}
    if stats is not None:
        record.update(prompt_tokens=stats.prompt_tokens, prompt_seconds=round(stats.prompt_seconds, 4),
                      generated_tokens=stats.generated_tokens,
                      generation_seconds=round(stats.generation_seconds, 4),
                      gen_tps=round(stats.gen_tps, 2) if stats.generation_seconds > 0 else None)
    return record


class ReplyFlow(QObject):
    started = Signal()
    progress = Signal(str)                # each piece of reply text, as it is shown
    finished = Signal(str, str)           # the reply text, and how it ended: an engine finish reason
                                          # ("eog", "max_tokens", ...), "cancelled" or "error"

    def __init__(self, host: EngineHost, book: ConversationBook, status: StatusPresenter, window: MainWindow,
                 settings: Callable[[], Settings], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.host = host
        self.book = book
        self.status = status
        self.window = window
        self.settings = settings
        self.queued: list[str] = []
        self.synced = False               # does the chat session hold exactly the open conversation?
        self.on_reply_done: Callable[[str], None] | None = None   # e.g. read the reply aloud
        self._generation: _Generation | None = None
        self._checkpoint_timer = QTimer(self, singleShot=True, interval=int(CHECKPOINT_S * 1000))
        self._checkpoint_timer.timeout.connect(self._checkpoint)
        self._checkpointed_at = 0.0
        host.chat_ready.connect(self.desync)
        book.shown.connect(self.desync)
        view = window.conversation_view
        view.regenerate_requested.connect(self.regenerate)
        view.continue_requested.connect(self.continue_reply)
        view.reply_requested.connect(self.regenerate)

    @property
    def busy(self) -> bool:
        """A reply is being generated (the Send button is a Stop button)."""
        return self._generation is not None

    @property
    def text(self) -> str:
        """The reply streamed so far ("" when none is being generated)."""
        return self._generation.text if self._generation else ""

    def desync(self, *_args: object) -> None:
        """The chat session must be rebuilt from the conversation before the next reply."""
        self.synced = False

    # ------------------------------------------------------------------ the user's actions

    def send(self, text: str) -> bool:
        """Post ``text`` as the user's message and start the reply; False if it cannot be sent now."""
        text = text.strip()
        if not text or self.host.closing:
            return False
        if self.host.chat_model is None:
            self.status.say(self.host.chat_problem or "The chat model is still loading…")
            return False
        if self._generation is not None:
            self.status.say("Wait for the reply to finish, or press Stop.")
            return False
        self.book.add_user_message(text)
        self._generate("new", reset=not self.synced)
        return True

    def send_when_free(self, text: str) -> None:
        """Send ``text`` now, or after the reply that is streaming (a transcript)."""
        if self._generation is not None:
            self.queued.append(text)
        else:
            self.send(text)

    def regenerate(self) -> None:
        """Answer the last user message again: replace the last reply, or reply to a message that
        has none (a failed reply, or one lost in a crash)."""
        messages = self.book.current.messages
        if self._generation is not None or self.host.chat_model is None or not messages:
            return
        if messages[-1].role == "assistant":
            self._generate("regenerate", reset=not self.synced)
        elif messages[-1].role == "user":
            self._generate("new", reset=True, retry=True)

    def continue_reply(self) -> None:
        """Carry on writing the last reply from where it ended (an interrupted one)."""
        messages = self.book.current.messages
        if self._generation is not None or self.host.chat_model is None or not messages \
                or messages[-1].role != "assistant":
            return
        self._generate("continue", reset=True)

    def stop(self) -> None:
        """Stop the streaming reply; its text so far is kept, marked stopped."""
        if self._generation is not None and self._generation.job is not None:
            self._generation.job.cancel()

    def abandon(self) -> None:
        """The engine did not stop in time while closing: keep what was shown, marked stopped."""
        generation, self._generation = self._generation, None
        if generation is not None and generation.text:
            self._keep(generation, generation.text, "stopped", None)

    # ------------------------------------------------------------------ generating

    def _generate(self, kind: str, reset: bool, retry: bool = False) -> None:
        """Start a reply: ``new`` to the last (user) message, ``regenerate`` the last reply, or
        ``continue`` it.  ``reset`` rebuilds the chat session first; ``retry`` replaces the
        "No reply" message a failed reply left in the window."""
        host, engines, settings = self.host, self.host.engines, self.settings()
        session, conversation = host.session, self.book.current
        messages = conversation.messages
        params = engines.sampling(settings)
        prompt = settings.system_prompt
        history = [(m.role, m.content) for m in (messages[:-1] if kind == "new" else messages)]
        user_text = messages[-1].content if kind == "new" else ""
        target = None if kind == "new" else messages[-1]

        def generate(job: Job) -> Any:
            token = job.link(engines.cancel_token())
            if reset:
                engines.reset_session(session, prompt, history)
            if kind == "regenerate":
                return session.regenerate(params, on_text=job.emit, cancel=token)
            if kind == "continue":
                return session.continue_reply(params, on_text=job.emit, cancel=token)
            return session.reply(user_text, params, on_text=job.emit, cancel=token)

        view = self.window.conversation_view
        if kind == "continue":
            view.continue_last_reply()
        elif kind == "regenerate" or retry:
            view.restart_last_reply()
        else:
            view.begin_reply()
        view.set_needs_reply(False)
        self.synced = False               # until this reply ends normally
        before = (target.content, target.state, target.stats) if target is not None else ("", "", None)
        generation = self._generation = _Generation(conversation, kind, target, before,
                                                    text=target.content if kind == "continue" else "")
        generation.job = host.chat_worker.submit(
            generate, name="reply", on_progress=lambda piece: self._piece(generation, piece),
            on_done=lambda result: self._done(generation, result.text, result.finish, result.stats),
            on_error=lambda exc: self._failed(generation, exc))
        self.window.input_bar.set_busy(True)
        emit(self.started)

    def _piece(self, generation: _Generation, piece: str) -> None:
        generation.text += piece
        if generation.message is None:            # a new reply: it exists from its first text on
            generation.message = Message("assistant", generation.text, state="streaming")
            generation.conversation.messages.append(generation.message)
            self._checkpoint()
        if generation.conversation is self.book.current:
            self.window.conversation_view.append_reply(piece)
        # By the clock as pieces arrive (a flood of queued pieces can hold off Qt's timers for
        # seconds on a loaded machine), and by the timer when pieces stop coming.
        if time.monotonic() - self._checkpointed_at >= CHECKPOINT_S:
            self._checkpoint()
        elif not self._checkpoint_timer.isActive():
            self._checkpoint_timer.start()
        emit(self.progress, piece)

    def _checkpoint(self) -> None:
        generation = self._generation
        if generation is None or generation.message is None:
            return
        message = generation.message
        self._checkpointed_at = time.monotonic()
        self._checkpoint_timer.stop()
        message.content, message.state, message.dirty = generation.text, "streaming", True
        self.book.save(generation.conversation, checkpoint=True)

    def _failed(self, generation: _Generation, exc: BaseException) -> None:
        if self.host.is_cancel(exc):
            self._done(generation, generation.text, "cancelled", None)
            return
        log.warning("reply failed: %s", exc)
        self._end(generation)
        current = generation.conversation is self.book.current
        kept = bool(generation.text) and generation.text != generation.before[0]
        if kept:
            self._keep(generation, generation.text, "stopped", None)
        else:
            self._restore(generation)
        if current:
            shown = generation.text or generation.before[0]
            state = generation.message.state if generation.message is not None else "complete"
            what = "Cut short" if kept else "No reply"
            self.window.conversation_view.end_reply(shown, f"⚠ {what}: {exc}", state)
            self.status.notice(f"The reply failed: {exc}")
        if self.host.engines.is_device_lost(exc):
            self.host.device_lost("chat", str(exc))      # the next reply runs on this machine
        if current:
            self.window.conversation_view.set_needs_reply(generation.conversation.needs_reply)
        emit(self.finished, generation.text, "error")
        self._send_queued()

    def _done(self, generation: _Generation, text: str, finish: str, stats: Any) -> None:
        self._end(generation)
        cancelled = finish == "cancelled"
        current = generation.conversation is self.book.current
        if not cancelled:
            self.synced = current
        record = stats_record(stats, finish, self.host.chat_model)
        if record.get("gen_tps") is not None and not cancelled:
            self.status.show_reply_speed(record["gen_tps"])
        view = self.window.conversation_view
        new_text = text if generation.kind != "continue" else text[len(generation.before[0]):]
        if cancelled and not new_text:
            self._restore(generation)
            if current:
                if generation.message is not None:
                    message = generation.message
                    view.end_reply(message.content, reply_footer(message.stats, message.state), message.state)
                else:
                    view.end_reply("", "Stopped before the reply began")
        else:
            state = "stopped" if cancelled else "complete"
            self._keep(generation, text, state, record)
            if current:
                view.end_reply(text, reply_footer(record, state), state)
            if finish == "context" and current:
                self.status.notice("The conversation no longer fits in the model's context. "
                                   "Start a new chat, or raise the context length in Settings.")
            if not cancelled and current and self.on_reply_done is not None and not self.host.closing:
                self.on_reply_done(text)
        if current:
            view.set_needs_reply(generation.conversation.needs_reply)
        emit(self.finished, text, finish)
        self._send_queued()

    def _send_queued(self) -> None:
        if self.queued and not self.host.closing and self._generation is None:
            self.send(self.queued.pop(0))

    def _end(self, generation: _Generation) -> None:
        self._checkpoint_timer.stop()
        if self._generation is generation:
            self._generation = None
            self.window.input_bar.set_busy(False)

    def _keep(self, generation: _Generation, text: str, state: str, stats: dict[str, Any] | None) -> None:
        message = generation.message
        if message is None:
            message = generation.message = Message("assistant", text)
            generation.conversation.messages.append(message)
        message.content, message.state, message.stats, message.dirty = text, state, stats, True
        self.book.save(generation.conversation)

    def _restore(self, generation: _Generation) -> None:
        """Nothing new was written: a regenerated or continued reply goes back to what it was; a
        continued one is then marked stopped (the user stopped it)."""
        message = generation.message
        if message is None:               # a new reply that wrote nothing: there is no message
            return
        content, state, stats = generation.before
        stopped_now = generation.kind == "continue"
        message.content, message.stats = content, stats
        message.state = "stopped" if stopped_now else state
        message.dirty = True
        self.book.save(generation.conversation)
