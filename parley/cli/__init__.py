"""The ``parley`` command: no command starts the desktop app; commands work without Qt.

``tests/test_layout.py`` checks that no command reaches Qt through its imports: of the app the
CLI imports only its entry (``app.main``, to open the window) and ``desktop.instance_socket``;
paths and settings come from ``parley.config``.  ``tests/cli/test_cli.py`` checks the arguments.

Which arguments mean the app: none at all, or options that are not the command line's own
(``--self-test``, Qt's ``-platform offscreen``...), which go to the app unchanged.  A first word
that is not an option must be a command: a mistyped one is an error that lists the commands,
never a window opening instead.  ``-v/--verbose`` may come before or after the command.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import logging
import sys
from collections.abc import Sequence
from types import ModuleType

from ..engine.errors import ParleyError

# Each subcommand module has add_parser(subparsers) and run(args) -> int.
COMMANDS = ("devices", "transcribe", "chat", "say", "dictate", "ask", "models", "docs", "wake", "rpc-server", "serve")

_VERBOSE = ("-v", "--verbose")
_OWN_OPTIONS = ("-h", "--help", "--version", *_VERBOSE)
EXIT_USAGE = 2  # as argparse: the command line itself is wrong


def _command(name: str) -> ModuleType:
    return importlib.import_module(f"{__name__}.{name.replace('-', '_')}")


def wants_app(args: Sequence[str]) -> bool:
    """Whether ``args`` (without the program name) ask for the desktop app rather than a command."""
    rest = [a for a in args if a not in _VERBOSE]
    return not rest or (rest[0].startswith("-") and rest[0] not in _OWN_OPTIONS)


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if wants_app(args_list):
        from ..app.main import run_app  # Qt only when the window is wanted

        return run_app([sys.argv[0], *args_list])
    word = next((a for a in args_list if not a.startswith("-")), None)
    if word is not None and word not in COMMANDS and args_list[0] not in ("-h", "--help", "--version"):
        return _unknown_command(_parser(), word)
    # Only the named command's module is imported: ``parley dictate --press`` runs on each key
    # press of a desktop binding, and the other commands' imports (numpy, the engines) would
    # make it several times slower.
    parser = _parser(only=word)
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


def _parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser: every command's, or only the one named ``only``."""
    parser = argparse.ArgumentParser(prog="parley", description="Local, private voice and chat assistant.")
    parser.add_argument("--version", action="version", version=_version())
    parser.add_argument(*_VERBOSE, action="store_true", help="show native library log messages")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in (only,) if only in COMMANDS else COMMANDS:
        _command(name).add_parser(sub)
        # Also after the command; SUPPRESS keeps the subparser from resetting a -v given before it.
        sub.choices[name].add_argument(
            *_VERBOSE, action="store_true", default=argparse.SUPPRESS, help="show native library log messages"
        )
    parser.epilog = "Run without a command to open the desktop app (parley --self-test checks a build)."
    return parser


def _unknown_command(parser: argparse.ArgumentParser, word: str) -> int:
    close = difflib.get_close_matches(word, COMMANDS, n=1)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    print(f"parley: error: '{word}' is not a command{hint}\n", file=sys.stderr)
    print(parser.format_help(), file=sys.stderr, end="")
    return EXIT_USAGE


def _version() -> str:
    from .. import __version__

    return f"parley {__version__}"
