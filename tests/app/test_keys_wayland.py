"""The talk key held on a Wayland desktop: a headless sway, wtype's keyboard, Qt's own repeats.

On Wayland the compositor sends a key's press and release only; the repeats of a held key are
made by the client (Qt, from the compositor's repeat rate and delay).  So the in-window talk
key must hold one take through Qt's repeats here as it does through the X server's.  The
keys come from wtype (a virtual keyboard on sway's seat); the window and ``Controller`` run on
the real engines and record the PulseAudio virtual microphone.

As in ``test_keys_x11.py``, the normal session starts the compositor and runs this file again in
a child pytest whose QApplication uses the wayland platform (``tests/support/x11_child.py``).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support.requirements import require
from tests.support.x11_child import CHILD, Results, check, child_scenarios, run_child

pytestmark = pytest.mark.wayland
SCENARIOS = child_scenarios(__file__)

if not CHILD:
    from tests.support.wayland import compositor

    @pytest.fixture(scope="module")
    def child_results(tmp_path_factory: pytest.TempPathFactory) -> Results:
        """Run the scenarios in a child pytest on a headless sway."""
        require(shutil.which("wtype"), "wtype is not installed (Debian: wtype)")
        report = tmp_path_factory.mktemp("wayland") / "child.xml"
        with compositor("sway") as session:
            return run_child(__file__, {**session.env(), "QT_QPA_PLATFORM": "wayland"}, report, 600)

    @pytest.mark.slow
    @pytest.mark.parametrize("scenario", SCENARIOS)
    def test_on_sway(child_results: Results, scenario: str) -> None:
        check(child_results, scenario)

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
        qtbot: Any,
        qapp: QApplication,
        tmp_path: Path,
        mic: Any,
        question_clip: Path,
        tiny_chat_model: Path,
        record_property: Any,
    ) -> None:  # noqa: F811
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
        record_property("space_presses", spy.presses)  # reported by the normal session (x11_child.check)
        record_property("marked_auto_repeat", spy.marked)
        record_property("take_s", f"{take_s:.2f}")
