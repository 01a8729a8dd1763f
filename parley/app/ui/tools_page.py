"""Settings > Tools: whether replies may call tools, which tools that act may do so without
asking, and the MCP servers of ``mcp.json`` (each turned on or off, added or removed, with its
state and its tools listed under it).

The page makes no engine call itself: what it shows and changes of the tools and servers it asks
of a ``ToolsWork`` the app hands it (``app/tools/room.py``), on the UI thread; the servers'
states come back through ``ToolsWork.watch``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt, QTimer, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...config.settings import Settings
from ...engine.tools.mcp.status import ServerState, ServerStatus
from ...engine.tools.tool import BUILT_IN, ToolSpec
from . import theme
from .i18n import translate

# The built-in tools' titles (their ToolSpec.title), translated where shown; a test checks the
# list holds every built-in tool's title.
BUILT_IN_TITLES = (
    QT_TRANSLATE_NOOP("ToolsPage", "Date and time"),
    QT_TRANSLATE_NOOP("ToolsPage", "Calculate"),
    QT_TRANSLATE_NOOP("ToolsPage", "Convert units"),
    QT_TRANSLATE_NOOP("ToolsPage", "Set a timer"),
    QT_TRANSLATE_NOOP("ToolsPage", "Set a reminder"),
    QT_TRANSLATE_NOOP("ToolsPage", "List timers"),
    QT_TRANSLATE_NOOP("ToolsPage", "Cancel a timer"),
    QT_TRANSLATE_NOOP("ToolsPage", "Search my conversations and dictations"),
    QT_TRANSLATE_NOOP("ToolsPage", "Read the clipboard"),
)


class ToolsWork(Protocol):
    """What the page asks of the app; each change returns its problem (None: done)."""

    @property
    def config_path(self) -> str:
        """The MCP servers' file (``mcp.json``), which the page opens for editing."""
        ...

    def tool_specs(self) -> list[ToolSpec]: ...
    def server_statuses(self) -> list[ServerStatus]: ...
    def server_target(self, name: str) -> str:
        """The command a server runs, or its address."""
        ...

    def set_server_enabled(self, name: str, enabled: bool) -> str | None: ...
    def add_server(self, name: str, target: str) -> str | None: ...
    def remove_server(self, name: str) -> str | None: ...
    def watch(self, changed: Callable[[], None]) -> Callable[[], None]:
        """Call ``changed`` when a server's state or the tools change; returns the unwatch."""
        ...


class ToolsPage(QWidget):
    def __init__(self, settings: Settings, work: ToolsWork | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._work = work
        layout = QVBoxLayout(self)
        self.enabled = QCheckBox(self.tr("Replies may &use tools (the clock, sums, timers, your history, MCP servers)"))
        self.enabled.setChecked(settings.tools_enabled)
        layout.addWidget(self.enabled)
        hint = QLabel(
            self.tr(
                "Tools that only read run at once. A tool that acts asks first (“Shall I …?”), in the window and "
                "by voice, unless you tick it below; even then it asks when a tool's result led to it."
            ),
            objectName="Hint",
            wordWrap=True,
        )
        layout.addWidget(hint)

        self.tools = QTreeWidget()
        self.tools.setHeaderLabels([self.tr("Tool"), self.tr("From"), self.tr("Without asking")])
        self.tools.setRootIsDecorated(False)
        self.tools.setAccessibleName(self.tr("Tools"))
        self.tools.setAccessibleDescription(self.tr("Tick a tool that acts to let it run without asking"))
        layout.addWidget(self.tools, 1)
        self._allowed = set(settings.always_allowed_tools)

        servers = QGroupBox(self.tr("MCP servers (mcp.json)"))
        column = QVBoxLayout(servers)
        self.servers = QTreeWidget()
        self.servers.setHeaderLabels([self.tr("Server"), self.tr("State")])
        self.servers.setAccessibleName(self.tr("MCP servers"))
        self.servers.setAccessibleDescription(self.tr("Tick a server to start it; its tools are listed under it"))
        self.servers.itemChanged.connect(self._server_toggled)
        column.addWidget(self.servers)
        buttons = QHBoxLayout()
        self.add_button = QPushButton(self.tr("&Add a server…"))
        self.remove_button = QPushButton(self.tr("&Remove"))
        self.open_button = QPushButton(self.tr("&Open mcp.json"))
        self.add_button.clicked.connect(self._add)
        self.remove_button.clicked.connect(self._remove)
        self.open_button.clicked.connect(self._open_file)
        for button in (self.add_button, self.remove_button, self.open_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        column.addLayout(buttons)
        self.problem = QLabel(wordWrap=True)
        theme.mark_problem(self.problem)
        self.problem.hide()
        column.addWidget(self.problem)
        layout.addWidget(servers, 1)

        self._filling = False
        self._unwatch: Callable[[], None] | None = None
        if work is None:
            servers.setEnabled(False)
        else:
            self._unwatch = work.watch(self.fill)
            self.destroyed.connect(self._stop_watching)
        self.fill()

    def _stop_watching(self, *_: object) -> None:
        if self._unwatch is not None:
            self._unwatch()
            self._unwatch = None

    # ------------------------------------------------------------------ showing

    def fill(self) -> None:
        """Show the tools and the servers as the app has them now."""
        self._filling = True
        self._allowed = self.allowed()
        self.tools.clear()
        self.servers.clear()
        if self._work is not None:
            tools_of: dict[str, list[str]] = {}
            for spec in self._work.tool_specs():
                title = self._title(spec)
                tools_of.setdefault(spec.source, []).append(title)
                item = QTreeWidgetItem([title, self._source(spec.source), ""])
                item.setToolTip(0, f"{spec.name}: {spec.description}")
                item.setData(0, Qt.ItemDataRole.UserRole, spec.name)
                if spec.read_only:
                    item.setText(2, self.tr("always (only reads)"))
                else:
                    item.setCheckState(2, _checked(spec.name in self._allowed))
                    item.setData(2, Qt.ItemDataRole.AccessibleTextRole, self.tr("Without asking"))
                self.tools.addTopLevelItem(item)
            for status in self._work.server_statuses():
                item = QTreeWidgetItem([status.name, status.describe().removeprefix(f"{status.name}: ")])
                item.setToolTip(0, self._work.server_target(status.name))
                item.setData(0, Qt.ItemDataRole.UserRole, status.name)
                item.setCheckState(0, _checked(status.state is not ServerState.OFF))
                for name in tools_of.get(status.name, []):
                    item.addChild(QTreeWidgetItem([name, ""]))
                for problem in status.problems:
                    item.addChild(QTreeWidgetItem([self.tr("left out"), problem]))
                self.servers.addTopLevelItem(item)
        for tree in (self.tools, self.servers):
            tree.resizeColumnToContents(0)
        self._filling = False

    def _title(self, spec: ToolSpec) -> str:
        """A tool's title for people: Parley's own in the interface's language."""
        title = spec.title or spec.name
        return translate("ToolsPage", title) if spec.source == BUILT_IN and title in BUILT_IN_TITLES else title

    def _source(self, source: str) -> str:
        return self.tr("Parley") if source == BUILT_IN else source

    def allowed(self) -> set[str]:
        """The acting tools ticked to run without asking (a server's not running now are kept)."""
        allowed = set(self._allowed)
        for i in range(self.tools.topLevelItemCount()):
            item = self.tools.topLevelItem(i)
            if item is None or item.data(2, Qt.ItemDataRole.CheckStateRole) is None:
                continue  # only reads: never asks
            name = item.data(0, Qt.ItemDataRole.UserRole)
            allowed.discard(name)
            if item.checkState(2) == Qt.CheckState.Checked:
                allowed.add(name)
        return allowed

    def edit(self, settings: Settings) -> None:
        """Put the page's values into ``settings``."""
        settings.tools_enabled = self.enabled.isChecked()
        settings.always_allowed_tools = sorted(self.allowed())

    # ------------------------------------------------------------------ the servers

    def _server_toggled(self, item: QTreeWidgetItem, column: int) -> None:
        """A server ticked or not: turned on or off once this signal is over, as that fills the
        tree again, and the item whose check emitted it must not be deleted under Qt (which
        crashed the app now and then)."""
        if self._filling or self._work is None or item.parent() is not None or column != 0:
            return
        name, on = item.data(0, Qt.ItemDataRole.UserRole), item.checkState(0) == Qt.CheckState.Checked
        QTimer.singleShot(0, self, lambda: self._set_server(name, on))

    def _set_server(self, name: str, on: bool) -> None:
        if self._work is not None:
            self._said(self._work.set_server_enabled(name, on))

    def _add(self) -> None:
        if self._work is None:
            return
        dialog = AddServerDialog(self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self._said(self._work.add_server(dialog.name.text().strip(), dialog.target.text().strip()))

    def _remove(self) -> None:
        item = self.servers.currentItem()
        while item is not None and item.parent() is not None:
            item = item.parent()
        if item is not None and self._work is not None:
            self._said(self._work.remove_server(item.data(0, Qt.ItemDataRole.UserRole)))

    def _open_file(self) -> None:
        if self._work is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(self._work.config_path))

    def _said(self, problem: str | None) -> None:
        self.problem.setText(problem or "")
        self.problem.setVisible(bool(problem))
        self.fill()


class AddServerDialog(QDialog):
    """A server's name and the command that starts it (or its http(s) address)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Add an MCP server"))
        form = QFormLayout(self)
        self.name = QLineEdit()
        self.target = QLineEdit()
        self.target.setPlaceholderText(self.tr("a command, as in a terminal, or an http(s):// address"))
        form.addRow(self.tr("&Name:"), self.name)
        form.addRow(self.tr("&Command or address:"), self.target)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)


def _checked(on: bool) -> Qt.CheckState:
    return Qt.CheckState.Checked if on else Qt.CheckState.Unchecked
