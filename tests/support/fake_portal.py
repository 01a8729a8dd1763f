"""The XDG desktop portal's GlobalShortcuts interface, as documented, for tests on a private bus.

Run as ``python -m tests.support.fake_portal [--refuse | --no-shortcuts]`` on a private session
bus (``DBUS_SESSION_BUS_ADDRESS``).  It owns ``org.freedesktop.portal.Desktop`` and answers:

- ``Properties.Get(GlobalShortcuts, "version")`` (``--no-shortcuts``: an UnknownInterface
  error, as a portal without a GlobalShortcuts backend gives);
- ``CreateSession``: a Request path, then its ``Response`` with the session handle;
- ``BindShortcuts``: ``Response`` with every shortcut bound to its preferred trigger, printing
  ``bound ID TRIGGER`` for each (``--refuse``: response 1, the user cancelled the dialog).

And the RemoteDesktop interface's keyboard (``--no-remote-desktop``: not offered;
``--decline``: the user says no in the dialog): ``AvailableDeviceTypes`` 7, ``CreateSession``,
``SelectDevices`` (printing ``select restore=TOKEN``, ``-`` for none), ``Start`` (devices 1 and
the restore token ``token-1``), and ``NotifyKeyboardKeysym`` (printing ``keysym HEX STATE``).

And the Settings interface's ``org.freedesktop.appearance`` namespace, as GNOME's and KDE's
portals give it: ``color-scheme`` (0: no preference, 1: dark, 2: light; ``--dark`` starts at 1)
and ``contrast`` (0: normal, 1: high; ``--high-contrast`` starts at 1), through ``ReadAll``,
``Read`` and ``ReadOne``.

Lines on its standard input make the desktop's key events: ``press ID`` sends ``Activated``,
``release ID`` sends ``Deactivated``, ``press-other ID`` sends ``Activated`` for a session
that is not the client's; ``appearance KEY VALUE`` changes a setting and sends
``SettingChanged``, as the desktop does when the user switches to dark.  It prints ``ready``
once it owns its name.
"""

from __future__ import annotations

import sys
import threading
import time

from jeepney import HeaderFields, MessageType, new_error, new_method_return, new_signal
from jeepney.bus_messages import message_bus
from jeepney.io.blocking import open_dbus_connection
from jeepney.low_level import Message
from jeepney.wrappers import DBusAddress

NAME = "org.freedesktop.portal.Desktop"
PATH = "/org/freedesktop/portal/desktop"
SHORTCUTS = "org.freedesktop.portal.GlobalShortcuts"
REMOTE = "org.freedesktop.portal.RemoteDesktop"
REQUEST = "org.freedesktop.portal.Request"
SETTINGS = "org.freedesktop.portal.Settings"
APPEARANCE = "org.freedesktop.appearance"


def main() -> None:
    refuse, no_shortcuts = "--refuse" in sys.argv, "--no-shortcuts" in sys.argv
    no_remote, decline = "--no-remote-desktop" in sys.argv, "--decline" in sys.argv
    conn = open_dbus_connection(bus="SESSION")
    conn.send_and_get_reply(message_bus.RequestName(NAME))
    lock = threading.Lock()
    session = {"path": ""}
    appearance = {"color-scheme": 1 if "--dark" in sys.argv else 0, "contrast": int("--high-contrast" in sys.argv)}

    def send(msg: Message) -> None:
        with lock:
            conn.send(msg)

    def key_events() -> None:
        for line in sys.stdin:
            words = line.split()
            if len(words) == 3 and words[0] == "appearance":
                appearance[words[1]] = int(words[2])
                emitter = DBusAddress(PATH, interface=SETTINGS)
                send(new_signal(emitter, "SettingChanged", "ssv", (APPEARANCE, words[1], ("u", int(words[2])))))
                continue
            if len(words) != 2 or not session["path"]:
                continue
            action, shortcut = words
            member = "Deactivated" if action == "release" else "Activated"
            handle = session["path"] if action != "press-other" else PATH + "/session/other/1"
            emitter = DBusAddress(PATH, interface=SHORTCUTS)
            send(new_signal(emitter, member, "osta{sv}", (handle, shortcut, int(time.time() * 1000), {})))

    threading.Thread(target=key_events, daemon=True).start()
    print("ready", flush=True)
    while True:
        msg = conn.receive()
        if msg.header.message_type != MessageType.method_call:
            continue
        fields = msg.header.fields
        member, interface = fields.get(HeaderFields.member), fields.get(HeaderFields.interface)
        sender = str(fields.get(HeaderFields.sender)).lstrip(":").replace(".", "_")
        if interface == SETTINGS and member == "ReadAll":
            (namespaces,) = msg.body
            wanted = any(n in (APPEARANCE, "org.freedesktop.*", "") for n in namespaces) or not namespaces
            values = {APPEARANCE: {k: ("u", v) for k, v in appearance.items()}} if wanted else {}
            send(new_method_return(msg, "a{sa{sv}}", (values,)))
        elif interface == SETTINGS and member in ("Read", "ReadOne"):
            namespace, key = msg.body
            if namespace != APPEARANCE or key not in appearance:
                send(new_error(msg, "org.freedesktop.portal.Error.NotFound", "s", (f"{namespace} {key}",)))
            else:
                value = ("u", appearance[key])
                send(new_method_return(msg, "v", (("v", value) if member == "Read" else value,)))
        elif (
            interface == "org.freedesktop.DBus.Properties"
            and member == "Get"
            and tuple(msg.body)
            == (
                SETTINGS,
                "version",
            )
        ):
            send(new_method_return(msg, "v", (("u", 2),)))
        elif interface == "org.freedesktop.DBus.Properties" and member == "Get" and tuple(msg.body)[:1] == (REMOTE,):
            if no_remote or tuple(msg.body) != (REMOTE, "AvailableDeviceTypes"):
                send(new_error(msg, "org.freedesktop.DBus.Error.UnknownInterface", "s", ("no such interface",)))
            else:
                send(new_method_return(msg, "v", (("u", 7),)))
        elif interface == "org.freedesktop.DBus.Properties" and member == "Get":
            if no_shortcuts or tuple(msg.body) != (SHORTCUTS, "version"):
                send(new_error(msg, "org.freedesktop.DBus.Error.UnknownInterface", "s", ("no such interface",)))
            else:
                send(new_method_return(msg, "v", (("u", 1),)))
        elif interface == REMOTE and member in ("SelectDevices", "Start"):
            handle, *rest = msg.body
            options = rest[-1]
            request = f"{PATH}/request/{sender}/{options['handle_token'][1]}"
            send(new_method_return(msg, "o", (request,)))
            if member == "SelectDevices":
                print(f"select restore={options.get('restore_token', ('s', '-'))[1]}", flush=True)
                results: dict = {}
            elif decline:
                send(new_signal(DBusAddress(request, interface=REQUEST), "Response", "ua{sv}", (1, {})))
                continue
            else:
                print("started", flush=True)
                results = {"devices": ("u", 1), "restore_token": ("s", "token-1")}
            send(new_signal(DBusAddress(request, interface=REQUEST), "Response", "ua{sv}", (0, results)))
        elif interface == REMOTE and member == "NotifyKeyboardKeysym":
            _handle, _options, keysym, state = msg.body
            print(f"keysym {keysym:x} {state}", flush=True)
            send(new_method_return(msg))
        elif interface in (SHORTCUTS, REMOTE) and member == "CreateSession":
            (options,) = msg.body
            request = f"{PATH}/request/{sender}/{options['handle_token'][1]}"
            session["path"] = f"{PATH}/session/{sender}/{options['session_handle_token'][1]}"
            send(new_method_return(msg, "o", (request,)))
            results = {"session_handle": ("o", session["path"])}
            send(new_signal(DBusAddress(request, interface=REQUEST), "Response", "ua{sv}", (0, results)))
        elif interface == SHORTCUTS and member == "BindShortcuts":
            handle, shortcuts, _parent, options = msg.body
            request = f"{PATH}/request/{sender}/{options['handle_token'][1]}"
            send(new_method_return(msg, "o", (request,)))
            if refuse:
                send(new_signal(DBusAddress(request, interface=REQUEST), "Response", "ua{sv}", (1, {})))
                continue
            bound = []
            for shortcut_id, props in shortcuts:
                trigger = props["preferred_trigger"][1]
                print(f"bound {shortcut_id} {trigger}", flush=True)
                bound.append(
                    (shortcut_id, {"description": props["description"], "trigger_description": ("s", trigger)})
                )
            results = {"shortcuts": ("a(sa{sv})", bound)}
            send(new_signal(DBusAddress(request, interface=REQUEST), "Response", "ua{sv}", (0, results)))
        elif member == "Close":
            send(new_method_return(msg))
            print("closed", flush=True)
        else:
            send(new_error(msg, "org.freedesktop.DBus.Error.UnknownMethod", "s", (f"{member}",)))


if __name__ == "__main__":
    main()
