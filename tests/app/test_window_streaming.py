"""The window does not slow the model: a streaming reply costs the UI thread little.

Three mechanisms, each checked here with the real widgets and the real engine:
- the reply's text reaches the UI thread paced (``ReplyFlow.PACE_MS``), not once per token;
- each finished paragraph is rendered once, only the growing one again, and the streamed reply
  looks like the final one;
- renders are spaced by what the UI thread itself spent since the last (``UI_SHARE``).
The speed figure (app against ``parley chat``) is bench/bench_window.py's.
"""

from __future__ import annotations

import math
import time

import pytest
from PySide6.QtWidgets import QApplication

from parley.app.conversations import replies
from parley.app.ui import conversation_view
from parley.app.ui.conversation_view import MessageWidget, finished_paragraphs
from parley.app.ui.main_window import MainWindow
from tests.support.app_helpers import REPLY_TIMEOUT_MS, make_controller, tiny_chat_model, tiny_settings  # noqa: F401

SAMPLE = """## Rome

The Roman Empire was one of the **largest** empires of the ancient world.

It had many provinces:

- Gaul
- Hispania

1. First point
2. Second point

```python
def f():

    return 1
```

And a final paragraph with `code`."""


@pytest.fixture
def window(qtbot):
    w = MainWindow()
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    return w


def test_finished_paragraphs_end_at_the_last_blank_line_outside_code() -> None:
    assert finished_paragraphs("One.") == 0
    assert finished_paragraphs("One.\n\nTwo") == len("One.\n\n")
    assert finished_paragraphs("One.\n\nTwo.\n\nThr") == len("One.\n\nTwo.\n\n")
    inside = "Text.\n\n```\ncode\n\nmore"  # the blank line inside the open code block does not count
    assert finished_paragraphs(inside) == len("Text.\n\n")
    closed = inside + "\n```\n\nAfter"
    assert finished_paragraphs(closed) == len(closed) - len("After")
    assert finished_paragraphs("One.\n\nTwo.\n\nThree", start=len("One.\n\nTwo.\n\n")) == len("One.\n\nTwo.\n\n")


def test_a_finished_paragraph_is_rendered_once_and_the_stream_looks_like_the_end(qtbot) -> None:
    streamed, final = MessageWidget("assistant"), MessageWidget("assistant")
    for widget in (streamed, final):
        qtbot.addWidget(widget)
        widget.resize(700, 100)
        widget.show()
    steps = iter(range(1, len(SAMPLE) + 1, 5))  # as a model writes it, a few characters at a time
    for end in steps:
        streamed.stream_text(SAMPLE[:end])
        if streamed._paragraph_views:
            break
    first = streamed._paragraph_views[0]
    revision = first.document().revision()
    for end in steps:
        streamed.stream_text(SAMPLE[:end])
    streamed.stream_text(SAMPLE)
    assert first.document().revision() == revision  # never rendered again
    assert first.source_text == "## Rome" and streamed.text == SAMPLE
    assert len(streamed._paragraph_views) == 6  # the code block, blank line inside, is one paragraph
    final.set_text(SAMPLE)
    QApplication.processEvents()
    assert abs(streamed.sizeHint().height() - final.sizeHint().height()) <= conversation_view.CHUNK_SPACING
    streamed.set_text(SAMPLE)  # the end of the reply: one document, like a stored message
    assert streamed._paragraph_views == [] and streamed.body.source_text == SAMPLE


def test_renders_are_spaced_by_what_the_ui_thread_spent(qtbot, window) -> None:
    view = window.conversation_view
    view.begin_reply()
    assert view._render_timer.interval() == conversation_view.RENDER_INTERVAL_MS  # a new reply: the shortest
    view.append_reply("A few words.")
    qtbot.waitUntil(lambda: view.render_count == 1)
    burn_until = time.thread_time() + 0.03  # 30 ms of the UI thread's own processor time
    while time.thread_time() < burn_until:
        pass
    view.append_reply(" More.")
    qtbot.waitUntil(lambda: view.render_count == 2, timeout=5000)
    # 30 ms spent: at UI_SHARE of a core the next render may come 1 s later at most; capped
    expected = min(conversation_view.MAX_RENDER_INTERVAL_MS, math.ceil(30 / conversation_view.UI_SHARE))
    assert view._render_timer.interval() >= expected - 1
    view.end_reply(None, "")
    view.begin_reply()
    assert view._render_timer.interval() == conversation_view.RENDER_INTERVAL_MS


def test_the_reply_reaches_the_window_paced_and_whole(qtbot, tmp_path, tiny_chat_model) -> None:  # noqa: F811
    """The tiny model streams hundreds of tokens a second: the UI thread takes them in batches,
    at most one per ``PACE_MS`` after the first, and nothing is lost."""
    controller = make_controller(qtbot, tmp_path, **tiny_settings(tiny_chat_model, max_tokens=600))
    batches: list[str] = []
    controller.replies.progress.connect(batches.append)
    assert controller.replies.send("Write a long answer.")
    qtbot.waitUntil(lambda: not controller.replies.busy, timeout=REPLY_TIMEOUT_MS)
    message = controller.book.current.messages[-1]
    assert "".join(batches) == message.content and message.stats["generated_tokens"] == 600
    seconds = message.stats["generation_seconds"]
    assert len(batches) <= 2 + math.ceil(seconds * 1000 / replies.PACE_MS), (len(batches), seconds)
    assert len(batches) < 600
