"""Large text: with the system's font at twice its size, no window clips a word.

A large-text setting makes the application font larger (Qt takes it from the desktop); Parley
keeps it (``theme.apply_theme``) and sizes its titles from it.  Every window of the real app is
opened (with a conversation, a notice, Settings and each of its pages, quick-ask, the dictation
history, the first-start page) at 20 points, twice the usual 10, and every label, button and check box is measured: a
word that does not fit where it is drawn fails the test, by its text.  A whole-window scale (200%,
``QT_SCALE_FACTOR=2``) scales the layout with the text, so it cannot clip what 100% does not:
``packaging/screenshot.py --scale 2`` takes that picture for the docs.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QEvent, QSize
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QAbstractButton, QApplication, QCheckBox, QLabel, QLineEdit, QWidget

from parley.app.ui.theme import apply_theme
from tests.app.test_translations import open_every_window
from tests.support.app_helpers import kept_look, make_controller, tiny_chat_model, tiny_settings  # noqa: F401

LARGE_PT = 20.0
DESKTOP = (1800, 1000)  # what a window may take of a 1920x1080 desktop (the offscreen screen is 800x800)


@pytest.fixture
def large_text(qapp: QApplication) -> Iterator[float]:
    """The app's look with the system font at ``LARGE_PT``, put back afterwards."""
    with kept_look(qapp):
        font = qapp.font()
        font.setPointSizeF(LARGE_PT)
        qapp.setFont(font)
        apply_theme(qapp)
        yield qapp.font().pointSizeF()


def plain(text: str) -> str:
    document = QTextDocument()
    document.setHtml(text)
    return document.toPlainText()


def clipped(root: QWidget) -> Iterator[str]:
    """The visible labels, buttons and check boxes under ``root`` whose text does not fit."""
    for widget in [root, *root.findChildren(QWidget)]:
        if not widget.isVisible() or widget.width() <= 0 or isinstance(widget.parent(), QLineEdit):
            continue  # hidden, or a text field's own clear button (Qt's, sized to its icon)
        if isinstance(widget, QLabel) and widget.text():
            box = widget.contentsRect()
            metrics = widget.fontMetrics()
            if widget.wordWrap():
                needed_h, needed_w = widget.heightForWidth(box.width()), 0
            else:
                text = widget.text()
                if widget.buddy() is not None:  # "&Voice:" shows as "Voice:", its V underlined
                    text = text.replace("&&", "\0").replace("&", "").replace("\0", "&")
                lines = (plain(text) if "<" in text else text).split("\n")
                needed_w = max(metrics.horizontalAdvance(line) for line in lines)
                needed_h = metrics.height() * len(lines)
            if box.width() + 1 < needed_w or box.height() + 1 < needed_h:
                yield f"label {widget.text()!r}: {box.width()}x{box.height()} < {needed_w}x{needed_h}"
        elif isinstance(widget, (QAbstractButton, QCheckBox)) and widget.text():
            hint = widget.sizeHint()
            if widget.width() + 1 < hint.width() or widget.height() + 1 < hint.height():
                size = f"{widget.width()}x{widget.height()} < {hint.width()}x{hint.height()}"
                yield f"{type(widget).__name__} {widget.text()!r}: {size}"


def laid_out(qtbot, widget: QWidget) -> None:
    """Wait until Qt has laid out what ``widget`` shows: word-wrapped labels take a few passes of
    posted events, so the sizes of its parts are read until two looks in a row agree."""
    last: list[object] = [None]

    def settled() -> bool:
        QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        sizes = [child.geometry() for child in widget.findChildren(QWidget) if child.isVisible()]
        same, last[0] = sizes == last[0], sizes
        return same

    qtbot.waitUntil(settled, timeout=10_000)


def test_no_window_clips_a_word_at_twice_the_font_size(qtbot, large_text, tmp_path, tiny_chat_model) -> None:
    assert large_text == LARGE_PT
    app = make_controller(qtbot, tmp_path, **tiny_settings(tiny_chat_model, max_tokens=4))
    app.window.resize(*DESKTOP)
    windows = open_every_window(qtbot, app)
    problems: list[str] = []
    app.first_start.dismiss()  # the conversation, then the first-start page, each as shown
    dialog = windows["settings"]
    dialog.resize(dialog.size().expandedTo(dialog.sizeHint()).boundedTo(QSize(*DESKTOP)))
    for index in range(dialog.tabs.count()):
        dialog.tabs.setCurrentIndex(index)
        laid_out(qtbot, dialog)
        problems += [f"settings page {dialog.tabs.tabText(index)}: {p}" for p in clipped(dialog)]
    dialog.reject()
    for name in ("main window", "quick-ask", "dictation history"):
        problems += [f"{name}: {p}" for p in clipped(windows[name])]
    app.first_start.show()
    laid_out(qtbot, app.window)
    problems += [f"first-start page: {p}" for p in clipped(app.window)]
    assert not problems, "\n".join(sorted(set(problems)))
