"""The Qt platform asked for on a Wayland session whose libwayland-client Qt 6.9's plugin cannot
use (Debian 11, Ubuntu 20.04: before 1.20): X11 through XWayland.  Checked here against this
system's real library (1.21) and a library built like 1.18 (the symbols, not
``wl_proxy_marshal_flags``); packaging/check.sh runs the bundle on a real Debian 11."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from parley.app.qt_platform import choose_platform, wayland_client_too_old
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
