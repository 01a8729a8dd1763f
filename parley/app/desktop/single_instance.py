"""One Parley per conversation database: a later launch hands its command line to the first one
and exits, without opening the database.

Two instances on one database interfere: a second start marks the first one's streaming reply
as interrupted, and a deletion in one loses writes in the other.  So the first launch holds a
lock beside the database (``QLockFile``; a lock whose process has died is stale and is taken
over, whatever its age) and listens on a local socket named after that folder, in the user's
private runtime folder.  A later launch finds the lock held, connects, sends its arguments as
one JSON line and waits for ``ok`` (``instance_socket``).  The first raises its window, or
acts on the command (``command``).  What arrives that is not such a line closes the connection.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

from PySide6.QtCore import QLockFile, QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

from ..signals import emit
from .instance_socket import MAX_LINE, forward, parse_command, socket_name

log = logging.getLogger("parley.instance")

LOCK_FILE = "instance.lock"
# Windows: a named mutex that lives as long as the Parley holding the lock; the installer looks
# for it and refuses to replace the program files of a running Parley (packaging/windows/parley.nsi).
WINDOWS_MUTEX = "ParleyRunning"
_mutex_handles: list[int] = []


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


def _announce_running() -> None:
    if sys.platform == "win32" and not _mutex_handles:
        import ctypes

        handle = ctypes.windll.kernel32.CreateMutexW(None, False, WINDOWS_MUTEX)
        if handle:
            _mutex_handles.append(handle)


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
        _announce_running()
        return Instance(lock, name)
    if lock.error() != QLockFile.LockError.LockFailedError:
        log.warning("no instance lock in %s (%s)", data_dir, lock.error().name)
        return Instance(lock, None)
    if name is None or not forward(name, argv):
        log.warning("Parley already runs on %s, but did not answer", data_dir)
    return None
