"""A loopback HTTP server speaking the part of the Hugging Face Hub a file download uses.

``HEAD /{repo}/resolve/{revision}/{file}`` answers with ``X-Repo-Commit``, ``ETag`` and
``X-Linked-Etag`` (the file's SHA-256, as the Hub gives for large files), ``X-Linked-Size`` and
``Content-Length``; ``GET`` serves the bytes, honouring ``Range: bytes=N-`` with a 206.  No Xet
headers are ever sent, so huggingface_hub never tries Xet.  Misbehaviour for the tests is set
per server: cut the connection after some bytes (once), stop sending after some bytes (until
released), send corrupt bytes, or send slowly; and, as a hostile mirror would, answer with any
headers (``headers``: replaced or dropped, on HEAD and GET), any status, and a body changed by a
function (``body``).  Every request is logged.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from parley.engine import library
from tests.support.tinymodels import write_tiny_llama_gguf

_PATH = re.compile(r"^/(?P<repo>[^/]+/[^/]+)/resolve/(?P<rev>[^/]+)/(?P<file>.+)$")


@dataclasses.dataclass
class Behaviour:
    cut_after: int | None = None  # close the connection after this many body bytes (once)
    stall_after: int | None = None  # stop sending after this many body bytes until released
    stall_head: bool = False  # never answer HEAD until released
    corrupt: bool = False  # flip a byte in the middle of what is sent
    chunk: int = 64 * 1024
    delay_s: float = 0.0  # pause between chunks (a slow link)
    headers: dict[str, str | None] = dataclasses.field(default_factory=dict)  # None: not sent
    head_status: int | None = None  # answer HEAD with this status instead of 200
    get_status: int | None = None  # answer GET with this status instead of 200/206
    body: Callable[[bytes], bytes] | None = None  # what GET sends instead of the file's bytes


class HubServer:
    """``with HubServer() as hub:`` then ``hub.add(repo, file, data)``; ``hub.url`` is HF_ENDPOINT."""

    def __init__(self) -> None:
        self.files: dict[tuple[str, str], bytes] = {}
        self.commits: dict[str, str] = {}
        self.behaviour = Behaviour()
        self.log: list[tuple[str, str, str | None]] = []  # method, path, Range header
        self.release = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._server.handle_error = lambda *_: None  # a client that hangs up is what tests do
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def add(self, repo: str, filename: str, data: bytes) -> str:
        """Serve ``data``; returns its SHA-256 (the ETag)."""
        self.files[(repo, filename)] = data
        self.commits.setdefault(repo, hashlib.sha1(repo.encode()).hexdigest())
        return hashlib.sha256(data).hexdigest()

    def gets(self) -> list[tuple[str, str, str | None]]:
        return [entry for entry in self.log if entry[0] == "GET"]

    def __enter__(self) -> HubServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release.set()
        self._server.shutdown()
        self._server.server_close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        hub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def _resolve(self) -> tuple[str, bytes] | None:
                match = _PATH.match(self.path.split("?")[0])
                if match is None or match["repo"] not in hub.commits:
                    self._error(404, "RepoNotFound")
                    return None
                data = hub.files.get((match["repo"], match["file"]))
                if data is None:
                    self._error(404, "EntryNotFound", hub.commits[match["repo"]])
                    return None
                return hub.commits[match["repo"]], data

            def _error(self, status: int, code: str, commit: str | None = None) -> None:
                self.send_response(status)
                self.send_header("X-Error-Code", code)
                if commit:
                    self.send_header("X-Repo-Commit", commit)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def _meta_headers(self, commit: str, data: bytes, **more: str) -> None:
                sha = hashlib.sha256(data).hexdigest()
                headers: dict[str, str | None] = {
                    "X-Repo-Commit": commit,
                    "ETag": f'"{sha}"',
                    "X-Linked-Etag": f'"{sha}"',
                    "X-Linked-Size": str(len(data)),
                    "Accept-Ranges": "bytes",
                    **more,
                }
                headers.update(hub.behaviour.headers)
                for name, value in headers.items():
                    if value is not None:
                        self.send_header(name, value)

            def do_HEAD(self) -> None:  # noqa: N802
                hub.log.append(("HEAD", self.path, None))
                if hub.behaviour.stall_head:
                    hub.release.wait(60)
                    return
                resolved = self._resolve()
                if resolved is None:
                    return
                commit, data = resolved
                self.send_response(hub.behaviour.head_status or 200)
                self._meta_headers(commit, data, **{"Content-Length": str(len(data))})
                self.end_headers()

            def do_GET(self) -> None:  # noqa: N802
                rng = self.headers.get("Range")
                hub.log.append(("GET", self.path, rng))
                behaviour = hub.behaviour
                resolved = self._resolve()
                if resolved is None:
                    return
                commit, data = resolved
                if behaviour.corrupt:
                    middle = len(data) // 2
                    data = data[:middle] + bytes([data[middle] ^ 0xFF]) + data[middle + 1 :]
                start = int(re.match(r"bytes=(\d+)-", rng)[1]) if rng else 0
                body = data[start:] if behaviour.body is None else behaviour.body(data[start:])
                self.send_response(behaviour.get_status or (206 if rng else 200))
                more = {"Content-Length": str(len(body))}
                if rng:
                    more["Content-Range"] = f"bytes {start}-{len(data) - 1}/{len(data)}"
                self._meta_headers(commit, data, **more)
                self.end_headers()
                self._send(body, start)

            def _send(self, body: bytes, start: int) -> None:
                behaviour = hub.behaviour
                sent = 0
                while sent < len(body):
                    position = start + sent
                    if behaviour.cut_after is not None and position >= behaviour.cut_after:
                        behaviour.cut_after = None  # only once
                        self.close_connection = True
                        self.connection.shutdown(2)
                        return
                    if behaviour.stall_after is not None and position >= behaviour.stall_after:
                        hub.release.wait(60)
                        self.close_connection = True
                        return
                    limit = behaviour.chunk
                    for mark in (behaviour.cut_after, behaviour.stall_after):
                        if mark is not None and mark > position:
                            limit = min(limit, mark - position)
                    piece = body[sent : sent + limit]
                    try:
                        self.wfile.write(piece)
                        self.wfile.flush()
                    except OSError:
                        return
                    sent += len(piece)
                    if behaviour.delay_s:
                        time.sleep(behaviour.delay_s)

        return Handler


# --------------------------------------------------------------------------- fixtures

CHAT_REPO = "tests/Tiny-Chat-GGUF"
CHAT_FILE = "tiny-chat-Q8.gguf"


@pytest.fixture(scope="module")
def model_bytes(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """A real tiny GGUF chat model, about 6 MB (several 1 MiB chunks), that never ends a reply early."""
    path = tmp_path_factory.mktemp("model") / CHAT_FILE
    write_tiny_llama_gguf(path, n_vocab=20000, n_embd=64, never_ends=True)
    return path.read_bytes()


def write_catalog(path: Path, entries: list[dict]) -> Path:
    base = {
        "kind": "chat",
        "name": "Tiny chat",
        "revision": "main",
        "licence": "MIT",
        "languages": ["en"],
        "parameters": "1M",
        "note": "test",
        "sha256": None,
    }
    path.write_text(json.dumps({"format": 1, "models": [{**base, **e} for e in entries]}))
    return path


@pytest.fixture
def hub(model_bytes: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A running loopback Hub serving the tiny model, and an environment pointing at it."""
    with HubServer() as server:
        sha = server.add(CHAT_REPO, CHAT_FILE, model_bytes)
        home = tmp_path / "home"
        home.mkdir()
        for key, value in {
            "HOME": str(home),
            "HF_HOME": str(home / ".cache" / "huggingface"),
            "HF_ENDPOINT": server.url,
            "HF_HUB_DISABLE_XET": "1",
            "NO_PROXY": "127.0.0.1,localhost",
            "no_proxy": "127.0.0.1,localhost",
            "PARLEY_DATA_DIR": str(tmp_path / "data"),
            "PARLEY_CONFIG_DIR": str(tmp_path / "config"),
        }.items():
            monkeypatch.setenv(key, value)
        for key in ("HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE", "HF_HUB_OFFLINE", "XDG_CACHE_HOME", "HF_TOKEN"):
            monkeypatch.delenv(key, raising=False)
        catalog = write_catalog(
            tmp_path / "catalog.json",
            [
                {"id": "tiny-chat", "repo": CHAT_REPO, "file": CHAT_FILE, "size": len(model_bytes), "sha256": sha},
                {"id": "tiny-chat-hub-sha", "repo": CHAT_REPO, "file": CHAT_FILE, "size": len(model_bytes)},
                {
                    "id": "tiny-chat-wrong-sha",
                    "repo": CHAT_REPO,
                    "file": CHAT_FILE,
                    "size": len(model_bytes),
                    "sha256": "0" * 64,
                },
                {"id": "missing", "repo": CHAT_REPO, "file": "nope.gguf", "size": 10},
            ],
        )
        monkeypatch.setenv("PARLEY_MODEL_CATALOG", str(catalog))
        server.sha = sha  # type: ignore[attr-defined]
        yield server


def cache() -> Path:
    return library.hf_cache_dir()


class Recorder:
    def __init__(self) -> None:
        self.events: list[library.Progress] = []

    def __call__(self, p: library.Progress) -> None:
        self.events.append(p)
