"""Downloading one model file from the Hugging Face Hub, safely, into the hub's own cache.

``huggingface_hub`` resolves the file (``get_hf_file_metadata``: commit, ETag = the file's
SHA-256 for large files, size, final location), supplies its HTTP session (proxies and
certificates from the environment, its headers); the file goes into its cache with its layout
(``blobs/<etag>``, ``snapshots/<commit>/<file>`` linked to the blob, ``refs/<branch>``), so other
tools see the file.  The transfer of the blob itself is done here, because Parley needs what
``hf_hub_download`` does not offer: a partial file that survives an interruption and is resumed
by the next try (``blobs/<etag>.incomplete``, HTTP Range), a cancel that takes effect within one
network read, progress with speed and time left, a disk-space check before the first byte, and a
SHA-256 check of the whole file (a mismatch removes it).  Xet transfers are never used.

The server is not trusted (``HF_ENDPOINT`` may name any mirror, a proxy may answer for it): its
ETag, commit, size and location are checked (``hubnames``) before any of them reaches a path or a
request, every cache path is checked to stay inside the cache after symbolic links are resolved,
and the snapshot link is made here from those checked values rather than by a second request.

Errors are ``DownloadError`` subclasses, ``DiskFullError`` and ``DownloadCancelled``, each with a
message meant for the user.
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
from typing import Any, Protocol
from urllib.parse import urlparse

import filelock

# huggingface_hub's telemetry asks the Hub for a registry of "agent harnesses" when it builds
# request headers.  Parley contacts the Hub only for the files the user asked for.
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")

from ..atomic import atomic_path, atomic_write  # noqa: E402
from ..errors import (  # noqa: E402
    ChecksumError,
    DiskFullError,
    DownloadCancelled,
    DownloadError,
    NoNetworkError,
    is_disk_full,
)
from ..notes import CANNOT_REACH, DISK_FULL_BEFORE_DOWNLOAD, DOWNLOADS_OFF, NOT_THE_EXPECTED_FILE, Note  # noqa: E402
from . import hubnames  # noqa: E402


def _hub_constants() -> Any:
    """huggingface_hub's constants, telemetry off also when it was imported before us.

    huggingface_hub and httpx2 are imported where a download needs them, not with this module:
    together they took a quarter of a second of the app's start, which lists the library."""
    from huggingface_hub import constants

    constants.HF_HUB_DISABLE_TELEMETRY = True
    return constants


CHUNK_BYTES = 1 << 20  # reads when hashing a file already on disk
PROGRESS_INTERVAL_S = 0.25
SPEED_WINDOW_S = 5.0  # speed is averaged over the last seconds
DEFAULT_TIMEOUT_S = 30.0  # no byte for this long: the server stopped responding
DEFAULT_RETRIES = 3  # automatic resumes after a dropped connection, per download
_SHA256 = re.compile(r"[0-9a-f]{64}")
_CONTENT_RANGE = re.compile(r"bytes (\d{1,20})-(\d{1,20})/(\d{1,20}|\*)")


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
    stage: str = "downloading"  # "downloading" | "checking" (hashing a file already on disk)

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

    storage: Path  # <cache>/models--org--name
    blob: Path  # storage/blobs/<etag>
    partial: Path  # storage/blobs/<etag>.incomplete
    pointer: Path  # storage/snapshots/<commit>/<file>
    lock: Path  # <cache>/.locks/models--org--name/<etag>.lock


def endpoint_now() -> str:
    """The Hub endpoint, read from ``HF_ENDPOINT`` now (huggingface_hub reads it at import)."""
    return (os.environ.get("HF_ENDPOINT") or _hub_constants().ENDPOINT).rstrip("/")


def cache_paths(cache_dir: Path, remote: RemoteFile) -> CachePaths:
    """The file's paths in the cache, from checked names only, each inside ``cache_dir`` once
    symbolic links are resolved (DownloadError otherwise: nothing is written)."""
    try:
        folder = hubnames.storage_folder(remote.repo)
        etag = hubnames.check_etag(remote.etag)
        commit = hubnames.check_revision(remote.commit, branch_allowed=False)
        parts = hubnames.check_filename(remote.filename).split("/")
    except ValueError as exc:
        raise DownloadError(
            f"Parley does not download {remote.filename[:100]!r} from {remote.repo[:100]!r}: {exc}."
        ) from None
    storage = cache_dir / folder
    paths = CachePaths(
        storage=storage,
        blob=storage / "blobs" / etag,
        partial=storage / "blobs" / f"{etag}.incomplete",
        pointer=storage / "snapshots" / commit / Path(*parts),
        lock=cache_dir / ".locks" / folder / f"{etag}.lock",
    )
    inside(paths.storage, cache_dir)
    for path in (paths.blob, paths.partial, paths.pointer.parent, paths.lock):
        inside(path, paths.lock.parent if path == paths.lock else storage)
    return paths


def inside(path: Path, folder: Path) -> Path:
    """``path`` when it stays inside ``folder`` once symbolic links are resolved; DownloadError
    otherwise (a link in the cache that leads elsewhere is never written or deleted through)."""
    real = Path(os.path.realpath(path))
    if not real.is_relative_to(os.path.realpath(folder)):
        raise DownloadError(
            f"{path} leads out of {folder} (a symbolic link?); Parley does not write "
            "or delete there. Remove that link from the cache and try again."
        )
    return real


def resolve(
    repo: str,
    filename: str,
    revision: str,
    *,
    endpoint: str | None = None,
    timeout: float = DEFAULT_TIMEOUT_S,
    expected_sha256: str | None = None,
) -> RemoteFile:
    """Ask the Hub for the file's commit, SHA-256, size and location (one HEAD request)."""
    import httpx2
    from huggingface_hub import get_hf_file_metadata, hf_hub_url
    from huggingface_hub.errors import (
        GatedRepoError,
        HfHubHTTPError,
        OfflineModeIsEnabled,
        RemoteEntryNotFoundError,
        RepositoryNotFoundError,
        RevisionNotFoundError,
    )

    endpoint = endpoint or endpoint_now()
    url = hf_hub_url(repo, filename, revision=revision, endpoint=endpoint)
    host = urlparse(endpoint).netloc or endpoint
    try:
        meta = get_hf_file_metadata(url, timeout=timeout, endpoint=endpoint)
    except OfflineModeIsEnabled:
        raise NoNetworkError(Note(DOWNLOADS_OFF)) from None
    except (httpx2.ProxyError, httpx2.ConnectError, httpx2.TimeoutException, httpx2.NetworkError) as exc:
        raise NoNetworkError(Note(CANNOT_REACH, host=host, reason=_reason(exc))) from None
    except (RepositoryNotFoundError, GatedRepoError):
        raise DownloadError(
            f"The repository {repo} is not available on {host} (it may have been removed, renamed or made private)."
        ) from None
    except RevisionNotFoundError:
        raise DownloadError(f"The repository {repo} has no revision {revision!r}.") from None
    except RemoteEntryNotFoundError:
        raise DownloadError(f"The repository {repo} has no file {filename!r} at {revision}.") from None
    except HfHubHTTPError as exc:
        raise DownloadError(f"{host} answered {exc.response.status_code} for {filename}; try again later.") from None
    except (httpx2.HTTPError, httpx2.InvalidURL, ValueError) as exc:  # ValueError: an error body not JSON
        raise DownloadError(
            f"{host} gave an answer Parley cannot use for {filename} ({_reason(exc)}); "
            "check HF_ENDPOINT and your proxy."
        ) from None
    etag = meta.etag or ""
    if not meta.commit_hash or not etag:
        raise DownloadError(
            f"{endpoint} does not answer like the Hugging Face Hub (no commit or ETag "
            "for the file); check HF_ENDPOINT and your proxy."
        )
    if meta.size is None:
        raise DownloadError(f"{host} did not say how large {filename} is; try again later.")
    try:
        hubnames.check_etag(etag)
        hubnames.check_revision(meta.commit_hash, branch_allowed=False)
        hubnames.check_size(meta.size)  # a model file is never empty
        location = hubnames.check_url(meta.location or url)
    except ValueError as exc:
        raise DownloadError(
            f"{host} does not answer like the Hugging Face Hub for {filename}: {exc}; "
            "nothing was downloaded. Check HF_ENDPOINT and your proxy."
        ) from None
    hub_sha = etag if _SHA256.fullmatch(etag) else None
    if expected_sha256 and hub_sha and hub_sha != expected_sha256:
        raise ChecksumError(
            Note(NOT_THE_EXPECTED_FILE, name=filename, repo=repo, found=hub_sha[:12], expected=expected_sha256[:12])
        )
    sha = expected_sha256 or hub_sha
    if sha is None:
        raise DownloadError(
            f"{host} gives no SHA-256 for {filename}, so it cannot be checked; Parley does not download it."
        )
    return RemoteFile(
        repo=repo,
        filename=filename,
        revision=revision,
        commit=meta.commit_hash,
        etag=etag,
        size=int(meta.size),
        url=location,
        sha256=sha,
    )


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
    """DiskFullError before a download that cannot fit."""
    free = free_space(folder)
    if needed > free:
        raise DiskFullError(
            Note(DISK_FULL_BEFORE_DOWNLOAD, name=filename, needed=_size(needed), folder=folder, free=_size(free))
        )


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


def _hash_existing(
    path: Path, hasher: _Digest, total: int, progress: ProgressCallback | None, cancel: CancelFlag | None
) -> int:
    """Feed the bytes already on disk to ``hasher``; returns how many there were."""
    meter = _Meter(total, 0, progress, "checking")
    with path.open("rb") as fh:
        while chunk := fh.read(8 * CHUNK_BYTES):
            if cancel is not None and cancel.cancelled:
                raise DownloadCancelled("Download cancelled.")
            hasher.update(chunk)
            meter.add(len(chunk))
    return meter.done


def _transfer(
    remote: RemoteFile,
    partial: Path,
    hasher: _Digest,
    *,
    timeout: float,
    progress: ProgressCallback | None,
    cancel: CancelFlag | None,
) -> None:
    """Append the rest of the file to ``partial``, from where it stops (HTTP Range)."""
    import httpx2
    from huggingface_hub.utils import build_hf_headers, get_session

    have = partial.stat().st_size if partial.exists() else 0
    headers = build_hf_headers()
    headers["Accept-Encoding"] = "identity"
    if have:
        headers["Range"] = f"bytes={have}-"
    if not _same_host(remote.url, endpoint_now()):
        headers.pop("authorization", None)  # never send a token to a CDN
    with get_session().stream(
        "GET", remote.url, headers=headers, timeout=httpx2.Timeout(timeout), follow_redirects=True
    ) as response:
        if response.status_code not in (200, 206):  # not hf_raise_for_status: it parses the body as JSON
            raise DownloadError(
                f"The server answered {response.status_code} while sending {remote.filename}; {_kept(partial, remote)}"
            )
        mode = "ab"
        if response.status_code == 206:
            _check_range(response.headers.get("Content-Range"), have, remote)
        elif have:  # the server ignored Range: start over
            mode, have = "wb", 0
            hasher.reset()
        meter = _Meter(remote.size, have, progress, "downloading")
        with partial.open(mode) as out:
            for chunk in response.iter_bytes():  # as received: a cut loses nothing
                if cancel is not None and cancel.cancelled:
                    raise DownloadCancelled("Download cancelled.")
                out.write(chunk)
                hasher.update(chunk)
                meter.add(len(chunk))
                if meter.done > remote.size:
                    raise DownloadError(
                        f"The server sent more than the {remote.size} bytes of {remote.filename}; try again later."
                    )
            out.flush()
            os.fsync(out.fileno())
        meter.add(0, force=True)


def _check_range(header: str | None, have: int, remote: RemoteFile) -> None:
    """A 206 must continue exactly where the partial file stops (and not past the file's end)."""
    match = _CONTENT_RANGE.fullmatch(header or "")
    if (
        match is None
        or int(match[1]) != have
        or int(match[2]) >= remote.size
        or match[3] not in ("*", str(remote.size))
    ):
        raise DownloadError(
            f"The server sent a part of {remote.filename} other than the one asked for "
            f"(Content-Range {str(header)[:80]!r} for bytes {have}-); try again later."
        )


def _same_host(url: str, endpoint: str) -> bool:
    return urlparse(url).netloc == urlparse(endpoint).netloc


def download_to_cache(
    repo: str,
    filename: str,
    *,
    revision: str = "main",
    expected_sha256: str | None = None,
    cache_dir: Path,
    endpoint: str | None = None,
    timeout: float = DEFAULT_TIMEOUT_S,
    retries: int = DEFAULT_RETRIES,
    progress: ProgressCallback | None = None,
    cancel: CancelFlag | None = None,
    on_resolved: Callable[[RemoteFile, CachePaths], None] | None = None,
) -> Path:
    """Download ``filename`` of ``repo`` into the hub cache ``cache_dir``; return its snapshot path.

    A file already complete in the cache is only checked (SHA-256).  ``on_resolved`` is called
    once the Hub has answered and before any byte is written (to record the partial file).
    """
    remote = resolve(repo, filename, revision, endpoint=endpoint, timeout=timeout, expected_sha256=expected_sha256)
    paths = cache_paths(cache_dir, remote)
    if on_resolved is not None:
        on_resolved(remote, paths)
    paths.lock.parent.mkdir(parents=True, exist_ok=True)
    try:
        with filelock.FileLock(str(paths.lock), timeout=0):
            _fetch_blob(remote, paths, timeout=timeout, retries=retries, progress=progress, cancel=cancel)
    except filelock.Timeout:
        raise DownloadError(
            f"{filename} is being downloaded by another program right now; try again when it has finished."
        ) from None
    return _link_snapshot(remote, paths)


def _fetch_blob(
    remote: RemoteFile,
    paths: CachePaths,
    *,
    timeout: float,
    retries: int,
    progress: ProgressCallback | None,
    cancel: CancelFlag | None,
) -> None:
    import httpx2

    hasher = _Digest()
    if paths.blob.is_file():
        _hash_existing(paths.blob, hasher, remote.size, progress, cancel)
        if hasher.hexdigest() == remote.sha256:
            return
        if paths.blob.name != remote.sha256:
            raise ChecksumError(
                f"The cache already holds a different file as {paths.blob} (another "
                f"tool's); it was left alone and {remote.filename} was not downloaded."
            )
        paths.blob.unlink()  # named by its SHA-256 but not those bytes: corrupt, fetch it again
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
        except (httpx2.HTTPError, httpx2.InvalidURL) as exc:
            raise DownloadError(
                f"The server's answer for {remote.filename} cannot be used "
                f"({_reason(exc)}); {_kept(paths.partial, remote)}"
            ) from None
        except OSError as exc:
            if is_disk_full(exc):
                raise DiskFullError(
                    f"The disk filled up while downloading {remote.filename}; "
                    f"{_kept(paths.partial, remote)} Free some space and try "
                    "again."
                ) from None
            raise
    _finish(remote, paths, hasher)


def _interrupted(exc: BaseException, remote: RemoteFile, partial: Path, timeout: float) -> NoNetworkError:
    import httpx2

    if isinstance(exc, httpx2.TimeoutException):
        why = f"the server stopped responding (nothing for {timeout:g} s)"
    else:
        why = f"the connection was lost ({_reason(exc)})"
    return NoNetworkError(f"Downloading {remote.filename} failed: {why}. {_kept(partial, remote)}")


def _kept(partial: Path, remote: RemoteFile) -> str:
    have = partial.stat().st_size if partial.exists() else 0
    if not have:
        return "Nothing was kept."
    return f"The {_size(have)} received of {_size(remote.size)} are kept and the next try continues from there."


def _finish(remote: RemoteFile, paths: CachePaths, hasher: _Digest) -> None:
    """Check the complete partial file and move it into place as the blob."""
    size = paths.partial.stat().st_size
    digest = hasher.hexdigest()
    if size != remote.size or digest != remote.sha256:
        paths.partial.unlink(missing_ok=True)
        what = (
            f"{size} bytes instead of {remote.size}"
            if size != remote.size
            else f"SHA-256 {digest[:12]}… instead of {remote.sha256[:12]}…"
        )
        raise ChecksumError(
            f"The downloaded {remote.filename} is corrupt ({what}); the file was removed. Try the download again."
        )
    os.replace(paths.partial, paths.blob)


def _link_snapshot(remote: RemoteFile, paths: CachePaths) -> Path:
    """Make ``snapshots/<commit>/<file>`` point at the blob now in place, and ``refs/<branch>``
    name the commit, as huggingface_hub lays out its cache (a relative symbolic link; a copy
    where the file system has none)."""
    if not (paths.pointer.is_symlink() or paths.pointer.exists()):
        paths.pointer.parent.mkdir(parents=True, exist_ok=True)
        inside(paths.pointer.parent, paths.storage)
        try:
            os.symlink(os.path.relpath(paths.blob, paths.pointer.parent), paths.pointer)
        except OSError as exc:
            if exc.errno == errno.EEXIST:
                raise
            with atomic_path(paths.pointer) as tmp:  # a copy cut short by a full disk is never the model
                shutil.copyfile(paths.blob, tmp)
    if not hubnames.COMMIT.fullmatch(remote.revision):
        try:
            branch = hubnames.check_revision(remote.revision, branch_allowed=True)
        except ValueError:
            return paths.pointer  # not a plain branch name: no ref is written
        ref = paths.storage / "refs" / branch
        ref.parent.mkdir(parents=True, exist_ok=True)
        inside(ref, paths.storage)
        with atomic_write(ref, "w", encoding="utf-8") as out:
            out.write(remote.commit)
    return paths.pointer
