"""``parley ask --toggle`` (or ``--press`` / ``--release``): start or end a spoken question to the
running Parley, answered in its quick-ask window."""

from __future__ import annotations

import argparse

from .running_app import add_take_parser, send_take


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    add_take_parser(sub, "ask", "a spoken question to Parley")


def run(args: argparse.Namespace) -> int:
    return send_take("ask", args)
