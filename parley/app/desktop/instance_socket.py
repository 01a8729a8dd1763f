"""The channel to the Parley that is running, Qt-free: where its socket is, what a message on it
may hold, and sending one.

A later launch, or a desktop key binding running ``parley dictate --press``, sends its
arguments as one JSON line and waits for ``ok``.  Sending needs no Qt on Linux and macOS (a
Unix socket, which Qt's ``QLocalServer`` listens on at that path): a key binding's command then
reaches Parley about 0.1 s sooner than one that first loads Qt, and that time is speech lost
at the start of a take.  On Windows the server is a named pipe, reached through Qt.

What arrives on the socket is checked before use (``parse_command``: a list of at most
``MAX_ARGS`` strings, one line of at most ``MAX_LINE`` bytes).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import socket
import stat
import sys
import time
from pathlib import Path

from parley.config.paths import runtime_dir

log = logging.getLogger("parley.instance")

MAX_LINE = 64 * 1024
MAX_ARGS = 64
FORWARD_TIMEOUT_S = 5.0  # the first instance may be between taking the lock and listening
_RETRY_S = 0.05


def socket_name(data_dir: Path) -> str | None:
    """The local socket of the instance that owns ``data_dir``: a path in the user's private
    runtime folder (a named pipe on Windows); None when that folder is not private to the user."""
    digest = hashlib.sha256(str(data_dir.resolve()).encode()).hexdigest()[:16]
    if sys.platform == "win32":
        return f"parley-{digest}"
    folder = runtime_dir()
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.lstat(folder)
    except OSError as exc:
        log.warning("no runtime folder for the instance socket (%s)", exc)
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        log.warning("%s is not a folder private to this user; no instance socket", folder)
        return None
    return str(folder / f"instance-{digest}.sock")


def parse_command(line: bytes) -> list[str] | None:
    """A later launch's arguments from its one line, or None when the line is not that."""
    try:
        value = json.loads(line)
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(value, list) or len(value) > MAX_ARGS or not all(isinstance(a, str) for a in value):
        return None
    return value


def forward(name: str, argv: list[str], connect_timeout_s: float = FORWARD_TIMEOUT_S) -> bool:
    """Send ``argv`` to the instance listening on ``name``; True once it said ``ok``.
    ``connect_timeout_s``: how long to try to connect (the first instance may still be starting)."""
    line = json.dumps(argv).encode() + b"\n"
    if len(line) > MAX_LINE:
        return False
    if sys.platform == "win32":
        return _forward_qt(name, line, connect_timeout_s)
    deadline = time.monotonic() + connect_timeout_s
    while True:
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            conn.settimeout(FORWARD_TIMEOUT_S)
            try:
                conn.connect(name)
            except (FileNotFoundError, ConnectionRefusedError):
                if time.monotonic() >= deadline:
                    return False
                time.sleep(_RETRY_S)
                continue
            conn.sendall(line)
            answer = b""
            while len(answer) < 3 and not answer.endswith(b"\n"):
                chunk = conn.recv(3 - len(answer))
                if not chunk:
                    break
                answer += chunk
            return answer == b"ok\n"
        except OSError:
            return False
        finally:
            conn.close()


def _forward_qt(name: str, line: bytes, connect_timeout_s: float) -> bool:
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtNetwork import QLocalSocket

    _app = QCoreApplication.instance() or QCoreApplication([sys.argv[0]])
    conn = QLocalSocket()
    connect_deadline = time.monotonic() + connect_timeout_s
    while True:
        conn.connectToServer(name)
        if conn.waitForConnected(250):
            break
        if time.monotonic() >= connect_deadline:
            return False
        time.sleep(0.1)
    deadline = time.monotonic() + FORWARD_TIMEOUT_S
    conn.write(line)
    conn.waitForBytesWritten(1000)
    while not conn.canReadLine():
        left = deadline - time.monotonic()
        if left <= 0 or not conn.waitForReadyRead(int(left * 1000)):
            return False
    return bytes(conn.readLine(16).data()) == b"ok\n"
