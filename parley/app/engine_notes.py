"""The engine's messages in the user's language.

The engine is Qt-free and writes English; a message it builds from a template is a
``parley.engine.notes.Note``, which keeps the template and its values.  ``said`` translates the
template through Qt's translations (context ``EngineNotes``; ``packaging/translations.py``
collects the templates into the .ts files), then fills it, translating a value that is itself
a note.  Anything else (a message not yet built from a template, an error of another library)
is shown as it is.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from ..engine.notes import Note

CONTEXT = "EngineNotes"


def said(message: object) -> str:
    """``message`` (an exception or a text) as the user reads it: an engine note translated."""
    if isinstance(message, BaseException):
        text = message.args[0] if len(message.args) == 1 and isinstance(message.args[0], Note) else str(message)
    else:
        text = message if isinstance(message, str) else str(message)
    if not isinstance(text, Note):
        return text
    values = {name: said(value) if isinstance(value, Note) else value for name, value in text.values.items()}
    return QCoreApplication.translate(CONTEXT, text.template).format(**values)
