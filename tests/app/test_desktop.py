"""The desktop settings that need no desktop: start at login (the XDG autostart entry) and
closing the window to the tray."""

from __future__ import annotations

from pathlib import Path

import pytest

from parley.app.desktop import autostart
from parley.app.ui.main_window import MainWindow


@pytest.fixture
def config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    return tmp_path


def test_start_at_login_writes_and_removes_parleys_own_entry(config_home: Path) -> None:
    entry = config_home / "autostart" / "parley.desktop"
    assert autostart.set_enabled(True) is None
    text = entry.read_text()
    assert "[Desktop Entry]" in text and autostart.MARK in text and "Exec=" in text and autostart.enabled()
    assert autostart.set_enabled(False) is None
    assert not entry.exists() and not autostart.enabled()


def test_a_users_own_autostart_entry_is_left_alone(config_home: Path) -> None:
    entry = config_home / "autostart" / "parley.desktop"
    entry.parent.mkdir()
    entry.write_text("[Desktop Entry]\nExec=my-own-parley --flags\n")
    for on in (True, False):
        problem = autostart.set_enabled(on)
        assert problem is not None and "not Parley's own" in problem
        assert entry.read_text() == "[Desktop Entry]\nExec=my-own-parley --flags\n"
    assert not autostart.enabled()


def test_closing_to_the_tray_hides_the_window_and_quit_ends_it(qtbot) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    window.hide_on_close = True
    with qtbot.assertNotEmitted(window.closing), qtbot.waitSignal(window.hidden_to_tray, timeout=5000):
        window.close()
    assert not window.isVisible()
    window.bring_forward()
    assert window.isVisible()
    with qtbot.waitSignal(window.closing, timeout=5000):
        window.quit()
