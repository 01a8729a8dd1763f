"""Dictation's decisions, fast: the real window, controller, flows and dictation pipeline on
``FakeEngines`` (the real-parts tests: ``test_anywhere_x11.py`` on Xvfb with whisper.cpp,
``test_dictation_cleanup.py`` with llama.cpp).

What a dictation types after the pipeline (fillers, vocabulary, rules, spoken punctuation); the
vocabulary in whisper's prompt and in the talk key's words; the clean-up on the chat engine's
thread, and the plain text with the reason when it is too slow, refused or has no model; Dictate
cleaned; the mode of a terminal; the history of each dictation, from File > Dictation history
and from the tray, its Type again, and a history that cannot be saved.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer

from parley.app.controller import Controller
from parley.app.conversations.dictation_history import HISTORY_FILE, DictationHistory
from parley.app.conversations.store import Store
from parley.app.desktop.focused_app import FocusedApp
from parley.app.desktop.tray import Tray
from parley.app.speech.from_anywhere import TAP_S
from parley.app.ui import i18n
from parley.app.ui.main_window import MainWindow
from parley.config.settings import Settings
from parley.engine.dictation.pipeline import CleanupOutcome
from tests.support.fake_engines import FakeClock, FakeEngines

TIMEOUT_MS = 10_000  # only reached if something hangs: the fake engines answer at once


class App:
    def __init__(self, controller: Controller, engines: FakeEngines, clock: FakeClock) -> None:
        self.controller, self.engines, self.clock = controller, engines, clock
        self.typed: list[str] = []
        controller.typist.finished.connect(lambda text, _problem: self.typed.append(text))

    def status(self) -> str:
        return self.controller.window.statusBar().currentMessage()

    def history(self) -> list[tuple[str, str, str, str]]:
        return [(r.raw, r.typed, r.application, r.note) for r in self.controller.dictations.records()]


@pytest.fixture
def start(qtbot: Any, qapp: Any, tmp_path: Path) -> Any:
    i18n.install(qapp, "en")  # as Parley does when it starts: English's plural forms ("2 entries")

    def start_app(engines: FakeEngines | None = None, history: DictationHistory | None = None, **settings: Any) -> App:
        window = MainWindow()
        qtbot.addWidget(window)
        engines = engines or FakeEngines()
        clock = FakeClock()
        controller = Controller(
            window,
            engines,
            Settings(global_shortcuts=False, **settings),
            Store(tmp_path / "conversations.sqlite3"),
            history=history or DictationHistory(tmp_path / HISTORY_FILE),
            settings_path=tmp_path / "settings.json",
            clock=clock,
        )
        controller.start()
        qtbot.waitUntil(
            lambda: (
                controller.idle and controller.speech.model is not None and controller.chat.model is not None
                if engines.chat_problem is None
                else controller.idle and controller.speech.model is not None
            ),
            timeout=TIMEOUT_MS,
        )
        return App(controller, engines, clock)

    return start_app


def dictate(qtbot: Any, app: App, text: str, action: str = "dictate") -> None:
    """Hold ``action``'s shortcut in another application, say ``text``, let go; wait for the
    words to reach the typist."""
    shortcuts = app.controller.anywhere.shortcuts
    before = len(app.typed)
    shortcuts.pressed.emit(action, 0)
    assert app.controller.talk.recording, app.status()
    app.engines.microphone.say(text)
    app.clock.advance(2 * TAP_S)
    shortcuts.released.emit(action)
    qtbot.waitUntil(lambda: len(app.typed) > before, timeout=TIMEOUT_MS)


def in_terminal(monkeypatch: Any) -> FocusedApp:
    """The focus is in GNOME Terminal, as X11 would report it (the reading itself: test_anywhere_x11)."""
    terminal = FocusedApp(0x2A00007, "gnome-terminal-server", "Gnome-terminal")
    monkeypatch.setattr("parley.app.flows.dictation.focused_application", lambda _window=0: terminal)
    return terminal


# ---------------------------------------------------------------- the text


def test_a_dictation_is_typed_after_the_pipeline_and_kept_in_the_history(qtbot, start) -> None:
    app = start(dictation_replacements=[["parley dot com", "parley.com"]])
    dictate(qtbot, app, "um so the site is parley dot com comma I I think period")
    typed = "so the site is parley.com, I think. "
    assert app.typed == [typed]
    assert app.history() == [("um so the site is parley dot com comma I I think period", typed.strip(), "", "")]


def test_the_vocabulary_biases_whisper_and_corrects_the_talk_keys_and_ask_parleys_words(qtbot, start) -> None:
    app = start(dictation_vocabulary=["Zyntrix", "Siobhan"], send_on_release=False)
    bar = app.controller.window.input_bar
    qtbot.mousePress(bar.talk_button, Qt.MouseButton.LeftButton)
    app.engines.microphone.say("our new app is called Zintrix")
    with qtbot.waitSignal(app.controller.transcribed, timeout=TIMEOUT_MS):
        qtbot.mouseRelease(bar.talk_button, Qt.MouseButton.LeftButton)
    assert bar.edit.toPlainText() == "our new app is called Zyntrix"
    assert app.engines.chat.asked == []
    shortcuts = app.controller.anywhere.shortcuts  # Ask Parley: the same vocabulary
    shortcuts.pressed.emit("ask", 0)
    app.engines.microphone.say("is Zintrix ready")
    app.clock.advance(2 * TAP_S)
    shortcuts.released.emit("ask")
    qtbot.waitUntil(lambda: app.engines.chat.asked == ["is Zyntrix ready"], timeout=TIMEOUT_MS)
    prompts = app.controller.speech.model.prompts
    assert prompts and set(prompts) == {"I talked with Zyntrix and Siobhan."}


def test_only_fillers_type_nothing_and_say_so(qtbot, start) -> None:
    app = start()
    app.controller.anywhere.shortcuts.pressed.emit("dictate", 0)
    app.engines.microphone.say("um uh")
    app.clock.advance(2 * TAP_S)
    with qtbot.waitSignal(app.controller.transcribed, timeout=TIMEOUT_MS):
        app.controller.anywhere.shortcuts.released.emit("dictate")
    assert app.typed == [] and app.history() == []
    assert app.status() == "Only filler words were heard, so nothing was typed."


# ---------------------------------------------------------------- the clean-up


def test_the_clean_up_runs_on_the_chat_thread_and_its_text_is_typed(qtbot, start) -> None:
    app = start(dictation_cleanup=True)
    cleaner = app.engines.chat.cleaner
    dictate(qtbot, app, "so the meeting is at ten")
    assert app.typed == ["So the meeting is at ten. "]
    assert cleaner.cleaned == ["so the meeting is at ten"] and cleaner.prepared == 1
    assert cleaner.threads and "MainThread" not in cleaner.threads
    assert app.history()[0][1:] == ("So the meeting is at ten.", "", "")


def test_dictate_cleaned_cleans_up_whatever_the_setting(qtbot, start) -> None:
    app = start(dictation_cleanup=False)
    dictate(qtbot, app, "the plain one")
    dictate(qtbot, app, "the cleaned one", action="dictate-cleaned")
    assert app.typed == ["the plain one ", "The cleaned one. "]
    assert app.engines.chat.cleaner.cleaned == ["the cleaned one"]


def test_the_command_line_s_dictate_cleaned_toggle_cleans_up(qtbot, start) -> None:
    """``parley dictate --cleaned --toggle`` reaches the app as these words (the single-instance
    socket: test_instance_socket); each run starts or ends the take."""
    app = start(dictation_cleanup=False)
    app.controller.command(["dictate-cleaned", "--toggle"])
    assert app.controller.talk.recording, app.status()
    app.engines.microphone.say("the toggled one")
    app.clock.advance(2 * TAP_S)
    app.controller.command(["dictate-cleaned", "--toggle"])
    qtbot.waitUntil(lambda: len(app.typed) == 1, timeout=TIMEOUT_MS)
    assert app.typed == ["The toggled one. "]
    assert app.engines.chat.cleaner.cleaned == ["the toggled one"]


def test_a_clean_up_that_does_not_answer_in_time_types_the_plain_text_and_says_why(qtbot, start) -> None:
    app = start(dictation_cleanup=True, dictation_cleanup_timeout_s=0.5)
    cleaner = app.engines.chat.cleaner
    cleaner.hold()  # still thinking when the limit and its grace have passed
    try:
        dictate(qtbot, app, "um the plain words")
        assert app.typed == ["the plain words "]
        note = "The clean-up did not answer within 0.5 s, so the text was typed without the clean-up."
        assert app.status() == note
        assert app.history() == [("um the plain words", "the plain words", "", note)]
    finally:
        cleaner.release()
    qtbot.waitUntil(lambda: app.controller.idle, timeout=TIMEOUT_MS)
    assert app.typed == ["the plain words "]  # its late answer is dropped


def test_a_refused_clean_up_types_the_plain_text_with_its_reason(qtbot, start) -> None:
    app = start(dictation_cleanup=True)
    note = "The clean-up added words that were not said ('Dear'), so the text was typed without the clean-up."
    app.engines.chat.cleaner.answer = lambda text: CleanupOutcome("added_words", "", note)
    dictate(qtbot, app, "sir thank you")
    assert app.typed == ["sir thank you "] and app.status() == note


def test_without_a_chat_model_the_plain_text_is_typed_and_the_note_says_why(qtbot, start) -> None:
    app = start(FakeEngines("the fake chat model is broken"), dictation_cleanup=True)
    dictate(qtbot, app, "still typed")
    assert app.typed == ["still typed "]
    assert app.status() == "The chat model is not loaded yet, so the text was typed without the clean-up."


# ---------------------------------------------------------------- per application


def test_in_a_terminal_there_is_no_clean_up_and_no_space_after(qtbot, start, monkeypatch) -> None:
    in_terminal(monkeypatch)
    app = start(dictation_cleanup=True)
    dictate(qtbot, app, "git status")
    assert app.typed == ["git status"] and app.engines.chat.cleaner.cleaned == []
    assert app.history() == [("git status", "git status", "Gnome-terminal", "")]


def test_the_table_decides_a_classes_mode(qtbot, start, monkeypatch) -> None:
    in_terminal(monkeypatch)
    app = start(dictation_cleanup=True, dictation_app_modes={"gnome-terminal": "default"})
    dictate(qtbot, app, "now cleaned")
    assert app.typed == ["Now cleaned. "]


# ---------------------------------------------------------------- the history


def test_the_history_opens_from_the_menu_and_the_tray_and_types_again(qtbot, start) -> None:
    app = start(close_to_tray=False)  # closing the window at the end ends Parley
    dictate(qtbot, app, "first words")
    window = app.controller.window
    [action] = [a for a in window.menuBar().actions()[0].menu().actions() if a.text() == "&Dictation history…"]
    action.trigger()
    history = app.controller.history_window
    assert history is not None and history.isVisible()
    assert history.list.topLevelItemCount() == 1 and history.typed.toPlainText() == "first words"
    history.hide()

    tray = Tray(window.windowIcon(), app.controller)  # as the controller makes it where there is a tray
    app.controller.tray = tray
    app.controller._wire_tray()
    [entry] = [a for a in tray._menu.actions() if a.text() == "Dictation history…"]
    entry.trigger()
    assert history.isVisible()
    dictate(qtbot, app, "second words")  # the open window follows
    assert [history.list.topLevelItem(i).text(2) for i in range(2)] == ["second words", "first words"]

    history.list.setCurrentItem(history.list.topLevelItem(1))
    with qtbot.waitSignal(app.controller.typist.finished, timeout=TIMEOUT_MS):
        qtbot.mouseClick(history.type_button, Qt.MouseButton.LeftButton)
    assert app.typed[-1] == "first words "
    assert len(app.controller.dictations.records()) == 2  # typing again adds nothing


def test_a_history_that_cannot_be_saved_still_types_and_says_so(qtbot, start, tmp_path) -> None:
    holder = DictationHistory(tmp_path / HISTORY_FILE)  # another Parley holds the history
    try:
        app = start(history=DictationHistory(tmp_path / HISTORY_FILE))
        dictate(qtbot, app, "typed all the same")
        assert app.typed == ["typed all the same "]
        problem = "Could not save the dictation: another Parley is using them. It is kept until Parley closes."
        assert app.controller.dictations.problem == problem and app.status() == problem
        app.controller.open_dictation_history()
        history = app.controller.history_window
        assert history is not None and history.problem.text() == problem
        assert history.typed.toPlainText() == "typed all the same"
        assert holder.recent() == []
    finally:
        holder.close()


def test_the_retention_setting_applies_at_once(qtbot, start) -> None:
    app = start()
    dictate(qtbot, app, "kept for now")
    assert len(app.history()) == 1
    app.controller.settings_flow.update(lambda s: setattr(s, "dictation_history_days", 0))
    assert app.history() == []
    dictate(qtbot, app, "not kept")
    assert app.history() == []


# ---------------------------------------------------------------- Settings > Dictation


def _in_settings(qtbot: Any, app: App, work: Any) -> None:
    """Open Settings as the user does (File > Settings) and run ``work(dialog)`` in it."""
    from PySide6.QtWidgets import QApplication

    from parley.app.ui.settings_dialog import SettingsDialog

    done: list[BaseException | None] = []

    def run() -> None:
        dialog = QApplication.activeModalWidget()
        try:
            assert isinstance(dialog, SettingsDialog), dialog
            work(dialog)
            done.append(None)
        except BaseException as exc:  # noqa: BLE001 - reported after the dialog closed
            done.append(exc)
            dialog.reject()

    QTimer.singleShot(0, run)
    app.controller.open_settings()  # opens it and returns (the dialog has no event loop of its own)
    qtbot.waitUntil(lambda: bool(done), timeout=10_000)
    assert done[0] is None, done


def test_the_dictation_tab_edits_the_settings_and_refuses_rules_that_loop(qtbot, start, tmp_path) -> None:
    app = start()

    def work(dialog: Any) -> None:
        page = dialog.dictation
        assert not page.app_modes_problem.isHidden()
        assert page.app_modes_problem.text() == "Modes per application work on X11 only (this session: offscreen)."
        assert (
            "“comma” for ," in page.spoken_commands.text() and "“new line” or “newline”" in page.spoken_commands.text()
        )
        page.vocabulary.setPlainText("Siobhan\nZyntrix\n" + "x" * 100)
        assert page.vocabulary_note.text().startswith("2 entries, all in the speech model's prompt.")
        assert "1 entry longer than 60 characters left out of the vocabulary." in page.vocabulary_note.text()
        page.add_rule("foo", "bar")
        page.add_rule("bar", "foo")
        page.cleanup.setChecked(True)
        page.cleanup_timeout.setValue(3.5)
        page.history_days.setValue(30)
        page.add_app("myterm", "terminal")
        dialog.accept()
        assert dialog.isVisible(), "rules that loop must not be saved"
        assert dialog.error_label.text().startswith("The replacement rules cannot be saved: ")
        assert "in a circle" in dialog.error_label.text()
        page.rules.removeRow(1)
        dialog.accept()
        assert not dialog.isVisible()

    _in_settings(qtbot, app, work)
    s = app.controller.settings
    assert s.dictation_vocabulary == ["Siobhan", "Zyntrix", "x" * 100]
    assert s.dictation_replacements == [["foo", "bar"]]
    assert (s.dictation_cleanup, s.dictation_cleanup_timeout_s, s.dictation_history_days) == (True, 3.5, 30)
    assert s.dictation_app_modes["myterm"] == "terminal"
    saved = json.loads((tmp_path / "settings.json").read_text("utf-8"))
    assert saved["dictation_vocabulary"] == ["Siobhan", "Zyntrix"]  # the engine's bounds: what is used
    assert saved["dictation_replacements"] == [["foo", "bar"]]
    dictate(qtbot, app, "foo fighters")
    assert app.typed[-1] == "Bar fighters. "  # the rule, then the clean-up (on: just set)


def test_a_huge_vocabulary_is_told_not_refused(qtbot, start) -> None:
    app = start()

    def work(dialog: Any) -> None:
        page = dialog.dictation
        page.vocabulary.setPlainText("\n".join(f"Name{n}" for n in range(10_000)))
        note = page.vocabulary_note.text()
        assert "Only the first 1000 vocabulary entries are used; 9000 more were left out." in note
        assert "the speech model's prompt holds" in note
        dialog.accept()
        assert not dialog.isVisible()

    _in_settings(qtbot, app, work)
    assert len(app.controller.settings.dictation_vocabulary) == 10_000
    prompt = app.controller.transcription.dictation_options().whisper_prompt()
    assert prompt is not None and prompt.startswith("I talked with Name0, Name1,") and len(prompt.encode()) <= 223
