"""Real Wayland compositors for tests, headless: sway (wlroots: offers a virtual keyboard) and
weston (does not), each on a private ``XDG_RUNTIME_DIR``, and foot as "another app" that writes
what it receives to a file.

sway refuses to run as root, so as root the compositor and foot run as ``nobody`` (the test,
as root, may still connect to the socket).  ``own_user=True`` runs them in a user namespace
instead, as uid 1000 there and still this user outside: then what sway runs from a key binding
reaches the test's own processes (a Parley whose socket is in a folder private to this user).
Needs the Debian packages sway, foot and weston.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.support.requirements import require

NOBODY = 65534
TOOLS = ("sway", "foot", "weston")


@dataclass
class Session:
    runtime_dir: Path
    display: str
    as_user: list[str]  # the prefix that runs a client the way the compositor runs

    @property
    def socket(self) -> Path:
        return self.runtime_dir / self.display

    def env(self) -> dict[str, str]:
        return {"XDG_RUNTIME_DIR": str(self.runtime_dir), "WAYLAND_DISPLAY": self.display}


def _user_prefix(own_user: bool) -> list[str]:
    if os.geteuid() != 0:
        return []
    if own_user:
        return ["unshare", "--user", "--map-user=1000", "--map-group=1000"]
    return ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]


def _private_dir(own_user: bool) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="parley-wayland-"))
    folder.chmod(0o700)
    if os.geteuid() == 0 and not own_user:
        os.chown(folder, NOBODY, NOBODY)
    return folder


@contextlib.contextmanager
def compositor(kind: str = "sway", config: str = "", own_user: bool = False) -> Iterator[Session]:
    """A headless ``sway`` or ``weston`` with its own runtime folder, stopped afterwards.
    ``config``: more lines for sway's configuration (key bindings)."""
    missing = [t for t in TOOLS if shutil.which(t) is None]
    require(not missing, f"missing Wayland test tools: {', '.join(missing)} (apt-get install sway foot weston)")
    as_user = _user_prefix(own_user)
    runtime = _private_dir(own_user)
    display = "wayland-parley"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(runtime), "XDG_RUNTIME_DIR": str(runtime)}
    if kind == "sway":
        config_file = runtime / "config"
        config_file.write_text("output HEADLESS-1 resolution 1280x720\n" + config)
        os.chmod(config_file, 0o644)
        if os.geteuid() == 0 and not own_user:
            os.chown(config_file, NOBODY, NOBODY)
        env |= {"WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1"}
        command = ["sway", "-c", str(config_file)]
    else:
        command = ["weston", "--backend=headless-backend.so", f"--socket={display}", "--idle-time=0"]
    log = (runtime / "compositor.log").open("w")
    argv = [*as_user, "env", "-i", *(f"{k}={v}" for k, v in env.items()), *command]
    proc = subprocess.Popen(argv, stdout=log, stderr=log)
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            names = [p.name for p in runtime.iterdir()]
            sockets = sorted(n for n in names if n.startswith("wayland-") and not n.endswith(".lock"))
            if sockets:
                display = sockets[0]
                break
            if proc.poll() is not None:
                break
            time.sleep(0.05)
        else:
            sockets = []
        assert sockets, f"{kind} did not start: " + (runtime / "compositor.log").read_text()[-2000:]
        yield Session(runtime, display, as_user)
    finally:
        _stop(proc)
        log.close()
        shutil.rmtree(runtime, ignore_errors=True)


def _stop(proc: subprocess.Popen[Any]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def focused_app(session: Session) -> str | None:
    """The app id of the window sway gives the keyboard focus (its IPC, through swaymsg)."""
    sockets = sorted(session.runtime_dir.glob("sway-ipc.*.sock"))
    if not sockets:
        return None
    done = subprocess.run(
        ["swaymsg", "-s", str(sockets[0]), "-t", "get_tree"], capture_output=True, text=True, timeout=10
    )
    found: list[str] = []

    def walk(node: dict[str, Any]) -> None:
        if node.get("focused") and node.get("app_id"):
            found.append(str(node["app_id"]))
        for child in node.get("nodes", []) + node.get("floating_nodes", []):
            walk(child)

    if done.returncode == 0:
        walk(json.loads(done.stdout))
    return found[0] if found else None


@contextlib.contextmanager
def receiving_terminal(session: Session) -> Iterator[Path]:
    """foot, focused (the only window), running ``cat`` into the file it yields: a line typed
    into it lands there when Return is typed."""
    out = session.runtime_dir / "typed.txt"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(session.runtime_dir), "LANG": "C.UTF-8", **session.env()}
    proc = subprocess.Popen(
        [*session.as_user, "env", "-i", *(f"{k}={v}" for k, v in env.items())]
        + ["foot", "-e", "sh", "-c", f"cat > {out}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while not out.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert out.exists(), "foot did not start"
        while focused_app(session) != "foot" and time.monotonic() < deadline:
            time.sleep(0.05)
        assert focused_app(session) == "foot", "foot did not get the keyboard focus"
        yield out
    finally:
        _stop(proc)
