"""A screen reader's view of the app under test: the AT-SPI bus, the accessible tree, the events.

``accessibility_bus()`` starts a private D-Bus session bus and, on it, AT-SPI's bus launcher,
which starts the accessibility bus and its registry on demand: the bus a desktop session runs
for Orca.  A Qt app started with that session bus (and ``QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1``, as
a running screen reader would switch it on) registers its windows there.

The reading is done by ``atspi_reader.py`` under the system's Python, which has Debian's
pyatspi (``python3-pyatspi``; the project's venv has no GObject bindings), in a process of its
own: the app answers its questions on the UI thread, so the test keeps Qt's event loop running
while it waits (``read_tree`` and ``EventLog`` take a ``wait_until`` such as qtbot's).

``unnamed`` is the check itself: every object a user can act on (a button, a field, a list, a
menu item, a tab...) needs a name with a letter or digit in it, since that is what a screen
reader says for it ("✕" is not a name).

Needs the Debian packages at-spi2-core, python3-pyatspi, dbus and (for the windows) xvfb.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from tests.support.lines import LineReader

SYSTEM_PYTHON = "/usr/bin/python3"
READER = Path(__file__).with_name("atspi_reader.py")
LAUNCHERS = ("/usr/libexec/at-spi-bus-launcher", "/usr/lib/at-spi2-core/at-spi-bus-launcher")
READ_TIMEOUT_MS = 60_000  # a whole window's tree takes about a second; only a hang reaches this

# The roles of the objects a user acts on, as AT-SPI names them.  Labels, panels, fillers and
# the like are read as text around them; scroll bars and splitter handles are left to the mouse.
INTERACTIVE = frozenset(
    {
        "push button",
        "toggle button",
        "check box",
        "radio button",
        "combo box",
        "text",
        "entry",
        "password text",
        "spin button",
        "slider",
        "list",
        "list item",
        "table",
        "tree table",
        "tree",
        "tree item",
        "table cell",
        "page tab",
        "page tab list",
        "menu",
        "menu item",
        "check menu item",
        "radio menu item",
        "link",
    }
)


def missing() -> list[str]:
    """What this machine lacks to read the tree, as Debian names the packages."""
    lacking = []
    if not any(os.access(path, os.X_OK) for path in LAUNCHERS):
        lacking.append("at-spi2-core")
    if (
        not os.access(SYSTEM_PYTHON, os.X_OK)
        or subprocess.run([SYSTEM_PYTHON, "-c", "import pyatspi"], capture_output=True).returncode
    ):
        lacking.append("python3-pyatspi")
    if shutil.which("dbus-daemon") is None:
        lacking.append("dbus")
    return lacking


@contextlib.contextmanager
def accessibility_bus() -> Iterator[dict[str, str]]:
    """A private session bus with AT-SPI's launcher on it; yields the environment an app and the
    reader need (``DBUS_SESSION_BUS_ADDRESS``, accessibility on)."""
    daemon = subprocess.Popen(
        ["dbus-daemon", "--session", "--nofork", "--print-address=1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    launcher = None
    try:
        address = LineReader(daemon.stdout).next(30).strip()  # type: ignore[arg-type]
        env = {"DBUS_SESSION_BUS_ADDRESS": address, "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1", "NO_AT_BRIDGE": "0"}
        launcher_path = next(path for path in LAUNCHERS if os.access(path, os.X_OK))
        launcher = subprocess.Popen(
            [launcher_path, "--launch-immediately"],
            env={**os.environ, **env},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        yield env
    finally:
        for process in (launcher, daemon):
            if process is not None:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()


def read_tree(pid: int, wait_until: Callable[..., Any]) -> dict[str, Any]:
    """The accessible tree of the application ``pid`` (this process, usually), read while
    ``wait_until(condition, timeout=ms)`` keeps its event loop answering."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:  # a pipe would fill up
        reader = subprocess.Popen([SYSTEM_PYTHON, str(READER), "tree", str(pid)], stdout=out, stderr=err, text=True)
        try:
            wait_until(lambda: reader.poll() is not None, timeout=READ_TIMEOUT_MS)
        finally:
            if reader.poll() is None:
                reader.kill()
                reader.wait()
        out.seek(0)
        err.seek(0)
        if reader.returncode:
            raise RuntimeError(f"the AT-SPI reader failed ({reader.returncode}): {err.read().strip()[-2000:]}")
        return json.loads(out.read())


def read_focused(pid: int, wait_until: Callable[..., Any], focus: Callable[[], None]) -> dict[str, Any]:
    """The tree of what holds the object that takes the focus when ``focus()`` runs (a popup
    menu: an application's tree lists its windows, not its popups, and a reader finds a menu by
    the focus moving into it)."""
    with tempfile.TemporaryFile("w+") as out:
        reader = subprocess.Popen(
            [SYSTEM_PYTHON, str(READER), "focused", str(pid)], stdout=subprocess.PIPE, stderr=out, text=True
        )
        lines = LineReader(reader.stdout)  # type: ignore[arg-type]
        got: list[str] = []

        def has(count: int) -> bool:
            line = lines.poll()
            if line:
                got.append(line)
            return len(got) >= count

        try:
            wait_until(lambda: has(1), timeout=READ_TIMEOUT_MS)  # "listening"
            focus()
            wait_until(lambda: has(2), timeout=READ_TIMEOUT_MS)
        finally:
            if reader.poll() is None:
                reader.kill()
            reader.wait()
        return json.loads(got[1])


def walk(node: dict[str, Any], path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], dict[str, Any]]]:
    """Every object under ``node`` with the path of roles and names that leads to it."""
    here = (*path, f"{node['role']} {node['name']!r}")
    yield here, node
    for child in node["children"]:
        yield from walk(child, here)


def has_a_name(node: dict[str, Any]) -> bool:
    return any(c.isalnum() for c in node["name"])


def unnamed(tree: dict[str, Any]) -> list[str]:
    """The interactive objects without a name, each as the path that leads to it."""
    return [" > ".join(path) for path, node in walk(tree) if node["role"] in INTERACTIVE and not has_a_name(node)]


def windows(tree: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The application's top-level objects (windows, dialogs, menus) by name."""
    return {child["name"]: child for child in tree["children"]}


class EventLog:
    """What a screen reader is told while it runs: announcements, focus, windows (JSON lines of
    ``atspi_reader.py events``)."""

    def __init__(self, pid: int, wait_until: Callable[..., Any]) -> None:
        self.lines: list[dict[str, Any]] = []
        self._wait_until = wait_until
        self._reader = subprocess.Popen(
            [SYSTEM_PYTHON, str(READER), "events", str(pid)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self._out = LineReader(self._reader.stdout)  # type: ignore[arg-type]
        first: list[str] = []
        wait_until(lambda: self._take(first, "listening"), timeout=READ_TIMEOUT_MS)

    def _take(self, into: list[str], until: str | None = None) -> bool:
        while line := self._out.poll():  # None: nothing yet; "": the reader has ended
            if line.strip() == "listening":
                into.append(line)
                continue
            self.lines.append(json.loads(line))
        return until is None or bool(into)

    def read(self) -> list[dict[str, Any]]:
        """The events so far."""
        self._take([])
        return self.lines

    def wait_for(self, condition: Callable[[list[dict[str, Any]]], bool], timeout_ms: int = READ_TIMEOUT_MS) -> None:
        self._wait_until(lambda: condition(self.read()), timeout=timeout_ms)

    def announcements(self) -> list[str]:
        return [e["text"] for e in self.read() if e["type"] == "object:announcement"]

    def close(self) -> None:
        if self._reader.stdin is not None:
            self._reader.stdin.close()
        try:
            self._reader.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._reader.kill()
            self._reader.wait()
        self._take([])
