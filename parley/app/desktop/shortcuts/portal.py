"""System-wide shortcuts on Wayland: the XDG desktop portal's GlobalShortcuts interface (Qt-free).

On Wayland only the desktop may hand out global shortcuts.  Where its portal offers the
GlobalShortcuts interface (KDE Plasma 5.27+, GNOME 48+), Parley asks for a session, binds its
shortcuts with the keys it prefers (the desktop may show them to the user, who may change or
refuse them), and then hears ``Activated`` (pressed) and ``Deactivated`` (released) for them.

The conversation runs on a thread of its own, on a D-Bus connection of its own (jeepney),
since binding may wait for the user to answer the desktop's dialog: ``on_bound(problems)``
reports how binding went, then ``on_press(name, 0)`` / ``on_release(name)`` follow, once per
press however often the desktop repeats ``Activated`` while the keys are held (KDE does, every
40 ms).  Parley listens for them before it reports, so a press right after ``on_bound`` counts.
Every value the portal sends back is checked before use (types, names Parley asked for).

KDE's portal before Plasma 6.1 (xdg-desktop-portal-kde 5.27 to 6.0, KDE bug 474741) ignores the
list given to ``BindShortcuts`` and binds only the ``shortcuts`` given in ``CreateSession``'s
options, so Parley passes them there too (newer portals drop that option).  KDE also names the
shortcuts' owner in its settings after the session token, so Parley's token is always the same
(``SESSION_TOKEN``): a new one each run would make a new owner, and the keys would stay with the
first.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from ...take_purpose import TakePurpose
from .. import portal as portal_bus
from ..keysyms import CONTROL_MASK, MOD1_MASK, MOD4_MASK, SHIFT_MASK, KeyCombo, xkb_name
from ..portal import CALL_TIMEOUT_S, PORTAL, PORTAL_PATH

log = logging.getLogger("parley.keys")

INTERFACE = "org.freedesktop.portal.GlobalShortcuts"
BIND_TIMEOUT_S = 300.0  # the user may be answering the desktop's dialog
DESCRIPTIONS: dict[str, str] = {
    TakePurpose.DICTATE: "Dictate: type what you say into the app you are in",
    TakePurpose.DICTATE_CLEANED: "Dictate, cleaned up by Parley's chat model",
    TakePurpose.ASK: "Ask Parley a question",
}
# The GlobalShortcuts session's token, the same every run: KDE keeps the user's keys under it.
SESSION_TOKEN = "parley_shortcuts"
SIGNAL_BACKLOG = 64  # signals that may arrive while Parley is still binding or reporting


class PortalUnavailable(RuntimeError):
    """No session bus, no portal, or a portal without GlobalShortcuts."""


def preferred_trigger(combo: KeyCombo) -> str:
    """A shortcut in the notation of the XDG shortcuts specification ("CTRL+ALT+space")."""
    names = [name for mask, name in _MODIFIER_NAMES if combo.modifiers & mask]
    return "+".join([*names, xkb_name(combo.keysym)])


_MODIFIER_NAMES = ((CONTROL_MASK, "CTRL"), (MOD1_MASK, "ALT"), (SHIFT_MASK, "SHIFT"), (MOD4_MASK, "LOGO"))


class PortalShortcuts:
    """Binds shortcuts through the portal on the session bus (``bus_address``: another bus)."""

    def __init__(
        self,
        on_press: Callable[[str, int], None],
        on_release: Callable[[str], None],
        on_bound: Callable[[dict[str, str]], None],
        bus_address: str | None = None,
    ) -> None:
        self._conn = portal_bus.open_bus(bus_address, PortalUnavailable)
        self._on_press, self._on_release, self._on_bound = on_press, on_release, on_bound
        self._session: str | None = None
        self._closing = False
        self._thread: threading.Thread | None = None
        try:
            self._check_interface()
        except PortalUnavailable:
            self._conn.close()
            raise

    def start(self, combos: dict[str, KeyCombo]) -> None:
        """Bind ``combos`` (by name) on the portal's thread; ``on_bound`` says how it went."""
        self._thread = threading.Thread(target=self._run, args=(dict(combos),), name="parley-portal-keys", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._closing = True
        if self._thread is not None:
            self._thread.join(timeout=2.0)
        try:
            self._conn.close()
        except OSError:
            pass

    def _check_interface(self) -> None:
        from jeepney import DBusAddress, DBusErrorResponse, Properties

        portal = DBusAddress(PORTAL_PATH, bus_name=PORTAL, interface=INTERFACE)
        try:
            reply = self._conn.send_and_get_reply(Properties(portal).get("version"), timeout=CALL_TIMEOUT_S)
        except (DBusErrorResponse, TimeoutError, OSError) as exc:
            raise PortalUnavailable(f"the desktop portal offers no global shortcuts ({exc})") from exc
        if reply.header.message_type.name == "error":
            raise PortalUnavailable(f"the desktop portal offers no global shortcuts ({reply.body})")

    def _run(self, combos: dict[str, KeyCombo]) -> None:
        from jeepney import MatchRule

        # Listen before binding: KDE binds in CreateSession, and a press may follow at once.
        rule = MatchRule(type="signal", interface=INTERFACE, path=PORTAL_PATH)
        with self._conn.filter(rule, bufsize=SIGNAL_BACKLOG) as signals:
            try:
                self._add_match(rule)
                problems = self._bind(combos)
            except (PortalUnavailable, OSError, TimeoutError) as exc:
                problems = dict.fromkeys(combos, f"The desktop did not give Parley its shortcuts: {exc}")
            self._on_bound(problems)
            if self._session is None:
                return
            held: set[str] = set()
            while not self._closing:
                try:
                    msg = signals.popleft() if signals else self._conn.recv_until_filtered(signals, timeout=0.25)
                except TimeoutError:
                    continue
                except OSError:
                    break
                self._signal(msg, set(combos), held)
        self._close_session()

    def _signal(self, msg: Any, names: set[str], held: set[str]) -> None:
        from jeepney import HeaderFields

        member = msg.header.fields.get(HeaderFields.member)
        body = msg.body
        if len(body) < 2 or body[0] != self._session or body[1] not in names:
            return
        name = body[1]
        if member == "Activated" and name not in held:
            held.add(name)
            self._on_press(name, 0)
        elif member == "Deactivated" and name in held:
            held.discard(name)
            self._on_release(name)

    def _bind(self, combos: dict[str, KeyCombo]) -> dict[str, str]:
        from jeepney import DBusAddress, new_method_call

        portal = DBusAddress(PORTAL_PATH, bus_name=PORTAL, interface=INTERFACE)
        shortcuts = [
            (
                name,
                {
                    "description": ("s", DESCRIPTIONS.get(name, name)),
                    "preferred_trigger": ("s", preferred_trigger(combo)),
                },
            )
            for name, combo in combos.items()
        ]
        token = portal_bus.new_token()
        options = {
            "handle_token": ("s", token),
            "session_handle_token": ("s", SESSION_TOKEN),
            "shortcuts": ("a(sa{sv})", shortcuts),  # for KDE before Plasma 6.1 (see above)
        }
        results = self._request(new_method_call(portal, "CreateSession", "a{sv}", (options,)), token, CALL_TIMEOUT_S)
        session = _variant(results.get("session_handle"))
        if not isinstance(session, str) or not session.startswith("/"):
            raise PortalUnavailable("the portal gave no session")
        self._session = session
        token = portal_bus.new_token()
        call = new_method_call(
            portal, "BindShortcuts", "oa(sa{sv})sa{sv}", (session, shortcuts, "", {"handle_token": ("s", token)})
        )
        bound = self._request(call, token, BIND_TIMEOUT_S)
        given = _variant(bound.get("shortcuts"))
        got: set[str] = set()
        if isinstance(given, list):
            for entry in given:
                if isinstance(entry, (list, tuple)) and len(entry) == 2 and isinstance(entry[0], str):
                    got.add(entry[0])
                    trigger = _variant(entry[1].get("trigger_description")) if isinstance(entry[1], dict) else None
                    log.info("the desktop gave %s the keys %s", entry[0], trigger if isinstance(trigger, str) else "?")
        return {
            name: f"The desktop did not give Parley {combo.text}; set a key for it in your desktop's shortcut settings."
            for name, combo in combos.items()
            if name not in got
        }

    def _request(self, call: Any, token: str, timeout: float) -> dict[str, Any]:
        """Make a portal request and wait for its Response; its results, or PortalUnavailable."""
        return portal_bus.request(self._conn, call, token, timeout, PortalUnavailable, "the request was cancelled")

    def _add_match(self, rule: Any) -> None:
        portal_bus.add_match(self._conn, rule)

    def _close_session(self) -> None:
        portal_bus.close_session(self._conn, self._session)


_variant = portal_bus.variant
