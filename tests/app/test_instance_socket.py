"""The Qt-free sender of ``parley dictate --press`` (``instance_socket.forward``) against peers
that do not behave: one that never answers, one that answers garbage or floods, one that hangs
up, and no one at all.  Each ends in False, within the sender's own timeout, never a hang."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from parley.app.desktop import instance_socket


@pytest.fixture
def peer(tmp_path: Path) -> Iterator[Callable[[Callable[[socket.socket], None]], str]]:
    listeners: list[socket.socket] = []

    def serve(behave: Callable[[socket.socket], None]) -> str:
        path = str(tmp_path / f"peer{len(listeners)}.sock")
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(path)
        server.listen(1)
        listeners.append(server)

        def run() -> None:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                behave(conn)

        threading.Thread(target=run, daemon=True).start()
        return path

    yield serve
    for server in listeners:
        server.close()


def test_a_peer_that_never_answers_times_out(peer, monkeypatch) -> None:
    monkeypatch.setattr(instance_socket, "FORWARD_TIMEOUT_S", 1.0)
    done = threading.Event()
    path = peer(lambda conn: done.wait(10))
    began = time.monotonic()
    assert instance_socket.forward(path, ["dictate", "--press"]) is False
    assert time.monotonic() - began < 5
    done.set()


@pytest.mark.parametrize("answer", [b"no\n", b"x" * 1_000_000, b"ok", b""])
def test_a_peer_that_answers_anything_but_ok_is_not_obeyed(peer, answer: bytes) -> None:
    def behave(conn: socket.socket) -> None:
        conn.recv(100)
        try:
            conn.sendall(answer)
        except OSError:
            pass  # the sender stopped reading: it wanted 3 bytes

    assert instance_socket.forward(peer(behave), ["dictate", "--release"]) is False


def test_no_peer_is_false_after_the_connect_timeout(tmp_path: Path) -> None:
    began = time.monotonic()
    assert instance_socket.forward(str(tmp_path / "none.sock"), ["ask", "--toggle"], connect_timeout_s=0.3) is False
    assert time.monotonic() - began < 3


def test_an_argument_list_over_the_line_limit_is_not_sent(peer) -> None:
    received: list[bytes] = []
    path = peer(lambda conn: received.append(conn.recv(10)))
    assert instance_socket.forward(path, ["x" * instance_socket.MAX_LINE]) is False
    assert received == [] or received == [b""]
