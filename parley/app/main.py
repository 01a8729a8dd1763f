"""``parley`` with no command: the desktop application (``--self-test`` runs the self-test).

``--rpc HOST:PORT`` (repeatable) uses a ``parley rpc-server`` for this session, besides those in
the settings; the other arguments go to Qt.  One Parley runs per conversation database: a later
launch brings the running one's window forward and exits 0 (``desktop.single_instance``);
``parley dictate --toggle`` and ``parley ask --toggle`` reach the running one the same way.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence

from ..config.paths import data_dir
from .bootstrap import create_app, create_window, start_controller
from .desktop import single_instance


def split_rpc(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """``argv`` without its ``--rpc HOST:PORT`` options, and their endpoints."""
    parser = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    parser.add_argument("--rpc", action="append", default=[])
    known, rest = parser.parse_known_args(list(argv[1:]))
    return [argv[0], *rest], known.rpc


def run_app(argv: Sequence[str]) -> int:
    argv, servers = split_rpc(argv)
    if "--self-test" in argv[1:]:
        from .selftest.run import run_self_test

        logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
        return run_self_test(argv, servers)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    app = create_app(argv)
    instance = single_instance.claim(data_dir(), list(argv[1:]))
    if instance is None:
        print("Parley is already running; its window was brought forward.", file=sys.stderr)
        return 0
    window = create_window(show=False)  # shown by the controller, unless Parley starts in the tray
    controller = start_controller(window, session_servers=servers)
    instance.command.connect(controller.command)  # e.g. `parley dictate --toggle`
    code = app.exec()
    if controller.stopped_cleanly is False:
        # An engine thread is still inside a native call (e.g. a model that was still
        # loading); the conversation is saved, so leave now rather than wait for it.
        logging.shutdown()
        os._exit(code)
    return code


if __name__ == "__main__":
    sys.exit(run_app(sys.argv))
