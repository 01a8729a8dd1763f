"""Answers from the user's own documents: collections added, indexed, chosen for a conversation,
and the sources of each answer shown and said.

1. The user adds folders or files: the Documents page's buttons, or dropped on the window (they
   join the documents, and the open conversation answers from them);
2. they are indexed in the background: the page shows how far, the status bar says it, the end is
   announced (with the files that could not be read);
3. the Documents button beside the message chooses the collections the open conversation answers
   from (each conversation keeps its own choice);
4. a reply in such a conversation is grounded on the chat thread (``conversations.replies``);
   when it ends, its sources are links under it, and the voice says them after the answer
   ("From boiler notes, page 3.").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..conversations.conversation import Conversation
from ..conversations.reply_state import Reply
from ..documents.room import DocumentRoom, said_sources
from ..ui.documents_page import DocumentsPage
from ..ui.i18n import translate
from .parts import Parts


class AnsweringFromDocuments:
    def __init__(self, parts: Parts, room: DocumentRoom) -> None:
        self.room = room
        self.book = parts.book
        self.window = parts.window
        self.bar = parts.window.input_bar
        self.status = parts.status
        self.voice = parts.voice
        self.page: DocumentsPage | None = None  # made when first shown
        self._dropped_into: int | None = None  # the conversation dropped files go to
        # Its edges: the window's and the input bar's asks, the room's news, the sources of replies
        parts.window.documents_requested.connect(self.manage)
        parts.window.files_dropped.connect(self.dropped)
        self.bar.documents_page_requested.connect(self.manage)
        self.bar.documents_chosen.connect(self.chosen)
        room.changed.connect(self.changed)
        room.progress.connect(self.progressed)
        room.indexed.connect(self.indexed)
        room.problem.connect(self.status.notice)
        self.book.shown.connect(self.opened)
        parts.replies.sourced.connect(self.sourced)

    # ------------------------------------------------------------------ 1. adding

    def manage(self) -> None:
        """Show the Documents page."""
        self.window.show_page(self._page())

    def dropped(self, paths: list[str]) -> None:
        """Folders or files dropped on the window: each a collection of its own name, which the
        open conversation then answers from."""
        self._dropped_into = self.book.current.id
        names = [Path(p).stem if Path(p).is_file() else Path(p).name for p in paths]
        self.room.add([Path(p) for p in paths], then=lambda added: self._use_added(added))
        self.status.announce(translate("Documents", "Adding {names} to your documents").format(names=", ".join(names)))

    def add(self, paths: list[str], name: str) -> None:
        """Added on the Documents page, to collection ``name`` ("" for each one's own name)."""
        self.room.add([Path(p) for p in paths], name or None)

    def _use_added(self, names: list[str]) -> None:
        if self.book.current.id == self._dropped_into:
            chosen = self.room.used_by(self.book.current.id)
            self.room.use(self.book.current.id, chosen + [n for n in names if n not in chosen])

    # ------------------------------------------------------------------ 2. indexing

    def progressed(self, progress: Any) -> None:
        if self.page is not None:
            self.page.show_progress(progress)
        if progress.current:
            self.window.show_status(
                translate("Documents", "Reading your documents: {done} of {count}").format(
                    done=progress.done + 1, count=progress.to_do
                ),
                2000,
            )

    def indexed(self, summaries: list[Any]) -> None:
        if self.page is not None:
            self.page.show_progress(None)
        for summary in summaries:
            if summary.read:
                words = translate("Documents", "{collection}: %n file(s) read", "", summary.read).format(
                    collection=summary.collection
                )
                if summary.failed:
                    words += " " + translate("Documents", "(%n could not be read)", "", summary.failed)
                self.status.announce(words)

    def changed(self) -> None:
        """The collections, or the conversations' choices, changed."""
        if self.page is not None:
            self.page.show_collections(self.room.collections)
        self.opened(self.book.current)

    # ------------------------------------------------------------------ 3. choosing

    def opened(self, conversation: Conversation) -> None:
        self.bar.set_documents([c.name for c in self.room.collections], self.room.used_by(conversation.id))

    def chosen(self, names: list[str]) -> None:
        self.room.use(self.book.current.id, names)
        if names:
            words = translate("Documents", "This conversation answers from {names}").format(names=", ".join(names))
        else:
            words = translate("Documents", "This conversation answers from the model alone")
        self.status.announce(words)

    # ------------------------------------------------------------------ 4. the sources

    def sourced(self, _reply: Reply, sources: list[dict[str, str]]) -> None:
        """A reply from documents ended: the voice says its sources after it."""
        self.voice.add_to_reply(said_sources(sources))

    def _page(self) -> DocumentsPage:
        if self.page is None:
            page = self.page = DocumentsPage()
            page.add_requested.connect(self.add)
            page.remove_requested.connect(self.room.remove)
            page.update_requested.connect(lambda name: self.room.update(name or None))
            page.pause_toggled.connect(lambda paused: self.room.pause() if paused else self.room.resume())
            page.files_requested.connect(lambda name: self.room.files(name, lambda files: page.show_files(name, files)))
            page.back_requested.connect(self.window.show_conversation)
            page.show_collections(self.room.collections)
        return self.page
