"""``parley dictate --toggle``: start or end a dictation in the running Parley; the words are
typed into the application that has the focus."""

from __future__ import annotations

import argparse

from .running_app import add_toggle_parser, send_toggle


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    add_toggle_parser(sub, "dictate", "dictating into the app you are in")


def run(_args: argparse.Namespace) -> int:
    return send_toggle("dictate")
