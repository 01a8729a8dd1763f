"""One Parley per conversation database: a later launch hands its command line to the first one
and exits, without opening the database.

Two instances on one database interfere: a second start marks the first one's streaming reply
as interrupted, and a deletion in one loses writes in the other.  So the first launch holds a
lock beside the database (``QLockFile``; a lock whose process has died is stale and is taken
over, whatever its age) and listens on a local socket named after that folder, in the user's
private runtime folder.  A later launch finds the lock held, connects, sends its arguments as
one JSON line and waits for ``ok``.  The first raises its window (``command``).

What arrives on the socket is checked before use (a list of at most ``MAX_ARGS`` strings, one
line of at most ``MAX_LINE`` bytes); anything else closes the connection.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import stat
import sys
import time
from pathlib import Path

import platformdirs
from PySide6.QtCore import QLockFile, QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

from ..signals import emit

log = logging.getLogger("parley.instance")

LOCK_FILE = "instance.lock"
MAX_LINE = 64 * 1024
MAX_ARGS = 64
FORWARD_TIMEOUT_S = 5.0  # the first instance may be between taking the lock and listening


def socket_name(data_dir: Path) -> str | None:
    """The local socket of the instance that owns ``data_dir``: a path in the user's private
    runtime folder (a named pipe on Windows); None when that folder is not private to the user."""
    digest = hashlib.sha256(str(data_dir.resolve()).encode()).hexdigest()[:16]
    if sys.platform == "win32":
        return f"parley-{digest}"
    folder = Path(platformdirs.user_runtime_dir("parley", appauthor=False))
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


class Instance(QObject):
    """The first launch: holds the lock for the app's life and answers later launches."""

    command = Signal(list)  # a later launch's arguments (without the program name)

    def __init__(self, lock: QLockFile, name: str | None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._lock = lock  # held until this object goes
        self._server = QLocalServer(self)
        self._server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        if name is not None:
            QLocalServer.removeServer(name)  # a dead instance's socket: the lock says none runs
            if not self._server.listen(name):
                log.warning("later launches cannot reach this one: %s", self._server.errorString())
        self._server.newConnection.connect(self._accept)

    def _accept(self) -> None:
        while (socket := self._server.nextPendingConnection()) is not None:
            socket.readyRead.connect(lambda s=socket: self._read(s))
            socket.disconnected.connect(socket.deleteLater)

    def _read(self, socket: QLocalSocket) -> None:
        if not socket.canReadLine():
            if socket.bytesAvailable() > MAX_LINE:
                socket.abort()
            return
        argv = parse_command(bytes(socket.readLine(MAX_LINE).data()))
        if argv is None:
            log.warning("ignored a malformed message on the instance socket")
            socket.abort()
            return
        socket.write(b"ok\n")
        socket.flush()
        socket.disconnectFromServer()
        log.info("another launch asked this Parley to come forward: %s", argv)
        emit(self.command, argv)


def claim(data_dir: Path, argv: list[str]) -> Instance | None:
    """Become the one Parley of ``data_dir`` (an ``Instance``), or hand ``argv`` to the one that
    is (None: the caller exits).  Needs a QCoreApplication.  When the lock cannot be made (a
    read-only folder), Parley runs anyway: the database then says what it can."""
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        log.warning("no instance lock (%s)", exc)
    lock = QLockFile(str(data_dir / LOCK_FILE))
    lock.setStaleLockTime(0)  # stale only when its process is gone, never by age
    name = socket_name(data_dir)
    if lock.tryLock(0):
        return Instance(lock, name)
    if lock.error() != QLockFile.LockError.LockFailedError:
        log.warning("no instance lock in %s (%s)", data_dir, lock.error().name)
        return Instance(lock, None)
    if name is None or not forward(name, argv):
        log.warning("Parley already runs on %s, but did not answer", data_dir)
    return None


def forward(name: str, argv: list[str], connect_timeout_s: float = FORWARD_TIMEOUT_S) -> bool:
    """Send ``argv`` to the instance listening on ``name``; True once it said ``ok``.
    ``connect_timeout_s``: how long to try to connect (the first instance may still be starting)."""
    socket = QLocalSocket()
    connect_deadline = time.monotonic() + connect_timeout_s
    while True:
        socket.connectToServer(name)
        if socket.waitForConnected(250):
            break
        if time.monotonic() >= connect_deadline:
            return False
        time.sleep(0.1)
    deadline = time.monotonic() + FORWARD_TIMEOUT_S
    socket.write(json.dumps(argv).encode() + b"\n")
    socket.waitForBytesWritten(1000)
    while not socket.canReadLine():
        left = deadline - time.monotonic()
        if left <= 0 or not socket.waitForReadyRead(int(left * 1000)):
            return False
    return bytes(socket.readLine(16).data()) == b"ok\n"
