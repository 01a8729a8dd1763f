"""Between a transport and the SDK's ``ClientSession``: tool lists checked one tool at a time.

The SDK checks a ``tools/list`` answer as a whole: one tool whose schema is not an object
schema, or whose name is not text, fails the whole list, and with it every good tool of that
server.  The sieve watches the requests going out; in the answer to a ``tools/list`` it checks
each tool alone against the protocol version the server agreed to (the SDK's own rules,
``mcp_types.methods``), drops those that fail and notes why (``refused``), so that the session
sees a list it accepts.  Every other message passes unchanged, in both directions.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any, Protocol

import anyio
import mcp_types
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.shared.message import SessionMessage
from mcp_types import methods as protocol_methods
from pydantic import ValidationError

DEFAULT_VERSION = "2025-11-25"  # what the SDK assumes before the handshake
MAX_REFUSED_SHOWN = 200  # characters of one refusal's reason


class Sending(Protocol):
    """What a transport's write stream is to the sieve."""

    async def send(self, item: SessionMessage, /) -> None: ...

    async def aclose(self) -> None: ...


Receiving = AsyncIterator[SessionMessage | Exception]  # what a transport's read stream is to it
# The streams a ``ClientSession`` takes: what it reads, what it writes.
SessionStreams = tuple[MemoryObjectReceiveStream[SessionMessage | Exception], MemoryObjectSendStream[SessionMessage]]


class Sieve:
    """Put ``around`` a transport's streams; read ``refused`` after each ``list_tools``."""

    def __init__(self) -> None:
        self.version = DEFAULT_VERSION
        self.refused: list[str] = []  # one line per tool dropped from the last tools/list answer
        self._tool_lists: set[Any] = set()  # ids of tools/list requests awaiting their answer
        self._handshakes: set[Any] = set()

    @contextlib.asynccontextmanager
    async def around(
        self, read: Receiving, write: Sending
    ) -> AsyncIterator[
        tuple[MemoryObjectReceiveStream[SessionMessage | Exception], MemoryObjectSendStream[SessionMessage]]
    ]:
        to_session, session_reads = anyio.create_memory_object_stream[SessionMessage | Exception](0)
        session_writes, from_session = anyio.create_memory_object_stream[SessionMessage](0)
        try:
            async with anyio.create_task_group() as tg:
                tg.start_soon(self._inbound, read, to_session)
                tg.start_soon(self._outbound, from_session, write)
                try:
                    yield session_reads, session_writes
                finally:
                    tg.cancel_scope.cancel()
        finally:
            for stream in (to_session, session_reads, session_writes, from_session):
                stream.close()

    async def _outbound(self, messages: MemoryObjectReceiveStream[SessionMessage], write: Sending) -> None:
        with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream):
            async for item in messages:
                message = item.message
                if isinstance(message, mcp_types.JSONRPCRequest):
                    if message.method == "tools/list":
                        self._tool_lists.add(message.id)
                    elif message.method == "initialize":
                        self._handshakes.add(message.id)
                await write.send(item)
        with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
            await write.aclose()

    async def _inbound(self, read: Receiving, out: MemoryObjectSendStream[SessionMessage | Exception]) -> None:
        try:
            with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream):
                async for item in read:
                    if isinstance(item, SessionMessage) and isinstance(item.message, mcp_types.JSONRPCResponse):
                        self._look_at(item.message)
                    await out.send(item)
        finally:
            out.close()

    def _look_at(self, response: mcp_types.JSONRPCResponse) -> None:
        if response.id in self._handshakes:
            self._handshakes.discard(response.id)
            version = response.result.get("protocolVersion")
            if isinstance(version, str):
                self.version = version
        elif response.id in self._tool_lists:
            self._tool_lists.discard(response.id)
            tools = response.result.get("tools")
            if isinstance(tools, list):
                response.result["tools"] = self._sift(tools)

    def _sift(self, tools: list[Any]) -> list[Any]:
        self.refused = []
        kept = []
        for index, tool in enumerate(tools):
            problem = self._problem(tool)
            if problem:
                name = tool.get("name") if isinstance(tool, dict) else None
                who = f"tool {_shown(name)}" if isinstance(name, str) else f"tool number {index + 1}"
                self.refused.append(f"{who} is not valid MCP: {problem}")
            else:
                kept.append(tool)
        return kept

    def _problem(self, tool: Any) -> str:
        if not isinstance(tool, dict):
            return "not an object"
        try:
            protocol_methods.validate_server_result("tools/list", self.version, {"tools": [tool]})
        except (KeyError, ValueError) as exc:
            if not isinstance(exc, ValidationError):
                return ""  # a version the SDK has no rules for: the session decides
            error = exc.errors()[0] if exc.errors() else None
            if error is None:
                return "malformed"
            where = ".".join(str(part) for part in error["loc"][2:])  # past "tools", 0
            return _cut(f"{where + ': ' if where else ''}{error['msg']}", MAX_REFUSED_SHOWN)
        try:
            mcp_types.Tool.model_validate(tool, by_name=False)
        except ValidationError as exc:
            return _cut(str(exc.errors()[0]["msg"]) if exc.errors() else "malformed", MAX_REFUSED_SHOWN)
        return ""


def _shown(name: str) -> str:
    text = repr(name)
    return text if len(text) <= 60 else text[:59] + "…"


def _cut(text: str, limit: int) -> str:
    text = "".join(c if c.isprintable() else " " for c in text)
    return text if len(text) <= limit else text[: limit - 1] + "…"
