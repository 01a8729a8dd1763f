"""Hostile ggml RPC servers for the client side: a fake server, a driver, and the fuzzer.

``FakeServer`` is a ggml RPC server written in Python on loopback.  By itself it speaks protocol
7 well enough for ggml's client, through Parley's relay, to list its device, load a small model
on it and evaluate tokens (it computes nothing: every tensor reads back as zeros).  With
``upstream`` it is a proxy in front of a real ``parley rpc-server`` instead, so a session reaches
the states a real server leads to.  Either way ``Mutation`` spoils one reply (the ``nth`` reply to
one command): a field out of range, a wrong length, a stall, an early close, garbage, a huge
length, data nobody asked for.

``drive(endpoint)`` runs the small real workload in a subprocess (``DRIVER``: connect, list the
devices, load the tiny model on ``--device rpc``, evaluate a few tokens), with a time limit, and
classifies what happened: ``served`` (the mutation did no harm), ``refused`` (a clear one-line
RemoteError, or the server marked lost with a one-line reason and the work went on), and the
failures: ``crash`` (a signal or an unexpected exit status: ggml aborted), ``hang`` (the time
limit), ``traceback`` and ``multi-line`` (a refusal that is not one line).

``bench/fuzz_rpc_client.py`` runs many cases; ``tests/engine/test_fuzz_rpc_client.py`` a fixed slice.
"""

from __future__ import annotations

import dataclasses
import os
import random
import socket
import struct
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable
from pathlib import Path

from parley.engine.backend import native
from parley.engine.backend.rpc import remote

REPO = Path(__file__).resolve().parents[2]
_U64 = struct.Struct("<Q")


# --------------------------------------------------------------------------- mutations


@dataclasses.dataclass(frozen=True)
class Mutation:
    """Spoil the ``nth`` reply (0-based) to ``cmd``.

    kinds: ``field`` (a u64/u32/u8 at ``offset`` of the reply becomes ``value``; the reply keeps
    its size), ``length`` (the size prefix says ``value``, then the real body), ``stall`` (the
    size prefix and ``value`` bytes of the body, then nothing), ``close`` (hang up instead of
    answering), ``garbage`` (``value`` random bytes, then hang up), ``extra`` (the reply, then
    ``value`` bytes nobody asked for)."""

    cmd: int
    nth: int
    kind: str
    offset: int = 0
    width: int = 8
    value: int = 0

    def __str__(self) -> str:
        name = _NAMES.get(self.cmd, str(self.cmd))
        detail = f"@{self.offset}/{self.width}={self.value:#x}" if self.kind == "field" else f"={self.value:#x}"
        return f"{name}#{self.nth} {self.kind}{detail}"


_NAMES = {
    remote.ALLOC_BUFFER: "ALLOC_BUFFER",
    remote.GET_ALIGNMENT: "GET_ALIGNMENT",
    remote.GET_MAX_SIZE: "GET_MAX_SIZE",
    remote.BUFFER_GET_BASE: "BUFFER_GET_BASE",
    remote.SET_TENSOR_HASH: "SET_TENSOR_HASH",
    remote.GET_TENSOR: "GET_TENSOR",
    remote.COPY_TENSOR: "COPY_TENSOR",
    remote.GET_DEVICE_MEMORY: "GET_DEVICE_MEMORY",
    remote.GET_ALLOC_SIZE: "GET_ALLOC_SIZE",
    remote.HELLO: "HELLO",
    remote.DEVICE_COUNT: "DEVICE_COUNT",
}

# The fields of each reply: (offset, width) pairs.
_FIELDS: dict[int, list[tuple[int, int]]] = {
    remote.ALLOC_BUFFER: [(0, 8), (8, 8)],
    remote.GET_ALIGNMENT: [(0, 8)],
    remote.GET_MAX_SIZE: [(0, 8)],
    remote.BUFFER_GET_BASE: [(0, 8)],
    remote.GET_DEVICE_MEMORY: [(0, 8), (8, 8)],
    remote.GET_ALLOC_SIZE: [(0, 8)],
    remote.SET_TENSOR_HASH: [(0, 1)],
    remote.COPY_TENSOR: [(0, 1)],
    remote.GET_TENSOR: [(0, 1)],
    remote.HELLO: [(0, 1), (1, 1), (2, 1), (3, 1), (4, 8)],
    remote.DEVICE_COUNT: [(0, 4)],
}
# How often each command is answered in the driver's session (ceilings for ``nth``).
_TYPICAL = {
    remote.ALLOC_BUFFER: 3,
    remote.GET_ALIGNMENT: 1,
    remote.GET_MAX_SIZE: 1,
    remote.BUFFER_GET_BASE: 3,
    remote.GET_DEVICE_MEMORY: 9,
    remote.GET_ALLOC_SIZE: 18,
    remote.GET_TENSOR: 2,
    remote.SET_TENSOR_HASH: 1,
    remote.HELLO: 1,
    remote.DEVICE_COUNT: 1,
}


def _interesting(width: int, rng: random.Random) -> int:
    top = (1 << (8 * width)) - 1
    return (
        rng.choice(
            [
                0,
                1,
                2,
                3,
                7,
                63,
                64,
                65,
                255,
                4096,
                1 << 20,
                (1 << 20) + 1,
                1 << 31,
                4_000_000_000,
                1 << 40,
                1 << 48,
                (1 << 63) - 1,
                1 << 63,
                top,
                top - 1,
                rng.getrandbits(8 * width),
            ]
        )
        & top
    )


def random_mutation(rng: random.Random) -> Mutation:
    cmd = rng.choice(sorted(_TYPICAL))
    nth = rng.randrange(_TYPICAL[cmd])
    kind = rng.choice(["field", "field", "field", "field", "length", "stall", "close", "garbage", "extra"])
    if kind == "field":
        offset, width = rng.choice(_FIELDS[cmd])
        return Mutation(cmd, nth, kind, offset, width, _interesting(width, rng))
    value = {
        "length": lambda: _interesting(8, rng),
        "stall": lambda: rng.randrange(0, 16),
        "close": lambda: 0,
        "garbage": lambda: rng.randrange(1, 64),
        "extra": lambda: rng.randrange(1, 16),
    }[kind]()
    return Mutation(cmd, nth, kind, value=value)


# --------------------------------------------------------------------------- the fake server


def _recv_exact(sock: socket.socket, n: int) -> bytes:
    data = bytearray()
    while len(data) < n:
        chunk = sock.recv(min(n - len(data), 1 << 20))
        if not chunk:
            raise ConnectionError("closed")
        data += chunk
    return bytes(data)


class _Hangup(Exception):
    pass


class FakeServer:
    """A ggml RPC server (or a proxy to ``upstream``) on a free loopback port; see the module
    docstring.  ``token``: PARLEY_AUTH is required and checked.  ``mutation``: the one reply to
    spoil.  ``replies``: fixed reply bodies by command, for a test that wants one wrong field."""

    def __init__(
        self,
        mutation: Mutation | None = None,
        *,
        token: bytes | None = None,
        devices: int = 1,
        upstream: str | None = None,
        replies: dict[int, bytes] | None = None,
        on_request: Callable[[int, bytes], None] | None = None,
    ) -> None:
        self.mutation, self.token, self.devices, self.upstream = mutation, token, devices, upstream
        self.replies = dict(replies or {})
        self.on_request = on_request
        self.hit = False  # the mutation was applied
        self.counts: dict[int, int] = {}
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.endpoint = f"127.0.0.1:{self.sock.getsockname()[1]}"
        self._conns: list[socket.socket] = []
        self._closed = threading.Event()
        self._next = 0
        self._buffers: dict[int, tuple[int, int]] = {}
        threading.Thread(target=self._serve_forever, daemon=True).start()

    def close(self) -> None:
        self._closed.set()
        self.sock.close()
        for conn in self._conns:
            try:
                conn.close()
            except OSError:
                pass

    def __enter__(self) -> FakeServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ serving

    def _serve_forever(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self._conns.append(conn)
            threading.Thread(target=self._session, args=(conn,), daemon=True).start()

    def _session(self, conn: socket.socket) -> None:
        up = socket.create_connection(_address(self.upstream), timeout=30) if self.upstream else None
        try:
            if self.token is not None:
                self._authenticate(conn)
            while True:
                header = _recv_exact(conn, 9)
                cmd, size = header[0], _U64.unpack_from(header, 1)[0]
                body = self._body(conn, cmd, size, up)
                if self.on_request is not None:
                    self.on_request(cmd, body)
                reply = self._relay(up, cmd, header, body) if up else self._answer(cmd, body)
                if reply is not None:
                    self._send_reply(conn, cmd, reply)
        except (OSError, _Hangup):
            pass
        finally:
            conn.close()
            if up is not None:
                up.close()

    def _authenticate(self, conn: socket.socket) -> None:
        """The agreed PARLEY_AUTH first message, or the connection ends without an answer."""
        header = _recv_exact(conn, 9)
        if (
            header != bytes([remote.PARLEY_AUTH]) + _U64.pack(remote.TOKEN_SIZE)
            or _recv_exact(conn, remote.TOKEN_SIZE) != self.token
        ):
            raise _Hangup
        conn.sendall(_U64.pack(1) + b"\x01")

    def _body(self, conn: socket.socket, cmd: int, size: int, up: socket.socket | None) -> bytes:
        """A request's body; a large one (SET_TENSOR, GRAPH_COMPUTE) is passed on to ``up`` as it
        comes and only its start is kept."""
        if size <= 1 << 16:
            return _recv_exact(conn, size)
        head, left = b"", size
        if up is not None:
            up.sendall(bytes([cmd]) + _U64.pack(size))
        while left:
            block = _recv_exact(conn, min(left, 1 << 20))
            head = head or block[:4096]
            left -= len(block)
            if up is not None:
                up.sendall(block)
        return head

    def _relay(self, up: socket.socket, cmd: int, header: bytes, body: bytes) -> bytes | None:
        if len(body) == _U64.unpack_from(header, 1)[0]:
            up.sendall(header + body)
        expected = remote._REPLY_SIZES.get(cmd) if cmd != remote.HELLO else remote.HELLO_REPLY_SIZE
        if expected is None:
            return None
        size = _U64.unpack(_recv_exact(up, 8))[0]
        return _recv_exact(up, size)

    def _answer(self, cmd: int, body: bytes) -> bytes | None:
        """What a ggml server with one big CPU-like device would answer."""
        if cmd in self.replies:
            return self.replies[cmd]
        if cmd == remote.HELLO:
            lib = native.lib()
            return bytes(
                [
                    int(lib.RPC_PROTO_MAJOR_VERSION),
                    int(lib.RPC_PROTO_MINOR_VERSION),
                    int(lib.RPC_PROTO_PATCH_VERSION),
                    0,
                ]
            ) + bytes(24)
        if cmd == remote.DEVICE_COUNT:
            return struct.pack("<I", self.devices)
        if cmd == remote.GET_ALIGNMENT:
            return _U64.pack(64)
        if cmd == remote.GET_MAX_SIZE:
            return _U64.pack(1 << 40)
        if cmd == remote.GET_DEVICE_MEMORY:
            return _U64.pack(6 << 30) + _U64.pack(8 << 30)
        if cmd == remote.ALLOC_BUFFER:
            size = struct.unpack_from("<Q", body, 4)[0]
            self._next += 1
            handle, base = 0x1000 * self._next, 0x10_0000_0000 * self._next
            self._buffers[handle] = (base, size)
            return _U64.pack(handle) + _U64.pack(size)
        if cmd == remote.BUFFER_GET_BASE:
            return _U64.pack(self._buffers.get(_U64.unpack(body)[0], (0x4000_0000, 0))[0])
        if cmd == remote.GET_TENSOR:
            return bytes(_U64.unpack_from(body, len(body) - 8)[0])
        if cmd == remote.GET_ALLOC_SIZE:
            return _U64.pack(remote._tensor_nbytes(body[4:]) or 0)
        if cmd in (remote.SET_TENSOR_HASH, remote.COPY_TENSOR):
            return b"\x00"
        return None

    def _send_reply(self, conn: socket.socket, cmd: int, reply: bytes) -> None:
        nth = self.counts.get(cmd, 0)
        self.counts[cmd] = nth + 1
        m = self.mutation
        if m is None or m.cmd != cmd or m.nth != nth:
            conn.sendall(_U64.pack(len(reply)) + reply)
            return
        self.hit = True
        if m.kind == "field":
            if m.offset + m.width <= len(reply):
                reply = reply[: m.offset] + m.value.to_bytes(m.width, "little") + reply[m.offset + m.width :]
            conn.sendall(_U64.pack(len(reply)) + reply)
        elif m.kind == "length":
            conn.sendall(_U64.pack(m.value) + reply)
        elif m.kind == "extra":
            conn.sendall(_U64.pack(len(reply)) + reply + bytes(m.value))
        elif m.kind == "stall":
            conn.sendall((_U64.pack(len(reply)) + reply)[: 8 + min(m.value, max(len(reply) - 1, 0))])
            self._closed.wait(600)
            raise _Hangup
        elif m.kind == "garbage":
            conn.sendall(random.Random(m.value).randbytes(m.value))
            raise _Hangup
        else:  # close
            raise _Hangup


def _address(endpoint: str) -> tuple[str, int]:
    host, _, port = endpoint.rpartition(":")
    return host, int(port)


# --------------------------------------------------------------------------- the driver

DRIVER = textwrap.dedent("""
    import sys
    from parley.engine.backend import devices
    from parley.engine.backend.rpc import remote
    from parley.engine.chat.model import ChatModel
    from parley.engine.errors import RemoteDeviceLost, RemoteError

    endpoint, model_path = sys.argv[1], sys.argv[2]
    try:
        remote.connect([endpoint])
    except RemoteError as exc:
        print("REFUSED", exc, flush=True)
        sys.exit(0)
    for d in devices.list_devices():
        print("DEVICE", d.name, d.memory_free, d.memory_total, "|", d.description, flush=True)
    model = ChatModel(model_path, device="rpc", n_ctx=64, threads=1)
    print("LOADED", model.device.device.name, "|", model.device.fallback_reason, flush=True)
    try:
        model.evaluate(model.tokenize("Hello there, how are you?"))
        model.evaluate([11, 12, 13])
        print("EVALUATED", model.device.device.name, flush=True)
    except RemoteDeviceLost as exc:
        print("LOST", exc, flush=True)
    rpc = next(d for d in devices.list_devices() if d.remote)
    print("REASON", remote.lost_reason(rpc), flush=True)
""")


@dataclasses.dataclass
class Outcome:
    case: int
    mutation: str
    verdict: str  # served | refused | crash | hang | traceback | multi-line
    detail: str = ""

    @property
    def failed(self) -> bool:
        return self.verdict not in ("served", "refused")


def drive(endpoint: str, model: Path, limit: float = 60.0, stall: float = 1.0) -> tuple[str, str]:
    """Run ``DRIVER`` against ``endpoint``; (verdict, detail) as the module docstring says."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "PARLEY_RPC_STALL_TIMEOUT": str(stall)}
    try:
        proc = subprocess.run(
            [sys.executable, "-c", DRIVER, endpoint, str(model)],
            env=env,
            capture_output=True,
            text=True,
            timeout=limit,
            preexec_fn=limit_memory,
        )
    except subprocess.TimeoutExpired as exc:
        return "hang", f"no end within {limit:g} s: {(exc.stdout or '')[-500:]!r}"
    return classify(proc.returncode, proc.stdout, proc.stderr)


def limit_memory() -> None:
    """A child that would grow without bound (a device vector sized by the server) fails at
    8 GiB of address space instead of taking the machine's memory."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (8 << 30, 8 << 30))


def classify(rc: int, out: str, err: str) -> tuple[str, str]:
    detail = f"rc {rc}\n{out[-1500:]}\n{err[-1500:]}"
    if rc != 0:
        return "crash", detail
    if "Traceback" in err or "Traceback" in out:
        return "traceback", detail
    lines = dict(line.split(" ", 1) for line in out.splitlines() if " " in line)
    refusal = lines.get("REFUSED") or (lines.get("REASON") if lines.get("REASON") != "None" else None)
    if "REFUSED" not in lines and "REASON" not in lines:
        return "crash", detail
    if refusal is None:
        return "served", detail
    if not refusal.strip() or "\n" in refusal.strip():
        return "multi-line", detail
    return "refused", refusal.strip()


def run_fuzz(
    model: Path,
    seed: int,
    count: int,
    upstream: str | None = None,
    limit: float = 60.0,
    progress: Callable[[Outcome], None] | None = None,
) -> list[Outcome]:
    """``count`` cases from ``seed``, each a fresh fake server (a proxy to ``upstream`` when given)
    with one random mutation, driven by a fresh subprocess."""
    rng = random.Random(seed)
    outcomes = []
    for case in range(count):
        mutation = random_mutation(rng)
        with FakeServer(mutation, upstream=upstream) as fake:
            verdict, detail = drive(fake.endpoint, model, limit)
            if verdict == "served" and not fake.hit:
                verdict, detail = "served", "the mutated reply was never asked for"
        outcome = Outcome(case, str(mutation), verdict, detail)
        outcomes.append(outcome)
        if progress is not None:
            progress(outcome)
    return outcomes


def summary(outcomes: list[Outcome]) -> str:
    counts: dict[str, int] = {}
    for o in outcomes:
        counts[o.verdict] = counts.get(o.verdict, 0) + 1
    order = ["served", "refused", "crash", "hang", "traceback", "multi-line"]
    return f"{len(outcomes)} cases: " + ", ".join(f"{counts.get(v, 0)} {v}" for v in order)


def wait_until(predicate: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()
