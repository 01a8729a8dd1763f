"""The checks every request passes before any route sees it (an ASGI middleware).

- **Host:** on a loopback address without an API key, only requests naming a loopback host
  (``localhost``, ``127.x.x.x``, ``[::1]``) are served.  A web page the user visits could
  otherwise point its own domain at 127.0.0.1 (DNS rebinding) and read the answers.
- **Key:** with an API key, every request must carry ``Authorization: Bearer KEY`` (compared in
  constant time).
- **Size:** a body longer than its route's limit gets 413, from its declared length before it
  is read, or as soon as a chunked body passes the limit.
- **Activity:** how many model requests are in progress, reported to ``on_busy`` when it
  changes between none and some (the app's "a request is running").
"""

from __future__ import annotations

import hmac
import ipaddress
import threading
from collections.abc import Callable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .api_errors import ApiError
from .limits import MAX_JSON_BODY, MAX_UPLOAD_BODY

UPLOAD_PATHS = ("/v1/audio/transcriptions",)
MODEL_PATHS = (
    "/v1/chat/completions",
    "/v1/completions",
    "/v1/embeddings",
    "/v1/audio/transcriptions",
    "/api/chat",
    "/api/generate",
    "/api/embed",
    "/api/embeddings",
)


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address, IPv6 with or without brackets) is this machine only."""
    name = host.strip().lower().strip("[]")
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


class Activity:
    """Model requests in progress, counted from any thread."""

    def __init__(self, on_busy: Callable[[bool], None] | None) -> None:
        self._count = 0
        self._lock = threading.Lock()
        self._on_busy = on_busy

    @property
    def busy(self) -> bool:
        return self._count > 0

    def change(self, delta: int) -> None:
        # The callback runs under the lock, so that the changes it reports keep their order.
        with self._lock:
            before = self._count > 0
            self._count += delta
            after = self._count > 0
            if before != after and self._on_busy is not None:
                self._on_busy(after)


class Guard:
    def __init__(self, app: ASGIApp, *, api_key: str | None, loopback_hosts_only: bool, activity: Activity) -> None:
        self.app = app
        self.api_key = api_key.encode() if api_key else None
        self.loopback_hosts_only = loopback_hosts_only
        self.activity = activity

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        try:
            self._check_host(headers.get(b"host", b""))
            self._check_key(headers.get(b"authorization", b""))
            limit = MAX_UPLOAD_BODY if scope["path"] in UPLOAD_PATHS else MAX_JSON_BODY
            declared = headers.get(b"content-length")
            if declared is not None and (not declared.isdigit() or int(declared) > limit):
                raise _too_large(limit)
        except ApiError as exc:
            await exc.response(scope["path"])(scope, receive, send)
            return
        counted = scope["path"] in MODEL_PATHS and scope["method"] == "POST"
        if counted:
            self.activity.change(1)
        try:
            await self.app(scope, _limited(receive, limit), send)
        finally:
            if counted:
                self.activity.change(-1)

    def _check_host(self, host: bytes) -> None:
        if not self.loopback_hosts_only:
            return
        name = host.decode("latin-1")
        name = name.rsplit(":", 1)[0] if name.count(":") == 1 or name.startswith("[") else name
        if not is_loopback(name):
            raise ApiError(400, "this server answers requests for localhost only", code="invalid_host")

    def _check_key(self, authorization: bytes) -> None:
        if self.api_key is None:
            return
        scheme, _, token = authorization.partition(b" ")
        if scheme.lower() != b"bearer" or not hmac.compare_digest(token.strip(), self.api_key):
            raise ApiError(401, "a valid API key is required: send 'Authorization: Bearer KEY'", code="invalid_api_key")


def _too_large(limit: int) -> ApiError:
    return ApiError(413, f"the request body is larger than {limit // (1 << 20)} MiB", code="request_too_large")


def _limited(receive: Receive, limit: int) -> Receive:
    """``receive`` that raises a 413 ApiError (handled by the routes' error handler) once the
    body passes ``limit`` bytes, whatever its declared length."""
    seen = 0

    async def wrapped() -> Message:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > limit:
                raise _too_large(limit)
        return message

    return wrapped
