"""Parley from anywhere on X11: the system-wide shortcuts and typing into another application.

Everything runs on a real X server (Xvfb, key auto-repeat on) driven through XTEST like a
person, with the target a text editor of another process (``tests/support/editor.py``):

- the shortcut listener alone: one press and one release for a hold of several auto-repeats,
  with Caps Lock on too; a shortcut another client holds is reported in words;
- the typist alone: ASCII and characters the US layout lacks (accents, CJK, emoji) arrive intact;
- the real app (``python -m parley`` on the xcb platform, the default speech model, a tiny chat
  model, the PulseAudio virtual microphone): a held Dictate while a sentence plays types it into
  the editor and leaves the clipboard as it was, by typing and by pasting; ``parley dictate
  --toggle`` does the same from the command line; Ask Parley opens the quick-ask window and the
  question and its streamed answer land in a conversation of their own.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from parley.engine.textmetrics import word_error_rate
from tests.support import x11
from tests.support.app_helpers import QUESTION, question_clip, tiny_chat_model  # noqa: F401 - fixtures
from tests.support.app_process import REPO, App, app_environment
from tests.support.requirements import require

pytestmark = pytest.mark.x11

USERS_CLIPBOARD = "the user's own clipboard"
TYPED_S = 60.0  # transcription and typing on a loaded 2-core machine


@pytest.fixture(scope="module")
def display() -> Iterator[str]:
    missing = x11.missing_tools()
    require(not missing, f"not installed: {', '.join(missing)} (Debian: xvfb xdotool x11-xserver-utils x11-utils)")
    with x11.xvfb() as name:
        repeat = x11.auto_repeat(name)
        assert repeat.on and repeat.rate_hz > 0, f"Xvfb's key auto-repeat is off: {repeat}"
        yield name


class Editor:
    """The other application: a text editor process, and what it reports."""

    def __init__(self, display: str, state: Path, *, terminal: bool = False) -> None:
        self.state = state
        env = {**x11_env(display), "PYTHONPATH": str(REPO)}
        mode = ["terminal"] if terminal else []
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.support.editor", str(state), USERS_CLIPBOARD, *mode],
            env=env,
            stdout=subprocess.PIPE,
            text=True,
            cwd=REPO,
        )
        line = self.process.stdout.readline() if self.process.stdout else ""
        assert line.strip().isdigit(), f"the editor did not start: {line!r}"
        self.window = int(line)
        wait_until(lambda: self.read().get("clipboard") == USERS_CLIPBOARD, "the editor to own the clipboard")

    def read(self) -> dict[str, Any]:
        try:
            return json.loads(self.state.read_text("utf-8"))
        except (OSError, ValueError):
            return {}

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=15)


@pytest.fixture
def editor(display: str, tmp_path: Path) -> Iterator[Editor]:
    editor = Editor(display, tmp_path / "editor.json")
    x11.XInput(display).focus(editor.window)
    try:
        yield editor
    finally:
        editor.close()


def x11_env(display: str) -> dict[str, str]:
    import os

    return {**os.environ, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb"}


def settled_text(editor: Editor, timeout: float = TYPED_S, quiet_s: float = 1.5) -> str:
    """The editor's text once something was typed and nothing more arrived for ``quiet_s``."""
    deadline = time.monotonic() + timeout
    last, since = "", time.monotonic()
    while time.monotonic() < deadline:
        text = editor.read().get("text", "")
        if text != last:
            last, since = text, time.monotonic()
        elif text and time.monotonic() - since >= quiet_s:
            return text
        time.sleep(0.05)
    raise AssertionError(f"nothing settled in the editor within {timeout:g} s (it holds {last!r})")


def wait_until(condition: Any, what: str, timeout: float = TYPED_S) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


# ---------------------------------------------------------------- the listener and the typist


def test_a_held_shortcut_is_one_press_and_one_release_under_auto_repeat(display: str, monkeypatch) -> None:
    from parley.app.desktop.keysyms import parse_shortcut
    from parley.app.desktop.shortcuts.x11 import X11HotKeys

    monkeypatch.setenv("DISPLAY", display)
    events: list[str] = []
    released = threading.Event()
    keys = X11HotKeys(
        lambda name, _focus: events.append(f"press {name}"),
        lambda name: (events.append(f"release {name}"), released.set()),
    )
    try:
        assert keys.grab({"dictate": parse_shortcut("Ctrl+Alt+Space")}) == {}
        keys.start()
        xinput = x11.XInput(display)
        for caps_lock in (False, True):
            released.clear()
            if caps_lock:
                xinput.tap("Caps_Lock")  # a lock key on must not make the shortcut dead
            xinput.key_down("ctrl+alt+space")
            time.sleep(1.5)  # past the 660 ms delay: about 20 auto-repeats
            xinput.key_up("space")
            xinput.key_up("ctrl+alt")
            assert released.wait(10), events
        xinput.tap("Caps_Lock")  # off again
        assert events == ["press dictate", "release dictate"] * 2
    finally:
        keys.close()


def test_a_release_the_listener_reads_late_is_still_one_release(display: str, monkeypatch) -> None:
    """The key is let go while the listener is behind on the auto-repeats sent before: when it
    reads them, the server already says the key is up.  That must be one release, not a
    release followed by a phantom press and release (which started a take that ran until the
    next press, and made that press end it)."""
    from parley.app.desktop.keysyms import parse_shortcut
    from parley.app.desktop.shortcuts.x11 import X11HotKeys

    monkeypatch.setenv("DISPLAY", display)
    events: list[str] = []
    keys = X11HotKeys(
        lambda name, _focus: events.append(f"press {name}"), lambda name: events.append(f"release {name}")
    )
    xinput = x11.XInput(display)
    interval = sys.getswitchinterval()
    try:
        shortcuts = {"dictate": parse_shortcut("Ctrl+Alt+Space"), "ask": parse_shortcut("Ctrl+Alt+Return")}
        assert keys.grab(shortcuts) == {}
        keys.start()
        xinput.key_down("ctrl+alt+space")
        time.sleep(1.0)  # the hold under test: auto-repeating by now
        # xdotool, another process, lets go in 0.2 s; meanwhile this thread keeps the listener's
        # from running (it holds the GIL: no switch for 10 s, no blocking call) until 0.4 s after
        # that, while auto-repeats queue up before the release.
        letting_go = subprocess.Popen(
            ["sh", "-c", "sleep 0.2; exec xdotool keyup space"],
            env=x11_env(display),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        sys.setswitchinterval(10.0)
        until = time.monotonic() + 0.6
        while time.monotonic() < until:
            pass
        sys.setswitchinterval(interval)
        assert letting_go.wait(10) == 0
        xinput.key_up("ctrl+alt")
        # A tap of the other shortcut: the listener reads events in order, so once it reports
        # that, it has reported everything the hold caused (a phantom tap would come before).
        xinput.tap("ctrl+alt+Return")
        wait_until(lambda: "release ask" in events, "the other shortcut's release", timeout=10)
        assert events == ["press dictate", "release dictate", "press ask", "release ask"]
    finally:
        sys.setswitchinterval(interval)
        keys.close()


def test_a_shortcut_another_program_holds_is_reported(display: str, monkeypatch) -> None:
    from parley.app.desktop.keysyms import parse_shortcut
    from parley.app.desktop.shortcuts.x11 import X11HotKeys

    monkeypatch.setenv("DISPLAY", display)
    other = X11HotKeys(lambda *_: None, lambda *_: None)
    ours = X11HotKeys(lambda *_: None, lambda *_: None)
    try:
        assert other.grab({"theirs": parse_shortcut("Ctrl+Alt+F7")}) == {}
        problems = ours.grab({"dictate": parse_shortcut("Ctrl+Alt+F7"), "ask": parse_shortcut("Ctrl+Alt+F8")})
        assert set(problems) == {"dictate"}
        assert "Ctrl+Alt+F7 is already taken by another program" in problems["dictate"]
    finally:
        ours.close()
        other.close()


@pytest.mark.parametrize(
    "text", ["Hello, World! (1+1=2) ~ok~", "Café, naïve façade; Ångström", "日本語の文章 and emoji 😀👍"]
)
def test_typing_reaches_another_apps_editor_intact(display: str, editor: Editor, monkeypatch, text: str) -> None:
    from parley.app.desktop.typing.x11 import X11Keyboard

    monkeypatch.setenv("DISPLAY", display)
    keyboard = X11Keyboard()
    try:
        assert keyboard.focus() == editor.window
        assert keyboard.type_text(text) == len(text)
    finally:
        keyboard.close()
    wait_until(lambda: editor.read().get("text") == text, f"the editor to hold {text!r}", timeout=15)
    assert editor.read()["clipboard"] == USERS_CLIPBOARD


# ---------------------------------------------------------------- per application


def set_wm_class(display: str, window: int, instance: str, app_class: str) -> None:
    """Give another client's window the class a terminal has, as the desktop sees it."""
    x11._run(["xdotool", "set_window", "--classname", instance, "--class", app_class, str(window)], display)


@pytest.fixture
def terminal(display: str, tmp_path: Path) -> Iterator[Editor]:
    """The editor taking keys as a terminal does, with GNOME Terminal's class."""
    editor = Editor(display, tmp_path / "terminal.json", terminal=True)
    set_wm_class(display, editor.window, "gnome-terminal-server", "Gnome-terminal")
    x11.XInput(display).focus(editor.window)
    try:
        yield editor
    finally:
        editor.close()


def test_the_focused_windows_class_is_read_from_it_its_children_and_its_frame(display: str) -> None:
    from Xlib import X, Xatom, display as xdisplay

    from parley.app.desktop.focused_app import FocusedApp, focused_app
    from parley.app.desktop.typing.modes import mode_name
    from parley.config.settings import Settings

    with x11.other_application(display) as window:
        set_wm_class(display, window, "konsole", "konsole")
        x11.XInput(display).focus(window)
        assert focused_app(0, display) == FocusedApp(window, "konsole", "konsole")
        assert mode_name(focused_app(0, display), Settings().dictation_app_modes) == "terminal"
        connection = xdisplay.Display(display)
        try:
            top = connection.create_resource_object("window", window)
            inner = top.query_tree().children[0]  # xmessage's form: the focus on an inner window
            inner.set_input_focus(X.RevertToParent, X.CurrentTime)
            # A window manager's frame around the client: the class is on the frame's child.
            frame = connection.screen().root.create_window(0, 0, 10, 10, 0, X.CopyFromParent)
            client = frame.create_window(0, 0, 10, 10, 0, X.CopyFromParent)
            client.set_wm_class("xterm", "XTerm")
            connection.sync()
            assert focused_app(0, display) == FocusedApp(window, "konsole", "konsole")
            assert focused_app(frame.id, display) == FocusedApp(client.id, "xterm", "XTerm")
            assert mode_name(focused_app(frame.id, display), Settings().dictation_app_modes) == "terminal-keys"
            # Another program's data: a class of control characters and 10 KB is cut and cleaned.
            evil = b"\x1b[2J" + b"x" * 10_000 + b"\0Evil\n\0"
            client.change_property(Xatom.WM_CLASS, Xatom.STRING, 8, evil)
            connection.sync()
            found = focused_app(client.id, display)
            assert found is not None and found.instance == "[2J" + "x" * 97 and found.app_class == ""
            assert mode_name(found, Settings().dictation_app_modes) == "default"
        finally:
            connection.close()
    assert focused_app(window, display) is None  # the window is gone


def test_a_terminal_pastes_with_ctrl_shift_v_not_ctrl_v(display: str, terminal: Editor, monkeypatch) -> None:
    from parley.app.desktop.typing.x11 import X11Keyboard

    monkeypatch.setenv("DISPLAY", display)
    keyboard = X11Keyboard()
    try:
        keyboard.paste("ctrl+v")  # what pastes elsewhere does nothing in a terminal
        keyboard.type_text("|")  # keys arrive in order: a paste by Ctrl+V would be before this
        keyboard.paste("ctrl+shift+v")
    finally:
        keyboard.close()
    wanted = "|" + USERS_CLIPBOARD
    wait_until(lambda: len(terminal.read().get("text", "")) >= len(wanted), "the terminal to paste", timeout=15)
    assert terminal.read()["text"] == wanted


# ---------------------------------------------------------------- the real app


def start_app(tmp_path: Path, display: str, chat_model: Path, **settings: Any) -> App:
    env = app_environment(
        tmp_path,
        platform="xcb",
        settings={
            "chat_model": str(chat_model),
            "max_tokens": 12,
            "microphone": "pulse",
            "told_about_global_shortcuts": True,
            "close_to_tray": False,
            **settings,
        },
    )
    env["DISPLAY"] = display
    app = App(env)
    try:
        app.wait_for("listening in every application for Ctrl+Alt+Space", timeout=60)
        app.wait_for("the speech model is ready")
    except BaseException:
        app.stop()
        raise
    return app


@pytest.mark.parametrize("method", ["type", "paste"])
def test_dictation_is_typed_into_the_focused_app_and_the_clipboard_kept(
    tmp_path: Path, display: str, editor: Editor, tiny_chat_model: Path, mic, question_clip: Path, method: str
) -> None:
    app = start_app(tmp_path, display, tiny_chat_model, dictation_method=method)
    try:
        xinput = x11.XInput(display)
        xinput.focus(editor.window)
        xinput.key_down("ctrl+alt+space")
        mic.play(question_clip)  # held while the sentence plays, auto-repeating
        xinput.key_up("space")
        xinput.key_up("ctrl+alt")
        typed = settled_text(editor)  # by then a paste has put the clipboard back (after 0.5 s)
        assert word_error_rate(QUESTION, typed) < 0.35 and typed.endswith(" "), typed
        assert editor.read()["clipboard"] == USERS_CLIPBOARD
        assert not conversation_messages(tmp_path), "dictation must not become a chat message"
    finally:
        app.stop()


def test_in_a_terminal_the_dictation_is_pasted_with_ctrl_shift_v_without_a_space_and_kept_in_the_history(
    tmp_path: Path, display: str, terminal: Editor, tiny_chat_model: Path, mic, question_clip: Path
) -> None:
    app = start_app(tmp_path, display, tiny_chat_model, dictation_method="type", dictation_cleanup=True)
    try:
        xinput = x11.XInput(display)
        xinput.focus(terminal.window)
        xinput.key_down("ctrl+alt+space")
        mic.play(question_clip)
        xinput.key_up("space")
        xinput.key_up("ctrl+alt")
        typed = settled_text(terminal)  # only a paste by Ctrl+Shift+V reaches this "terminal"
        assert word_error_rate(QUESTION, typed) < 0.35 and not typed.endswith(" "), typed
        wait_until(lambda: terminal.read()["clipboard"] == USERS_CLIPBOARD, "the clipboard to be put back")
        [(raw, kept, application, note)] = dictations(tmp_path)
        assert kept == typed and application == "Gnome-terminal" and note == "", (raw, note)
    finally:
        app.stop()


def test_a_clean_up_the_chat_model_fails_types_the_plain_dictation_and_the_history_says_why(
    tmp_path: Path, display: str, editor: Editor, tiny_chat_model: Path, mic, question_clip: Path
) -> None:
    """The tiny random-weight model never writes a usable clean-up (it writes on and on): the
    plain dictation is typed, and the history keeps why."""
    app = start_app(tmp_path, display, tiny_chat_model, dictation_cleanup=True, dictation_cleanup_timeout_s=1.0)
    try:
        xinput = x11.XInput(display)
        xinput.focus(editor.window)
        xinput.key_down("ctrl+alt+space")
        mic.play(question_clip)
        xinput.key_up("space")
        xinput.key_up("ctrl+alt")
        typed = settled_text(editor)
        assert word_error_rate(QUESTION, typed) < 0.35 and typed.endswith(" "), typed
        [(raw, kept, application, note)] = dictations(tmp_path)
        assert kept == typed.strip() and raw.strip() == kept, (raw, kept)
        assert application, "the editor's window class, as X11 tells it"
        assert note.endswith("so the text was typed without the clean-up."), note
    finally:
        app.stop()


def test_a_tap_starts_a_dictation_and_the_next_tap_ends_it(
    tmp_path: Path, display: str, editor: Editor, tiny_chat_model: Path, mic, question_clip: Path
) -> None:
    app = start_app(tmp_path, display, tiny_chat_model)
    try:
        xinput = x11.XInput(display)
        xinput.focus(editor.window)
        xinput.tap("ctrl+alt+space")  # press and release at once: recording goes on
        mic.play(question_clip)
        xinput.tap("ctrl+alt+space")
        typed = settled_text(editor)
        assert word_error_rate(QUESTION, typed) < 0.35, typed
    finally:
        app.stop()


def test_the_app_says_when_another_program_holds_its_shortcut(
    tmp_path: Path, display: str, tiny_chat_model: Path, monkeypatch
) -> None:
    from parley.app.desktop.keysyms import parse_shortcut
    from parley.app.desktop.shortcuts.x11 import X11HotKeys

    monkeypatch.setenv("DISPLAY", display)
    other = X11HotKeys(lambda *_: None, lambda *_: None)
    assert other.grab({"theirs": parse_shortcut("Ctrl+Alt+Space")}) == {}
    env = app_environment(tmp_path, platform="xcb", settings={"chat_model": str(tiny_chat_model)})
    app = App({**env, "DISPLAY": display})
    try:
        line = app.wait_for("already taken", timeout=60)
        assert "Dictate: Ctrl+Alt+Space is already taken by another program" in line
        assert any("listening in every application for Ctrl+Alt+Return" in seen for seen in app.lines)
    finally:
        app.stop()
        other.close()


def test_dictate_toggle_from_the_command_line(
    tmp_path: Path, display: str, editor: Editor, tiny_chat_model: Path, mic, question_clip: Path
) -> None:
    app = start_app(tmp_path, display, tiny_chat_model)
    env = {**app_environment(tmp_path, platform="xcb"), "DISPLAY": display}
    toggle = [sys.executable, "-m", "parley", "dictate", "--toggle"]
    try:
        x11.XInput(display).focus(editor.window)
        assert subprocess.run(toggle, env=env, cwd=REPO, timeout=60).returncode == 0
        mic.play(question_clip)
        assert subprocess.run(toggle, env=env, cwd=REPO, timeout=60).returncode == 0
        typed = settled_text(editor)
        assert word_error_rate(QUESTION, typed) < 0.35, typed
    finally:
        app.stop()
    not_running = subprocess.run(toggle, env=env, cwd=REPO, timeout=60, capture_output=True, text=True)
    assert not_running.returncode == 1 and "Parley is not running" in not_running.stderr


def test_ask_parley_answers_in_the_quick_ask_window(
    tmp_path: Path, display: str, editor: Editor, tiny_chat_model: Path, mic, question_clip: Path
) -> None:
    app = start_app(tmp_path, display, tiny_chat_model)
    try:
        xinput = x11.XInput(display)
        xinput.focus(editor.window)
        xinput.key_down("ctrl+alt+Return")
        mic.play(question_clip)
        xinput.key_up("Return")
        xinput.key_up("ctrl+alt")
        found = subprocess.run(
            ["xdotool", "search", "--sync", "--onlyvisible", "--name", "^Ask Parley$"],
            env=x11_env(display),
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert found.returncode == 0 and found.stdout.split(), "the quick-ask window did not appear"
        wait_until(lambda: len(conversation_messages(tmp_path)) == 2, "the answer to be saved")
        (role_q, question), (role_a, answer) = conversation_messages(tmp_path)
        assert role_q == "user" and word_error_rate(QUESTION, question) < 0.35, question
        assert role_a == "assistant" and answer.strip()
        assert editor.read().get("text", "") == "", "a question must not be typed anywhere"
    finally:
        app.stop()


def conversation_messages(tmp_path: Path) -> list[tuple[str, str]]:
    """The saved messages of the app's conversations, oldest first (complete ones only)."""
    path = tmp_path / "data" / "conversations.sqlite3"
    if not path.exists():
        return []
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        rows = db.execute("SELECT role, content FROM messages WHERE state = 'complete' ORDER BY id").fetchall()
    return [(str(role), str(content)) for role, content in rows]


def dictations(tmp_path: Path) -> list[tuple[str, str, str, str]]:
    """The app's saved dictation history (raw, typed, application, note), oldest first."""
    path = tmp_path / "data" / "dictations.sqlite3"
    if not path.exists():
        return []
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        rows = db.execute("SELECT raw, typed, application, note FROM dictations ORDER BY id").fetchall()
    return [(str(raw), str(typed), str(app), str(note)) for raw, typed, app, note in rows]
