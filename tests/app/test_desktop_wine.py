"""Parley's Windows shortcuts and typing, run for real: the Windows CPython under Wine, on Xvfb.

``parley/app/desktop/shortcuts/windows.py`` and ``typing/windows.py`` call user32 through ctypes.
Here they run, unchanged, in the official Windows Python 3.11 (x64) under Wine
(``tests/support/wine.py``), against real Windows programs: a window with a multi-line EDIT
control (``TARGET``, another Wine process, as the app the user writes in), and a second
instance of the listener (as another program holding the shortcut).

What Wine does differently from Windows, and how these tests deal with it:

- **No system-wide keyboard.** Wine sees only the keys that reach one of its own X windows, so
  ``RegisterHotKey`` fires only while a Wine window has the X focus.  The hotkey test gives the
  target window the X focus (XTEST, from the Linux side) before holding the keys, as a person
  would be typing in a Windows app; on Windows the hotkey fires whatever has the focus.
- **MOD_NOREPEAT is ignored** (Wine 8.0): with X auto-repeat on, a held shortcut posts
  ``WM_HOTKEY`` again at every repeat (660 ms, then 25 a second).  The test keeps auto-repeat
  on, on purpose: Parley must report one press however many ``WM_HOTKEY`` come while the keys
  are down, which on Windows protects against the same repeats where ``MOD_NOREPEAT`` is not
  honoured.
- **Foreground rules**: Wine lets a process take the foreground freely, so ``TARGET`` makes
  itself the foreground window; without a window manager the X focus is PointerRoot, which
  Wine's own ``SetForegroundWindow`` and ``SetFocus`` do not need for ``SendInput``.

What is checked is what a user sees: the EDIT's text (line breaks as Windows stores them,
``\\r\\n``), one press and one release per hold (the release after the keys went up), the words
for a shortcut another program holds, and a shortcut free again once Parley closes (at once,
even while it is held with other messages queued).

Needs the Debian packages wine and wine64, Xvfb and xdotool; the Windows Python is downloaded
(pinned, hash-checked) into ``~/.cache/parley/wine/`` if ``python -m tests.support.wine`` has
not put it there.
"""

from __future__ import annotations

import contextlib
import subprocess
import time
from collections.abc import Iterator

import pytest

from tests.support import x11
from tests.support.requirements import require
from tests.support.wine import WineProcess, WineSession, WineUnavailable, missing_tools, wine_session

pytestmark = [pytest.mark.wine, pytest.mark.x11]

SHORTCUT = "Ctrl+Alt+Space"
TITLE = "Parley Wine target"

# The app the user writes in: a top-level window whose multi-line EDIT has the focus.  Reports
# its window handles, whether it is the foreground window, and the EDIT's text every 50 ms,
# until the test signals "quit"; the process's end takes its windows (Wine's DestroyWindow waits
# 2 s for a window manager's answer when there is none).
TARGET = r"""
import ctypes
from ctypes import wintypes as w

user32 = ctypes.WinDLL("user32", use_last_error=True)
kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
LRESULT = ctypes.c_ssize_t
WNDPROC = ctypes.WINFUNCTYPE(LRESULT, w.HWND, w.UINT, w.WPARAM, w.LPARAM)


class WNDCLASSW(ctypes.Structure):
    _fields_ = [("style", w.UINT), ("lpfnWndProc", WNDPROC), ("cbClsExtra", ctypes.c_int),
                ("cbWndExtra", ctypes.c_int), ("hInstance", w.HINSTANCE), ("hIcon", w.HICON),
                ("hCursor", w.HANDLE), ("hbrBackground", w.HBRUSH), ("lpszMenuName", w.LPCWSTR),
                ("lpszClassName", w.LPCWSTR)]


def proto(function, restype, *argtypes):
    function.restype, function.argtypes = restype, argtypes
    return function


proto(kernel32.GetModuleHandleW, w.HMODULE, w.LPCWSTR)
proto(user32.RegisterClassW, w.ATOM, ctypes.POINTER(WNDCLASSW))
proto(user32.CreateWindowExW, w.HWND, w.DWORD, w.LPCWSTR, w.LPCWSTR, w.DWORD, ctypes.c_int, ctypes.c_int,
      ctypes.c_int, ctypes.c_int, w.HWND, w.HMENU, w.HINSTANCE, w.LPVOID)
proto(user32.DefWindowProcW, LRESULT, w.HWND, w.UINT, w.WPARAM, w.LPARAM)
proto(user32.SetForegroundWindow, w.BOOL, w.HWND)
proto(user32.GetForegroundWindow, w.HWND)
proto(user32.SetFocus, w.HWND, w.HWND)
proto(user32.GetFocus, w.HWND)
proto(user32.GetWindowTextLengthW, ctypes.c_int, w.HWND)
proto(user32.GetWindowTextW, ctypes.c_int, w.HWND, w.LPWSTR, ctypes.c_int)
proto(user32.SetTimer, ctypes.c_size_t, w.HWND, ctypes.c_size_t, w.UINT, w.LPVOID)
proto(user32.PostQuitMessage, None, ctypes.c_int)
proto(user32.GetMessageW, w.BOOL, ctypes.POINTER(w.MSG), w.HWND, w.UINT, w.UINT)
proto(user32.TranslateMessage, w.BOOL, ctypes.POINTER(w.MSG))
proto(user32.DispatchMessageW, LRESULT, ctypes.POINTER(w.MSG))
WM_SETFOCUS, WM_TIMER = 0x0007, 0x0113
WS_OVERLAPPEDWINDOW, WS_VISIBLE, WS_CHILD, WS_BORDER = 0x00CF0000, 0x10000000, 0x40000000, 0x00800000
ES_MULTILINE, ES_AUTOVSCROLL, ES_WANTRETURN = 0x0004, 0x0040, 0x1000
handles = {}


def text(hwnd):
    buffer = ctypes.create_unicode_buffer(user32.GetWindowTextLengthW(hwnd) + 1)
    user32.GetWindowTextW(hwnd, buffer, len(buffer))
    return buffer.value


@WNDPROC
def window_procedure(hwnd, message, wparam, lparam):
    if message == WM_TIMER:
        report(text=text(handles["edit"]), foreground=user32.GetForegroundWindow() == hwnd,
               edit_focused=user32.GetFocus() == handles["edit"])
        if wait_for("quit", timeout=0):
            user32.PostQuitMessage(0)  # DestroyWindow would wait 2 s for a window manager
        return 0
    if message == WM_SETFOCUS and "edit" in handles:
        user32.SetFocus(handles["edit"])
        return 0
    return user32.DefWindowProcW(hwnd, message, wparam, lparam)


instance = kernel32.GetModuleHandleW(None)
window_class = WNDCLASSW(lpfnWndProc=window_procedure, hInstance=instance, hbrBackground=6,
                         lpszClassName="ParleyWineTarget")
assert user32.RegisterClassW(ctypes.byref(window_class)), ctypes.get_last_error()
window = user32.CreateWindowExW(0, "ParleyWineTarget", PARAMS["title"], WS_OVERLAPPEDWINDOW | WS_VISIBLE,
                                40, 40, 640, 320, None, None, instance, None)
edit = user32.CreateWindowExW(0, "EDIT", "", WS_CHILD | WS_VISIBLE | WS_BORDER | ES_MULTILINE | ES_AUTOVSCROLL
                              | ES_WANTRETURN, 10, 10, 600, 250, window, None, instance, None)
assert window and edit, ctypes.get_last_error()
handles.update(window=window, edit=edit)
user32.SetForegroundWindow(window)
user32.SetFocus(edit)
report(window=window, edit=edit, text="", foreground=user32.GetForegroundWindow() == window,
       edit_focused=user32.GetFocus() == edit)
user32.SetTimer(window, 1, 50, None)
message = w.MSG()
while user32.GetMessageW(ctypes.byref(message), None, 0, 0) > 0:
    user32.TranslateMessage(ctypes.byref(message))
    user32.DispatchMessageW(ctypes.byref(message))
"""

# Which modules importing Parley's Windows code brings in (it must stay Qt-free: the listener
# and the keyboard run where PySide6 may not be importable).
IMPORTS = r"""
before = set(sys.modules)
import parley.app.desktop.shortcuts.windows
import parley.app.desktop.typing.windows
import parley.app.desktop.keysyms
report(version=sys.version, platform=sys.platform,
       added=sorted(name for name in set(sys.modules) - before if name.split(".")[0] not in sys.stdlib_module_names))
"""

# Parley's keyboard types PARAMS["text"] into whatever has the focus.
TYPE = r"""
from parley.app.desktop.typing.windows import WindowsKeyboard

keyboard = WindowsKeyboard()
report(focus=keyboard.focus(), modifiers_up=keyboard.wait_for_modifiers_up(timeout=1.0))
started = time.monotonic()
sent = keyboard.type_text(PARAMS["text"])
report(sent=sent, seconds=round(time.monotonic() - started, 3))
"""

# The Windows clipboard holds PARAMS["clipboard"] (as another program would have put it there);
# then Parley's keyboard pastes it.
PASTE = r"""
import ctypes
from ctypes import wintypes as w

from parley.app.desktop.typing.windows import WindowsKeyboard

user32 = ctypes.WinDLL("user32", use_last_error=True)
kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
kernel32.GlobalAlloc.restype, kernel32.GlobalAlloc.argtypes = w.HGLOBAL, [w.UINT, ctypes.c_size_t]
kernel32.GlobalLock.restype, kernel32.GlobalLock.argtypes = w.LPVOID, [w.HGLOBAL]
kernel32.GlobalUnlock.argtypes = [w.HGLOBAL]
user32.OpenClipboard.argtypes = [w.HWND]
user32.SetClipboardData.restype, user32.SetClipboardData.argtypes = w.HANDLE, [w.UINT, w.HANDLE]
CF_UNICODETEXT, GMEM_MOVEABLE = 13, 0x0002
data = PARAMS["clipboard"].encode("utf-16-le") + b"\0\0"
memory = kernel32.GlobalAlloc(GMEM_MOVEABLE, len(data))
ctypes.memmove(kernel32.GlobalLock(memory), data, len(data))
kernel32.GlobalUnlock(memory)
assert user32.OpenClipboard(None), ctypes.get_last_error()
user32.EmptyClipboard()
assert user32.SetClipboardData(CF_UNICODETEXT, memory), ctypes.get_last_error()
user32.CloseClipboard()
WindowsKeyboard().paste()
report(pasted=True)
"""

# Parley's listener: grabs PARAMS["shortcut"], reports each press and release with its time,
# closes when the test signals "close" (reporting how long that took and whether its thread
# is gone), and ends at "quit" (so the process outlives the listener).
LISTENER = r"""
from parley.app.desktop.keysyms import parse_shortcut
from parley.app.desktop.shortcuts.windows import WindowsHotKeys


def event(**values):
    report(events=reported().get("events", []) + [dict(values, t=time.time())])


keys = WindowsHotKeys(lambda name, focus: event(kind="press", name=name, focus=focus),
                      lambda name: event(kind="release", name=name))
hotkey_messages = []
pressed = keys._pressed


def counted(hotkey_id):  # every WM_HOTKEY the listener's thread takes, repeats included
    hotkey_messages.append(time.time())
    report(hotkey_messages=len(hotkey_messages))
    pressed(hotkey_id)


keys._pressed = counted
problems = keys.grab({"dictate": parse_shortcut(PARAMS["shortcut"])})
keys.start()
report(problems=problems, events=[])
if wait_for("close"):
    started = time.monotonic()
    keys.close()
    report(close_s=round(time.monotonic() - started, 3),
           listener_threads=[thread.name for thread in threading.enumerate() if thread.name == "parley-windows-keys"])
wait_for("quit")
"""

# close() while the shortcut is held (keys pressed with SendInput, as a Wine program can) and
# other messages were queued before it: the listener must still end at once.
CLOSE_WHILE_HELD = r"""
import ctypes

from parley.app.desktop.keysyms import parse_shortcut
from parley.app.desktop.shortcuts.windows import WindowsHotKeys, user32
from parley.app.desktop.typing.windows import INPUT, KEYEVENTF_KEYUP, input_records

KEYS = (0x11, 0x12, 0x20)  # Ctrl, Alt, Space
WM_APP = 0x8000
api = user32()


def send(events):
    assert api.SendInput(len(events), input_records(events), ctypes.sizeof(INPUT)) == len(events)


events = []
keys = WindowsHotKeys(lambda name, focus: events.append("press"), lambda name: events.append("release"))
problems = keys.grab({"dictate": parse_shortcut(PARAMS["shortcut"])})
send([(key, 0, 0) for key in KEYS])
deadline = time.monotonic() + 5
while not events and time.monotonic() < deadline:
    time.sleep(0.01)
time.sleep(0.1)  # the listener now polls the held key
listener = next(thread for thread in threading.enumerate() if thread.name == "parley-windows-keys")
# Two messages Parley leaves alone, queued before the listener can look: PyDLL's calls keep the
# GIL, and a long switch interval keeps it here between them.
keeping_the_gil = ctypes.PyDLL("user32")
keeping_the_gil.PostThreadMessageW.argtypes = [ctypes.c_uint32, ctypes.c_uint32, ctypes.c_size_t, ctypes.c_ssize_t]
sys.setswitchinterval(1.0)
for _ in range(2):
    keeping_the_gil.PostThreadMessageW(listener.native_id, WM_APP, 0, 0)
sys.setswitchinterval(0.005)
started = time.monotonic()
keys.close()
report(problems=problems, close_s=round(time.monotonic() - started, 3), alive=listener.is_alive(),
       held=all(api.GetAsyncKeyState(key) & 0x8000 for key in KEYS), events=list(events))
send([(key, 0, KEYEVENTF_KEYUP) for key in reversed(KEYS)])
"""


@pytest.fixture(scope="module")
def display() -> Iterator[str]:
    missing = x11.missing_tools()
    require(not missing, f"X11 test tools missing: {', '.join(missing)} (apt-get install xvfb xdotool x11-utils)")
    with x11.xvfb() as name:
        yield name


@pytest.fixture(scope="module")
def wine(display: str) -> Iterator[WineSession]:
    missing = missing_tools()
    require(not missing, f"Wine missing: {', '.join(missing)} (apt-get install wine wine64)")
    with contextlib.ExitStack() as stack:
        try:
            session = stack.enter_context(wine_session(display))
        except WineUnavailable as error:
            require(False, f"Wine or the pinned Windows Python unusable: {error}")
            raise
        yield session


@pytest.fixture
def target(wine: WineSession) -> Iterator[WineProcess]:
    """The app the user writes in, in the foreground with its EDIT focused."""
    window = wine.start(TARGET, "target", title=TITLE)
    try:
        window.wait_report(lambda report: report.get("foreground") and report.get("edit_focused"))
        yield window
    finally:
        window.signal("quit")
        window.wait()


def _shown(window: WineProcess, expected: str, timeout: float = 10.0) -> str | None:
    """The EDIT's text once it is ``expected`` (or what it was at the timeout)."""
    deadline = time.monotonic() + timeout
    while (text := window.report().get("text")) != expected and time.monotonic() < deadline:
        time.sleep(0.05)
    return text


def _x_window(display: str, title: str) -> int:
    found = subprocess.run(
        ["xdotool", "search", "--sync", "--name", title],
        env={"DISPLAY": display, "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=15,
        check=True,
    ).stdout.split()
    return int(found[0])


def test_windows_code_imports_without_qt(wine: WineSession) -> None:
    report = wine.run(IMPORTS, "imports")
    assert report["platform"] == "win32"
    assert report["version"].startswith("3.11.9 ") and "AMD64" in report["version"]
    # Only Parley's own Qt-free modules: no PySide6, numpy or anything else outside the stdlib.
    assert set(report["added"]) <= {
        "parley",
        "parley.app",
        "parley.app.desktop",
        "parley.app.desktop.keysyms",
        "parley.app.desktop.shortcuts",
        "parley.app.desktop.shortcuts.windows",
        "parley.app.desktop.typing",
        "parley.app.desktop.typing.windows",
    }, report["added"]


def test_typing_and_pasting_reach_the_focused_edit(wine: WineSession, target: WineProcess) -> None:
    words = "Grüße, 日本語 😀 done\n second line"
    typed = wine.run(TYPE, "type", text=words)
    assert typed["modifiers_up"] is True  # nothing held: no wait
    assert typed["focus"] == target.report()["window"]  # the foreground window, as Parley hands it on
    assert typed["sent"] == len(words)
    expected = "Grüße, 日本語 😀 done\r\n second line"  # a multi-line EDIT stores line breaks as CR LF
    assert _shown(target, expected) == expected

    clipboard = "Clip 📋 ü\tend"
    wine.run(PASTE, "paste", clipboard=clipboard)
    assert _shown(target, expected + clipboard) == expected + clipboard


def test_held_shortcut_is_one_press_and_one_release(wine: WineSession, target: WineProcess, display: str) -> None:
    repeat = x11.auto_repeat(display)
    assert repeat.on, "Xvfb's auto-repeat must be on: the test is about the repeats"
    listener = wine.start(LISTENER, "listener", shortcut=SHORTCUT)
    try:
        assert listener.wait_report(lambda report: "problems" in report)["problems"] == {}
        keys = x11.XInput(display)
        keys.focus(_x_window(display, TITLE))  # Wine sees only the keys sent to its own windows
        held_from = time.time()
        keys.key_down("ctrl+alt+space")
        time.sleep(1.5)  # past the 660 ms auto-repeat delay: some 20 repeats
        releasing_at = time.time()
        keys.key_up("space")
        released_at = time.time()
        keys.key_up("ctrl+alt")
        report = listener.wait_report(lambda report: len(report.get("events", [])) >= 2)
        time.sleep(0.5)  # a second press would be reported by now
        report = listener.report()
    finally:
        listener.signal("close")
        listener.signal("quit")
        listener.wait()
    events = report["events"]
    print(f"keys down at {held_from:.3f}, up at {released_at:.3f}; {report['hotkey_messages']} WM_HOTKEY; {events}")
    # Wine 8 posts WM_HOTKEY at every auto-repeat (about 22 here, MOD_NOREPEAT or not); Windows
    # posts one.  Either way, one press and one release.
    assert report["hotkey_messages"] >= 1
    assert [(e["kind"], e["name"]) for e in events] == [("press", "dictate"), ("release", "dictate")], report
    press, release = events
    assert held_from <= press["t"] < held_from + 0.5  # at the press, not at a repeat
    assert press["focus"] == target.report()["window"]  # the app the words go back to
    assert releasing_at <= release["t"] < released_at + 0.5  # once the keys went up (10 ms polls)


def test_shortcut_held_by_another_program_is_a_problem(wine: WineSession) -> None:
    first = wine.start(LISTENER, "first", shortcut=SHORTCUT)
    try:
        assert first.wait_report(lambda report: "problems" in report)["problems"] == {}
        second = wine.start(LISTENER, "second", shortcut=SHORTCUT)
        second.signal("close")
        second.signal("quit")
        problems = second.wait()["problems"]
    finally:
        first.signal("close")
        first.signal("quit")
        first.wait()
    assert list(problems) == ["dictate"]
    assert "Ctrl+Alt+Space is already taken by another program" in problems["dictate"]


def test_close_ends_the_listener_and_frees_the_shortcut(wine: WineSession) -> None:
    first = wine.start(LISTENER, "first", shortcut=SHORTCUT)
    try:
        assert first.wait_report(lambda report: "problems" in report)["problems"] == {}
        first.signal("close")
        closed = first.wait_report(lambda report: "close_s" in report)
        assert closed["listener_threads"] == []  # the thread has ended...
        assert closed["close_s"] < 0.5  # ...at once: WM_QUIT wakes GetMessageW
        # The first process still runs: only close() can have given the shortcut back.
        second = wine.start(LISTENER, "second", shortcut=SHORTCUT)
        second.signal("close")
        second.signal("quit")
        report = second.wait()
        assert report["problems"] == {}
        assert report["listener_threads"] == []
        assert first.process.poll() is None
    finally:
        first.signal("quit")
        first.wait()


def test_close_while_the_shortcut_is_held(wine: WineSession, target: WineProcess) -> None:
    report = wine.run(CLOSE_WHILE_HELD, "close-while-held", shortcut=SHORTCUT)
    assert report["problems"] == {}
    assert report["events"] == ["press"]
    assert report["held"] is True  # still down when close() returned
    assert report["alive"] is False
    assert report["close_s"] < 0.5  # not the 2 s close() waits for a thread that does not end
