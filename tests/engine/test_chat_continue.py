"""Continuing a reply that ended early (stopped, or interrupted when Parley last closed)."""

from __future__ import annotations

import pytest

from parley.engine.chat.model import ChatModel, ChatSession, Message, SamplingParams
from parley.engine.errors import NothingToRegenerateError
from parley.engine.modelfiles.defaults import default_chat_model_path

GREEDY = dict(temperature=0.0, repeat_penalty=1.0)


@pytest.fixture(scope="module")
def model():
    with ChatModel(default_chat_model_path(), device="cpu", n_ctx=1024) as m:
        yield m


def test_a_continued_reply_goes_on_from_where_it_ended(model):
    question = "Count from one to twenty, separated by commas."
    whole = ChatSession(model).reply(question, SamplingParams(max_tokens=24, **GREEDY)).text

    session = ChatSession(model)
    start = session.reply(question, SamplingParams(max_tokens=10, **GREEDY))
    pieces = []
    more = session.continue_reply(SamplingParams(max_tokens=14, **GREEDY), on_text=pieces.append)
    print(f"\nstart: {start.text!r}\nmore: {more.text!r}\nwhole: {whole!r}")
    assert start.finish == "max_tokens" and more.text.startswith(start.text) and len(more.text) > len(start.text)
    assert start.text + "".join(pieces) == more.text  # only the new text is streamed
    assert more.text == whole  # greedy: as if it had never stopped
    assert [(m.role, m.content) for m in session.messages] == [("user", question), ("assistant", more.text)]


def test_a_reply_from_history_can_be_continued(model):
    """What the app does after a crash: the session is rebuilt from the stored messages."""
    session = ChatSession(model, history=[Message("user", "Name three colours."), Message("assistant", "Red, green")])
    reply = session.continue_reply(SamplingParams(max_tokens=8, **GREEDY))
    assert reply.text.startswith("Red, green") and len(reply.text) > len("Red, green")


def test_nothing_to_continue(model):
    session = ChatSession(model, history=[Message("user", "Hello")])
    with pytest.raises(NothingToRegenerateError):
        session.continue_reply(SamplingParams(max_tokens=4))
    assert [m.role for m in session.messages] == ["user"]
