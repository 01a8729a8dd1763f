"""Checks for every name and number that reaches a path, an allocation or a loop in the library.

Catalog entries (the shipped file, or ``PARLEY_MODEL_CATALOG``), the Hub's answers (``ETag``,
``X-Repo-Commit``, sizes, ``Location``) and Parley's own downloads record all end up in cache
paths or in files Parley may later delete.  Each is checked here against what the Hub can
actually produce, before it is used; ``check_*`` return the value or raise ``ValueError``
with a short reason (the caller names the entry or the server).
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

MAX_MODEL_BYTES = 1 << 40  # 1.1 TB: far above any model a desktop runs
MAX_FILENAME_CHARS = 500
MAX_SEGMENT_CHARS = 255  # a file name on every common file system
MAX_TEXT_CHARS = 2000  # names, notes, licences in a catalog

COMMIT = re.compile(r"[0-9a-f]{40}")
SHA256 = re.compile(r"[0-9a-f]{64}")
ETAG = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")  # a git blob id or an LFS file's SHA-256
_REPO_PART = re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,94}[A-Za-z0-9_])?")
_BRANCH = re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,98}[A-Za-z0-9_])?")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def check_repo(repo: object) -> str:
    """``owner/name`` with the Hub's characters; no ``..`` or ``--`` (the cache's separator)."""
    if not isinstance(repo, str):
        raise ValueError("the repository is not a text")
    parts = repo.split("/")
    if len(parts) != 2 or not all(_REPO_PART.fullmatch(p) for p in parts) or ".." in repo or "--" in repo:
        raise ValueError(f"the repository {repo[:120]!r} is not of the form owner/name")
    return repo


def check_filename(name: object) -> str:
    """A relative ``/``-separated path inside a repository: no ``.``/``..`` segment, no absolute
    path, backslash, colon or control character, and of bounded length."""
    if not isinstance(name, str) or not name:
        raise ValueError("the file name is empty or not a text")
    if len(name) > MAX_FILENAME_CHARS or _CONTROL.search(name) or "\\" in name or ":" in name:
        raise ValueError(f"the file name {name[:120]!r} has characters or a length Parley does not accept")
    for segment in name.split("/"):
        if segment in ("", ".", "..") or len(segment) > MAX_SEGMENT_CHARS:
            raise ValueError(f"the file name {name[:120]!r} is not a plain relative path")
    return name


def check_revision(revision: object, *, branch_allowed: bool) -> str:
    """A 40-hex commit; where ``branch_allowed``, also a plain branch or tag name (no ``/``)."""
    if isinstance(revision, str) and COMMIT.fullmatch(revision):
        return revision
    if (
        branch_allowed
        and isinstance(revision, str)
        and _BRANCH.fullmatch(revision)
        and ".." not in revision
        and not revision.endswith(".lock")
    ):
        return revision
    what = "a 40-character commit hash" + ("" if not branch_allowed else " or a plain branch name")
    raise ValueError(f"the revision {str(revision)[:60]!r} is not {what}")


def check_size(size: object, *, zero_allowed: bool = False) -> int:
    """A whole number of bytes, at most ``MAX_MODEL_BYTES``."""
    if (
        isinstance(size, bool)
        or not isinstance(size, int)
        or size < (0 if zero_allowed else 1)
        or size > MAX_MODEL_BYTES
    ):
        raise ValueError(
            f"the size {str(size)[:30]} is not a number of bytes between "
            f"{0 if zero_allowed else 1} and {MAX_MODEL_BYTES}"
        )
    return size


def check_sha256(sha: object) -> str:
    if not isinstance(sha, str) or not SHA256.fullmatch(sha):
        raise ValueError("the sha256 is not 64 lowercase hexadecimal characters")
    return sha


def check_etag(etag: object) -> str:
    """The name of a blob in the cache: 40 or 64 lowercase hexadecimal characters."""
    if not isinstance(etag, str) or not ETAG.fullmatch(etag):
        raise ValueError(f"the ETag {str(etag)[:80]!r} is not a file hash")
    return etag


def check_url(url: object) -> str:
    """An http(s) URL with a host and no spaces or control characters."""
    if not isinstance(url, str) or _CONTROL.search(url) or " " in url:
        raise ValueError("the file's location is not a plain URL")
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        raise ValueError(f"the file's location {url[:120]!r} is not a URL") from None
    if parts.scheme not in ("http", "https") or not host:
        raise ValueError(f"the file's location {url[:120]!r} is not an http(s) URL")
    return url


def check_text(value: object, what: str, *, max_chars: int = MAX_TEXT_CHARS) -> str:
    """Text shown to the user: bounded, one line, no control characters (no terminal escapes)."""
    if not isinstance(value, str) or len(value) > max_chars or _CONTROL.search(value):
        raise ValueError(f"{what} is not a line of text of at most {max_chars} characters")
    return value


def storage_folder(repo: str) -> str:
    """The hub cache's folder for a model repository: ``models--owner--name``."""
    return "models--" + check_repo(repo).replace("/", "--")
