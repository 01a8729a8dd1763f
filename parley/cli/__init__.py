"""The ``parley`` command: no arguments starts the desktop app; subcommands work without Qt."""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence
from types import ModuleType

from ..engine.errors import ParleyError

# Each subcommand module has add_parser(subparsers) and run(args) -> int.
COMMANDS = ("devices", "transcribe", "chat", "models")


def _command(name: str) -> ModuleType:
    return importlib.import_module(f"{__name__}.{name}")


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if not args_list or args_list[0] not in COMMANDS and args_list[0] not in ("-h", "--help", "--version"):
        from ..app.main import run_app  # Qt only when the window is wanted

        return run_app([sys.argv[0], *args_list])
    parser = argparse.ArgumentParser(prog="parley", description="Local, private voice and chat assistant.")
    parser.add_argument("--version", action="version", version=_version())
    parser.add_argument("-v", "--verbose", action="store_true", help="show native library log messages")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        _command(name).add_parser(sub)
    parser.epilog = "Run without a command to open the desktop app (parley --self-test checks a build)."
    args = parser.parse_args(args_list)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(name)s: %(message)s")
    if args.verbose:
        import os

        os.environ.setdefault("PARLEY_NATIVE_LOG", "info")
    try:
        if args.command is None:
            parser.print_help()
            return 0
        return int(_command(args.command).run(args) or 0)
    except ParleyError as exc:
        print(f"parley: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _version() -> str:
    from .. import __version__

    return f"parley {__version__}"
