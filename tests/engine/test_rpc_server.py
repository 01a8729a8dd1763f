"""`parley rpc-server` against hostile clients: a real server subprocess, raw sockets as clients.

Each hostile case checks three things: the front refuses the message (one log line), the server
process lives on, and a second, valid client is served afterwards.  ggml's own server, which
`parley rpc-server` ran directly before, aborts, leaks its memory or blocks in each of them.
Clients from another machine are played by a network namespace of the test's own, in which the
server listens on a non-loopback address.  With `parley rpc-server` swapped back to calling
ggml's server directly, every test of a finding here fails (the server dies, leaks, or blocks).
"""

from __future__ import annotations

import ctypes
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from parley.engine.backend.rpc import remote, wire
from tests.support.lines import LineReader
from tests.support.requirements import require
from tests.support.rpc_fuzzing import (
    ENV,
    HANG,
    I32,
    OP_GET_ROWS,
    OP_MAP_CUSTOM1,
    Closed,
    RawClient,
    Server,
    free_port,
    tensor,
    valid_session,
)

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return tmp_path / "server.log"


@pytest.fixture
def server(log: Path) -> Iterator[Server]:
    srv = Server(log)
    yield srv
    srv.stop()


def wait_for(condition, what: str, timeout: float = HANG) -> None:  # noqa: ANN001
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def served(port: int) -> bool:
    try:
        return valid_session(port)
    except Closed:
        return False


def refused_once(srv: Server, pattern: str) -> None:
    """The log says, in exactly one line, that a client was refused for ``pattern``."""
    wait_for(lambda: re.search(pattern, srv.log()), f"a log line matching {pattern!r}: {srv.log()}")
    lines = [line for line in srv.log().splitlines() if re.search(pattern, line)]
    assert len(lines) == 1 and lines[0].startswith("parley rpc-server: "), srv.log()


# --------------------------------------------------------------------------- tensors outside their buffers


def test_set_tensor_outside_its_buffer_is_refused_and_the_next_client_is_served(server: Server) -> None:
    """ggml's server aborts (GGML_ASSERT in deserialize_tensor) on this one message."""
    with RawClient(server.port) as client:
        handle, base, size = client.alloc(1 << 20)
        outside = tensor(id=1, buffer=handle, data=base + size + 4096, ne=(4,))
        client.set_tensor(outside, bytes(16))
        assert client.closed()
    refused_once(server, r"refused 127\.0\.0\.1:\d+: SET_TENSOR: tensor data beyond the end of its buffer")
    assert server.alive()
    assert valid_session(server.port)


def test_a_graph_tensor_without_a_buffer_cannot_read_the_servers_memory(server: Server) -> None:
    """A tensor with no buffer and no data, and a row stride: GET_ROWS then reads row i at the
    address i * stride, anywhere in the server's memory.  Here the address is one of the client's
    own buffers (so the test knows what is there); ggml's server passes it and returns the bytes."""
    with RawClient(server.port) as client:
        handle, base, _ = client.alloc(256 << 10)
        stride = 1 << 16
        target = (base + 1024 + stride - 1) // stride * stride  # inside the buffer, aligned
        marker = np.array([1.5, 2.5, 3.5, 4.5], dtype=np.float32)
        client.set_tensor(tensor(id=9, buffer=handle, data=target, ne=(4,)), marker.tobytes())
        anywhere = tensor(id=1, ne=(4, 1 << 31), nb=(4, stride, 0, 0))
        index = tensor(id=2, buffer=handle, data=base, type=I32, ne=(1,))
        client.set_tensor(index, struct.pack("<i", target // stride))
        rows = tensor(id=3, buffer=handle, data=base + 64, ne=(4, 1), op=OP_GET_ROWS, src=(1, 2))
        client.graph([3], [anywhere, index, rows])
        with pytest.raises(Closed):
            leaked = client.get_tensor(rows, 16)
            pytest.fail(
                f"the server read memory through a tensor without a buffer: {np.frombuffer(leaked, np.float32)}"
            )
    refused_once(server, r"GRAPH_COMPUTE: a tensor has no buffer")
    assert valid_session(server.port)


def test_a_graph_with_a_custom_op_is_refused(server: Server) -> None:
    """MAP_CUSTOM1's op_params hold a function pointer: ggml's server calls whatever it is given."""
    with RawClient(server.port) as client:
        handle, base, _ = client.alloc(4096)
        a = tensor(id=1, buffer=handle, data=base, ne=(4,))
        call = tensor(
            id=2,
            buffer=handle,
            data=base + 64,
            ne=(4,),
            op=OP_MAP_CUSTOM1,
            src=(1,),
            op_params=(0x41414141, 0x41414141, 1),
        )
        client.graph([2], [a, call])
        with pytest.raises(Closed):
            client.get_tensor(call, 16)
    refused_once(server, r"GRAPH_COMPUTE: op 92 is not allowed")
    assert server.alive() and valid_session(server.port)


def test_an_assertion_inside_ggml_ends_only_that_session(server: Server) -> None:
    """A valid-looking graph whose data makes ggml assert (a row index out of range): the
    compute process dies, the front drops that client, starts another process, serves the next."""
    with RawClient(server.port) as client:
        handle, base, _ = client.alloc(4096)
        table = tensor(id=1, buffer=handle, data=base, ne=(4, 2))
        index = tensor(id=2, buffer=handle, data=base + 64, type=I32, ne=(1,))
        client.set_tensor(index, struct.pack("<i", 5))
        rows = tensor(id=3, buffer=handle, data=base + 128, ne=(4, 1), op=OP_GET_ROWS, src=(1, 2))
        client.graph([3], [table, index, rows])
        with pytest.raises(Closed):
            client.get_tensor(rows, 16)
    refused_once(server, r"dropped 127\.0\.0\.1:\d+: the compute process stopped \(it was stopped by signal SIGABRT")
    assert "GGML_ASSERT" in server.log().splitlines()[-1]
    assert server.alive() and valid_session(server.port)


def test_a_declared_size_beyond_the_tensor_is_refused_before_the_body_is_read(server: Server) -> None:
    """SET_TENSOR says 512 MiB follow for a 16-byte tensor: refused after its 305-byte header
    (ggml's server allocates the declared size and waits for it)."""
    with RawClient(server.port) as client:
        handle, base, _ = client.alloc(4096)
        header = tensor(id=1, buffer=handle, data=base, ne=(4,)).tobytes() + b"\x00" + struct.pack("<Q", 0)
        client.send(remote.SET_TENSOR, header, size=len(header) + (512 << 20))
        assert client.closed()
    refused_once(server, r"SET_TENSOR: bytes 0\.\.536870912 are outside the tensor's 16")
    assert valid_session(server.port)


def test_an_allocation_beyond_the_device_memory_gets_no_buffer(server: Server) -> None:
    with RawClient(server.port) as client:
        handle, size = struct.unpack("<QQ", client.request(remote.ALLOC_BUFFER, struct.pack("<IQ", 0, 1 << 50), 16))
        assert (handle, size) == (0, 0)
        assert client.alloc(4096)[0] != 0  # the session goes on
    refused_once(server, r"ALLOC_BUFFER of 1125899906842624 bytes: more than the device's memory")


# --------------------------------------------------------------------------- slow, idle and many clients


def test_an_idle_client_gives_way_to_a_waiting_one(log: Path) -> None:
    """ggml's server serves one client at a time: the second one waited for ever."""
    srv = Server(log, "--idle-timeout", "1")
    try:
        with RawClient(srv.port) as idle:
            idle.alloc(4096)  # holds the device, then says nothing
            started = time.monotonic()
            assert valid_session(srv.port)
            assert time.monotonic() - started >= 1.0
            assert idle.closed()
        refused_once(srv, r"refused 127\.0\.0\.1:\d+: idle for 1 s while another client waits")
    finally:
        srv.stop()


def test_an_idle_client_keeps_the_device_while_nobody_waits(log: Path) -> None:
    idle_s = 0.5
    srv = Server(log, "--idle-timeout", str(idle_s))
    try:
        with RawClient(srv.port) as client:
            handle, base, _ = client.alloc(4096)
            time.sleep(3 * idle_s)  # idle well past the timeout, with nobody waiting: kept
            t = tensor(id=1, buffer=handle, data=base, ne=(2,))
            client.set_tensor(t, struct.pack("<2f", 1.0, 2.0))
            assert client.get_tensor(t, 8) == struct.pack("<2f", 1.0, 2.0)
        assert "idle" not in srv.log()
    finally:
        srv.stop()


def test_a_client_stalled_mid_message_is_dropped_and_the_next_is_served(log: Path) -> None:
    srv = Server(log, "--stall-timeout", "1", "--idle-timeout", "100")
    try:
        with RawClient(srv.port) as stalled:
            handle, base, _ = stalled.alloc(4096)
            header = tensor(id=1, buffer=handle, data=base, ne=(4,)).tobytes() + b"\x00" + struct.pack("<Q", 0)
            stalled.send(remote.SET_TENSOR, header + bytes(4), size=len(header) + 16)  # 12 bytes never come
            assert valid_session(srv.port)
            assert stalled.closed()
        refused_once(srv, r"stalled: no byte for 1 s in the middle of a message")
    finally:
        srv.stop()


def test_connections_beyond_max_clients_are_closed_at_once(log: Path) -> None:
    srv = Server(log, "--max-clients", "2")
    try:
        with RawClient(srv.port), RawClient(srv.port):
            third = socket.create_connection(("127.0.0.1", srv.port), timeout=HANG)
            assert third.recv(1) == b""
            third.close()
        refused_once(srv, r"refused 127\.0\.0\.1:\d+: 2 clients are connected already")
        wait_for(lambda: served(srv.port), "a client once the others left")
    finally:
        srv.stop()


def test_a_check_and_the_device_count_are_answered_while_another_client_uses_the_device(server: Server) -> None:
    with RawClient(server.port) as busy:
        busy.alloc(4096)
        info = remote.check_server(server.endpoint, timeout=3.0)
        assert info.device_count == 1


# --------------------------------------------------------------------------- the token


_NETNS_CLIENT = """
import sys
sys.path.insert(0, {repo!r})
from tests.support.rpc_fuzzing import RawClient, Closed, valid_session
port, token = {port}, bytes.fromhex({token!r})
for name, send in (("none", None), ("wrong", bytes(32))):
    try:
        RawClient(port, {host!r}, token=send)
        print(name, "served")
    except (Closed, AssertionError):
        print(name, "closed")
print("right", "served" if valid_session(port, {host!r}, token=token) else "wrong sum")
"""


@pytest.fixture
def netns() -> Iterator[str]:
    """A network namespace of this test's own with a non-loopback address, 10.77.0.1."""
    require(
        sys.platform == "linux" and os.geteuid() == 0 and shutil.which("ip") is not None,
        "needs root and iproute2 to make a network namespace (a client on another address)",
    )
    name = f"parley-rpc-{os.getpid()}"
    setup = [
        ["ip", "netns", "add", name],
        ["ip", "-n", name, "link", "set", "lo", "up"],
        ["ip", "-n", name, "link", "add", "d0", "type", "veth", "peer", "name", "d1"],
        ["ip", "-n", name, "addr", "add", "10.77.0.1/24", "dev", "d0"],
        ["ip", "-n", name, "link", "set", "d0", "up"],
        ["ip", "-n", name, "link", "set", "d1", "up"],
    ]
    try:
        for command in setup:
            subprocess.run(command, check=True, capture_output=True, timeout=30)
        yield name
    finally:
        subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=30)


def test_clients_from_another_address_need_the_token(netns: str, log: Path, tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    srv = Server(
        log, "--allow-remote", "--token-file", str(token_file), host="10.77.0.1", prefix=("ip", "netns", "exec", netns)
    )
    try:
        token = token_file.read_text().strip()
        assert re.fullmatch(r"[0-9a-f]{64}", token) and token_file.stat().st_mode & 0o777 == 0o600
        assert f"--rpc {token}@10.77.0.1:{srv.port}" in srv.log()
        script = _NETNS_CLIENT.format(repo=str(REPO), port=srv.port, token=token, host="10.77.0.1")
        run = subprocess.run(
            ["ip", "netns", "exec", netns, sys.executable, "-c", script],
            env=ENV,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert run.returncode == 0, run.stderr
        assert run.stdout.split("\n") == ["none closed", "wrong closed", "right served", ""]
        refused_once(srv, r"refused 10\.77\.0\.1:\d+: sent no token")
        refused_once(srv, r"refused 10\.77\.0\.1:\d+: wrong token")
        assert srv.alive() and not any(token in line for line in srv.log().splitlines() if "refused" in line)
    finally:
        srv.stop()


def test_loopback_clients_may_send_the_token_but_not_a_wrong_one(log: Path, tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    srv = Server(log, "--token-file", str(token_file))
    try:
        token = bytes.fromhex(token_file.read_text())
        assert valid_session(srv.port, token=token) and valid_session(srv.port)
        with pytest.raises((Closed, AssertionError)):
            RawClient(srv.port, token=bytes(32))
        refused_once(srv, "wrong token")
    finally:
        srv.stop()
    again = Server(log.with_suffix(".2"), "--token-file", str(token_file))
    again.stop()
    assert bytes.fromhex(token_file.read_text()) == token, "a valid token file is kept"


# --------------------------------------------------------------------------- flags


def parley(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "parley", *args], env=ENV, capture_output=True, text=True, timeout=timeout
    )


def test_rpc_server_listens_beyond_loopback_only_when_asked_and_then_warns() -> None:
    port = free_port()
    refused = parley("rpc-server", "--host", "0.0.0.0", "--port", str(port))
    assert refused.returncode == 2 and "add --allow-remote" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1, refused.stderr
    proc = subprocess.Popen(
        [sys.executable, "-m", "parley", "rpc-server", "--host", "0.0.0.0", "--port", str(port), "--allow-remote"],
        env=ENV,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        lines, err_lines = [], LineReader(proc.stderr)
        while not re.search(rf"--rpc [0-9a-f]{{64}}@\S+:{port}", "".join(lines)):
            line = err_lines.next()
            assert line, "".join(lines)
            lines.append(line)
    finally:
        proc.kill()
        proc.wait(10)
    text = "".join(lines)
    assert "WARNING" in text and f"0.0.0.0:{port}" in text and "NO encryption" in text
    assert "Never run the RPC server on an open network" in text and "ssh -N -L" in text
    assert re.search(rf"--rpc [0-9a-f]{{64}}@\S+:{port}", text), text


def test_rpc_server_refuses_a_port_in_use_and_a_host_name(server: Server) -> None:
    busy = parley("rpc-server", "--port", str(server.port))
    assert busy.returncode == 2 and f"cannot listen on 127.0.0.1:{server.port}" in busy.stderr
    named = parley("rpc-server", "--host", "example.org")
    assert named.returncode == 2 and "--host must be an IPv4 address" in named.stderr


def test_the_compute_process_ends_with_the_server(server: Server) -> None:
    children = subprocess.run(["pgrep", "-P", str(server.proc.pid)], capture_output=True, text=True, timeout=10)
    (child,) = [int(pid) for pid in children.stdout.split()]
    server.stop()
    wait_for(
        lambda: not Path(f"/proc/{child}").exists() or "Z" in Path(f"/proc/{child}/stat").read_text().split()[2],
        "the compute process to exit",
    )


# --------------------------------------------------------------------------- the tables


def test_the_type_table_and_op_numbers_match_the_native_library() -> None:
    from parley.engine.backend import native

    native.load_backends()
    base = ctypes.CDLL(str(native.lib_dir() / "libggml-base.so.0"))
    base.ggml_blck_size.restype = ctypes.c_int64
    base.ggml_type_size.restype = ctypes.c_size_t
    base.ggml_op_name.restype = ctypes.c_char_p
    for t in range(wire.TYPE_COUNT):
        assert (base.ggml_blck_size(t), base.ggml_type_size(t)) == (wire.BLOCK_SIZE[t], wire.TYPE_SIZE[t]), t
    assert [base.ggml_op_name(op) for op in wire.CUSTOM_OPS] == [
        b"MAP_CUSTOM1",
        b"MAP_CUSTOM2",
        b"MAP_CUSTOM3",
        b"CUSTOM",
    ]
    assert [base.ggml_op_name(op) for op in (0, 2, 40)] == [b"NONE", b"ADD", b"GET_ROWS"]
    work = subprocess.run(
        [sys.executable, str(REPO / "native" / "build.py"), "--print-work"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout.strip()
    header = (Path(work) / "include" / "ggml.h").read_text()
    assert re.search(rf"GGML_TYPE_COUNT\s*=\s*{wire.TYPE_COUNT},", header)
    assert f"GGML_OP_COUNT == {wire.OP_COUNT}" in (Path(work) / "include" / "ggml-rpc.h").read_text()
    assert wire.TENSOR_SIZE == 296
