"""Which Qt platform plugin to ask for, decided before the ``QApplication`` exists.

Qt 6.9 and later (the wheels Parley ships) have a Wayland plugin that needs
``wl_proxy_marshal_flags``, which libwayland-client has since 1.20.  On systems with an older
one (Debian 11, Ubuntu 20.04) the plugin cannot load, and on a Wayland session Qt then stops
with "Could not load the Qt platform plugin".  There Parley asks for X11 (XWayland) instead,
which every such desktop runs.  A platform the user chose (``QT_QPA_PLATFORM``) is left alone.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os
from collections.abc import MutableMapping

log = logging.getLogger("parley.app")

WAYLAND_CLIENT = "libwayland-client.so.0"
NEEDED_SYMBOL = "wl_proxy_marshal_flags"  # libwayland-client 1.20


def wayland_client_too_old(library: str = WAYLAND_CLIENT) -> bool:
    """Whether the system's libwayland-client lacks what Qt's Wayland plugin needs (False
    when there is none at all: Qt says so itself, and X11 is then all there is)."""
    try:
        client = ctypes.CDLL(library)
    except OSError:
        return False
    return not hasattr(client, NEEDED_SYMBOL)


def choose_platform(environ: MutableMapping[str, str] = os.environ, library: str = WAYLAND_CLIENT) -> str | None:
    """Ask for X11 on a Wayland session whose libwayland-client Qt cannot use; returns what was
    set in ``environ`` (None: Qt chooses, as usual)."""
    if environ.get("QT_QPA_PLATFORM") or not environ.get("WAYLAND_DISPLAY") or not environ.get("DISPLAY"):
        return None
    if not wayland_client_too_old(library):
        return None
    log.info("libwayland-client here is older than 1.20, which Qt's Wayland plugin needs: using X11 (XWayland)")
    environ["QT_QPA_PLATFORM"] = "xcb"
    return "xcb"
