"""``parley dictate --toggle`` (or ``--press`` / ``--release``): start or end a dictation in the
running Parley; the words are typed into the application that has the focus.  ``--cleaned`` is
Dictate, cleaned: the same take, tidied by the chat model whatever the clean-up setting."""

from __future__ import annotations

import argparse

from .running_app import add_take_parser, send_take


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = add_take_parser(sub, "dictate", "dictating into the app you are in")
    p.add_argument(
        "--cleaned",
        action="store_true",
        help="have the chat model clean the words up (grammar, false starts) whatever the clean-up setting",
    )


def run(args: argparse.Namespace) -> int:
    return send_take("dictate-cleaned" if args.cleaned else "dictate", args)  # the app's TakePurpose values
