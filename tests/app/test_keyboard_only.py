"""Parley with the keyboard alone: a whole session of real key presses, the tab order, the
shortcuts in the menus and a focus that shows.

The session runs on Xvfb with keys sent through XTEST (``tests/support/x11.py``), as a person
without a mouse would press them, in a child pytest (``tests/support/x11_child.py``): open
Settings and change the voice, start a conversation and type a message, talk with the talk key
(held while a question plays into the virtual microphone), search the conversations, export one
through the file dialog.  Each step's effect is checked on the app's state (the saved settings,
the stored messages, the sidebar, the file written).  Nothing is clicked: the window has the
focus when it opens, as a desktop gives a new window the focus.

The normal session checks what needs no X server: each menu action that has a shortcut shows it,
and each kind of focusable widget looks different with the focus.

Run alone (the virtual microphone is shared, hence the lock):
    flock /tmp/parley-audio.lock python -m pytest tests/app/test_keyboard_only.py -v
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest

from tests.support import x11
from tests.support.x11_child import CHILD, check, child_scenarios, run_on_xvfb

SCENARIOS = child_scenarios(__file__)
CHILD_TIMEOUT_S = 600


# ====================================================================== the normal session

if not CHILD:
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage
    from PySide6.QtWidgets import QApplication, QLabel, QWidget

    from parley.app.ui.main_window import MainWindow
    from parley.app.ui.theme import apply_theme
    from tests.support.app_helpers import kept_look

    @pytest.fixture(scope="module")
    def child_results(tmp_path_factory: pytest.TempPathFactory) -> Any:
        return run_on_xvfb(__file__, tmp_path_factory.mktemp("keyboard") / "child.xml", timeout_s=CHILD_TIMEOUT_S)

    @pytest.mark.x11
    @pytest.mark.slow
    @pytest.mark.parametrize("scenario", SCENARIOS)
    def test_on_a_real_x_server(child_results: Any, scenario: str) -> None:
        check(child_results, scenario)

    def test_the_menus_show_the_shortcuts(qtbot) -> None:
        window = MainWindow()
        qtbot.addWidget(window)
        window.set_talk_shortcut("Ctrl+Space")
        shortcuts = {
            action.text().replace("&", ""): action.shortcut().toString()
            for menu in window.menuBar().findChildren(type(window.menuBar().actions()[0].menu()))
            for action in menu.actions()
            if not action.isSeparator()
        }
        for wanted in (
            "New chat",
            "Settings…",
            "Quit",
            "Export as Markdown…",
            "Write a message",
            "Search conversations",
        ):
            assert shortcuts[wanted], f"{wanted} shows no shortcut: {shortcuts}"
        talk = next(text for text in shortcuts if text.startswith("Talk"))
        assert shortcuts[talk] == "Ctrl+Space" and shortcuts["Stop the reply"] == "Esc"

    def test_the_tray_menu_shows_the_shortcuts_from_anywhere(qtbot) -> None:
        """Dictate and Ask Parley show the system-wide keys listened for, as a screen reader and a
        panel's menu (DBusMenu) read them: the action's shortcut, its accessible accelerator."""
        from PySide6.QtGui import QAccessible, QKeySequence

        from parley.app.desktop.tray import Tray

        tray = Tray(QApplication.windowIcon())
        tray.set_shortcuts("Ctrl+Alt+Space", "Ctrl+Alt+Return")
        menu = tray._menu
        menu.popup(menu.pos())
        qtbot.waitExposed(menu)
        shown = {a.text(): a.shortcut().toString() for a in menu.actions() if not a.isSeparator()}
        assert shown["Dictate"] == "Ctrl+Alt+Space" and shown["Ask Parley"] == "Ctrl+Alt+Return", shown
        assert all(not keys for text, keys in shown.items() if text not in ("Dictate", "Ask Parley")), shown
        menu_item = QAccessible.queryAccessibleInterface(menu)
        said = {
            menu_item.child(i).text(QAccessible.Text.Name): menu_item.child(i).text(QAccessible.Text.Accelerator)
            for i in range(menu_item.childCount())
        }
        native = QKeySequence("Ctrl+Alt+Space").toString(QKeySequence.SequenceFormat.NativeText)
        assert said["Dictate"] == native, said
        tray.set_shortcuts("", "Ctrl+Alt+Return")  # Dictate's key is not listened for (taken, or turned off)
        assert menu.actions()[1].shortcut().isEmpty()
        menu.hide()

    @pytest.fixture
    def themed(qapp: QApplication) -> Any:
        """The app's own look (``theme.apply_theme``), put back as it was afterwards."""
        with kept_look(qapp):
            apply_theme(qapp)
            yield qapp

    def test_the_focus_shows(qtbot, themed) -> None:
        """Each kind of widget the Tab key stops at is drawn differently with the focus."""
        window = MainWindow()
        qtbot.addWidget(window)
        window.show()
        qtbot.waitExposed(window)
        window.activateWindow()
        window.conversation_view.add_message("assistant", "A reply")
        message = window.conversation_view.messages[-1]
        bar = window.input_bar
        bar.set_send_available(True)
        bar.edit.setPlainText("hello")
        for widget in (window.new_button, window.search_field, window.conversation_list, bar.talk_button, bar.edit,
                       bar.send_button, message.copy_button, message.body):  # fmt: skip
            widget.setEnabled(True)
            window.conversation_view.setFocus()  # the view's frame draws no focus: the others are compared
            qtbot.waitUntil(window.conversation_view.hasFocus)
            without = _look(widget)
            widget.setFocus(Qt.FocusReason.TabFocusReason)
            qtbot.waitUntil(widget.hasFocus)
            assert _look(widget) != without, f"{widget.accessibleName() or widget.objectName()} looks the same focused"

    def test_the_dictation_tab_goes_down_the_page_and_each_letter_reaches_its_field(qtbot) -> None:
        """Settings > Dictation alone (offscreen): Tab from the first field to the last in the
        order they are shown, out of the tables and text boxes rather than into their cells;
        each label's Alt+letter puts the focus on its field; a table's cell is edited from the
        keyboard."""
        from PySide6.QtTest import QTest

        from parley.app.settings_flow import dictation_help
        from parley.app.ui.dictation_settings import DictationPage
        from parley.app.ui.forms import scrolling
        from parley.config.settings import Settings

        settings = Settings(dictation_replacements=[["parley dot com", "parley.com"]])
        page = DictationPage(settings, dictation_help(settings))
        window = scrolling(page)
        qtbot.addWidget(window)
        window.resize(700, 2400)  # every field on screen: Qt's shortcuts reach only what shows
        window.show()
        qtbot.waitExposed(window)
        window.activateWindow()
        qtbot.waitUntil(window.isActiveWindow, timeout=5_000)
        order = [
            *(page.vocabulary, page.threshold, page.rules, page.add_rule_button, page.remove_rule_button),
            *(page.spoken_punctuation, page.remove_fillers, page.cleanup, page.cleanup_prompt, page.reset_prompt),
            *(page.cleanup_timeout, page.history_days, page.app_modes, page.add_app_button, page.remove_app_button),
        ]

        def focused() -> QWidget | None:
            widget = QApplication.focusWidget()
            while widget is not None and widget not in order:  # a spin box's line edit: the spin box
                widget = widget.parentWidget()
            return widget

        page.vocabulary.setFocus(Qt.FocusReason.TabFocusReason)
        qtbot.waitUntil(lambda: focused() is page.vocabulary)
        for before, after in zip(order, order[1:], strict=False):
            QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
            assert focused() is after, f"Tab from {before.accessibleName()} went to {focused()}"
        labels = [label for label in page.findChildren(QLabel) if label.buddy() is not None]
        assert len(labels) >= 7
        for label in labels:
            page.vocabulary.setFocus()
            letter = label.text()[label.text().index("&") + 1]
            QTest.keyClick(QApplication.focusWidget(), letter.lower(), Qt.KeyboardModifier.AltModifier)
            assert focused() is label.buddy(), f"Alt+{letter} ({label.text()}) went to {focused()}"
        # A mode per application: the cell, F2, the next mode, Enter.
        page.app_modes.setFocus()
        page.app_modes.setCurrentCell(0, 1)
        before = page.app_modes.item(0, 1).text()
        for key in (Qt.Key.Key_F2, Qt.Key.Key_Down, Qt.Key.Key_Return):
            QTest.keyClick(QApplication.focusWidget(), key)
        chosen = page.app_modes.item(0, 1).text()
        assert chosen != before and page.app_mode_table()[page.app_modes.item(0, 0).text()] == chosen
        qtbot.waitUntil(lambda: QApplication.focusWidget() is page.app_modes, timeout=2_000)  # the editor closed

    def _look(widget: QWidget) -> QImage:
        widget.repaint()
        return widget.grab().toImage()


# ====================================================================== the child, on Xvfb

else:
    from PySide6.QtGui import QAccessible
    from PySide6.QtWidgets import QApplication

    from parley.app.controller import Controller
    from tests.support.app_helpers import (  # noqa: F401 - fixtures
        QUESTION,
        make_controller,
        play,
        question_clip,
        tiny_chat_model,
        tiny_settings,
        wait_idle,
    )

    STEP_TIMEOUT_MS = 120_000  # a reply of the tiny model takes a second; only a hang reaches this

    @pytest.fixture
    def app(qtbot: Any, qapp: QApplication, tmp_path: Path, tiny_chat_model: Path) -> Controller:
        assert qapp.platformName() == "xcb", qapp.platformName()
        controller = make_controller(qtbot, tmp_path, **tiny_settings(tiny_chat_model, max_tokens=8))
        window = controller.window
        qtbot.waitExposed(window)
        desktop_focuses(qtbot, window)  # as for a window that opens
        qtbot.waitUntil(window.input_bar.talk_button.isEnabled, timeout=60_000)
        return controller

    def focused() -> str:
        """The focused widget's name, as a screen reader says it."""
        widget = QApplication.focusWidget()
        accessible = QAccessible.queryAccessibleInterface(widget) if widget is not None else None
        return accessible.text(QAccessible.Text.Name) if accessible is not None else ""

    def desktop_focuses(qtbot: Any, window: Any) -> None:
        """What a window manager does when a dialog closes: the window under it has the focus
        again (Xvfb has no window manager, and X gives the focus back to no window)."""
        window.activateWindow()
        qtbot.waitUntil(window.isActiveWindow, timeout=5_000)

    def type_into_dialog(title: str, keys: list[list[str]], display: str) -> threading.Thread:
        """Once a window named ``title`` shows, send it ``keys`` (xdotool arguments), from a
        thread: the app is then inside the dialog's own event loop, where this test waits."""

        def run() -> None:
            env = {**os.environ, "DISPLAY": display}
            subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--name", title], env=env, timeout=60)
            for args in keys:
                subprocess.run(["xdotool", *args], env=env, timeout=60, check=True)

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        return thread

    def test_a_whole_session_with_keys_only(qtbot, app, mic, question_clip, tmp_path, record_property) -> None:
        x = x11.XInput(os.environ["DISPLAY"])
        window, bar = app.window, app.window.input_bar
        steps: list[str] = []

        # The tab order, from the first stop to the last: the sidebar, the conversation, the input bar.
        window.new_button.setFocus()
        expected = [
            "New chat",
            "Search conversations",
            "Conversations",
            "Rename",
            "Delete",
            "Conversation",
            "Hold to talk",
            "Hands-free",
            "Message",
            "Documents",
            "New chat",  # Send waits for text: round again
        ]
        if window.notice.isVisible():  # a problem said at the start (no sound server, say)
            expected.insert(expected.index("Conversation"), "Dismiss the notice")
        order = [focused()]
        for _ in expected[1:]:
            x.tap("Tab")
            qtbot.waitUntil(lambda: focused() != order[-1], timeout=5_000)
            order.append(focused())
        record_property("tab_order", json.dumps(order))
        assert order == expected, (order, window.notice.label.text())

        # Settings: open it, go to Voice, choose the next voice, OK.
        before = app.settings.voice
        x.tap("ctrl+comma")
        qtbot.waitUntil(lambda: app.settings_flow.dialog is not None and app.settings_flow.dialog.isVisible())
        dialog = app.settings_flow.dialog
        voice_page = next(i for i in range(dialog.tabs.count()) if dialog.tabs.widget(i).isAncestorOf(dialog.voice))
        for _ in range(voice_page):
            x.tap("ctrl+Tab")
        qtbot.waitUntil(lambda: dialog.tabs.currentIndex() == voice_page, timeout=5_000)
        x.tap("alt+v")  # the Voice field's mnemonic ("&Voice:")
        qtbot.waitUntil(dialog.voice.hasFocus, timeout=5_000)
        x.tap("Down")
        qtbot.waitUntil(lambda: dialog.voice.currentData() != before, timeout=5_000)
        chosen = dialog.voice.currentData()
        x.tap("Return")
        qtbot.waitUntil(lambda: app.settings_flow.dialog is None, timeout=10_000)
        desktop_focuses(qtbot, window)
        assert app.settings.voice == chosen != before
        saved = json.loads((tmp_path / "settings.json").read_text())
        assert saved["voice"] == chosen
        steps.append(f"settings: voice {before} -> {chosen}")

        # A conversation: new chat, the message box, a typed message, Enter.
        x.tap("ctrl+n")
        x.tap("ctrl+l")
        qtbot.waitUntil(bar.edit.hasFocus, timeout=5_000)
        x.type("Hello from the keyboard")
        qtbot.waitUntil(lambda: bar.edit.toPlainText() == "Hello from the keyboard", timeout=10_000)
        x.tap("Return")
        qtbot.waitUntil(lambda: len(app.book.current.messages) == 2 and app.idle, timeout=STEP_TIMEOUT_MS)
        assert app.book.current.messages[0].content == "Hello from the keyboard"
        steps.append("typed message answered")

        # The talk key, held while the question plays.
        x.key_down("ctrl+space")
        try:
            qtbot.waitUntil(lambda: app.talk.recording, timeout=10_000)
            play(qtbot, mic, question_clip)
        finally:
            x.key_up("ctrl+space")
        qtbot.waitUntil(lambda: len(app.book.current.messages) == 4 and app.idle, timeout=STEP_TIMEOUT_MS)
        heard = app.book.current.messages[2].content.lower()
        assert "moon" in heard, heard
        steps.append(f"spoken message: {heard!r}")

        # A second conversation, then a search that finds only the first.
        x.tap("ctrl+n")
        x.tap("ctrl+l")
        x.type("Something else")
        x.tap("Return")
        qtbot.waitUntil(lambda: window.conversation_list.count() == 2 and app.idle, timeout=STEP_TIMEOUT_MS)
        x.tap("ctrl+f")
        qtbot.waitUntil(window.search_field.hasFocus, timeout=5_000)
        x.type("keyboard")
        qtbot.waitUntil(lambda: window.conversation_list.count() == 1, timeout=10_000)
        x.tap("Tab")  # into the list, on the conversation found
        qtbot.waitUntil(window.conversation_list.hasFocus, timeout=5_000)
        x.tap("Down")
        x.tap("Up")
        qtbot.waitUntil(lambda: app.book.current.messages[0].content == "Hello from the keyboard", timeout=5_000)
        steps.append("search found the conversation")

        # Export it: the shortcut, the file dialog's name field, Enter.
        target = tmp_path / "exported.md"
        typist = type_into_dialog(
            "Export conversation",
            [["key", "ctrl+a"], ["type", "--delay", "20", str(target)], ["key", "Return"]],
            os.environ["DISPLAY"],
        )
        x.tap("ctrl+e")
        qtbot.waitUntil(target.exists, timeout=60_000)
        typist.join(timeout=60)
        exported = target.read_text(encoding="utf-8")
        assert "Hello from the keyboard" in exported and "moon" in exported.lower()
        steps.append(f"exported {target.name} ({len(exported)} characters)")
        record_property("steps", json.dumps(steps))
