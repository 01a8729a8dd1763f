"""``parley rpc-server``: serve this machine's compute device to other Parley instances.

It is ggml's own RPC server from the same native build (same pins, same protocol version), so
a GPU machine runs it and a laptop adds it with ``--rpc HOST:PORT``.  It serves one client at
a time and runs until stopped (Ctrl-C).

The protocol has no authentication and no encryption, and a client can make the server
allocate memory and run arbitrary compute graphs: it binds to loopback unless told otherwise,
and warns loudly when it is not.  To use it across machines, tunnel it over SSH (README).
"""

from __future__ import annotations

import argparse
import signal
import socket
import sys

from ..engine import devices as devices_mod
from ..engine import native, remote
from ..engine.errors import ParleyError

WARNING = """\
WARNING: this RPC server listens on {host}:{port}, reachable from other machines.
  ggml's RPC protocol has NO authentication and NO encryption: anyone who can reach this
  port can use this machine's {device} (memory and compute) and see the data sent to it.
  Only do this on a network you trust, or keep the default 127.0.0.1 and tunnel over SSH:
      ssh -N -L {port}:127.0.0.1:{port} user@this-machine   (then use --rpc 127.0.0.1:{port})
"""


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rpc-server", help="serve this machine's compute device to other Parley instances (ggml RPC)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only; see the warning for others)")
    p.add_argument("--port", type=int, default=remote.DEFAULT_PORT, help=f"TCP port (default {remote.DEFAULT_PORT})")
    p.add_argument("--device", default="cpu", help="cpu (default) or a device name from `parley devices`")
    p.add_argument("--threads", type=int, default=None, help="CPU threads for the CPU device (default: all cores, up to 8)")


def run(args: argparse.Namespace) -> int:
    from ..engine.speech import default_threads

    host = "127.0.0.1" if args.host == "localhost" else args.host
    if not 0 < args.port < 65536:
        raise ParleyError(f"--port must be between 1 and 65535, not {args.port}")
    if args.threads is not None and args.threads < 1:
        raise ParleyError("--threads must be at least 1")
    try:
        socket.inet_aton(host)
        if host.count(".") != 3:
            raise OSError
    except OSError:
        raise ParleyError(f"--host must be an IPv4 address such as 127.0.0.1 or 0.0.0.0, not {args.host!r}") from None
    device = _pick(args.device)
    _check_port_free(host, args.port)
    if not remote.is_loopback(host):
        print(WARNING.format(host=host, port=args.port, device=device.name), file=sys.stderr, flush=True)
    ffi, lib = native.ffi(), native.lib()
    start = remote._rpc_function("ggml_backend_rpc_start_server", "parley_rpc_start_server_fn")
    devs = ffi.new("ggml_backend_dev_t[1]", [lib.ggml_backend_dev_get(device.index)])
    threads = args.threads or default_threads()
    print(f"parley rpc-server: serving {device.name} ({device.description}) on {host}:{args.port}, "
          f"{threads} threads; Ctrl-C stops it", file=sys.stderr, flush=True)
    # The server loop is native and never returns on its own: let Ctrl-C and SIGTERM end the
    # process at once instead of waiting for Python to get control back.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    start(f"{host}:{args.port}".encode(), ffi.NULL, threads, 1, devs)
    raise ParleyError(f"the RPC server stopped: could not listen on {host}:{args.port}")


def _pick(name: str) -> devices_mod.Device:
    found = [d for d in devices_mod.list_devices() if not d.remote]
    wanted = name.strip().lower()
    for device in found:
        if (wanted == "cpu" and device.kind == "cpu") or device.name.lower() == wanted:
            return device
    raise ParleyError(f"no local device {name!r} (available: {', '.join(d.name for d in found)})")


def _check_port_free(host: str, port: int) -> None:
    """A clear error for a port in use (ggml's server would only say it failed)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind((host, port))
    except OSError as exc:
        raise ParleyError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    finally:
        probe.close()
