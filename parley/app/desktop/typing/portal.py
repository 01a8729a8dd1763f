"""Typing into other apps on GNOME and KDE (Wayland): the desktop portal's RemoteDesktop keyboard.

GNOME and KDE give apps no virtual keyboard; their portal's RemoteDesktop interface does, once
the user agrees in the desktop's dialog.  For each dictation Parley opens a keyboard-only
session (``SelectDevices`` with ``persist_mode`` 2, so the desktop may remember the answer; the
restore token it returns is kept in Parley's cache folder, and later sessions start without
asking), types each character as its keysym (``NotifyKeyboardKeysym``), and closes the session.

The desktop maps a keysym to a key of the user's current layout, so a character the layout
lacks may not arrive; the wlroots path (``wayland``) has no such limit.  Written against
the interface's documentation and tested against a portal that follows it on a private bus; not
run on a real GNOME or KDE here.  Every value the portal sends back is checked before use.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from parley.config.paths import cache_dir

from .. import portal as portal_bus
from ..keysyms import char_keysym
from ..portal import CALL_TIMEOUT_S, PORTAL, PORTAL_PATH

log = logging.getLogger("parley.typing")

INTERFACE = "org.freedesktop.portal.RemoteDesktop"
START_TIMEOUT_S = 120.0  # the user may be answering the desktop's dialog
KEYBOARD = 1  # device type bit
PERSIST_UNTIL_REVOKED = 2
TOKEN_FILE = "remote-desktop-token"
MAX_TOKEN = 512
_TOKEN = re.compile(r"[A-Za-z0-9_.:/+=-]{1,512}")
_SPECIAL = {"\n": 0xFF0D, "\t": 0xFF09}  # Return, Tab


class PortalTypingUnavailable(RuntimeError):
    """No session bus, no portal, no RemoteDesktop keyboard, or the user said no."""


def token_path() -> Path:
    return cache_dir() / TOKEN_FILE


def _load_token(path: Path) -> str | None:
    from parley.engine import untrusted
    from parley.engine.errors import UntrustedFileError

    if not path.exists():
        return None
    try:
        token = untrusted.read_bytes(path, MAX_TOKEN).decode("ascii").strip()
    except (UntrustedFileError, UnicodeDecodeError):
        return None
    return token if _TOKEN.fullmatch(token) else None


def _save_token(path: Path, token: object) -> None:
    if not isinstance(token, str) or not _TOKEN.fullmatch(token):
        return
    try:
        from parley.engine.atomic import atomic_write

        path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_write(path, "w", encoding="ascii") as fh:
            fh.write(token)
    except OSError as exc:  # a full disk: the desktop asks again next time
        log.warning("the remote-desktop token was not kept (%s)", exc)


class PortalKeyboard:
    """A RemoteDesktop keyboard session for one dictation (``bus_address``: another bus)."""

    def __init__(self, bus_address: str | None = None, token_file: Path | None = None) -> None:
        self._conn = portal_bus.open_bus(bus_address, PortalTypingUnavailable)
        self._token_file = token_file or token_path()
        self._session: str | None = None
        try:
            available = self._property("AvailableDeviceTypes")
            if not isinstance(available, int) or not available & KEYBOARD:
                raise PortalTypingUnavailable("the desktop portal offers no remote keyboard")
            self._start()
        except BaseException:
            self.close()
            raise

    def type_text(self, text: str, delay_s: float = 0.0, cancelled: Callable[[], bool] = lambda: False) -> int:
        """Type ``text`` as keysyms; how many characters went (fewer when ``cancelled``)."""
        from jeepney import DBusAddress, new_method_call

        portal = DBusAddress(PORTAL_PATH, bus_name=PORTAL, interface=INTERFACE)
        typed = 0
        for char in text:
            if cancelled():
                break
            keysym = _SPECIAL.get(char) or char_keysym(char)
            for state in (1, 0):
                call = new_method_call(portal, "NotifyKeyboardKeysym", "oa{sv}iu", (self._session, {}, keysym, state))
                reply = self._conn.send_and_get_reply(call, timeout=CALL_TIMEOUT_S)
                if reply.header.message_type.name == "error":
                    raise PortalTypingUnavailable(f"the desktop refused a key: {reply.body}")
            typed += 1
            if delay_s:
                time.sleep(delay_s)
        return typed

    def close(self) -> None:
        portal_bus.close_session(self._conn, self._session)
        try:
            self._conn.close()
        except OSError:
            pass

    def _property(self, name: str) -> Any:
        from jeepney import DBusAddress, DBusErrorResponse, Properties

        portal = DBusAddress(PORTAL_PATH, bus_name=PORTAL, interface=INTERFACE)
        try:
            reply = self._conn.send_and_get_reply(Properties(portal).get(name), timeout=CALL_TIMEOUT_S)
        except (DBusErrorResponse, TimeoutError, OSError) as exc:
            raise PortalTypingUnavailable(f"the desktop portal offers no remote keyboard ({exc})") from exc
        if reply.header.message_type.name == "error":
            raise PortalTypingUnavailable(f"the desktop portal offers no remote keyboard ({reply.body})")
        return _variant(reply.body[0]) if reply.body else None

    def _start(self) -> None:
        from jeepney import DBusAddress, new_method_call

        portal = DBusAddress(PORTAL_PATH, bus_name=PORTAL, interface=INTERFACE)
        token = _token()
        options = {"handle_token": ("s", token), "session_handle_token": ("s", _token())}
        results = self._request(new_method_call(portal, "CreateSession", "a{sv}", (options,)), token, CALL_TIMEOUT_S)
        session = _variant(results.get("session_handle"))
        if not isinstance(session, str) or not session.startswith("/"):
            raise PortalTypingUnavailable("the portal gave no session")
        self._session = session
        token = _token()
        select: dict[str, tuple[str, Any]] = {
            "handle_token": ("s", token),
            "types": ("u", KEYBOARD),
            "persist_mode": ("u", PERSIST_UNTIL_REVOKED),
        }
        restore = _load_token(self._token_file)
        if restore:
            select["restore_token"] = ("s", restore)
        call = new_method_call(portal, "SelectDevices", "oa{sv}", (session, select))
        self._request(call, token, CALL_TIMEOUT_S)
        token = _token()
        call = new_method_call(portal, "Start", "osa{sv}", (session, "", {"handle_token": ("s", token)}))
        started = self._request(call, token, START_TIMEOUT_S)
        devices = _variant(started.get("devices"))
        if not isinstance(devices, int) or not devices & KEYBOARD:
            raise PortalTypingUnavailable("the desktop did not give Parley a keyboard")
        _save_token(self._token_file, _variant(started.get("restore_token")))

    def _request(self, call: Any, token: str, timeout: float) -> dict[str, Any]:
        declined = "you declined typing into other apps in the desktop's dialog"
        return portal_bus.request(self._conn, call, token, timeout, PortalTypingUnavailable, declined)


def portal_keyboard_problem(bus_address: str | None = None) -> str | None:
    """Why the portal cannot type here (None: it offers a remote keyboard); asks no dialog."""
    from jeepney import DBusAddress, DBusErrorResponse, Properties

    try:
        conn = portal_bus.open_bus(bus_address, PortalTypingUnavailable)
    except PortalTypingUnavailable as exc:
        return str(exc)
    try:
        portal = DBusAddress(PORTAL_PATH, bus_name=PORTAL, interface=INTERFACE)
        reply = conn.send_and_get_reply(Properties(portal).get("AvailableDeviceTypes"), timeout=CALL_TIMEOUT_S)
        if reply.header.message_type.name == "error":
            return "the desktop portal offers no remote keyboard"
        available = _variant(reply.body[0]) if reply.body else None
        if isinstance(available, int) and available & KEYBOARD:
            return None
        return "the desktop portal offers no remote keyboard"
    except (DBusErrorResponse, TimeoutError, OSError) as exc:
        return f"the desktop portal offers no remote keyboard ({exc})"
    finally:
        conn.close()


_token = portal_bus.new_token
_variant = portal_bus.variant
