"""Where an MCP server stands (``ServerStatus``), a plain record the window reads: kept apart from
the client so that reading it never loads the MCP SDK (pydantic's Rust core, which a system
without ``bcryptprimitives.dll``, Wine 8.0, cannot load)."""

from __future__ import annotations

import dataclasses
import enum


class ServerState(str, enum.Enum):
    OFF = "off"  # disabled in mcp.json, or stopped (the hub closed, the server removed)
    STARTING = "starting"
    READY = "ready"
    FAILED = "failed"


@dataclasses.dataclass(frozen=True)
class ServerStatus:
    """Where one server stands, for the window and the logs."""

    name: str
    transport: str  # "stdio" or "http"
    state: ServerState
    message: str = ""  # FAILED: why, in one line; READY: how many tools
    tools: int = 0  # the tools offered
    problems: tuple[str, ...] = ()  # one line per tool left out or changed, and why
    pid: int | None = None  # a stdio server's process (and process group): the last one started
    took: float = 0.0  # READY or FAILED: seconds from the start to that state

    def describe(self) -> str:
        """One line: "pantry: ready with 3 tools", "office: failed: ..."."""
        if self.state is ServerState.READY:
            return f"{self.name}: ready with {_count(self.tools, 'tool')}"
        if self.state is ServerState.FAILED:
            return f"{self.name}: failed: {self.message}"
        if self.state is ServerState.OFF:
            return f"{self.name}: off"
        return f"{self.name}: starting"


def sdk_problem(exc: ImportError) -> str:
    """Why the MCP SDK did not load, in words for people: its Rust parts (pydantic-core,
    rpds-py) need ``bcryptprimitives.dll``, part of Windows since Windows 10 and absent from
    Wine 8.0."""
    text = str(exc)
    if "DLL load failed" in text or "bcryptprimitives" in text:
        return (
            f"the MCP library's compiled parts do not load on this system ({text}); "
            "Windows 10 and later have what they need, Wine 8.0 does not"
        )
    return f"the MCP library is missing or broken ({text})"


def _count(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")
