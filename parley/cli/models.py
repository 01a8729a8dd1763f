"""``parley models``: the models on this computer, the catalog, downloads and removals.

``parley models`` lists the built-in starters, then every usable model found on this computer
(Parley's downloads, other tools' folders, the user's own), each with whether it fits this
machine (fits, tight, too big: ``library.FitEstimate.verdict``); ``catalog`` lists the
recommended models with the same column (``--fits`` leaves out those too big); ``download ID``
fetches one (Ctrl-C stops it and keeps the partial file for the next try); ``remove ID`` deletes
a model Parley downloaded; ``install SET`` installs a set of models from PyPI, pinned and
hash-checked (``library.pip_sets``: ``starters``, ``multilingual``, the embedding models).
Both lists show the catalog's embedding models (kind ``embedding``, installed or not), whose ids
``parley serve --embedding-model`` takes.  Nothing is downloaded
unless ``download`` or ``install`` is asked for.  Catalog entries and download records that are
malformed (another program's files) are skipped, each reported as a one-line warning.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from pathlib import Path

from ..config.settings import load_settings
from ..engine import library
from ..engine.errors import CatalogError, DownloadCancelled, ParleyError
from ..engine.library import choice, embedding_models, pip_sets, recommend
from ..engine.library.builtin import SOURCE_BUILTIN, builtin_models
from ..engine.library.human_units import duration, gb
from ..engine.library.local_models import hf_cache_dir, printable

ACTIONS = ("list", "catalog", "download", "remove", "install", "measure")


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
        help="list (default): the built-in starters and the usable models, where they are and "
        "whether they fit; catalog: recommended models; download ID; remove ID (only models Parley "
        f"downloaded); install SET: a set of models from PyPI ({', '.join(pip_sets.names())}); "
        "measure: time the built-in chat models on this machine now, and say which Parley uses",
    )
    p.add_argument("id", nargs="?", help="a catalog id (download, remove) or a set (install)")
    p.add_argument(
        "--folder",
        action="append",
        default=[],
        help="also look in this folder (repeatable; the folders from Settings are always used)",
    )
    p.add_argument("--all", action="store_true", help="list: also the files that cannot be used, with the reason")
    p.add_argument("--json", action="store_true", help="machine-readable output (list and catalog)")
    p.add_argument("--fits", action="store_true", help="catalog: only the models that fit this machine (or are tight)")


def run(args: argparse.Namespace) -> int:
    if args.action in ("download", "remove") and not args.id:
        print(f"parley models {args.action}: give a catalog id (see `parley models catalog`)", file=sys.stderr)
        return 2
    if args.action == "install":
        return _install(args.id)
    if args.action == "measure":
        return _measure()
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


def _fit(path: Path, kind: str | None, size: int, name: str) -> str:
    """fits / tight / too big for a model file with the settings' context and device ("" when
    the kind has no estimate, "?" when the estimate fails)."""
    settings = load_settings().settings
    try:
        if kind == "chat":
            estimate = library.estimate(path, kind=kind, n_ctx=settings.context_length, device=settings.device)
        elif kind in ("speech", "embedding"):
            estimate = library.estimate_size(size, name=name, kind=kind, device=settings.device)
        else:
            return ""
    except ParleyError:
        return "?"
    return estimate.verdict


def _builtin_rows() -> list[dict[str, object]]:
    return [
        {
            "path": str(m.path) if m.path else None,
            "name": m.name,
            "source": SOURCE_BUILTIN,
            "kind": m.kind,
            "size": m.size,
            "usable": m.installed,
            "problem": None if m.installed else f"not installed: `{m.install}` installs it",
            "detail": m.role + (f"; {m.limits}" if m.limits else ""),
            "fit": _fit(m.path, m.kind, m.size, m.name) if m.path else "",
        }
        for m in builtin_models()
    ]


def _embedding_rows() -> list[dict[str, object]]:
    """The catalog's embedding models, installed or not, with the name --embedding-model takes
    (listed with the built-in models: from PyPI, pinned, as the optional Whisper base is)."""
    rows: list[dict[str, object]] = []
    for m in embedding_models.MODELS:
        archive = embedding_models.installed_file(m)
        rows.append(
            {
                "path": str(archive) if archive else None,
                "name": m.name,
                "id": m.id,
                "source": SOURCE_BUILTIN,
                "kind": "embedding",
                "size": archive.stat().st_size if archive else 0,
                "usable": archive is not None,
                "problem": None if archive else f"not installed: `parley models install {m.id}` installs it",
                "detail": f"{m.dimensions} dimensions, {m.note}; `parley serve --embedding-model {m.id}` "
                "or Settings > Desktop",
                "fit": "",
            }
        )
    return rows


def _found_rows(models: list[library.FoundModel]) -> list[dict[str, object]]:
    return [
        {
            "path": str(m.path),
            "name": m.name,
            "source": m.source,
            "kind": m.kind,
            "size": m.size,
            "usable": m.usable,
            "problem": m.problem,
            "detail": m.detail,
            "fit": _fit(m.path, m.kind, m.size, m.name) if m.usable else "",
        }
        for m in models
    ]


def _list(args: argparse.Namespace) -> int:
    models = library.list_models(_folders(args.folder))
    # The sections, in order: what Parley starts with (the starters; installed model packs belong
    # beside them, as rows of the same form), then what was added to this computer.
    rows = _builtin_rows() + _embedding_rows() + _found_rows(models)
    shown = rows if args.all else [r for r in rows if r["usable"] or r["source"] == SOURCE_BUILTIN]
    if args.json:
        print(json.dumps(shown, indent=2))
        return 0
    print(f"{'kind':14}  {'size':>7}  {'fit':7}  {'source':20}  name")
    for r in shown:
        kind = str(r["kind"] or "?") if r["usable"] or r["source"] == SOURCE_BUILTIN else "broken"
        size = gb(int(str(r["size"]))) if r["size"] else "—"
        print(f"{kind:14}  {size:>7}  {str(r['fit']):7}  {str(r['source']):20}  {r['name']}")
        where = printable(str(r["path"]), limit=None) if r["path"] else ""  # another tool's name may not be UTF-8
        said = f"cannot be used: {r['problem']}" if r["problem"] and r["source"] != SOURCE_BUILTIN else ""
        said = said or str(r["problem"] or "") or f"({r['detail']})"
        print(f"{'':16}{where}" + (f"\n{'':16}" if where else "") + said)
    if not any(r["source"] != SOURCE_BUILTIN for r in shown):
        print("\nNo other model files found. `parley models catalog --fits` lists models to download.")
    hidden = len(rows) - len(shown)
    if hidden:
        print(f"\n{hidden} more file(s) found that cannot be used; `parley models --all` shows why.")
    print(
        "fit: for this machine now, with the context length and device of the settings "
        "(fits; tight: most of the free memory; too big)."
    )
    _say_chosen(measure_hint=True)
    return 0


def _say_chosen(*, measure_hint: bool) -> None:
    """Which chat model Parley uses, and why (Settings says the same)."""
    settings = load_settings().settings
    try:
        picked = choice.choose(settings.chat_model, device=settings.device, threads=settings.threads or None)
    except ParleyError as exc:
        print(f"\nChat model: cannot tell which Parley uses ({exc}).")
        return
    if picked.candidate is None:
        print(f"\nChat model: {settings.chat_model} ({picked.reason}).")
        return
    print(f"\nChat model: Parley uses {picked.candidate.name}: {picked.reason}.")
    for candidate_id, speed in picked.speeds.items():
        print(f"  measured here: {candidate_id}: {speed.figures()}, prompt {speed.prompt_tps:.0f} tokens/s")
    if picked.unmeasured and measure_hint:
        print("  `parley models measure` measures the others now (a few seconds each); the app does it when idle.")


def _measure() -> int:
    """Time every built-in chat model not yet measured on this machine, then say the choice."""
    settings = load_settings().settings
    device, threads = settings.device, settings.threads or None
    stored = choice.stored_speeds(device, threads)
    pending = [c for c in reversed(choice.candidates()) if c.id not in stored]
    for candidate in pending:
        print(f"measuring {candidate.name}…", file=sys.stderr, flush=True)
        try:
            speed = choice.measure(candidate, device=device, threads=threads)
        except ParleyError as exc:
            print(f"parley: warning: {candidate.name} could not be measured: {exc}", file=sys.stderr)
            continue
        print(f"{candidate.name}: {speed.figures()}, prompt {speed.prompt_tps:.0f} tokens/s on {speed.device}")
    if not pending:
        print("Every built-in chat model is measured on this machine already.")
    _say_chosen(measure_hint=False)
    return 0


def _catalog(args: argparse.Namespace) -> int:
    have = library.downloaded()
    settings = load_settings().settings
    fits = {
        e.id: library.estimate_entry(e, n_ctx=settings.context_length, device=settings.device)
        for e in library.catalog()
    }
    entries = [e for e in library.catalog() if not args.fits or fits[e.id].verdict in ("fits", "tight", "unknown")]
    if args.json:
        print(
            json.dumps(
                [
                    {
                        **e.__dict__,
                        "languages": list(e.languages),
                        "downloaded": e.id in have,
                        "fit": fits[e.id].verdict,
                        "needs": fits[e.id].needed,
                    }
                    for e in entries
                ],
                indent=2,
            )
        )
        return 0
    measured, measured_name = recommend.stored_anchor(settings.device, settings.threads or None)
    ranked = recommend.rank_for_speech(
        entries,
        measured,
        n_ctx=settings.context_length,
        device=settings.device,
        verdicts=("fits", "tight", "unknown", "too big"),
    )
    spoken = {r.entry.id: r for r in ranked}
    for kind, title in (("speech", "Speech (whisper.cpp)"), ("chat", "Chat (GGUF)")):
        print(title + (", soonest to speak here first" if kind == "chat" and args.fits and measured else ""))
        shown = [r.entry for r in ranked] if kind == "chat" and args.fits else [e for e in entries if e.kind == kind]
        for e in shown:
            mark = "*" if e.id in have else " "
            fit = fits[e.id]
            print(
                f" {mark} {e.id:30} {gb(e.size):>7}  {e.parameters:>6}  {e.quantisation:7} "
                f"{fit.verdict:7} needs {gb(fit.needed):>7}  {e.licence}"
            )
            print(f"   {'':30} {e.note} Languages: {', '.join(e.languages)}.")
            if e.id in spoken and spoken[e.id].first_sound_s is not None:
                print(f"   {'':30} {_speaking(spoken[e.id])}")
        print()
    _embedding_catalog()
    if measured is None:
        print("Speed here: not measured yet (`parley models measure` measures the built-in models in a few seconds).")
    else:
        print(f"Speed here: scaled from {measured_name or 'the starter'} as measured on this machine.")
    free = next(iter(fits.values())).available if fits else None
    print(
        "fit: for this machine now"
        + (f" ({gb(free)} free)" if free else "")
        + ", with the context length and device of the settings (fits; tight: most of the free memory; too big)."
    )
    print(
        "* downloaded (an embedding model: installed). Get one with `parley models download ID`; files go "
        f"to the Hugging Face cache ({hf_cache_dir()})."
    )
    return 0


def _speaking(rec: recommend.Recommendation) -> str:
    """How soon a spoken reply would start with ``rec`` here, and on what that rests."""
    line = (
        f"Here: about {rec.tokens_per_s:.0f} tokens/s; the first word spoken about {rec.first_sound_s:.1f} s "
        "after the release"
    )
    if not rec.quick_to_speak:
        line += " (slow to speak)"
    if rec.thinking_s is not None:
        line += f", {rec.thinking_s:.0f} s of it thinking before the answer"
    if rec.estimated:
        why = []
        if rec.entry.active_share < 1.0:
            why.append("a mixture of experts scaled by its active share")
        if rec.entry.thinks == "always":
            why.append(f"a thinking step of a typical {recommend.THINKING_TOKENS} tokens")
        elif rec.entry.thinks:
            why.append("its answers told not to think (/no_think)")
        line += f"; estimated, never measured here: {' and '.join(why)}"
    return line + "."


def _embedding_catalog() -> None:
    """The embedding models, from PyPI: what `parley serve --embedding-model` and Settings take."""
    print("Embedding (for the server's /v1/embeddings; from PyPI: `parley models install ID`)")
    for m in embedding_models.MODELS:
        mark = "*" if embedding_models.is_installed(m) else " "
        print(f" {mark} {m.id:30} {m.parameters:>6}  {m.dimensions} dimensions  {m.licence}")
        print(f"   {'':30} {m.note}. `parley serve --embedding-model {m.id}`, or Settings > Desktop.")
    print()


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


def _install(name: str | None) -> int:
    """Install a set of models from PyPI with pip (pinned, hash-checked); pip's exit status."""
    if not name or name not in pip_sets.names():
        sets = "; ".join(f"{n}: {pip_sets.describe(n)[0]} ({pip_sets.describe(n)[1]})" for n in pip_sets.names())
        print(f"parley models install: give a set to install. {sets}", file=sys.stderr)
        return 2
    what, download = pip_sets.describe(name)
    print(f"Installing {what} from PyPI ({download}), pinned and hash-checked…", file=sys.stderr)
    status = pip_sets.install(name)
    if status == 0:
        print(f"Installed: {what}.")
    else:
        print(
            f"parley: error: pip could not install the {name} set (exit status {status}); see its output above",
            file=sys.stderr,
        )
    return 0 if status == 0 else 1


def _remove(model_id: str) -> int:
    removed = library.remove_model(model_id)
    if not removed:
        print(f"Nothing of {model_id} was left on disk; it is no longer listed.")
    for path in removed:
        print(f"removed {path}")
    return 0
