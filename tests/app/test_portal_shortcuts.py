"""Global shortcuts through the XDG desktop portal (Wayland), against the documented interface.

No Wayland desktop with a GlobalShortcuts backend runs headless here (KDE's and GNOME's portal
backends need their compositors and a user session), so the conversation is tested against
``tests/support/fake_portal.py`` on a private session bus: a portal that follows the
interface's documentation (Request/Response, sessions, Activated/Deactivated).  What was not
run: a real desktop's portal, and its dialog where the user confirms or changes the keys.
"""

from __future__ import annotations

import os
import queue
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from parley.app.desktop.keysyms import parse_shortcut
from parley.app.desktop.shortcuts.portal import PortalShortcuts, PortalUnavailable, preferred_trigger
from tests.support.lines import LineReader
from tests.support.requirements import require

REPO = Path(__file__).resolve().parents[2]
COMBOS = {"dictate": parse_shortcut("Ctrl+Alt+Space"), "ask": parse_shortcut("Ctrl+Alt+Return")}


class Portal:
    def __init__(self, address: str, *options: str) -> None:
        env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=address, PYTHONPATH=str(REPO))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.support.fake_portal", *options],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=REPO,
        )
        self.lines = LineReader(self.process.stdout)  # type: ignore[arg-type]
        assert self.lines.next(30).strip() == "ready"

    def key(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()


# A session bus that starts no services: where a real xdg-desktop-portal is installed (the KDE
# tests need one), the standard session bus would start it for the first portal call.
BUS_CONFIG = """<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=/tmp</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""


@pytest.fixture
def bus(tmp_path: Path) -> Iterator[str]:
    require(shutil.which("dbus-daemon"), "dbus-daemon is not installed (Debian: dbus)")
    config = tmp_path / "bus.conf"
    config.write_text(BUS_CONFIG)
    daemon = subprocess.Popen(
        ["dbus-daemon", f"--config-file={config}", "--nofork", "--print-address=1"], stdout=subprocess.PIPE, text=True
    )
    try:
        yield LineReader(daemon.stdout).next(30).strip()  # type: ignore[arg-type]
    finally:
        daemon.kill()
        daemon.wait()


class Heard:
    """What the client reports, in order, from its thread."""

    def __init__(self) -> None:
        self.events: queue.Queue[object] = queue.Queue()

    def client(self, address: str) -> PortalShortcuts:
        return PortalShortcuts(
            lambda name, _focus: self.events.put(("press", name)),
            lambda name: self.events.put(("release", name)),
            lambda problems: self.events.put(("bound", problems)),
            bus_address=address,
        )

    def next(self) -> object:
        return self.events.get(timeout=15)


def test_triggers_are_written_as_the_shortcuts_specification_asks() -> None:
    assert preferred_trigger(parse_shortcut("Ctrl+Alt+Space")) == "CTRL+ALT+space"
    assert preferred_trigger(parse_shortcut("Meta+Shift+D")) == "SHIFT+LOGO+d"
    assert preferred_trigger(parse_shortcut("Ctrl+Alt+Return")) == "CTRL+ALT+Return"
    assert preferred_trigger(parse_shortcut("F9")) == "F9"


def test_bound_shortcuts_report_presses_and_releases(bus: str) -> None:
    portal, heard = Portal(bus), Heard()
    client = heard.client(bus)
    try:
        client.start(COMBOS)
        assert heard.next() == ("bound", {})
        assert sorted(portal.lines.next(15).split() for _ in COMBOS) == [
            ["bound", "ask", "CTRL+ALT+Return"],
            ["bound", "dictate", "CTRL+ALT+space"],
        ]
        for line in (
            "press dictate",
            "press dictate",
            "press-other ask",
            "release dictate",
            "press ask",
            "release ask",
        ):
            portal.key(line)
        # A second Activated while held is nothing; another session's shortcut is not ours.
        assert [heard.next() for _ in range(4)] == [
            ("press", "dictate"),
            ("release", "dictate"),
            ("press", "ask"),
            ("release", "ask"),
        ]
    finally:
        client.close()
        assert portal.lines.next(15).strip() == "closed"  # the session is closed with the client
        portal.stop()


def test_a_refused_binding_is_reported_for_each_shortcut(bus: str) -> None:
    portal, heard = Portal(bus, "--refuse"), Heard()
    client = heard.client(bus)
    try:
        client.start(COMBOS)
        kind, problems = heard.next()  # type: ignore[misc]
        assert kind == "bound" and set(problems) == {"dictate", "ask"}
        assert "the request was cancelled" in problems["dictate"]
    finally:
        client.close()
        portal.stop()


def test_a_portal_without_global_shortcuts_says_so(bus: str) -> None:
    portal = Portal(bus, "--no-shortcuts")
    try:
        with pytest.raises(PortalUnavailable, match="offers no global shortcuts"):
            Heard().client(bus)
    finally:
        portal.stop()


def test_no_portal_at_all_says_so(bus: str) -> None:
    with pytest.raises(PortalUnavailable, match="offers no global shortcuts"):
        Heard().client(bus)
