"""The Qt platform asked for on a Wayland session whose libwayland-client Qt 6.9's plugin cannot
use (Debian 11, Ubuntu 20.04: before 1.20): X11 through XWayland; and a platform that cannot
start at all, said in one line.  Checked here against this
system's real library (1.21) and a library built like 1.18 (the symbols, not
``wl_proxy_marshal_flags``); packaging/check.sh runs the bundle on a real Debian 11."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from parley.app.qt_platform import PLATFORM_FAILED, choose_platform, wayland_client_too_old
from tests.support.requirements import require

SESSION = {"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"}


@pytest.fixture(scope="module")
def old_wayland_client(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A shared library with libwayland-client 1.18's marshalling entry points and not 1.20's."""
    require(shutil.which("cc") is not None, "a C compiler (cc)")
    folder = tmp_path_factory.mktemp("wayland-1.18")
    source = folder / "client.c"
    source.write_text(
        "void wl_proxy_marshal(void *p, unsigned o) {}\nvoid *wl_display_connect(const char *n) { return 0; }\n"
    )
    library = folder / "libwayland-client.so.0"
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(library), str(source)], check=True)
    return library


def test_this_systems_wayland_client_is_new_enough_and_nothing_is_changed() -> None:
    require(Path("/usr/lib/x86_64-linux-gnu/libwayland-client.so.0").exists(), "libwayland-client0")
    assert not wayland_client_too_old()
    environ = dict(SESSION)
    assert choose_platform(environ) is None and "QT_QPA_PLATFORM" not in environ


def test_an_old_wayland_client_on_a_wayland_session_means_x11(old_wayland_client: Path) -> None:
    assert wayland_client_too_old(str(old_wayland_client))
    environ = dict(SESSION)
    assert choose_platform(environ, str(old_wayland_client)) == "xcb"
    assert environ["QT_QPA_PLATFORM"] == "xcb"


@pytest.mark.parametrize(
    "environ",
    [
        {**SESSION, "QT_QPA_PLATFORM": "wayland"},  # the user's choice stands
        {"WAYLAND_DISPLAY": "wayland-0"},  # no X server to fall back to: Qt's own message
        {"DISPLAY": ":0"},  # an X11 session
    ],
)
def test_an_old_wayland_client_changes_nothing_else(old_wayland_client: Path, environ: dict[str, str]) -> None:
    before = dict(environ)
    assert choose_platform(environ, str(old_wayland_client)) is None
    assert environ == before


@pytest.mark.parametrize(
    ("platform", "display", "reason"),
    [
        ("no-such-plugin", None, 'Could not find the Qt platform plugin "no-such-plugin"'),
        ("xcb", ":97", "could not connect to display :97"),  # no X server there
    ],
)
def test_a_platform_that_cannot_start_is_said_in_one_line_and_in_the_report(
    tmp_path: Path, platform: str, display: str | None, reason: str
) -> None:
    """Qt's own abort (a core dump, no report) becomes exit status 2 with the reason on stderr
    and in the self-test's report, within seconds."""
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": platform,
        "PARLEY_DATA_DIR": str(tmp_path / "data"),
        "PARLEY_CONFIG_DIR": str(tmp_path / "config"),
    }
    env.pop("WAYLAND_DISPLAY", None)
    if display is not None:
        env["DISPLAY"] = display
    report = tmp_path / "report.json"
    for args in (["--self-test", "--json", str(report)], []):
        done = subprocess.run(
            [sys.executable, "-m", "parley", *args], env=env, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == PLATFORM_FAILED, done.stdout + done.stderr
        said = [line for line in done.stderr.splitlines() if line.startswith("Parley could not open its window")]
        assert len(said) == 1 and reason in said[0] and f"({platform})" in said[0], done.stderr
    written = json.loads(report.read_text())
    assert written["exit_code"] == 2 and not written["passed"] and reason in written["reason"]
    assert not (tmp_path / "data").exists()
