#!/usr/bin/env python3
"""Check one ``parley --self-test --json`` report of a frozen bundle (used by check.sh).

    python packaging/check_report.py REPORT.json --platform xcb [--bundle-prefix /opt/parley]
        [--device Vulkan0 | --cpu-instead-of Vulkan0] [--pack NAME=FILE]

Passes when the test passed and the report shows: a frozen bundle, the window shown on the
expected Qt platform, the clip transcribed to the expected words, a reply streamed in several
tokens, exactly one copy of each ggml library mapped (all from the bundle), and PortAudio
loaded from inside the bundle; with ``--device``, both engines on that device with no fallback;
with ``--cpu-instead-of``, both engines on the CPU, with a reason saying why that device was not used;
with ``--pack``, the model pack NAME (its file FILE) was measured by the self-test's model choice,
and either answered (chosen: it keeps up with speech here) or is named with its figures as too slow.
Prints one summary line; exit status 1 with the reasons if not.
Standard library only.
"""

from __future__ import annotations

import argparse
import json
import ntpath
import os
import re
import sys
from pathlib import Path


def problems(
    report: dict,
    platform: str,
    prefix: str | None,
    device: str | None = None,
    cpu_instead_of: str | None = None,
    pack: tuple[str, str] | None = None,
) -> list[str]:
    found = []

    def need(condition: bool, what: str) -> None:
        if not condition:
            found.append(what)

    need(report.get("passed") is True, f"the self-test failed: {report.get('reason')}")
    need(report.get("frozen") is True, "not a frozen bundle")
    need(report.get("window_shown") is True, "the window was not shown")
    need(report.get("qt_platform") == platform, f"Qt platform {report.get('qt_platform')!r}, expected {platform!r}")
    need(
        bool(report.get("transcript"))
        and report.get("word_error_rate") is not None
        and report["word_error_rate"] <= 0.35,
        f"transcript {report.get('transcript')!r} "
        f"(expected {report.get('expected_transcript')!r}, WER {report.get('word_error_rate')})",
    )
    need(
        report.get("reply_streamed") is True and (report.get("reply_tokens") or 0) > 1,
        f"no streamed reply ({report.get('reply_tokens')} tokens)",
    )
    libraries = report.get("native_libraries") or {}
    need(
        report.get("one_copy_of_each_native_library") is True and all(len(paths) == 1 for paths in libraries.values()),
        f"native libraries mapped: {libraries}",
    )
    bundle = report.get("bundle_dir") or ""
    need(
        bool(bundle) and all(under(p[0], bundle) for p in libraries.values() if p),
        f"a native library mapped from outside the bundle {bundle}",
    )
    need(report.get("portaudio_inside_bundle") is True, f"PortAudio from {report.get('portaudio')!r}, not the bundle")
    if prefix:
        need(under(bundle, prefix), f"bundle at {bundle}, expected under {prefix}")
    if device:
        models = report.get("models") or {}
        for role in ("speech", "chat"):
            fact = models.get(role) or {}
            need(
                fact.get("device") == device and not fact.get("fallback_reason"),
                f"{role} ran on {fact.get('device')!r} (fallback: {fact.get('fallback_reason')}), expected {device}",
            )
    if cpu_instead_of:
        models = report.get("models") or {}
        for role in ("speech", "chat"):
            fact = models.get(role) or {}
            reason = fact.get("fallback_reason") or ""
            need(
                fact.get("device") == "CPU" and reason.startswith(f"{cpu_instead_of} ") and "cannot be used" in reason,
                f"{role} ran on {fact.get('device')!r} (fallback: {reason or None}), expected the CPU with the reason"
                f" why {cpu_instead_of} cannot be used",
            )
    if pack:
        name, file = pack
        choice = report.get("model_choice") or ""
        chat = ((report.get("models") or {}).get("chat") or {}).get("path") or ""
        chosen = choice.startswith(f"{name}: ") and chat == file
        judged_slow = f"{name}: first token " in choice and "too slow here" in choice
        need(
            chosen or judged_slow,
            f"the model pack {name} was neither chosen (chat model {chat!r}) nor measured as too slow: {choice!r}",
        )
    return found


def under(path: str, folder: str) -> bool:
    """Path prefix test on the report's own paths (they may name another root, so no realpath)."""

    # A Windows report read on Linux (the Wine check) keeps Windows paths: compare them as such.
    flavour = ntpath if re.match(r"^[A-Za-z]:\\", folder) else os.path

    def norm(p: str) -> str:
        return flavour.normcase(flavour.normpath(p))

    return norm(path) == norm(folder) or norm(path).startswith(norm(folder).rstrip("\\/") + flavour.sep)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("report", type=Path)
    parser.add_argument("--platform", required=True, help="the Qt platform the run should have used")
    parser.add_argument("--bundle-prefix", help="where the bundle should be (e.g. /opt/parley)")
    parser.add_argument("--device", help="the device both engines must have run on, with no fallback (e.g. Vulkan0)")
    parser.add_argument(
        "--cpu-instead-of",
        metavar="DEVICE",
        help="the device that was asked for but cannot be used: both engines on the CPU, saying why (e.g. Vulkan0)",
    )
    parser.add_argument("--pack", metavar="NAME=FILE", help="a model pack the self-test must have measured and judged")
    args = parser.parse_args(argv)
    name, _, file = (args.pack or "").partition("=")
    pack = (name, file) if name and file else None
    try:
        report = json.loads(args.report.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        print(f"{args.report}: no readable report: {exc}", file=sys.stderr)
        return 1
    found = problems(report, args.platform, args.bundle_prefix, args.device, args.cpu_instead_of, pack)
    stages = report.get("stages") or {}
    print(
        f"{args.report.name}: {'OK' if not found else 'FAILED'} — {report.get('qt_platform')}, "
        f"window {report.get('window_shown_s')} s, “{report.get('transcript')}”, "
        f"{report.get('reply_tokens')} reply tokens (first after {stages.get('first token')} s), "
        f"CPU variant {report.get('cpu_variant')}, {len(report.get('native_libraries') or {})} ggml libraries "
        f"mapped once, PortAudio {report.get('portaudio')}, peak {report.get('peak_rss_mib')} MiB, "
        + ", ".join(f"{role} on {fact.get('device')}" for role, fact in (report.get("models") or {}).items())
        + (f"; model choice: {report.get('model_choice')}" if report.get("model_choice") else "")
    )
    for problem in found:
        print(f"  PROBLEM: {problem}", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
