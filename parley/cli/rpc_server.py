"""``parley rpc-server``: serve this machine's compute device to other Parley instances.

It is ggml's own RPC server from the same native build (same pins, same protocol version), so
a GPU machine runs it and a laptop adds it with ``--rpc HOST:PORT``.  ggml's server runs in a
child process behind Parley's validating front (``parley.engine.backend.rpc.server_front``): every message is
checked before ggml sees it, one client uses the device at a time (others wait, an idle one
gives way after ``--idle-timeout`` seconds), and a crash of ggml's server ends only that
client's session.  It runs until stopped (Ctrl-C).

The protocol has no encryption, and a client can make the server allocate memory and run
compute graphs: it binds to loopback unless told otherwise (``--allow-remote``), and then
requires the token it prints from every client on another machine.  Across machines, an SSH
tunnel is still the better choice (docs/remote.md).
"""

from __future__ import annotations

import argparse
import signal
import socket
import sys
from pathlib import Path

from ..engine.backend.rpc import endpoints, server_front
from ..engine.errors import ParleyError

WARNING = """\
WARNING: this RPC server listens on {host}:{port}, reachable from other machines.
  Never run the RPC server on an open network or in a sensitive environment! (ggml's own advice)
  ggml's RPC protocol has NO encryption: anyone on the network path sees the data sent to it, and
  any client with the token can use this machine's {device} (memory and compute).
  Prefer the default 127.0.0.1 and an SSH tunnel:
      ssh -N -L {port}:127.0.0.1:{port} user@this-machine   (then use --rpc 127.0.0.1:{port})
"""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("rpc-server", help="serve this machine's compute device to other Parley instances (ggml RPC)")
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="IPv4 address to listen on (default 127.0.0.1: this machine only; others need --allow-remote)",
    )
    p.add_argument(
        "--port", type=int, default=endpoints.DEFAULT_PORT, help=f"TCP port (default {endpoints.DEFAULT_PORT})"
    )
    p.add_argument(
        "--allow-remote",
        action="store_true",
        help="allow a --host other machines can reach (clients there must give the printed token)",
    )
    p.add_argument(
        "--token-file",
        type=Path,
        default=None,
        help="keep the token in this file (read when it holds one, else written with mode 0600)",
    )
    p.add_argument("--device", default="cpu", help="cpu (default) or a device name from `parley devices`")
    p.add_argument(
        "--threads", type=int, default=None, help="CPU threads for the CPU device (default: all cores, up to 8)"
    )
    p.add_argument(
        "--idle-timeout",
        type=float,
        default=60.0,
        help="seconds a client idle between messages keeps the device while another client waits "
        "(default 60; nobody waiting: no limit)",
    )
    p.add_argument(
        "--stall-timeout",
        type=float,
        default=30.0,
        help="seconds without a byte in the middle of a message before a client is dropped (default 30)",
    )
    p.add_argument(
        "--max-clients",
        type=int,
        default=8,
        help="connections held at once, the one using the device included (default 8)",
    )


def run(args: argparse.Namespace) -> int:
    from ..engine.backend.threads import default_threads

    host = _check(args)
    listener = _listen(host, args.port)
    device = server_front.local_device(args.device)
    loopback = server_front.is_loopback(host)
    token = server_front.load_or_create_token(args.token_file)
    if not loopback:
        print(WARNING.format(host=host, port=args.port, device=device.name), file=sys.stderr, flush=True)
    threads = args.threads or default_threads()
    options = server_front.Options(
        device=device.name,
        threads=threads,
        token=token,
        idle_timeout=args.idle_timeout,
        stall_timeout=args.stall_timeout,
        max_clients=args.max_clients,
    )
    # Ctrl-C and SIGTERM end the process at once; the compute process sees its stdin close and follows.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    front = server_front.Front(options, listener, _log)
    print(
        f"parley rpc-server: serving {device.name} ({device.description}) on {host}:{args.port}, "
        f"{threads} threads; Ctrl-C stops it",
        file=sys.stderr,
        flush=True,
    )
    if not loopback:
        print(f"parley rpc-server: token {token.hex()} (clients on other machines need it); use", file=sys.stderr)
        for address in _addresses(host):
            print(f"    --rpc {token.hex()}@{address}:{args.port}", file=sys.stderr)
        sys.stderr.flush()
    front.serve_forever()
    return 0


def _check(args: argparse.Namespace) -> str:
    """The host to listen on, once every flag makes sense; ParleyError says what does not."""
    host = "127.0.0.1" if args.host == "localhost" else args.host
    if not 0 < args.port < 65536:
        raise ParleyError(f"--port must be between 1 and 65535, not {args.port}")
    if args.threads is not None and args.threads < 1:
        raise ParleyError("--threads must be at least 1")
    if args.idle_timeout <= 0 or args.stall_timeout <= 0:
        raise ParleyError("--idle-timeout and --stall-timeout must be more than 0 seconds")
    if args.max_clients < 1:
        raise ParleyError("--max-clients must be at least 1")
    try:
        socket.inet_aton(host)
        if host.count(".") != 3:
            raise OSError
    except OSError:
        raise ParleyError(f"--host must be an IPv4 address such as 127.0.0.1 or 0.0.0.0, not {args.host!r}") from None
    if not server_front.is_loopback(host) and not args.allow_remote:
        raise ParleyError(
            f"--host {host} is reachable from other machines: add --allow-remote to do that on purpose "
            "(or keep 127.0.0.1 and tunnel over SSH)"
        )
    return host


def _listen(host: str, port: int) -> socket.socket:
    """The listening socket, bound (it starts listening once the compute process is ready)."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
    except OSError as exc:
        listener.close()
        raise ParleyError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return listener


def _addresses(host: str) -> list[str]:
    """Addresses other machines may use: ``host`` itself, or this machine's for 0.0.0.0."""
    if host != "0.0.0.0":
        return [host]
    try:
        found = {str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)}
    except OSError:
        found = set()
    return sorted(a for a in found if not server_front.is_loopback(a)) or ["THIS-MACHINE"]


def _log(line: str) -> None:
    print(f"parley rpc-server: {line}", file=sys.stderr, flush=True)
