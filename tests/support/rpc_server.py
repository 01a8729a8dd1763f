"""A real `parley rpc-server` in a subprocess on a free loopback port, for the RPC tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from parley.engine.backend.rpc import remote
from parley.engine.errors import RemoteError

REPO = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(REPO)}
TOKEN = bytes(range(32))  # a fixed token for servers and clients of the tests


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A `parley rpc-server` subprocess on a free loopback port, ready once it answers."""

    def __init__(self, *extra: str) -> None:
        self.port = free_port()
        self.endpoint = f"127.0.0.1:{self.port}"
        self._log = tempfile.TemporaryFile("w+")  # a pipe nobody reads would stop a talkative server
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "parley", "rpc-server", "--port", str(self.port), "--threads", "2", *extra],
            env=ENV,
            stdout=subprocess.DEVNULL,
            stderr=self._log,
            text=True,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                remote.check_server(self.endpoint, timeout=1.0)
                return
            except RemoteError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"rpc-server did not start: {self.log()}") from None
                time.sleep(0.2)

    def log(self) -> str:
        """What the server has written to its standard error so far (why it dropped a client)."""
        self._log.seek(0)
        return self._log.read()

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.kill()
