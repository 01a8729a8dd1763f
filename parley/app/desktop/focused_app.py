"""Which application has the keyboard focus, where the desktop says so: on X11 the focused
window's ``WM_CLASS`` (python-xlib, Qt-free), read when a dictation's take starts.

``WM_CLASS`` is another program's data: it is read with a bounded length, as Latin-1 (its
type is STRING), only printable characters kept, each part cut to ``MAX_NAME`` characters.

The focus may be on a child of the application's top-level window (some toolkits focus an
inner window) or on the window manager's frame around it: the class is looked for on the
focused window and its ancestors, then on the frame's children, then on the window the window
manager calls active (``_NET_ACTIVE_WINDOW``).  Wayland tells no application which window has
the focus, so there the answer is always None; so it is on Windows and macOS for now.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("parley.typing")

MAX_NAME = 100
_MAX_PROPERTY_LONGS = 128  # 512 bytes of WM_CLASS at most
_MAX_DEPTH = 32  # ancestors walked up; a real tree is a few levels deep


@dataclass(frozen=True)
class FocusedApp:
    """The application that has the focus: its X window (the one holding ``WM_CLASS``) and the
    two parts of its class, as the application set them (``gnome-terminal-server``, ``Gnome-terminal``)."""

    window: int
    instance: str
    app_class: str

    @property
    def name(self) -> str:
        """For the user: the class (``Gnome-terminal``), else the instance."""
        return self.app_class or self.instance

    def keys(self) -> tuple[str, ...]:
        """What a mode table is looked up by: the instance and the class, in lower case."""
        return tuple(dict.fromkeys(k.lower() for k in (self.instance, self.app_class) if k))


def focused_app(window: int = 0, display: str | None = None) -> FocusedApp | None:
    """The application of ``window`` (an X window id; 0: the one with the focus now) on the X
    server ``display`` (None: ``$DISPLAY``); None when it cannot be told."""
    try:
        from Xlib import display as xdisplay, error
    except ImportError:
        return None
    try:
        connection = xdisplay.Display(display)
    except (error.DisplayError, error.ConnectionClosedError, OSError) as exc:
        log.info("the focused application cannot be told: %s", exc)
        return None
    try:
        if window <= 1:
            focus = connection.get_input_focus().focus
            window = focus if isinstance(focus, int) else int(focus.id)
        root = connection.screen().root
        found = _class_upwards(connection, window, root.id) if window > 1 else None
        if found is None and window > 1:
            found = _class_below(connection, window)
        if found is None:
            active = _active_window(connection, root)
            found = _class_upwards(connection, active, root.id) if active else None
        return found
    except (error.XError, error.ConnectionClosedError, OSError) as exc:  # the window went away meanwhile
        log.info("the focused application cannot be told: %s", exc)
        return None
    finally:
        connection.close()


def _wm_class(connection: Any, window: int) -> FocusedApp | None:
    from Xlib import Xatom

    w = connection.create_resource_object("window", window)
    reply = w.get_property(Xatom.WM_CLASS, Xatom.STRING, 0, _MAX_PROPERTY_LONGS)
    if reply is None or reply.format != 8:
        return None
    value = reply.value if isinstance(reply.value, bytes) else bytes(reply.value)
    parts = value.decode("latin-1").split("\0")
    instance, app_class = (_printable(p) for p in (parts + ["", ""])[:2])
    if not (instance or app_class):
        return None
    return FocusedApp(window, instance, app_class)


def _class_upwards(connection: Any, window: int, root: int) -> FocusedApp | None:
    for _ in range(_MAX_DEPTH):
        found = _wm_class(connection, window)
        if found is not None:
            return found
        parent = connection.create_resource_object("window", window).query_tree().parent
        parent_id = parent if isinstance(parent, int) else int(parent.id)
        if parent_id in (0, root):
            return None
        window = parent_id
    return None


def _class_below(connection: Any, window: int) -> FocusedApp | None:
    """A window manager's frame has its client among its children (two levels at most)."""
    level = [window]
    for _ in range(2):
        children = []
        for w in level:
            for child in connection.create_resource_object("window", w).query_tree().children:
                found = _wm_class(connection, int(child.id))
                if found is not None:
                    return found
                children.append(int(child.id))
        level = children[:64]
    return None


def _active_window(connection: Any, root: Any) -> int:
    from Xlib import Xatom

    atom = connection.intern_atom("_NET_ACTIVE_WINDOW", only_if_exists=True)
    if not atom:
        return 0
    reply = root.get_property(atom, Xatom.WINDOW, 0, 1)
    if reply is None or reply.format != 32 or not reply.value:
        return 0
    return int(reply.value[0])


def _printable(text: str) -> str:
    return "".join(c for c in text if c.isprintable())[:MAX_NAME]
