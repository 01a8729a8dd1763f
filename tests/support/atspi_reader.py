"""What a screen reader sees of an application, read through AT-SPI as Orca reads it.

Run by the system's Python (``/usr/bin/python3``), which has Debian's ``python3-pyatspi``; the
tests' own Python (the project's venv) does not, so ``tests/support/atspi.py`` starts this as a
separate process on the accessibility bus of the test's session bus.  Standard library and
pyatspi only.

    atspi_reader.py tree PID      the accessible tree of the application with process id PID, as
                                  JSON: each object's role, name, description, states, children
    atspi_reader.py focused PID   prints "listening", then, once an object of PID takes the
                                  focus, the tree of the object holding it (a popup menu, which
                                  an application's tree does not list: a reader finds it so)
    atspi_reader.py events PID    prints "listening", then one JSON line per event that a screen
                                  reader speaks unasked (announcements, the focus moving, a
                                  window opening), until its standard input closes
"""

from __future__ import annotations

import json
import sys
from typing import Any

import pyatspi  # type: ignore[import-not-found]  # the system's Python only
from gi.repository import GLib  # type: ignore[import-not-found]

EVENTS = ("object:announcement", "object:state-changed:focused", "window:activate")
MAX_DEPTH = 60  # far deeper than any window nests; only a cycle reaches it


def application(pid: int) -> Any:
    desktop = pyatspi.Registry.getDesktop(0)
    for i in range(desktop.childCount):
        app = desktop.getChildAtIndex(i)
        if app is not None and app.get_process_id() == pid:
            return app
    raise SystemExit(f"no accessible application with process id {pid} on the bus")


def node(accessible: Any, depth: int = 0) -> dict[str, Any]:
    states = accessible.getState()
    children = []
    if depth < MAX_DEPTH:
        for i in range(accessible.childCount):
            child = accessible.getChildAtIndex(i)
            if child is not None:
                children.append(node(child, depth + 1))
    return {
        "role": accessible.getRoleName(),
        "name": accessible.name or "",
        "description": accessible.description or "",
        "states": sorted(pyatspi.stateToString(s) for s in states.getStates()),
        "children": children,
    }


def print_tree(pid: int) -> None:
    print(json.dumps(node(application(pid)), ensure_ascii=False))


def print_events(pid: int) -> None:
    def said(event: Any) -> None:
        try:
            if event.source is None or event.source.get_process_id() != pid:
                return
            if event.type.startswith("object:state-changed:focused") and not event.detail1:
                return  # the focus leaving: a reader says nothing
            source = event.source
            text = event.any_data if isinstance(event.any_data, str) else ""
            line = {
                "type": str(event.type),
                "text": text,
                "detail1": event.detail1,
                "role": source.getRoleName(),
                "name": source.name or "",
                "description": source.description or "",
            }
        except Exception as exc:  # an object gone while its event was read
            line = {"type": str(event.type), "error": str(exc)}
        print(json.dumps(line, ensure_ascii=False), flush=True)

    for kind in EVENTS:
        pyatspi.Registry.registerEventListener(said, kind)
    loop = GLib.MainLoop()
    GLib.io_add_watch(sys.stdin.fileno(), GLib.IO_IN | GLib.IO_HUP, lambda *_: loop.quit() or False)
    print("listening", flush=True)
    loop.run()


def print_focused_parent(pid: int) -> None:
    loop = GLib.MainLoop()

    def focused(event: Any) -> None:
        if event.detail1 and event.source is not None and event.source.get_process_id() == pid:
            print(json.dumps(node(event.source.parent), ensure_ascii=False), flush=True)
            loop.quit()

    pyatspi.Registry.registerEventListener(focused, "object:state-changed:focused")
    print("listening", flush=True)
    loop.run()


if __name__ == "__main__":
    command, pid = sys.argv[1], int(sys.argv[2])
    if command == "tree":
        print_tree(pid)
    elif command == "focused":
        print_focused_parent(pid)
    elif command == "events":
        print_events(pid)
    else:
        raise SystemExit(f"unknown command {command!r}")
