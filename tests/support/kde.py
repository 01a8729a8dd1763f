"""A real KDE Plasma 5.27 desktop for tests, headless: kwin_wayland on a virtual output, a private
D-Bus session bus, and xdg-desktop-portal with KDE's backend; a keyboard to press keys with as
the user would; and weston-terminal as "another app" that writes what it receives to a file.

``kde_desktop()`` starts it all in a private runtime folder (so a fresh ``kglobalshortcutsrc``:
nothing bound by an earlier run), as the test's own user, and stops it all afterwards:

- the same user as the test, since xdg-desktop-portal refuses a caller whose ``/proc/PID/root``
  it cannot open (a portal running as ``nobody`` refuses a root test), and kwin, unlike sway,
  runs as root;
- a plain copy of ``kwin_wayland``: Debian's carries the file capability ``cap_sys_resource``,
  and where the bounding set lacks it (containers) exec fails even for root;
- kwin hosts kglobalaccel itself, so it joins the private bus; the portals are started by the
  bus when first called (D-Bus activation), with the bus daemon's environment, which therefore
  names the KDE desktop and its Wayland socket.  Each of the bus and kwin leads a process group
  of its own, which is what is stopped afterwards (the portals inherit the bus's group).

``PortalKeys`` presses keys through the portal's RemoteDesktop keyboard (``NotifyKeyboardKeycode``,
evdev key codes): KDE's portal hands them to kwin as fake input, which kwin treats like a real
keyboard, its global shortcuts included.  An unsandboxed caller gets no dialog on Plasma 5.27.
foot dies on kwin's virtual output (SIGFPE: the output is -1 mm wide), hence weston-terminal.

Needs the Debian packages kwin-wayland, xdg-desktop-portal, xdg-desktop-portal-kde, qtwayland5
(without it KDE's portal backend aborts) and, for ``receiving_terminal``, weston.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parley.app.desktop import portal as portal_bus
from parley.app.desktop.portal import CALL_TIMEOUT_S, PORTAL, PORTAL_PATH
from tests.support.requirements import require

DISPLAY = "wayland-kde"
SERVICES = Path("/usr/share/dbus-1/services")
PACKAGES = "kwin-wayland xdg-desktop-portal xdg-desktop-portal-kde qtwayland5"
REMOTE_DESKTOP = "org.freedesktop.portal.RemoteDesktop"
# evdev key codes (linux/input-event-codes.h)
KEY_ENTER, KEY_LEFTCTRL, KEY_DOT, KEY_LEFTALT, KEY_SPACE = 28, 29, 52, 56, 57


@dataclass
class KdeSession:
    runtime_dir: Path

    @property
    def bus(self) -> str:
        return f"unix:path={self.runtime_dir}/bus"

    def env(self) -> dict[str, str]:
        """The environment of every process of the session (and of the bus's activated services)."""
        rt = str(self.runtime_dir)
        return {
            "PATH": "/usr/bin:/bin",
            "HOME": rt,
            "LANG": "C.UTF-8",
            "XDG_RUNTIME_DIR": rt,
            "XDG_CONFIG_HOME": f"{rt}/config",  # kwin keeps the global shortcuts here
            "XDG_DATA_HOME": f"{rt}/data",
            "XDG_CACHE_HOME": f"{rt}/cache",
            "XDG_CURRENT_DESKTOP": "KDE",  # xdg-desktop-portal picks kde.portal
            "XDG_SESSION_TYPE": "wayland",
            "KDE_FULL_SESSION": "true",
            "KDE_SESSION_VERSION": "5",
            "WAYLAND_DISPLAY": DISPLAY,
            "QT_QPA_PLATFORM": "wayland",
            "DBUS_SESSION_BUS_ADDRESS": self.bus,
        }


def _missing() -> list[str]:
    needed = {
        "kwin_wayland": shutil.which("kwin_wayland"),
        "dbus-daemon": shutil.which("dbus-daemon"),
        "xdg-desktop-portal": (SERVICES / "org.freedesktop.portal.Desktop.service").exists(),
        "xdg-desktop-portal-kde": (SERVICES / "org.freedesktop.impl.portal.desktop.kde.service").exists(),
        "qtwayland5": glob.glob("/usr/lib/*/qt5/plugins/platforms/libqwayland-generic.so")
        or glob.glob("/usr/lib/qt5/plugins/platforms/libqwayland-generic.so"),
    }
    return [name for name, found in needed.items() if not found]


@contextlib.contextmanager
def kde_desktop() -> Iterator[KdeSession]:
    """kwin_wayland (virtual output, 1280x720) and KDE's portal on a private bus, stopped afterwards."""
    missing = _missing()
    require(not missing, f"missing KDE test tools: {', '.join(missing)} (apt-get install {PACKAGES})")
    runtime = Path(tempfile.mkdtemp(prefix="parley-kde-"))
    runtime.chmod(0o700)
    session = KdeSession(runtime)
    env = session.env()
    kwin = runtime / "kwin_wayland"
    shutil.copyfile(str(shutil.which("kwin_wayland")), kwin)  # a copy has no file capability
    kwin.chmod(0o755)
    log = (runtime / "session.log").open("wb")
    groups: list[subprocess.Popen[bytes]] = []
    try:
        bus = subprocess.Popen(
            ["dbus-daemon", "--session", "--nofork", f"--address={session.bus}"],
            env=env,
            stdout=log,
            stderr=log,
            start_new_session=True,
        )
        groups.append(bus)
        _wait(lambda: (runtime / "bus").exists(), "dbus-daemon", bus, runtime)
        command = [str(kwin), "--virtual", "--no-lockscreen", "--width", "1280", "--height", "720"]
        compositor = subprocess.Popen(
            [*command, "--socket", DISPLAY],
            env=env | {"KWIN_COMPOSE": "Q"},  # QPainter: no OpenGL
            stdout=log,
            stderr=log,
            start_new_session=True,
        )
        groups.append(compositor)
        conn = portal_bus.open_bus(session.bus, AssertionError)
        try:
            _wait(lambda: _has_owner(conn, "org.kde.kglobalaccel"), "kwin_wayland", compositor, runtime)
            # The first call starts the portals; say so here if KDE's backend did not come up.
            version = _property(conn, "org.freedesktop.portal.GlobalShortcuts", "version")
            offered = isinstance(version, int) and version >= 1
            assert offered, "KDE's portal offers no GlobalShortcuts: " + _log_tail(runtime)
        finally:
            conn.close()
        yield session
    finally:
        for proc in reversed(groups):
            _stop_group(proc)
        log.close()
        shutil.rmtree(runtime, ignore_errors=True)


def _wait(ready: Callable[[], object], what: str, proc: subprocess.Popen[bytes], runtime: Path) -> None:
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if ready():
            return
        assert proc.poll() is None, f"{what} ended ({proc.returncode}): " + _log_tail(runtime)
        time.sleep(0.05)
    raise AssertionError(f"{what} did not start: " + _log_tail(runtime))


def _log_tail(runtime: Path) -> str:
    try:
        return (runtime / "session.log").read_text(errors="replace")[-3000:]
    except OSError:
        return "(no log)"


def _has_owner(conn: Any, name: str) -> bool:
    from jeepney.bus_messages import message_bus

    reply = conn.send_and_get_reply(message_bus.NameHasOwner(name), timeout=CALL_TIMEOUT_S)
    return bool(reply.body and reply.body[0])


def _property(conn: Any, interface: str, name: str) -> Any:
    from jeepney import DBusAddress, Properties

    reply = conn.send_and_get_reply(
        Properties(DBusAddress(PORTAL_PATH, bus_name=PORTAL, interface=interface)).get(name), timeout=CALL_TIMEOUT_S
    )
    return portal_bus.variant(reply.body[0]) if reply.header.message_type.name != "error" else None


def _stop_group(proc: subprocess.Popen[bytes]) -> None:
    """Stop ``proc`` and every process in its group (what the bus activated), killing stragglers."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        if _group_ended(proc, 5.0):
            break
    proc.wait(timeout=5)


def _group_ended(proc: subprocess.Popen[bytes], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        proc.poll()
        if not _live_members(proc.pid):
            return True
        time.sleep(0.05)
    return False


def _live_members(group: int) -> list[int]:
    """The processes of ``group`` still running: not zombies, which the bus's orphaned children
    become until init reaps them (here at its own pace, seconds)."""
    live = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if len(fields) > 2 and int(fields[2]) == group and fields[0] != "Z":
            live.append(int(entry.name))
    return live


class PortalKeys:
    """The portal's RemoteDesktop keyboard, pressing keys as a user would (evdev key codes)."""

    def __init__(self, session: KdeSession) -> None:
        from jeepney import DBusAddress

        self._conn = portal_bus.open_bus(session.bus, AssertionError)
        self._portal = DBusAddress(PORTAL_PATH, bus_name=PORTAL, interface=REMOTE_DESKTOP)
        self._session: str | None = None
        try:
            token = portal_bus.new_token()
            created = self._request("CreateSession", "a{sv}", (), {"session_handle_token": ("s", token)})
            self._session = portal_bus.variant(created.get("session_handle"))
            assert isinstance(self._session, str), f"no RemoteDesktop session: {created}"
            self._request("SelectDevices", "oa{sv}", (self._session,), {"types": ("u", 1)})
            started = self._request("Start", "osa{sv}", (self._session, ""), {})
            assert portal_bus.variant(started.get("devices")) == 1, f"no keyboard: {started}"
        except BaseException:
            self.close()
            raise

    def key(self, code: int, pressed: bool) -> None:
        from jeepney import new_method_call

        call = new_method_call(
            self._portal, "NotifyKeyboardKeycode", "oa{sv}iu", (self._session, {}, code, 1 if pressed else 0)
        )
        reply = self._conn.send_and_get_reply(call, timeout=CALL_TIMEOUT_S)
        assert reply.header.message_type.name != "error", f"the portal refused a key: {reply.body}"

    def chord(self, codes: list[int], hold_s: float = 0.1) -> None:
        """Press ``codes`` in order, hold them, release them in reverse (always, even on an error:
        keys left down stay down in kwin, and repeat)."""
        pressed: list[int] = []
        try:
            for code in codes:
                pressed.append(code)
                self.key(code, True)
            time.sleep(hold_s)
        finally:
            for code in reversed(pressed):
                self.key(code, False)

    def close(self) -> None:
        portal_bus.close_session(self._conn, self._session)
        self._conn.close()

    def _request(self, method: str, signature: str, args: tuple[Any, ...], options: dict[str, Any]) -> dict[str, Any]:
        from jeepney import new_method_call

        token = portal_bus.new_token()
        call = new_method_call(self._portal, method, signature, (*args, {"handle_token": ("s", token), **options}))
        return portal_bus.request(self._conn, call, token, 30.0, AssertionError, f"{method} was declined")


@dataclass
class Terminal:
    """What a focused weston-terminal received: lines typed into it, once Return ends them."""

    file: Path
    start: int  # what arrived before the test's own typing (the focus probe)

    def received(self) -> str:
        return self.file.read_text()[self.start :]

    def wait_for(self, text: str, timeout: float = 10.0) -> str:
        deadline = time.monotonic() + timeout
        while self.received() != text and time.monotonic() < deadline:
            time.sleep(0.05)
        return self.received()


@contextlib.contextmanager
def receiving_terminal(session: KdeSession) -> Iterator[Terminal]:
    """weston-terminal, focused (the only window), running ``cat`` into a file.  It is known to
    have the keyboard once a probe line (".", Return) pressed through the portal arrives."""
    require(shutil.which("weston-terminal"), "weston-terminal is not installed (Debian: weston)")
    out = session.runtime_dir / "typed.txt"
    shell = session.runtime_dir / "receive.sh"
    shell.write_text(f"#!/bin/sh\nexec cat > {out}\n")
    shell.chmod(0o755)
    proc = subprocess.Popen(
        ["weston-terminal"],
        env=session.env() | {"SHELL": str(shell)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 15
        while not out.exists() and time.monotonic() < deadline:
            assert proc.poll() is None, "weston-terminal ended"
            time.sleep(0.05)
        assert out.exists(), "weston-terminal did not start"
        keys = PortalKeys(session)
        try:
            while not out.read_text() and time.monotonic() < deadline:
                keys.chord([KEY_DOT])
                keys.chord([KEY_ENTER])
                probe_deadline = min(deadline, time.monotonic() + 1.0)
                while not out.read_text() and time.monotonic() < probe_deadline:
                    time.sleep(0.05)
        finally:
            keys.close()
        assert out.read_text(), "weston-terminal did not get the keyboard"
        yield Terminal(out, len(out.read_text()))
    finally:
        _stop_group(proc)
