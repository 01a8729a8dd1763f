"""A StatusNotifierWatcher for tests: what a desktop's panel runs so that tray icons can appear.

Run as ``python -m tests.support.sni_watcher`` on a private session bus (``DBUS_SESSION_BUS_ADDRESS``):
it owns ``org.kde.StatusNotifierWatcher``, says a host is registered (so Qt shows its tray icon
as a StatusNotifierItem), and prints ``registered SERVICE PATH`` for each item that registers,
flushed, for the test to read.  It answers only what Qt asks: the registration methods, the
three properties and introspection.
"""

from __future__ import annotations

import sys

from jeepney import DBusAddress, HeaderFields, MessageType, new_error, new_method_return, new_signal
from jeepney.bus_messages import message_bus
from jeepney.io.blocking import open_dbus_connection

NAME = "org.kde.StatusNotifierWatcher"
PATH = "/StatusNotifierWatcher"
INTROSPECTION = f"""<node>
 <interface name="{NAME}">
  <method name="RegisterStatusNotifierItem"><arg name="service" type="s" direction="in"/></method>
  <method name="RegisterStatusNotifierHost"><arg name="service" type="s" direction="in"/></method>
  <property name="RegisteredStatusNotifierItems" type="as" access="read"/>
  <property name="IsStatusNotifierHostRegistered" type="b" access="read"/>
  <property name="ProtocolVersion" type="i" access="read"/>
  <signal name="StatusNotifierItemRegistered"><arg type="s"/></signal>
  <signal name="StatusNotifierItemUnregistered"><arg type="s"/></signal>
  <signal name="StatusNotifierHostRegistered"/>
 </interface>
 <interface name="org.freedesktop.DBus.Properties">
  <method name="Get"><arg type="s" direction="in"/><arg type="s" direction="in"/>
   <arg type="v" direction="out"/></method>
  <method name="GetAll"><arg type="s" direction="in"/><arg type="a{{sv}}" direction="out"/></method>
 </interface>
</node>"""


def main() -> None:
    conn = open_dbus_connection(bus="SESSION")
    conn.send_and_get_reply(message_bus.RequestName(NAME))
    items: list[str] = []
    print("ready", flush=True)
    while True:
        msg = conn.receive()
        if msg.header.message_type != MessageType.method_call:
            continue
        fields = msg.header.fields
        member, interface = fields.get(HeaderFields.member), fields.get(HeaderFields.interface)
        sender = fields.get(HeaderFields.sender)
        properties = {
            "RegisteredStatusNotifierItems": ("as", list(items)),
            "IsStatusNotifierHostRegistered": ("b", True),
            "ProtocolVersion": ("i", 0),
        }
        if member == "RegisterStatusNotifierItem":
            (service,) = msg.body
            path = service if service.startswith("/") else "/StatusNotifierItem"
            bus_name = sender if service.startswith("/") else service
            items.append(f"{bus_name}{path}")
            conn.send(new_method_return(msg))
            conn.send(new_signal(DBusAddress(PATH, interface=NAME), "StatusNotifierItemRegistered", "s", (items[-1],)))
            print(f"registered {bus_name} {path}", flush=True)
        elif member == "RegisterStatusNotifierHost":
            conn.send(new_method_return(msg))
        elif member == "Get" and interface == "org.freedesktop.DBus.Properties":
            _iface, name = msg.body
            if name in properties:
                conn.send(new_method_return(msg, "v", (properties[name],)))
            else:
                conn.send(new_error(msg, "org.freedesktop.DBus.Error.UnknownProperty"))
        elif member == "GetAll":
            conn.send(new_method_return(msg, "a{sv}", (properties,)))
        elif member == "Introspect":
            conn.send(new_method_return(msg, "s", (INTROSPECTION,)))
        else:
            conn.send(new_error(msg, "org.freedesktop.DBus.Error.UnknownMethod"))


if __name__ == "__main__":
    sys.exit(main())
