"""What Parley's conversations with the XDG desktop portal share (Qt-free): the bus connection,
a request and its ``Response``, and reading the variants the portal sends back.

Each conversation (``shortcuts.portal``, ``typing.portal``) opens a D-Bus connection of its own
with jeepney and raises its own error type, which it passes in here.
"""

from __future__ import annotations

import secrets
from typing import Any

PORTAL = "org.freedesktop.portal.Desktop"
PORTAL_PATH = "/org/freedesktop/portal/desktop"
CALL_TIMEOUT_S = 10.0


def open_bus(bus_address: str | None, error: type[Exception]) -> Any:
    """A jeepney connection to the session bus (or ``bus_address``); ``error`` when there is none."""
    try:
        from jeepney.io.blocking import open_dbus_connection
    except ImportError as exc:
        raise error("jeepney is not installed") from exc
    try:
        return open_dbus_connection(bus=bus_address or "SESSION")
    except KeyError as exc:
        raise error("no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)") from exc
    except (OSError, ValueError) as exc:
        raise error(f"no D-Bus session bus ({exc})") from exc


def request(conn: Any, call: Any, token: str, timeout: float, error: type[Exception], declined: str) -> dict[str, Any]:
    """Make a portal request and wait for its ``Response``: its results, else ``error`` (with
    ``declined`` when the user cancelled the desktop's dialog)."""
    from jeepney import MatchRule

    sender = (conn.unique_name or "").lstrip(":").replace(".", "_")
    path = f"{PORTAL_PATH}/request/{sender}/{token}"
    rule = MatchRule(type="signal", interface="org.freedesktop.portal.Request", member="Response", path=path)
    add_match(conn, rule)
    with conn.filter(rule) as responses:
        reply = conn.send_and_get_reply(call, timeout=CALL_TIMEOUT_S)
        if reply.header.message_type.name == "error":
            raise error(f"the portal refused: {reply.body}")
        try:
            msg = conn.recv_until_filtered(responses, timeout=timeout)
        except TimeoutError as exc:
            raise error("the desktop did not answer") from exc
    if len(msg.body) != 2 or not isinstance(msg.body[1], dict):
        raise error("the portal answered in an unknown form")
    code, results = msg.body
    if code != 0:
        raise error(declined if code == 1 else f"the request failed ({code})")
    return results


def add_match(conn: Any, rule: Any) -> None:
    from jeepney.bus_messages import message_bus

    conn.send_and_get_reply(message_bus.AddMatch(rule), timeout=CALL_TIMEOUT_S)


def close_session(conn: Any, session: str | None) -> None:
    """Ask the portal to close ``session`` (nothing when there is none, or the bus is gone)."""
    from jeepney import DBusAddress, new_method_call

    if session is None:
        return
    try:
        address = DBusAddress(session, bus_name=PORTAL, interface="org.freedesktop.portal.Session")
        conn.send(new_method_call(address, "Close"))
    except OSError:
        pass


def new_token() -> str:
    """A request or session handle token: unique, and as the portal requires, a plain name."""
    return "parley_" + secrets.token_hex(8)


def variant(value: Any) -> Any:
    """The value of a D-Bus variant as jeepney gives it (signature, value); anything else: None."""
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], str):
        return value[1]
    return None
