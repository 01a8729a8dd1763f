"""Starting the desktop application, in steps that other entry points can reuse.

``run_app`` = ``create_app`` + ``create_window`` (shown at once) + ``start_controller`` (models
load in the background after the window is on screen) + the event loop.  ``--self-test`` runs
``parley.app.selftest`` instead.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Sequence
from importlib import resources

from PySide6.QtCore import QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from .controller import Controller
from .engines import Engines, LocalEngines
from .settings import load_settings
from .store import Store, StoreError
from .ui.main_window import MainWindow
from .ui.theme import apply_theme

log = logging.getLogger("parley.app")


def create_app(argv: Sequence[str]) -> QApplication:
    app = QApplication.instance() or QApplication(list(argv))
    app.setApplicationName("Parley")
    app.setOrganizationName("Parley")
    app.setDesktopFileName("parley")
    app.setWindowIcon(QIcon(str(resources.files("parley").joinpath("resources/icons/parley.svg"))))
    apply_theme(app)
    return app


def create_window() -> MainWindow:
    window = MainWindow()
    window.show()
    return window


def start_controller(window: MainWindow, engines: Engines | None = None) -> Controller:
    """Open settings and conversations, and start loading the models once the window is painted.

    An unusable conversation database does not stop the app: conversations are then kept in
    memory for this session and the user is told why.
    """
    loaded = load_settings()
    problems = list(loaded.warnings)
    try:
        store = Store.open_default()
    except StoreError as exc:
        problems.append(f"{exc} Conversations will not be kept after Parley closes.")
        store = Store(":memory:")
    controller = Controller(window, engines or LocalEngines(), loaded.settings, store,
                            settings_warnings=problems)
    QTimer.singleShot(0, controller.start)
    return controller


def run_app(argv: Sequence[str]) -> int:
    if "--self-test" in argv[1:]:
        from .selftest import run_self_test
        logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
        return run_self_test(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    app = create_app(argv)
    window = create_window()
    controller = start_controller(window)
    code = app.exec()
    if controller.stopped_cleanly is False:
        # An engine thread is still inside a native call (e.g. a model that was still
        # loading); the conversation is saved, so leave now rather than wait for it.
        logging.shutdown()
        os._exit(code)
    return code


if __name__ == "__main__":
    sys.exit(run_app(sys.argv))
