"""The main window: conversation sidebar, conversation view, input bar and status bar.

The window only shows things and reports what the user asked for through its signals; the
controller decides what happens.  Every action is in a menu, with its shortcut where it has one;
what changes without the focus moving (a notice, a recording) is announced to screen readers
(``announcements``).  A page (the first-start page) can take the conversation's
place (``show_page``); the conversation comes back when the user sends or talks, or when the
page is done (``show_conversation``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import cast

from PySide6.QtCore import QDateTime, QLocale, QSize, Qt, Signal, SignalInstance
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..conversations.conversation import Conversation, ConversationSummary
from ..signals import emit
from .announcements import announce
from .conversation_view import ConversationView, message_sources, message_steps, turn_details
from .documents_page import dropped_paths
from .input_bar import InputBar

_ID_ROLE = Qt.ItemDataRole.UserRole
_TITLE_ROLE = Qt.ItemDataRole.UserRole + 1


class NoticeBar(QFrame):
    """A dismissible line above the conversation for problems that need more than the status bar."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, objectName="Notice")
        self.setAccessibleName(self.tr("Notice"))
        self.label = QLabel(
            wordWrap=True,
            textInteractionFlags=Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.TextSelectableByKeyboard,
        )
        self.close_button = close = QToolButton(text="✕", objectName="MessageAction", toolTip=self.tr("Dismiss"))
        close.setAccessibleName(self.tr("Dismiss the notice"))
        close.clicked.connect(self.hide)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(12, 8, 8, 8)
        layout.addWidget(self.label, 1)
        layout.addWidget(close, 0, Qt.AlignmentFlag.AlignTop)
        self.hide()

    def show_text(self, text: str) -> None:
        current = self.label.text()
        if self.isVisible() and current and text not in current.split("\n"):
            text = f"{current}\n{text}"
        self.label.setText(text)
        self.show()
        announce(self, text, urgent=True)


class MainWindow(QMainWindow):
    new_conversation_requested = Signal()
    conversation_selected = Signal(int)
    rename_requested = Signal(int, str)
    delete_requested = Signal(int)
    search_changed = Signal(str)
    export_requested = Signal(int, str, str)  # conversation id, "markdown" | "json", path
    settings_requested = Signal()
    dictation_history_requested = Signal()  # File > Dictation history
    recommendations_requested = Signal()  # Models > Recommended for this computer
    documents_requested = Signal()  # File > Documents
    files_dropped = Signal(list)  # local files or folders dropped on the window: to add to the documents
    closing = Signal()  # the window closes for good: Parley ends
    hidden_to_tray = Signal()  # closing only hid the window (``hide_on_close``)

    def __init__(self) -> None:
        super().__init__()
        self.setWindowTitle("Parley")
        self.resize(1100, 760)
        self.setMinimumSize(QSize(720, 480))
        self._filling_list = False
        self.hide_on_close = False  # set while a tray icon keeps Parley reachable
        self._quitting = False

        self.conversation_view = ConversationView()
        self.input_bar = InputBar()
        self.notice = NoticeBar()
        content = QWidget()
        content_layout = QVBoxLayout(content)
        content_layout.setContentsMargins(0, 0, 0, 0)
        content_layout.setSpacing(0)
        notice_row = QVBoxLayout()
        notice_row.setContentsMargins(16, 10, 16, 0)
        notice_row.addWidget(self.notice)
        content_layout.addLayout(notice_row)
        self.pages = QStackedWidget()
        self.pages.addWidget(self.conversation_view)
        content_layout.addWidget(self.pages, 1)
        content_layout.addWidget(self.input_bar)
        self.input_bar.send_requested.connect(self.show_conversation)
        self.input_bar.talk_pressed.connect(self.show_conversation)

        splitter = QSplitter()
        splitter.addWidget(self._make_sidebar())
        splitter.addWidget(content)
        splitter.setStretchFactor(1, 1)
        em = self.fontMetrics().averageCharWidth()  # the sidebar grows with the text (a large-text setting)
        splitter.setSizes([max(260, 26 * em), 840])
        splitter.setChildrenCollapsible(False)
        splitter.setHandleWidth(1)
        self.setCentralWidget(splitter)
        self.setAcceptDrops(True)  # folders and files dropped anywhere join the documents
        self._make_menus()
        self._set_tab_order()
        self.conversation_view.setFocus()  # where Space talks and the arrow keys scroll

        self.device_label = QLabel(self.tr("Device: …"))
        self.models_label = QLabel(self.tr("Loading models…"))
        self.stats_label = QLabel()
        self.server_label = QLabel()
        self.server_label.hide()
        for label in (self.server_label, self.stats_label, self.models_label, self.device_label):
            self.statusBar().addPermanentWidget(label)
        self.statusBar().setSizeGripEnabled(False)

    # ------------------------------------------------------------------ construction

    def _make_sidebar(self) -> QWidget:
        sidebar = QWidget(objectName="Sidebar")
        sidebar.setAttribute(Qt.WidgetAttribute.WA_StyledBackground)
        sidebar.setAccessibleName(self.tr("Conversations"))
        title = QLabel("Parley", objectName="SidebarTitle")
        self.new_button = QPushButton(self.tr("+  New chat"), objectName="PrimaryButton")
        self.new_button.setAccessibleName(self.tr("New chat"))
        self.new_button.clicked.connect(self.new_conversation_requested)
        self.search_field = QLineEdit(placeholderText=self.tr("Search conversations"), clearButtonEnabled=True)
        self.search_field.setAccessibleName(self.tr("Search conversations"))
        self.search_field.setAccessibleDescription(
            self.tr("Shows the conversations whose title or messages hold the words")
        )
        for clear in self.search_field.findChildren(QAction):  # the clear button's action
            clear.setText(self.tr("Clear the search"))
            clear.setToolTip(self.tr("Clear the search"))
        self.search_field.textChanged.connect(self.search_changed)
        self.conversation_list = QListWidget()
        self.conversation_list.setAccessibleName(self.tr("Conversations"))
        self.conversation_list.setAccessibleDescription(
            self.tr("F2 renames the selected conversation, Delete deletes it")
        )
        self.conversation_list.setUniformItemSizes(True)
        self.conversation_list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.conversation_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.conversation_list.setEditTriggers(QListWidget.EditTrigger.EditKeyPressed)
        self.conversation_list.currentItemChanged.connect(self._on_current_item)
        self.conversation_list.itemChanged.connect(self._on_item_edited)
        self.rename_button = QPushButton(self.tr("Rename"))
        self.rename_button.setAccessibleDescription(self.tr("Rename the selected conversation"))
        self.rename_button.clicked.connect(self.start_rename)
        self.delete_button = QPushButton(self.tr("Delete"))
        self.delete_button.setAccessibleDescription(self.tr("Delete the selected conversation"))
        self.delete_button.clicked.connect(self.confirm_delete)
        delete_key = QAction(self.conversation_list, shortcut=QKeySequence(QKeySequence.StandardKey.Delete))
        delete_key.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        delete_key.triggered.connect(self.confirm_delete)
        self.conversation_list.addAction(delete_key)
        buttons = QHBoxLayout()
        buttons.addWidget(self.rename_button)
        buttons.addWidget(self.delete_button)
        layout = QVBoxLayout(sidebar)
        layout.setContentsMargins(12, 14, 12, 12)
        layout.setSpacing(8)
        layout.addWidget(title)
        layout.addWidget(self.new_button)
        layout.addWidget(self.search_field)
        layout.addWidget(self.conversation_list, 1)
        layout.addLayout(buttons)
        self._update_sidebar_buttons()
        return sidebar

    def _make_menus(self) -> None:
        """Every action of the window, each with its shortcut shown beside it."""
        file_menu = self.menuBar().addMenu(self.tr("&File"))
        self._action(file_menu, self.tr("&New chat"), self.new_conversation_requested, QKeySequence.StandardKey.New)
        file_menu.addSeparator()
        self.export_markdown_action = self._action(
            file_menu, self.tr("Export as &Markdown…"), lambda: self._ask_export("markdown"), None, "Ctrl+E"
        )
        self.export_json_action = self._action(
            file_menu, self.tr("Export as &JSON…"), lambda: self._ask_export("json"), None, "Ctrl+Shift+E"
        )
        file_menu.addSeparator()
        self._action(file_menu, self.tr("D&ocuments…"), self.documents_requested, None, "Ctrl+Shift+D")
        self._action(file_menu, self.tr("&Dictation history…"), self.dictation_history_requested)
        self._action(
            file_menu, self.tr("&Settings…"), self.settings_requested, QKeySequence.StandardKey.Preferences, "Ctrl+,"
        )
        file_menu.addSeparator()
        self._action(file_menu, self.tr("&Quit"), self.quit, QKeySequence.StandardKey.Quit, "Ctrl+Q")
        chat_menu = self.menuBar().addMenu(self.tr("&Conversation"))
        bar = self.input_bar
        self.talk_action = self._action(
            chat_menu, self.tr("&Talk (hold; or press to start and again to stop)"), self._toggle_talk
        )
        self.hands_free_action = QAction(self.tr("&Hands-free"), self, checkable=True, enabled=False)
        self.hands_free_action.setShortcut(QKeySequence("Ctrl+Shift+H"))
        self.hands_free_action.triggered.connect(bar.hands_free_button.setChecked)  # which says it, as a click does
        bar.hands_free_button.toggled.connect(self.hands_free_action.setChecked)
        bar.hands_free_shown.connect(self._show_hands_free)
        chat_menu.addAction(self.hands_free_action)
        self.stop_action = self._action(chat_menu, self.tr("&Stop the reply"), bar.stop_requested, None, "Esc")
        self.stop_action.setEnabled(False)
        bar.busy_changed.connect(self.stop_action.setEnabled)
        chat_menu.addSeparator()
        self._action(chat_menu, self.tr("&Write a message"), self.focus_message, None, "Ctrl+L")
        self._action(chat_menu, self.tr("Read the &last reply"), self.focus_last_reply, None, "Ctrl+Shift+R")
        self._action(
            chat_menu, self.tr("&Search conversations"), self.focus_search, QKeySequence.StandardKey.Find, "Ctrl+F"
        )
        self._action(chat_menu, self.tr("Conversation &list"), self.conversation_list.setFocus, None, "Ctrl+Shift+L")
        chat_menu.addSeparator()
        self._action(chat_menu, self.tr("&Rename"), self.start_rename, None, "F2")
        self._action(chat_menu, self.tr("&Delete…"), self.confirm_delete)
        models_menu = self.menuBar().addMenu(self.tr("&Models"))
        self._action(models_menu, self.tr("&Recommended for this computer"), self.recommendations_requested)
        self._action(models_menu, self.tr("Model &library…"), self.settings_requested)

    def _set_tab_order(self) -> None:
        """Tab goes as the eye reads: the sidebar, the conversation, then the input bar."""
        bar = self.input_bar
        chain = [
            self.new_button,
            self.search_field,
            self.conversation_list,
            self.rename_button,
            self.delete_button,
            self.notice.close_button,
            self.conversation_view,
            bar.talk_button,
            bar.hands_free_button,
            bar.edit,
            bar.documents_button,
            bar.send_button,
        ]
        for first, second in zip(chain, chain[1:], strict=False):
            QWidget.setTabOrder(first, second)

    def set_talk_shortcut(self, shortcut: str) -> None:
        """The push-to-talk key, shown beside Talk in the menu (the key itself is held:
        ``PushToTalkKeys`` handles it before any shortcut)."""
        self.talk_action.setShortcut(QKeySequence(shortcut, QKeySequence.SequenceFormat.PortableText))

    def _show_hands_free(self, active: bool, available: bool) -> None:
        self.hands_free_action.setChecked(active)
        self.hands_free_action.setEnabled(available or active)

    def _toggle_talk(self) -> None:
        """Talk from the menu: the first press starts a take, the next one ends it."""
        bar = self.input_bar
        emit(bar.talk_released if bar.recording else bar.talk_pressed)

    def focus_message(self) -> None:
        self.show_conversation()
        self.input_bar.edit.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def focus_search(self) -> None:
        self.search_field.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search_field.selectAll()

    def focus_last_reply(self) -> None:
        """Put the focus on the last reply, which a screen reader then reads."""
        self.show_conversation()
        replies = [m for m in self.conversation_view.messages if m.role == "assistant"]
        if replies:
            replies[-1].focus_text()
        else:
            announce(self, self.tr("No reply yet."))

    def _action(
        self,
        menu: QMenu,
        text: str,
        slot: Callable[[], object] | SignalInstance,
        standard: QKeySequence.StandardKey | None = None,
        fallback: str | None = None,
    ) -> QAction:
        action = QAction(text, self)
        shortcuts = QKeySequence.keyBindings(standard) if standard is not None else []
        if not shortcuts and fallback:
            shortcuts = [QKeySequence(fallback)]
        action.setShortcuts(shortcuts)
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    # ------------------------------------------------------------------ sidebar

    @property
    def current_conversation_id(self) -> int | None:
        item = self.conversation_list.currentItem()
        return cast(int, item.data(_ID_ROLE)) if item is not None else None  # set_conversations stores an int

    def set_conversations(self, conversations: list[ConversationSummary], current_id: int | None) -> None:
        """Show ``conversations`` (newest first) and highlight ``current_id`` without reporting it."""
        self._filling_list = True
        try:
            self.conversation_list.clear()
            for conversation in conversations:
                item = QListWidgetItem(conversation.title)
                item.setData(_ID_ROLE, conversation.id)
                item.setData(_TITLE_ROLE, conversation.title)
                item.setToolTip(
                    self.tr("{title}\nLast message {age}").format(
                        title=conversation.title, age=self._age(conversation.updated)
                    )
                )
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
                self.conversation_list.addItem(item)
                if conversation.id == current_id:
                    self.conversation_list.setCurrentItem(item)
        finally:
            self._filling_list = False
        self._update_sidebar_buttons()

    def start_rename(self) -> None:
        item = self.conversation_list.currentItem()
        if item is not None:
            self.conversation_list.editItem(item)

    def confirm_delete(self) -> None:
        item = self.conversation_list.currentItem()
        if item is None:
            return
        answer = QMessageBox.question(
            self,
            self.tr("Delete conversation"),
            self.tr("Delete “{title}” and all its messages?").format(title=item.data(_TITLE_ROLE)),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel,
        )
        if answer == QMessageBox.StandardButton.Yes:
            emit(self.delete_requested, item.data(_ID_ROLE))

    def _on_current_item(self, item: QListWidgetItem | None, _previous: QListWidgetItem | None) -> None:
        self._update_sidebar_buttons()
        if item is not None and not self._filling_list:
            emit(self.conversation_selected, item.data(_ID_ROLE))

    def _on_item_edited(self, item: QListWidgetItem) -> None:
        if self._filling_list:
            return
        title, old = item.text().strip(), item.data(_TITLE_ROLE)
        if not title or title == old:
            self._filling_list = True
            item.setText(old)
            self._filling_list = False
            return
        item.setData(_TITLE_ROLE, title)
        emit(self.rename_requested, item.data(_ID_ROLE), title)

    def _update_sidebar_buttons(self) -> None:
        has_current = self.conversation_list.currentItem() is not None
        self.rename_button.setEnabled(has_current)
        self.delete_button.setEnabled(has_current)

    def _ask_export(self, fmt: str) -> None:
        conversation_id = self.current_conversation_id
        if conversation_id is None:
            self.show_status(self.tr("Choose a conversation to export first."))
            return
        suffix, kind = (".md", self.tr("Markdown (*.md)")) if fmt == "markdown" else (".json", self.tr("JSON (*.json)"))
        title = self.conversation_list.currentItem().data(_TITLE_ROLE)
        safe = "".join(c if c.isalnum() or c in " -_" else "_" for c in title).strip() or "conversation"
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export conversation"), safe + suffix, kind)
        if path:
            emit(self.export_requested, conversation_id, fmt, path)

    # ------------------------------------------------------------------ pages

    def show_page(self, page: QWidget) -> None:
        """Show ``page`` where the conversation is (added the first time)."""
        if self.pages.indexOf(page) < 0:
            self.pages.addWidget(page)
        self.pages.setCurrentWidget(page)

    def show_conversation(self) -> None:
        self.pages.setCurrentWidget(self.conversation_view)

    def show_messages(self, conversation: Conversation) -> None:
        """Show ``conversation``'s messages (in place of whatever was shown) and its title."""
        view = self.conversation_view
        view.clear()
        for message in conversation.messages:
            view.add_message(
                message.role,
                message.content,
                view.reply_footer(message.stats, message.state) if message.role == "assistant" else "",
                state=message.state,
                details=turn_details(message),
                steps=message_steps(message),
                sources=message_sources(message),
            )
        view.set_needs_reply(conversation.needs_reply)
        self.show_title(conversation.title)

    def show_user_message(self, text: str) -> None:
        self.conversation_view.add_message("user", text)

    def show_title(self, title: str) -> None:
        """The open conversation's title, as the window's."""
        self.setWindowTitle(self.tr("{title} — Parley").format(title=title))

    # ------------------------------------------------------------------ status

    def show_status(self, text: str, timeout_ms: int = 8000) -> None:
        self.statusBar().showMessage(text, timeout_ms)

    def announce(self, text: str, urgent: bool = False) -> None:
        """Tell a screen reader ``text`` (something the status bar says that the user must hear)."""
        announce(self, text, urgent=urgent)

    def show_notice(self, text: str) -> None:
        self.notice.show_text(text)

    def ask_attention(self) -> None:
        """Something rang: the window asks for the user's attention (the taskbar flashes)."""
        QApplication.alert(self)

    def set_device_text(self, text: str, tooltip: str = "") -> None:
        self.device_label.setText(text)
        self.device_label.setToolTip(tooltip)

    def set_models_text(self, text: str, tooltip: str = "") -> None:
        self.models_label.setText(text)
        self.models_label.setToolTip(tooltip)

    def set_server_text(self, text: str, tooltip: str = "") -> None:
        """What other apps are served ("" hides the label)."""
        self.server_label.setText(text)
        self.server_label.setToolTip(tooltip)
        self.server_label.setVisible(bool(text))

    def set_stats_text(self, text: str, tooltip: str = "") -> None:
        self.stats_label.setText(text)
        self.stats_label.setToolTip(tooltip)

    def set_talk_available(self, available: bool, reason: str = "") -> None:
        self.input_bar.set_talk_available(available, reason)

    def set_send_available(self, available: bool, reason: str = "") -> None:
        self.input_bar.set_send_available(available, reason)

    def set_hint(self, text: str) -> None:
        """The hint the empty conversation shows: how to talk or type now."""
        self.conversation_view.set_hint(text)

    def bring_forward(self) -> None:
        """Show the window in front of the others (from the tray, or a later launch)."""
        if self.isMinimized():
            self.showNormal()
        self.show()
        self.raise_()
        self.activateWindow()

    def quit(self) -> None:
        """Close for good, even when closing would only hide the window."""
        self._quitting = True
        self.close()

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if dropped_paths(event):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = dropped_paths(event)
        if paths:
            event.acceptProposedAction()
            emit(self.files_dropped, paths)

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.hide_on_close and not self._quitting:
            event.ignore()
            self.hide()
            emit(self.hidden_to_tray)
            return
        emit(self.closing)
        event.accept()

    def _age(self, timestamp: float) -> str:
        """How long ago ``timestamp`` was, in the interface's language and the locale's format."""
        seconds = time.time() - timestamp
        if seconds < 60:
            return self.tr("just now")
        if seconds < 3600:
            return self.tr("%Ln minute(s) ago", "", int(seconds // 60))
        when = QDateTime.fromSecsSinceEpoch(int(timestamp))
        return QLocale().toString(when, QLocale.FormatType.ShortFormat)
