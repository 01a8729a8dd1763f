"""One Parley per conversation database, with the real app started twice (offscreen).

Each test gives the app folders of its own (data, settings, runtime), so a developer's running
Parley is never involved.
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.app_process import REPO, App, app_environment

LAUNCH_S = 60.0  # the second launch: a QApplication and one local-socket round trip


@pytest.fixture
def folders(tmp_path: Path) -> dict[str, str]:
    return app_environment(tmp_path)


@pytest.fixture
def first(folders: dict[str, str]) -> Iterator[App]:
    app = App(folders)
    try:
        wait_for_socket(folders)
        yield app
    finally:
        app.stop()


def sockets(env: dict[str, str]) -> dict[Path, int]:
    """The instance sockets in the runtime folder, with their inodes."""
    folder = Path(env["XDG_RUNTIME_DIR"]) / "parley"
    return {path: path.stat().st_ino for path in folder.glob("instance-*.sock")} if folder.is_dir() else {}


def wait_for_socket(env: dict[str, str], other_than: dict[Path, int] | None = None, timeout: float = 60.0) -> Path:
    """A socket that is not among ``other_than`` (a new path, or a path made anew)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        new = [path for path, inode in sockets(env).items() if (other_than or {}).get(path) != inode]
        if new:
            return new[0]
        time.sleep(0.05)
    raise AssertionError(f"no new instance socket within {timeout:g} s")


def wait_for_listener(path: Path, timeout: float = 60.0) -> None:
    """Until something accepts connections on ``path`` (a socket file alone refuses them)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket(socket.AF_UNIX) as s:
            try:
                s.connect(str(path))
                return
            except OSError:
                time.sleep(0.05)
    raise AssertionError(f"nothing listens on {path} within {timeout:g} s")


def launch_again(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "parley"], env=env, capture_output=True, text=True, cwd=REPO, timeout=LAUNCH_S
    )


def test_a_second_launch_brings_the_first_forward_and_exits(first: App, folders: dict[str, str]) -> None:
    second = launch_again(folders)
    assert second.returncode == 0, second.stderr
    assert "Parley is already running" in second.stderr
    first.wait_for("another launch asked this Parley to come forward")
    assert first.process.poll() is None  # still the one Parley


def test_a_malformed_message_is_refused_and_the_instance_goes_on(first: App, folders: dict[str, str]) -> None:
    path = wait_for_socket(folders)
    for junk in (b"not json\n", b'{"argv": 1}\n', b"[" + b"1," * 10 + b"1]\n", b"x" * 70_000):
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(10)
            s.connect(str(path))
            s.sendall(junk)
            assert s.recv(16) == b""  # closed without an answer
    second = launch_again(folders)
    assert second.returncode == 0 and "already running" in second.stderr
    first.wait_for("another launch asked this Parley to come forward")


def test_a_lock_left_by_a_killed_parley_is_taken_over(folders: dict[str, str]) -> None:
    dead = App(folders)
    try:
        wait_for_socket(folders)
        dead.process.send_signal(signal.SIGKILL)
        dead.process.wait()
        assert (Path(folders["PARLEY_DATA_DIR"]) / "instance.lock").exists()  # left behind
        (left,) = sockets(folders)  # the dead one's socket file too, where nothing listens
        heir = App(folders)
        try:
            wait_for_listener(left)  # it took the lock over and listens on the same name
            second = launch_again(folders)
            assert second.returncode == 0 and "already running" in second.stderr
            heir.wait_for("another launch asked this Parley to come forward")
        finally:
            heir.stop()
    finally:
        dead.stop()


def test_another_database_is_another_parley(first: App, folders: dict[str, str], tmp_path: Path) -> None:
    before = sockets(folders)
    other = App(dict(folders, PARLEY_DATA_DIR=str(tmp_path / "other-data")))
    try:
        wait_for_socket(folders, other_than=before)  # its own socket: it runs on its own database
        assert other.process.poll() is None and len(sockets(folders)) == 2
    finally:
        other.stop()
