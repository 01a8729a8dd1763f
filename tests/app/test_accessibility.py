"""Parley as a screen reader meets it: every window's objects read through AT-SPI, and what the
reader is told during a spoken turn.

Orca reads an application through AT-SPI, the accessibility bus of the desktop session; Qt's
bridge puts each window's objects there (on xcb: Qt runs the bridge on X11 and Wayland only).  So
the normal session starts a private session bus with AT-SPI's launcher on it
(``tests/support/atspi.py``) and Xvfb, and runs this module again in a child pytest whose
QApplication uses both (``tests/support/x11_child.py``).  The child opens each window of the
real app (the main window, Settings and each of its pages, the Model library, the quick-ask
window, the dictation history, the tray menu, the first-start page) and has the system Python's pyatspi read the whole
tree, as a screen reader does; any object a user acts on without a name fails the test, by its
path.  The last scenario holds the talk key through XTEST while a question plays into the
virtual microphone and logs what the reader is told, from the first key press to the reply.

Run alone (the virtual microphone is shared, hence the lock):
    flock /tmp/parley-audio.lock python -m pytest tests/app/test_accessibility.py -v
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from tests.support import atspi, x11
from tests.support.requirements import require
from tests.support.x11_child import CHILD, check, child_scenarios, run_on_xvfb

pytestmark = pytest.mark.x11

SCENARIOS = child_scenarios(__file__)
CHILD_TIMEOUT_S = 600


# ====================================================================== the normal session

if not CHILD:

    @pytest.fixture(scope="module")
    def child_results(tmp_path_factory: pytest.TempPathFactory) -> Any:
        require(not atspi.missing(), f"not installed: {', '.join(atspi.missing())}")
        report = tmp_path_factory.mktemp("atspi") / "child.xml"
        with atspi.accessibility_bus() as bus:
            return run_on_xvfb(__file__, report, bus, CHILD_TIMEOUT_S)

    @pytest.mark.slow
    @pytest.mark.parametrize("scenario", SCENARIOS)
    def test_through_at_spi(child_results: Any, scenario: str) -> None:
        check(child_results, scenario)


# ====================================================================== the child, on Xvfb

else:
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtWidgets import QApplication

    from parley.app.controller import Controller
    from parley.app.desktop.tray import Tray
    from parley.app.ui.announcements import spoken_text
    from tests.support.app_helpers import (  # noqa: F401 - fixtures
        QUESTION,
        make_controller,
        paused_request,
        play,
        question_clip,
        tiny_chat_model,
        tiny_settings,
        wait_idle,
    )

    PID = os.getpid()

    def words(text: str) -> list[str]:
        return re.findall(r"[a-z']+", text.lower())

    def tree(qtbot: Any) -> dict[str, Any]:
        return atspi.read_tree(PID, qtbot.waitUntil)

    def window(qtbot: Any, name: str) -> dict[str, Any]:
        """The top-level object ``name`` (a window, a dialog, a menu) as the reader sees it."""
        found = atspi.windows(tree(qtbot))
        assert name in found, f"no window {name!r} on the accessibility bus: {sorted(found)}"
        return found[name]

    def names(node: dict[str, Any]) -> set[str]:
        return {n["name"] for _, n in atspi.walk(node)}

    def assert_all_named(node: dict[str, Any], record_property: Any, what: str) -> None:
        missing = atspi.unnamed(node)
        interactive = [n for _, n in atspi.walk(node) if n["role"] in atspi.INTERACTIVE]
        record_property(f"{what}_interactive_objects", len(interactive))
        assert not missing, f"{len(missing)} unnamed in {what}:\n" + "\n".join(missing)

    @pytest.fixture
    def app(qtbot: Any, qapp: QApplication, tmp_path: Path, tiny_chat_model: Path) -> Controller:
        assert qapp.platformName() == "xcb", qapp.platformName()
        controller = make_controller(qtbot, tmp_path, **tiny_settings(tiny_chat_model, max_tokens=12))
        qtbot.waitExposed(controller.window)
        return controller

    def test_main_window(qtbot, app, record_property) -> None:
        """With a conversation (each message's buttons) and a notice showing."""
        app.replies.send("Hello there")
        wait_idle(qtbot, app)
        app.window.show_notice("A problem that needs more than the status bar.")
        main = window(qtbot, app.window.windowTitle())
        assert_all_named(main, record_property, "main_window")
        assert {"Message", "Search conversations", "Conversations", "Hold to talk", "Dismiss the notice"} <= names(main)

    def test_settings_and_each_of_its_pages(qtbot, app, record_property) -> None:
        app.open_settings()
        dialog = app.settings_flow.dialog
        assert dialog is not None
        qtbot.waitExposed(dialog)
        library = dialog.models_page
        for index in range(dialog.tabs.count()):
            dialog.tabs.setCurrentIndex(index)
            if dialog.tabs.currentWidget().isAncestorOf(library):
                qtbot.waitUntil(lambda: library.items() != [], timeout=60_000)  # the scan filled the list
            page = dialog.tabs.tabText(index).replace("&", "").replace(" ", "_").lower()
            assert_all_named(window(qtbot, "Settings"), record_property, f"settings_{page}")
        dialog.reject()

    def test_quick_ask_window(qtbot, app, record_property) -> None:
        app.quick_ask.asked("What is two and two?")
        app.quick_ask.answered("Four.", "stop")
        assert_all_named(window(qtbot, "Ask Parley"), record_property, "quick_ask")

    def test_dictation_history_window(qtbot, app, record_property) -> None:
        """With a dictation whose application is not known (its cell says so) and one that is."""
        app.dictations.add("um hello there", "Hello there.", "")
        app.dictations.add("see you at ten", "See you at ten.", "gedit")
        app.open_dictation_history()
        history = window(qtbot, "Dictation history")
        assert_all_named(history, record_property, "dictation_history")
        assert {"Dictations", "Heard", "Typed", "Copy", "Type again", "Clear all…"} <= names(history)
        assert "Application not known" in names(history)

    def test_first_start_page(qtbot, app, record_property) -> None:
        app.first_start.show()
        page = app.first_start.page
        qtbot.waitUntil(lambda: bool(page.cards) or "fits" in page.chat_hint.text(), timeout=120_000)
        main = window(qtbot, app.window.windowTitle())
        assert "Welcome to Parley" in names(main)
        assert_all_named(main, record_property, "first_start")

    def test_tray_menu(qtbot, app, record_property) -> None:
        """As shown where the desktop's tray draws no menu of its own (an XEmbed tray); a panel
        with StatusNotifier items shows the same actions through D-Bus."""
        tray = Tray(app.window.windowIcon())
        menu = tray._menu

        def open_menu() -> None:
            menu.popup(QPoint(40, 40))
            qtbot.waitExposed(menu)
            qtbot.keyClick(menu, Qt.Key.Key_Down)  # the first item takes the focus

        node = atspi.read_focused(PID, qtbot.waitUntil, open_menu)
        assert "Quit Parley" in names(node), node
        assert_all_named(node, record_property, "tray_menu")
        menu.hide()

    def test_what_a_screen_reader_says_in_a_spoken_turn(
        qtbot, app, mic, question_clip, record_property, capsys
    ) -> None:
        """The talk key held through XTEST while the question plays, then let go: the reader is
        told that recording started and ended, that Parley transcribes, and the reply at its end
        (the log is the closing note of issue 33)."""
        x = x11.XInput(os.environ["DISPLAY"])
        view = app.window.conversation_view
        where = view.mapToGlobal(view.rect().center())
        x.click(where.x(), where.y())  # the window takes the focus, as a click gives it
        qtbot.waitUntil(app.window.isActiveWindow, timeout=5_000)
        qtbot.waitUntil(app.window.input_bar.talk_button.isEnabled, timeout=60_000)
        log = atspi.EventLog(PID, qtbot.waitUntil)
        try:
            # Qt sends announcements once it knows a listener wants them: announce until one arrives.
            probe = lambda: "ready?" in log.announcements() or bool(app.window.announce("ready?"))  # noqa: E731
            qtbot.waitUntil(probe, timeout=30_000)
            said_before = len(log.read())
            finished: list[tuple[str, str]] = []
            app.reply_finished.connect(lambda text, how: finished.append((text, how)))
            x.key_down("ctrl+space")
            try:
                qtbot.waitUntil(lambda: app.talk.recording, timeout=10_000)
                play(qtbot, mic, question_clip)
            finally:
                x.key_up("ctrl+space")
            qtbot.waitUntil(lambda: bool(finished), timeout=120_000)
            reply = spoken_text(app.window.conversation_view.messages[-1].text)  # as announced: no Markdown marks
            try:
                log.wait_for(lambda _: reply in log.announcements(), 30_000)
            except qtbot.TimeoutError:
                pytest.fail(f"the reply {reply!r} was not announced: {log.announcements()}", pytrace=False)
        finally:
            log.close()
        # The probe is announced until one arrives: under load the later ones come after it.
        events = [e for e in log.lines[said_before:] if e.get("text") != "ready?"]
        spoken = [(e["type"].split(":")[-1], e.get("text") or f"{e['role']} {e['name']}".strip()) for e in events]
        record_property("screen_reader_said", json.dumps(spoken, ensure_ascii=False))
        announced = [text for kind, text in spoken if kind == "announcement"]
        heard = app.book.current.messages[-2].content
        assert words(heard) == words(QUESTION)
        # "Transcribing…" comes only when the words were not ready at the release (the live
        # transcript of the whole take usually is).
        told = [text for text in announced if text != "Transcribing…"]
        assert told == ["Recording", "Recording ended", f"Heard: {heard}", reply], announced

    def test_what_a_screen_reader_says_when_a_hands_free_turn_is_taken_back(
        qtbot, tmp_path, tiny_chat_model, mic, paused_request, record_property
    ) -> None:
        """Hands-free sends "Can you remind me to" at the pause (the fixed pause), and the user goes
        on while its reply is written: the reader is told the whole message (the two parts heard
        again as one) as it is sent, and never the second half alone."""
        controller = make_controller(
            qtbot,
            tmp_path,
            microphone="pulse",
            hands_free=True,
            hands_free_turn_end="pause",
            **tiny_settings(tiny_chat_model),  # replies go on until stopped
        )
        qtbot.waitExposed(controller.window)
        qtbot.waitUntil(lambda: controller.hands_free.listening, timeout=30_000)
        heard: list[str] = []
        controller.transcribed.connect(heard.append)
        log = atspi.EventLog(PID, qtbot.waitUntil)
        try:
            probe = lambda: "ready?" in log.announcements() or bool(controller.window.announce("ready?"))  # noqa: E731
            qtbot.waitUntil(probe, timeout=30_000)
            play(qtbot, mic, paused_request)
            qtbot.waitUntil(lambda: len(heard) == 2, timeout=60_000)
            whole = heard[1]
            try:
                log.wait_for(lambda _: f"Heard: {whole}" in log.announcements(), 30_000)
            except qtbot.TimeoutError:
                pytest.fail(f"{whole!r} was not announced: {log.announcements()}", pytrace=False)
            announced = log.announcements()
        finally:
            controller.stop()
            log.close()
        record_property("screen_reader_said", json.dumps(announced, ensure_ascii=False))
        # the first half, when it was sent alone, then the whole
        assert [a for a in announced if a.startswith("Heard: ")] == [f"Heard: {heard[0]}", f"Heard: {whole}"], announced
        assert [m.content for m in controller.book.current.messages if m.role == "user"] == [whole]
