"""Which files Parley downloaded: ``downloads.json`` in Parley's data folder.

Only these files are ever removed by Parley.  A record is written as ``partial`` before the
first byte arrives (so a cancelled or failed download can be cleaned up) and becomes
``complete`` once the file is checked and validated.  The file is rewritten atomically.

The file is on disk and can be edited by anything that runs as the user, so it is read as
untrusted (``untrusted.load_json``, bounded) and every record is checked: its paths must be
exactly the hub cache's paths for its repository, commit, blob and file (``expected_paths``),
so an edited record cannot name a file elsewhere.  A bad record is skipped and reported
(``read_records``), and kept as it is when the file is rewritten.
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Any, Literal

from parley.config.paths import data_dir

from ..atomic import atomic_write
from ..errors import UntrustedFileError
from ..untrusted import load_json
from . import hubnames

RECORDS_FILE = "downloads.json"
MAX_RECORDS_BYTES = 1 << 20  # a few hundred bytes per record
Status = Literal["partial", "complete"]


@dataclasses.dataclass(frozen=True)
class DownloadRecord:
    id: str  # catalog id
    kind: str
    repo: str
    file: str
    commit: str
    sha256: str
    size: int
    cache_dir: str  # the hub cache it went into
    blob: str  # blobs/<etag>
    partial: str  # blobs/<etag>.incomplete
    pointer: str  # snapshots/<commit>/<file>: the path the engines open
    status: Status

    @property
    def path(self) -> Path:
        return Path(self.pointer)


_FIELDS = tuple(f.name for f in dataclasses.fields(DownloadRecord))


def expected_paths(cache_dir: Path, repo: str, commit: str, etag: str, filename: str) -> tuple[Path, Path, Path]:
    """``(blob, partial, pointer)`` of a file in the hub cache, from checked names only."""
    storage = cache_dir / hubnames.storage_folder(repo)
    blob = storage / "blobs" / hubnames.check_etag(etag)
    pointer = (
        storage
        / "snapshots"
        / hubnames.check_revision(commit, branch_allowed=False)
        / Path(*hubnames.check_filename(filename).split("/"))
    )
    return blob, blob.with_name(f"{etag}.incomplete"), pointer


def check_record(item: object) -> DownloadRecord:
    """A record whose every field is what Parley writes; ValueError says what is not."""
    if not isinstance(item, dict) or set(item) != set(_FIELDS):
        raise ValueError("its fields are not those of a download record")
    record = DownloadRecord(**item)
    hubnames.check_text(record.id, "the id", max_chars=100)
    if record.kind not in ("speech", "chat") or record.status not in ("partial", "complete"):
        raise ValueError("its kind or status is unknown")
    hubnames.check_sha256(record.sha256)
    hubnames.check_size(record.size, zero_allowed=True)
    if (
        not isinstance(record.cache_dir, str)
        or "\x00" in record.cache_dir
        or not Path(record.cache_dir).is_absolute()
        or ".." in Path(record.cache_dir).parts
    ):
        raise ValueError("its cache folder is not an absolute path")
    if not isinstance(record.blob, str):
        raise ValueError("its blob is not a path")
    blob, partial, pointer = expected_paths(
        Path(record.cache_dir), record.repo, record.commit, Path(record.blob).name, record.file
    )
    if (str(blob), str(partial), str(pointer)) != (record.blob, record.partial, record.pointer):
        raise ValueError("its paths are not the hub cache's paths for its repository and file")
    return record


def records_path() -> Path:
    return data_dir() / RECORDS_FILE


def read_records() -> tuple[dict[str, DownloadRecord], list[str], list[Any]]:
    """Good records by catalog id, one line per bad one, and the bad ones as they were.

    A missing file means none; an unreadable or malformed one is one problem (nothing of it is
    then removable; the next download sets it aside as ``downloads.json.unreadable``)."""
    path = records_path()
    if not path.exists() and not path.is_symlink():
        return {}, [], []
    try:
        raw = load_json(path, max_bytes=MAX_RECORDS_BYTES)
    except UntrustedFileError as exc:
        return {}, [f"the downloads record cannot be read: {exc}"], []
    items = raw.get("downloads") if isinstance(raw, dict) else None
    if not isinstance(items, list):
        return {}, [f"the downloads record {path} is not a list of downloads"], []
    good: dict[str, DownloadRecord] = {}
    problems: list[str] = []
    bad: list[Any] = []
    for number, item in enumerate(items, 1):
        try:
            record = check_record(item)
        except (ValueError, TypeError) as exc:
            item_id = item.get("id") if isinstance(item, dict) else None
            ident = item_id if isinstance(item_id, str) else f"#{number}"
            problems.append(f"download record {ident[:100]!r} in {path} is ignored: {exc}")
            bad.append(item)
            continue
        good[record.id] = record
    return good, problems, bad


def load_records() -> dict[str, DownloadRecord]:
    """The good records by catalog id (``read_records`` also says which were ignored and why)."""
    return read_records()[0]


def _save(records: dict[str, DownloadRecord], keep: list[Any]) -> None:
    path = records_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    data: dict[str, Any] = {"downloads": [dataclasses.asdict(r) for r in records.values()] + keep}
    with atomic_write(path, "w", encoding="utf-8") as out:
        out.write(json.dumps(data, indent=1) + "\n")


def _read_for_update() -> tuple[dict[str, DownloadRecord], list[Any]]:
    """The records before a change; a file that cannot be read is renamed, not overwritten."""
    records, problems, bad = read_records()
    if not records and not bad and problems:
        path = records_path()
        os.replace(path, path.with_name(f"{path.name}.unreadable"))
    return records, bad


def put_record(record: DownloadRecord) -> None:
    records, bad = _read_for_update()
    records[record.id] = check_record(dataclasses.asdict(record))
    _save(records, bad)


def drop_record(model_id: str) -> None:
    records, _, bad = read_records()
    if records.pop(model_id, None) is not None:
        _save(records, bad)
