"""The conversations: the one that is open, the sidebar's list, and saving them.

The open conversation lives in memory (``current``) and is written to the store after each
message; when a write fails (disk full, read-only) the user is told, nothing is lost from the
window, and the unsaved messages are written with the next successful save (conversations left
with unsaved messages are remembered in ``_unsaved`` until then).

``leaving`` is emitted before another conversation is shown, so that a reply streaming into
the open one can stop first (it still saves itself).

What the book shows goes to a ``BookView`` (the main window); what the user asks of it (new,
open, rename, delete, search, export) comes from the controller, which connects the window.
"""

from __future__ import annotations

import logging
from typing import Protocol

from PySide6.QtCore import QObject, Signal

from ..signals import emit
from ..status import StatusPresenter
from .conversation import NEW_TITLE, Conversation, ConversationSummary, Message, title_from
from .store import Store, StoreError

log = logging.getLogger("parley.book")


class BookView(Protocol):
    """Where the conversations are shown: the open one's messages and title, the sidebar's list."""

    def show_messages(self, conversation: Conversation) -> None: ...
    def show_user_message(self, text: str) -> None: ...
    def show_title(self, title: str) -> None: ...
    def set_conversations(self, conversations: list[ConversationSummary], current_id: int | None) -> None: ...


class ConversationBook(QObject):
    leaving = Signal()  # another conversation is about to be shown
    shown = Signal(object)  # the conversation now shown

    def __init__(self, store: Store, view: BookView, status: StatusPresenter, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.view = view
        self.status = status
        self.current = Conversation(None, NEW_TITLE)
        self._unsaved: list[Conversation] = []
        self._search_text = ""

    def open_latest(self) -> None:
        """Show the most recent conversation, or a new one when there is none."""
        conversations = self._list()
        if conversations:
            self.open(conversations[0].id)
        else:
            self.new()

    # ------------------------------------------------------------------ the user's actions

    def new(self) -> None:
        if self.current.id is not None and not self.current.messages:
            self._refresh_sidebar()  # the open conversation is already a fresh one
            return
        self._leave()
        conversation = Conversation(None, NEW_TITLE)
        try:
            conversation.id = self.store.create_conversation(NEW_TITLE).id
        except StoreError as exc:
            self._failed(exc)
        self._show(conversation)

    def open(self, conversation_id: int) -> None:
        if conversation_id == self.current.id:
            return
        try:
            conversation = self.store.load_conversation(conversation_id)
        except StoreError as exc:
            self._failed(exc)
            self._refresh_sidebar()
            return
        self._leave()
        self._show(conversation)

    def rename(self, conversation_id: int, title: str) -> None:
        try:
            self.store.rename_conversation(conversation_id, title)
        except StoreError as exc:
            self._failed(exc)
        else:
            if conversation_id == self.current.id:
                self.current.title = title
                self.current.title_dirty = False
                self.view.show_title(title)
        self._refresh_sidebar()

    def delete(self, conversation_id: int) -> None:
        try:
            self.store.delete_conversation(conversation_id)
        except StoreError as exc:
            self._failed(exc)
            return
        if conversation_id != self.current.id:
            self._refresh_sidebar()
            return
        self.current.deleted = True
        emit(self.leaving)
        self.current = Conversation(None, NEW_TITLE)  # nothing left to save of the deleted one
        self.open_latest()

    def search(self, text: str) -> None:
        self._search_text = text
        self._refresh_sidebar()

    def export(self, conversation_id: int, fmt: str, path: str) -> None:
        self.save()
        try:
            if fmt == "json":
                self.store.export_json(conversation_id, path)
            else:
                self.store.export_markdown(conversation_id, path)
        except StoreError as exc:
            self.status.notice(str(exc))
        else:
            self.status.say(f"Exported to {path}")

    # ------------------------------------------------------------------ messages

    def add_user_message(self, text: str) -> Message:
        """Append the user's message to the open conversation, show it, title the conversation
        after it when it is the first, and save."""
        conversation = self.current
        message = Message("user", text)
        conversation.messages.append(message)
        self.view.show_user_message(text)
        if conversation.title == NEW_TITLE and sum(m.role == "user" for m in conversation.messages) == 1:
            conversation.title = title_from(text)
            conversation.title_dirty = True
            self.view.show_title(conversation.title)
        self.save()
        return message

    def take_back(self, message: Message) -> None:
        """Remove the user's ``message`` from the open conversation, with what follows it (the
        reply to it), from the window and the store: its words are sent again, as the start of
        a longer message.  A conversation titled after it alone is titled after that one."""
        conversation = self.current
        at = conversation.messages.index(message)
        gone = conversation.messages[at:]
        del conversation.messages[at:]
        conversation.taken_back += [m.id for m in gone if m.id is not None]
        if not any(m.role == "user" for m in conversation.messages) and conversation.title == title_from(
            message.content
        ):
            conversation.title = NEW_TITLE
            conversation.title_dirty = True
        self.view.show_messages(conversation)  # and the title
        self.save()  # a write that fails is tried again with the next one

    def save(self, conversation: Conversation | None = None, *, checkpoint: bool = False) -> bool:
        """Write whatever the store lacks of ``conversation`` (default: the open one) and of
        conversations whose earlier saves failed.  False, with the user told, on failure.
        ``checkpoint``: a reply being written; the sidebar is left as it is."""
        targets = [c for c in [*self._unsaved, conversation or self.current] if not c.deleted]
        try:
            for c in dict.fromkeys(targets):
                self.store.write(c)
        except StoreError as exc:
            self._failed(exc, unsaved=True)
            return False
        self._unsaved = []
        if not checkpoint and (conversation is None or conversation is self.current):
            self._refresh_sidebar()
        return True

    # ------------------------------------------------------------------ internals

    def _leave(self) -> None:
        """Let a reply into the open conversation stop (it still saves itself), then save it."""
        emit(self.leaving)
        old = self.current
        if not self.save(old) and not old.deleted and old not in self._unsaved:
            self._unsaved.append(old)

    def _show(self, conversation: Conversation) -> None:
        self.current = conversation
        self.view.show_messages(conversation)
        self._refresh_sidebar()
        emit(self.shown, conversation)

    def _list(self) -> list[ConversationSummary]:
        try:
            return self.store.search(self._search_text)
        except StoreError as exc:
            self._failed(exc)
            return []

    def _refresh_sidebar(self) -> None:
        self.view.set_conversations(self._list(), self.current.id)

    def _failed(self, exc: StoreError, unsaved: bool = False) -> None:
        log.warning("store: %s", exc)
        self.status.notice(
            f"{exc} The conversation stays open here; Parley saves it again with the next message."
            if unsaved
            else str(exc)
        )
