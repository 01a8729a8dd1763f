"""The conversation: one widget per message, Markdown rendered by ``QTextDocument``.

A streaming reply only appends to a text buffer, and the window shows it at most every
``RENDER_INTERVAL_MS``, rendering only what changed: each paragraph that is finished (a blank
line after it, outside a code block) is rendered once, into a view of its own, and only the
paragraph still growing is rendered again, so a render costs the same at the end of a long reply
as at its start.  And the renders are paced to what the UI thread may spend: on a machine with
no core to spare, whatever the UI thread takes while a reply streams, the model's threads lose;
so the time to the next render follows the UI thread's own processor time since the last one
(the render, its painting, the reply's pieces), keeping it near ``UI_SHARE`` of one core.  When
the reply ends, the whole text is rendered once as one document (as a stored message is shown).

The view follows the app's ``ReplyMachine`` (``follow_reply``, ``reply_grew``, ``reply_ended``,
connected by the controller): it shows the reply it saw start until it ends or another
conversation is shown, and reads the reply's message for what to show at the end.  It tells a
screen reader the reply when it ends, or sentence by sentence as it streams
(``announcements.ReplyAnnouncer``, ``set_reply_announcements``).
"""

from __future__ import annotations

import html
import json
import math
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QLocale, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QGuiApplication,
    QResizeEvent,
    QTextBlock,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
    QTextFrameFormat,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..conversations.conversation import Message
from ..conversations.reply_state import Ending, Reply, ReplyKind
from . import theme
from .announcements import ReplyAnnouncer, announce

RENDER_INTERVAL_MS = 50  # the shortest time between two renders of a streaming reply
MAX_RENDER_INTERVAL_MS = 400  # and the longest
UI_SHARE = 0.03  # of one core, what the UI thread may spend while a reply streams
CHUNK_SPACING = 6  # pixels between streamed paragraphs: what one document puts between blocks
_FENCE = re.compile(r"^ {0,3}(```|~~~)", re.MULTILINE)
CONTINUABLE = ("stopped", "interrupted")  # reply states the Continue button is offered for
USER_BUBBLE_SHARE = 0.78  # widest a user bubble gets, as a share of the column
COLUMN_MAX_WIDTH = 880  # lines longer than this are hard to read on wide windows (at 10 pt)
COLUMN_MAX_CHARS = 110  # and as many average characters, with larger text


def message_sources(message: Message) -> tuple[list[dict[str, Any]], bool]:
    """The documents a reply names (``documents.grounding.Source`` records, well-formed only), and
    whether it was a reply from documents that did not come from them."""
    stats = message.stats or {}
    sources = stats.get("sources")
    named = [s for s in sources if isinstance(s, dict)] if isinstance(sources, list) else []
    return named, stats.get("not_from_documents") is True


def message_steps(message: Message) -> list[dict[str, Any]]:
    """The tool steps kept with a reply (``engine.tools.turn.Step`` records), well-formed only."""
    steps = (message.stats or {}).get("steps")
    return [s for s in steps if isinstance(s, dict)] if isinstance(steps, list) else []


def turn_details(message: Message) -> Callable[[], str] | None:
    """What a message's Details shows: its turn's timings (``Message.turn``), when it has them."""
    turn = message.turn
    return turn.describe if turn is not None else None


def finished_paragraphs(text: str, start: int = 0) -> int:
    """Where the finished paragraphs of a growing Markdown ``text`` end (after ``start``): just
    past its last blank line that is outside a code block, or ``start`` when there is none."""
    end = text.rfind("\n\n", start)
    while end >= start:
        if len(_FENCE.findall(text, 0, end)) % 2 == 0:
            return end + 2
        end = text.rfind("\n\n", start, end)
    return start


def render_markdown(document: QTextDocument, text: str) -> None:
    """``setMarkdown`` plus the finishing Qt's importer lacks: code in a framed monospace box."""
    document.setMarkdown(text, QTextDocument.MarkdownFeature.MarkdownDialectGitHub)
    mono = theme.monospace_font()
    runs: list[tuple[int, int]] = []  # (first position, last position) of each code block
    block = document.begin()
    while block.isValid():
        fmt = block.charFormat()
        is_code = block.blockFormat().hasProperty(QTextFormat.Property.BlockCodeFence) or "monospace" in (
            fmt.fontFamilies() or []
        )
        if is_code and runs and runs[-1][1] == block.position() - 1:
            runs[-1] = (runs[-1][0], block.position() + block.length() - 1)
        elif is_code:
            runs.append((block.position(), block.position() + block.length() - 1))
        else:
            _style_inline_code(block, mono)
        block = block.next()

    frame = QTextFrameFormat()
    frame.setBackground(QColor(theme.colours().code_background))
    frame.setBorder(1)
    frame.setBorderBrush(QColor(theme.colours().border))
    frame.setBorderStyle(QTextFrameFormat.BorderStyle.BorderStyle_Solid)
    frame.setPadding(8)
    frame.setTopMargin(4)
    frame.setBottomMargin(4)
    code_chars = QTextCharFormat()  # not the first block's format: a heading's size would carry over
    code_chars.setFont(mono)
    for first, last in reversed(runs):  # back to front: earlier positions stay valid
        cursor = QTextCursor(document)
        cursor.setPosition(first)
        cursor.setPosition(last, QTextCursor.MoveMode.KeepAnchor)
        cursor.mergeCharFormat(code_chars)
        cursor.insertFrame(frame)  # moves the selected blocks into the frame
    if runs:
        _flatten_frame_separators(document)


def _flatten_frame_separators(document: QTextDocument) -> None:
    """A frame sits between two empty blocks of the enclosing frame, each a blank line tall; make
    them a pixel tall so a code block is spaced like a paragraph, not by blank lines."""
    root = document.rootFrame()
    flat = QTextBlockFormat()
    flat.setLineHeight(1, QTextBlockFormat.LineHeightTypes.FixedHeight.value)
    flat.setTopMargin(0)
    flat.setBottomMargin(0)
    tiny = QTextCharFormat()
    tiny.setFontPointSize(1)
    block = document.begin()
    while block.isValid():
        if not block.text() and document.frameAt(block.position()) is root:
            cursor = QTextCursor(block)
            cursor.setBlockFormat(flat)
            cursor.setBlockCharFormat(tiny)
        block = block.next()


def _style_inline_code(block: QTextBlock, mono: QFont) -> None:
    it = block.begin()
    while not it.atEnd():
        fragment = it.fragment()
        if fragment.charFormat().fontFixedPitch():
            cursor = QTextCursor(block.document())
            cursor.setPosition(fragment.position())
            cursor.setPosition(fragment.position() + fragment.length(), QTextCursor.MoveMode.KeepAnchor)
            fmt = fragment.charFormat()
            fmt.setFont(mono)
            fmt.setBackground(QColor(theme.colours().code_background))
            cursor.setCharFormat(fmt)
        it += 1


class MarkdownView(QTextBrowser):
    """Read-only Markdown that is always exactly as tall as its text; scrolling is the view's job."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, objectName="MessageText")
        self.setOpenExternalLinks(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.viewport().setAutoFillBackground(False)
        self.document().setDocumentMargin(0)
        self.source_text = ""
        self._fitted_width = -1

    def set_markdown(self, text: str) -> None:
        self.source_text = text
        render_markdown(self.document(), text)
        self._fit(force=True)

    def changeEvent(self, event: QEvent) -> None:
        """A new scheme (dark, high contrast): the code blocks take its colours."""
        if event.type() == QEvent.Type.PaletteChange and self.source_text:
            self.set_markdown(self.source_text)
        super().changeEvent(event)

    def natural_width(self) -> float:
        """Width the text would take without wrapping (for sizing user bubbles)."""
        document = self.document().clone()
        document.setTextWidth(-1)
        return document.idealWidth()

    def _fit(self, force: bool = False) -> None:
        width = self.viewport().width()
        if width == self._fitted_width and not force:
            return
        self._fitted_width = width
        self.document().setTextWidth(width)
        self.setFixedHeight(math.ceil(self.document().size().height()) + 2 * self.frameWidth())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def wheelEvent(self, event: QWheelEvent) -> None:
        event.ignore()  # let the conversation scroll


class DetailsPopup(QFrame):
    """A small panel under a message's Details button; a click elsewhere or Esc closes it."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent, Qt.WindowType.Popup)
        self.setObjectName("DetailsPopup")
        self.setAccessibleName(self.tr("Details of this turn"))
        self.setFrameShape(QFrame.Shape.StyledPanel)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 10, 12, 10)
        self.label = QLabel(
            textInteractionFlags=Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.label.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # Tab-free: the popup's one thing to read
        layout.addWidget(self.label)

    def show_text(self, text: str, under: QWidget) -> None:
        self.label.setText(text)
        self.label.setAccessibleName(text)
        self.adjustSize()
        self.move(under.mapToGlobal(under.rect().bottomLeft()))
        self.show()
        self.label.setFocus(Qt.FocusReason.PopupFocusReason)


class MessageWidget(QWidget):
    """A row of the conversation: a user bubble on the right, or an assistant block."""

    regenerate_requested = Signal()
    continue_requested = Signal()
    reply_requested = Signal()
    answered = Signal(bool)  # Yes or No to the tool call the reply asks about

    def __init__(
        self, role: str, text: str = "", footer: str = "", parent: QWidget | None = None, state: str = "complete"
    ) -> None:
        super().__init__(parent)
        self.role = role
        self.state = state
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.bubble = QFrame(objectName="UserBubble" if role == "user" else "AssistantBlock")
        inner = QVBoxLayout(self.bubble)
        inner.setContentsMargins(14, 8, 14, 10)
        inner.setSpacing(4)

        header = QHBoxLayout()
        header.setSpacing(2)
        self._bubble_layout, self._header = inner, header
        speaker = {"user": self.tr("You"), "assistant": self.tr("Parley")}.get(role, role.title())
        self.role_label = QLabel(speaker, objectName="RoleLabel")
        self.footer_label = QLabel(footer, objectName="MessageFooter", wordWrap=True)
        self.copy_button = QToolButton(
            objectName="MessageAction", text=self.tr("Copy"), toolTip=self.tr("Copy this message")
        )
        self.copy_button.clicked.connect(self._copy)
        self.regenerate_button = QToolButton(
            objectName="MessageAction", text=self.tr("Regenerate"), toolTip=self.tr("Answer this message again")
        )
        self.regenerate_button.clicked.connect(self.regenerate_requested)
        self.regenerate_button.hide()
        self.continue_button = QToolButton(
            objectName="MessageAction",
            text=self.tr("Continue"),
            toolTip=self.tr("Carry on writing this reply from where it ended"),
        )
        self.continue_button.clicked.connect(self.continue_requested)
        self.continue_button.hide()
        self.reply_button = QToolButton(
            objectName="MessageAction",
            text=self.tr("Reply"),
            toolTip=self.tr("This message has no reply yet: answer it"),
        )
        self.reply_button.clicked.connect(self.reply_requested)
        self.reply_button.hide()
        self.details_button = QToolButton(
            objectName="MessageAction",
            text=self.tr("Details"),
            toolTip=self.tr("How long this turn took, step by step"),
        )
        self.details_button.clicked.connect(self._show_details)
        self.details_button.hide()
        for button in (
            self.copy_button,
            self.regenerate_button,
            self.continue_button,
            self.reply_button,
            self.details_button,
        ):
            button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self._details: Callable[[], str] | None = None
        self.details_popup: DetailsPopup | None = None
        self._copied = QTimer(self, singleShot=True, interval=1500)
        self._copied.timeout.connect(lambda: self.copy_button.setText(self.tr("Copy")))
        header.addWidget(self.role_label)
        header.addSpacing(8)
        header.addWidget(self.footer_label, 1)  # all the room there is; it wraps only when that is too little
        header.addWidget(self.details_button)
        header.addWidget(self.copy_button)
        header.addWidget(self.continue_button)
        header.addWidget(self.regenerate_button)
        header.addWidget(self.reply_button)
        inner.addLayout(header)

        # A reply's tool steps: one line that unfolds into each call, its arguments and result.
        self.steps_button = QToolButton(objectName="StepsToggle", checkable=True, autoRaise=True)
        self.steps_button.setAccessibleName(self.tr("Tools used"))
        self.steps_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.steps_button.setArrowType(Qt.ArrowType.RightArrow)
        self.steps_button.toggled.connect(self._fold_steps)
        self.steps_text = QLabel(objectName="StepsText", wordWrap=True)
        self.steps_text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.steps_text.setTextFormat(Qt.TextFormat.PlainText)
        self.steps_button.hide()
        self.steps_text.hide()
        inner.addWidget(self.steps_button)
        inner.addWidget(self.steps_text)
        self._steps: list[dict[str, Any]] = []

        # While a reply streams: its finished paragraphs, each rendered once (``stream_text``).
        self._paragraphs = QVBoxLayout()
        self._paragraphs.setContentsMargins(0, 0, 0, 0)
        self._paragraphs.setSpacing(CHUNK_SPACING)
        self._paragraph_views: list[MarkdownView] = []
        self._shown = 0  # characters of the text the paragraph views hold
        self._text = ""
        inner.addLayout(self._paragraphs)
        self.body = MarkdownView(self.bubble)
        self._name_text(self.body)
        inner.addWidget(self.body)

        # A tool call that acts waits for the user's yes (the question is the reply's last words).
        self.question_row = QWidget()
        buttons = QHBoxLayout(self.question_row)
        buttons.setContentsMargins(0, 4, 0, 0)
        self.yes_button = QPushButton(self.tr("&Yes"), objectName="PrimaryButton")
        self.no_button = QPushButton(self.tr("&No"))
        self.yes_button.clicked.connect(lambda: self.answered.emit(True))
        self.no_button.clicked.connect(lambda: self.answered.emit(False))
        buttons.addWidget(self.yes_button)
        buttons.addWidget(self.no_button)
        buttons.addStretch(1)
        self.question_row.hide()
        inner.addWidget(self.question_row)
        # A reply from the user's documents: the sources it names, each a link that opens the file.
        self.sources_label = QLabel(objectName="SourcesText", wordWrap=True)
        self.sources_label.setTextFormat(Qt.TextFormat.RichText)
        self.sources_label.setOpenExternalLinks(True)
        self.sources_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.sources_label.hide()
        inner.addWidget(self.sources_label)
        if role == "user":
            row.addStretch(1)
            row.addWidget(self.bubble)
        else:
            row.addWidget(self.bubble, 1)
        self.set_text(text)

    @property
    def text(self) -> str:
        return self._text

    def set_text(self, text: str) -> None:
        """Show ``text`` as one document (a stored message, or a reply that ended)."""
        for view in self._paragraph_views:  # out of the layout now, deleted later
            view.hide()
            self._paragraphs.removeWidget(view)
            view.deleteLater()
        self._paragraph_views.clear()
        self._shown = 0
        self._text = text
        self.body.set_markdown(text)
        self.body.show()
        self._paragraphs.setContentsMargins(0, 0, 0, 0)
        if self.role == "user":
            self._size_bubble()

    def stream_text(self, text: str) -> None:
        """Show a reply that grows: paragraphs finished since the last call are rendered once
        into views of their own; only the unfinished rest is rendered again."""
        if not text.startswith(self._text[: self._shown]):  # not a continuation: start over
            self.set_text("")
        end = finished_paragraphs(text, self._shown)
        if end > self._shown:
            view = MarkdownView(self.bubble)
            self._name_text(view)
            view.set_markdown(text[self._shown : end].rstrip("\n"))
            self._paragraphs.addWidget(view)
            self._paragraph_views.append(view)
            self._shown = end
        self._text = text
        rest = text[self._shown :]
        self.body.set_markdown(rest)
        self.body.setVisible(bool(rest) or not self._paragraph_views)
        self._paragraphs.setContentsMargins(0, 0, 0, CHUNK_SPACING if self._paragraph_views and rest else 0)

    def _name_text(self, view: MarkdownView) -> None:
        """A screen reader says whose text it reads: "You" or "Parley", then the text."""
        view.setAccessibleName(self.role_label.text())
        view.setAccessibleDescription(self.footer_label.text())

    def focus_text(self) -> None:
        """Put the keyboard focus on the message's text, from its start."""
        view = self._paragraph_views[0] if self._paragraph_views else self.body
        view.moveCursor(QTextCursor.MoveOperation.Start)
        view.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def set_steps(self, steps: list[dict[str, Any]]) -> None:
        """Show the reply's tool steps: folded to one line ("Tools used: ..."), unfolded each
        call with its arguments and what it gave."""
        self._steps = list(steps)
        self.steps_button.setVisible(bool(steps))
        if not steps:
            self.steps_text.hide()
            return
        names = ", ".join(dict.fromkeys(str(s.get("name", "")) for s in steps))
        summary = self.tr("Tools used: {names}").format(names=names)
        running = [s for s in steps if s.get("status") == "running"]
        if running:
            summary = self.tr("Using {name}…").format(name=running[-1].get("description") or running[-1].get("name"))
        self.steps_button.setText(summary)
        self.steps_button.setAccessibleName(summary)
        self.steps_text.setText("\n\n".join(self._step_text(s) for s in steps))

    def set_sources(self, sources: list[dict[str, Any]], not_from_documents: bool = False) -> None:
        """The documents the reply names: "Sources: notes.pdf, page 3 · boiler.md", each a link;
        or, for a reply from a conversation's documents whose words are not theirs, that it is not
        from them."""
        links = []
        for source in sources:
            path = str(source.get("path", ""))
            if not path:
                continue
            place = str(source.get("place", ""))
            shown = f"{Path(path).name}, {place}" if place else Path(path).name
            url = QUrl.fromLocalFile(path).toString()
            links.append(f'<a href="{html.escape(url, quote=True)}">{html.escape(shown)}</a>')
        if not links and not_from_documents:
            self.sources_label.setText(self.tr("Not from your documents: this answer is the model's own."))
            self.sources_label.show()
            self.sources_label.setAccessibleName(self.tr("Sources"))
            return
        self.sources_label.setVisible(bool(links))
        self.sources_label.setText(self.tr("Sources: {links}").format(links=" · ".join(links)) if links else "")
        self.sources_label.setAccessibleName(self.sources_label.text() and self.tr("Sources"))

    def _step_text(self, step: dict[str, Any]) -> str:
        status = {
            "running": self.tr("running"),
            "done": self.tr("done"),
            "failed": self.tr("failed"),
            "declined": self.tr("you said no"),
            "refused": self.tr("not a valid call"),
            "cancelled": self.tr("stopped"),
        }.get(str(step.get("status")), str(step.get("status")))
        source = str(step.get("source") or "")
        head = f"{step.get('name')}{f' ({source})' if source else ''}: {status}"
        arguments = step.get("arguments")
        shown = json.dumps(arguments, ensure_ascii=False) if isinstance(arguments, dict) else str(arguments or "")
        lines = [head, self.tr("Arguments: {arguments}").format(arguments=shown[:2000])]
        result = str(step.get("result") or "")
        if result:
            lines.append(self.tr("Result: {result}").format(result=result[:4000]))
        return "\n".join(lines)

    def _fold_steps(self, unfolded: bool) -> None:
        self.steps_button.setArrowType(Qt.ArrowType.DownArrow if unfolded else Qt.ArrowType.RightArrow)
        self.steps_text.setVisible(unfolded and bool(self._steps))

    def ask(self) -> None:
        """Offer Yes and No for the question the reply ends with."""
        self.question_row.show()
        self.yes_button.setFocus(Qt.FocusReason.OtherFocusReason)

    def close_question(self) -> None:
        self.question_row.hide()

    def set_footer(self, footer: str) -> None:
        self.footer_label.setText(footer)
        for view in (*self._paragraph_views, self.body):
            view.setAccessibleDescription(footer)

    def set_details(self, details: Callable[[], str] | None) -> None:
        """Offer Details, which shows ``details()`` (read when opened: figures may still come in)."""
        self._details = details
        self.details_button.setVisible(details is not None)

    def _show_details(self) -> None:
        if self._details is None:
            return
        if self.details_popup is None:
            self.details_popup = DetailsPopup(self)
        self.details_popup.show_text(self._details(), self.details_button)

    def set_actions(self, last: bool, needs_reply: bool = False) -> None:
        """Offer what can be done with the conversation's last message (nothing on the others)."""
        assistant = self.role == "assistant" and last
        self.regenerate_button.setVisible(assistant)
        self.regenerate_button.setText(self.tr("Retry") if self.state == "interrupted" else self.tr("Regenerate"))
        self.continue_button.setVisible(assistant and self.state in CONTINUABLE)
        self.reply_button.setVisible(self.role == "user" and last and needs_reply)

    def _copy(self) -> None:
        QGuiApplication.clipboard().setText(self.text)
        self.copy_button.setText(self.tr("Copied"))
        announce(self, self.tr("Copied"))
        self._copied.start()

    def _size_bubble(self) -> None:
        margins = self._bubble_layout.contentsMargins()
        chrome = margins.left() + margins.right() + 2
        header = self._header.minimumSize().width()
        wanted = max(math.ceil(self.body.natural_width()) + chrome, header + chrome)
        self.bubble.setFixedWidth(max(120, min(wanted, int(self.width() * USER_BUBBLE_SHARE))))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.role == "user" and event.size().width() != event.oldSize().width():
            self._size_bubble()


class ConversationView(QScrollArea):
    """Messages of one conversation, newest at the bottom, with at most one streaming reply."""

    regenerate_requested = Signal()
    continue_requested = Signal()
    reply_requested = Signal()
    question_answered = Signal(bool)  # Yes or No to the tool call the streaming reply asks about

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ConversationView")
        self.setAccessibleName(self.tr("Conversation"))
        self.setAccessibleDescription(self.tr("Page Up and Page Down scroll; Tab goes through the messages"))
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        canvas = QWidget(objectName="ConversationCanvas")
        column = QWidget()
        column.setMaximumWidth(max(COLUMN_MAX_WIDTH, COLUMN_MAX_CHARS * self.fontMetrics().averageCharWidth()))
        centred = QHBoxLayout(canvas)
        centred.setContentsMargins(24, 18, 24, 18)
        centred.addWidget(column)
        self._layout = QVBoxLayout(column)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(14)
        self._layout.addStretch(1)
        self.setWidget(canvas)
        self._empty = self._make_empty_state()
        self._layout.insertWidget(0, self._empty)

        self.messages: list[MessageWidget] = []
        self.needs_reply = False  # the last message is the user's and nothing answers it
        self.render_count = 0  # renders of streaming replies, for diagnostics
        self._cpu_mark = 0.0  # the UI thread's processor time at the last render
        self._streaming: MessageWidget | None = None
        self._stream_text = ""
        self._reply: Reply | None = None  # the reply being followed
        self._render_timer = QTimer(self, singleShot=True, interval=RENDER_INTERVAL_MS)
        self._render_timer.timeout.connect(self._render_stream)
        self.announcer = ReplyAnnouncer(self)
        self._follow = True  # keep the newest text in sight while it grows
        bar = self.verticalScrollBar()
        bar.valueChanged.connect(lambda value: setattr(self, "_follow", value >= bar.maximum() - 8))
        bar.rangeChanged.connect(lambda _lo, hi: bar.setValue(hi) if self._follow else None)

    def _make_empty_state(self) -> QWidget:
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 80, 0, 0)
        title = QLabel(
            self.tr("What can I help with?"), objectName="EmptyTitle", alignment=Qt.AlignmentFlag.AlignCenter
        )
        self.hint_label = QLabel(objectName="Hint", alignment=Qt.AlignmentFlag.AlignCenter, wordWrap=True)
        layout.addWidget(title)
        layout.addWidget(self.hint_label)
        return box

    def set_hint(self, text: str) -> None:
        """The line under the empty-conversation title (how to talk or type)."""
        self.hint_label.setText(text)

    def set_reply_announcements(self, mode: str) -> None:
        """When a screen reader is told a reply: ``announcements.REPLY_MODES``."""
        self.announcer.mode = mode

    def reply_footer(self, stats: dict[str, Any] | None, state: str) -> str:
        """The line under a reply: its speed, and how it ended when that was not its own end."""
        parts = []
        if stats and stats.get("gen_tps"):
            speed = QLocale().toString(float(stats["gen_tps"]), "f", 1)
            parts.append(
                self.tr("%Ln token(s) · {speed} tok/s", "", int(stats["generated_tokens"])).format(speed=speed)
            )
        if state == "stopped":
            parts.append(self.tr("stopped"))
        elif state in ("interrupted", "streaming"):
            parts.append(self.tr("interrupted: Parley closed before the end of this reply"))
        elif stats and stats.get("finish") == "max_tokens":
            parts.append(self.tr("cut at the length limit"))
        elif stats and stats.get("finish") == "context":
            parts.append(self.tr("context full"))
        return " · ".join(parts)

    @property
    def is_streaming(self) -> bool:
        return self._streaming is not None

    def clear(self) -> None:
        self._render_timer.stop()
        self._streaming = None
        self._reply = None
        self._stream_text = ""
        for widget in self.messages:
            widget.deleteLater()
        self.messages.clear()
        self._empty.show()

    def add_message(
        self,
        role: str,
        text: str,
        footer: str = "",
        state: str = "complete",
        details: Callable[[], str] | None = None,
        steps: list[dict[str, Any]] | None = None,
        sources: tuple[list[dict[str, Any]], bool] = ([], False),
    ) -> MessageWidget:
        widget = MessageWidget(role, text, footer, state=state)
        widget.set_details(details)
        widget.set_steps(steps or [])
        widget.set_sources(*sources)
        widget.answered.connect(self.question_answered)
        widget.regenerate_requested.connect(self.regenerate_requested)
        widget.continue_requested.connect(self.continue_requested)
        widget.reply_requested.connect(self.reply_requested)
        self._layout.insertWidget(self._layout.count() - 1, widget)
        self.messages.append(widget)
        self._empty.hide()
        self._follow = True
        self._update_actions()
        return widget

    def set_needs_reply(self, needs: bool) -> None:
        """Offer Reply on the last message when it is the user's and nothing answers it."""
        self.needs_reply = needs
        self._update_actions()

    def begin_reply(self) -> MessageWidget:
        """Start a streaming assistant message at the bottom."""
        widget = self.add_message("assistant", "", self.tr("Thinking…"))
        self._start_stream(widget)
        return widget

    def restart_last_reply(self) -> MessageWidget:
        """Clear the last message, if it is the assistant's, and stream into it again (regenerate)."""
        if not self.messages or self.messages[-1].role != "assistant":
            return self.begin_reply()
        widget = self.messages[-1]
        widget.set_text("")
        widget.set_footer(self.tr("Thinking…"))
        self._start_stream(widget)
        return widget

    def continue_last_reply(self) -> MessageWidget:
        """Stream more text onto the end of the last message (continuing a reply)."""
        widget = self.messages[-1]
        widget.set_footer(self.tr("Continuing…"))
        self._start_stream(widget)
        self._stream_text = widget.text
        return widget

    def append_reply(self, piece: str) -> None:
        if self._streaming is None:
            return
        self._stream_text += piece
        if not self._render_timer.isActive():
            self._render_timer.start()

    def end_reply(
        self, text: str | None, footer: str, state: str = "complete", details: Callable[[], str] | None = None
    ) -> None:
        """Finish the streaming message; ``text`` (the engine's final reply) replaces the buffer."""
        widget = self._streaming
        if widget is None:
            return
        self._render_timer.stop()
        self._streaming = None
        widget.state = state
        widget.set_text(self._stream_text if text is None else text)
        widget.set_footer(footer)
        widget.set_details(details)
        self._update_actions()

    # ------------------------------------------------------------------ following a reply

    def follow_reply(self, reply: Reply) -> None:
        """A reply started in the shown conversation: stream it into the last reply, or a new one
        (a new reply takes the place of a reply that failed or was stopped before it began)."""
        self._reply = reply
        self.needs_reply = False
        self.announcer.started()
        if reply.kind is ReplyKind.CONTINUE:
            self.continue_last_reply()
        else:
            self.restart_last_reply()

    def reply_grew(self, reply: Reply, piece: str) -> None:
        if reply is self._reply:
            self.append_reply(piece)
            self.announcer.grew(self._stream_text)

    def reply_stepped(self, reply: Reply) -> None:
        """A tool step of the followed reply began or ended."""
        if reply is self._reply and self._streaming is not None:
            self._streaming.set_steps(reply.steps)

    def ask(self) -> None:
        """The streaming reply asks whether a tool may act: its Yes and No."""
        if self._streaming is not None:
            self._render_stream()  # the question's words first
            self._streaming.ask()

    def close_question(self) -> None:
        for widget in self.messages:
            widget.close_question()

    def reply_ended(self, reply: Reply) -> None:
        """Show the reply as its message now is, and how it ended when that was not its own end."""
        if reply is not self._reply:
            return
        self._reply = None
        message = reply.message
        self.close_question()
        if self._streaming is not None:
            self._streaming.set_steps(message_steps(message) if message is not None else reply.steps)
            self._streaming.set_sources(*message_sources(message) if message is not None else ([], False))
        if reply.ending is Ending.FAILED:
            what = (self.tr("Cut short: {error}") if reply.kept else self.tr("No reply: {error}")).format(
                error=reply.error
            )
            self.end_reply(message.content if message else "", f"⚠ {what}", message.state if message else "complete")
            self.announcer.ended(message.content if message else "", what)
        elif message is None:
            stopped = self.tr("Stopped before the reply began")
            self.end_reply("", stopped)
            self.announcer.ended("", stopped)
        else:
            footer = self.reply_footer(message.stats, message.state)
            self.end_reply(message.content, footer, message.state, turn_details(message))
            self.announcer.ended(message.content, self.tr("Stopped.") if message.state == "stopped" else "")
        self.set_needs_reply(reply.conversation.needs_reply)

    def _start_stream(self, widget: MessageWidget) -> None:
        self._render_timer.setInterval(RENDER_INTERVAL_MS)
        self._cpu_mark = time.thread_time()
        self._streaming = widget
        self._stream_text = ""
        self._follow = True
        self._update_actions()

    def _render_stream(self) -> None:
        if self._streaming is not None:
            self.render_count += 1
            self._streaming.stream_text(self._stream_text)
            self._streaming.set_footer("")
            spent_ms = (time.thread_time() - self._cpu_mark) * 1000  # this thread's, since the last render
            self._cpu_mark = time.thread_time()
            wait_ms = int(spent_ms / UI_SHARE)
            self._render_timer.setInterval(min(MAX_RENDER_INTERVAL_MS, max(RENDER_INTERVAL_MS, wait_ms)))

    def _update_actions(self) -> None:
        for widget in self.messages:
            widget.set_actions(widget is self.messages[-1] and self._streaming is None, self.needs_reply)
