"""The validating front of ``parley rpc-server``: ggml's RPC server, behind Parley's checks.

ggml's RPC server trusts its client: one SET_TENSOR whose data lies outside the client's buffer
aborts it (``GGML_ASSERT``), a tensor naming a buffer the server does not know keeps the
client's raw pointer (read and write access to the server's memory through GRAPH_COMPUTE or
COPY_TENSOR), and it serves one client at a time in its accept loop, so one idle client blocks
every other.  So nothing from the network reaches it directly:

- **Process isolation.**  ggml's server runs in a child process (``python -m
  parley.engine.backend.rpc.server_front --child DEVICE THREADS``) listening on ``127.0.0.1:<ephemeral>``; this
  process (the front) listens on the user's address, checks every message (``wire``) and
  forwards it.  An assertion that still fires inside ggml (a graph whose ops disagree in shape:
  ops are not checked one by one) ends the child only: the front drops that client, starts a
  fresh child and serves the next one.  The child is started with no secret (the token stays
  in the front), and the child exits when the front does (its stdin, a pipe from the front,
  reaches EOF).
- **Strangers stay off the child's port.**  The front connects to a new child as soon as it
  listens and keeps that connection: ggml accepts one client at a time, so while the front is
  connected, nobody else is served; the front only uses a child once the child has printed that
  it accepted a connection *and* answered the front's HELLO (a connection that slipped in first
  would hold the accept, and the front's HELLO would go unanswered: that child is killed).  A
  child serves one client session, then is killed, which also frees everything that client
  left; the next child (a fresh port) is started at once, so the next client does not wait for
  it.  A port taken by someone else before the child binds makes the child fail to start.
- **What one client may touch** (``wire.Checker``): the buffers the server allocated for it
  (handle, base from BUFFER_GET_BASE, which the front asks itself after each allocation, and
  size), tensors inside them, counts and sizes consistent with the message.  A refused message
  ends that client's session with one log line (the protocol has no error replies for most
  commands) and the child is replaced.  Sizes are checked before a body is read, bodies are read
  in chunks, and an allocation larger than the device's memory gets ggml's "no buffer" reply.
- **Slow and idle clients.**  A client that stops in the middle of a message (no byte for
  ``stall_timeout`` seconds) is dropped.  A client idle between messages keeps the device as
  long as nobody else wants it (an app idle between chat turns keeps its model loaded); once
  another client waits, it is dropped after ``idle_timeout`` seconds of idleness.  At most
  ``max_clients`` connections are held (the rest are closed at once).  HELLO, DEVICE_COUNT,
  GET_ALIGNMENT and GET_MAX_SIZE (and GET_DEVICE_MEMORY before a session) are answered by the
  front, so a client can connect and check the server while another one uses the device.
- **The shared secret.**  A client whose address is not loopback must first send PARLEY_AUTH
  (command 0xF7, size 32, the 32 token bytes; answered with size 1 and the byte 1); anything
  else, or a wrong token (``hmac.compare_digest``), closes the connection without an answer.
  Loopback clients may skip it, so a stock ggml client works on loopback.

Inside, the protocol stays ggml's, so Parley's own client (ggml's, behind ``remote``'s relay)
works unchanged.
"""

from __future__ import annotations

import collections
import dataclasses
import hmac
import ipaddress
import os
import queue
import secrets
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, TYPE_CHECKING

from ...errors import ParleyError
from . import wire
from .wire import (
    ALLOC_BUFFER,
    BUFFER_CLEAR,
    BUFFER_GET_BASE,
    COPY_TENSOR,
    DEVICE_COUNT,
    FREE_BUFFER,
    GET_ALIGNMENT,
    GET_ALLOC_SIZE,
    GET_DEVICE_MEMORY,
    GET_MAX_SIZE,
    GET_TENSOR,
    GRAPH_COMPUTE,
    GRAPH_RECOMPUTE,
    HELLO,
    HELLO_REPLY_SIZE,
    INIT_TENSOR,
    MEMSET_TENSOR,
    SET_TENSOR,
    SET_TENSOR_HASH,
)

if TYPE_CHECKING:
    from ..devices import Device

CHILD_START_TIMEOUT = 60.0  # loading the backends of a GPU can take a while
_CHUNK = 1 << 20
_ACCEPTED = "Accepted client connection"
_LOCAL = (DEVICE_COUNT, GET_ALIGNMENT, GET_MAX_SIZE)
TOKEN_HEX_LENGTH = 2 * wire.TOKEN_SIZE


@dataclasses.dataclass(frozen=True)
class Options:
    device: str  # a local device name (``cpu``, ``CUDA0``...)
    threads: int
    token: bytes
    idle_timeout: float = 60.0
    stall_timeout: float = 30.0
    max_clients: int = 8


@dataclasses.dataclass(frozen=True)
class DeviceInfo:
    alignment: bytes  # the child's replies, as they are forwarded
    max_size: bytes
    memory: bytes

    @property
    def total_memory(self) -> int:
        total: int = wire.U64.unpack_from(self.memory, 8)[0]
        return total


class _ClientGone(Exception):
    """The client closed the connection."""


class _ChildGone(Exception):
    """The compute process closed the connection (it refused a request itself) or died."""


# --------------------------------------------------------------------------- tokens


def load_or_create_token(path: Path | None) -> bytes:
    """The token in ``path`` when it holds a valid one; else a new one (written there, mode 0600)."""
    if path is not None and path.is_file():
        text = path.read_bytes()[: 4 * TOKEN_HEX_LENGTH].decode("ascii", "replace").strip()
        if len(text) == TOKEN_HEX_LENGTH and all(c in "0123456789abcdef" for c in text):
            return bytes.fromhex(text)
    token = secrets.token_bytes(wire.TOKEN_SIZE)
    if path is not None:
        _write_private(path, token.hex() + "\n")
    return token


def _write_private(path: Path, text: str) -> None:
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(text)
        os.replace(temp, path)
    except OSError as exc:
        temp.unlink(missing_ok=True)
        raise ParleyError(f"cannot write the token file {path}: {exc.strerror or exc}") from None


# --------------------------------------------------------------------------- the child


def _recv_exact(sock: socket.socket, n: int) -> bytes:
    buf = bytearray(n)
    view, got = memoryview(buf), 0
    while got < n:
        k = sock.recv_into(view[got:], n - got)
        if k == 0:
            raise ConnectionError("closed")
        got += k
    return bytes(buf)


class Child:
    """ggml's RPC server for one client session, in a process of its own on a loopback port,
    connected to the front (its only client)."""

    def __init__(self, device: str, threads: int) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "parley.engine.backend.rpc.server_front", "--child", device, str(threads)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "GGML_NO_BACKTRACE": "1"},
        )  # a crash ends at once, without a debugger
        self._stderr: collections.deque[str] = collections.deque(maxlen=20)
        self._stdout: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._drain, args=(self.proc.stderr, self._stderr.append), daemon=True).start()
        threading.Thread(target=self._drain, args=(self.proc.stdout, self._stdout.put), daemon=True).start()
        self.sock: socket.socket | None = None
        try:
            self._connect()
            self.hello = self._probe_hello()
            self.device_count = int.from_bytes(self.query(DEVICE_COUNT, b"", 4), "little")
            self.devices = [self._probe_device(i) for i in range(self.device_count)]
        except (OSError, _ChildGone, ValueError) as exc:
            reason = self.end_reason() or str(exc)
            self.close()
            raise ParleyError(f"the compute process did not start: {reason}") from None

    @staticmethod
    def _drain(stream: IO[bytes], sink: Callable[[str], None]) -> None:
        for raw in iter(stream.readline, b""):
            sink(raw.decode("utf-8", "replace").rstrip())

    def _line(self, deadline: float) -> str:
        while time.monotonic() < deadline:
            try:
                return self._stdout.get(timeout=0.1)
            except queue.Empty:
                if self.proc.poll() is not None:
                    raise _ChildGone("it exited") from None
        raise _ChildGone("it did not answer in time")

    def _connect(self) -> None:
        deadline = time.monotonic() + CHILD_START_TIMEOUT
        line = self._line(deadline)
        while not line.startswith("PORT "):
            line = self._line(deadline)
        port = int(line.split()[1])
        while True:
            try:
                self.sock = socket.create_connection(("127.0.0.1", port), timeout=1.0)
                break
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise _ChildGone("it is not listening") from None
                time.sleep(0.02)
        while self._line(deadline) != _ACCEPTED:
            pass
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def _probe_hello(self) -> bytes:
        """The child's HELLO reply, which must answer *our* connection (see the module docstring)."""
        reply = self.query(HELLO, bytes(wire.REQUEST_SIZES[HELLO]), HELLO_REPLY_SIZE)
        self._socket().settimeout(None)  # a graph may compute for long
        return reply[:4] + bytes(HELLO_REPLY_SIZE - 4)  # plain TCP: no transport upgrade

    def _probe_device(self, index: int) -> DeviceInfo:
        request = index.to_bytes(4, "little")
        return DeviceInfo(
            self.query(GET_ALIGNMENT, request, 8),
            self.query(GET_MAX_SIZE, request, 8),
            self.query(GET_DEVICE_MEMORY, request, 16),
        )

    # ------------------------------------------------------------------ messages

    def _socket(self) -> socket.socket:
        """The connection to the child, which ``_connect`` made."""
        if self.sock is None:
            raise _ChildGone("it is not connected")
        return self.sock

    def send(self, data: bytes | bytearray | memoryview) -> None:
        try:
            self._socket().sendall(data)
        except OSError as exc:
            raise _ChildGone(str(exc)) from None

    def recv(self, n: int) -> bytes:
        try:
            return _recv_exact(self._socket(), n)
        except (OSError, ConnectionError) as exc:
            raise _ChildGone(str(exc) or "closed") from None

    def reply_size(self, expected: int) -> None:
        size = wire.U64.unpack(self.recv(8))[0]
        if size != expected:
            raise _ChildGone(f"it sent a reply of {size} bytes instead of {expected}")

    def query(self, cmd: int, body: bytes, expected: int) -> bytes:
        """A request with a reply of ``expected`` bytes, and the reply."""
        self.send(bytes([cmd]) + wire.u64(len(body)) + body)
        self.reply_size(expected)
        return self.recv(expected)

    # ------------------------------------------------------------------ end

    def end_reason(self) -> str:
        """How the process ended (or that it runs), with ggml's last message."""
        try:
            code = self.proc.wait(timeout=2)  # a crashing process closes its socket before it is gone
        except subprocess.TimeoutExpired:
            code = None
        if code is None:
            state = "it closed the connection (it refused a request)"
        elif code < 0:
            state = f"it was stopped by signal {signal.Signals(-code).name}"
        else:
            state = f"it exited with code {code}"
        time.sleep(0.05)  # let the reader thread catch the last lines
        said = [line.strip() for line in self._stderr if line.strip()]
        errors = [line for line in said if "GGML_" in line or "error" in line.lower()]
        return f"{state}: {(errors or said)[-1]}" if said else state

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


# --------------------------------------------------------------------------- the front


class Front:
    """Accepts clients on ``listener``, checks their messages and forwards them to a child."""

    def __init__(self, options: Options, listener: socket.socket, log: Callable[[str], None]) -> None:
        self.options = options
        self.listener = listener
        self.log = log
        self._cond = threading.Condition()
        self._child: Child | None = None  # started and idle, for the next session
        self._active = False  # a session holds a child
        self._waiting = 0  # clients waiting for the child
        self._clients = 0
        self.child_starts = 0
        first = self._start_child()  # fails here, before listening, when it cannot run
        self.hello, self.device_count, self.devices = first.hello, first.device_count, first.devices
        self._child = first
        self.listener.listen(16)

    def serve_forever(self) -> None:
        threading.Thread(target=self._keep_a_child, name="parley-rpc-children", daemon=True).start()
        while True:
            conn, peer = self.listener.accept()
            with self._cond:
                full = self._clients >= self.options.max_clients
                if not full:
                    self._clients += 1
            if full:
                self.log(f"refused {_peer(peer)}: {self.options.max_clients} clients are connected already")
                conn.close()
                continue
            threading.Thread(
                target=self._serve, args=(conn, peer), name=f"parley-rpc {_peer(peer)}", daemon=True
            ).start()

    def _serve(self, conn: socket.socket, peer: tuple[str, int]) -> None:
        try:
            Session(self, conn, peer).run()
        finally:
            conn.close()
            with self._cond:
                self._clients -= 1

    # ------------------------------------------------------------------ children

    def _start_child(self) -> Child:
        child = Child(self.options.device, self.options.threads)
        self.child_starts += 1
        return child

    def _keep_a_child(self) -> None:
        """Keep one idle child ready whenever no session holds one."""
        while True:
            with self._cond:
                while self._active or (self._child is not None and self._child.proc.poll() is None):
                    self._cond.wait(0.5)
                dead, self._child = self._child, None
            if dead is not None:
                self.log(f"the idle compute process ended ({dead.end_reason()}); starting another")
                dead.close()
            try:
                child = self._start_child()
            except ParleyError as exc:
                self.log(f"{exc}; trying again in 2 s")
                time.sleep(2)
                continue
            with self._cond:
                self._child = child
                self._cond.notify_all()

    def acquire(self, conn: socket.socket) -> Child:
        """The idle child, once no other session holds one (waits in line while ``conn`` stays)."""
        with self._cond:
            self._waiting += 1
            try:
                while self._active or self._child is None:
                    self._cond.wait(0.5)
                    if _hung_up(conn):
                        raise _ClientGone
                child, self._child, self._active = self._child, None, True
                return child
            finally:
                self._waiting -= 1

    def release(self, child: Child) -> None:
        """End a session: its child goes (with everything the client left in it)."""
        child.close()
        with self._cond:
            self._active = False
            self._cond.notify_all()

    def someone_waits(self) -> bool:
        return self._waiting > 0


def _peer(peer: tuple[str, int]) -> str:
    return f"{peer[0]}:{peer[1]}"


def is_loopback(address: str) -> bool:
    """True for an address only this machine can reach (127.0.0.0/8, ::1)."""
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def _hung_up(conn: socket.socket) -> bool:
    """True when the client closed its end (what it already sent may still be unread)."""
    try:
        readable, _, _ = select.select([conn], [], [], 0)
        return bool(readable) and conn.recv(1, socket.MSG_PEEK) == b""  # readable: recv does not wait
    except OSError:
        return True


class Session:
    """One client connection: the token, HELLO, then its messages, checked and forwarded."""

    def __init__(self, front: Front, conn: socket.socket, peer: tuple[str, int]) -> None:
        self.front = front
        self.conn = conn
        self.peer = _peer(peer)
        self.loopback = is_loopback(peer[0])
        self.child: Child | None = None
        self.checker = wire.Checker(front.device_count)
        conn.settimeout(front.options.stall_timeout)
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def run(self) -> None:
        try:
            self._greet()
            while True:
                self._one(*self._next_header())
        except wire.Refused as exc:
            self.front.log(f"refused {self.peer}: {exc}; connection closed")
        except _ChildGone:
            reason = self.child.end_reason() if self.child else "?"
            self.front.log(f"dropped {self.peer}: the compute process stopped ({reason}); starting another")
        except _ClientGone:
            pass
        finally:
            if self.child is not None:
                self.front.release(self.child)

    # ------------------------------------------------------------------ client I/O

    def _recv(self, n: int) -> bytes:
        try:
            return _recv_exact(self.conn, n)
        except TimeoutError:
            raise wire.Refused(
                f"stalled: no byte for {self.front.options.stall_timeout:g} s in the middle of a message"
            ) from None
        except (OSError, ConnectionError):
            raise _ClientGone from None

    def _send(self, data: bytes | bytearray | memoryview) -> None:
        try:
            self.conn.sendall(data)
        except TimeoutError:
            raise wire.Refused(f"stalled: did not read its reply for {self.front.options.stall_timeout:g} s") from None
        except OSError:
            raise _ClientGone from None

    def _reply(self, body: bytes) -> None:
        self._send(wire.u64(len(body)) + body)

    def _header(self) -> tuple[int, int]:
        header = self._recv(9)
        return header[0], wire.U64.unpack_from(header, 1)[0]

    def _next_header(self) -> tuple[int, int]:
        """The next message's header; waits as long as the client may stay idle."""
        idle_since = time.monotonic()
        while True:
            readable, _, _ = select.select([self.conn], [], [], 0.25)
            if readable:
                return self._header()
            idle = time.monotonic() - idle_since
            if self.child is not None and self.front.someone_waits() and idle >= self.front.options.idle_timeout:
                raise wire.Refused(f"idle for {idle:.0f} s while another client waits")

    # ------------------------------------------------------------------ greeting

    def _greet(self) -> None:
        cmd, size = self._header()
        if cmd == wire.PARLEY_AUTH:
            self._authenticate(size)
            cmd, size = self._header()
        elif not self.loopback:
            raise wire.Refused("sent no token (clients from other machines need TOKEN@HOST:PORT)")
        if cmd != HELLO or size != wire.REQUEST_SIZES[HELLO]:
            raise wire.Refused(f"the first message is {wire.name(cmd)} ({size} bytes), not HELLO")
        self._recv(size)
        self._reply(self.front.hello)

    def _authenticate(self, size: int) -> None:
        if size != wire.TOKEN_SIZE:
            raise wire.Refused(f"PARLEY_AUTH of {size} bytes instead of {wire.TOKEN_SIZE}")
        if not hmac.compare_digest(self._recv(size), self.front.options.token):
            raise wire.Refused("wrong token")
        self._reply(b"\x01")

    # ------------------------------------------------------------------ messages

    def _one(self, cmd: int, size: int) -> None:
        if cmd in _LOCAL or (cmd == GET_DEVICE_MEMORY and self.child is None):
            self._answer_here(cmd, self._fixed(cmd, size))
        elif cmd == SET_TENSOR:
            self._set_tensor(size)
        elif cmd == GRAPH_COMPUTE:
            self._graph(size)
        elif cmd in wire.REQUEST_SIZES and cmd != HELLO:
            self._forward(cmd, self._fixed(cmd, size))
        else:
            raise wire.Refused(f"unexpected {wire.name(cmd)}")

    def _fixed(self, cmd: int, size: int) -> bytes:
        if size != wire.REQUEST_SIZES[cmd]:
            raise wire.Refused(f"{wire.name(cmd)} of {size} bytes instead of {wire.REQUEST_SIZES[cmd]}")
        return self._recv(size)

    def _answer_here(self, cmd: int, body: bytes) -> None:
        if cmd == DEVICE_COUNT:
            self._reply(self.front.device_count.to_bytes(4, "little"))
            return
        info = self.front.devices[self.checker.device(body, wire.name(cmd))]
        self._reply({GET_ALIGNMENT: info.alignment, GET_MAX_SIZE: info.max_size, GET_DEVICE_MEMORY: info.memory}[cmd])

    def _session(self) -> Child:
        if self.child is None:
            self.child = self.front.acquire(self.conn)
        return self.child

    def _forward(self, cmd: int, body: bytes) -> None:
        """A fixed-size request: checked, forwarded, its reply passed back (and noted)."""
        check = self.checker
        expected = wire.REPLY_SIZES[cmd]
        if cmd == ALLOC_BUFFER:
            self._allocate(body)
            return
        if cmd in (BUFFER_GET_BASE, FREE_BUFFER, BUFFER_CLEAR):
            check.handle(body, wire.name(cmd))
        elif cmd in (GET_TENSOR, SET_TENSOR_HASH):
            asked = check.tensor_region(body, wire.name(cmd))
            expected = asked if cmd == GET_TENSOR else expected
        elif cmd == MEMSET_TENSOR:
            check.memset_tensor(body)
        elif cmd == COPY_TENSOR:
            check.copy_tensor(body)
        elif cmd == INIT_TENSOR:
            check.tensors(wire.tensors_from(body, 1), "INIT_TENSOR")
        elif cmd == GET_ALLOC_SIZE:
            body = check.alloc_size(body)
        elif cmd == GRAPH_RECOMPUTE:
            check.recompute(body)
        elif cmd == GET_DEVICE_MEMORY:
            check.device(body, "GET_DEVICE_MEMORY")
        child = self._session()
        child.send(bytes([cmd]) + wire.u64(len(body)) + body)
        if cmd == FREE_BUFFER:
            check.freed(wire.U64.unpack(body)[0])
        if expected is not None:
            child.reply_size(expected)
            self._send(wire.u64(expected))
            self._pass_reply(child, expected)

    def _pass_reply(self, child: Child, size: int) -> None:
        while size:
            block = child.recv(min(_CHUNK, size))
            self._send(block)
            size -= len(block)

    def _allocate(self, body: bytes) -> None:
        """ALLOC_BUFFER within the device's memory; the new buffer's base is asked at once."""
        device = self.checker.device(body, "ALLOC_BUFFER")
        asked = wire.U64.unpack_from(body, 4)[0]
        owned = sum(b.size for b in self.checker.buffers.values())
        limit = self.front.devices[device].total_memory
        if asked > limit - min(owned, limit):
            self.front.log(
                f"refused {self.peer}: ALLOC_BUFFER of {asked} bytes: more than the device's "
                f"memory ({limit} bytes, {owned} in use); answered 'no buffer'"
            )
            self._reply(bytes(16))
            return
        child = self._session()
        reply = child.query(ALLOC_BUFFER, body, 16)
        handle, size = wire.U64.unpack_from(reply)[0], wire.U64.unpack_from(reply, 8)[0]
        if handle:
            base = child.query(BUFFER_GET_BASE, wire.u64(handle), 8)
            self.checker.allocated(handle, wire.U64.unpack(base)[0], size)
        self._reply(reply)

    def _set_tensor(self, size: int) -> None:
        """SET_TENSOR: the header is checked, then the data streams through in chunks."""
        if size < wire.SET_TENSOR_HEADER:
            raise wire.Refused(f"SET_TENSOR of {size} bytes is shorter than its header")
        header = self._recv(wire.SET_TENSOR_HEADER)
        self.checker.set_tensor(header, size - wire.SET_TENSOR_HEADER)
        child = self._session()
        child.send(bytes([SET_TENSOR]) + wire.u64(size) + header)
        left = size - wire.SET_TENSOR_HEADER
        while left:
            block = self._recv_some(min(_CHUNK, left))
            child.send(block)
            left -= len(block)

    def _graph(self, size: int) -> None:
        if size > wire.MAX_GRAPH_BYTES:
            raise wire.Refused(f"GRAPH_COMPUTE of {size} bytes (at most {wire.MAX_GRAPH_BYTES})")
        child = self._session()  # first: clients waiting in line hold no large body
        body = bytearray()
        while len(body) < size:
            body += self._recv_some(min(_CHUNK, size - len(body)))
        self.checker.graph(body)
        child.send(bytes([GRAPH_COMPUTE]) + wire.u64(size) + body)

    def _recv_some(self, n: int) -> bytes:
        """Up to ``n`` bytes, at least one (a chunk of a large body)."""
        try:
            data = self.conn.recv(n)
        except TimeoutError:
            raise wire.Refused(
                f"stalled: no byte for {self.front.options.stall_timeout:g} s in the middle of a message"
            ) from None
        except OSError:
            raise _ClientGone from None
        if not data:
            raise _ClientGone
        return data


# --------------------------------------------------------------------------- devices and the child's main


def local_device(name: str) -> Device:
    """The local device called ``name`` (``cpu`` for the CPU); ParleyError lists the others."""
    from .. import devices as devices_mod

    found = [d for d in devices_mod.list_devices() if not d.remote]
    wanted = name.strip().lower()
    for device in found:
        if (wanted == "cpu" and device.kind == "cpu") or device.name.lower() == wanted:
            if device.unusable:  # ggml would crash the server on its first use
                raise ParleyError(devices_mod.unusable_text(device))
            return device
    raise ParleyError(f"no local device {name!r} (available: {', '.join(d.name for d in found)})")


def _exit_with_parent() -> None:
    """The front holds our stdin: EOF means it is gone, and so is the reason to serve."""
    sys.stdin.buffer.read()
    os._exit(0)


def _free_loopback_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def child_main(device_name: str, threads: int) -> int:
    """The compute process: ggml's RPC server on a fresh loopback port, printed first."""
    from .. import native
    from . import remote

    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    threading.Thread(target=_exit_with_parent, daemon=True).start()
    device = local_device(device_name)
    ffi, lib = native.ffi(), native.lib()
    start = remote._rpc_function("ggml_backend_rpc_start_server", "parley_rpc_start_server_fn")
    devs = ffi.new("ggml_backend_dev_t[1]", [lib.ggml_backend_dev_get(device.index)])
    port = _free_loopback_port()
    print(f"PORT {port}", flush=True)
    start(f"127.0.0.1:{port}".encode(), ffi.NULL, threads, 1, devs)
    print(f"could not listen on 127.0.0.1:{port}", file=sys.stderr, flush=True)
    return 1


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] != "--child":
        sys.exit(
            "usage: python -m parley.engine.backend.rpc.server_front --child DEVICE THREADS "
            "(started by `parley rpc-server`)"
        )
    sys.exit(child_main(sys.argv[2], int(sys.argv[3])))
