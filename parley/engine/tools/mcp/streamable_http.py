"""An MCP server reached over Streamable HTTP: the SDK's client, with bounds and timeouts.

The SDK's transport reads a JSON answer whole, however large; here the HTTP client's every
response body passes through ``BoundedTransport``, which stops reading past
``max_message_bytes`` (the SDK then answers that request with an error and the connection
stays usable), and its event streams are bounded per event by the SDK's own limit, set to the
same size.  Connecting has its own timeout; waiting for an answer is bounded by the caller.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import httpx2
from mcp.client.streamable_http import streamable_http_client

from .config import HttpServer
from .sieve import Receiving, Sending
from .stdio import MAX_MESSAGE_BYTES


class ResponseTooLarge(httpx2.StreamError):
    """A response body past the bound (a ``StreamError``, which the SDK turns into an error
    answer for that one request)."""


class BoundedTransport(httpx2.AsyncBaseTransport):
    """An HTTP transport whose response bodies stop at ``max_bytes``; ``cuts`` counts them."""

    def __init__(self, inner: httpx2.AsyncBaseTransport, max_bytes: int) -> None:
        self._inner = inner
        self._max_bytes = max_bytes
        self.cuts = 0

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        response = await self._inner.handle_async_request(request)
        if not isinstance(response.stream, httpx2.AsyncByteStream):  # not from an async transport
            return response
        return httpx2.Response(
            status_code=response.status_code,
            headers=response.headers,
            stream=_BoundedStream(response.stream, self),
            extensions=response.extensions,
            request=request,
        )

    async def aclose(self) -> None:
        await self._inner.aclose()

    def too_large(self) -> ResponseTooLarge:
        self.cuts += 1
        size = f"{self._max_bytes / (1 << 20):g} MiB"
        return ResponseTooLarge(f"the server's answer is larger than {size}; Parley stopped reading it")


class _BoundedStream(httpx2.AsyncByteStream):
    def __init__(self, inner: httpx2.AsyncByteStream, transport: BoundedTransport) -> None:
        self._inner = inner
        self._transport = transport

    async def __aiter__(self) -> AsyncIterator[bytes]:
        total = 0
        async for chunk in self._inner:
            total += len(chunk)
            if total > self._transport._max_bytes:
                raise self._transport.too_large()
            yield chunk

    async def aclose(self) -> None:
        await self._inner.aclose()


class HttpTransport:
    """The connection to one Streamable HTTP server (``open``), its headers on every request."""

    def __init__(
        self,
        server: HttpServer,
        *,
        connect_timeout: float,
        read_timeout: float,
        max_message_bytes: int = MAX_MESSAGE_BYTES,
    ) -> None:
        self.server = server
        self.max_message_bytes = max_message_bytes
        self._timeout = httpx2.Timeout(connect_timeout, read=read_timeout)
        self.bounded = BoundedTransport(httpx2.AsyncHTTPTransport(), max_message_bytes)

    @property
    def cuts(self) -> int:
        """How many answers were too large so far."""
        return self.bounded.cuts

    def too_large(self) -> str:
        return f"its answer was larger than {self.max_message_bytes / (1 << 20):g} MiB; Parley stopped reading it"

    @contextlib.asynccontextmanager
    async def open(self) -> AsyncIterator[tuple[Receiving, Sending]]:
        client = httpx2.AsyncClient(headers=dict(self.server.headers), timeout=self._timeout, transport=self.bounded)
        async with (
            client,
            streamable_http_client(self.server.url, http_client=client, max_sse_event_size=self.max_message_bytes) as (
                read,
                write,
            ),
        ):
            yield read, write
