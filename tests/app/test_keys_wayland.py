"""The talk key held on a Wayland desktop: a headless sway, wtype's keyboard, Qt's own repeats.

On Wayland the compositor sends a key's press and release only; the repeats of a held key are
made by the client (Qt, from the compositor's repeat rate and delay).  So the in-window talk
key must hold one take through Qt's repeats here as it does through the X server's.  The
keys come from wtype (a virtual keyboard on sway's seat); the window and ``Controller`` run on
the real engines and record the PulseAudio virtual microphone.

As in ``test_keys_x11.py``, the normal session starts the compositor and runs this file again in
a child pytest whose QApplication uses the wayland platform (``PARLEY_WAYLAND_CHILD=1``).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support.requirements import require

pytestmark = pytest.mark.wayland
CHILD = os.environ.get("PARLEY_WAYLAND_CHILD") == "1"

if not CHILD:
    from tests.support.wayland import compositor

    @pytest.mark.slow
    def test_ctrl_space_held_on_sway_is_one_take_through_qt_s_own_repeats(tmp_path: Path) -> None:
        require(shutil.which("wtype"), "wtype is not installed (Debian: wtype)")
        with compositor("sway") as session:
            env = {**os.environ, **session.env(), "QT_QPA_PLATFORM": "wayland", "PARLEY_WAYLAND_CHILD": "1"}
            child = subprocess.run(
                [sys.executable, "-m", "pytest", __file__, "-p", "no:cacheprovider", "-q", "-rA", "-s"],
                cwd=Path(__file__).resolve().parents[2],
                env=env,
                capture_output=True,
                text=True,
                timeout=600,
            )
        print(child.stdout[-3000:])
        assert child.returncode == 0, child.stdout[-4000:] + child.stderr[-4000:]
        assert "1 passed" in child.stdout, child.stdout[-4000:]

else:
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    from parley.app.controller import Controller
    from tests.support.app_helpers import (  # noqa: F401 - fixtures
        QUESTION,
        make_controller,
        play,
        question_clip,
        tiny_chat_model,
        tiny_settings,
    )
    from tests.support.key_spy import KeySpy

    HOLD_S = 3.8

    def words(text: str) -> list[str]:
        return re.findall(r"[a-z']+", text.lower())

    def test_held_ctrl_space(
        qtbot: Any, qapp: QApplication, tmp_path: Path, mic: Any, question_clip: Path, tiny_chat_model: Path
    ) -> None:  # noqa: E501, F811
        assert qapp.platformName() == "wayland", qapp.platformName()
        controller: Controller = make_controller(
            qtbot, tmp_path, **tiny_settings(tiny_chat_model, send_on_release=False)
        )
        qtbot.waitExposed(controller.window)
        qtbot.waitUntil(controller.window.isActiveWindow, timeout=10_000)
        qtbot.waitUntil(controller.window.input_bar.talk_button.isEnabled, timeout=30_000)
        edit = controller.window.input_bar.edit
        edit.setFocus()
        qtbot.waitUntil(edit.hasFocus, timeout=5_000)
        changes: list[tuple[float, bool]] = []
        transcripts: list[str] = []
        controller.recording_changed.connect(lambda on: changes.append((time.monotonic(), on)))
        controller.transcribed.connect(transcripts.append)
        spy = KeySpy(Qt.Key.Key_Space)
        # One wtype process holds the keys (its virtual keyboard lives as long as it does); it
        # waits 0.5 s after announcing its keymap, which a client applies before keys that follow.
        hold_ms = str(int(HOLD_S * 1000))
        holder = subprocess.Popen(
            ["wtype", "-s", "500", "-M", "ctrl", "-P", "space", "-s", hold_ms, "-p", "space", "-m", "ctrl"]
        )
        try:
            try:
                qtbot.waitUntil(lambda: bool(changes), timeout=10_000)
            except qtbot.TimeoutError:
                shown = [w for w in QApplication.topLevelWidgets() if w.isVisible()]
                pytest.fail(
                    f"no recording: {spy.presses} Space presses, active {QApplication.activeWindow()}, shown {shown}"
                )
            play(qtbot, mic, question_clip)
            qtbot.waitUntil(lambda: holder.poll() is not None, timeout=int(HOLD_S * 1000) + 10_000)
        finally:
            spy.remove()
            if holder.poll() is None:
                holder.kill()
        released = time.monotonic()
        qtbot.waitUntil(lambda: bool(transcripts), timeout=60_000)
        assert [on for _, on in changes] == [True, False], f"not one take: {changes}"
        assert changes[1][0] >= released - 0.5, "the take ended before the key was let go"
        assert words(transcripts[0]) == words(QUESTION)
        assert words(edit.toPlainText()) == words(QUESTION), "the repeats typed into the text box"
        assert spy.presses >= 10 and spy.marked >= 9, f"Qt made no repeats: {spy.presses} presses, {spy.marked} marked"
        take_s = changes[1][0] - changes[0][0]
        print(f"space presses {spy.presses}, marked auto-repeat {spy.marked}, take {take_s:.2f} s")
