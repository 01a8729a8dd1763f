"""``McpHub``: the MCP servers of ``mcp.json`` connected, and their tools offered as ``Tool``\\ s.

One hub owns one thread running an anyio event loop (asyncio).  Each enabled server gets a task
there that starts it (``stdio``) or reaches it (``streamable_http``), shakes hands, lists its
tools and then holds the connection until the hub stops it or the server goes away.  Other
threads use the hub through plain calls: ``start``/``refresh`` (non-blocking), ``statuses``,
``wait_ready``, ``tools``, ``call`` (blocking, with a timeout and a ``CancelFlag`` polled every
50 ms) and ``close``.

Everything a server sends is untrusted:

- every wait is bounded (``Limits``): starting and the handshake, listing the tools, each call;
  a server that breaks a bound is stopped with its whole process group, and its status says
  why in one line (with the last lines of its stderr for a program);
- its tools are checked one by one before the model sees them (``offer``): a name that is not
  a valid MCP name, a parameter schema that is not an object schema, nests too deep or is
  larger than ``tool.MAX_SCHEMA_BYTES``, a name listed twice: that tool is left out and the
  server's status lists why; descriptions are cut to ``tool.MAX_DESCRIPTION_CHARS``; at most
  ``Limits.max_tools`` tools of a server are offered (the status says how many were left out);
- a tool keeps its own name when it is a valid model-visible name (``tool.NAME``) that no other
  tool took; otherwise it is named after its server (``pantry_check_stock``).  Names are
  given in the order of ``mcp.json``, among the servers that are ready;
- a result is text for the model, and only that: its text parts joined, images, audio and
  resources as a short placeholder, control characters removed, cut by ``tool.bounded``.  What
  a tool says never decides anything: whether a call may run without asking comes from
  ``ToolSpec.read_only`` (the server's ``readOnlyHint``; absent means it acts) and the user.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import dataclasses
import json
import re
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import anyio
import anyio.from_thread
import mcp_types
from mcp.client.session import ClientSession
from mcp.shared.exceptions import MCPError
from pydantic import ValidationError

from ...backend.cancel import CancelFlag
from ...errors import Cancelled
from ..tool import (
    MAX_DESCRIPTION_CHARS,
    MAX_SCHEMA_BYTES,
    MAYBE,
    NAME,
    NEVER,
    NO_TOOL,
    SURE,
    ToolResult,
    ToolSpec,
    bounded,
    named_by_verb,
    shares_words,
)
from .config import HttpServer, ServerConfig, StdioServer
from .sieve import Receiving, Sending, Sieve
from .status import ServerState, ServerStatus
from .stdio import MAX_MESSAGE_BYTES, StdioTransport
from .streamable_http import HttpTransport

MCP_NAME = re.compile(r"^[A-Za-z0-9._-]{1,128}$")  # a tool's name as MCP allows it (SEP-986)
MAX_SCHEMA_DEPTH = 16  # of a tool's parameters, counting every object and list
MAX_TITLE_CHARS = 80
MAX_LISTED_TOOLS = 1024  # a server's tools read before the listing stops
MAX_LIST_PAGES = 16
MAX_PROBLEMS = 16  # lines of a server's status about its tools
MAX_MESSAGE_CHARS = 600  # of a status or an error result's message
POLL_SECONDS = 0.05  # how often a waiting caller looks at its cancel flag
CLIENT_NAME = "Parley"


@dataclasses.dataclass(frozen=True)
class Limits:
    """How long the hub waits for a server, and how much it takes from one."""

    connect_timeout: float = 30.0  # start (or reach) a server and shake hands
    list_timeout: float = 30.0  # list its tools, every page together
    call_timeout: float = 120.0  # one call, unless the caller says otherwise
    stop_grace: float = 2.0  # after stdin closes, and again after the group is terminated
    max_message_bytes: int = MAX_MESSAGE_BYTES
    max_tools: int = 64  # per server


@dataclasses.dataclass(frozen=True)
class Offered:
    """A server's tool as checked, before the hub names it for the model."""

    remote_name: str  # its name on the server, which calls use
    description: str
    parameters: Mapping[str, Any]
    read_only: bool
    title: str


class McpTool:
    """A server's tool as the model and the toolbox see it (``tool.Tool``)."""

    def __init__(self, hub: McpHub, server: str, offered: Offered, name: str) -> None:
        self._hub = hub
        self.server = server
        self.remote_name = offered.remote_name
        self._spec = ToolSpec(
            name=name,
            description=offered.description,
            parameters=offered.parameters,
            read_only=offered.read_only,
            source=server,
            title=offered.title,
        )

    @property
    def spec(self) -> ToolSpec:
        return self._spec

    def describe(self, arguments: Mapping[str, Any]) -> str:
        what = self._spec.title or self.remote_name
        shown = ", ".join(f"{key}: {_value_shown(value)}" for key, value in list(arguments.items())[:4])
        text = f"use {what} of {self.server}" + (f" ({shown})" if shown else "")
        return _cut(_one_line(text), 200)

    def relevance(self, request: str) -> float:
        """A server's tool has no cues of its own: a request that begins with the verb of its
        name is plainly for it (``SURE``, ``tool.named_by_verb``: "book Lyra at 9" for
        ``book_room``); it is shown to the model for a request that shares a meaningful word
        with its name, title or server, or two with those and its description (``MAYBE``,
        ``tool.shares_words``), and not for others (``NEVER``), so that a question about
        something else is answered without it (``tools.turn``)."""
        spec = self._spec
        if named_by_verb(request, self.remote_name, (spec.title, spec.description)):
            return SURE
        return (
            MAYBE if shares_words(request, (self.remote_name, spec.title, self.server), (spec.description,)) else NEVER
        )

    def run(self, arguments: Mapping[str, Any], cancel: CancelFlag) -> ToolResult:
        return self._hub.call_remote(self.server, self.remote_name, arguments, cancel, title=self._spec.title)

    def __repr__(self) -> str:
        return f"McpTool({self._spec.name!r} = {self.server}/{self.remote_name})"


class McpHub:
    """The connections to the MCP servers, on a thread of their own."""

    def __init__(
        self, servers: Sequence[ServerConfig] = (), *, limits: Limits | None = None, reserved_names: Iterable[str] = ()
    ) -> None:
        """``servers`` in the order of ``mcp.json``; ``reserved_names``: names the model already
        knows (the built-in tools), which the servers' tools never take."""
        self.limits = limits or Limits()
        self._servers = tuple(servers)
        self._reserved = frozenset(reserved_names) | {NO_TOOL}
        self._lock = threading.Condition()
        self._connections: dict[str, _Connection] = {}
        self._portal_cm: Any = None
        self._portal: anyio.from_thread.BlockingPortal | None = None
        self._closed = False

    # ------------------------------------------------------------------ the lifecycle

    def start(self) -> None:
        """Start the thread and connect to every enabled server; returns at once."""
        self.refresh(self._servers)

    def refresh(self, servers: Sequence[ServerConfig] | None = None) -> None:
        """Take ``servers`` (or the same ones again): servers gone or changed are stopped, new or
        changed ones and those that failed are started, the others keep running.  Returns at
        once; ``wait_ready`` waits for the servers to be ready or to fail."""
        portal = self._ensure_portal()
        servers = tuple(servers) if servers is not None else self._servers
        names = [server.name for server in servers]
        if len(set(names)) != len(names):
            raise ValueError("two servers have the same name")
        with self._lock:
            self._servers = servers
            old = self._connections
            keep: dict[str, _Connection] = {}
            for server in servers:
                conn = old.get(server.name)
                if (
                    conn is not None
                    and conn.server == server
                    and conn.state in (ServerState.READY, ServerState.STARTING, ServerState.OFF)
                ):
                    keep[server.name] = conn
            stopping = [conn for name, conn in old.items() if keep.get(name) is not conn]
            starting = [_Connection(self, server) for server in servers if server.name not in keep]
            self._connections = {**keep, **{conn.server.name: conn for conn in starting}}
            self._connections = {server.name: self._connections[server.name] for server in servers}
            self._lock.notify_all()
        for conn in stopping:
            portal.start_task_soon(conn.stop)
        for conn in starting:
            if not conn.server.disabled:
                conn.future = portal.start_task_soon(conn.run)

    def close(self) -> None:
        """Stop every server (their process groups too) and the thread; waits for them, at most
        about ``2 × stop_grace`` plus a few seconds.  Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            connections = list(self._connections.values())
            portal, portal_cm = self._portal, self._portal_cm
            self._portal = self._portal_cm = None
        if portal is None:
            return
        futures = []
        for conn in connections:
            with contextlib.suppress(RuntimeError):  # the loop is gone already
                portal.start_task_soon(conn.stop)
            if conn.future is not None:
                futures.append(conn.future)
        concurrent.futures.wait(futures, timeout=3 * self.limits.stop_grace + 5)
        with contextlib.suppress(Exception):
            portal.call(portal.stop, True)
        with contextlib.suppress(Exception):
            portal_cm.__exit__(None, None, None)

    def __enter__(self) -> McpHub:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _ensure_portal(self) -> anyio.from_thread.BlockingPortal:
        with self._lock:
            if self._closed:
                raise RuntimeError("the MCP hub is closed")
            if self._portal is None:
                self._portal_cm = anyio.from_thread.start_blocking_portal("asyncio")
                self._portal = self._portal_cm.__enter__()
                self._portal.call(_name_thread)
            return self._portal

    # ------------------------------------------------------------------ what callers see

    def statuses(self) -> list[ServerStatus]:
        """Every server's status, in the order of ``mcp.json``."""
        with self._lock:
            return [conn.status() for conn in self._connections.values()]

    def status(self, name: str) -> ServerStatus | None:
        with self._lock:
            conn = self._connections.get(name)
            return conn.status() if conn is not None else None

    def wait_ready(self, timeout: float) -> bool:
        """Wait until no server is starting (each ready, failed or off); False on timeout."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while any(conn.state is ServerState.STARTING for conn in self._connections.values()):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._lock.wait(left)
        return True

    def tools(self) -> list[McpTool]:
        """The tools of the ready servers, named for the model (unique, ``tool.NAME``)."""
        with self._lock:
            ready = [conn for conn in self._connections.values() if conn.state is ServerState.READY]
            taken = set(self._reserved)
            tools = []
            for conn in ready:
                for offered in conn.offered:
                    name = _model_name(conn.server.name, offered.remote_name, taken)
                    taken.add(name)
                    tools.append(McpTool(self, conn.server.name, offered, name))
            return tools

    def call(
        self, name: str, arguments: Mapping[str, Any], cancel: CancelFlag, timeout: float | None = None
    ) -> ToolResult:
        """Call the tool the model knows as ``name`` (see ``tools``)."""
        for tool in self.tools():
            if tool.spec.name == name:
                return self.call_remote(tool.server, tool.remote_name, arguments, cancel, timeout, tool.spec.title)
        return ToolResult.error(f"no MCP server offers a tool named {_cut(name, 64)!r}")

    def call_remote(
        self,
        server: str,
        remote_name: str,
        arguments: Mapping[str, Any],
        cancel: CancelFlag,
        timeout: float | None = None,
        title: str = "",
    ) -> ToolResult:
        """Call ``remote_name`` on ``server``: its result, or an error result that says why (not
        running, no answer in time, stopped during the call...).  Raises only ``Cancelled``, when
        ``cancel`` is set (the call is abandoned and the server told)."""
        timeout = self.limits.call_timeout if timeout is None else timeout
        with self._lock:
            conn = self._connections.get(server)
            portal = self._portal
        if conn is None or portal is None:
            return ToolResult.error(f"there is no MCP server {server!r}")
        if conn.state is not ServerState.READY:
            why = f": {conn.message}" if conn.message else ""
            return ToolResult.error(f"the MCP server {server!r} is not ready ({conn.state.value}{why})")
        try:
            future = portal.start_task_soon(conn.call, remote_name, dict(arguments), timeout, title)
        except RuntimeError:
            return ToolResult.error("the MCP client is closed")
        backstop = time.monotonic() + timeout + 2 * self.limits.stop_grace + 5
        while True:
            try:
                return bounded(future.result(timeout=POLL_SECONDS))
            except concurrent.futures.TimeoutError:
                pass
            except concurrent.futures.CancelledError:
                return ToolResult.error(f"the MCP client stopped during the call of {remote_name} on {server}")
            except Exception as exc:  # noqa: BLE001  (a bug of ours or the SDK's: the model hears of it)
                return ToolResult.error(f"{remote_name} on {server} failed: {_first_line(exc)}")
            if cancel.cancelled:
                future.cancel()
                raise Cancelled(f"the call of {remote_name} on {server} was cancelled")
            if time.monotonic() > backstop:
                future.cancel()
                return ToolResult.error(f"{server} did not answer the call of {remote_name} within {timeout:g} s")

    # ------------------------------------------------------------------ for the connections

    def _changed(self) -> None:
        with self._lock:
            self._lock.notify_all()


class _Connection:
    """One server's connection, living on the hub's event loop (its ``run`` task)."""

    def __init__(self, hub: McpHub, server: ServerConfig) -> None:
        self.hub = hub
        self.server = server
        self.limits = hub.limits
        self.state = ServerState.OFF if server.disabled else ServerState.STARTING
        self.message = "turned off in mcp.json" if server.disabled else ""
        self.problems: tuple[str, ...] = ()
        self.offered: tuple[Offered, ...] = ()
        self.future: concurrent.futures.Future[None] | None = None
        self.stdio: StdioTransport | None = None
        self.http: HttpTransport | None = None
        self._session: ClientSession | None = None
        self._wake: anyio.Event | None = None
        self._finished: anyio.Event | None = None
        self._scope: anyio.CancelScope | None = None
        self._stop_requested = False
        self._calls: set[anyio.CancelScope] = set()
        self._started = time.monotonic()
        self.took = 0.0

    def status(self) -> ServerStatus:
        return ServerStatus(
            name=self.server.name,
            transport=self.server.transport,
            state=self.state,
            message=self.message,
            tools=len(self.offered) if self.state is ServerState.READY else 0,
            problems=self.problems,
            pid=self.stdio.pid if self.stdio is not None else None,
            took=self.took,
        )

    def _set(self, state: ServerState, message: str = "") -> None:
        with self.hub._lock:
            if self.state is ServerState.STARTING:
                self.took = time.monotonic() - self._started
            self.state = state
            self.message = _cut(_one_line(message), MAX_MESSAGE_CHARS)
            if state is not ServerState.READY:
                self.offered = ()
            self.hub._lock.notify_all()

    # ------------------------------------------------------------------ the connection's life

    async def run(self) -> None:
        self._started = time.monotonic()
        self._wake = anyio.Event()
        self._finished = anyio.Event()
        stage = "start"
        try:
            with anyio.CancelScope() as self._scope:  # cancelled by stop(): the scope ends, quietly
                if self._stop_requested:
                    self._scope.cancel()
                async with self._transport() as (read, write):
                    sieve = Sieve()
                    async with sieve.around(read, write) as (session_reads, session_writes):
                        session = ClientSession(session_reads, session_writes, client_info=_client_info())
                        async with session:
                            stage = "handshake"
                            with anyio.fail_after(self.limits.connect_timeout):
                                await session.initialize()
                            stage = "list"
                            with anyio.fail_after(self.limits.list_timeout):
                                tools, problems = await self._list(session, sieve)
                            self._ready(session, tools, problems)
                            stage = "ready"
                            await self._wake.wait()
        except BaseException as exc:  # noqa: BLE001  (every way a server can fail ends here, said in one line)
            if isinstance(exc, anyio.get_cancelled_exc_class()):
                raise  # the loop itself is stopping
            if not self._stop_requested:
                self._set(ServerState.FAILED, self._failure(stage, exc))
        finally:
            self._session = None
            for scope in list(self._calls):
                scope.cancel()
            self._finished.set()
        if self._stop_requested:
            self._set(ServerState.OFF, "stopped")
        elif self.state is not ServerState.FAILED:
            stdio_failure = self.stdio.failure if self.stdio is not None else ""
            self._set(ServerState.FAILED, stdio_failure or f"{self.server.name} closed the connection")

    def _transport(self) -> contextlib.AbstractAsyncContextManager[tuple[Receiving, Sending]]:
        if isinstance(self.server, StdioServer):
            self.stdio = StdioTransport(
                self.server,
                max_message_bytes=self.limits.max_message_bytes,
                stop_grace=self.limits.stop_grace,
                ended=self._transport_ended,
            )
            return self.stdio.open()
        assert isinstance(self.server, HttpServer)
        self.http = HttpTransport(
            self.server,
            connect_timeout=self.limits.connect_timeout,
            read_timeout=self.limits.call_timeout + self.limits.connect_timeout,
            max_message_bytes=self.limits.max_message_bytes,
        )
        return self.http.open()

    def _transport_ended(self) -> None:
        if self._wake is not None:
            self._wake.set()

    async def stop(self) -> None:
        """End ``run`` wherever it is (the server is stopped on the way out) and wait for it."""
        self._stop_requested = True
        for scope in list(self._calls):
            scope.cancel()  # the callers hear of it before the server's stop, which can take a while
        if self._scope is not None:
            self._scope.cancel()
        if self._finished is not None:
            with anyio.move_on_after(3 * self.limits.stop_grace + 3):
                await self._finished.wait()

    async def _list(self, session: ClientSession, sieve: Sieve) -> tuple[tuple[Offered, ...], tuple[str, ...]]:
        listed: list[mcp_types.Tool] = []
        refused: list[str] = []
        cursor: str | None = None
        more = False
        for _page in range(MAX_LIST_PAGES):
            params = mcp_types.PaginatedRequestParams(cursor=cursor) if cursor is not None else None
            result = await session.list_tools(params=params)
            listed += result.tools
            refused += sieve.refused
            cursor = result.next_cursor
            if cursor is None:
                break
            if len(listed) >= MAX_LISTED_TOOLS:
                more = True
                break
        else:
            more = cursor is not None
        return offer(listed, self.limits.max_tools, refused, more)

    def _ready(self, session: ClientSession, tools: tuple[Offered, ...], problems: tuple[str, ...]) -> None:
        with self.hub._lock:
            self._session = session
            self.offered = tools
            self.problems = problems
            self.took = time.monotonic() - self._started
            self.state = ServerState.READY
            self.message = _count(len(tools), "tool")
            self.hub._lock.notify_all()

    def _failure(self, stage: str, exc: BaseException) -> str:
        """Why the connection failed, in one line, from where it was and what was raised."""
        name = self.server.name
        stdio = self.stdio
        leaf = _leaf(exc)
        if stdio is not None and stdio.failure:
            return stdio.failure  # it exited, or broke a bound: the transport said how
        if isinstance(leaf, OSError) and stage == "start":
            return _first_line(leaf)
        if isinstance(leaf, TimeoutError):
            limit, what = {
                "handshake": (self.limits.connect_timeout, "the MCP handshake (initialize)"),
                "list": (self.limits.list_timeout, "the request for its tools (tools/list)"),
            }.get(stage, (self.limits.connect_timeout, "in time"))
            text = f"{name} did not answer {what} within {limit:g} s"
        elif isinstance(leaf, ValidationError):
            text = f"{name} answered {_stage_words(stage)} with what is not valid MCP: {_validation_line(leaf)}"
        elif isinstance(leaf, MCPError) and self.http is not None and self.http.cuts:
            text = f"{name} could not answer {_stage_words(stage)}: {self.http.too_large()}"
        elif isinstance(leaf, MCPError):
            text = f"{name} answered {_stage_words(stage)} with an error: {_cut(_one_line(leaf.error.message), 300)}"
        elif isinstance(self.server, HttpServer):
            text = f"cannot reach {name} at {self.server.describe()}: {_first_line(leaf)}"
        else:
            text = f"{name} failed {_stage_words(stage)}: {_first_line(leaf)}"
        return stdio.explain(text) if stdio is not None else text

    # ------------------------------------------------------------------ calls

    async def call(self, remote_name: str, arguments: dict[str, Any], timeout: float, title: str) -> ToolResult:
        session = self._session
        name = self.server.name
        if session is None or self.state is not ServerState.READY:
            return ToolResult.error(f"the MCP server {name!r} is not ready")
        scope = anyio.CancelScope()
        self._calls.add(scope)
        cuts = self.http.cuts if self.http is not None else 0
        try:
            with scope, anyio.fail_after(timeout):
                result = await session.call_tool(remote_name, arguments)
        except TimeoutError:
            return ToolResult.error(f"{name} did not answer the call of {remote_name} within {timeout:g} s")
        except MCPError as exc:
            if self.stdio is not None and self.stdio.failure:
                return ToolResult.error(f"{name} stopped during the call of {remote_name}: {self.stdio.failure}")
            if self.http is not None and self.http.cuts > cuts:
                return ToolResult.error(f"{name} could not answer {remote_name}: {self.http.too_large()}")
            reason = _cut(_one_line(exc.error.message), 300)
            return ToolResult.error(f"{name} answered the call of {remote_name} with an error: {reason}")
        except ValidationError as exc:
            reason = _validation_line(exc)
            return ToolResult.error(f"{name} answered {remote_name} with a result that is not valid MCP: {reason}")
        except (RuntimeError, ValueError) as exc:  # the SDK's refusals of an answer it cannot use
            return ToolResult.error(f"{name} answered {remote_name} in a way Parley cannot use: {_first_line(exc)}")
        finally:
            self._calls.discard(scope)
        if scope.cancelled_caught:
            why = (self.stdio.failure if self.stdio is not None else "") or self.message or "it was stopped"
            return ToolResult.error(f"{name} stopped during the call of {remote_name}: {why}")
        return result_of(result, server=name, what=title or remote_name)


# --------------------------------------------------------------------------- tools and results


def offer(
    tools: Sequence[mcp_types.Tool], max_tools: int, refused: Sequence[str] = (), more: bool = False
) -> tuple[tuple[Offered, ...], tuple[str, ...]]:
    """A server's listed tools checked one by one: those offered, and one line per tool left
    out or changed (``refused``: lines from before, the sieve's)."""
    problems = list(refused)
    kept: list[Offered] = []
    seen: set[str] = set()
    for listed in tools:
        shown = _cut(repr(listed.name), 60)
        if not MCP_NAME.match(listed.name):
            problems.append(f"tool {shown} left out: its name is not a valid MCP tool name (letters, digits, _ - .)")
            continue
        if listed.name in seen:
            problems.append(f"tool {shown} left out: the server lists the name twice")
            continue
        seen.add(listed.name)
        schema = listed.input_schema
        problem = schema_problem(schema)
        if problem:
            problems.append(f"tool {shown} left out: {problem}")
            continue
        description = _clean(listed.description or "").strip()
        if len(description) > MAX_DESCRIPTION_CHARS:
            problems.append(
                f"tool {shown}: its description ({len(description):,} characters) was cut to {MAX_DESCRIPTION_CHARS:,}"
            )
            description = description[: MAX_DESCRIPTION_CHARS - 1] + "…"
        annotations = listed.annotations
        title = (annotations.title if annotations is not None else None) or listed.title or ""
        kept.append(
            Offered(
                remote_name=listed.name,
                description=description or f"The tool {listed.name}.",
                parameters=schema,
                read_only=bool(annotations is not None and annotations.read_only_hint is True),
                title=_cut(_one_line(title), MAX_TITLE_CHARS),
            )
        )
    count = f"more than {len(tools):,}" if more else f"{len(tools):,}"
    if len(kept) > max_tools:
        left = len(kept) - max_tools
        problems.append(f"the server lists {count} tools; only the first {max_tools} are offered ({left:,} left out)")
        kept = kept[:max_tools]
    elif more:
        problems.append(f"the server lists {count} tools; Parley read only the first {len(tools):,}")
    if len(problems) > MAX_PROBLEMS:
        problems[MAX_PROBLEMS - 1 :] = [f"and {len(problems) - MAX_PROBLEMS + 1:,} more problems with its tools"]
    return tuple(kept), tuple(problems)


def schema_problem(schema: Any) -> str:
    """Why a tool's parameters cannot be offered ("" when they can)."""
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return "its parameters are not an object schema"
    try:
        size = len(json.dumps(schema, separators=(",", ":")).encode("utf-8"))
    except (TypeError, ValueError, RecursionError):
        return "its parameters cannot be written as JSON"
    if size > MAX_SCHEMA_BYTES:
        return f"its parameters' schema is {size:,} bytes, more than {MAX_SCHEMA_BYTES:,}"
    if _depth(schema) > MAX_SCHEMA_DEPTH:
        return f"its parameters' schema nests more than {MAX_SCHEMA_DEPTH} levels deep"
    return ""


def result_of(result: mcp_types.CallToolResult, *, server: str, what: str) -> ToolResult:
    """A call's result as the model reads it: text, with placeholders for what is not text."""
    parts: list[str] = []
    for block in result.content:
        if isinstance(block, mcp_types.TextContent):
            parts.append(_clean(block.text))
        elif isinstance(block, mcp_types.ImageContent):
            parts.append(f"[an image ({_cut(_one_line(block.mime_type), 40)}), not shown]")
        elif isinstance(block, mcp_types.AudioContent):
            parts.append(f"[audio ({_cut(_one_line(block.mime_type), 40)}), not played]")
        elif isinstance(block, mcp_types.ResourceLink):
            parts.append(f"[a link to a resource: {_cut(_one_line(str(block.uri)), 200)}]")
        elif isinstance(block, mcp_types.EmbeddedResource):
            parts.append(f"[a resource: {_cut(_one_line(str(block.resource.uri)), 200)}, not shown]")
        else:
            parts.append("[content Parley cannot show]")
    if not parts and result.structured_content is not None:
        with contextlib.suppress(TypeError, ValueError, RecursionError):
            parts.append(json.dumps(result.structured_content, ensure_ascii=False)[: MAX_MESSAGE_CHARS * 20])
    text = "\n".join(parts)
    if result.is_error:
        first = _cut(_one_line(text), 120) or "no reason given"
        return bounded(
            ToolResult(text=f"Error: {text or 'the tool failed'}", summary=f"{what} failed: {first}", is_error=True)
        )
    return bounded(ToolResult(text=text, summary=f"{what} ({server})"))


# --------------------------------------------------------------------------- helpers


def _model_name(server: str, remote: str, taken: set[str]) -> str:
    if NAME.match(remote) and remote not in taken:
        return remote
    base = f"{_slug(server)}_{_slug(remote)}"
    if not base[0].isalpha():
        base = "mcp_" + base
    base = base[:64]
    name, number = base, 2
    while name in taken:
        suffix = f"_{number}"
        name = base[: 64 - len(suffix)] + suffix
        number += 1
    return name


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "_", text).strip("_") or "x"


def _depth(value: Any, limit: int = MAX_SCHEMA_DEPTH + 1) -> int:
    """How deep lists and objects nest in ``value`` (stops counting past ``limit``)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, depth)
            if deepest > limit:
                return deepest
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return deepest


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")


def _clean(text: str) -> str:
    """``text`` without control characters (tabs and line ends kept) or direction overrides."""
    return _CONTROL.sub("", text)


def _one_line(text: str) -> str:
    return " ".join(_clean(text).split())


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _count(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def _value_shown(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return _cut(_one_line(text), 40)


def _first_line(exc: BaseException) -> str:
    text = _one_line(str(exc))
    return _cut(text, 300) if text else type(exc).__name__


def _validation_line(exc: ValidationError) -> str:
    errors = exc.errors()
    if not errors:
        return "malformed"
    where = ".".join(str(part) for part in errors[0]["loc"])
    return _cut(_one_line(f"{where + ': ' if where else ''}{errors[0]['msg']}"), 200)


def _stage_words(stage: str) -> str:
    return {"start": "at its start", "handshake": "the MCP handshake", "list": "the request for its tools"}.get(
        stage, "while connected"
    )


def _leaf(exc: BaseException) -> BaseException:
    """The first exception inside exception groups, preferring one that is not a cancellation."""
    nested: Sequence[BaseException] | None = getattr(exc, "exceptions", None)
    while nested:
        cancelled = anyio.get_cancelled_exc_class()
        exc = next((e for e in nested if not isinstance(e, cancelled)), nested[0])
        nested = getattr(exc, "exceptions", None)
    return exc


def _name_thread() -> None:
    threading.current_thread().name = "parley-mcp"


def _client_info() -> mcp_types.Implementation:
    version = "0"
    with contextlib.suppress(Exception):
        from importlib.metadata import version as package_version

        version = package_version("parley")
    return mcp_types.Implementation(name=CLIENT_NAME, version=version)
