"""Remote compute devices: another machine's CPU or GPU over ggml's RPC protocol.

``parley rpc-server`` on one machine serves its device; ``connect(["HOST:PORT"])`` here adds
that device to ggml's device list (named ``RPC0``, ``RPC1``... type GPU), so the same code
paths that drive a local GPU drive it: the chat engine offloads every layer to it and the
speech engine runs on it.  A server that listens beyond loopback wants its token:
``TOKEN@HOST:PORT`` (64 hex characters, printed by ``parley rpc-server``).

Why there is a relay in the middle
----------------------------------
ggml's RPC client aborts the whole process (``GGML_ABORT``) whenever a socket read or write
fails, and it trusts every reply: a device count sizes a vector, an alignment is a divisor, a
buffer base of 0 is an assertion.  A server that is down, is not a ggml server, speaks another
protocol version, dies in the middle of a reply or lies would kill Parley, and a host that
vanishes leaves it blocked for ever.  So ggml never talks to a server directly.  For each
server this module

1. checks it in Python first (``check_server``: TCP connect, the token when there is one, the
   protocol's HELLO and device count, each within a timeout, 3 s by default), so a bad
   endpoint is a clear ``RemoteError`` before any native code sees it; and
2. keeps that checked connection and relays ggml's messages over it from a loopback port of
   our own (``127.0.0.1:<ephemeral>``, which is the endpoint ggml is given).  The relay knows
   the protocol's framing and, for every command, the size of the reply, and it checks every
   field ggml will use (below).  When the server goes away or misbehaves (EOF, reset,
   keep-alive timeout, a stall, a malformed or out-of-range reply, any failure in the relay),
   the relay marks it lost and from then on answers ggml itself with harmless replies of the
   right size (zeros; stand-in buffers for allocations), so ggml finishes what it was doing
   without aborting.  The results are garbage, which is why every engine call on a remote
   device ends with ``check(device)``: it raises ``RemoteDeviceLost`` and the caller falls
   back to the CPU.

What a reply must be (anything else means the server is lost, with the reason):
- HELLO (answered by the relay from the handshake): protocol major 7, a minor not above ours,
  28 bytes.  DEVICE_COUNT: 1 to ``MAX_DEVICES``, also answered by the relay from the
  handshake (a server cannot change it later).
- every reply exactly the size its command has (GET_TENSOR: exactly the bytes asked for);
- GET_ALIGNMENT: a power of two up to ``MAX_ALIGNMENT``; GET_MAX_SIZE: not 0;
- ALLOC_BUFFER: a non-zero handle not already in use, a size from the size asked to twice it
  (plus 1 MiB); BUFFER_GET_BASE: not 0, aligned to the device's alignment, the buffer not
  wrapping around 2**64;
- GET_DEVICE_MEMORY: free <= total <= ``MAX_BYTES``; GET_ALLOC_SIZE: from the tensor's own
  size (``ggml_nbytes``) to twice it plus 1 GiB; SET_TENSOR_HASH and COPY_TENSOR: 0 or 1.

Time limits
-----------
Every wait on the server has a stall limit (``STALL_TIMEOUT``, 30 s; the environment variable
``PARLEY_RPC_STALL_TIMEOUT`` lowers it for tests): a send, or a read, that makes no progress
for that long means the server is lost.  One wait is exempt, because the protocol gives no way
to tell a slow GPU from a stuck server there: GRAPH_COMPUTE and GRAPH_RECOMPUTE have no reply,
the server computes before it reads the next request, so from a compute until the first byte of
the next reply arrives (sends included) the relay waits as long as the computation takes.
There, TCP keep-alive (10 s idle, then 3 probes 5 s apart) notices a host that vanished; once
the first byte of that reply is in, the stall limit applies again.

Who may talk to the relay
-------------------------
The relay's loopback port serves ggml in this process only.  On Linux each accepted connection
is checked: its peer socket (found in ``/proc/net/tcp`` by its port and ours) must be one of
this process's file descriptors (``/proc/self/fd``); any other local process is refused (closed,
one log line) and cannot see or disturb the session.  On other platforms no such check is
made: any process of this machine that finds the port could use the session while it lasts.

A graph the server forgot
-------------------------
ggml's client sends a graph it computed last on a device again as GRAPH_RECOMPUTE (4 bytes: "the
graph you hold"), while the server drops every graph it holds whenever any buffer is freed.  So
with two models on one server (the speech and the chat model on the same remote device), the
speech model freeing a buffer between two tokens of a reply made the next token's recompute one
the server refuses, and the session was lost.  The relay keeps each device's last GRAPH_COMPUTE
and, for a recompute that comes after a free, sends that graph whole instead: what ggml asked
for, with nothing the server could refuse.

The relay is plain Python on a loopback socket: no patch to ggml.  It costs a few
microseconds per message (a token takes a handful of messages); ``bench/bench_remote.py``
measures the whole path next to the local CPU.

API for the app
---------------
- ``endpoints``: ``[TOKEN@]HOST:PORT`` parsed, named and shown (the token masked);
  ``read_token_file(path)`` here.
- ``check_server(endpoint, timeout=3.0) -> ServerInfo``: the handshake only, nothing is
  registered; for the settings dialog's "Add" (the error message says what is wrong).
- ``connect(endpoints, timeout=3.0) -> list[ServerInfo]``: checks each server, registers its
  devices once per process, returns each server's ``ServerInfo`` (``devices.remote_devices()``
  lists the devices: this module never imports ``devices``).  Calling it again with the same
  endpoint is cheap; a lost server that is back is reconnected (same device names).
  ggml cannot unregister a device: a server removed from the settings just stops being
  chosen, and stays listed until Parley restarts.  Devices, ``server_of``, ``lost_reason``,
  the callbacks and every message name a server as ``HOST:PORT``, never with its token.
- ``devices.select_device("rpc")`` picks the first remote device, ``"RPC1"`` a given one;
  ``"auto"`` prefers a local GPU, then a remote device, then the CPU.
- ``lost_reason(device) -> str | None`` and ``check(device)`` (raises ``RemoteDeviceLost``):
  after every engine call on a remote device.  The chat and speech engines already call
  ``check`` after each evaluation, transcription and model load.
- ``on_lost(callback)``: ``callback(endpoint, reason)`` runs on a relay thread as soon as a
  server is lost, also while idle (the relay watches the idle connection), e.g. to show it in
  the status bar at once.  Hand it over to the UI thread.
- ``RemoteDeviceLost`` is a ``DeviceLostError``, raised at load, mid-reply or mid-transcription:
  the model on that device cannot be used any more; load it again on the CPU
  (``devices.fallback_to_cpu(choice, str(exc))``).

The protocol is not encrypted, and only a server beyond loopback asks for the token: only use
servers on a network you trust, or tunnel them over SSH (see docs/remote.md).
"""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
import logging
import os
import select
import socket
import struct
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Protocol

from ... import notes, untrusted
from ...errors import RemoteDeviceLost, RemoteError, UntrustedFileError
from ...notes import Note
from .. import native
from .endpoints import parse_endpoint, split_token
from .wire import (  # the wire format, shared with the server's front
    ALLOC_BUFFER,
    BLOCK_SIZE,
    BUFFER_CLEAR as BUFFER_CLEAR,
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
    HELLO_REQUEST_SIZE,
    INIT_TENSOR as INIT_TENSOR,
    MEMSET_TENSOR as MEMSET_TENSOR,
    PARLEY_AUTH,
    PROTOCOL_MAJOR_FOR_TABLE,
    REPLY_SIZES,
    SET_TENSOR as SET_TENSOR,
    SET_TENSOR_HASH,
    TOKEN_SIZE,
    TYPE_SIZE,
)

log = logging.getLogger("parley.remote")

CONNECT_TIMEOUT = 3.0


def _seconds_from_env(name: str, default: float) -> float:
    try:
        value = float(os.environ.get(name, default))
    except ValueError:
        return default
    return value if 0 < value <= 3600 else default


# A wait on the server that makes no progress for this long means it is lost (see "Time limits").
STALL_TIMEOUT = _seconds_from_env("PARLEY_RPC_STALL_TIMEOUT", 30.0)


# Bounds on what a server may answer (see the module docstring).
MAX_DEVICES = 16
MAX_ALIGNMENT = 1 << 20
MAX_BYTES = 1 << 48  # 256 TiB: more than any device; sums of such sizes stay far below 2**64
_ALLOC_SLACK = 1 << 20  # a buffer may be this much larger than twice the size asked
_ALLOC_SIZE_SLACK = 1 << 30  # GET_ALLOC_SIZE: padding beyond twice the tensor's bytes

# Reply size of each command the relay passes on (HELLO is answered by the relay itself).
_REPLY_SIZES: dict[int, int | None] = {cmd: size for cmd, size in REPLY_SIZES.items() if cmd != HELLO}
_COMPUTES = (GRAPH_COMPUTE, GRAPH_RECOMPUTE)
_CHUNK = 4 << 20
STAND_IN_BUFFER = 1 << 48  # handles of the buffers a lost server "allocates" start above this
_U64 = struct.Struct("<Q")
_HEX = frozenset("0123456789abcdefABCDEF")


class RemoteAware(Protocol):
    """What ``lost_reason`` and ``check`` read of a device (``devices.Device`` has it)."""

    @property
    def name(self) -> str: ...
    @property
    def remote(self) -> str | None: ...


@dataclasses.dataclass(frozen=True)
class ServerInfo:
    endpoint: str  # HOST:PORT, without the token
    version: tuple[int, int, int]
    device_count: int


def read_token_file(path: str | Path) -> bytes:
    """The token in ``path`` (64 hex characters, as ``parley rpc-server --token-file`` writes
    it); RemoteError says what is wrong, without the file's content.  A FIFO, a device or a
    large file is refused without being read."""
    try:
        data = untrusted.read_bytes(path, 4 * TOKEN_SIZE)
    except UntrustedFileError as exc:
        raise RemoteError(f"cannot read the token file {exc}") from None
    text = data.decode("ascii", "replace").strip()
    if len(text) != 2 * TOKEN_SIZE or not set(text) <= _HEX:
        raise RemoteError(f"{path} holds no token ({2 * TOKEN_SIZE} hex characters expected)")
    return bytes.fromhex(text)


def _our_version() -> tuple[int, int, int]:
    lib = native.lib()
    return int(lib.RPC_PROTO_MAJOR_VERSION), int(lib.RPC_PROTO_MINOR_VERSION), int(lib.RPC_PROTO_PATCH_VERSION)


# --------------------------------------------------------------------------- socket helpers


class _Stalled(ConnectionError):
    """The server made no progress for ``STALL_TIMEOUT`` seconds."""


class _BadReply(ConnectionError):
    """A reply field out of its bounds: the server is broken or hostile."""


def _recv_exact(sock: socket.socket, n: int) -> bytes:
    """Exactly ``n`` bytes (within the socket's own timeout); ConnectionError when the peer
    closes first."""
    buf = bytearray(n)
    view = memoryview(buf)
    got = 0
    while got < n:
        k = sock.recv_into(view[got:], n - got)
        if k == 0:
            raise ConnectionError("the server closed the connection")
        got += k
    return bytes(buf)


def _is_stall(exc: OSError) -> bool:
    """A socket timeout of ours (``settimeout``), not a keep-alive ETIMEDOUT from the kernel."""
    return isinstance(exc, TimeoutError) and exc.errno is None


class _LocalClosed(Exception):
    """ggml hung up on the relay (not a server failure)."""


def _recv_local(sock: socket.socket, n: int) -> bytes:
    try:
        return _recv_exact(sock, n)
    except OSError as exc:  # ConnectionError included
        raise _LocalClosed from exc


# --------------------------------------------------------------------------- the handshake


def _handshake(endpoint: str, timeout: float) -> tuple[socket.socket, ServerInfo]:
    """Connect, give the token (when there is one), say HELLO and ask for the device count,
    all within ``timeout`` seconds; every answer is checked before native code sees the server."""
    token, public = split_token(endpoint)
    native.load_backends()
    sock = _open(public, timeout)
    try:
        sock.settimeout(timeout)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if token is not None:
            _authenticate(sock, public, token)
        version = _hello(sock, public)
        count = _device_count(sock, public)
    except RemoteError:
        sock.close()
        raise
    except OSError as exc:
        sock.close()
        if isinstance(exc, TimeoutError):
            raise RemoteError(
                f"{public}: connected, but no ggml RPC handshake within {timeout:g} s: it is not a "
                "Parley/ggml RPC server, or it is busy with another client (a server serves one at a time)"
            ) from None
        raise RemoteError(
            f"{public}: the server closed the connection during the handshake: it is not a "
            "ggml RPC server, or it speaks an incompatible protocol version"
        ) from None
    return sock, ServerInfo(public, version, count)


def _open(public: str, timeout: float) -> socket.socket:
    host, port = parse_endpoint(public)
    try:
        return socket.create_connection((host, port), timeout=timeout)
    except ConnectionRefusedError:
        raise RemoteError(
            f"{public}: connection refused (no server is listening there; start `parley rpc-server` on that machine)"
        ) from None
    except TimeoutError:
        raise RemoteError(
            f"{public}: no answer within {timeout:g} s (the host is down or a firewall drops the connection)"
        ) from None
    except socket.gaierror as exc:
        raise RemoteError(f"{public}: unknown host ({exc.strerror})") from None
    except (OSError, UnicodeError, ValueError) as exc:
        raise RemoteError(f"{public}: cannot connect ({getattr(exc, 'strerror', None) or exc})") from None


def _authenticate(sock: socket.socket, public: str, token: bytes) -> None:
    """PARLEY_AUTH: a server that does not take the token closes the connection."""
    sock.sendall(bytes([PARLEY_AUTH]) + _U64.pack(TOKEN_SIZE) + token)
    try:
        size = _U64.unpack(_recv_exact(sock, 8))[0]
        answer = _recv_exact(sock, 1) if size == 1 else b""
    except ConnectionError:
        raise RemoteError(f"{public}: the server refused the token (check TOKEN@HOST:PORT)") from None
    if answer != b"\x01":
        raise RemoteError(f"{public}: not a Parley RPC server (unexpected answer to the token)")


def _hello(sock: socket.socket, public: str) -> tuple[int, int, int]:
    ours = _our_version()
    sock.sendall(bytes([HELLO]) + _U64.pack(HELLO_REQUEST_SIZE) + bytes(HELLO_REQUEST_SIZE))
    size = _U64.unpack(_recv_exact(sock, 8))[0]
    if not 3 <= size <= 64:
        raise RemoteError(f"{public}: not a ggml RPC server (unexpected answer to the handshake)")
    reply = _recv_exact(sock, size)
    version = (reply[0], reply[1], reply[2])
    if version[0] != ours[0] or version[1] > ours[1]:
        raise RemoteError(
            f"{public}: RPC protocol version mismatch: the server speaks {'.'.join(map(str, version))}, "
            f"this Parley {'.'.join(map(str, ours))}; run the same Parley version on both machines"
        )
    if size != HELLO_REPLY_SIZE:
        raise RemoteError(f"{public}: not a ggml RPC server (handshake of {size} bytes)")
    return version


def _device_count(sock: socket.socket, public: str) -> int:
    sock.sendall(bytes([DEVICE_COUNT]) + _U64.pack(0))
    if _U64.unpack(_recv_exact(sock, 8))[0] != 4:
        raise RemoteError(f"{public}: not a ggml RPC server (malformed device count)")
    count: int = struct.unpack("<I", _recv_exact(sock, 4))[0]
    if count == 0:
        raise RemoteError(f"{public}: the server offers no devices")
    if count > MAX_DEVICES:
        raise RemoteError(
            f"{public}: the server claims {count} devices (at most {MAX_DEVICES} are "
            "possible): it is broken or not a ggml RPC server"
        )
    return count


def check_server(endpoint: str, timeout: float = CONNECT_TIMEOUT) -> ServerInfo:
    """Handshake with ``endpoint`` and hang up; RemoteError says what is wrong.

    For an endpoint this process is already connected to with the same token, the live
    connection answers (a server serves one client at a time, so a second connection would wait)."""
    token, public = split_token(endpoint)
    with _links_lock:
        link = _links.get(public)
    if link is not None and link.lost is None and split_token(link.dial)[0] == token:
        return link.info
    sock, info = _handshake(endpoint, timeout)
    sock.close()
    return info


# --------------------------------------------------------------------------- reply checks


def _u64_at(data: bytes, offset: int = 0) -> int:
    value: int = _U64.unpack_from(data, offset)[0]
    return value


def _u32_at(data: bytes, offset: int = 0) -> int:
    value: int = struct.unpack_from("<I", data, offset)[0]
    return value


def _tensor_nbytes(tensor: bytes) -> int | None:
    """``ggml_nbytes`` of a packed ``rpc_tensor`` (type at 8, ne at 20, nb at 36, u32 each);
    None for a type the table does not know."""

    kind = struct.unpack_from("<I", tensor, 8)[0]
    if kind >= len(BLOCK_SIZE) or not BLOCK_SIZE[kind]:
        return None
    block, size = int(BLOCK_SIZE[kind]), int(TYPE_SIZE[kind])
    ne: tuple[int, ...] = struct.unpack_from("<4I", tensor, 20)
    nb: tuple[int, ...] = struct.unpack_from("<4I", tensor, 36)
    if 0 in ne:
        return 0
    rest = sum((n - 1) * b for n, b in zip(ne[1:], nb[1:], strict=True))
    first = size + (ne[0] - 1) * nb[0] if block == 1 else ne[0] * nb[0] // block
    return first + rest


class _Checks:
    """What the relay knows of one server session, to check each reply against (the rules are
    in the module docstring); ``check`` raises ``_BadReply`` with the reason."""

    def __init__(self) -> None:
        self.alignment: dict[int, int] = {}  # device -> alignment
        self.buffers: dict[int, tuple[int, int]] = {}  # handle -> (device, size)
        self._rules: dict[int, Callable[[bytes, bytes], None]] = {
            GET_ALIGNMENT: self._alignment,
            GET_MAX_SIZE: self._max_size,
            ALLOC_BUFFER: self._alloc,
            BUFFER_GET_BASE: self._base,
            FREE_BUFFER: self._free,
            GET_DEVICE_MEMORY: self._memory,
            GET_ALLOC_SIZE: self._alloc_size,
            SET_TENSOR_HASH: self._flag,
            COPY_TENSOR: self._flag,
        }

    def check(self, cmd: int, request: bytes, reply: bytes) -> None:
        rule = self._rules.get(cmd)
        if rule is not None:
            rule(request, reply)

    def _alignment(self, request: bytes, reply: bytes) -> None:
        alignment = _u64_at(reply)
        if not 0 < alignment <= MAX_ALIGNMENT or alignment & (alignment - 1):
            raise _BadReply(
                f"the server gave an alignment of {alignment} (a power of two up to {MAX_ALIGNMENT} expected)"
            )
        self.alignment[struct.unpack_from("<I", request)[0]] = alignment

    def _max_size(self, request: bytes, reply: bytes) -> None:
        if _u64_at(reply) == 0:
            raise _BadReply("the server gave a maximum buffer size of 0")

    def _alloc(self, request: bytes, reply: bytes) -> None:
        device, asked = struct.unpack_from("<IQ", request)
        handle, size = _u64_at(reply), _u64_at(reply, 8)
        if handle == 0:
            raise _BadReply(f"the server could not allocate {asked / 2**20:.1f} MiB (out of memory there?)")
        if not asked <= size <= 2 * asked + _ALLOC_SLACK or size > MAX_BYTES:
            raise _BadReply(f"the server allocated {size} bytes when {asked} were asked for")
        if handle in self.buffers:
            raise _BadReply("the server gave a buffer handle that is already in use")
        self.buffers[handle] = (device, size)

    def _base(self, request: bytes, reply: bytes) -> None:
        base = _u64_at(reply)
        device, size = self.buffers.get(_u64_at(request), (-1, 0))
        alignment = self.alignment.get(device, 1)
        if base == 0 or base % alignment or base + size >= 1 << 64:
            raise _BadReply(
                f"the server gave a buffer at address {base:#x} (not 0, aligned to {alignment} "
                "and not wrapping around expected)"
            )

    def _free(self, request: bytes, reply: bytes) -> None:  # no reply: the request frees the handle
        self.buffers.pop(_u64_at(request), None)

    def _memory(self, request: bytes, reply: bytes) -> None:
        free, total = _u64_at(reply), _u64_at(reply, 8)
        if not free <= total <= MAX_BYTES:
            raise _BadReply(f"the server reported {free} bytes free of {total} (free <= total <= {MAX_BYTES} expected)")

    def _alloc_size(self, request: bytes, reply: bytes) -> None:  # request: u32 device, the tensor, its sources
        size, nbytes = _u64_at(reply), _tensor_nbytes(request[4:]) or 0
        if not nbytes <= size <= 2 * nbytes + _ALLOC_SIZE_SLACK:
            raise _BadReply(f"the server gave an allocation size of {size} bytes for a tensor of {nbytes}")

    def _flag(self, request: bytes, reply: bytes) -> None:
        if reply[0] > 1:
            raise _BadReply(f"the server answered {reply[0]} where 0 or 1 was expected")


# --------------------------------------------------------------------------- who may connect to the relay


def _proc_address(host: str, port: int) -> str:
    """An IPv4 address and port as ``/proc/net/tcp`` writes them (the address in host byte order)."""
    return f"{struct.unpack('=I', socket.inet_aton(host))[0]:08X}:{port:04X}"


def _peer_is_this_process(peer: tuple[str, int], port: int) -> bool:
    """Whether the socket at the other end of a connection to our loopback ``port`` is one of
    this process's file descriptors (Linux); True where that cannot be told (see the docstring)."""
    try:
        with open("/proc/net/tcp", encoding="ascii") as f:
            table = f.read().splitlines()[1:]
    except OSError:
        return not sys.platform.startswith("linux")
    theirs, ours = _proc_address(peer[0], peer[1]), _proc_address("127.0.0.1", port)
    wanted = {
        f"socket:[{fields[9]}]"
        for fields in map(str.split, table)
        if len(fields) > 9 and fields[1] == theirs and fields[2] == ours and fields[9] != "0"
    }
    if not wanted:
        return False
    for fd in os.listdir("/proc/self/fd"):
        try:
            if os.readlink(f"/proc/self/fd/{fd}") in wanted:
                return True
        except OSError:
            continue
    return False


# --------------------------------------------------------------------------- the relay


class _Link:
    """One checked connection to a server, relayed to ggml from a loopback port of ours."""

    def __init__(self, endpoint: str, sock: socket.socket, info: ServerInfo) -> None:
        self.endpoint = info.endpoint  # HOST:PORT, what is shown
        self.dial = endpoint  # what (re)connecting used (may hold the token: never shown)
        self.info = info
        self.lost: str | None = None
        self.sent = 0  # bytes passed on to the server (tests see where a load stands)
        self.poisoned = False  # a fabricated alloc size is cached in ggml: no reconnecting
        self._sock = sock
        self._lock = threading.Lock()
        self._hello = bytes(HELLO_REPLY_SIZE)
        self._cache: dict[tuple[int, bytes], bytes] = {}  # (command, request) -> reply, for stand-ins
        self._checks = _Checks()
        self._computing = False  # a compute was sent and no reply has started since
        self._graphs: dict[int, bytes] = {}  # device -> its last GRAPH_COMPUTE request
        self._forgotten: set[int] = set()  # devices whose graph the server dropped on a free
        self._local: set[socket.socket] = set()
        self._stand_ins = 0
        self._prepare(sock)
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(4)
        self.relay_port = self._listener.getsockname()[1]
        self.relay_endpoint = f"127.0.0.1:{self.relay_port}"
        threading.Thread(target=self._accept, name=f"parley-rpc-accept {self.endpoint}", daemon=True).start()
        threading.Thread(target=self._watch, name=f"parley-rpc-watch {self.endpoint}", daemon=True).start()

    def _prepare(self, sock: socket.socket) -> None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        for name, value in (("TCP_KEEPIDLE", 10), ("TCP_KEEPINTVL", 5), ("TCP_KEEPCNT", 3)):
            if hasattr(socket, name):
                sock.setsockopt(socket.IPPROTO_TCP, getattr(socket, name), value)
        ours = _our_version()
        self._hello = bytes([ours[0], ours[1], ours[2], 0]) + bytes(HELLO_REPLY_SIZE - 4)
        self._checks, self._computing = _Checks(), False
        self._graphs, self._forgotten = {}, set()

    def reconnect(self, endpoint: str, timeout: float) -> None:
        """Use a server that is back at the same endpoint (same device count)."""
        if self._local:
            raise RemoteError(
                f"{self.endpoint}: the lost server is still in use here; close the models loaded on it first"
            )
        if self.poisoned:
            raise RemoteError(
                f"{self.endpoint}: the server was lost while memory was being planned; restart Parley to use it again"
            )
        if split_token(endpoint)[0] is not None:
            self.dial = endpoint
        sock, info = _handshake(self.dial, timeout)
        if info.device_count != self.info.device_count:
            sock.close()
            raise RemoteError(
                f"{self.endpoint}: the server now offers {info.device_count} devices instead "
                f"of {self.info.device_count}; restart Parley to use it"
            )
        with self._lock:
            self._prepare(sock)
            self._sock, self.info, self.lost = sock, info, None
        log.info("reconnected to %s", self.endpoint)

    # ------------------------------------------------------------------ threads

    def _accept(self) -> None:
        while True:
            try:
                local, peer = self._listener.accept()
            except OSError:
                return
            try:
                if not _peer_is_this_process(peer, self.relay_port):
                    log.warning(
                        "refused a connection to the relay of %s from another process (port %d)", self.endpoint, peer[1]
                    )
                    local.close()
                    continue
                local.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            except OSError:
                local.close()
                continue
            self._local.add(local)
            threading.Thread(target=self._serve, args=(local,), name=f"parley-rpc {self.endpoint}", daemon=True).start()

    def _serve(self, local: socket.socket) -> None:
        """Relay one ggml connection, message by message, until ggml hangs up."""
        try:
            while True:
                header = _recv_local(local, 9)
                cmd, size = header[0], _U64.unpack_from(header, 1)[0]
                if cmd in (HELLO, DEVICE_COUNT):  # answered here, from the checked handshake
                    _recv_local(local, size)
                    reply = self._hello if cmd == HELLO else struct.pack("<I", self.info.device_count)
                    local.sendall(_U64.pack(len(reply)) + reply)
                    continue
                if cmd not in _REPLY_SIZES:
                    self._mark_lost(f"ggml sent an unknown RPC command {cmd}")
                    return  # cannot be answered: ggml will stop this process, as it would have
                self._exchange(local, cmd, size)
        except (_LocalClosed, OSError):
            return
        except Exception as exc:  # noqa: BLE001 - a relay bug must not end in a traceback
            self._mark_lost(f"the relay failed ({type(exc).__name__}: {exc})")
        finally:
            self._local.discard(local)
            local.close()

    def _exchange(self, local: socket.socket, cmd: int, size: int) -> None:
        """One request from ggml, its reply (the server's, or a stand-in once it is lost)."""
        small = size <= 4096
        request = _recv_local(local, size) if small else b""
        with self._lock:
            if cmd == GRAPH_RECOMPUTE and size == 4 and _u32_at(request) in self._forgotten:
                cmd, request = GRAPH_COMPUTE, self._graphs[_u32_at(request)]  # see "A graph the server forgot"
                size, small = len(request), True
            if self.lost is None:
                self._guarded(self._send, bytes([cmd]) + _U64.pack(size) + request)
            if not small:  # read all of it from ggml even when the server is gone: ggml is mid-send
                request = self._forward(local, size, whole=cmd == GRAPH_COMPUTE)
            reply = self._guarded(self._reply, cmd, request) if self.lost is None else None
            if self.lost is not None:
                reply = self._stand_in(cmd, request)
            else:
                self._remember_graphs(cmd, request)
        if reply is not None:
            local.sendall(_U64.pack(len(reply)) + reply)

    def _remember_graphs(self, cmd: int, request: bytes) -> None:
        """Keep each device's last graph, and note the devices whose graph a free made the
        server drop (it drops them all)."""
        if cmd == GRAPH_COMPUTE and len(request) >= 4:
            device = _u32_at(request)
            self._graphs[device] = request
            self._forgotten.discard(device)
        elif cmd == FREE_BUFFER:
            self._forgotten = set(self._graphs)

    def _guarded(self, step: Callable[..., Any], *args: Any) -> Any:
        """``step(*args)``; any failure marks the server lost (the stand-ins take over)."""
        try:
            return step(*args)
        except Exception as exc:  # noqa: BLE001 - whatever a server does ends as "lost", never a traceback
            self._lost_locked(_describe(exc))
            return None

    def _reply(self, cmd: int, request: bytes) -> bytes | None:
        """The server's reply to ``cmd``, checked; None for a command without one."""
        expected = _REPLY_SIZES[cmd]
        if expected is None:
            self._checks.check(cmd, request, b"")
            self._computing = self._computing or cmd in _COMPUTES
            return None
        want = _u64_at(request, len(request) - 8) if expected < 0 else expected
        got = _u64_at(self._read(8))
        if got != want:
            raise _BadReply(f"the server sent a malformed reply ({got} bytes, not {want})")
        reply = self._read(want)
        self._checks.check(cmd, request, reply)
        if cmd in (GET_ALIGNMENT, GET_MAX_SIZE):
            self._cache[(cmd, request)] = reply
        return reply

    def _read(self, n: int) -> bytes:
        """``n`` bytes from the server.  Each wait is limited to ``STALL_TIMEOUT``, except the
        first byte of the first reply after a compute (see "Time limits")."""
        buf = bytearray(n)
        view = memoryview(buf)
        got = 0
        while got < n:
            self._sock.settimeout(None if self._computing else STALL_TIMEOUT)
            try:
                k = self._sock.recv_into(view[got:], n - got)
            except OSError as exc:
                if _is_stall(exc):
                    raise _Stalled(f"the server stopped answering (nothing for {STALL_TIMEOUT:g} s)") from None
                raise
            if k == 0:
                raise ConnectionError("the server closed the connection")
            got += k
            self._computing = False
        return bytes(buf)

    def _send(self, data: bytes) -> None:
        """All of ``data`` to the server; no progress for ``STALL_TIMEOUT`` (outside a compute)
        means it is lost."""
        view = memoryview(data)
        self._sock.settimeout(None if self._computing else STALL_TIMEOUT)
        while view:
            try:
                n = self._sock.send(view)
                view = view[n:]
                self.sent += n
            except OSError as exc:
                if _is_stall(exc):
                    raise _Stalled(f"the server stopped reading (nothing for {STALL_TIMEOUT:g} s)") from None
                raise

    def _forward(self, local: socket.socket, size: int, whole: bool = False) -> bytes:
        """Stream a large request body from ggml to the server (all of it is read from ggml
        even when the server goes away on the way); return its last 8 bytes, or all of it
        (``whole``)."""
        left, tail, kept = size, b"", []
        while left:
            block = _recv_local(local, min(_CHUNK, left))
            left -= len(block)
            tail = (tail + block)[-8:]
            if whole:
                kept.append(block)
            if self.lost is None:
                self._guarded(self._send, block)
        return b"".join(kept) if whole else tail

    def _stand_in(self, cmd: int, request: bytes) -> bytes | None:
        """A harmless reply of the right size for a lost server (results are discarded)."""
        expected = _REPLY_SIZES[cmd]
        if expected is None:
            return None
        cached = self._cache.get((cmd, request))
        if cached is not None:
            return cached
        if cmd == GET_TENSOR:
            return bytes(_u64_at(request, len(request) - 8))
        if cmd == GET_ALIGNMENT:
            return _U64.pack(64)
        if cmd == GET_MAX_SIZE:
            return _U64.pack(1 << 62)
        if cmd == BUFFER_GET_BASE:
            return _U64.pack(1 << 32)  # ggml asserts a non-NULL base; nothing reads it
        if cmd == SET_TENSOR_HASH:
            return b"\x01"  # "the server has it": nothing more is sent
        if cmd == ALLOC_BUFFER:  # a stand-in of the size asked for (packed request: u32 device, u64 size)
            self._stand_ins += 1
            return _U64.pack(STAND_IN_BUFFER + self._stand_ins) + request[4:12]
        if cmd == GET_ALLOC_SIZE:
            self.poisoned = True  # ggml caches this size for good
        return bytes(expected)  # zero memory, zero size, "not copied"

    def _watch(self) -> None:
        """Notice a server that goes away while nothing is being exchanged."""
        while True:
            time.sleep(0.5)
            if self.lost is not None or not self._lock.acquire(blocking=False):
                continue
            try:
                readable, _, _ = select.select([self._sock], [], [], 0)
                if readable:  # the server never speaks unasked: this is EOF, a reset or garbage
                    try:
                        data = self._sock.recv(1, socket.MSG_PEEK)
                        reason = "the server closed the connection" if not data else "the server sent data unasked"
                    except OSError as exc:
                        reason = _describe(exc)
                    self._lost_locked(reason)
            except (OSError, ValueError) as exc:
                self._lost_locked(_describe(exc))
            finally:
                self._lock.release()

    def _mark_lost(self, reason: str) -> None:
        with self._lock:
            self._lost_locked(reason)

    def _lost_locked(self, reason: str) -> None:
        if self.lost is not None:
            return
        self.lost = reason
        try:
            self._sock.close()
        except OSError:
            pass
        log.info("remote compute server %s was lost: %s", self.endpoint, reason)  # callers report it
        for callback in _listeners():
            threading.Thread(target=_notify, args=(callback, self.endpoint, reason), daemon=True).start()


def _notify(callback: Callable[[str, str], None], endpoint: str, reason: str) -> None:
    try:
        callback(endpoint, reason)
    except Exception:  # noqa: BLE001 - a listener's failure must not stop the relay
        log.exception("remote-device listener failed")


def _describe(exc: BaseException) -> str:
    if isinstance(exc, (_Stalled, _BadReply)):
        return str(exc)
    if isinstance(exc, ConnectionResetError):
        return "the connection was reset (the server stopped)"
    if isinstance(exc, BrokenPipeError):
        return "the server closed the connection"
    if isinstance(exc, TimeoutError):
        return "the server stopped answering (keep-alive timed out)"
    return str(exc) or type(exc).__name__


_links: dict[str, _Link] = {}  # HOST:PORT -> link
_by_relay: dict[str, _Link] = {}  # the endpoint ggml knows -> link
_links_lock = threading.Lock()
_compute_locks: dict[str, threading.RLock] = {}  # HOST:PORT -> the turn of the models on that server (``computing``)
_callbacks: list[Callable[[], Callable[[str, str], None] | None]] = []  # references to the listeners


def _rpc_function(name: str, ctype: str) -> Any:
    ffi, lib = native.ffi(), native.lib()
    reg = lib.ggml_backend_reg_by_name(b"RPC")
    if reg == ffi.NULL:
        raise RemoteError("this build has no RPC backend (libggml-rpc is missing from the library folder)")
    fn = lib.ggml_backend_reg_get_proc_address(reg, name.encode())
    if fn == ffi.NULL:
        raise RemoteError(f"the RPC backend has no {name}")
    return ffi.cast(ctype, fn)


def connect(endpoints: Iterable[str], timeout: float = CONNECT_TIMEOUT) -> list[ServerInfo]:
    """Check and register each server's devices (once per process); return what each server
    said (``devices.remote_devices()`` lists the devices).

    RemoteError names the first endpoint that cannot be used; the ones before it stay connected.
    """
    native.load_backends()
    infos: list[ServerInfo] = []
    if _our_version()[0] != PROTOCOL_MAJOR_FOR_TABLE:
        raise RemoteError(
            f"this build speaks RPC protocol {_our_version()[0]}, the relay knows {PROTOCOL_MAJOR_FOR_TABLE}"
        )
    for raw in endpoints:
        endpoint = raw.strip()
        public = split_token(endpoint)[1]
        with _links_lock:
            link = _links.get(public)
            if link is not None:
                if link.lost is not None:
                    link.reconnect(endpoint, timeout)
                infos.append(link.info)
                continue
            sock, info = _handshake(endpoint, timeout)
            link = _Link(endpoint, sock, info)
            reg = _rpc_function("ggml_backend_rpc_add_server", "parley_rpc_add_server_fn")(link.relay_endpoint.encode())
            if reg == native.ffi().NULL:
                raise RemoteError(f"{public}: ggml could not register the server's devices")
            native.lib().ggml_backend_register(reg)
            _links[public], _by_relay[link.relay_endpoint] = link, link
            log.info(
                "connected to %s: %d device(s), protocol %s",
                public,
                info.device_count,
                ".".join(map(str, info.version)),
            )
            infos.append(info)
    return infos


def server_of(ggml_endpoint: str) -> str | None:
    """The server endpoint behind the endpoint ggml was given (a device's description)."""
    link = _by_relay.get(ggml_endpoint)
    return link.endpoint if link else None


def lost_reason(device: RemoteAware | str) -> str | None:
    """Why ``device``'s server (or the server at an endpoint) was lost; None while it is fine
    or for a local device."""
    endpoint = device if isinstance(device, str) else device.remote
    link = _links.get(endpoint) if endpoint else None
    return link.lost if link else None


def check(device: RemoteAware) -> None:
    """Raise RemoteDeviceLost when ``device`` is a remote device whose server was lost."""
    reason = lost_reason(device)
    if reason is not None:
        raise RemoteDeviceLost(Note(notes.REMOTE_DEVICE_LOST, device=device.name, server=device.remote, reason=reason))


def computing(device: RemoteAware) -> contextlib.AbstractContextManager[object]:
    """Hold while a model computes on ``device`` (a decode, a transcription) when it is a remote
    device, so that two models on one server take turns.

    ggml's RPC client keeps one "last graph" per device for every model on it, and sends a graph
    it sent last as "compute the graph you hold" (4 bytes).  A thread put off between that check
    and the send (a loaded machine) let another model's graph reach the server first, which then
    ran that graph with the first model's inputs: the speech model's warm-up during a reply
    stopped the server with an assertion (get_rows, an index out of range).  A remote server
    computes one graph at a time anyway; this only keeps whole decodes apart.  A local device
    needs no turns."""
    endpoint = device.remote
    if not endpoint:
        return contextlib.nullcontext()
    with _links_lock:
        return _compute_locks.setdefault(endpoint, threading.RLock())  # a callback may decode on the same thread


def on_lost(callback: Callable[[str, str], None]) -> None:
    """Call ``callback(endpoint, reason)`` (on a relay thread) whenever a server is lost; adding
    the same callback again changes nothing.

    A bound method is held weakly: the object it belongs to (an app's engine host) is not kept
    alive by this module, and once it is gone it is no longer called."""
    if callback in _listeners():
        return
    ref: Callable[[], Callable[[str, str], None] | None]
    if inspect.ismethod(callback):
        ref = weakref.WeakMethod(callback)
    else:

        def ref() -> Callable[[str, str], None]:
            return callback

    with _links_lock:
        _callbacks[:] = [r for r in _callbacks if r() is not None] + [ref]


def _listeners() -> list[Callable[[str, str], None]]:
    """The ``on_lost`` listeners still alive."""
    return [cb for cb in (r() for r in list(_callbacks)) if cb is not None]


def is_loopback(host: str) -> bool:
    """True for an address only this machine can reach (127.0.0.0/8, ::1, localhost)."""
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
