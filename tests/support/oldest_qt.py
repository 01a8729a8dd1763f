"""The oldest PySide6 any installer ships (packaging/oldest-qt-requirements.txt), beside the venv's.

``install()`` puts its wheels, pinned by hash and without their dependencies, into
``~/.cache/parley/qt/<version>/`` (``PARLEY_CACHE_DIR`` moves it, as for the native build) once;
the folder is used only when its marker names the requirements file's exact contents.
``environment(folder)`` is the environment in which a Python started from the venv imports that
PySide6 instead of its own: the folder first on ``PYTHONPATH``.  ``python -m tests.support.oldest_qt``
installs it ahead of time (``./setup.sh test``), so that the tests find it without a network.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
REQUIREMENTS = REPO / "packaging" / "oldest-qt-requirements.txt"


class OldestQtUnavailable(Exception):
    """The oldest shipped PySide6 is not installed and cannot be."""


def version() -> str:
    """The PySide6 version the requirements pin."""
    found = re.search(r"^PySide6==(\S+)", REQUIREMENTS.read_text(), re.MULTILINE)
    if found is None:
        raise OldestQtUnavailable(f"{REQUIREMENTS} pins no PySide6")
    return found.group(1)


def folder() -> Path:
    root = os.environ.get("PARLEY_CACHE_DIR")
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    base = Path(root).expanduser() if root else cache / "parley"
    return base / "qt" / version()


def _marker() -> str:
    return hashlib.sha256(REQUIREMENTS.read_bytes()).hexdigest()


def installed() -> Path | None:
    """The folder when it holds exactly what the requirements pin, else None."""
    target = folder()
    marker = target / ".requirements-sha256"
    return target if marker.is_file() and marker.read_text().strip() == _marker() else None


def install(download: bool = True) -> Path:
    """The folder with the oldest shipped PySide6, installed first when needed."""
    target = folder()
    target.parent.mkdir(parents=True, exist_ok=True)
    with (target.parent / f"{target.name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another test run may be installing it too
        if installed() is not None:
            return target
        if not download:
            raise OldestQtUnavailable(f"PySide6 {version()} is not in {target} (python -m tests.support.oldest_qt)")
        partial = target.with_name(target.name + ".part")
        shutil.rmtree(partial, ignore_errors=True)
        command = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--require-hashes",
                   "--only-binary=:all:", "--target", str(partial), "-r", str(REQUIREMENTS)]  # fmt: skip
        done = subprocess.run(command, capture_output=True, text=True, timeout=1800)
        if done.returncode != 0:
            raise OldestQtUnavailable(f"pip could not install PySide6 {version()}: {done.stderr.strip()[-2000:]}")
        (partial / ".requirements-sha256").write_text(_marker())
        shutil.rmtree(target, ignore_errors=True)
        partial.rename(target)
        return target


def environment(qt: Path, base: dict[str, str] | None = None) -> dict[str, str]:
    """An environment whose Python imports PySide6 from ``qt`` (and Parley from this checkout)."""
    env = dict(os.environ if base is None else base)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(qt), str(REPO), env.get("PYTHONPATH", "")) if p)
    return env


# The Qt modules Parley imports (tests/app/test_oldest_qt.py checks the list is whole).
MODULES = ("QtCore", "QtGui", "QtWidgets", "QtNetwork", "QtTextToSpeech")


def qt_names() -> set[str]:
    """Every name the imported PySide6 offers in ``MODULES``: its classes and functions, their
    members, and their enums' members (``Qt.ContrastPreference.HighContrast`` gives
    ``ContrastPreference`` and ``HighContrast``)."""
    import importlib

    names: set[str] = set()
    seen: set[int] = set()

    def members(cls: type, depth: int) -> None:
        if id(cls) in seen or depth > 3:
            return
        seen.add(id(cls))
        for name in dir(cls):
            names.add(name)
            value = getattr(cls, name, None)
            if isinstance(value, type):
                members(value, depth + 1)

    for module_name in MODULES:
        module = importlib.import_module(f"PySide6.{module_name}")
        for name in dir(module):
            names.add(name)
            value = getattr(module, name)
            if isinstance(value, type):
                members(value, 0)
    return names


if __name__ == "__main__":
    if sys.argv[1:] == ["--names"]:  # for the imported PySide6 (PYTHONPATH decides which)
        import json

        import PySide6

        print(json.dumps({"version": PySide6.__version__, "names": sorted(qt_names())}))
    else:
        print(f"PySide6 {version()} (the oldest an installer ships): {install()}")
