"""Starting Parley at login: an entry of Parley's own in the platform's autostart place.

- Linux and other XDG desktops: ``$XDG_CONFIG_HOME/autostart/parley.desktop`` (verified here).
- macOS: a LaunchAgent, ``~/Library/LaunchAgents/org.parley.Parley.plist``.
- Windows: the ``Parley`` value of ``HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run``.

The macOS and Windows entries are written as those platforms document them, and not verified
(no such machine here).  Parley writes and removes only an entry that is its own: an XDG file
without its ``X-Parley-Autostart`` mark (the user's own ``parley.desktop``) is left alone.
"""

from __future__ import annotations

import os
import plistlib
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from parley.engine.atomic import atomic_write

MARK = "X-Parley-Autostart=true"
LAUNCH_AGENT = "org.parley.Parley"


def command() -> list[str]:
    """How this Parley is started: the frozen app, the ``parley`` script, or this Python."""
    if getattr(sys, "frozen", False):
        return [sys.executable]
    script = shutil.which("parley")
    return [script] if script else [sys.executable, "-m", "parley"]


def xdg_entry_path() -> Path:
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "autostart" / "parley.desktop"


def xdg_entry(argv: list[str]) -> str:
    return (
        "[Desktop Entry]\nType=Application\nName=Parley\nComment=Local voice and chat assistant\n"
        f"Exec={shlex.join(argv)}\nIcon=parley\nTerminal=false\nX-GNOME-Autostart-enabled=true\n{MARK}\n"
    )


def is_ours(path: Path) -> bool:
    try:
        return path.is_file() and not path.is_symlink() and MARK in path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False


def enabled() -> bool:
    if sys.platform == "darwin":
        return _launch_agent_path().is_file()
    if sys.platform == "win32":
        return _run_value() is not None
    return is_ours(xdg_entry_path())


def set_enabled(on: bool) -> str | None:
    """Write or remove Parley's login entry; a sentence for the user when it cannot be done."""
    try:
        if sys.platform == "darwin":
            _set_launch_agent(on)
        elif sys.platform == "win32":
            _set_run_value(on)
        else:
            return _set_xdg_entry(on)
    except OSError as exc:
        return f"Starting Parley at login could not be {'set up' if on else 'turned off'}: {exc}"
    return None


def _set_xdg_entry(on: bool) -> str | None:
    path = xdg_entry_path()
    if (path.exists() or path.is_symlink()) and not is_ours(path):
        return f"{path} is not Parley's own entry, so Parley leaves it as it is."
    if on:
        path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_write(path) as f:
            f.write(xdg_entry(command()).encode())
    elif path.exists():
        path.unlink()
    return None


def _launch_agent_path() -> Path:
    return Path.home() / "Library" / "LaunchAgents" / f"{LAUNCH_AGENT}.plist"


def _set_launch_agent(on: bool) -> None:
    path = _launch_agent_path()
    if on:
        path.parent.mkdir(parents=True, exist_ok=True)
        plist = {"Label": LAUNCH_AGENT, "ProgramArguments": command(), "RunAtLoad": True}
        with atomic_write(path) as f:
            f.write(plistlib.dumps(plist))
    elif path.exists():
        path.unlink()


_RUN_KEY = r"Software\Microsoft\Windows\CurrentVersion\Run"


def _run_value() -> str | None:
    if sys.platform != "win32":
        return None
    import winreg

    try:
        with winreg.OpenKey(winreg.HKEY_CURRENT_USER, _RUN_KEY) as key:
            return str(winreg.QueryValueEx(key, "Parley")[0])
    except OSError:
        return None


def _set_run_value(on: bool) -> None:
    if sys.platform != "win32":
        raise OSError("the Run key exists on Windows only")
    import winreg

    with winreg.OpenKey(winreg.HKEY_CURRENT_USER, _RUN_KEY, 0, winreg.KEY_SET_VALUE) as key:
        if on:
            winreg.SetValueEx(key, "Parley", 0, winreg.REG_SZ, subprocess.list2cmdline(command()))
        elif _run_value() is not None:
            winreg.DeleteValue(key, "Parley")
