"""Parley's model library: models already on disk, the catalog, downloads, and fit estimates.

The facade the app and the CLI use:
* ``list_models(folders)``: every model file found on this computer, Parley's downloads marked,
  each validated (``FoundModel.problem`` says why one cannot be used);
* ``catalog()`` / ``find_entry(id)``: the recommended models (a data file);
* ``download_model(id, progress=, cancel=)``: fetch, check and validate one catalog model; it is
  listed as usable only after that;
* ``remove_model(id)``: delete a model Parley downloaded (never anything else: only files of its
  downloads record, which must lie in the hub cache's folder for that model, checked at delete
  time);
* ``catalog_problems()`` / ``record_problems()``: the catalog entries and download records that
  were skipped as malformed, one line each, for the user;
* ``fit_warning(path, kind=, n_ctx=, device=)``: the warning to show before loading, or None.

Nothing here downloads unless ``download_model`` is called.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterable
from pathlib import Path

from ..errors import (
    CatalogError,
    ChecksumError,
    DownloadError,
    ParleyError,
    UnknownModelError,
)
from . import hubnames
from .catalog import CatalogEntry, catalog, catalog_problems, find_entry
from .download import (
    DEFAULT_RETRIES,
    DEFAULT_TIMEOUT_S,
    CachePaths,
    CancelFlag,
    Progress,
    ProgressCallback,
    RemoteFile,
    download_to_cache,
    inside,
)
from .local_models import FoundModel, check_model_file, find_models, hf_cache_dir
from .memory_fit import FitEstimate, estimate, estimate_entry, estimate_size, fit_warning
from .records import DownloadRecord, Status, drop_record, load_records, put_record, read_records

SOURCE_PARLEY = "Downloaded by Parley"

__all__ = [
    "SOURCE_PARLEY",
    "CatalogEntry",
    "FitEstimate",
    "FoundModel",
    "Progress",
    "catalog",
    "catalog_problems",
    "download_model",
    "downloaded",
    "estimate",
    "estimate_entry",
    "estimate_size",
    "find_entry",
    "fit_warning",
    "list_models",
    "record_problems",
    "remove_model",
]


def downloaded() -> dict[str, DownloadRecord]:
    """Parley's complete downloads whose file is still there, by catalog id."""
    return {k: r for k, r in load_records().items() if r.status == "complete" and r.path.exists()}


def record_problems() -> list[str]:
    """Why records of the downloads record were ignored (malformed or edited), one line each."""
    return read_records()[1]


def list_models(folders: Iterable[str | Path] = ()) -> list[FoundModel]:
    """Every model on this computer: Parley's downloads first, then the files found elsewhere."""
    mine = downloaded()
    by_blob = {Path(os.path.realpath(r.blob)): r for r in mine.values()}
    ours: list[FoundModel] = []
    others: list[FoundModel] = []
    for model in find_models(folders):
        record = by_blob.get(Path(os.path.realpath(model.path)))
        if record is not None:
            entry = _entry_or_none(record.id)
            ours.append(
                FoundModel(
                    model.path,
                    entry.name if entry else record.id,
                    SOURCE_PARLEY,
                    model.size,
                    model.kind,
                    model.problem,
                    model.detail,
                )
            )
            by_blob.pop(Path(os.path.realpath(model.path)))
        else:
            others.append(model)
    for record in by_blob.values():  # downloaded into a cache that is not the current one
        kind, problem, detail = check_model_file(record.path)
        entry = _entry_or_none(record.id)
        ours.append(
            FoundModel(
                record.path, entry.name if entry else record.id, SOURCE_PARLEY, record.size, kind, problem, detail
            )
        )
    return ours + others


def _entry_or_none(model_id: str) -> CatalogEntry | None:
    try:
        return find_entry(model_id)
    except (UnknownModelError, CatalogError):
        return None


def download_model(
    model: str | CatalogEntry,
    *,
    progress: ProgressCallback | None = None,
    cancel: CancelFlag | None = None,
    cache_dir: Path | None = None,
    endpoint: str | None = None,
    timeout: float = DEFAULT_TIMEOUT_S,
    retries: int = DEFAULT_RETRIES,
) -> Path:
    """Download a catalog model into the Hugging Face cache, check its SHA-256, validate it.

    Returns the path the engines open.  A file that is already in the cache (e.g. from another
    tool) is checked and used, and stays that tool's: Parley records, and so may later remove,
    only files it downloaded itself.
    """
    entry = model if isinstance(model, CatalogEntry) else find_entry(model)
    cache = cache_dir or hf_cache_dir()
    pre_existing = False

    def resolved(remote: RemoteFile, paths: CachePaths) -> None:
        nonlocal pre_existing
        previous = load_records().get(entry.id)
        pre_existing = paths.blob.exists() and (previous is None or Path(previous.blob) != paths.blob)
        if not pre_existing:
            put_record(_record(entry, remote, paths, cache, "partial"))

    try:
        path = download_to_cache(
            entry.repo,
            entry.file,
            revision=entry.revision,
            expected_sha256=entry.sha256,
            cache_dir=cache,
            endpoint=endpoint,
            timeout=timeout,
            retries=retries,
            progress=progress,
            cancel=cancel,
            on_resolved=resolved,
        )
    except ChecksumError:
        if not pre_existing:  # the corrupt file is gone: nothing left to record
            drop_record(entry.id)
        raise
    kind, problem, _ = check_model_file(path)
    if problem is not None or kind != entry.kind:
        why = problem or f"it is a {kind} model, not a {entry.kind} model"
        if not pre_existing:
            remove_model(entry.id)
        raise DownloadError(
            f"The downloaded {entry.file} cannot be used: {why}. " + ("It was removed." if not pre_existing else "")
        )
    if not pre_existing:
        record = load_records()[entry.id]
        put_record(DownloadRecord(**{**record.__dict__, "pointer": str(path), "status": "complete"}))
    return path


def _record(entry: CatalogEntry, remote: RemoteFile, paths: CachePaths, cache: Path, status: Status) -> DownloadRecord:
    return DownloadRecord(
        id=entry.id,
        kind=entry.kind,
        repo=entry.repo,
        file=entry.file,
        commit=remote.commit,
        sha256=remote.sha256,
        size=remote.size,
        cache_dir=str(cache),
        blob=str(paths.blob),
        partial=str(paths.partial),
        pointer=str(paths.pointer),
        status=status,
    )


def remove_model(model_id: str) -> list[Path]:
    """Delete what Parley downloaded for ``model_id`` (file, link, partial file); return the paths
    removed.  A blob another snapshot still links to is kept.  Raises ParleyError for a model
    Parley did not download, and for a record whose files do not lie in the hub cache's folder
    for that model (checked now, through any symbolic link), leaving everything in place."""
    record = load_records().get(model_id)
    if record is None:
        raise ParleyError(
            f"Parley did not download {model_id!r}, so it does not remove it (files from other tools are left alone)."
        )
    storage = Path(record.cache_dir) / hubnames.storage_folder(record.repo)
    pointer, blob, partial = Path(record.pointer), Path(record.blob), Path(record.partial)
    inside(storage, Path(record.cache_dir))
    doomed = [p for p in (pointer, blob, partial) if _removable(p, storage)]
    if blob in doomed and _linked_elsewhere(blob, pointer):
        doomed.remove(blob)
    for path in doomed:
        path.unlink()
    with contextlib.suppress(OSError):
        pointer.parent.rmdir()  # the snapshot folder, when now empty
    drop_record(model_id)
    return doomed


def _removable(path: Path, storage: Path) -> bool:
    """Whether ``path`` is there to delete: a file or a link whose folder is inside ``storage``
    once links are resolved (DownloadError otherwise), never a folder."""
    try:
        mode = path.lstat().st_mode
    except OSError:
        return False
    inside(path.parent, storage)
    if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
        raise ParleyError(f"{path} is not a file; Parley removes nothing of {storage.name}.")
    return True


def _linked_elsewhere(blob: Path, pointer: Path) -> bool:
    """Whether a snapshot other than ``pointer`` links to ``blob`` (another revision, another tool)."""
    snapshots = blob.parent.parent / "snapshots"
    target = os.path.realpath(blob)
    return (
        any(p != pointer and p.is_symlink() and os.path.realpath(p) == target for p in snapshots.rglob("*"))
        if snapshots.is_dir()
        else False
    )
