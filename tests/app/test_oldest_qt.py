"""Parley on the oldest Qt an installer ships (packaging/oldest-qt-requirements.txt: PySide6 6.9.3,
the .deb's and Windows'), while the venv runs the newest: a Qt name that only newer releases
have cannot land unguarded.

Two checks.  By name: every name of the Qt modules Parley imports that the venv's PySide6 has
and the oldest shipped one lacks (``QStyleHints.accessibility``, ``Qt.ContrastPreference``...)
may appear in Parley's Qt code only as a string, reached with ``getattr`` and a fallback, never
as an attribute or an import.  By running: the app starts on that Qt (its theme applied on
every appearance), each window opens (the main window with a reply, Settings and each page, the
Model library, the quick-ask window, the dictation history, the first-start page), and
``parley --self-test`` passes, each in a child process whose ``PYTHONPATH`` puts the oldest
PySide6 first (``tests/support/oldest_qt.py``; ``./setup.sh test`` installs it).
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support import oldest_qt
from tests.support.requirements import require
from tests.support.x11_child import CHILD, check, child_scenarios, run_child

REPO = Path(__file__).resolve().parents[2]
SCENARIOS = child_scenarios(__file__)


def parley_qt_modules() -> dict[Path, ast.Module]:
    """Parley's modules that import Qt, parsed."""
    found = {}
    for path in sorted((REPO / "parley").rglob("*.py")):
        source = path.read_text("utf-8")
        if "PySide6" in source:
            found[path] = ast.parse(source)
    return found


# ====================================================================== the normal session

if not CHILD:

    @pytest.fixture(scope="module")
    def qt_folder() -> Path:
        folder = oldest_qt.installed()
        require(
            folder is not None, f"PySide6 {oldest_qt.version()} is not installed: python -m tests.support.oldest_qt"
        )
        assert folder is not None
        return folder

    def names_of(env: dict[str, str]) -> tuple[str, set[str]]:
        done = subprocess.run(
            [sys.executable, "-m", "tests.support.oldest_qt", "--names"],
            cwd=REPO,
            env={**env, "QT_QPA_PLATFORM": "offscreen"},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        found = json.loads(done.stdout)
        return found["version"], set(found["names"])

    def test_the_pin_is_the_oldest_qt_an_installer_ships() -> None:
        pins = {
            "windows": (REPO / "packaging/windows/requirements-windows.txt", r"^pyside6==(\S+)"),
            "debian 11": (REPO / "packaging/linux/debian11-constraints.txt", r"^PySide6==(\S+)"),
        }
        versions = {}
        for name, (path, pattern) in pins.items():
            found = re.search(pattern, path.read_text(), re.MULTILINE | re.IGNORECASE)
            assert found, f"{path} pins no PySide6"
            versions[name] = tuple(int(p) for p in found.group(1).split("."))
        oldest = min(versions.values())
        assert tuple(int(p) for p in oldest_qt.version().split(".")) == oldest, versions
        floor = re.search(r'"PySide6>=([0-9.]+)', (REPO / "pyproject.toml").read_text())
        assert floor and floor.group(1) == oldest_qt.version(), "pyproject's floor is the oldest shipped Qt"

    def test_the_checked_modules_are_all_that_parley_imports() -> None:
        imported = set()
        for tree in parley_qt_modules().values():
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("PySide6."):
                    imported.add(node.module.split(".")[1])  # type: ignore[union-attr]
                elif isinstance(node, ast.Import):
                    imported |= {a.name.split(".")[1] for a in node.names if a.name.startswith("PySide6.")}
        assert imported <= set(oldest_qt.MODULES), imported - set(oldest_qt.MODULES)

    def test_no_qt_name_newer_than_the_oldest_shipped_is_written_in_parley(qt_folder: Path) -> None:
        newest_version, newest = names_of(dict(os.environ))
        oldest_version, oldest = names_of(oldest_qt.environment(qt_folder))
        assert oldest_version == oldest_qt.version()
        newer = newest - oldest
        print(f"PySide6 {newest_version} has {len(newer)} names that {oldest_version} lacks")
        found = []
        for path, tree in parley_qt_modules().items():
            for node in ast.walk(tree):
                if isinstance(node, ast.Attribute) and node.attr in newer:
                    found.append(f"{path.relative_to(REPO)}:{node.lineno}: .{node.attr}")
                elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("PySide6"):
                    found += [
                        f"{path.relative_to(REPO)}:{node.lineno}: import {a.name}"
                        for a in node.names
                        if a.name in newer
                    ]
        assert not found, (
            f"Qt names that PySide6 {oldest_version} (shipped by the .deb and Windows) lacks: reach them with "
            "getattr and a fallback, as ui/theme.py does for QStyleHints.accessibility:\n" + "\n".join(found)
        )

    @pytest.fixture(scope="module")
    def child_results(qt_folder: Path, tmp_path_factory: pytest.TempPathFactory) -> Any:
        report = tmp_path_factory.mktemp("oldest-qt") / "child.xml"
        env = oldest_qt.environment(qt_folder)
        return run_child(__file__, {"PYTHONPATH": env["PYTHONPATH"], "QT_QPA_PLATFORM": "offscreen"}, report, 600)

    @pytest.mark.parametrize("scenario", SCENARIOS)
    def test_on_the_oldest_qt(child_results: Any, scenario: str) -> None:
        check(child_results, scenario)

    @pytest.mark.slow
    def test_the_self_test_passes_on_the_oldest_qt(qt_folder: Path, tmp_path: Path) -> None:
        env = {
            **oldest_qt.environment(qt_folder),
            "QT_QPA_PLATFORM": "offscreen",
            "PARLEY_DATA_DIR": str(tmp_path / "data"),
            "PARLEY_CONFIG_DIR": str(tmp_path / "config"),
        }
        done = subprocess.run(
            [sys.executable, "-m", "parley", "--self-test", "--json", str(tmp_path / "report.json")],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert done.stdout.splitlines()[-1] == "self-test passed"
        report = json.loads((tmp_path / "report.json").read_text())
        assert report["qt_version"] == oldest_qt.version(), report["qt_version"]


# ====================================================================== the child, on the oldest Qt

else:
    import PySide6
    from PySide6.QtWidgets import QApplication

    from parley.app.controller import Controller
    from parley.app.ui import theme
    from parley.config.settings import APPEARANCES
    from tests.support.app_helpers import (  # noqa: F401 - fixtures
        make_controller,
        tiny_chat_model,
        tiny_settings,
        wait_idle,
    )

    @pytest.fixture
    def app(qtbot: Any, tmp_path: Path, tiny_chat_model: Path) -> Controller:
        controller = make_controller(qtbot, tmp_path, **tiny_settings(tiny_chat_model, max_tokens=8))
        qtbot.waitExposed(controller.window)
        return controller

    def test_this_is_the_oldest_qt() -> None:
        assert PySide6.__version__ == oldest_qt.version(), PySide6.__file__

    def test_the_theme_on_every_appearance(qapp: QApplication) -> None:
        """The system's dark setting is followed; its high contrast cannot be read on this Qt
        and is then off, while the user's own High contrast still applies."""
        assert not theme.follows_system_contrast(qapp)
        assert not theme.system_high_contrast(qapp)
        for appearance in APPEARANCES:
            colours = theme.apply_theme(qapp, appearance)
            assert colours.name.startswith("high-contrast") == (appearance == "high-contrast"), (appearance, colours)
        theme.apply_theme(qapp, "system")

    def test_the_main_window_with_a_reply(qtbot, app) -> None:
        app.replies.send("Hello there")
        wait_idle(qtbot, app)
        assert app.window.isVisible()

    def test_settings_each_page_and_the_hint_about_high_contrast(qtbot, app) -> None:
        app.open_settings()
        dialog = app.settings_flow.dialog
        assert dialog is not None
        qtbot.waitExposed(dialog)
        library = dialog.models_page
        for index in range(dialog.tabs.count()):
            dialog.tabs.setCurrentIndex(index)
            if dialog.tabs.currentWidget().isAncestorOf(library):
                qtbot.waitUntil(lambda: library.items() != [], timeout=60_000)
        assert dialog.appearance.itemText(0) == "As the system (dark)"
        assert "cannot read the system's high-contrast setting" in dialog.contrast_hint.text()
        dialog.reject()

    def test_quick_ask_window(qtbot, app) -> None:
        app.quick_ask.asked("What is two and two?")
        app.quick_ask.answered("Four.", "stop")

    def test_dictation_history_window(qtbot, app) -> None:
        app.dictations.add("see you at ten", "See you at ten.", "gedit")
        app.open_dictation_history()

    def test_first_start_page(qtbot, app) -> None:
        app.first_start.show()
        page = app.first_start.page
        qtbot.waitUntil(lambda: bool(page.cards) or "fits" in page.chat_hint.text(), timeout=120_000)
