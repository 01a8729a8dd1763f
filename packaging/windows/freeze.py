#!/usr/bin/env python3
"""Freeze Parley for Windows under Wine and pack it: the steps of ``packaging/build_windows.sh``.

    python packaging/windows/freeze.py --native build/windows/_native

1. **Stage** (``build/windows/stage``): a copy of the checkout's ``parley`` package whose
   ``engine/_native`` is the Windows native folder (``build_native.py``), with ``packaging/``
   beside it, so ``parley.spec`` runs unchanged: it finds the native folder, the resources and
   the models where it always does.
2. **Freeze**: PyInstaller 6.22.3, run by the Windows CPython 3.11.9 under Wine
   (``winpython.py``: the pinned python.org build with the pinned Windows wheels), builds the
   one-folder app ``build/windows/pyinstaller/dist/Parley``: ``Parley.exe`` (windowed),
   ``parley-cli.exe`` (console), ``_internal/``.
3. **Check** the bundle: each native DLL once, in ``_internal/parley/engine/_native`` only
   (PyInstaller's dependency scan also copies what the cffi module links to the top).
4. **Pack**: ``dist/Parley-<v>-windows-x64-setup.exe`` (NSIS, ``parley.nsi``, Debian's
   makensis) and ``dist/Parley-<v>-windows-x64-portable.zip`` (top folder ``Parley/``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))

import winpython  # noqa: E402

BUILD = REPO / "build" / "windows"
STAGE = BUILD / "stage"
DIST = REPO / "dist"
NATIVE_DEST = Path("_internal") / "parley" / "engine" / "_native"
# Files of the checkout that parley.spec reads, besides the parley package.
STAGED_FILES = ("LICENSE", "requirements-models.txt", "pyproject.toml")
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache")
PYINSTALLER_TIMEOUT_S = 3600


def log(message: str) -> None:
    print(f"\033[1m[windows]\033[0m {message}", file=sys.stderr, flush=True)


def version() -> str:
    text = (REPO / "parley" / "__init__.py").read_text()
    match = re.search(r'__version__ = "([^"]+)"', text)
    if not match:
        raise SystemExit("no __version__ in parley/__init__.py")
    return match.group(1)


def stage(native: Path, target: Path = STAGE) -> Path:
    """The checkout as the Windows build sees it: Windows native folder, same everything else."""
    if not (native / "ggml-base.dll").is_file() or not list(native.glob("_ffi.*.pyd")):
        raise SystemExit(f"{native} is not a Windows native folder: run packaging/windows/build_native.py")
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    shutil.copytree(
        REPO / "parley", target / "parley", ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "_native")
    )
    shutil.copytree(native, target / "parley" / "engine" / "_native")
    shutil.copytree(REPO / "packaging", target / "packaging", ignore=IGNORED)
    for name in STAGED_FILES:
        shutil.copy2(REPO / name, target / name)
    return target


def freeze(staged: Path, python: Path, prefix: Path, logfile: Path) -> Path:
    """Run PyInstaller on the staged spec with the Windows Python under Wine; the bundle folder."""
    dist, work = BUILD / "pyinstaller" / "dist", BUILD / "pyinstaller" / "work"
    shutil.rmtree(dist, ignore_errors=True)
    # The staged checkout on sys.path before the spec runs: its collect_submodules("parley")
    # imports the package (the embeddable Python ignores PYTHONPATH).
    boot = (
        f"import sys; sys.path.insert(0, {winpython.windows_path(staged)!r}); "
        "import PyInstaller.__main__ as m; m.run(sys.argv[1:])"
    )
    args = [
        str(python / "python.exe"),
        "-c",
        boot,
        "--noconfirm",
        "--log-level",
        "WARN",
        "--distpath",
        winpython.windows_path(dist),
        "--workpath",
        winpython.windows_path(work),
        winpython.windows_path(staged / "packaging" / "parley.spec"),
    ]
    # Offscreen: the spec renders the icon with Qt; nothing here needs a display.
    with winpython.wine_server(prefix, QT_QPA_PLATFORM="offscreen") as env:
        status = winpython.run(args, env, staged, logfile, PYINSTALLER_TIMEOUT_S)
    bundle = dist / "Parley"
    if status != 0 or not (bundle / "Parley.exe").is_file():
        tail = "\n".join(logfile.read_text(errors="replace").splitlines()[-40:])
        raise SystemExit(f"PyInstaller failed (exit {status}):\n{tail}\nfull log: {logfile}")
    return bundle


def native_names(native: Path) -> set[str]:
    return {p.name.lower() for p in native.iterdir() if p.suffix.lower() in (".dll", ".pyd")}


def check_bundle(bundle: Path, native: Path) -> dict[str, object]:
    """Each native DLL exactly once, in the native folder; both programs; the models' manifest."""
    ours = native_names(native)
    problems = []
    for name in ("Parley.exe", "parley-cli.exe"):
        if not (bundle / name).is_file():
            problems.append(f"no {name}")
    inside = native_names(bundle / NATIVE_DEST) if (bundle / NATIVE_DEST).is_dir() else set()
    if inside != ours:
        problems.append(
            f"native folder differs from the build: missing {sorted(ours - inside)}, extra {sorted(inside - ours)}"
        )
    copies = [
        str(p.relative_to(bundle))
        for p in bundle.rglob("*")
        if p.is_file() and p.name.lower() in ours and p.parent != bundle / NATIVE_DEST
    ]
    if copies:
        problems.append(f"second copies of native DLLs: {copies}")
    if not (bundle / "_internal" / "MODELS.sha256").is_file():
        problems.append("no MODELS.sha256")
    if problems:
        raise SystemExit(f"{bundle}: " + "; ".join(problems))
    files = [p for p in bundle.rglob("*") if p.is_file()]
    return {"files": len(files), "bytes": sum(p.stat().st_size for p in files)}


def installer(bundle: Path, icon: Path | None, out: Path, logfile: Path) -> Path:
    """The NSIS installer (Debian's makensis, on Linux)."""
    if shutil.which("makensis") is None:
        raise SystemExit("makensis is missing (Debian: apt-get install nsis)")
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(out.name + ".partial")
    command = ["makensis", "-V2", f"-DVERSION={version()}", f"-DBUNDLE={bundle}", f"-DOUTFILE={partial}"]
    if os.environ.get("PARLEY_NSIS_COMPRESSOR"):  # zlib: a quick build to try things (larger)
        command.append(f"-DCOMPRESSOR={os.environ['PARLEY_NSIS_COMPRESSOR']}")
    if icon is not None and icon.is_file():
        command.append(f"-DICON={icon}")
    command.append(str(HERE / "parley.nsi"))
    with logfile.open("a") as fh:
        fh.write(f"\n$ {' '.join(command)}\n")
        fh.flush()
        done = subprocess.run(["nice", "-n", "10", *command], stdout=fh, stderr=subprocess.STDOUT)
    if done.returncode != 0:
        raise SystemExit(f"makensis failed; see {logfile}")
    partial.replace(out)
    return out


def portable_zip(bundle: Path, out: Path) -> Path:
    """The same folder as a .zip (top folder ``Parley/``), for running without installing."""
    partial = out.with_name(out.name + ".partial")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        for path in sorted(bundle.rglob("*")):
            if path.is_file():
                archive.write(path, (Path("Parley") / path.relative_to(bundle)).as_posix())
    partial.replace(out)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--native", type=Path, required=True, help="the Windows native folder (build_native.py --dest)")
    args = parser.parse_args(argv)
    BUILD.mkdir(parents=True, exist_ok=True)
    logfile = BUILD / "freeze.log"
    logfile.write_text("")
    timings: dict[str, float] = {}

    t = time.monotonic()
    python = winpython.prepare()
    prefix = winpython.build_prefix()
    timings["windows_python_s"] = round(time.monotonic() - t, 1)
    log(f"Windows Python: {python}")

    staged = stage(args.native)
    t = time.monotonic()
    log(f"freezing with PyInstaller under Wine (log: {logfile})")
    bundle = freeze(staged, python, prefix, logfile)
    timings["pyinstaller_s"] = round(time.monotonic() - t, 1)
    sizes = check_bundle(bundle, args.native)
    megabytes = int(sizes["bytes"]) / 1e6
    log(f"frozen app: {bundle} ({sizes['files']} files, {megabytes:.0f} MB; {timings['pyinstaller_s']} s)")

    name = f"Parley-{version()}-windows-x64"
    t = time.monotonic()
    icon = BUILD / "pyinstaller" / "work" / "parley" / "icons" / "parley.ico"
    setup = installer(bundle, icon, DIST / f"{name}-setup.exe", logfile)
    timings["installer_s"] = round(time.monotonic() - t, 1)
    log(f"{setup}: {setup.stat().st_size / 1e6:.0f} MB ({timings['installer_s']} s)")
    t = time.monotonic()
    portable = portable_zip(bundle, DIST / f"{name}-portable.zip")
    timings["zip_s"] = round(time.monotonic() - t, 1)
    log(f"{portable}: {portable.stat().st_size / 1e6:.0f} MB ({timings['zip_s']} s)")
    report = {
        "version": version(),
        "installer": {"path": str(setup), "bytes": setup.stat().st_size},
        "portable_zip": {"path": str(portable), "bytes": portable.stat().st_size},
        "bundle": sizes,
        "timings": timings,
    }
    (BUILD / "build-report.json").write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
