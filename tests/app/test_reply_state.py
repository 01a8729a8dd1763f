"""The reply state machine without a window: how a reply starts, grows, is checkpointed and ends.

A real ``Store`` on a file in the test's folder takes what the machine asks to save (as the
book does in the app), so each test reads what a crash at that moment would leave.  The clock
of the checkpoints is a ``FakeClock`` the test moves by hand.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from parley.app.conversations.conversation import Conversation, Message
from parley.app.conversations.reply_state import CHECKPOINT_S, Ending, Phase, PieceInbox, Reply, ReplyKind, ReplyMachine
from parley.app.conversations.store import Store
from parley.app.tasks import EngineWorker


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Harness:
    """A machine, the store its saves go to, and what it said."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.clock = FakeClock()
        self.store = Store(path)
        self.machine = ReplyMachine(self.clock)
        self.saves: list[bool] = []  # checkpoint or not, in order
        self.events: list[tuple] = []
        m = self.machine
        m.saving.connect(self._save)
        m.started.connect(lambda reply: self.events.append(("started", reply.kind)))
        m.grew.connect(lambda _reply, piece: self.events.append(("grew", piece)))
        m.ended.connect(lambda reply: self.events.append(("ended", reply.ending)))
        m.busy_changed.connect(lambda busy: self.events.append(("busy", busy)))

    def _save(self, conversation: Conversation, checkpoint: bool) -> None:
        self.store.write(conversation)
        self.saves.append(checkpoint)

    def conversation(self, *replies: Message) -> Conversation:
        """A stored conversation: a question, and ``replies`` after it."""
        conversation = Conversation(None, "Test", [Message("user", "Tell me a story"), *replies])
        self.store.write(conversation)
        return conversation

    def stored(self, conversation: Conversation) -> list[tuple[str, str, str]]:
        """(role, content, state) of each message, as a process started now would read them."""
        return [(m.role, m.content, m.state) for m in self.store.load_conversation(conversation.id).messages]


@pytest.fixture
def h(qapp, tmp_path) -> Harness:  # noqa: ANN001 - pytest-qt's QApplication, for the machine's timer
    harness = Harness(tmp_path / "conversations.sqlite3")
    yield harness
    harness.machine.close()  # a reply left streaming: its checkpoint timer stops
    harness.store.close()


def _stream(h: Harness, reply: Reply, *pieces: str, step: float = 0.0) -> None:
    for piece in pieces:
        assert h.machine.add(reply, piece)
        h.clock.now += step


# ---------------------------------------------------------------- starting


def test_a_new_reply_exists_from_its_first_text_and_that_text_is_saved_at_once(h):
    conversation = h.conversation()
    reply = h.machine.start(conversation, ReplyKind.NEW)
    assert h.machine.busy and h.machine.phase is Phase.WAITING
    assert reply.message is None and len(conversation.messages) == 1  # "Thinking…": no message yet
    assert h.events == [("busy", True), ("started", ReplyKind.NEW)]

    _stream(h, reply, "Once")
    assert h.machine.phase is Phase.STREAMING and conversation.messages[-1] is reply.message
    assert h.stored(conversation)[-1] == ("assistant", "Once", "streaming") and h.saves == [True]
    assert h.events[-1] == ("grew", "Once")


def test_regenerate_rewrites_the_last_reply_in_place(h):
    conversation = h.conversation()
    first = h.machine.start(conversation, ReplyKind.NEW)
    _stream(h, first, "An old reply")
    h.machine.finish(first, "An old reply", {"finish": "eog"})
    old = conversation.messages[-1]
    reply = h.machine.start(conversation, ReplyKind.REGENERATE)  # at once: the clock has not moved
    assert reply.message is old and reply.text == "" and reply.before.content == "An old reply"
    _stream(h, reply, "A new")  # its first text is saved at once too
    assert h.stored(conversation)[-1] == ("assistant", "A new", "streaming")
    h.machine.finish(reply, "A new reply", {"finish": "eog"})
    assert h.stored(conversation) == [("user", "Tell me a story", "complete"), ("assistant", "A new reply", "complete")]
    assert old.id == conversation.messages[-1].id and len(conversation.messages) == 2


def test_continue_carries_the_last_reply_on_from_where_it_ended(h):
    conversation = h.conversation(Message("assistant", "Once upon", state="interrupted"))
    reply = h.machine.start(conversation, ReplyKind.CONTINUE)
    assert reply.text == "Once upon" and h.machine.phase is Phase.WAITING  # nothing new yet
    _stream(h, reply, " a time")
    assert reply.new_text == " a time" and h.stored(conversation)[-1] == ("assistant", "Once upon a time", "streaming")
    h.machine.finish(reply, "Once upon a time there was", None)
    assert h.stored(conversation)[-1] == ("assistant", "Once upon a time there was", "complete")


def test_one_reply_at_a_time_and_regenerate_needs_a_reply(h):
    conversation = h.conversation()
    with pytest.raises(ValueError):
        h.machine.start(conversation, ReplyKind.REGENERATE)  # the last message is the user's
    assert not h.machine.busy
    h.machine.start(conversation, ReplyKind.NEW)
    with pytest.raises(RuntimeError):
        h.machine.start(conversation, ReplyKind.NEW)


# ---------------------------------------------------------------- checkpoints


def test_checkpoints_follow_the_clock_on_the_path_of_every_piece(h):
    conversation = h.conversation()
    reply = h.machine.start(conversation, ReplyKind.NEW)
    _stream(h, reply, "a", "b", "c", step=CHECKPOINT_S / 3)  # saved at once, then due after CHECKPOINT_S
    assert h.stored(conversation)[-1][1] == "a" and h.saves == [True]
    _stream(h, reply, "d")  # CHECKPOINT_S after the first: saved
    assert h.stored(conversation)[-1][1] == "abcd" and h.saves == [True, True]
    _stream(h, reply, "e")
    assert h.stored(conversation)[-1][1] == "abcd"  # at risk: less than CHECKPOINT_S of text


def test_a_pause_in_the_stream_is_checkpointed_by_the_timer(h, qtbot):
    conversation = h.conversation()
    reply = h.machine.start(conversation, ReplyKind.NEW)
    _stream(h, reply, "Once", step=CHECKPOINT_S / 2)
    with qtbot.waitSignal(h.machine.saving, timeout=10_000) as saved:
        _stream(h, reply, " upon")  # and then nothing comes
        assert h.stored(conversation)[-1][1] == "Once"
    assert saved.args == [conversation, True]
    assert h.stored(conversation)[-1] == ("assistant", "Once upon", "streaming")


def test_a_reply_killed_mid_stream_is_interrupted_at_the_next_start(h):
    conversation = h.conversation()
    reply = h.machine.start(conversation, ReplyKind.NEW)
    _stream(h, reply, "Once", " upon", " a time", step=CHECKPOINT_S)
    # Killed here, the reply never ended; the system drops a dead process's store lock.
    h.store.close()
    h.store = Store(h.path)  # the next start
    assert h.stored(conversation) == [
        ("user", "Tell me a story", "complete"),
        ("assistant", "Once upon a time", "interrupted"),
    ]


def test_a_backlog_of_pieces_arrives_as_one_batch_and_is_saved_with_it(h, qtbot):
    """Sent one event each, pieces queued up while the UI thread was held up and were then drained
    faster than the clock moved, unsaved (a 1.5 s stall: 3168 characters shown and not saved).
    Through the inbox, a UI thread held up while the engine writes takes the backlog in one step."""
    conversation = h.conversation()
    reply = h.machine.start(conversation, ReplyKind.NEW)
    worker = EngineWorker("reply-test")
    written = threading.Event()

    def engine(job):  # noqa: ANN001, ANN202 - a tasks.Job
        put = PieceInbox(job.emit).put
        for _ in range(2000):
            put("x")
        written.set()

    batches: list[str] = []

    def grow(inbox: PieceInbox) -> None:
        batches.append(inbox.take())
        h.machine.add(reply, batches[-1])

    try:
        worker.submit(engine, on_progress=grow)
        assert written.wait(60)  # the UI thread is held up meanwhile
        qtbot.waitUntil(lambda: not worker.busy, timeout=60_000)
    finally:
        worker.shutdown()
    assert batches == ["x" * 2000]
    assert h.stored(conversation)[-1] == ("assistant", "x" * 2000, "streaming")


def test_the_inbox_announces_a_batch_once_until_it_is_taken():
    told = []
    inbox = PieceInbox(told.append)
    inbox.put("a")
    inbox.put("b")
    assert told == [inbox] and inbox.take() == "ab"
    inbox.put("c")
    assert told == [inbox, inbox] and inbox.take() == "c" and inbox.take() == ""


# ---------------------------------------------------------------- ending


def test_a_finished_reply_is_complete_with_its_figures(h):
    conversation = h.conversation()
    reply = h.machine.start(conversation, ReplyKind.NEW)
    _stream(h, reply, "The end")
    assert h.machine.finish(reply, "The end.", {"finish": "eog", "gen_tps": 12.5})
    assert reply.ending is Ending.FINISHED and reply.kept and h.machine.phase is Phase.IDLE
    assert h.stored(conversation)[-1] == ("assistant", "The end.", "complete") and h.saves[-1] is False
    assert h.store.load_conversation(conversation.id).messages[-1].stats == {"finish": "eog", "gen_tps": 12.5}
    assert h.events[-2:] == [("busy", False), ("ended", Ending.FINISHED)]
    assert not conversation.needs_reply


def test_a_stopped_reply_keeps_its_text_marked_stopped(h):
    conversation = h.conversation()
    reply = h.machine.start(conversation, ReplyKind.NEW)
    _stream(h, reply, "Half a")
    h.machine.stop(reply, "Half a", {"finish": "cancelled"})
    assert reply.ending is Ending.STOPPED and h.stored(conversation)[-1] == ("assistant", "Half a", "stopped")


def test_a_new_reply_stopped_before_its_first_text_leaves_the_message_unanswered(h):
    conversation = h.conversation()
    reply = h.machine.start(conversation, ReplyKind.NEW)
    h.machine.stop(reply, "", {"finish": "cancelled"})
    assert reply.message is None and not reply.kept and conversation.needs_reply
    assert h.stored(conversation) == [("user", "Tell me a story", "complete")] and h.saves == []


def test_a_regenerated_reply_that_wrote_nothing_is_put_back_as_it_was(h):
    conversation = h.conversation(Message("assistant", "The first reply", stats={"finish": "eog"}))
    reply = h.machine.start(conversation, ReplyKind.REGENERATE)
    h.machine.stop(reply, "", {"finish": "cancelled"})
    assert not reply.kept and reply.message.stats == {"finish": "eog"}
    assert h.stored(conversation)[-1] == ("assistant", "The first reply", "complete")


def test_a_continued_reply_that_wrote_nothing_is_as_it_was_marked_stopped(h):
    conversation = h.conversation(Message("assistant", "Once upon", state="interrupted"))
    reply = h.machine.start(conversation, ReplyKind.CONTINUE)
    h.machine.stop(reply, "Once upon", {"finish": "cancelled"})
    assert not reply.kept and h.stored(conversation)[-1] == ("assistant", "Once upon", "stopped")


def test_a_failed_reply_keeps_what_it_wrote_and_says_why(h):
    conversation = h.conversation()
    reply = h.machine.start(conversation, ReplyKind.NEW)
    _stream(h, reply, "Cut")
    h.machine.fail(reply, "the device was lost")
    assert reply.ending is Ending.FAILED and reply.kept and reply.error == "the device was lost"
    assert h.stored(conversation)[-1] == ("assistant", "Cut", "stopped")


def test_a_reply_that_failed_before_its_first_text_leaves_the_message_unanswered(h):
    conversation = h.conversation()
    reply = h.machine.start(conversation, ReplyKind.NEW)
    h.machine.fail(reply, "too many tokens for the context")
    assert not reply.kept and conversation.needs_reply and h.events[-1] == ("ended", Ending.FAILED)
    regenerate = h.conversation(Message("assistant", "Kept", stats={"finish": "eog"}))
    reply = h.machine.start(regenerate, ReplyKind.REGENERATE)
    h.machine.fail(reply, "the device was lost")
    assert h.stored(regenerate)[-1] == ("assistant", "Kept", "complete")


def test_closing_the_window_keeps_what_was_shown_marked_stopped(h):
    assert not h.machine.close()  # no reply: nothing to do
    conversation = h.conversation()
    reply = h.machine.start(conversation, ReplyKind.NEW)
    _stream(h, reply, "Up to", " here", step=CHECKPOINT_S / 4)
    assert h.machine.close()
    assert reply.ending is Ending.CLOSED and h.stored(conversation)[-1] == ("assistant", "Up to here", "stopped")


def test_an_ended_reply_takes_no_more_text_and_ends_once(h):
    conversation = h.conversation()
    reply = h.machine.start(conversation, ReplyKind.NEW)
    _stream(h, reply, "Done")
    h.machine.finish(reply, "Done", None)
    events = list(h.events)
    assert not h.machine.add(reply, " and more") and not h.machine.stop(reply, "Done and more", None)
    assert reply.text == "Done" and h.stored(conversation)[-1] == ("assistant", "Done", "complete")
    assert h.events == events


# ---------------------------------------------------------------- transcripts meanwhile


def test_transcripts_that_arrive_while_a_reply_streams_wait_for_it_in_order(h):
    assert not h.machine.hold("now")  # no reply: send it at once
    conversation = h.conversation()
    reply = h.machine.start(conversation, ReplyKind.NEW)
    assert h.machine.hold("first") and h.machine.hold("second")
    assert h.machine.next_queued() is None  # not while the reply streams
    h.machine.stop(reply, "", None)
    assert h.machine.next_queued() == "first"
    assert h.machine.next_queued() == "second" and h.machine.next_queued() is None
