"""Every documented push-to-talk shortcut, through a real X server with key auto-repeat on.

QTest's key events never auto-repeat, so the offscreen tests (test_app_ui.py) could not see
that holding Ctrl+Space on a desktop restarted the recording at the first auto-repeat (issue
10).  Here Xvfb, whose keyboard auto-repeats as a desktop's does (660 ms delay, 25 a second),
gets keys and mouse buttons through XTEST (``tests/support/x11.py``), while the real window and
``Controller`` run on the real engines and record the PulseAudio virtual microphone.

Two processes: a process's QApplication keeps the platform it started with, and the rest of
the suite shares one offscreen QApplication (pytest-qt makes one per session).  So in the
normal session this module starts Xvfb and runs itself again in a child pytest whose
QApplication uses the xcb platform on that display (``PARLEY_X11_CHILD=1``;
``tests/support/x11_child.py``, which the other X11 modules share).  The child holds
the real tests; each test of the normal session reports the child's result for the scenario of
its name, so a failure names the shortcut that broke, and a tool or model that is missing
fails in a strict run (``tests/support/requirements.py``) and skips with the reason otherwise.

"Nothing happened" (no recording after a key that must be ignored, no character after a
release) is checked once a marker sent behind the keys under test has reached the window
(``all_input_handled``), not after a fixed wait: X delivers a client's events in order, so by
then everything those keys could cause has happened.

Run alone (the virtual microphone is shared, hence the lock):
    flock /tmp/parley-audio.lock python -m pytest tests/app/test_keys_x11.py -v
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support import x11
from tests.support.x11_child import CHILD, Results, check, child_scenarios, run_on_xvfb

pytestmark = pytest.mark.x11  # a real X server (Xvfb) driven through XTEST


SCENARIOS = child_scenarios(__file__)
CHILD_TIMEOUT_S = 600


# ====================================================================== the normal session

if not CHILD:

    @pytest.fixture(scope="module")
    def child_results(tmp_path_factory: pytest.TempPathFactory) -> Results:
        """Run the scenarios in a child pytest on a fresh Xvfb whose keyboard auto-repeats."""

        def auto_repeats(display: str) -> None:
            repeat = x11.auto_repeat(display)
            assert repeat.on and repeat.rate_hz > 0, f"Xvfb's key auto-repeat is off: {repeat}"

        report = tmp_path_factory.mktemp("x11") / "child.xml"
        return run_on_xvfb(__file__, report, timeout_s=CHILD_TIMEOUT_S, on_display=auto_repeats)

    @pytest.mark.slow
    @pytest.mark.parametrize("scenario", SCENARIOS)
    def test_on_a_real_x_server(child_results: Results, scenario: str) -> None:
        check(child_results, scenario)


# ====================================================================== the child, on Xvfb

else:
    from PySide6.QtCore import QEvent, QObject, QPoint, Qt, QTimer
    from PySide6.QtGui import QKeyEvent, QMouseEvent, QWindow
    from PySide6.QtWidgets import (
        QApplication,
        QDialog,
        QDialogButtonBox,
        QKeySequenceEdit,
        QTabWidget,
        QWidget,
    )

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

    HOLD_S = 3.8  # a sentence, held from start to end
    SHORT_HOLD_S = 2.0  # three times the auto-repeat delay: about 33 repeats
    TRANSCRIBE_TIMEOUT_MS = 60_000
    MARKER_KEY = "Pause"  # in Xvfb's default keymap; Parley binds nothing to it and it types nothing
    # The marker needs no time of its own: it arrives right behind the events sent before it, and
    # every auto-repeat of a held key is queued before that key's release.  The bound only turns
    # a window that stopped reading X events into a failure rather than a hang (5 s, as for the
    # other X round trips here: focus, exposure); reaching it never lets a test pass.
    MARKER_TIMEOUT_MS = 5_000

    class Takes:
        """What the controller reports: ``recording_changed`` emissions and transcripts, timed."""

        def __init__(self, controller: Controller) -> None:
            self.changes: list[tuple[float, bool]] = []
            self.transcripts: list[str] = []
            controller.recording_changed.connect(lambda on: self.changes.append((time.monotonic(), on)))
            controller.transcribed.connect(self.transcripts.append)

        @property
        def states(self) -> list[bool]:
            return [on for _, on in self.changes]

        def recording_seconds(self) -> float:
            (start, _), (end, _) = self.changes[:2]
            return end - start

    class Marker(QObject):
        """Sees the marker reach a window of this app: the release of ``MARKER_KEY``, or (with
        ``point``) the pointer arriving at ``point``.  An application filter sees each event at
        its ``QWindow`` once Qt has finished with every event before it."""

        def __init__(self, point: QPoint | None = None) -> None:
            super().__init__()
            self.point = point
            self.seen = False
            QApplication.instance().installEventFilter(self)

        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if not isinstance(watched, QWindow) or self.seen:
                return False
            if self.point is None:  # a release of the marker key (even a repeat's: its press came first)
                self.seen = (
                    isinstance(event, QKeyEvent)
                    and event.type() == QEvent.Type.KeyRelease
                    and event.key() == Qt.Key.Key_Pause
                )
            else:
                self.seen = (
                    isinstance(event, QMouseEvent)
                    and event.type() == QEvent.Type.MouseMove
                    and event.globalPosition().toPoint() == self.point
                )
            return False

        def remove(self) -> None:
            QApplication.instance().removeEventFilter(self)

    def all_input_handled(qtbot: Any, x: x11.XInput, record_property: Any, pointer_to: QPoint | None = None) -> None:
        """Send a marker behind the input sent so far and wait until the app has handled it.

        X delivers a client's events in the order they happened and Qt handles them one at a
        time, so when the marker reaches the window, everything the keys before it caused (a
        recording started or ended, a character typed) has happened: a check that nothing did,
        made now, is complete.  The marker is a tap of ``MARKER_KEY`` through XTEST, the path of
        the keys under test (so it also shows the window still has the keyboard); where another
        application has the keyboard, it is the pointer moving to ``pointer_to``, a point over
        this app's window where the pointer is not yet."""
        marker = Marker(pointer_to)
        sent = time.monotonic()
        try:
            if pointer_to is None:
                x.tap(MARKER_KEY)
            else:
                x.move(pointer_to.x(), pointer_to.y())
            qtbot.waitUntil(lambda: marker.seen, timeout=MARKER_TIMEOUT_MS)
        except qtbot.TimeoutError:
            pytest.fail(f"the window did not receive the marker within {MARKER_TIMEOUT_MS} ms", pytrace=False)
        finally:
            marker.remove()
        record_property("marker_ms", f"{(time.monotonic() - sent) * 1000:.0f}")

    @pytest.fixture(scope="module")
    def x() -> x11.XInput:
        assert QApplication.instance() is None or QApplication.instance().platformName() == "xcb"
        return x11.XInput(os.environ["DISPLAY"])

    @pytest.fixture
    def app(qtbot: Any, qapp: QApplication, tmp_path: Path, mic: Any, tiny_chat_model: Path) -> Controller:
        """The real window and controller; transcripts go into the text box (no chat reply)."""
        assert qapp.platformName() == "xcb", qapp.platformName()
        controller = make_controller(qtbot, tmp_path, **tiny_settings(tiny_chat_model, send_on_release=False))
        qtbot.waitExposed(controller.window)
        qtbot.waitUntil(controller.window.input_bar.talk_button.isEnabled, timeout=30_000)
        return controller

    @pytest.fixture
    def takes(app: Controller) -> Takes:
        return Takes(app)

    @pytest.fixture
    def space_spy() -> Any:
        spy = KeySpy(Qt.Key.Key_Space)
        yield spy
        spy.remove()

    def center(widget: QWidget) -> QPoint:
        return widget.mapToGlobal(widget.rect().center())

    def click(qtbot: Any, x: x11.XInput, widget: QWidget) -> None:
        """Point at ``widget`` and click it, as a person gives a window and widget the focus."""
        where = center(widget)
        x.click(where.x(), where.y())
        qtbot.waitUntil(lambda: widget.window().isActiveWindow(), timeout=5_000)

    def words(text: str) -> list[str]:
        return re.findall(r"[a-z']+", text.lower())

    def hold(
        qtbot: Any, x: x11.XInput, takes: Takes, keys: str, seconds: float, mic: Any = None, clip: Path | None = None
    ) -> None:
        """Hold ``keys`` for ``seconds`` (playing ``clip`` into the microphone once recording)."""
        start = time.monotonic()
        x.key_down(keys)
        try:
            qtbot.waitUntil(lambda: bool(takes.states), timeout=10_000)
            if clip is not None:
                play(qtbot, mic, clip)
            qtbot.wait(max(0, int((start + seconds - time.monotonic()) * 1000)))
            assert takes.states == [True], f"the recording stopped or restarted while {keys} was held"
        finally:
            x.key_up(keys)

    def test_ctrl_space_held_in_the_text_box(
        qtbot, x, app, takes, mic, question_clip, space_spy, record_property
    ) -> None:
        """Held through a sentence: one recording from press to release, the whole sentence
        heard, and the held key's repeats type nothing into the focused text box."""
        edit = app.window.input_bar.edit
        click(qtbot, x, edit)
        qtbot.waitUntil(edit.hasFocus, timeout=5_000)
        hold(qtbot, x, takes, "ctrl+space", HOLD_S, mic, question_clip)
        assert edit.toPlainText() == "", "the held key's repeats typed into the text box"
        released = time.monotonic()
        qtbot.waitUntil(lambda: bool(takes.transcripts), timeout=TRANSCRIBE_TIMEOUT_MS)
        assert takes.states == [True, False]
        assert takes.changes[1][0] >= released - 0.05  # it ended at the release, not before
        assert words(takes.transcripts[0]) == words(QUESTION)
        assert words(edit.toPlainText()) == words(QUESTION)
        assert space_spy.presses >= 10, "the X server did not auto-repeat the held key"
        record_property("recording_s", f"{takes.recording_seconds():.2f}")
        record_property("space_presses", space_spy.presses)
        record_property("marked_auto_repeat_by_qt", space_spy.marked)

    def test_ctrl_space_tapped_is_a_take(qtbot, x, app, takes, record_property) -> None:
        """A tap (press and release a few milliseconds apart, both read at once) still starts
        and ends one take, too short to send: what a press of the talk key means."""
        click(qtbot, x, app.window.input_bar.edit)
        x.tap("ctrl+space")
        qtbot.waitUntil(lambda: takes.states == [True, False], timeout=5_000)
        all_input_handled(qtbot, x, record_property)
        assert takes.states == [True, False]

    def test_space_held_outside_the_text_box(
        qtbot, x, app, takes, mic, question_clip, space_spy, record_property
    ) -> None:
        view = app.window.conversation_view
        click(qtbot, x, view)
        qtbot.waitUntil(lambda: not app.window.input_bar.edit.hasFocus(), timeout=5_000)
        hold(qtbot, x, takes, "space", HOLD_S, mic, question_clip)
        qtbot.waitUntil(lambda: bool(takes.transcripts), timeout=TRANSCRIBE_TIMEOUT_MS)
        assert takes.states == [True, False]
        assert words(takes.transcripts[0]) == words(QUESTION)
        assert space_spy.presses >= 10, "the X server did not auto-repeat the held key"
        record_property("recording_s", f"{takes.recording_seconds():.2f}")
        record_property("space_presses", space_spy.presses)
        record_property("marked_auto_repeat_by_qt", space_spy.marked)

    def test_space_in_the_text_box_types(qtbot, x, app, takes, space_spy, record_property) -> None:
        """In the text box Space is a space, typed or held (held, it repeats as in any editor)."""
        edit = app.window.input_bar.edit
        click(qtbot, x, edit)
        qtbot.waitUntil(edit.hasFocus, timeout=5_000)
        x.type("a b")
        qtbot.waitUntil(lambda: edit.toPlainText() == "a b", timeout=5_000)
        x.key_down("space")
        try:
            qtbot.wait(int(SHORT_HOLD_S * 1000))
        finally:
            x.key_up("space")
        all_input_handled(qtbot, x, record_property)
        assert edit.toPlainText().count(" ") >= 5, "the held Space did not repeat in the text box"
        assert edit.toPlainText().startswith("a b ") and edit.toPlainText().strip() == "a b"
        assert takes.states == [] and takes.transcripts == []

    def test_talk_button_held_with_the_mouse(qtbot, x, app, takes, mic, question_clip, record_property) -> None:
        button = app.window.input_bar.talk_button
        where = center(button)
        x.move(where.x(), where.y())
        x.mouse_down()
        try:
            qtbot.waitUntil(lambda: bool(takes.states), timeout=10_000)
            play(qtbot, mic, question_clip)
            assert takes.states == [True]
        finally:
            x.mouse_up()
        qtbot.waitUntil(lambda: bool(takes.transcripts), timeout=TRANSCRIBE_TIMEOUT_MS)
        assert takes.states == [True, False]
        assert words(takes.transcripts[0]) == words(QUESTION)
        record_property("recording_s", f"{takes.recording_seconds():.2f}")

    def test_custom_shortcut_f8(qtbot, x, app, takes, record_property) -> None:
        """A shortcut without a modifier, set through the controller as the Settings dialog does."""
        new = app.settings.copy()
        new.ptt_shortcut = "F8"
        app.settings_flow.apply(new)
        click(qtbot, x, app.window.input_bar.edit)
        spy = KeySpy(Qt.Key.Key_F8)
        try:
            hold(qtbot, x, takes, "F8", SHORT_HOLD_S)
        finally:
            spy.remove()
        qtbot.waitUntil(lambda: bool(takes.transcripts), timeout=TRANSCRIBE_TIMEOUT_MS)
        assert takes.states == [True, False]
        assert spy.presses >= 10, "the X server did not auto-repeat the held key"
        record_property("recording_s", f"{takes.recording_seconds():.2f}")
        record_property("f8_presses", spy.presses)

    def test_custom_shortcut_set_in_the_settings_dialog(qtbot, x, app, takes, record_property) -> None:
        """Ctrl+, opens Settings; the new key is pressed into the push-to-talk field; OK; then
        holding it records once, and Ctrl+Space no longer does."""
        click(qtbot, x, app.window.input_bar.edit)
        entered: list[str] = []

        def fill_in() -> None:  # runs inside the dialog's own event loop
            dialog = QApplication.activeModalWidget()
            if not isinstance(dialog, QDialog):
                QTimer.singleShot(50, fill_in)
                return
            try:
                field = dialog.findChild(QKeySequenceEdit)
                tabs = dialog.findChild(QTabWidget)
                page = next(i for i in range(tabs.count()) if tabs.widget(i).isAncestorOf(field))
                tab = tabs.tabBar().tabRect(page).center()
                where = tabs.tabBar().mapToGlobal(tab)
                x.click(where.x(), where.y())
                qtbot.waitUntil(field.isVisible, timeout=5_000)
                click(qtbot, x, field)
                qtbot.waitUntil(field.hasFocus, timeout=5_000)
                x.tap("ctrl+alt+r")
                qtbot.waitUntil(lambda: field.keySequence().toString() == "Ctrl+Alt+R", timeout=5_000)
                ok = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
                click(qtbot, x, ok)
                qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=5_000)
                entered.append(field.keySequence().toString())
            finally:
                if dialog.isVisible():
                    dialog.reject()
                    entered.append("(rejected)")

        QTimer.singleShot(0, fill_in)
        x.tap("ctrl+comma")
        qtbot.waitUntil(lambda: bool(entered), timeout=30_000)
        assert entered == ["Ctrl+Alt+R"] and app.settings.ptt_shortcut == "Ctrl+Alt+R"
        click(qtbot, x, app.window.input_bar.edit)
        hold(qtbot, x, takes, "ctrl+alt+r", SHORT_HOLD_S)
        qtbot.waitUntil(lambda: bool(takes.transcripts), timeout=TRANSCRIBE_TIMEOUT_MS)
        assert takes.states == [True, False]
        record_property("recording_s", f"{takes.recording_seconds():.2f}")
        x.key_down("ctrl+space")
        try:
            qtbot.wait(1000)
        finally:
            x.key_up("ctrl+space")
        all_input_handled(qtbot, x, record_property)
        assert takes.states == [True, False], "the old shortcut still records"
        assert app.window.input_bar.edit.toPlainText().strip() == ""

    def test_focus_loss_while_held_ends_the_recording(qtbot, x, app, takes, record_property) -> None:
        """Another application takes the keyboard while Ctrl+Space is held: the recording ends
        then (the key's release will go to that application), and nothing restarts it."""
        click(qtbot, x, app.window.input_bar.edit)
        with x11.other_application(x.display) as other:
            x.key_down("ctrl+space")
            try:
                qtbot.waitUntil(lambda: bool(takes.states), timeout=10_000)
                qtbot.wait(1000)  # past the first auto-repeats
                x.focus(other)
                qtbot.waitUntil(lambda: takes.states == [True, False], timeout=5_000)
                qtbot.wait(1000)  # the key still held, repeating into the other window
            finally:
                x.key_up("ctrl+space")
            # The other application has the keyboard: the marker is the pointer, over this window.
            all_input_handled(qtbot, x, record_property, pointer_to=center(app.window.input_bar.edit) + QPoint(3, 0))
            assert takes.states == [True, False], "the held key restarted the recording after the focus left"
        qtbot.waitUntil(lambda: bool(takes.transcripts), timeout=TRANSCRIBE_TIMEOUT_MS)
        assert takes.states == [True, False]
        assert not app.window.isActiveWindow()
        record_property("recording_s", f"{takes.recording_seconds():.2f}")

    def test_talk_key_held_ends_hands_free(qtbot, x, app, takes, space_spy, record_property) -> None:
        """Hands-free on: the talk key turns it off, and holding that key (repeating) records nothing."""
        app.set_hands_free(True)
        qtbot.waitUntil(lambda: app.hands_free.listening, timeout=10_000)
        click(qtbot, x, app.window.input_bar.edit)
        x.key_down("ctrl+space")
        try:
            qtbot.waitUntil(lambda: not app.hands_free.listening, timeout=5_000)
            qtbot.wait(int(SHORT_HOLD_S * 1000))
        finally:
            x.key_up("ctrl+space")
        all_input_handled(qtbot, x, record_property)
        assert not app.settings.hands_free and not app.hands_free.listening
        assert takes.states == [], "the press that ended hands-free (or its repeats) started a take"
        assert app.window.input_bar.edit.toPlainText() == ""
        assert space_spy.presses >= 10, "the X server did not auto-repeat the held key"
