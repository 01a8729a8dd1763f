"""A real X server for tests: Xvfb with key auto-repeat on, driven through XTEST like a person.

``xvfb()`` starts Xvfb on a free display (``-displayfd``: the server picks the number and
writes it back, so parallel runs never collide) and stops it afterwards; with -noreset, as the
last client leaving would otherwise reset the server under the next one connecting.  ``auto_repeat()``
reads the server's key auto-repeat settings (``xset q``): Xvfb's default is on, 660 ms delay,
25 repeats a second, as on a desktop.  ``XInput`` sends keys and mouse buttons with xdotool,
which uses the XTEST extension: the server handles them as it handles a real keyboard, so a
held key auto-repeats.  ``other_application()`` opens a window of another X client (xmessage)
that can take the keyboard focus away from the window under test.

Without a window manager the input focus follows the pointer, and Qt moves it to its window
when it is clicked: move the pointer over a widget and click it before sending keys.

Needs the Debian packages xvfb, xdotool, x11-xserver-utils (xset) and x11-utils (xmessage).
"""

from __future__ import annotations

import contextlib
import os
import re
import select
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass

TOOLS = ("Xvfb", "xdotool", "xset", "xmessage")
_TIMEOUT = 15.0  # seconds; only reached when the X server or a tool hangs


class X11Unavailable(RuntimeError):
    """No usable X server could be started here."""


def missing_tools() -> list[str]:
    return [tool for tool in TOOLS if shutil.which(tool) is None]


@contextlib.contextmanager
def xvfb(screen: str = "1280x800x24") -> Iterator[str]:
    """Start Xvfb on a free display and yield its name (":N"); stop it afterwards."""
    read_end, write_end = os.pipe()
    try:
        server = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write_end), "-screen", "0", screen, "-nolisten", "tcp", "-noreset"],
            pass_fds=(write_end,),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
    finally:
        os.close(write_end)
    try:
        with os.fdopen(read_end, "rb") as display_pipe:
            ready, _, _ = select.select([display_pipe], [], [], _TIMEOUT)
            number = display_pipe.readline().strip() if ready else b""
        if not number.isdigit():
            server.kill()
            _, stderr = server.communicate()
            raise X11Unavailable(f"Xvfb did not start: {stderr.decode(errors='replace').strip()[-500:]}")
        yield f":{number.decode()}"
    finally:
        if server.poll() is None:
            server.terminate()
            try:
                server.wait(timeout=_TIMEOUT)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        if server.stderr is not None:
            server.stderr.close()


@dataclass(frozen=True)
class AutoRepeat:
    on: bool
    delay_ms: int
    rate_hz: int


def auto_repeat(display: str) -> AutoRepeat:
    """The server's key auto-repeat settings, as ``xset q`` reports them."""
    report = _run(["xset", "q"], display).stdout
    on = re.search(r"auto repeat:\s+(on|off)", report)
    timing = re.search(r"auto repeat delay:\s+(\d+)\s+repeat rate:\s+(\d+)", report)
    if not on or not timing:
        raise X11Unavailable(f"xset q did not report the auto-repeat settings:\n{report}")
    return AutoRepeat(on.group(1) == "on", int(timing.group(1)), int(timing.group(2)))


class XInput:
    """Keyboard and mouse input through XTEST, as if a person used the machine.

    Keys use xdotool's names: "ctrl+space", "space", "F8", "ctrl+alt+r".  Coordinates are
    global (screen) pixels.
    """

    def __init__(self, display: str) -> None:
        self.display = display

    def key_down(self, keys: str) -> None:
        self._xdotool("keydown", keys)

    def key_up(self, keys: str) -> None:
        self._xdotool("keyup", keys)

    def tap(self, keys: str) -> None:
        self._xdotool("key", keys)

    def type(self, text: str) -> None:
        self._xdotool("type", "--delay", "20", text)

    def move(self, x: int, y: int) -> None:
        self._xdotool("mousemove", str(x), str(y))  # --sync would wait forever if already there

    def mouse_down(self, button: int = 1) -> None:
        self._xdotool("mousedown", str(button))

    def mouse_up(self, button: int = 1) -> None:
        self._xdotool("mouseup", str(button))

    def click(self, x: int, y: int) -> None:
        self.move(x, y)
        self._xdotool("click", "1")

    def focus(self, window_id: int) -> None:
        """Give the keyboard focus to the X window ``window_id`` (another client's, say)."""
        self._xdotool("windowfocus", "--sync", str(window_id))

    def _xdotool(self, *args: str) -> None:
        _run(["xdotool", *args], self.display)


@contextlib.contextmanager
def other_application(display: str, text: str = "another application") -> Iterator[int]:
    """Open another X client's window (xmessage) and yield its X window id; close it afterwards."""
    window = subprocess.Popen(
        ["xmessage", "-geometry", "+900+600", "-name", "parley-test-other", text],
        env={**os.environ, "DISPLAY": display},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        found = _run(
            ["xdotool", "search", "--sync", "--onlyvisible", "--classname", "parley-test-other"], display
        ).stdout.split()
        yield int(found[0])
    finally:
        window.terminate()
        window.communicate(timeout=_TIMEOUT)


def _run(command: list[str], display: str) -> subprocess.CompletedProcess:
    result = subprocess.run(
        command, env={**os.environ, "DISPLAY": display}, capture_output=True, text=True, timeout=_TIMEOUT, check=False
    )
    if result.returncode != 0:
        raise X11Unavailable(f"{' '.join(command)} failed (exit {result.returncode}): {result.stderr.strip()}")
    return result
