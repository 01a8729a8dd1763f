"""The tools of the app: which a reply may call now, the MCP servers behind some of them, and
the timers and reminders that ring.

- ``toolbox()``: the built-in tools, the clipboard and the ready MCP servers' tools (None when
  Settings turns tools off); ``changed`` says when that set changed (a server came up or went),
  so that the chat session declares the new set before the next reply.
- The MCP servers of ``mcp.json`` run on the hub's own thread (``engine.tools.mcp``): started
  with the app, restarted when the file is edited in Settings (``reload``), stopped at ``close``
  (their processes too).  A file that cannot be used is said once, the built-in tools stay.
- Timers and reminders live in Parley's data folder (``engine.tools.builtin.timers``): a tick
  each second rings what fell due (``rang``), also those that fell due while Parley was closed,
  said as missed.  Parley keeps running in the tray with the window closed, so they ring then.
"""

from __future__ import annotations

import contextlib
import logging
import shlex
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal

from parley.config.paths import data_dir
from parley.engine.errors import ToolConfigError
from parley.engine.tools import builtin
from parley.engine.tools.builtin.timers import TimerBook
from parley.engine.tools.mcp import config as mcp_config
from parley.engine.tools.mcp.config import HttpServer, ServerConfig, StdioServer
from parley.engine.tools.mcp.status import ServerState, ServerStatus, sdk_problem
from parley.engine.tools.tool import Tool, Toolbox, ToolSpec

from ...config.settings import Settings
from ..signals import emit

if TYPE_CHECKING:
    from parley.engine.tools.mcp.client import McpHub
from .clipboard import ClipboardTool

log = logging.getLogger("parley.tools")
TICK_MS = 1000  # timers are looked at once a second: a ring is at most that late


class ToolRoom(QObject):
    changed = Signal()  # the tools offered changed
    servers_changed = Signal()  # an MCP server's status changed
    rang = Signal(str, bool)  # a timer or reminder fell due: what to say, and whether it was missed

    def __init__(
        self,
        settings: Callable[[], Settings],
        notice: Callable[[str], None],
        folder: Path | None = None,
        mcp_path: Path | None = None,
        parent: QObject | None = None,
    ) -> None:
        """``notice(text)`` says a problem once (the status presenter); ``folder``: where the
        timers and the histories are (None: the data folder); ``mcp_path``: the MCP servers'
        file (None: ``mcp.json`` in the config folder)."""
        super().__init__(parent)
        self._settings = settings
        self._notice = notice
        self._folder = folder or data_dir()
        self._mcp_path = mcp_path or mcp_config.config_path()
        self.timers = TimerBook(self._folder)
        self.clipboard = ClipboardTool(self)
        found = builtin.builtin_tools(
            self.timers,
            conversations=self._folder / "conversations.sqlite3",  # the app's store (conversations.store)
            dictations=self._folder / "dictations.sqlite3",  # and its dictation history
        )
        self._builtins: list[Tool] = [*found, self.clipboard]
        self.hub: McpHub | None = None  # made once mcp.json lists a server
        self._offered: tuple[str, ...] = ()
        self._statuses: tuple[ServerStatus, ...] = ()
        self._toolbox: Toolbox | None = None
        self._tick = QTimer(self, interval=TICK_MS)
        self._tick.timeout.connect(self._look)

    # ------------------------------------------------------------------ what a reply calls

    def toolbox(self) -> Toolbox | None:
        """The tools now; None when the user turned tools off."""
        if not self._settings().tools_enabled:
            return None
        if self._toolbox is None:
            self._toolbox = Toolbox([*self._builtins, *(self.hub.tools() if self.hub is not None else [])])
        return self._toolbox

    def allowed(self) -> list[str]:
        return list(self._settings().always_allowed_tools)

    # ------------------------------------------------------------------ Settings > Tools (ui.tools_page.ToolsWork)

    @property
    def config_path(self) -> str:
        return str(self._mcp_path)

    def tool_specs(self) -> list[ToolSpec]:
        return [t.spec for t in (*self._builtins, *(self.hub.tools() if self.hub is not None else []))]

    def server_statuses(self) -> list[ServerStatus]:
        return list(self._statuses)

    def server_target(self, name: str) -> str:
        try:
            server = mcp_config.load(self._mcp_path).get(name)
        except ToolConfigError:
            return ""
        return server.describe() if server is not None else ""

    def set_server_enabled(self, name: str, enabled: bool) -> str | None:
        return self._edit(lambda: mcp_config.set_disabled(name, not enabled, self._mcp_path))

    def add_server(self, name: str, target: str) -> str | None:
        """A server from its name and a command line (or an http(s) address)."""
        server: ServerConfig
        if target.startswith(("http://", "https://")):
            server = HttpServer(name, target)
        else:
            try:
                words = shlex.split(target, posix=sys.platform != "win32")
            except ValueError as exc:
                return f"The command cannot be read: {exc}"
            if not words:
                return "Give the command that starts the server, or its http(s) address."
            server = StdioServer(name, words[0], tuple(words[1:]))
        return self._edit(lambda: mcp_config.add_server(server, self._mcp_path))

    def remove_server(self, name: str) -> str | None:
        return self._edit(lambda: mcp_config.remove_server(name, self._mcp_path))

    def watch(self, changed: Callable[[], None]) -> Callable[[], None]:
        self.servers_changed.connect(changed)
        self.changed.connect(changed)

        def unwatch() -> None:
            with contextlib.suppress(RuntimeError, TypeError):
                self.servers_changed.disconnect(changed)
                self.changed.disconnect(changed)

        return unwatch

    def _edit(self, change: Callable[[], object]) -> str | None:
        try:
            change()
        except ToolConfigError as exc:
            return str(exc)
        self.reload()
        return None

    # ------------------------------------------------------------------ the lifecycle

    def start(self) -> None:
        """Start the timers' tick and, with tools on, the MCP servers (returns at once).  What fell
        due while Parley was closed rings once the event loop runs."""
        QTimer.singleShot(0, self._look)
        self._tick.start()
        if self._settings().tools_enabled:
            self.reload()

    def reload(self) -> None:
        """Read ``mcp.json`` again and start, stop or restart the servers that changed."""
        try:
            servers = mcp_config.load(self._mcp_path)
        except ToolConfigError as exc:
            self._notice(self.tr("The MCP servers cannot be used: {problem}").format(problem=exc))
            servers = None
        for problem in servers.problems if servers is not None else ():
            self._notice(self.tr("A server of mcp.json cannot be used: {problem}").format(problem=problem))
        wanted = servers.servers if servers is not None else ()
        if self.hub is None:
            if not wanted:
                return
            try:  # the SDK is loaded only when a server is configured
                from parley.engine.tools.mcp.client import McpHub
            except ImportError as exc:
                self._notice(self.tr("The MCP servers cannot be used here: {problem}").format(problem=sdk_problem(exc)))
                return
            self.hub = McpHub(wanted, reserved_names=[tool.spec.name for tool in self._builtins])
            self.hub.start()
        else:
            self.hub.refresh(wanted)
        self._look()

    def close(self) -> None:
        """Stop the servers (their processes too) and the tick."""
        self._tick.stop()
        hub, self.hub = self.hub, None
        if hub is not None:
            hub.close()

    # ------------------------------------------------------------------ each second

    def _look(self) -> None:
        """Ring what fell due; notice a server that came up, failed or went."""
        for ring in self.timers.due(time.time()):
            self.timers.mark_rung(ring.timer)
            emit(self.rang, ring.text, ring.missed)
        statuses = tuple(self.hub.statuses()) if self.hub is not None else ()
        if statuses != self._statuses:
            for status in statuses:
                if status.state is ServerState.FAILED and status not in self._statuses:
                    log.warning("MCP server %s", status.describe())
            self._statuses = statuses
            emit(self.servers_changed)
        offered = tuple(t.spec.name for t in self.hub.tools()) if self.hub is not None else ()
        if offered != self._offered:
            self._offered = offered
            self._toolbox = None
            emit(self.changed)

    def settings_changed(self, old: Settings, new: Settings) -> None:
        if old.tools_enabled != new.tools_enabled:
            self._toolbox = None
            if new.tools_enabled:
                self.reload()
            elif self.hub is not None:
                self.hub.refresh(())  # no server runs while tools are off
            emit(self.changed)
