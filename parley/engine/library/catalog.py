"""The catalog of recommended models: ``parley/resources/models/catalog.json``, read into entries.

The catalog is data, not code: each entry names a Hugging Face repository, a revision (a commit
where one was checked, so the file cannot change under us), a file, its size, its SHA-256
where known, licence, languages, parameter count and a short note.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import re
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from ..errors import ParleyError

Kind = Literal["speech", "chat"]
_SHA256 = re.compile(r"[0-9a-f]{64}")
_REQUIRED = ("id", "kind", "name", "repo", "revision", "file", "size", "licence", "languages",
             "parameters", "note")


class CatalogError(ParleyError):
    """The catalog file is malformed (for the shipped file a packaging bug; the tests check it)."""


@dataclasses.dataclass(frozen=True)
class CatalogEntry:
    id: str
    kind: Kind                 # "speech" (whisper.cpp .bin) or "chat" (GGUF)
    name: str
    repo: str                  # e.g. "ggerganov/whisper.cpp"
    revision: str              # a commit hash or a branch name
    file: str                  # path of the file inside the repository
    size: int                  # bytes (the Hub's figure is used once a download starts)
    sha256: str | None         # None: the Hub's SHA-256 of the file is used
    licence: str
    languages: tuple[str, ...]
    parameters: str            # e.g. "1.5B"
    note: str


def parse_catalog(data: dict[str, Any]) -> list[CatalogEntry]:
    """Entries of a catalog document; CatalogError names the first bad entry."""
    if data.get("format") != 1 or not isinstance(data.get("models"), list):
        raise CatalogError("the catalog is not a format-1 document with a 'models' list")
    entries: list[CatalogEntry] = []
    seen: set[str] = set()
    for raw in data["models"]:
        missing = [k for k in _REQUIRED if k not in raw]
        ident = raw.get("id", "?")
        if missing:
            raise CatalogError(f"catalog entry {ident!r} lacks {', '.join(missing)}")
        if ident in seen:
            raise CatalogError(f"catalog entry {ident!r} appears twice")
        if raw["kind"] not in ("speech", "chat"):
            raise CatalogError(f"catalog entry {ident!r} has kind {raw['kind']!r}")
        sha = raw.get("sha256")
        if sha is not None and not _SHA256.fullmatch(sha):
            raise CatalogError(f"catalog entry {ident!r} has a malformed sha256")
        if not isinstance(raw["size"], int) or raw["size"] <= 0:
            raise CatalogError(f"catalog entry {ident!r} has no positive size")
        seen.add(ident)
        entries.append(CatalogEntry(
            id=ident, kind=raw["kind"], name=raw["name"], repo=raw["repo"], revision=raw["revision"],
            file=raw["file"], size=raw["size"], sha256=sha, licence=raw["licence"],
            languages=tuple(raw["languages"]), parameters=raw["parameters"], note=raw["note"],
        ))
    return entries


CATALOG_ENV = "PARLEY_MODEL_CATALOG"


def catalog() -> tuple[CatalogEntry, ...]:
    """The shipped catalog, or the file named by ``PARLEY_MODEL_CATALOG`` (an organisation's own
    list of approved models, or a test's)."""
    return _load(os.environ.get(CATALOG_ENV) or "")


@functools.cache
def _load(override: str) -> tuple[CatalogEntry, ...]:
    if override:
        try:
            text = Path(override).read_text("utf-8")
        except OSError as exc:
            raise CatalogError(f"the model catalog {override} cannot be read: {exc.strerror or exc}") from None
    else:
        text = resources.files("parley").joinpath("resources/models/catalog.json").read_text("utf-8")
    try:
        return tuple(parse_catalog(json.loads(text)))
    except (json.JSONDecodeError, TypeError, AttributeError) as exc:
        raise CatalogError(f"the model catalog {override or 'shipped with Parley'} is not valid: {exc}") from None


class UnknownModelError(ParleyError):
    """No catalog entry has that id."""


def find_entry(model_id: str) -> CatalogEntry:
    """The entry called ``model_id``; UnknownModelError naming the known ids otherwise."""
    for entry in catalog():
        if entry.id == model_id:
            return entry
    raise UnknownModelError(f"no model {model_id!r} in the catalog; `parley models catalog` lists them")
