"""TurnClock on its own: which take a reply's timings belong to, with a clock the test turns."""

from __future__ import annotations

from types import SimpleNamespace

from parley.app.conversations.conversation import Message
from parley.app.conversations.turn_timings import TurnClock


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def _reply() -> SimpleNamespace:
    return SimpleNamespace(message=Message("assistant", ""))


def test_a_spoken_turn_is_timed_step_by_step(qtbot) -> None:
    clock = Clock()
    turns = TurnClock(clock)
    turns.ended("hands-free")
    clock.advance(0.3)
    turns.transcribed()
    clock.advance(0.1)
    reply = _reply()
    turns.reply_started(reply)
    clock.advance(0.2)
    turns.reply_grew(reply, "Hi")
    clock.advance(0.4)
    turns.sounded()
    turns.reply_ended(reply)
    turn = reply.message.turn
    assert turn.source == "hands-free"
    assert [(name, round(s, 3)) for name, s in turn.steps()] == [
        ("words transcribed", 0.3),
        ("first words of the reply", 0.3),
        ("first sound of the reply", 0.4),
    ]
    assert round(turn.total(), 3) == 1.0 and "In all 1000 ms." in turn.describe()


def test_a_take_that_gets_no_reply_is_not_given_to_the_next_typed_one(qtbot) -> None:
    """A dictated take (or one left in the text box) is forgotten; the next reply is a typed turn."""
    clock = Clock()
    turns = TurnClock(clock)
    turns.ended("dictate")
    clock.advance(0.3)
    turns.forget()
    clock.advance(5.0)
    reply = _reply()
    turns.reply_started(reply)
    clock.advance(0.25)
    turns.reply_grew(reply)
    turns.reply_ended(reply)
    turn = reply.message.turn
    assert turn.source == "typed" and [n for n, _ in turn.steps()] == ["first words of the reply"]
    assert round(turn.total(), 3) == 0.25


def test_a_reply_stopped_before_its_first_words_has_no_timings(qtbot) -> None:
    turns = TurnClock(Clock())
    reply = _reply()
    turns.reply_started(reply)
    turns.reply_ended(reply)
    turns.sounded()  # and a voice that starts later is not its first sound
    assert reply.message.turn is None
