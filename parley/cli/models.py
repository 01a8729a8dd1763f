"""``parley models``: the models on this computer, the catalog, downloads and removals.

``parley models`` lists every usable model with where it was found; ``catalog`` lists the
recommended models; ``download ID`` fetches one (Ctrl-C stops it and keeps the partial file
for the next try); ``remove ID`` deletes a model Parley downloaded.  Nothing is downloaded
unless ``download`` is asked for.  Catalog entries and download records that are malformed
(another program's files) are skipped, each reported as a one-line warning.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from pathlib import Path

from ..app.settings import load_settings
from ..engine import library
from ..engine.errors import CatalogError, DownloadCancelled
from ..engine.library.found import hf_cache_dir, printable
from ..engine.library.units import duration, gb

ACTIONS = ("list", "catalog", "download", "remove")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "models",
        help="list, download and remove models (see `parley models -h`)",
        description="Models on this computer and the catalog of recommended models. "
        "Nothing is downloaded unless you run `parley models download ID`.",
    )
    p.add_argument(
        "action",
        nargs="?",
        choices=ACTIONS,
        default="list",
        help="list (default): usable models and where they are; catalog: recommended "
        "models; download ID; remove ID (only models Parley downloaded)",
    )
    p.add_argument("id", nargs="?", help="a catalog id (for download and remove)")
    p.add_argument(
        "--folder",
        action="append",
        default=[],
        help="also look in this folder (repeatable; the folders from Settings are always used)",
    )
    p.add_argument("--all", action="store_true", help="list: also the files that cannot be used, with the reason")
    p.add_argument("--json", action="store_true", help="machine-readable output (list and catalog)")


def run(args: argparse.Namespace) -> int:
    if args.action in ("download", "remove") and not args.id:
        print(f"parley models {args.action}: give a catalog id (see `parley models catalog`)", file=sys.stderr)
        return 2
    _warn_skipped(args.action)
    if args.action == "catalog":
        return _catalog(args)
    if args.action == "download":
        return _download(args.id)
    if args.action == "remove":
        return _remove(args.id)
    return _list(args)


def _warn_skipped(action: str) -> None:
    """One warning line per skipped catalog entry and download record; a catalog that cannot be
    read at all is a warning for ``list`` (which does not need it) and an error otherwise."""
    try:
        problems = list(library.catalog_problems())
    except CatalogError as exc:
        if action != "list":
            raise
        problems = [str(exc)]
    for problem in [*problems, *library.record_problems()]:
        print(f"parley: warning: {problem}", file=sys.stderr)


def _folders(extra: list[str]) -> list[str]:
    return list(dict.fromkeys([*load_settings().settings.model_folders, *extra]))


def _list(args: argparse.Namespace) -> int:
    models = library.list_models(_folders(args.folder))
    shown = models if args.all else [m for m in models if m.usable]
    if args.json:
        print(
            json.dumps(
                [
                    {
                        "path": str(m.path),
                        "name": m.name,
                        "source": m.source,
                        "kind": m.kind,
                        "size": m.size,
                        "usable": m.usable,
                        "problem": m.problem,
                        "detail": m.detail,
                    }
                    for m in shown
                ],
                indent=2,
            )
        )
        return 0
    if not shown:
        print("No model files found. `parley models catalog` lists models to download.")
    for m in shown:
        status = f"{m.kind:6}" if m.usable else "broken"
        print(f"{status}  {gb(m.size):>7}  {m.source:20}  {m.name}")
        where = printable(str(m.path), limit=None)  # a name from another tool's folder may not be UTF-8
        print(f"{'':8}{where}" + (f"\n{'':8}cannot be used: {m.problem}" if m.problem else f"  ({m.detail})"))
    hidden = len(models) - len(shown)
    if hidden:
        print(f"\n{hidden} more file(s) found that cannot be used; `parley models --all` shows why.")
    return 0


def _catalog(args: argparse.Namespace) -> int:
    have = library.downloaded()
    entries = library.catalog()
    if args.json:
        print(
            json.dumps(
                [{**e.__dict__, "languages": list(e.languages), "downloaded": e.id in have} for e in entries], indent=2
            )
        )
        return 0
    for kind, title in (("speech", "Speech (whisper.cpp)"), ("chat", "Chat (GGUF)")):
        print(title)
        for e in (e for e in entries if e.kind == kind):
            mark = "*" if e.id in have else " "
            print(f" {mark} {e.id:30} {gb(e.size):>7}  {e.parameters:>6}  {e.licence}")
            print(f"   {'':30} {e.note} Languages: {', '.join(e.languages)}.")
        print()
    print(
        "* downloaded. Get one with `parley models download ID`; files go to the Hugging Face cache "
        f"({hf_cache_dir()})."
    )
    return 0


class _Cancel:
    def __init__(self) -> None:
        self.cancelled = False


def _download(model_id: str) -> int:
    entry = library.find_entry(model_id)
    print(
        f"Downloading {entry.name} ({gb(entry.size)}) from {entry.repo}; Ctrl-C stops "
        "(the next try continues where it stopped).",
        file=sys.stderr,
    )
    cancel = _Cancel()
    outcome: dict[str, object] = {}
    done = threading.Event()

    def work() -> None:
        try:
            outcome["path"] = library.download_model(entry, progress=_show_progress, cancel=cancel)
        except BaseException as exc:  # handed to the main thread
            outcome["error"] = exc
        finally:
            done.set()

    threading.Thread(target=work, name="parley-download", daemon=True).start()
    while not done.is_set():
        try:
            done.wait()
        except KeyboardInterrupt:
            cancel.cancelled = True
    print(file=sys.stderr)
    error = outcome.get("error")
    if isinstance(error, DownloadCancelled):
        print(
            f"Stopped. The partial download is kept; `parley models download {model_id}` continues it.", file=sys.stderr
        )
        return 130
    if isinstance(error, BaseException):  # ParleyError: printed by parley.cli.main
        raise error
    path = Path(str(outcome["path"]))
    print(f"Ready: {path}")
    warning = library.fit_warning(
        path, kind=entry.kind, n_ctx=load_settings().settings.context_length, device=load_settings().settings.device
    )
    if warning:
        print(f"parley: warning: {warning}", file=sys.stderr)
    return 0


def _show_progress(p: library.Progress) -> None:
    if p.stage == "checking":
        line = f"\r  checking the part already downloaded: {p.fraction:4.0%}"
    else:
        left = f", {duration(p.eta)} left" if p.eta is not None else ""
        line = f"\r  {p.fraction:4.0%}  {gb(p.done)} of {gb(p.total)}, {p.speed / 1e6:.1f} MB/s{left}"
    sys.stderr.write(line.ljust(72))
    sys.stderr.flush()


def _remove(model_id: str) -> int:
    removed = library.remove_model(model_id)
    if not removed:
        print(f"Nothing of {model_id} was left on disk; it is no longer listed.")
    for path in removed:
        print(f"removed {path}")
    return 0
