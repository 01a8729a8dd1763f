"""The catalog of recommended models: ``parley/resources/models/catalog.json``, read into entries.

The catalog is data, not code: each entry names a Hugging Face repository, a revision, a file,
its size and SHA-256, licence, languages, parameter count and a short note, and what a fit
estimate needs before the file is here: the quantisation, and for a chat model the longest
context it was trained for, the size of its KV cache per token and, for a mixture of experts,
the parameters it uses per token.  Every shipped entry is pinned (a commit and a SHA-256), so
the file cannot change under us; the tests check it.

``PARLEY_MODEL_CATALOG`` names a catalog of one's own (an organisation's approved models, or a
test's).  It is another program's file: it is read bounded (``untrusted.load_json``), and each
entry is checked (repository, file name, revision, size, SHA-256) before any of it reaches a
path; a bad entry is skipped and reported (``catalog_problems``), never fatal.
"""

from __future__ import annotations

import dataclasses
import functools
import os
from importlib import resources
from typing import Any, Literal

from ..errors import CatalogError, UnknownModelError, UntrustedFileError
from ..untrusted import load_json, parse_json
from . import hubnames

Kind = Literal["speech", "chat"]
_REQUIRED = ("id", "kind", "name", "repo", "revision", "file", "size", "licence", "languages", "parameters", "note")
MAX_CATALOG_BYTES = 1 << 20  # the shipped catalog is 20 KB
MAX_ENTRIES = 1000
MAX_LANGUAGES = 200
THINKING = ("", "always", "unless-told")


@dataclasses.dataclass(frozen=True)
class CatalogEntry:
    id: str
    kind: Kind  # "speech" (whisper.cpp .bin) or "chat" (GGUF)
    name: str
    repo: str  # e.g. "ggerganov/whisper.cpp"
    revision: str  # a commit hash (shipped); a user catalog may name a branch
    file: str  # path of the file inside the repository
    size: int  # bytes (the Hub's figure is used once a download starts)
    sha256: str | None  # None (user catalogs only): the Hub's SHA-256 of the file is used
    licence: str
    languages: tuple[str, ...]
    parameters: str  # e.g. "1.5B"
    note: str
    quantisation: str = ""  # e.g. "Q4_K_M", "MXFP4", "F16" ("" in a user catalog that does not say)
    context: int | None = None  # longest trained context, tokens (chat)
    kv_bytes_per_token: int | None = None  # f16 KV cache per token of context, all layers (chat)
    active_parameters: str | None = None  # a mixture of experts: parameters used per token, e.g. "3.6B"
    # A thinking step before the answer: "" none, "always" (gpt-oss's reasoning channel), or
    # "unless-told" (Qwen3, SmolLM3: unless the system prompt says /no_think, as Parley's does:
    # ``chat.model.without_thinking``)
    thinks: str = ""

    @property
    def billions(self) -> float | None:
        """The parameter count in billions ("1.5B" -> 1.5, "39M" -> 0.039), None if unreadable."""
        return _billions(self.parameters)

    @property
    def active_share(self) -> float:
        """The share of the weights read per generated token (1.0 but for a mixture of experts)."""
        total, active = self.billions, _billions(self.active_parameters or "")
        return min(1.0, active / total) if total and active else 1.0


def _billions(text: str) -> float | None:
    scale = {"B": 1.0, "M": 1e-3}.get(text[-1:].upper())
    try:
        return float(text[:-1]) * scale if scale else None
    except ValueError:
        return None


@dataclasses.dataclass(frozen=True)
class Catalog:
    entries: tuple[CatalogEntry, ...]
    problems: tuple[str, ...]  # one line per skipped entry of a user catalog


def parse_catalog(data: Any, *, shipped: bool = False) -> Catalog:
    """Entries of a catalog document.  A document that is not a format-1 catalog is a
    CatalogError; so is any bad entry of the ``shipped`` catalog.  A user catalog's bad entries
    are skipped, each with a one-line reason in ``problems``."""
    if not isinstance(data, dict) or data.get("format") != 1 or not isinstance(data.get("models"), list):
        raise CatalogError("the catalog is not a format-1 document with a 'models' list")
    if len(data["models"]) > MAX_ENTRIES:
        raise CatalogError(f"the catalog has more than {MAX_ENTRIES} entries")
    entries: list[CatalogEntry] = []
    problems: list[str] = []
    seen: set[str] = set()
    for number, raw in enumerate(data["models"], 1):
        try:
            entry = _entry(raw, shipped=shipped)
            if entry.id in seen:
                raise ValueError("the id appears twice")
        except ValueError as exc:
            raw_id = raw.get("id") if isinstance(raw, dict) else None
            ident = raw_id if isinstance(raw_id, str) else f"#{number}"
            message = f"catalog entry {ident[:100]!r} is skipped: {exc}"
            if shipped:
                raise CatalogError(message) from None
            problems.append(message)
            continue
        seen.add(entry.id)
        entries.append(entry)
    return Catalog(tuple(entries), tuple(problems))


def _entry(raw: object, *, shipped: bool) -> CatalogEntry:
    """One checked entry; ValueError says what is wrong with it."""
    if not isinstance(raw, dict):
        raise ValueError("it is not an object")
    missing = [k for k in _REQUIRED if k not in raw]
    if missing:
        raise ValueError(f"it lacks {', '.join(missing)}")
    if raw["kind"] not in ("speech", "chat"):
        raise ValueError(f"the kind {str(raw['kind'])[:20]!r} is not speech or chat")
    sha = raw.get("sha256")
    if sha is not None or shipped:
        hubnames.check_sha256(sha)
    languages = raw["languages"]
    if not isinstance(languages, list) or len(languages) > MAX_LANGUAGES:
        raise ValueError(f"the languages are not a list of at most {MAX_LANGUAGES}")
    needed = ("quantisation", "context", "kv_bytes_per_token") if raw["kind"] == "chat" else ("quantisation",)
    missing = [k for k in needed if raw.get(k) is None] if shipped else []
    if missing:
        raise ValueError(f"it lacks {', '.join(missing)} (a shipped entry carries what the fit estimate needs)")
    active = raw.get("active_parameters")
    thinks = raw.get("thinks", "")
    if thinks not in THINKING:
        raise ValueError(f"thinks is not one of {', '.join(repr(t) for t in THINKING)}")
    return CatalogEntry(
        id=hubnames.check_text(raw["id"], "the id", max_chars=100),
        kind=raw["kind"],
        name=hubnames.check_text(raw["name"], "the name"),
        repo=hubnames.check_repo(raw["repo"]),
        revision=hubnames.check_revision(raw["revision"], branch_allowed=not shipped),
        file=hubnames.check_filename(raw["file"]),
        size=hubnames.check_size(raw["size"]),
        sha256=sha,
        licence=hubnames.check_text(raw["licence"], "the licence"),
        languages=tuple(hubnames.check_text(lang, "a language", max_chars=50) for lang in languages),
        parameters=hubnames.check_text(raw["parameters"], "the parameters", max_chars=20),
        note=hubnames.check_text(raw["note"], "the note"),
        quantisation=hubnames.check_text(raw.get("quantisation", ""), "the quantisation", max_chars=20),
        context=_optional_count(raw.get("context"), "the context"),
        kv_bytes_per_token=_optional_count(raw.get("kv_bytes_per_token"), "the KV bytes per token"),
        active_parameters=None
        if active is None
        else hubnames.check_text(active, "the active parameters", max_chars=20),
        thinks=thinks,
    )


MAX_COUNT = 1 << 40


def _optional_count(value: object, what: str) -> int | None:
    """A positive whole number below 2^40, or None when absent."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < MAX_COUNT:
        raise ValueError(f"{what} is not a positive whole number below 2^40")
    return value


CATALOG_ENV = "PARLEY_MODEL_CATALOG"


def catalog() -> tuple[CatalogEntry, ...]:
    """The shipped catalog, or the file named by ``PARLEY_MODEL_CATALOG`` (an organisation's own
    list of approved models, or a test's)."""
    return _load(os.environ.get(CATALOG_ENV) or "").entries


def catalog_problems() -> tuple[str, ...]:
    """Why entries of the user's catalog were skipped (empty for the shipped one)."""
    return _load(os.environ.get(CATALOG_ENV) or "").problems


@functools.cache
def _load(override: str) -> Catalog:
    if override:
        try:
            return parse_catalog(load_json(override, max_bytes=MAX_CATALOG_BYTES))
        except UntrustedFileError as exc:
            raise CatalogError(f"the model catalog cannot be used: {exc}") from None
    text = resources.files("parley").joinpath("resources/models/catalog.json").read_bytes()
    return parse_catalog(parse_json(text, what="the model catalog shipped with Parley"), shipped=True)


def find_entry(model_id: str) -> CatalogEntry:
    """The entry called ``model_id``; UnknownModelError naming the known ids otherwise."""
    for entry in catalog():
        if entry.id == model_id:
            return entry
    for problem in catalog_problems():
        if problem.startswith(f"catalog entry {model_id!r} "):
            raise UnknownModelError(problem)
    raise UnknownModelError(f"no model {model_id!r} in the catalog; `parley models catalog` lists them")
