"""Which Qt platform plugin to ask for, decided before the ``QApplication`` exists.

Qt 6.9 and later (the wheels Parley ships) have a Wayland plugin that needs
``wl_proxy_marshal_flags``, which libwayland-client has since 1.20.  On systems with an older
one (Debian 11, Ubuntu 20.04) the plugin cannot load, and on a Wayland session Qt then stops
with "Could not load the Qt platform plugin".  There Parley asks for X11 (XWayland) instead,
which every such desktop runs.  A platform the user chose (``QT_QPA_PLATFORM``) is left alone.

A plugin that is missing or fails anyway (no display, a library missing) is said in one line
and ends the process with a status (``platform_failure_said``), not with Qt's abort.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import logging
import os
import sys
from collections.abc import Callable, Iterator, MutableMapping

from PySide6.QtCore import QtMsgType, qInstallMessageHandler

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


PLATFORM_FAILED = 2  # the exit status when Qt's platform plugin cannot start (as the self-test's "could not start")


@contextlib.contextmanager
def platform_failure_said(on_failure: Callable[[str], None] | None = None) -> Iterator[None]:
    """While the ``QApplication`` is made: a platform plugin that is missing or fails (no display,
    a missing library) ends the process with ``PLATFORM_FAILED`` and one clear line on stderr,
    instead of Qt's abort; ``on_failure(message)`` runs first (the self-test writes its report).
    Qt's own lines before it (the real reason: "could not connect to display :0") are kept."""
    said: list[str] = []

    def handler(kind: QtMsgType, _context: object, message: str) -> None:
        if kind != QtMsgType.QtFatalMsg:
            said.append(message)
            _say(message)
            return
        platform = os.environ.get("QT_QPA_PLATFORM") or "the default"
        reasons = [line for line in said if "platform plugin" not in line.lower() or "could not" in line.lower()]
        reason = "; ".join(line.strip().rstrip(".") for line in reasons[-3:]) or message.splitlines()[0]
        text = (
            f"Parley could not open its window: Qt's platform plugin ({platform}) failed: {reason}. "
            "With no display, QT_QPA_PLATFORM=offscreen runs Parley off screen; on Wayland, QT_QPA_PLATFORM=wayland "
            "or xcb chooses the other plugin. Qt said: " + " ".join(message.split())
        )
        try:
            if on_failure is not None:
                on_failure(text)
        finally:
            _say(text)
            os._exit(PLATFORM_FAILED)

    previous = qInstallMessageHandler(handler)
    try:
        yield
    finally:
        qInstallMessageHandler(previous)


def _say(line: str) -> None:
    """A line on stderr, where there is one (a windowed app on Windows has none)."""
    with contextlib.suppress(Exception):
        if sys.stderr is not None:
            sys.stderr.write(line + "\n")
            sys.stderr.flush()
