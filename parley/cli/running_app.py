"""Handing a command to the Parley app that is running (``parley dictate --toggle``, ``parley ask
--toggle``), through its single-instance socket: for desktops whose shortcut settings run a
command on a key press (Wayland desktops without the GlobalShortcuts portal, tiling window
managers' key bindings)."""

from __future__ import annotations

import argparse
import sys

EXIT_NOT_RUNNING = 1


def add_toggle_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser], name: str, what: str) -> None:
    p = sub.add_parser(name, help=f"start or stop {what} in the running Parley")
    p.add_argument(
        "--toggle",
        action="store_true",
        required=True,
        help="start a take when none is running, else end it (bind this to a key in your desktop's settings)",
    )


def send_toggle(name: str) -> int:
    from PySide6.QtCore import QCoreApplication

    from ..app.conversations.store import data_dir
    from ..app.desktop.single_instance import forward, socket_name

    _app = QCoreApplication.instance() or QCoreApplication([sys.argv[0]])
    socket = socket_name(data_dir())
    if socket is None or not forward(socket, [name, "--toggle"], connect_timeout_s=0.5):
        print("parley: Parley is not running; start it first (run `parley`).", file=sys.stderr)
        return EXIT_NOT_RUNNING
    return 0
