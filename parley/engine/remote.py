"""Remote compute devices: another machine's CPU or GPU over ggml's RPC protocol.

``parley rpc-server`` on one machine serves its device; ``connect(["HOST:PORT"])`` here adds
that device to ggml's device list (named ``RPC0``, ``RPC1``... type GPU), so the same code
paths that drive a local GPU drive it: the chat engine offloads every layer to it and the
speech engine runs on it.

Why there is a relay in the middle
----------------------------------
ggml's RPC client aborts the whole process (``GGML_ABORT``) whenever a socket read or write
fails: a server that is down, is not a ggml server, speaks another protocol version, or dies
in the middle of a reply would kill Parley, and a host that vanishes leaves it blocked for
ever.  Its blocking ``connect`` has no timeout either.  So ggml never talks to a server
directly.  For each server this module

1. checks it in Python first (``check_server``: TCP connect and the protocol's HELLO and
   device count, each within a timeout, 3 s by default), so a bad endpoint is a clear
   ``RemoteError`` before any native code sees it; and
2. keeps that checked connection and relays ggml's messages over it from a loopback port of
   our own (``127.0.0.1:<ephemeral>``, which is the endpoint ggml is given).  The relay knows
   the protocol's framing and, for every command, the size of the reply.  When the server
   goes away (EOF, reset, keep-alive timeout, a malformed reply), the relay marks it lost and
   from then on answers ggml itself with harmless replies of the right size (zeros; "no
   buffer" for allocations), so ggml finishes what it was doing without aborting.  The
   results are garbage, which is why every engine call on a remote device ends with
   ``check(device)``: it raises ``RemoteDeviceLost`` and the caller falls back to the CPU.

The relay is plain Python on a loopback socket: no patch to ggml.  It costs a few
microseconds per message (a token takes a handful of messages); ``bench/bench_remote.py``
measures the whole path next to the local CPU.

API for the app
---------------
- ``parse_endpoint(text) -> (host, port)``: validates ``HOST:PORT`` (``RemoteError``).
- ``check_server(endpoint, timeout=3.0) -> ServerInfo``: the handshake only, nothing is
  registered; for the settings dialog's "Add" (the error message says what is wrong).
- ``connect(endpoints, timeout=3.0) -> list[Device]``: checks each server, registers its
  devices once per process, returns every remote device.  Calling it again with the same
  endpoint is cheap; a lost server that is back is reconnected (same device names).
  ggml cannot unregister a device: a server removed from the settings just stops being
  chosen, and stays listed until Parley restarts.
- ``devices.select_device("rpc")`` picks the first remote device, ``"RPC1"`` a given one;
  ``"auto"`` prefers a local GPU, then a remote device, then the CPU.
- ``lost_reason(device) -> str | None`` and ``check(device)`` (raises ``RemoteDeviceLost``):
  after every engine call on a remote device.  The chat and speech engines already call
  ``check`` after each evaluation, transcription and model load.
- ``on_lost(callback)``: ``callback(endpoint, reason)`` runs on a relay thread as soon as a
  server is lost, also while idle (the relay watches the idle connection), e.g. to show it in
  the status bar at once.  Hand it over to the UI thread.
- ``RemoteDeviceLost`` is a ``ModelLoadError``: the model on that device cannot be used any
  more; load it again on the CPU (``devices.fallback_to_cpu(choice, str(exc))``).

The protocol has no authentication and no encryption: only use servers on a network you
trust, or tunnel them over SSH (see the README).
"""

from __future__ import annotations

import dataclasses
import logging
import select
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from . import native
from .errors import ModelLoadError, ParleyError

if TYPE_CHECKING:
    from .devices import Device

log = logging.getLogger("parley.remote")

DEFAULT_PORT = 50052
CONNECT_TIMEOUT = 3.0

# Protocol 7 (ggml-rpc.cpp, enum rpc_cmd).  HELLO is fixed at 14 by the protocol itself.
ALLOC_BUFFER, GET_ALIGNMENT, GET_MAX_SIZE, BUFFER_GET_BASE, FREE_BUFFER, BUFFER_CLEAR = range(6)
SET_TENSOR, SET_TENSOR_HASH, GET_TENSOR, COPY_TENSOR, GRAPH_COMPUTE, GET_DEVICE_MEMORY = range(6, 12)
INIT_TENSOR, GET_ALLOC_SIZE, HELLO, DEVICE_COUNT, GRAPH_RECOMPUTE, MEMSET_TENSOR = range(12, 18)
PROTOCOL_MAJOR_FOR_TABLE = 7
HELLO_REQUEST_SIZE = 24        # rpc_msg_hello_req: conn_caps[24] (all zero: plain TCP)
HELLO_REPLY_SIZE = 28          # major, minor, patch, padding, conn_caps[24]

# Reply size of each command that has one (GET_TENSOR: the size it asks for); None: no reply.
_REPLY_SIZES: dict[int, int | None] = {
    ALLOC_BUFFER: 16, GET_ALIGNMENT: 8, GET_MAX_SIZE: 8, BUFFER_GET_BASE: 8, FREE_BUFFER: None,
    BUFFER_CLEAR: None, SET_TENSOR: None, SET_TENSOR_HASH: 1, GET_TENSOR: -1, COPY_TENSOR: 1,
    GRAPH_COMPUTE: None, GET_DEVICE_MEMORY: 16, INIT_TENSOR: None, GET_ALLOC_SIZE: 8,
    DEVICE_COUNT: 4, GRAPH_RECOMPUTE: None, MEMSET_TENSOR: None,
}
_CHUNK = 4 << 20
STAND_IN_BUFFER = 1 << 48             # handles of the buffers a lost server "allocates" start above this
_U64 = struct.Struct("<Q")


class RemoteError(ParleyError):
    """A remote compute server cannot be used: unreachable, not a ggml RPC server, another
    protocol version, or no devices.  The message names the endpoint and the reason."""


class RemoteDeviceLost(ModelLoadError):
    """The server of a remote device went away: what ran on it is lost.  Load the model again
    on another device (the CPU)."""


@dataclasses.dataclass(frozen=True)
class ServerInfo:
    endpoint: str
    version: tuple[int, int, int]
    device_count: int


def parse_endpoint(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[v6addr]:PORT`` too) as a host and a port; RemoteError when malformed."""
    value = (text or "").strip()
    host, sep, port_text = value.rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not sep or not host or not port_text.isdigit() or not 0 < int(port_text) < 65536 or any(c.isspace() for c in host):
        raise RemoteError(f"{text!r} is not HOST:PORT (for example 192.168.1.20:{DEFAULT_PORT})")
    return host, int(port_text)


def _our_version() -> tuple[int, int, int]:
    lib = native.lib()
    return int(lib.RPC_PROTO_MAJOR_VERSION), int(lib.RPC_PROTO_MINOR_VERSION), int(lib.RPC_PROTO_PATCH_VERSION)


def _recv_exact(sock: socket.socket, n: int) -> bytes:
    """Exactly ``n`` bytes; ConnectionError when the peer closes first."""
    buf = bytearray(n)
    view = memoryview(buf)
    got = 0
    while got < n:
        k = sock.recv_into(view[got:], n - got)
        if k == 0:
            raise ConnectionError("the server closed the connection")
        got += k
    return bytes(buf)


class _LocalClosed(Exception):
    """ggml hung up on the relay (not a server failure)."""


def _recv_local(sock: socket.socket, n: int) -> bytes:
    try:
        return _recv_exact(sock, n)
    except OSError as exc:  # ConnectionError included
        raise _LocalClosed from exc


def _handshake(endpoint: str, timeout: float) -> tuple[socket.socket, ServerInfo]:
    """Connect, say HELLO and ask for the device count, all within ``timeout`` seconds."""
    host, port = parse_endpoint(endpoint)
    native.load_backends()
    ours = _our_version()
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except ConnectionRefusedError:
        raise RemoteError(f"{endpoint}: connection refused (no server is listening there; start "
                          f"`parley rpc-server` on that machine)") from None
    except socket.timeout:
        raise RemoteError(f"{endpoint}: no answer within {timeout:g} s (the host is down or a "
                          "firewall drops the connection)") from None
    except socket.gaierror as exc:
        raise RemoteError(f"{endpoint}: unknown host ({exc.strerror})") from None
    except OSError as exc:
        raise RemoteError(f"{endpoint}: cannot connect ({exc.strerror or exc})") from None
    try:
        sock.settimeout(timeout)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.sendall(bytes([HELLO]) + _U64.pack(HELLO_REQUEST_SIZE) + bytes(HELLO_REQUEST_SIZE))
        size = _U64.unpack(_recv_exact(sock, 8))[0]
        if not 3 <= size <= 64:
            raise RemoteError(f"{endpoint}: not a ggml RPC server (unexpected answer to the handshake)")
        reply = _recv_exact(sock, size)
        version = (reply[0], reply[1], reply[2])
        if version[0] != ours[0] or version[1] > ours[1]:
            raise RemoteError(
                f"{endpoint}: RPC protocol version mismatch: the server speaks {'.'.join(map(str, version))}, "
                f"this Parley {'.'.join(map(str, ours))}; run the same Parley version on both machines")
        if size != HELLO_REPLY_SIZE:
            raise RemoteError(f"{endpoint}: not a ggml RPC server (handshake of {size} bytes)")
        sock.sendall(bytes([DEVICE_COUNT]) + _U64.pack(0))
        if _U64.unpack(_recv_exact(sock, 8))[0] != 4:
            raise RemoteError(f"{endpoint}: not a ggml RPC server (malformed device count)")
        count = struct.unpack("<I", _recv_exact(sock, 4))[0]
        if count == 0:
            raise RemoteError(f"{endpoint}: the server offers no devices")
    except socket.timeout:
        sock.close()
        raise RemoteError(
            f"{endpoint}: connected, but no ggml RPC handshake within {timeout:g} s: it is not a "
            "Parley/ggml RPC server, or it is busy with another client (a server serves one at a time)") from None
    except (ConnectionError, OSError) as exc:
        sock.close()
        if isinstance(exc, RemoteError):
            raise
        raise RemoteError(f"{endpoint}: the server closed the connection during the handshake: it is not a "
                          "ggml RPC server, or it speaks an incompatible protocol version") from None
    except RemoteError:
        sock.close()
        raise
    return sock, ServerInfo(endpoint, version, count)


def check_server(endpoint: str, timeout: float = CONNECT_TIMEOUT) -> ServerInfo:
    """Handshake with ``endpoint`` and hang up; RemoteError says what is wrong.

    For an endpoint this process is already connected to, the live connection answers (a
    server serves one client at a time, so a second connection would wait)."""
    with _links_lock:
        link = _links.get(endpoint.strip())
    if link is not None and link.lost is None:
        return link.info
    sock, info = _handshake(endpoint.strip(), timeout)
    sock.close()
    return info


# --------------------------------------------------------------------------- the relay


class _Link:
    """One checked connection to a server, relayed to ggml from a loopback port of ours."""

    def __init__(self, endpoint: str, sock: socket.socket, info: ServerInfo) -> None:
        self.endpoint = endpoint
        self.info = info
        self.lost: str | None = None
        self.poisoned = False       # a fabricated alloc size is cached in ggml: no reconnecting
        self._sock = sock
        self._lock = threading.Lock()
        self._hello = bytes(HELLO_REPLY_SIZE)
        self._cache: dict[tuple[int, bytes], bytes] = {}   # (command, request) -> reply, for stand-ins
        self._local: set[socket.socket] = set()
        self._stand_ins = 0
        self._prepare(sock)
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(4)
        self.relay_endpoint = "127.0.0.1:%d" % self._listener.getsockname()[1]
        threading.Thread(target=self._accept, name=f"parley-rpc-accept {endpoint}", daemon=True).start()
        threading.Thread(target=self._watch, name=f"parley-rpc-watch {endpoint}", daemon=True).start()

    def _prepare(self, sock: socket.socket) -> None:
        sock.settimeout(None)  # a graph can compute for long; keep-alive notices a vanished host
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        for name, value in (("TCP_KEEPIDLE", 10), ("TCP_KEEPINTVL", 5), ("TCP_KEEPCNT", 3)):
            if hasattr(socket, name):
                sock.setsockopt(socket.IPPROTO_TCP, getattr(socket, name), value)
        ours = _our_version()
        self._hello = bytes([ours[0], ours[1], ours[2], 0]) + bytes(HELLO_REPLY_SIZE - 4)

    def reconnect(self, timeout: float) -> None:
        """Use a server that is back at the same endpoint (same device count)."""
        if self._local:
            raise RemoteError(f"{self.endpoint}: the lost server is still in use here; close the models "
                              "loaded on it first")
        if self.poisoned:
            raise RemoteError(f"{self.endpoint}: the server was lost while memory was being planned; "
                              "restart Parley to use it again")
        sock, info = _handshake(self.endpoint, timeout)
        if info.device_count != self.info.device_count:
            sock.close()
            raise RemoteError(f"{self.endpoint}: the server now offers {info.device_count} devices instead "
                              f"of {self.info.device_count}; restart Parley to use it")
        with self._lock:
            self._prepare(sock)
            self._sock, self.info, self.lost = sock, info, None
        log.info("reconnected to %s", self.endpoint)

    # ------------------------------------------------------------------ threads

    def _accept(self) -> None:
        while True:
            try:
                local, _ = self._listener.accept()
            except OSError:
                return
            local.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self._local.add(local)
            threading.Thread(target=self._serve, args=(local,), name=f"parley-rpc {self.endpoint}",
                             daemon=True).start()

    def _serve(self, local: socket.socket) -> None:
        """Relay one ggml connection, message by message, until ggml hangs up."""
        try:
            while True:
                header = _recv_local(local, 9)
                cmd, size = header[0], _U64.unpack_from(header, 1)[0]
                if cmd == HELLO:  # answered here: the real handshake was made when connecting
                    _recv_local(local, size)
                    local.sendall(_U64.pack(HELLO_REPLY_SIZE) + self._hello)
                    continue
                if cmd not in _REPLY_SIZES:
                    self._mark_lost(f"ggml sent an unknown RPC command {cmd}")
                    return  # cannot be answered: ggml will stop this process, as it would have
                self._exchange(local, cmd, size)
        except (_LocalClosed, OSError):
            return
        finally:
            self._local.discard(local)
            local.close()

    def _exchange(self, local: socket.socket, cmd: int, size: int) -> None:
        """One request from ggml, its reply (the server's, or a stand-in once it is lost)."""
        small = size <= 4096
        request = _recv_local(local, size) if small else b""
        expected = _REPLY_SIZES[cmd]
        with self._lock:
            reply = None
            if self.lost is None:
                try:
                    self._sock.sendall(bytes([cmd]) + _U64.pack(size) + request)
                except OSError as exc:
                    self._lost_locked(_describe(exc))
            if not small:  # read all of it from ggml even when the server is gone: ggml is mid-send
                request = self._forward(local, size)
            try:
                if self.lost is None and expected is not None:
                    want = _U64.unpack_from(request, len(request) - 8)[0] if expected < 0 else expected
                    got = _U64.unpack(_recv_exact(self._sock, 8))[0]
                    if got != want:
                        raise ConnectionError(f"the server sent a malformed reply ({got} bytes, not {want})")
                    reply = _recv_exact(self._sock, want)
                    if cmd in (GET_ALIGNMENT, GET_MAX_SIZE, DEVICE_COUNT):
                        self._cache[(cmd, request)] = reply
            except (ConnectionError, OSError) as exc:
                self._lost_locked(_describe(exc))
            if self.lost is not None:
                reply = self._stand_in(cmd, request)
        if reply is not None:
            local.sendall(_U64.pack(len(reply)) + reply)

    def _forward(self, local: socket.socket, size: int) -> bytes:
        """Stream a large request body from ggml to the server (all of it is read from ggml
        even when the server goes away on the way); return its last 8 bytes."""
        left, tail = size, b""
        while left:
            block = _recv_local(local, min(_CHUNK, left))
            left -= len(block)
            tail = (tail + block)[-8:]
            if self.lost is None:
                try:
                    self._sock.sendall(block)
                except OSError as exc:
                    self._lost_locked(_describe(exc))
        return tail

    def _stand_in(self, cmd: int, request: bytes) -> bytes | None:
        """A harmless reply of the right size for a lost server (results are discarded)."""
        expected = _REPLY_SIZES[cmd]
        if expected is None:
            return None
        cached = self._cache.get((cmd, request))
        if cached is not None:
            return cached
        if cmd == GET_TENSOR:
            return bytes(_U64.unpack_from(request, len(request) - 8)[0])
        if cmd == GET_ALIGNMENT:
            return _U64.pack(64)
        if cmd == GET_MAX_SIZE:
            return _U64.pack(1 << 62)
        if cmd == BUFFER_GET_BASE:
            return _U64.pack(1 << 32)   # ggml asserts a non-NULL base; nothing reads it
        if cmd == SET_TENSOR_HASH:
            return b"\x01"              # "the server has it": nothing more is sent
        if cmd == ALLOC_BUFFER:         # a stand-in of the size asked for (packed request: u32 device, u64 size)
            self._stand_ins += 1
            return _U64.pack(STAND_IN_BUFFER + self._stand_ins) + request[4:12]
        if cmd == DEVICE_COUNT:
            return struct.pack("<I", self.info.device_count)
        if cmd == GET_ALLOC_SIZE:
            self.poisoned = True        # ggml caches this size for good
        return bytes(expected)          # zero memory, zero size, "not copied"

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
        for callback in list(_callbacks):
            threading.Thread(target=_notify, args=(callback, self.endpoint, reason), daemon=True).start()


def _notify(callback: Callable[[str, str], None], endpoint: str, reason: str) -> None:
    try:
        callback(endpoint, reason)
    except Exception:  # noqa: BLE001 - a listener's failure must not stop the relay
        log.exception("remote-device listener failed")


def _describe(exc: BaseException) -> str:
    if isinstance(exc, ConnectionResetError):
        return "the connection was reset (the server stopped)"
    if isinstance(exc, BrokenPipeError):
        return "the server closed the connection"
    if isinstance(exc, TimeoutError):
        return "the server stopped answering (keep-alive timed out)"
    return str(exc) or type(exc).__name__


_links: dict[str, _Link] = {}         # real endpoint -> link
_by_relay: dict[str, _Link] = {}      # the endpoint ggml knows -> link
_links_lock = threading.Lock()
_callbacks: list[Callable[[str, str], None]] = []


def _rpc_function(name: str, ctype: str) -> Any:
    ffi, lib = native.ffi(), native.lib()
    reg = lib.ggml_backend_reg_by_name(b"RPC")
    if reg == ffi.NULL:
        raise RemoteError("this build has no RPC backend (libggml-rpc is missing from the library folder)")
    fn = lib.ggml_backend_reg_get_proc_address(reg, name.encode())
    if fn == ffi.NULL:
        raise RemoteError(f"the RPC backend has no {name}")
    return ffi.cast(ctype, fn)


def connect(endpoints: Iterable[str], timeout: float = CONNECT_TIMEOUT) -> list[Device]:
    """Check and register each server's devices (once per process); return every remote device.

    RemoteError names the first endpoint that cannot be used; the ones before it stay connected.
    """
    native.load_backends()
    if _our_version()[0] != PROTOCOL_MAJOR_FOR_TABLE:
        raise RemoteError(f"this build speaks RPC protocol {_our_version()[0]}, the relay knows {PROTOCOL_MAJOR_FOR_TABLE}")
    for raw in endpoints:
        endpoint = raw.strip()
        parse_endpoint(endpoint)
        with _links_lock:
            link = _links.get(endpoint)
            if link is not None:
                if link.lost is not None:
                    link.reconnect(timeout)
                continue
            sock, info = _handshake(endpoint, timeout)
            link = _Link(endpoint, sock, info)
            reg = _rpc_function("ggml_backend_rpc_add_server", "parley_rpc_add_server_fn")(link.relay_endpoint.encode())
            if reg == native.ffi().NULL:
                raise RemoteError(f"{endpoint}: ggml could not register the server's devices")
            native.lib().ggml_backend_register(reg)
            _links[endpoint], _by_relay[link.relay_endpoint] = link, link
            log.info("connected to %s: %d device(s), protocol %s", endpoint, info.device_count,
                     ".".join(map(str, info.version)))
    return remote_devices()


def remote_devices() -> list[Device]:
    from .devices import list_devices

    return [d for d in list_devices() if d.remote]


def server_of(ggml_endpoint: str) -> str | None:
    """The server endpoint behind the endpoint ggml was given (a device's description)."""
    link = _by_relay.get(ggml_endpoint)
    return link.endpoint if link else None


def lost_reason(device: Device | str) -> str | None:
    """Why ``device``'s server (or the server at an endpoint) was lost; None while it is fine
    or for a local device."""
    endpoint = device if isinstance(device, str) else device.remote
    link = _links.get(endpoint) if endpoint else None
    return link.lost if link else None


def check(device: Device) -> None:
    """Raise RemoteDeviceLost when ``device`` is a remote device whose server was lost."""
    reason = lost_reason(device)
    if reason is not None:
        raise RemoteDeviceLost(f"the remote device {device.name} ({device.remote}) was lost: {reason}")


def on_lost(callback: Callable[[str, str], None]) -> None:
    """Call ``callback(endpoint, reason)`` (on a relay thread) whenever a server is lost; adding
    the same callback again changes nothing."""
    if callback not in _callbacks:
        _callbacks.append(callback)


def is_loopback(host: str) -> bool:
    """True for an address only this machine can reach (127.0.0.0/8, ::1, localhost)."""
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
