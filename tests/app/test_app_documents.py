"""Documents in the window, as a user meets them: a folder dropped on the window is indexed and
the open conversation answers from it, naming its sources (links under the reply, said after it
by the voice), says so when the documents hold nothing about a question, and keeps its choice
across a restart; the Documents page lists, pauses and removes collections.

The real app on the 0.5B model pack (greedy), the real embedding model and index, the natural
voice.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QMimeData, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from parley.app.controller import Controller
from parley.engine.documents.grounding import NOT_FOUND
from parley.engine.library import packs
from tests.support.app_helpers import make_controller, wait_idle
from tests.support.requirements import require

BOILER = """# The boiler

## Servicing

The boiler in the cellar was serviced by Harald Lund on 14 March. He replaced the ignition electrode
and set the water pressure to 1.5 bar. The next service is due in March next year.

## Faults

When the display shows E119, the water pressure is too low: open the filling loop under the boiler
until the gauge reads between 1 and 1.5 bar, then press reset.
"""


@pytest.fixture(scope="module")
def qwen() -> Path:
    state = packs.pack_state(packs.find_pack("qwen2.5-coder-0.5b"))
    require(state.usable, "the 0.5B model pack (./setup.sh test)")
    return packs.pack_path(state.pack)


def settings(model: Path, **more: Any) -> dict[str, Any]:
    return {"chat_model": str(model), "temperature": 0.0, "max_tokens": 96, "context_length": 4096, **more}


def drop(controller: Controller, *paths: Path) -> None:
    """Drag ``paths`` onto the window and drop them, as a file manager does: the drag enters
    (the window must accept it), then drops."""
    data = QMimeData()
    data.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    window, at = controller.window, controller.window.rect().center()
    action, button, keys = Qt.DropAction.CopyAction, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    enter = QDragEnterEvent(at, action, data, button, keys)
    assert QApplication.sendEvent(window, enter) and enter.isAccepted()
    dropped = QDropEvent(at.toPointF(), action, data, button, keys)
    assert QApplication.sendEvent(window, dropped) and dropped.isAccepted()


def ask(qtbot: Any, controller: Controller, text: str) -> Any:
    controller.window.input_bar.edit.setPlainText(text)
    controller.window.input_bar.send_button.click()
    qtbot.waitUntil(lambda: controller.replies.busy, timeout=10_000)
    wait_idle(qtbot, controller)
    return controller.book.current.messages[-1]


@pytest.mark.slow
def test_a_dropped_folder_answers_with_its_sources_shown_and_said(qtbot, tmp_path, qwen) -> None:
    folder = tmp_path / "house notes"
    folder.mkdir()
    (folder / "boiler.md").write_text(BOILER)
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4 not really")
    controller = make_controller(qtbot, tmp_path, read_replies_aloud=True, read_aloud="from settings", **settings(qwen))
    room = controller.documents
    drop(controller, folder)
    qtbot.waitUntil(lambda: [c.name for c in room.collections] == ["house notes"], timeout=30_000)
    qtbot.waitUntil(lambda: room.collections[0].indexed == 1 and room.collections[0].failed == 1, timeout=60_000)
    assert room.used_by(controller.book.current.id) == ["house notes"]
    assert "house notes" in controller.window.input_bar.documents_button.text()

    reply = ask(qtbot, controller, "Who serviced the boiler?")
    assert "Harald" in reply.content, reply.content
    assert "sources" in reply.stats, (reply.content, reply.stats)
    sources = reply.stats["sources"]
    assert [Path(s["path"]).name for s in sources] == ["boiler.md"]
    widget = controller.window.conversation_view.messages[-1]
    assert widget.sources_label.isVisible() and "boiler.md" in widget.sources_label.text()
    assert QUrl.fromLocalFile(str(folder / "boiler.md")).toString() in widget.sources_label.text()
    qtbot.waitUntil(lambda: "From The boiler" in controller.spoken.said, timeout=30_000)
    assert "[1]" not in controller.spoken.said
    assert controller.book.current.messages[-2].content == "Who serviced the boiler?"  # the words alone

    nothing = ask(qtbot, controller, "Who won the football world cup in 1974?")
    assert nothing.content == NOT_FOUND and "sources" not in (nothing.stats or {})

    # Near the documents but not in them: the model answers from what it knows, and is flagged
    guessed = ask(qtbot, controller, "How long is the warranty on the boiler?")
    assert guessed.content == NOT_FOUND or guessed.stats.get("not_from_documents") is True, guessed.content
    if guessed.content != NOT_FOUND:
        label = controller.window.conversation_view.messages[-1].sources_label
        assert label.isVisible() and label.text() == "Not from your documents: this answer is the model's own."
        qtbot.waitUntil(lambda: "That answer is not from your documents." in controller.spoken.said, timeout=30_000)

    conversation = controller.book.current.id
    controller.shutdown()
    again = make_controller(qtbot, tmp_path, **settings(qwen))
    qtbot.waitUntil(lambda: bool(again.documents.collections), timeout=30_000)
    assert again.documents.used_by(conversation) == ["house notes"]  # kept with the conversation
    again.shutdown()
    assert (folder / "boiler.md").read_text() == BOILER  # only ever read


@pytest.mark.slow
def test_the_documents_page_lists_pauses_and_removes_collections(qtbot, tmp_path, qwen) -> None:
    folder = tmp_path / "manuals"
    folder.mkdir()
    for i in range(30):
        (folder / f"part{i:02}.md").write_text(f"# Part {i}\n\nThe torque for bolt {i} is {20 + i} newton metres.")
    controller = make_controller(qtbot, tmp_path, **settings(qwen))
    controller.window.documents_requested.emit()
    page = controller.answering_from_documents.page
    assert page is not None and controller.window.pages.currentWidget() is page
    page.pause_button.setChecked(True)  # paused before anything is read: nothing is
    page.add_requested.emit([str(folder)], "")
    qtbot.waitUntil(lambda: page.tree.topLevelItemCount() == 1, timeout=30_000)
    assert page.tree.topLevelItem(0).text(0) == "manuals" and page.tree.topLevelItem(0).text(1) == "0"
    assert controller.documents.collections[0].indexed == 0
    page.pause_button.setChecked(False)
    qtbot.waitUntil(
        lambda: page.tree.topLevelItemCount() == 1 and page.tree.topLevelItem(0).text(1) == "30", timeout=60_000
    )
    assert not page.progress_bar.isVisible()
    page.tree.setCurrentItem(page.tree.topLevelItem(0))
    page.remove_requested.emit("manuals")
    qtbot.waitUntil(lambda: page.tree.topLevelItemCount() == 0, timeout=30_000)
    assert len(list(folder.iterdir())) == 30
    controller.shutdown()
