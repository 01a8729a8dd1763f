"""Handing a take to the Parley app that is running (``parley dictate``, ``parley ask``), through
its single-instance socket: for desktops whose own key bindings run a command (Wayland desktops
without the GlobalShortcuts portal, tiling window managers).

- ``--toggle``: each run starts or ends a take, for desktops whose shortcut settings only see
  presses (GNOME's and KDE's custom shortcuts);
- ``--press`` / ``--release``: the key's press and release, where the desktop can bind both
  (sway's and i3's ``bindsym --release``, Hyprland's ``bindr``): held, the take lasts while the
  key is down; a short tap starts a take that the next press ends, as with Parley's own keys.

Qt is not loaded on this path (see ``instance_socket``): it runs on each key press.
"""

from __future__ import annotations

import argparse
import sys

EXIT_NOT_RUNNING = 1
HOW = ("toggle", "press", "release")


def add_take_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], name: str, what: str
) -> argparse.ArgumentParser:
    p = sub.add_parser(name, help=f"start or stop {what} in the running Parley")
    how = p.add_mutually_exclusive_group(required=True)
    how.add_argument(
        "--toggle",
        action="store_true",
        help="start a take when none is running, else end it (bind this to a key in your desktop's settings)",
    )
    how.add_argument("--press", action="store_true", help="the shortcut's key went down (bind to the key's press)")
    how.add_argument("--release", action="store_true", help="the shortcut's key went up (bind to the key's release)")
    return p


def send_take(name: str, args: argparse.Namespace) -> int:
    from ..app.desktop.instance_socket import forward, socket_name
    from ..config.paths import data_dir

    how = next(h for h in HOW if getattr(args, h))
    socket = socket_name(data_dir())
    if socket is None or not forward(socket, [name, f"--{how}"], connect_timeout_s=0.5):
        print("parley: Parley is not running; start it first (run `parley`).", file=sys.stderr)
        return EXIT_NOT_RUNNING
    return 0
