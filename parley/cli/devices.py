"""``parley devices``: the compute devices the native build found, and which backends loaded."""

from __future__ import annotations

import argparse
import json

from ..engine.backend import auto_choice, devices, native
from ..engine.backend.rpc import endpoints, remote


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("devices", help="list compute devices and the loaded backend variant")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    add_rpc_option(p)


def add_rpc_option(p: argparse.ArgumentParser) -> None:
    """``--rpc [TOKEN@]HOST:PORT`` (repeatable): the devices of a `parley rpc-server` on another
    machine; ``--rpc-token-file FILE``: the token for those given without one."""
    p.add_argument(
        "--rpc",
        action="append",
        default=[],
        metavar="[TOKEN@]HOST:PORT",
        help="also use the device of a `parley rpc-server` there (repeatable; unencrypted, see docs/remote.md)",
    )
    p.add_argument(
        "--rpc-token-file",
        metavar="FILE",
        help="the token of the --rpc servers given without one (as `parley rpc-server --token-file` writes it)",
    )


def rpc_endpoints(args: argparse.Namespace) -> list[str]:
    """The ``--rpc`` endpoints, each with its token (from ``--rpc-token-file`` when it has none)."""
    token = remote.read_token_file(args.rpc_token_file) if args.rpc_token_file else None
    return [endpoints.with_token(endpoint, token) for endpoint in args.rpc]


def run(args: argparse.Namespace) -> int:
    if args.rpc:
        remote.connect(rpc_endpoints(args))
    found = devices.list_devices()
    choice = devices.select_device("auto")
    variant = devices.cpu_variant()
    problems = native.backend_problems(detail=True)
    if args.json:
        print(
            json.dumps(
                {
                    "devices": [d.__dict__ for d in found],
                    "auto": choice.device.name,
                    "fallback_reason": choice.fallback_reason,
                    "note": choice.note,
                    "auto_trials": auto_choice.known_trials(),
                    "cpu_variant": variant,
                    "backend_problems": problems,
                    "lib_dir": str(native.lib_dir()),
                },
                indent=2,
            )
        )
        return 0
    print(f"{'#':>2}  {'name':<10} {'type':<6} {'memory free/total':>20}  description")
    for d in found:
        mem = f"{d.memory_free / 2**30:.1f}/{d.memory_total / 2**30:.1f} GiB"
        mark = "*" if d.index == choice.device.index else " "
        print(f"{d.index:>2}{mark} {d.name:<10} {d.kind:<6} {mem:>20}  {d.description}")
    print()
    for d in found:
        if d.unusable:
            print(f"not used: {devices.unusable_text(d)}")
    why = choice.fallback_reason or choice.note
    print(f"auto selects: {choice.device.name}" + (f" ({why})" if why else ""))
    if choice.device.is_gpu and not choice.device.remote:
        print(f"  then each engine measures {choice.device.name} against the CPU once per model and uses the faster")
    trials = auto_choice.known_trials()
    if trials:
        print(f"measured (the CPU wins when {auto_choice.CPU_MARGIN}x faster):")
        for t in trials:
            print(
                f"  {t['engine']:<6} {t['model']}: {t['device']} {t['gpu_seconds']:.3f} s, CPU {t['cpu_seconds']:.3f} s"
                f" ({t['threads']} threads, {t['measured']}) -> {t['winner']}"
            )
    if variant:
        print(f"CPU backend variant: {variant}")
    for problem in problems:
        print(f"warning: {problem}")
    print(f"libraries: {native.lib_dir()}")
    return 0
