"""The tray icon as a desktop panel sees it: a StatusNotifierItem on the session bus.

The real app (``python -m parley``, on Xvfb) runs against a private D-Bus session bus on which
``tests.support.sni_watcher`` plays the panel's StatusNotifierWatcher.  The test reads the item's
tooltip over D-Bus while a typed message is answered, and its menu (DBusMenu) as a panel shows it:
Dictate and Ask Parley with the keys Parley grabs system-wide.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from jeepney import DBusAddress, Properties, new_method_call
from jeepney.io.blocking import open_dbus_connection

from tests.support import x11
from tests.support.app_helpers import tiny_chat_model, tiny_settings  # noqa: F401 - fixture
from tests.support.lines import LineReader
from tests.support.requirements import require

pytestmark = pytest.mark.x11

REPO = Path(__file__).resolve().parents[2]
ITEM = "org.kde.StatusNotifierItem"


@pytest.fixture
def session_bus() -> Iterator[tuple[str, LineReader]]:
    """A private D-Bus session bus (its address), with a StatusNotifierWatcher on it."""
    require(shutil.which("dbus-daemon"), "dbus-daemon is not installed (Debian: dbus)")
    daemon = subprocess.Popen(
        ["dbus-daemon", "--session", "--nofork", "--print-address=1"], stdout=subprocess.PIPE, text=True
    )
    watcher = None
    try:
        address = LineReader(daemon.stdout).next(30).strip()  # type: ignore[arg-type]
        env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=address, PYTHONPATH=str(REPO))
        watcher = subprocess.Popen(
            [sys.executable, "-m", "tests.support.sni_watcher"], env=env, stdout=subprocess.PIPE, text=True, cwd=REPO
        )
        lines = LineReader(watcher.stdout)  # type: ignore[arg-type]
        assert lines.next(30).strip() == "ready"
        yield address, lines
    finally:
        for process in (watcher, daemon):
            if process is not None:
                process.kill()
                process.wait()


@pytest.fixture
def display() -> Iterator[str]:
    require(not x11.missing_tools(), f"not installed: {', '.join(x11.missing_tools())}")
    with x11.xvfb() as name:
        yield name


def tooltip(address: str, service: str, path: str) -> str:
    """The item's tooltip title, read over D-Bus as a panel reads it."""
    conn = open_dbus_connection(bus=address)
    try:
        reply = conn.send_and_get_reply(Properties(DBusAddress(path, bus_name=service, interface=ITEM)).get("ToolTip"))
    finally:
        conn.close()
    (_signature, (_icon, _pixmaps, title, _text)) = reply.body[0]
    return str(title)


def menu_shortcuts(address: str, service: str, path: str) -> dict[str, list[list[str]]]:
    """Each item of the item's menu (its DBusMenu, as a panel reads it): label -> shortcut."""
    conn = open_dbus_connection(bus=address)
    try:
        item = DBusAddress(path, bus_name=service, interface=ITEM)
        (_signature, menu_path) = conn.send_and_get_reply(Properties(item).get("Menu")).body[0]
        menu = DBusAddress(menu_path, bus_name=service, interface="com.canonical.dbusmenu")
        reply = conn.send_and_get_reply(new_method_call(menu, "GetLayout", "iias", (0, -1, ["label", "shortcut"])))
    finally:
        conn.close()
    _revision, (_id, _props, children) = reply.body
    items = [props for _signature, (_id, props, _children) in children]
    return {props["label"][1]: props.get("shortcut", ("aas", []))[1] for props in items if "label" in props}


def wait_for_tooltip(address: str, service: str, path: str, wanted: str, timeout: float = 120.0) -> list[str]:
    seen: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        title = tooltip(address, service, path)
        if not seen or seen[-1] != title:
            seen.append(title)
        if title == wanted:
            return seen
        time.sleep(0.05)
    raise AssertionError(f"the tray never said {wanted!r}; it said {seen}")


def test_the_tray_item_registers_and_follows_what_parley_does(
    tmp_path: Path,
    display: str,
    session_bus: tuple[str, LineReader],
    tiny_chat_model: Path,  # noqa: F811
) -> None:
    address, watcher = session_bus
    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.json").write_text(json.dumps(tiny_settings(tiny_chat_model)))
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    env = dict(
        os.environ,
        DISPLAY=display,
        QT_QPA_PLATFORM="xcb",
        DBUS_SESSION_BUS_ADDRESS=address,
        PARLEY_CONFIG_DIR=str(config),
        PARLEY_DATA_DIR=str(tmp_path / "data"),
        XDG_RUNTIME_DIR=str(runtime),
        PYTHONPATH=str(REPO),
    )
    app = subprocess.Popen([sys.executable, "-m", "parley"], env=env, cwd=REPO, stderr=subprocess.DEVNULL)
    try:
        line = watcher.next(120).split()
        assert line[0] == "registered", line
        service, path = line[1], line[2]
        wait_for_tooltip(address, service, path, "Parley: ready")
        keys = x11.XInput(display)
        window = int(
            subprocess.run(
                ["xdotool", "search", "--sync", "--onlyvisible", "--name", "Parley$"],
                env=dict(os.environ, DISPLAY=display),
                capture_output=True,
                text=True,
                timeout=60,
            ).stdout.split()[0]
        )
        geometry = subprocess.run(
            ["xdotool", "getwindowgeometry", "--shell", str(window)],
            env=dict(os.environ, DISPLAY=display),
            capture_output=True,
            text=True,
            timeout=60,
        ).stdout
        g = dict(line.split("=", 1) for line in geometry.split())
        # The text box spans the bottom of the window's right part, above the status bar.
        keys.click(int(g["X"]) + int(g["WIDTH"]) * 2 // 3, int(g["Y"]) + int(g["HEIGHT"]) - 60)
        keys.type("Hello")
        deadline = time.monotonic() + 120
        answering = False
        while not answering:  # Send waits for the model to load; the reply fills the context
            assert time.monotonic() < deadline, "the typed message was never answered"
            keys.tap("Return")
            for _ in range(10):
                answering = tooltip(address, service, path) == "Parley: answering…"
                if answering:
                    break
                time.sleep(0.05)
        seen = wait_for_tooltip(address, service, path, "Parley: ready")
        assert seen[0] == "Parley: answering…" and seen[-1] == "Parley: ready", seen
        # Dictate and Ask Parley show the keys listened for system-wide (X11 grabs them here).
        shortcuts = menu_shortcuts(address, service, path)
        assert shortcuts["Dictate"] == [["Control", "Alt", "Space"]], shortcuts
        assert shortcuts["Ask Parley"] == [["Control", "Alt", "Return"]], shortcuts
        assert shortcuts["Open Parley"] == [], shortcuts
    finally:
        app.kill()
        app.wait()
