"""``parley ask --toggle``: start or end a spoken question to the running Parley, answered in
its quick-ask window."""

from __future__ import annotations

import argparse

from .running_app import add_toggle_parser, send_toggle


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    add_toggle_parser(sub, "ask", "a spoken question to Parley")


def run(_args: argparse.Namespace) -> int:
    return send_toggle("ask")
