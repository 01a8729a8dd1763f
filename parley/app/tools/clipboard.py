"""The clipboard as a read-only tool.  Qt's clipboard is the UI thread's alone, and a tool runs
on the chat thread: the read is asked of the UI thread through a queued signal and waited for."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QGuiApplication

from parley.engine.backend.cancel import CancelFlag
from parley.engine.tools.builtin import cues
from parley.engine.tools.tool import ToolResult, ToolSpec

WAIT_S = 3.0  # the UI thread answers within a frame; a window stuck longer is not waited for
MAX_CHARS = 20_000  # read of the clipboard (the toolbox cuts what the model reads further)


class ClipboardTool(QObject):
    """``read_clipboard``: the text the user copied last.  Made on the UI thread."""

    _wanted = Signal(object)  # a request (its event and box), answered on the UI thread

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._wanted.connect(self._read, Qt.ConnectionType.QueuedConnection)
        self._spec = ToolSpec(
            name="read_clipboard",
            description="Read the text the user copied to the clipboard, when they ask about what they copied.",
            parameters={"type": "object", "properties": {}},
            read_only=True,
            title="Read the clipboard",
        )

    @property
    def spec(self) -> ToolSpec:
        return self._spec

    def describe(self, arguments: Mapping[str, Any]) -> str:
        return "read the clipboard"

    def relevance(self, request: str) -> float:
        """Shown to the model only when the request is about what was copied (``cues``)."""
        return cues.read_clipboard(request)

    def run(self, arguments: Mapping[str, Any], cancel: CancelFlag) -> ToolResult:
        box: dict[str, str] = {}
        done = threading.Event()
        self._wanted.emit((done, box))
        if not done.wait(WAIT_S):
            return ToolResult.error("the clipboard could not be read (the window did not answer)")
        text = box.get("text", "")
        if not text.strip():
            return ToolResult("The clipboard holds no text.", "the clipboard is empty")
        cut = text[:MAX_CHARS]
        note = f"\n[... {len(text) - MAX_CHARS:,} more characters]" if len(text) > MAX_CHARS else ""
        return ToolResult(f"The clipboard holds:\n{cut}{note}", f"read {len(text):,} characters from the clipboard")

    def _read(self, request: tuple[threading.Event, dict[str, str]]) -> None:
        done, box = request
        clipboard = QGuiApplication.clipboard()
        box["text"] = clipboard.text() if clipboard is not None else ""
        done.set()
