"""A raw ggml RPC client, a `parley rpc-server` subprocess, and the mutating client that fuzzes it.

``RawClient`` speaks the protocol byte by byte (no ggml, no relay), so a test can send exactly
what a hostile peer would.  ``Server`` runs the real ``python -m parley rpc-server`` with its log
in a file.  ``run_fuzz`` starts from the messages a real session sends (HELLO, ALLOC_BUFFER,
BUFFER_GET_BASE, SET_TENSOR, GET_TENSOR, GRAPH_COMPUTE of a small valid graph, GET_TENSOR of the
result), mutates one of them (a field, a size, an id, a pointer; or truncates the stream, or
stalls), and after each case checks that the server still serves a fresh, valid client.
``bench/fuzz_rpc_server.py`` runs it long; ``tests/engine/test_fuzz_rpc_server.py`` runs a fixed slice.
"""

from __future__ import annotations

import dataclasses
import os
import random
import signal
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from parley.engine.backend.rpc import remote, wire

REPO = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(REPO)}
HANG = 20.0  # a hang guard only: the server answers in milliseconds
F32, I32 = 0, 26
OP_NONE, OP_ADD, OP_GET_ROWS, OP_MAP_CUSTOM1 = 0, 2, 40, 92
COMPUTE = 16  # GGML_TENSOR_FLAG_COMPUTE: ggml's CPU backend skips a node without it


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --------------------------------------------------------------------------- the server


class Server:
    """`parley rpc-server` as a subprocess, its log (stderr) in ``log_path``; ready once it answers."""

    def __init__(
        self, log_path: Path, *flags: str, host: str = "127.0.0.1", prefix: tuple[str, ...] = (), wait: bool = True
    ) -> None:
        self.port = free_port()
        self.host = host
        self.endpoint = f"{host}:{self.port}"
        self.log_path = log_path
        self._log = open(log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            [
                *prefix,
                sys.executable,
                "-m",
                "parley",
                "rpc-server",
                "--host",
                host,
                "--port",
                str(self.port),
                "--threads",
                "2",
                *flags,
            ],
            env=ENV,
            stdout=subprocess.DEVNULL,
            stderr=self._log,
        )
        if wait:
            self.wait_ready()

    def wait_ready(self) -> None:
        deadline = time.monotonic() + 60
        while "serving" not in self.log():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"rpc-server did not start: {self.log()}")
            time.sleep(0.1)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self._log.close()


# --------------------------------------------------------------------------- the raw client


class Closed(Exception):
    """The server closed the connection (or reset it) instead of answering."""


def tensor(
    *,
    id: int,
    buffer: int = 0,
    data: int = 0,
    type: int = F32,
    ne: tuple[int, ...] = (1, 1, 1, 1),
    nb: tuple[int, ...] | None = None,
    op: int = OP_NONE,
    src: tuple[int, ...] = (),
    op_params: tuple[int, ...] = (),
) -> np.ndarray:
    """One ``rpc_tensor`` (contiguous strides unless given; marked for computing when it has an op)."""
    t = np.zeros(1, dtype=wire.TENSOR)
    ne = tuple(ne) + (1,) * (4 - len(ne))
    if nb is None:
        size = int(wire.TYPE_SIZE[type]) // int(wire.BLOCK_SIZE[type])
        nb = (size, size * ne[0], size * ne[0] * ne[1], size * ne[0] * ne[1] * ne[2])
    t["id"], t["type"], t["buffer"], t["data"], t["op"] = id, type, buffer, data, op
    t["flags"] = COMPUTE if op != OP_NONE else 0
    t["ne"], t["nb"] = ne, nb
    t["src"][0, : len(src)] = src
    t["op_params"][0, : len(op_params)] = op_params
    return t


class RawClient:
    """A ggml RPC client at the byte level, with a timeout on every read."""

    def __init__(
        self, port: int, host: str = "127.0.0.1", token: bytes | None = None, hello: bool = True, timeout: float = HANG
    ) -> None:
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if token is not None:
            self.send(wire.PARLEY_AUTH, token)
            assert self.reply(1) == b"\x01"
        if hello:
            self.hello()

    def close(self) -> None:
        self.sock.close()

    def __enter__(self) -> RawClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def send(self, cmd: int, body: bytes, size: int | None = None) -> None:
        try:
            self.sock.sendall(bytes([cmd]) + struct.pack("<Q", len(body) if size is None else size) + body)
        except (BrokenPipeError, ConnectionResetError) as exc:
            raise Closed(str(exc)) from None

    def recv(self, n: int) -> bytes:
        out = bytearray()
        while len(out) < n:
            try:
                block = self.sock.recv(n - len(out))
            except ConnectionResetError:
                block = b""
            if not block:
                raise Closed(f"closed after {len(out)} of {n} bytes")
            out += block
        return bytes(out)

    def reply(self, expected: int) -> bytes:
        size = struct.unpack("<Q", self.recv(8))[0]
        assert size == expected, f"a reply of {size} bytes instead of {expected}"
        return self.recv(size)

    def request(self, cmd: int, body: bytes, expected: int) -> bytes:
        self.send(cmd, body)
        return self.reply(expected)

    def closed(self) -> bool:
        """True once the server closed the connection (waits up to the socket timeout)."""
        try:
            return self.sock.recv(1) == b""
        except ConnectionResetError:
            return True

    # ------------------------------------------------------------------ commands

    def hello(self) -> bytes:
        return self.request(remote.HELLO, bytes(remote.HELLO_REQUEST_SIZE), remote.HELLO_REPLY_SIZE)

    def device_count(self) -> int:
        return struct.unpack("<I", self.request(remote.DEVICE_COUNT, b"", 4))[0]

    def alloc(self, size: int) -> tuple[int, int, int]:
        """A buffer of ``size`` bytes: (handle, base, size)."""
        handle, got = struct.unpack("<QQ", self.request(remote.ALLOC_BUFFER, struct.pack("<IQ", 0, size), 16))
        base = struct.unpack("<Q", self.request(remote.BUFFER_GET_BASE, struct.pack("<Q", handle), 8))[0]
        return handle, base, got

    def set_tensor(self, t: np.ndarray, data: bytes, offset: int = 0) -> None:
        self.send(remote.SET_TENSOR, t.tobytes() + b"\x00" + struct.pack("<Q", offset) + data)

    def get_tensor(self, t: np.ndarray, size: int, offset: int = 0) -> bytes:
        return self.request(remote.GET_TENSOR, t.tobytes() + struct.pack("<QQ", offset, size), size)

    def graph(self, nodes: list[int], tensors: list[np.ndarray]) -> None:
        body = struct.pack("<II", 0, len(nodes)) + struct.pack(f"<{len(nodes)}Q", *nodes)
        body += struct.pack("<I", len(tensors)) + b"".join(t.tobytes() for t in tensors)
        self.send(remote.GRAPH_COMPUTE, body)


def valid_session(port: int, host: str = "127.0.0.1", token: bytes | None = None) -> bool:
    """A short real session: two vectors added on the server, the sum read back."""
    with RawClient(port, host, token) as client:
        handle, base, _ = client.alloc(4096)
        a = tensor(id=1, buffer=handle, data=base, ne=(4,))
        b = tensor(id=2, buffer=handle, data=base + 64, ne=(4,))
        c = tensor(id=3, buffer=handle, data=base + 128, ne=(4,), op=OP_ADD, src=(1, 2))
        client.set_tensor(a, np.arange(4, dtype=np.float32).tobytes())
        client.set_tensor(b, np.full(4, 10, dtype=np.float32).tobytes())
        client.graph([3], [a, b, c])
        got = np.frombuffer(client.get_tensor(c, 16), dtype=np.float32)
        return got.tolist() == [10.0, 11.0, 12.0, 13.0]


# --------------------------------------------------------------------------- fuzzing


@dataclasses.dataclass
class Outcome:
    case: int
    mutation: str
    verdict: str  # "served", "refused", "child restarted", "server died", "hang", "leak"
    detail: str = ""

    @property
    def failed(self) -> bool:
        return self.verdict in ("server died", "hang", "leak")


BUFFER_SIZE = 4096


def _session_messages(handle: int, base: int) -> list[tuple[int, bytes, int | None]]:
    """A real session after HELLO and ALLOC_BUFFER: (command, body, reply size)."""
    a = tensor(id=1, buffer=handle, data=base, ne=(4,))
    b = tensor(id=2, buffer=handle, data=base + 64, ne=(4,))
    c = tensor(id=3, buffer=handle, data=base + 128, ne=(4,), op=OP_ADD, src=(1, 2))
    graph = struct.pack("<IIQI", 0, 1, 3, 3) + a.tobytes() + b.tobytes() + c.tobytes()
    return [
        (remote.BUFFER_GET_BASE, struct.pack("<Q", handle), 8),
        (
            remote.SET_TENSOR,
            a.tobytes() + b"\x00" + struct.pack("<Q", 0) + np.arange(4, dtype=np.float32).tobytes(),
            None,
        ),
        (
            remote.SET_TENSOR,
            b.tobytes() + b"\x00" + struct.pack("<Q", 0) + np.ones(4, dtype=np.float32).tobytes(),
            None,
        ),
        (remote.GRAPH_COMPUTE, graph, None),
        (remote.GRAPH_RECOMPUTE, struct.pack("<I", 0), None),
        (remote.GET_TENSOR, c.tobytes() + struct.pack("<QQ", 0, 16), 16),
        (remote.MEMSET_TENSOR, a.tobytes() + struct.pack("<QQB", 0, 16, 7), None),
        (remote.COPY_TENSOR, a.tobytes() + b.tobytes(), 1),
        (remote.INIT_TENSOR, a.tobytes(), None),
        (
            remote.GET_ALLOC_SIZE,
            struct.pack("<I", 0) + c.tobytes() + a.tobytes() + b.tobytes() + bytes(8 * wire.TENSOR_SIZE),
            8,
        ),
        (remote.BUFFER_CLEAR, struct.pack("<QB", handle, 0), None),
        (remote.GET_DEVICE_MEMORY, struct.pack("<I", 0), 16),
        (remote.FREE_BUFFER, struct.pack("<Q", handle), None),
    ]


_TENSOR_FIELDS = ["id", "type", "buffer", "ne", "nb", "op", "flags", "src", "view_src", "data"]


def _interesting(rng: random.Random, base: int, handle: int) -> int:
    return rng.choice(
        [
            0,
            1,
            2,
            3,
            4,
            16,
            255,
            0xFFFF,
            0xFFFFFFFF,
            1 << 32,
            1 << 40,
            (1 << 63),
            (1 << 64) - 1,
            base,
            base - 8,
            base + BUFFER_SIZE,
            base + BUFFER_SIZE - 4,
            base + rng.randrange(BUFFER_SIZE),
            handle,
            handle + 8,
            rng.getrandbits(64),
            rng.getrandbits(32),
        ]
    )


def _mutate_tensor(body: bytearray, offset: int, rng: random.Random, base: int, handle: int) -> str:
    t = np.frombuffer(body, dtype=wire.TENSOR, count=1, offset=offset).copy()
    field = rng.choice(_TENSOR_FIELDS)
    value = _interesting(rng, base, handle)
    if field in ("op", "type") and rng.random() < 0.7:  # a real op or type: ggml may assert on it
        value = rng.randrange(wire.OP_COUNT if field == "op" else wire.TYPE_COUNT)
    if t[field].ndim > 1 or field in ("ne", "nb", "src"):
        index = rng.randrange(t[field].shape[-1])
        bits = 32 if field in ("ne", "nb") else 64
        t[field][0, index] = value % (1 << bits)
        where = f"{field}[{index}]"
    else:
        bits = 32 if field in ("type", "op", "flags") else 64
        t[field] = value % (1 << bits) if field != "flags" else (value % (1 << 31))
        where = field
    body[offset : offset + wire.TENSOR_SIZE] = t.tobytes()
    return f"tensor@{offset}.{where}={value:#x}"


def _mutate(cmd: int, body: bytes, rng: random.Random, base: int, handle: int) -> tuple[bytes, int, str]:
    """One mutation of a message: (body, declared size, description)."""
    data = bytearray(body)
    kind = rng.choice(["tensor", "tensor", "tensor", "word", "byte", "size", "truncate-body", "extend"])
    tensor_offsets = [o for o in range(len(data) - wire.TENSOR_SIZE + 1) if _is_tensor_at(cmd, o, len(data))]
    if kind == "tensor" and tensor_offsets:
        what = _mutate_tensor(data, rng.choice(tensor_offsets), rng, base, handle)
        return bytes(data), len(data), what
    if kind in ("word", "tensor") and len(data) >= 8:
        at = rng.randrange(0, len(data) - 7)
        value = _interesting(rng, base, handle)
        data[at : at + 8] = struct.pack("<Q", value)
        return bytes(data), len(data), f"u64@{at}={value:#x}"
    if kind == "byte" and data:
        at = rng.randrange(len(data))
        data[at] = rng.randrange(256)
        return bytes(data), len(data), f"byte@{at}={data[at]}"
    if kind == "size":
        declared = rng.choice([0, len(data) - 1, len(data) + 1, len(data) * 2, 1 << 31, 1 << 40, (1 << 64) - 1])
        declared = max(0, declared)
        return bytes(data[: min(declared, len(data))]), declared, f"declared size {declared}"
    if kind == "truncate-body" and data:
        cut = rng.randrange(len(data))
        return bytes(data[:cut]), len(data), f"truncated to {cut} of {len(data)} (then stall)"
    extra = bytes(rng.randrange(256) for _ in range(rng.choice([1, 8, 296])))
    return bytes(data) + extra, len(data) + len(extra), f"{len(extra)} extra bytes"


def _is_tensor_at(cmd: int, offset: int, size: int) -> bool:
    starts = {
        remote.SET_TENSOR: [0],
        remote.GET_TENSOR: [0],
        remote.MEMSET_TENSOR: [0],
        remote.INIT_TENSOR: [0],
        remote.COPY_TENSOR: [0, wire.TENSOR_SIZE],
        remote.SET_TENSOR_HASH: [0],
        remote.GET_ALLOC_SIZE: [4 + i * wire.TENSOR_SIZE for i in range(3)],
        remote.GRAPH_COMPUTE: [20 + i * wire.TENSOR_SIZE for i in range(3)],
    }
    return offset in starts.get(cmd, [])


def _leaked(cmd: int, body: bytes, buffers: list[tuple[int, int]]) -> str:
    """For a GET_TENSOR that was answered: the region it read, if outside the client's buffers."""
    if cmd != remote.GET_TENSOR or len(body) != wire.TENSOR_SIZE + 16:
        return ""
    t = np.frombuffer(body, dtype=wire.TENSOR, count=1)
    offset, size = struct.unpack_from("<QQ", body, wire.TENSOR_SIZE)
    start = int(t["data"][0]) + offset
    if any(b <= start and start + size <= b + n for b, n in buffers):
        return ""
    return f"GET_TENSOR answered {size} bytes at {start:#x}, outside the client's buffers"


def run_case(server: Server, case: int, rng: random.Random, stall: float, full_check: bool) -> Outcome:
    """One mutated session against ``server``; then a fresh client must be served (a whole valid
    session when ``full_check``, else its greeting, which the front answers itself)."""
    lines_before = len(server.log().splitlines())
    mutation, leak = "?", ""
    try:
        with RawClient(server.port, timeout=stall + 5) as client:
            handle, base, size = client.alloc(BUFFER_SIZE)
            messages = _session_messages(handle, base)
            target = rng.randrange(len(messages))
            for index, (cmd, body, reply) in enumerate(messages):
                declared = len(body)
                if index == target:
                    body, declared, mutation = _mutate(cmd, body, rng, base, handle)
                    mutation = f"{wire.name(cmd)}: {mutation}"
                    if cmd == remote.GET_TENSOR and len(body) == wire.TENSOR_SIZE + 16:
                        reply = struct.unpack_from("<Q", body, wire.TENSOR_SIZE + 8)[0]
                client.send(cmd, body, declared)
                if index == target and declared > len(body):
                    client.closed()  # a stalled message: the server must drop it within the limit
                    break
                if reply is not None and reply < (1 << 24):
                    client.reply(reply)
                    if index == target and (leak := _leaked(cmd, body, [(base, size)])):
                        break
            else:  # a request with a reply: everything before it was handled (or the connection closed)
                client.request(remote.GET_DEVICE_MEMORY, struct.pack("<I", 0), 16)
    except (Closed, AssertionError, OSError):  # socket.timeout included: a refusal closes at once
        pass
    if leak:
        return Outcome(case, mutation, "leak", leak)
    return _after(server, case, mutation, lines_before, full_check)


def _after(server: Server, case: int, mutation: str, lines_before: int, full_check: bool) -> Outcome:
    if not server.alive():
        return Outcome(case, mutation, "server died", server.log()[-2000:])
    try:
        if full_check:
            if not valid_session(server.port):
                return Outcome(case, mutation, "hang", "a fresh client got a wrong sum")
        else:
            with RawClient(server.port, timeout=HANG) as client:
                assert client.device_count() == 1
    except (Closed, AssertionError, OSError) as exc:
        return Outcome(case, mutation, "server died" if not server.alive() else "hang", repr(exc))
    new = server.log().splitlines()[lines_before:]
    if any("compute process stopped" in line for line in new):
        return Outcome(case, mutation, "child restarted", " | ".join(new))
    if any(" refused " in line or " dropped " in line for line in new):
        return Outcome(case, mutation, "refused", " | ".join(new))
    return Outcome(case, mutation, "served")


def stray_log_lines(log: str) -> list[str]:
    """Lines of the server's log that are not its own one-line messages (what ggml prints when
    its process crashes must never come through)."""
    return [line for line in log.splitlines() if line and not line.startswith("parley rpc-server: ")]


def run_fuzz(
    folder: Path,
    seed: int,
    cases: int,
    stall: float = 1.0,
    full_every: int = 4,
    progress: Callable[[Outcome], None] | None = None,
) -> tuple[list[Outcome], list[Path]]:
    """``cases`` mutated sessions against one server (started again if it dies: a failure).
    Returns the outcomes and the server logs."""
    rng = random.Random(seed)
    flags = ("--stall-timeout", str(stall), "--idle-timeout", "1")
    logs = [folder / "server.log"]
    server = Server(logs[-1], *flags)
    outcomes = []
    try:
        for case in range(cases):
            outcome = run_case(server, case, rng, stall, full_check=case % full_every == full_every - 1)
            outcomes.append(outcome)
            if progress is not None:
                progress(outcome)
            if outcome.verdict == "server died":
                server.stop()
                logs.append(folder / f"server-{case}.log")
                server = Server(logs[-1], *flags)
    finally:
        server.stop()
    return outcomes, logs


def summary(outcomes: list[Outcome]) -> str:
    counts: dict[str, int] = {}
    for outcome in outcomes:
        counts[outcome.verdict] = counts.get(outcome.verdict, 0) + 1
    return f"{len(outcomes)} cases: " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
