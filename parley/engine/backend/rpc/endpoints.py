"""Remote compute servers as the user writes them: ``[TOKEN@]HOST:PORT``, parsed, named and shown.

Text only: nothing here opens a socket or reads a file, so the settings and the settings dialog
use it as they would a string function.

- ``parse_endpoint(text) -> (host, port)``: validates ``[TOKEN@]HOST:PORT`` (``RemoteError``,
  which never repeats a token); ``split_token(text) -> (token or None, "HOST:PORT")``;
- ``server_endpoint(text)``: the ``HOST:PORT`` that names the server everywhere (devices, lost
  servers, messages), never with its token; ``public_endpoint(text)``: the text to show (the
  token masked); ``with_token(endpoint, token)``.
"""

from __future__ import annotations

from ...errors import RemoteError
from .wire import TOKEN_SIZE

DEFAULT_PORT = 50052
_MAX_ENDPOINT_TEXT = 512
_HOST_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_:%")
_HEX = frozenset("0123456789abcdefABCDEF")


def split_token(text: str) -> tuple[bytes | None, str]:
    """``[TOKEN@]HOST:PORT`` as the token's bytes (None without one) and ``HOST:PORT``, both
    checked; RemoteError when malformed (its message never holds the token)."""
    value = (text or "").strip()
    if len(value) > _MAX_ENDPOINT_TEXT:
        raise RemoteError(f"a server endpoint of {len(value)} characters is not HOST:PORT")
    secret, at, public = value.partition("@")
    if not at:
        secret, public = "", value
    elif len(secret) != 2 * TOKEN_SIZE or not set(secret) <= _HEX:
        raise RemoteError(
            f"the token in TOKEN@{public} must be {2 * TOKEN_SIZE} hex characters (it has "
            f"{len(secret)}); copy it from what `parley rpc-server` printed"
        )
    _host_and_port(public)
    return (bytes.fromhex(secret) if secret else None), public


def _host_and_port(public: str) -> tuple[str, int]:
    host, sep, port_text = public.rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if (
        not sep
        or not host
        or len(host) > 253
        or not set(host) <= _HOST_CHARS
        or not port_text.isascii()
        or not port_text.isdigit()
        or not 0 < int(port_text) < 65536
    ):
        raise RemoteError(f"{public!r} is not HOST:PORT (for example 192.168.1.20:{DEFAULT_PORT})")
    return host, int(port_text)


def parse_endpoint(text: str) -> tuple[str, int]:
    """``[TOKEN@]HOST:PORT`` (``[v6addr]:PORT`` too) as a host and a port; RemoteError when malformed."""
    return _host_and_port(split_token(text)[1])


def server_endpoint(text: str) -> str:
    """``HOST:PORT`` of ``[TOKEN@]HOST:PORT``: the name devices, ``server_of``, ``lost_reason``
    and the ``on_lost`` callbacks use for that server; never fails (nothing is checked)."""
    value = (text or "").strip()
    _, at, public = value.partition("@")
    return public if at else value


def public_endpoint(text: str) -> str:
    """What to show of an endpoint as entered: a token replaced by ``…``; never fails."""
    value = (text or "").strip()
    return f"…@{server_endpoint(value)}" if "@" in value else value


def with_token(endpoint: str, token: bytes | None) -> str:
    """``endpoint`` with ``token`` in front when it has none of its own."""
    if token is None or "@" in endpoint:
        return endpoint
    return f"{token.hex()}@{endpoint.strip()}"
