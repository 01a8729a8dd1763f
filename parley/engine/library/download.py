"""Downloading one model file from the Hugging Face Hub, safely, into the hub's own cache.

``huggingface_hub`` resolves the file (``get_hf_file_metadata``: commit, ETag = the file's
SHA-256 for large files, size, final location), supplies its HTTP session (proxies and
certificates from the environment, its headers) and lays out the cache (``hf_hub_download``
links ``snapshots/<commit>/<file>`` to the blob once the blob is in place), so other tools see
the file.  The transfer of the blob itself is done here, because Parley needs what
``hf_hub_download`` does not offer: a partial file that survives an interruption and is resumed
by the next try (``blobs/<etag>.incomplete``, HTTP Range), a cancel that takes effect within one
network read, progress with speed and time left, a disk-space check before the first byte, and a
SHA-256 check of the whole file (a mismatch removes it).  Xet transfers are never used.

Errors are ``DownloadError`` subclasses with a message meant for the user.
"""

from __future__ import annotations

import dataclasses
import errno
import hashlib
import os
import re
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol
from urllib.parse import urlparse

import filelock
import httpx2

# huggingface_hub's telemetry asks the Hub for a registry of "agent harnesses" when it builds
# request headers.  Parley contacts the Hub only for the files the user asked for.
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")

from huggingface_hub import constants as hf_constants  # noqa: E402
from huggingface_hub import get_hf_file_metadata, hf_hub_download, hf_hub_url  # noqa: E402
from huggingface_hub.errors import (  # noqa: E402
    GatedRepoError,
    HfHubHTTPError,
    LocalEntryNotFoundError,
    OfflineModeIsEnabled,
    RemoteEntryNotFoundError,
    RepositoryNotFoundError,
    RevisionNotFoundError,
)
from huggingface_hub.utils import build_hf_headers, get_session, hf_raise_for_status  # noqa: E402

from ..errors import Cancelled, ParleyError  # noqa: E402

hf_constants.HF_HUB_DISABLE_TELEMETRY = True   # also when huggingface_hub was imported before us

CHUNK_BYTES = 1 << 20             # reads when hashing a file already on disk
PROGRESS_INTERVAL_S = 0.25
SPEED_WINDOW_S = 5.0               # speed is averaged over the last seconds
DEFAULT_TIMEOUT_S = 30.0           # no byte for this long: the server stopped responding
DEFAULT_RETRIES = 3                # automatic resumes after a dropped connection, per download
_SHA256 = re.compile(r"[0-9a-f]{64}")
_COMMIT = re.compile(r"[0-9a-f]{40}")
_DISK_FULL = {errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)}


class DownloadError(ParleyError):
    """A download failed; the message says why and what happens to the partial file."""


class NoNetworkError(DownloadError):
    """The Hub (or the proxy) cannot be reached, or stopped responding."""


class DiskSpaceError(DownloadError):
    """Not enough free space for the file (checked before starting) or the disk filled up."""


class ChecksumError(DownloadError):
    """The file's SHA-256 is not the expected one; the file was removed."""


class DownloadCancelled(Cancelled):
    """The user cancelled; the partial file is kept and the next try resumes it."""


class CancelFlag(Protocol):
    @property
    def cancelled(self) -> bool: ...


@dataclasses.dataclass(frozen=True)
class Progress:
    """How far a download is: bytes done of total, speed (bytes/s), time left (s, None unknown)."""

    done: int
    total: int
    speed: float
    eta: float | None
    stage: str = "downloading"    # "downloading" | "checking" (hashing a file already on disk)

    @property
    def fraction(self) -> float:
        return self.done / self.total if self.total else 0.0


ProgressCallback = Callable[[Progress], None]


@dataclasses.dataclass(frozen=True)
class RemoteFile:
    """What the Hub says about a file at a revision."""

    repo: str
    filename: str
    revision: str
    commit: str
    etag: str
    size: int
    url: str
    sha256: str


@dataclasses.dataclass(frozen=True)
class CachePaths:
    """Where a file lives in the hub cache."""

    storage: Path          # <cache>/models--org--name
    blob: Path             # storage/blobs/<etag>
    partial: Path          # storage/blobs/<etag>.incomplete
    pointer: Path          # storage/snapshots/<commit>/<file>
    lock: Path             # <cache>/.locks/models--org--name/<etag>.lock


def endpoint_now() -> str:
    """The Hub endpoint, read from ``HF_ENDPOINT`` now (huggingface_hub reads it at import)."""
    return (os.environ.get("HF_ENDPOINT") or hf_constants.ENDPOINT).rstrip("/")


def cache_paths(cache_dir: Path, remote: RemoteFile) -> CachePaths:
    folder = "models--" + remote.repo.replace("/", "--")
    storage = cache_dir / folder
    return CachePaths(storage=storage, blob=storage / "blobs" / remote.etag,
                      partial=storage / "blobs" / f"{remote.etag}.incomplete",
                      pointer=storage / "snapshots" / remote.commit / Path(*remote.filename.split("/")),
                      lock=cache_dir / ".locks" / folder / f"{remote.etag}.lock")


def resolve(repo: str, filename: str, revision: str, *, endpoint: str | None = None,
            timeout: float = DEFAULT_TIMEOUT_S, expected_sha256: str | None = None) -> RemoteFile:
    """Ask the Hub for the file's commit, SHA-256, size and location (one HEAD request)."""
    endpoint = endpoint or endpoint_now()
    url = hf_hub_url(repo, filename, revision=revision, endpoint=endpoint)
    host = urlparse(endpoint).netloc or endpoint
    try:
        meta = get_hf_file_metadata(url, timeout=timeout, endpoint=endpoint)
    except OfflineModeIsEnabled:
        raise NoNetworkError("Downloads are switched off (HF_HUB_OFFLINE is set).") from None
    except (httpx2.ProxyError, httpx2.ConnectError, httpx2.TimeoutException, httpx2.NetworkError) as exc:
        raise NoNetworkError(f"Cannot reach {host}: {_reason(exc)}. Check the network connection "
                             "(and HTTPS_PROXY if you use a proxy), then try again.") from None
    except (RepositoryNotFoundError, GatedRepoError):
        raise DownloadError(f"The repository {repo} is not available on {host} (it may have been "
                            "removed, renamed or made private).") from None
    except RevisionNotFoundError:
        raise DownloadError(f"The repository {repo} has no revision {revision!r}.") from None
    except RemoteEntryNotFoundError:
        raise DownloadError(f"The repository {repo} has no file {filename!r} at {revision}.") from None
    except HfHubHTTPError as exc:
        raise DownloadError(f"{host} answered {exc.response.status_code} for {filename}; try again later.") from None
    etag = meta.etag or ""
    if not meta.commit_hash or not etag:
        raise DownloadError(f"{endpoint} does not answer like the Hugging Face Hub (no commit or ETag "
                            "for the file); check HF_ENDPOINT and your proxy.")
    if meta.size is None:
        raise DownloadError(f"{host} did not say how large {filename} is; try again later.")
    hub_sha = etag if _SHA256.fullmatch(etag) else None
    if expected_sha256 and hub_sha and hub_sha != expected_sha256:
        raise ChecksumError(f"The file {filename} in {repo} is not the one Parley expects (SHA-256 "
                            f"{hub_sha[:12]}… instead of {expected_sha256[:12]}…); nothing was downloaded.")
    sha = expected_sha256 or hub_sha
    if sha is None:
        raise DownloadError(f"{host} gives no SHA-256 for {filename}, so it cannot be checked; "
                            "Parley does not download it.")
    return RemoteFile(repo=repo, filename=filename, revision=revision, commit=meta.commit_hash,
                      etag=etag, size=int(meta.size), url=meta.location or url, sha256=sha)


def _reason(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def free_space(folder: Path) -> int:
    """Free bytes on the file system of ``folder`` (or of its nearest existing parent)."""
    for candidate in (folder, *folder.parents):
        try:
            return shutil.disk_usage(candidate).free
        except OSError:
            continue
    return 0


def check_disk_space(folder: Path, needed: int, filename: str) -> None:
    """DiskSpaceError before a download that cannot fit."""
    free = free_space(folder)
    if needed > free:
        raise DiskSpaceError(f"Not enough disk space for {filename}: it needs {_size(needed)} more, "
                             f"but {folder} has {_size(free)} free. Free some space and try again.")


def _size(n: float) -> str:
    for unit in ("bytes", "KB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} GB"


class _Digest:
    """A SHA-256 that can start over (when a server ignores Range and resends everything)."""

    def __init__(self) -> None:
        self._h = hashlib.sha256()

    def reset(self) -> None:
        self._h = hashlib.sha256()

    def update(self, data: bytes) -> None:
        self._h.update(data)

    def hexdigest(self) -> str:
        return self._h.hexdigest()


class _Meter:
    """Rate-limited progress reports with a speed averaged over the last few seconds."""

    def __init__(self, total: int, done: int, callback: ProgressCallback | None, stage: str) -> None:
        self.total, self.done, self.callback, self.stage = total, done, callback, stage
        now = time.monotonic()
        self._samples: list[tuple[float, int]] = [(now, done)]
        self._last = 0.0

    def add(self, n: int, *, force: bool = False) -> None:
        self.done += n
        now = time.monotonic()
        if self.callback is None or (not force and now - self._last < PROGRESS_INTERVAL_S):
            return
        self._last = now
        self._samples.append((now, self.done))
        while len(self._samples) > 2 and now - self._samples[1][0] > SPEED_WINDOW_S:
            self._samples.pop(0)
        t0, d0 = self._samples[0]
        speed = (self.done - d0) / (now - t0) if now > t0 else 0.0
        eta = (self.total - self.done) / speed if speed > 0 else None
        self.callback(Progress(self.done, self.total, speed, eta, self.stage))


def _hash_existing(path: Path, hasher: _Digest, total: int, progress: ProgressCallback | None,
                   cancel: CancelFlag | None) -> int:
    """Feed the bytes already on disk to ``hasher``; returns how many there were."""
    meter = _Meter(total, 0, progress, "checking")
    with path.open("rb") as fh:
        while chunk := fh.read(8 * CHUNK_BYTES):
            if cancel is not None and cancel.cancelled:
                raise DownloadCancelled("Download cancelled.")
            hasher.update(chunk)
            meter.add(len(chunk))
    return meter.done


def _transfer(remote: RemoteFile, partial: Path, hasher: _Digest, *, timeout: float,
              progress: ProgressCallback | None, cancel: CancelFlag | None) -> None:
    """Append the rest of the file to ``partial``, from where it stops (HTTP Range)."""
    have = partial.stat().st_size if partial.exists() else 0
    headers = build_hf_headers()
    headers["Accept-Encoding"] = "identity"
    if have:
        headers["Range"] = f"bytes={have}-"
    if not _same_host(remote.url, endpoint_now()):
        headers.pop("authorization", None)        # never send a token to a CDN
    with get_session().stream("GET", remote.url, headers=headers, timeout=httpx2.Timeout(timeout),
                              follow_redirects=True) as response:
        hf_raise_for_status(response)
        mode = "ab"
        if have and response.status_code != 206:  # the server ignored Range: start over
            mode, have = "wb", 0
            hasher.reset()
        meter = _Meter(remote.size, have, progress, "downloading")
        with partial.open(mode) as out:
            for chunk in response.iter_bytes():     # as received: a cut loses nothing
                if cancel is not None and cancel.cancelled:
                    raise DownloadCancelled("Download cancelled.")
                out.write(chunk)
                hasher.update(chunk)
                meter.add(len(chunk))
                if meter.done > remote.size:
                    raise DownloadError(f"The server sent more than the {remote.size} bytes of "
                                        f"{remote.filename}; try again later.")
            out.flush()
            os.fsync(out.fileno())
        meter.add(0, force=True)


def _same_host(url: str, endpoint: str) -> bool:
    return urlparse(url).netloc == urlparse(endpoint).netloc


def download_to_cache(repo: str, filename: str, *, revision: str = "main", expected_sha256: str | None = None,
                      cache_dir: Path, endpoint: str | None = None, timeout: float = DEFAULT_TIMEOUT_S,
                      retries: int = DEFAULT_RETRIES, progress: ProgressCallback | None = None,
                      cancel: CancelFlag | None = None,
                      on_resolved: Callable[[RemoteFile, CachePaths], None] | None = None) -> Path:
    """Download ``filename`` of ``repo`` into the hub cache ``cache_dir``; return its snapshot path.

    A file already complete in the cache is only checked (SHA-256).  ``on_resolved`` is called
    once the Hub has answered and before any byte is written (to record the partial file).
    """
    remote = resolve(repo, filename, revision, endpoint=endpoint, timeout=timeout,
                     expected_sha256=expected_sha256)
    paths = cache_paths(cache_dir, remote)
    if on_resolved is not None:
        on_resolved(remote, paths)
    paths.lock.parent.mkdir(parents=True, exist_ok=True)
    try:
        with filelock.FileLock(str(paths.lock), timeout=0):
            _fetch_blob(remote, paths, timeout=timeout, retries=retries, progress=progress, cancel=cancel)
    except filelock.Timeout:
        raise DownloadError(f"{filename} is being downloaded by another program right now; "
                            "try again when it has finished.") from None
    return _link_snapshot(remote, paths, cache_dir, endpoint or endpoint_now(), timeout)


def _fetch_blob(remote: RemoteFile, paths: CachePaths, *, timeout: float, retries: int,
                progress: ProgressCallback | None, cancel: CancelFlag | None) -> None:
    hasher = _Digest()
    if paths.blob.is_file():
        _hash_existing(paths.blob, hasher, remote.size, progress, cancel)
        if hasher.hexdigest() == remote.sha256:
            return
        paths.blob.unlink()       # a corrupt blob: download it again below
        hasher.reset()
    paths.blob.parent.mkdir(parents=True, exist_ok=True)
    have = paths.partial.stat().st_size if paths.partial.exists() else 0
    if have > remote.size:
        paths.partial.unlink()
        have = 0
    check_disk_space(paths.blob.parent, remote.size - have, remote.filename)
    if have:
        _hash_existing(paths.partial, hasher, remote.size, progress, cancel)
    attempt = 0
    while True:
        try:
            if (paths.partial.stat().st_size if paths.partial.exists() else 0) < remote.size:
                _transfer(remote, paths.partial, hasher, timeout=timeout, progress=progress, cancel=cancel)
            break
        except (httpx2.TimeoutException, httpx2.NetworkError, httpx2.RemoteProtocolError) as exc:
            attempt += 1
            if attempt > retries:
                raise _interrupted(exc, remote, paths.partial, timeout) from None
        except HfHubHTTPError as exc:
            raise DownloadError(f"The server answered {exc.response.status_code} while sending "
                                f"{remote.filename}; {_kept(paths.partial, remote)}") from None
        except OSError as exc:
            if exc.errno in _DISK_FULL:
                raise DiskSpaceError(f"The disk filled up while downloading {remote.filename}; "
                                     f"{_kept(paths.partial, remote)} Free some space and try "
                                     "again.") from None
            raise
    _finish(remote, paths, hasher)


def _interrupted(exc: BaseException, remote: RemoteFile, partial: Path, timeout: float) -> NoNetworkError:
    if isinstance(exc, httpx2.TimeoutException):
        why = f"the server stopped responding (nothing for {timeout:g} s)"
    else:
        why = f"the connection was lost ({_reason(exc)})"
    return NoNetworkError(f"Downloading {remote.filename} failed: {why}. {_kept(partial, remote)}")


def _kept(partial: Path, remote: RemoteFile) -> str:
    have = partial.stat().st_size if partial.exists() else 0
    if not have:
        return "Nothing was kept."
    return (f"The {_size(have)} received of {_size(remote.size)} are kept and the next try "
            "continues from there.")


def _finish(remote: RemoteFile, paths: CachePaths, hasher: _Digest) -> None:
    """Check the complete partial file and move it into place as the blob."""
    size = paths.partial.stat().st_size
    digest = hasher.hexdigest()
    if size != remote.size or digest != remote.sha256:
        paths.partial.unlink(missing_ok=True)
        what = f"{size} bytes instead of {remote.size}" if size != remote.size else \
            f"SHA-256 {digest[:12]}… instead of {remote.sha256[:12]}…"
        raise ChecksumError(f"The downloaded {remote.filename} is corrupt ({what}); the file was "
                            "removed. Try the download again.")
    os.replace(paths.partial, paths.blob)


def _link_snapshot(remote: RemoteFile, paths: CachePaths, cache_dir: Path, endpoint: str,
                   timeout: float) -> Path:
    """Let huggingface_hub create ``snapshots/<commit>/<file>`` for the blob now in place."""
    if not paths.pointer.exists():
        try:
            hf_hub_download(remote.repo, remote.filename, revision=remote.commit, cache_dir=cache_dir,
                            endpoint=endpoint, etag_timeout=timeout)
        except (LocalEntryNotFoundError, HfHubHTTPError, httpx2.TransportError) as exc:
            raise NoNetworkError(f"{remote.filename} is downloaded and checked, but the Hub could not "
                                 f"be reached to file it in the cache ({_reason(exc)}); try again "
                                 "(nothing is downloaded twice).") from None
    if not _COMMIT.fullmatch(remote.revision):
        ref = paths.storage / "refs" / remote.revision
        ref.parent.mkdir(parents=True, exist_ok=True)
        ref.write_text(remote.commit)
    return paths.pointer
