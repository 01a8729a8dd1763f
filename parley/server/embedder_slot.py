"""The server's embedding model: the one it was given, or one made from the chat model's weights."""

from __future__ import annotations

import threading

from ..engine.chat.embeddings import Embedder
from ..engine.chat.model import ChatModel
from ..engine.modelfiles.gguf_file import GGUFInfo


class EmbedderSlot:
    """The server's embedder: the one it was given, or one made from the chat model's weights
    when first asked for (on the worker's thread)."""

    def __init__(self, given: Embedder | None, chat: ChatModel | None) -> None:
        assert given is not None or chat is not None
        self._given, self._chat = given, chat
        self._made: Embedder | None = None
        self._lock = threading.Lock()

    @property
    def dedicated(self) -> bool:
        """Whether it is an embedding model of its own (not the chat model's weights)."""
        return self._given is not None

    @property
    def name(self) -> str:
        return self._given.name if self._given is not None else self._chat.path.stem  # type: ignore[union-attr]

    @property
    def info(self) -> GGUFInfo:
        return self._given.info if self._given is not None else self._chat.info  # type: ignore[union-attr]

    def get(self) -> Embedder:
        if self._given is not None:
            return self._given
        with self._lock:
            if self._made is None:
                assert self._chat is not None
                self._made = Embedder(self._chat)
            return self._made

    def close(self) -> None:
        """Free the embedder made here (a given one stays its owner's)."""
        with self._lock:
            if self._made is not None:
                self._made.close()
                self._made = None
