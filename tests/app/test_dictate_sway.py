"""A held Dictate on sway, through sway's own key bindings: the way a sway (or i3, Hyprland) user
binds Parley's keys where no GlobalShortcuts portal exists.

sway runs ``parley dictate --press`` on the key's press and ``parley dictate --release`` on its
release (``bindsym --no-repeat`` and ``bindsym --release``); each run hands its word to the
running Parley through the single-instance socket.  The real app runs on the same headless sway
(the wayland platform, the real engines, the PulseAudio virtual microphone); foot is the app
with the focus; wtype holds Ctrl+Alt+Space while the question plays.  The words must arrive in
foot, typed through sway's virtual keyboard.

sway and foot run in a user namespace (``compositor(own_user=True)``), so that the commands sway
runs are this user's and reach this user's Parley.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from parley.engine.textmetrics import word_error_rate
from tests.support.app_helpers import QUESTION, question_clip, tiny_chat_model  # noqa: F401 - fixtures
from tests.support.app_process import REPO, App, app_environment
from tests.support.requirements import require
from tests.support.wayland import compositor, receiving_terminal

pytestmark = [pytest.mark.wayland, pytest.mark.slow]

TYPED_S = 60.0


def bindings(tmp_path: Path, action: str, keys: str) -> str:
    """sway configuration lines that hold ``action`` on ``keys`` through the command line."""
    env = {
        "HOME": str(tmp_path),
        "XDG_RUNTIME_DIR": str(tmp_path / "run"),  # the app's: where its socket is
        "PARLEY_DATA_DIR": str(tmp_path / "data"),
        "PYTHONPATH": str(REPO),
    }
    command = ["env", "-i", *(f"{k}={v}" for k, v in env.items()), sys.executable, "-m", "parley", action]
    line = shlex.join(command)
    return f"bindsym --no-repeat {keys} exec {line} --press\nbindsym --release {keys} exec {line} --release\n"


def test_dictate_held_through_sway_bindings_is_typed_into_foot(
    tmp_path: Path,
    tiny_chat_model: Path,  # noqa: F811 - a fixture
    mic,
    question_clip: Path,  # noqa: F811 - a fixture
) -> None:
    require(shutil.which("wtype"), "wtype is not installed (Debian: wtype)")
    require(shutil.which("unshare"), "unshare is not installed (Debian: util-linux)")
    env = app_environment(
        tmp_path,
        platform="wayland",
        settings={
            "chat_model": str(tiny_chat_model),
            "microphone": "pulse",
            "told_about_global_shortcuts": True,
            "close_to_tray": False,
        },
    )
    with compositor("sway", config=bindings(tmp_path, "dictate", "Ctrl+Mod1+space"), own_user=True) as session:
        env["WAYLAND_DISPLAY"] = str(session.socket)
        keys_env = {"PATH": "/usr/bin:/bin", "WAYLAND_DISPLAY": str(session.socket)}
        app = App(env)
        try:
            app.wait_for("the speech model is ready")
            with receiving_terminal(session) as typed:  # foot opens last, so it has the focus
                # One wtype holds the keys while the question plays (its virtual keyboard lives as
                # long as it does); sway runs the press binding at once.
                hold_ms = 1000 + int(1000 * clip_seconds(question_clip))
                holder = subprocess.Popen(
                    ["wtype", "-s", "300", "-M", "ctrl", "-M", "alt", "-P", "space", "-s", str(hold_ms)]
                    + ["-p", "space", "-m", "alt", "-m", "ctrl"],
                    env=keys_env,
                )
                try:
                    app.wait_for("dictate --press from the command line", timeout=30)
                    mic.play(question_clip)
                    holder.wait(timeout=hold_ms / 1000 + 30)
                finally:
                    if holder.poll() is None:
                        holder.kill()
                assert holder.returncode == 0
                app.wait_for("dictate --release from the command line", timeout=30)
                app.wait_for("characters in", timeout=TYPED_S)  # the typist's log: all sent
                # A new virtual keyboard's first key can come before foot has applied its keymap
                # (and is then lost): wtype waits first.
                subprocess.run(["wtype", "-s", "500", "-k", "Return"], env=keys_env, check=True, timeout=30)
                deadline = time.monotonic() + 10
                while not typed.read_text("utf-8").strip() and time.monotonic() < deadline:
                    time.sleep(0.05)
                text = typed.read_text("utf-8")
            assert word_error_rate(QUESTION, text) < 0.35, "".join(app.lines[-15:]) + repr(text)
            assert not any("Parley had the focus" in line for line in app.lines)
            # What a binding costs before Parley hears of it: one run of the command (a release
            # with no take is a no-op), printed for the record.
            release = [sys.executable, "-m", "parley", "dictate", "--release"]
            runs = []
            for _ in range(3):
                began = time.monotonic()
                assert subprocess.run(release, env=env, cwd=REPO, timeout=60).returncode == 0
                runs.append(time.monotonic() - began)
            print(f"`parley dictate --release` took {1000 * sorted(runs)[1]:.0f} ms (median of 3)")
        finally:
            app.stop()


def clip_seconds(clip: Path) -> float:
    import wave

    with wave.open(str(clip)) as w:
        return w.getnframes() / w.getframerate()
