"""``application()``: the running ``QApplication``, typed as one."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication


def application() -> QApplication | None:
    """The running application, None before one is created.

    ``QApplication.instance()`` is typed as its base ``QCoreApplication``; Parley only ever creates a
    ``QApplication`` (``bootstrap.create_app``), since it shows widgets."""
    app = QApplication.instance()
    assert app is None or isinstance(app, QApplication), f"not a QApplication: {type(app).__name__}"
    return app
