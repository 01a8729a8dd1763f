"""Starting the desktop application, in steps that every entry point shares.

``parley`` (``main.run_app``), ``parley --self-test`` (``selftest``), the benchmark and the
tests all start the app with these: ``create_app``, a window, then ``start_controller``, which
opens the settings and the conversations and starts loading the models once the window is up.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import resources

from PySide6.QtCore import QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from ..config.settings import LoadedSettings, Settings, load_settings
from .controller import Controller
from .conversations.dictation_history import DictationHistory
from .conversations.store import Store, StoreError
from .engines import Engines, LocalEngines
from .qt_app import application
from .qt_platform import choose_platform, platform_failure_said
from .ui import i18n
from .ui.main_window import MainWindow
from .ui.theme import apply_theme

_read_at_start: LoadedSettings | None = None  # read by create_app, for the controller (its warnings said once)


def create_app(
    argv: Sequence[str], language: str | None = None, on_platform_failure: Callable[[str], None] | None = None
) -> QApplication:
    """The application, in ``language`` (a code of ``i18n.NATIVE_NAMES``; "": the system's;
    None: the one the user's settings name).  A Qt platform that cannot start ends the process
    with a clear message (``qt_platform.platform_failure_said``), ``on_platform_failure`` first."""
    global _read_at_start
    appearance = None
    app = application()
    if app is None:
        choose_platform()
        with platform_failure_said(on_platform_failure):
            app = QApplication(list(argv))
    if language is None:
        _read_at_start = load_settings()
        language = _read_at_start.settings.interface_language
        appearance = _read_at_start.settings.appearance
    i18n.install(app, language)
    app.setApplicationName("Parley")
    app.setOrganizationName("Parley")
    app.setDesktopFileName("parley")
    app.setWindowIcon(QIcon(str(resources.files("parley").joinpath("resources/icons/parley.svg"))))
    apply_theme(app, appearance)
    return app


def create_window(show: bool = True) -> MainWindow:
    window = MainWindow()
    if show:
        window.show()
    return window


def open_store() -> tuple[Store, list[str]]:
    """The user's conversation database; an unusable one does not stop the app: conversations
    are then kept in memory for this session, and the returned problem says why.  A store
    opened read-only, or started anew, says so in its ``problem``."""
    try:
        store = Store.open_default()
        return store, [store.problem] if store.problem else []
    except StoreError as exc:
        return Store(":memory:"), [f"{exc} Conversations will not be kept after Parley closes."]


def user_settings() -> LoadedSettings:
    """The user's settings, as ``create_app`` read them, or read now.  Reading an unusable file
    puts it aside (``settings.json.bad``), so a second read would find none and its warning
    would never reach the user: the first read is handed on, once."""
    global _read_at_start
    loaded, _read_at_start = _read_at_start or load_settings(), None
    return loaded


def open_history() -> DictationHistory:
    """The user's dictation history; an unusable one does not stop the app: dictations are then
    kept in memory for this session, and the history window says why."""
    try:
        return DictationHistory.open_default()
    except StoreError as exc:
        history = DictationHistory(":memory:")
        history.problem = f"{exc} Dictations will not be kept after Parley closes."
        return history


def start_controller(
    window: MainWindow,
    engines: Engines | None = None,
    *,
    settings: Settings | None = None,
    store: Store | None = None,
    history: DictationHistory | None = None,
    session_servers: list[str] | None = None,
) -> Controller:
    """Build the controller for ``window`` and start it once the window is painted.

    ``settings``, ``store`` and ``history`` default to the user's (read from their files; the
    history is kept in memory when a ``store`` is given without one); anything unusable in them
    is reported in the window, not raised.  ``session_servers``: remote compute servers for this
    session only (``--rpc``), besides the settings' own."""
    problems: list[str] = []
    if settings is None:
        loaded = user_settings()
        settings, problems = loaded.settings, list(loaded.warnings)
    if history is None:
        history = open_history() if store is None else DictationHistory(":memory:")
        if history.problem and not history.read_only:  # moved aside, or kept in memory (read-only: the store says)
            problems.append(history.problem)
    if store is None:
        store, store_problems = open_store()
        problems += store_problems
    controller = Controller(
        window, engines or LocalEngines(), settings, store, history=history, settings_warnings=problems
    )
    controller.host.session_servers = list(session_servers or [])
    QTimer.singleShot(0, controller.start)
    return controller
