"""Another application's text editor, for typing tests: run as its own process on an X server.

``python -m tests.support.editor STATE.json CLIPBOARD [terminal]`` opens a plain text editor titled
``parley-test-editor``, puts CLIPBOARD on the clipboard (the user's own clipboard, which
dictation must leave as it was), prints its X window id, and then keeps STATE.json up to date
with ``{"text": ..., "clipboard": ..., "changed_at": ...}``: what has been typed into it, what the
clipboard holds now (whoever owns it), and when the text last changed (``time.time()``).

With ``terminal`` it takes keys as a terminal emulator does: Ctrl+Shift+V pastes the clipboard,
Ctrl+V pastes nothing (a terminal passes it on to the program as a control character).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QPlainTextEdit

TITLE = "parley-test-editor"


class TerminalKeys(QObject):
    """A terminal's paste keys: Ctrl+Shift+V pastes, Ctrl+V does nothing here."""

    def __init__(self, editor: QPlainTextEdit) -> None:
        super().__init__(editor)
        self.editor = editor

    def eventFilter(self, _watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() != QEvent.Type.KeyPress or not isinstance(event, QKeyEvent) or event.key() != Qt.Key.Key_V:
            return False
        mods = event.modifiers()
        if not mods & Qt.KeyboardModifier.ControlModifier:
            return False
        if mods & Qt.KeyboardModifier.ShiftModifier:
            self.editor.insertPlainText(QApplication.clipboard().text())
        return True


def main() -> int:
    state_path, clipboard_text = Path(sys.argv[1]), sys.argv[2]
    app = QApplication([sys.argv[0], "-platform", "xcb"])
    editor = QPlainTextEdit()
    editor.setWindowTitle(TITLE)
    editor.resize(640, 360)
    if sys.argv[3:] == ["terminal"]:
        editor.installEventFilter(TerminalKeys(editor))
    editor.show()
    app.clipboard().setText(clipboard_text)
    last: dict[str, object] = {}
    changed_at = [time.time()]
    editor.textChanged.connect(lambda: changed_at.__setitem__(0, time.time()))

    def save() -> None:
        state = {"text": editor.toPlainText(), "clipboard": app.clipboard().text(), "changed_at": changed_at[0]}
        if state != last:
            last.update(state)
            partial = state_path.with_suffix(".partial")
            partial.write_text(json.dumps(state), "utf-8")
            os.replace(partial, state_path)

    timer = QTimer(interval=50)
    timer.timeout.connect(save)
    timer.start()
    print(int(editor.winId()), flush=True)
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
