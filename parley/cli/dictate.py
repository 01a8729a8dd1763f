"""``parley dictate --toggle`` (or ``--press`` / ``--release``): start or end a dictation in the
running Parley; the words are typed into the application that has the focus."""

from __future__ import annotations

import argparse

from .running_app import add_take_parser, send_take


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    add_take_parser(sub, "dictate", "dictating into the app you are in")


def run(args: argparse.Namespace) -> int:
    return send_take("dictate", args)
