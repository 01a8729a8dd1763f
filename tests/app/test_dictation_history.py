"""The dictation history: its own SQLite file beside the conversations', with their crash safety.

A real store on disk throughout: the round trip, retention, the cap, Clear all (the text is
gone from the file's bytes, not only unlinked), a second Parley, a read-only file, a real full
disk (a small tmpfs), a damaged file; and the history window (a real window, offscreen) filled
from a real log: Copy, Type again, Clear all through its confirmation, and "could not save".
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QMessageBox

from parley.app.conversations.database import StoreError
from parley.app.conversations.dictation_history import HISTORY_FILE, MAX_KEPT, DictationHistory
from parley.app.conversations.dictation_log import DictationLog
from parley.app.conversations.dictation_record import DictationRecord
from parley.app.ui import i18n
from parley.app.ui.dictation_history import DictationHistoryWindow
from tests.support.lines import LineReader
from tests.support.privileges import run_on_small_tmpfs, without_root
from tests.support.requirements import require

REPO = Path(__file__).resolve().parents[2]
DAY = 86400.0
NOW = 1_750_000_000.0


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def history(tmp_path):
    h = DictationHistory(tmp_path / HISTORY_FILE)
    yield h
    h.close()


def record(text: str, when: float = NOW, **fields) -> DictationRecord:
    return DictationRecord(when, raw=f"um {text}", typed=text, **fields)


def file_bytes(path: Path) -> bytes:
    """The database and SQLite's files beside it, as they are on disk."""
    return b"".join(Path(f"{path}{s}").read_bytes() for s in ("", "-wal") if Path(f"{path}{s}").exists())


# ------------------------------------------------------------------ the store


def test_dictations_come_back_newest_first_after_reopening(tmp_path):
    path = tmp_path / HISTORY_FILE
    h = DictationHistory(path)
    first = h.add(record("Siobhan will call back", NOW - 60, application="Gnome-terminal", note="a note", window=7))
    second = h.add(record("second one", NOW))
    assert first.id is not None and second.id is not None and first.id != second.id
    h.close()
    h = DictationHistory(path)
    assert h.journal_mode == "wal" and not h.read_only and h.problem is None
    assert h.recent() == [
        DictationRecord(NOW, "um second one", "second one", "", "", id=second.id),
        DictationRecord(
            NOW - 60, "um Siobhan will call back", "Siobhan will call back", "Gnome-terminal", "a note", id=first.id
        ),
    ]  # the X window is not kept: ids are reused once the window is gone
    h.close()


def test_only_dictations_younger_than_the_retention_stay(history):
    for age_days in (10, 8, 6, 1, 0):
        history.add(record(f"{age_days} days old", NOW - age_days * DAY))
    assert history.forget_older_than(7, NOW) == 2
    assert [r.typed for r in history.recent()] == ["0 days old", "1 days old", "6 days old"]
    assert history.forget_older_than(0, NOW) == 3
    assert history.recent() == []


def test_the_history_keeps_at_most_its_cap_the_oldest_go_first(history):
    for n in range(MAX_KEPT + 5):
        history.add(record(f"take {n}", NOW + n))
    kept = history.recent()
    assert len(kept) == MAX_KEPT
    assert kept[0].typed == f"take {MAX_KEPT + 4}" and kept[-1].typed == "take 5"


def test_clear_all_leaves_no_trace_of_the_text_in_the_files(tmp_path, history):
    secret = "the door code is 4417 and Siobhan knows it"
    for n in range(20):
        history.add(record(f"{secret} ({n})"))
    assert secret.encode() in file_bytes(tmp_path / HISTORY_FILE)
    history.clear()
    assert history.recent() == []
    assert secret.encode() not in file_bytes(tmp_path / HISTORY_FILE)
    assert b"Siobhan" not in file_bytes(tmp_path / HISTORY_FILE)
    history.add(record("after clearing"))  # still a working store
    assert [r.typed for r in history.recent()] == ["after clearing"]


def test_forgotten_dictations_leave_no_trace_either(tmp_path, history):
    history.add(record("an old secret about Dervla", NOW - 30 * DAY))
    history.add(record("recent", NOW))
    assert history.forget_older_than(7, NOW) == 1
    assert b"Dervla" not in file_bytes(tmp_path / HISTORY_FILE)


_HOLDER = """
import sys
from parley.app.conversations.dictation_history import DictationHistory
from parley.app.conversations.dictation_record import DictationRecord
h = DictationHistory(sys.argv[1])
h.add(DictationRecord(1.0, "raw", "held by the first Parley"))
print("ready", flush=True)
sys.stdin.readline()
"""


def test_a_second_parley_shows_the_history_and_saves_nothing(tmp_path):
    path = tmp_path / HISTORY_FILE
    proc = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=REPO
    )
    try:
        assert LineReader(proc.stdout).next(60).strip() == "ready"
        second = DictationHistory(path)
        try:
            assert second.read_only
            assert second.problem == (
                "Dictations are shown but not saved: another Parley is using them; close it and restart this Parley."
            )
            assert [r.typed for r in second.recent()] == ["held by the first Parley"]
            with pytest.raises(StoreError, match="another Parley is using them"):
                second.add(record("from the second"))
        finally:
            second.close()
    finally:
        proc.kill()
        proc.wait(timeout=60)


def test_a_damaged_history_is_moved_aside_and_a_new_one_started(tmp_path):
    path = tmp_path / HISTORY_FILE
    path.write_bytes(os.urandom(50_000))
    damaged = path.read_bytes()
    h = DictationHistory(path)
    try:
        assert h.problem is not None and h.problem.startswith("The dictation database could not be read (")
        [kept] = tmp_path.glob("dictations.damaged-*.sqlite3")
        assert kept.read_bytes() == damaged
        h.add(record("saved in the new one"))
        assert [r.typed for r in h.recent()] == ["saved in the new one"]
    finally:
        h.close()


# ------------------------------------------------------------------ the log: what the app keeps


def test_the_log_saves_each_dictation_and_applies_the_retention(tmp_path, qapp):
    clock, days = Clock(), [7]
    history = DictationHistory(tmp_path / HISTORY_FILE)
    log = DictationLog(history, lambda: days[0], clock)
    log.add("um hello", "Hello.", "Gnome-terminal", window=42)
    clock.now += 3 * DAY
    log.add("second", "Second.")
    [newest, oldest] = log.records()
    assert (newest.typed, newest.window) == ("Second.", 0)
    assert (oldest.raw, oldest.typed, oldest.application, oldest.window) == ("um hello", "Hello.", "Gnome-terminal", 42)
    assert log.problem is None and all(r.id is not None for r in log.records())
    clock.now += 5 * DAY  # the first is 8 days old now
    log.apply_retention()
    assert [r.typed for r in log.records()] == ["Second."]
    days[0] = 0  # keep none
    log.apply_retention()
    log.add("not kept", "Not kept.")
    assert log.records() == [] and history.recent() == []
    history.close()


def test_a_read_only_history_file_keeps_dictations_in_memory_and_says_so(qtbot):
    folder = Path(tempfile.mkdtemp(prefix="parley-read-only-"))  # one that ``nobody`` may write in
    try:
        folder.chmod(0o777)
        path = folder / HISTORY_FILE
        h = DictationHistory(path)
        h.add(record("saved before", NOW - 60))
        h.close()
        path.chmod(0o444)
        Path(f"{path}.lock").unlink()  # root's, from writing it: not nobody's
        contents = path.read_bytes()
        with without_root():
            history = DictationHistory(path)
            try:
                assert history.read_only
                log = DictationLog(history, lambda: 7, Clock())
                assert log.problem == (
                    f"Dictations are shown but not saved: the database file is read-only ({path}); "
                    "make it writable and restart Parley."
                )
                log.add("um typed anyway", "Typed anyway.")
                assert log.problem == (
                    "Could not save the dictation: the database file is read-only "
                    f"({path}). It is kept until Parley closes."
                )
                shown = [(r.typed, r.id is None) for r in log.records()]
                assert shown == [("Typed anyway.", True), ("saved before", False)]

                window = DictationHistoryWindow()
                qtbot.addWidget(window)
                window.show_records(log.records(), log.problem, 7)
                window.show()
                assert window.problem.isVisible() and "Could not save the dictation" in window.problem.text()
                assert window.list.topLevelItem(0).text(0).endswith("*")
                assert window.note.text() == "Not saved: it is kept until Parley closes."
            finally:
                history.close()
        assert path.read_bytes() == contents
    finally:
        shutil.rmtree(folder)


_TINY_DISK = """
import json, os, uuid
from pathlib import Path
from parley.app.conversations.dictation_history import DictationHistory
from parley.app.conversations.dictation_log import DictationLog

disk = Path(os.environ["PARLEY_TEST_DISK"])
report = {}

def fill():
    with open(disk / "filler", "wb", buffering=0) as f:
        for chunk in (65536, 4096, 512, 1):
            try:
                while True:
                    f.write(bytes(chunk))
            except OSError:
                pass

history = DictationHistory(disk / "dictations.sqlite3")
log = DictationLog(history, lambda: 7)
log.add("raw", "saved before the disk filled up")
fill()
big = uuid.uuid4().hex * 2000  # 64 KB that cannot compress away
log.add("raw", big)
report["full"] = {"problem": log.problem, "kept": [(len(r.typed), r.id is None) for r in log.records()]}
os.remove(disk / "filler")
log.add("raw", "after freeing")
report["freed"] = {"problem": log.problem, "saved": [len(r.typed) for r in history.recent()]}
history.close()
print(json.dumps(report))
"""


@pytest.mark.linux_namespaces  # a real small tmpfs (tests/support/privileges.py)
def test_a_full_disk_keeps_the_dictation_in_memory_and_saves_it_once_there_is_room(tmp_path):
    disk = tmp_path / "tiny"
    disk.mkdir()
    env = dict(os.environ, PYTHONPATH=str(REPO), PARLEY_TEST_DISK=str(disk))
    result = run_on_small_tmpfs(disk, "512k", textwrap.dedent(_TINY_DISK), env)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["full"] == {
        "problem": "Could not save the dictation: the disk is full. It is kept until Parley closes.",
        "kept": [[64_000, True], [len("saved before the disk filled up"), False]],
    }
    assert report["freed"] == {"problem": None, "saved": [len("after freeing"), 64_000, 31]}


# ------------------------------------------------------------------ the window


def _filled_window(qtbot, tmp_path) -> tuple[DictationHistoryWindow, DictationLog, DictationHistory]:
    history = DictationHistory(tmp_path / HISTORY_FILE)
    clock = Clock()
    log = DictationLog(history, lambda: 7, clock)
    log.add("um so the the meeting is at ten", "So the meeting is at ten.", "Thunderbird", window=99)
    clock.now += 60
    log.add("git status", "git status", "Gnome-terminal")
    window = DictationHistoryWindow()
    qtbot.addWidget(window)
    window.clear_requested.connect(log.clear)
    log.changed.connect(lambda: window.show_records(log.records(), log.problem, 7))
    window.show_records(log.records(), log.problem, 7)
    window.appear()
    qtbot.waitExposed(window)
    return window, log, history


def test_the_window_shows_each_dictation_and_copies_the_typed_text(qtbot, qapp, tmp_path):
    i18n.install(qapp, "en")  # as Parley does when it starts: English's plural forms ("7 days")
    window, _log, history = _filled_window(qtbot, tmp_path)
    try:
        rows = [[window.list.topLevelItem(i).text(c) for c in (1, 2)] for i in range(window.list.topLevelItemCount())]
        assert rows == [["Gnome-terminal", "git status"], ["Thunderbird", "So the meeting is at ten."]]
        assert window.kept.text() == "Dictations are kept for 7 days (Settings > Dictation)."
        assert not window.problem.isVisible()
        window.list.setCurrentItem(window.list.topLevelItem(1))
        assert window.heard.toPlainText() == "um so the the meeting is at ten"
        assert window.typed.toPlainText() == "So the meeting is at ten."
        QGuiApplication.clipboard().setText("something else")
        qtbot.mouseClick(window.copy_button, _left())
        assert QGuiApplication.clipboard().text() == "So the meeting is at ten."
        with qtbot.waitSignal(window.type_again_requested) as typed:
            qtbot.mouseClick(window.type_button, _left())
        assert typed.args[0].typed == "So the meeting is at ten." and typed.args[0].window == 99
    finally:
        history.close()


def test_the_window_writes_times_and_days_as_the_interface_language_does(qtbot, qapp, tmp_path):
    require((i18n.translations_folder() / "parley_de.qm").exists(), "the translations are not built (./setup.sh)")
    i18n.install(qapp, "de")
    try:
        window, log, history = _filled_window(qtbot, tmp_path)
        try:
            assert window.windowTitle() == "Diktatverlauf"
            assert window.kept.text() == "Diktate werden 7 Tage lang aufbewahrt (Einstellungen > Diktat)."
            window.show_records(log.records(), None, 1)
            assert window.kept.text() == "Diktate werden 1 Tag lang aufbewahrt (Einstellungen > Diktat)."
            when = window.list.topLevelItem(0).text(0)
            assert re.fullmatch(r"\d\d\.\d\d\.\d\d \d\d:\d\d", when), when  # 15.06.25 17:07, not 6/15/25 5:07 PM
        finally:
            history.close()
    finally:
        i18n.install(qapp, "en")


@pytest.mark.parametrize("answer", ["No", "Yes"])
def test_clear_all_asks_first_then_empties_the_window_and_the_file(qtbot, tmp_path, answer):
    window, log, history = _filled_window(qtbot, tmp_path)
    try:

        def answer_the_question() -> None:
            box = QApplication.activeModalWidget()
            assert isinstance(box, QMessageBox), box
            assert "Delete every dictation" in box.text()
            box.button(getattr(QMessageBox.StandardButton, answer)).click()

        QTimer.singleShot(0, answer_the_question)
        qtbot.mouseClick(window.clear_button, _left())
        if answer == "No":
            assert window.list.topLevelItemCount() == 2 and len(history.recent()) == 2
        else:
            assert window.list.topLevelItemCount() == 0 and history.recent() == []
            assert not window.clear_button.isEnabled() and not window.type_button.isEnabled()
            assert b"meeting is at ten" not in file_bytes(tmp_path / HISTORY_FILE)
    finally:
        history.close()


def _left():
    from PySide6.QtCore import Qt

    return Qt.MouseButton.LeftButton
