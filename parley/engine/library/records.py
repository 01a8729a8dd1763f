"""Which files Parley downloaded: ``downloads.json`` in Parley's data folder.

Only these files are ever removed by Parley.  A record is written as ``partial`` before the
first byte arrives (so a cancelled or failed download can be cleaned up) and becomes
``complete`` once the file is checked and validated.  The file is rewritten atomically.
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Any, Literal

import platformdirs

RECORDS_FILE = "downloads.json"
Status = Literal["partial", "complete"]


def data_dir() -> Path:
    """Parley's data folder; ``PARLEY_DATA_DIR`` overrides it (as for the conversations)."""
    override = os.environ.get("PARLEY_DATA_DIR")
    return Path(override) if override else Path(platformdirs.user_data_dir("parley", appauthor=False))


@dataclasses.dataclass(frozen=True)
class DownloadRecord:
    id: str                 # catalog id
    kind: str
    repo: str
    file: str
    commit: str
    sha256: str
    size: int
    cache_dir: str          # the hub cache it went into
    blob: str               # blobs/<etag>
    partial: str            # blobs/<etag>.incomplete
    pointer: str            # snapshots/<commit>/<file>: the path the engines open
    status: Status

    @property
    def path(self) -> Path:
        return Path(self.pointer)


def records_path() -> Path:
    return data_dir() / RECORDS_FILE


def load_records() -> dict[str, DownloadRecord]:
    """Records by catalog id; an unreadable file counts as none (nothing is then removable)."""
    try:
        raw = json.loads(records_path().read_text("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return {}
    fields = {f.name for f in dataclasses.fields(DownloadRecord)}
    out: dict[str, DownloadRecord] = {}
    for item in raw.get("downloads", []) if isinstance(raw, dict) else []:
        if isinstance(item, dict) and set(item) == fields:
            out[item["id"]] = DownloadRecord(**item)
    return out


def _save(records: dict[str, DownloadRecord]) -> None:
    path = records_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    data: dict[str, Any] = {"downloads": [dataclasses.asdict(r) for r in records.values()]}
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(json.dumps(data, indent=1) + "\n", "utf-8")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def put_record(record: DownloadRecord) -> None:
    records = load_records()
    records[record.id] = record
    _save(records)


def drop_record(model_id: str) -> None:
    records = load_records()
    if records.pop(model_id, None) is not None:
        _save(records)
