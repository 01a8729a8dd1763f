"""The first-start page in the real window and controller, against the loopback Hub.

A fresh install shows the page; one click on a recommended model downloads it (progress, Pause,
Resume after a restart, SHA-256 check), switches to it, and the user chats with it.  Offline,
the page says so once and the starter keeps answering; a file that no longer matches its hash is
refused and named; on a machine with too little memory the page says that the starter is what
fits.  The catalog here is the test Hub's: its tiny model carries the id of a recommended model
(qwen3-1.7b), so the recommendation logic picks it as it would pick the real one.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from parley.app.controller import Controller
from parley.app.ui.first_start_page import FirstStartPage
from parley.config.settings import load_settings
from parley.engine import library
from parley.engine.library import choice, memory_fit
from tests.support.app_helpers import LOAD_TIMEOUT_MS, REPLY_TIMEOUT_MS, make_controller
from tests.support.models_hub import CHAT_FILE, CHAT_REPO, cache, hub, model_bytes, write_catalog  # noqa: F401

RECOMMENDED = "qwen3-1.7b"  # the id the test catalog gives the tiny model (first of CHAT_PREFERENCE here)
WRONG = "gemma-3-1b-it"  # the same file, pinned to a SHA-256 it does not have


@pytest.fixture
def catalog(hub, model_bytes: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:  # noqa: F811
    # The starter's speed, measured by the page, is kept in the test's folder, not the user's cache.
    monkeypatch.setattr(choice, "speeds_path", lambda: tmp_path / "model-speeds.json")
    path = write_catalog(
        tmp_path / "first-start-catalog.json",
        [
            {"id": RECOMMENDED, "name": "Tiny Qwen", "repo": CHAT_REPO, "file": CHAT_FILE, "size": len(model_bytes)}
            | {"sha256": hub.sha},
            {"id": WRONG, "name": "Tiny Gemma", "repo": CHAT_REPO, "file": CHAT_FILE, "size": len(model_bytes)}
            | {"sha256": "1" * 64},
        ],
    )
    monkeypatch.setenv("PARLEY_MODEL_CATALOG", str(path))
    import importlib

    importlib.import_module("parley.engine.library.catalog")._load.cache_clear()
    return path


def _start(qtbot, tmp_path: Path) -> Controller:
    """The app as a fresh install starts it: default settings, the page not yet dismissed."""
    controller = make_controller(qtbot, tmp_path, wait_ready=False, first_start_done=False)
    qtbot.waitUntil(lambda: controller.first_start.page is not None, timeout=LOAD_TIMEOUT_MS)
    return controller


def page_of(controller: Controller) -> FirstStartPage:
    page = controller.first_start.page
    assert page is not None
    return page


def wait_card(qtbot, page: FirstStartPage, model_id: str, words: str = "") -> None:
    qtbot.waitUntil(
        lambda: model_id in page.cards and words in page.cards[model_id].state.text(), timeout=LOAD_TIMEOUT_MS
    )


def click(qtbot, page: FirstStartPage, model_id: str) -> None:
    button = page.cards[model_id].button
    assert button.isEnabled(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_a_fresh_install_shows_the_page_and_one_click_leads_to_chatting(qtbot, tmp_path: Path, catalog) -> None:
    controller = _start(qtbot, tmp_path)
    window, page = controller.window, page_of(controller)
    assert window.pages.currentWidget() is page  # in the main window, in place of the conversation
    wait_card(qtbot, page, RECOMMENDED)
    starters = "\n".join(label.text() for label in page.starters.findChildren(type(page.speed)))
    assert "SmolLM2 135M Instruct" in starters and "Whisper tiny.en" in starters and "often wrong" in starters
    machine = "\n".join(label.text() for label in page.machine.findChildren(type(page.speed)))
    assert "Memory: " in machine and "GPU: " in machine and "Processor: " in machine
    # the starter's speed, measured in the background once the app's chat model is loaded
    qtbot.waitUntil(lambda: "tokens/s here" in page.speed.text(), timeout=LOAD_TIMEOUT_MS)
    qtbot.waitUntil(lambda: "tokens/s here" in page.cards[RECOMMENDED].details.text(), timeout=LOAD_TIMEOUT_MS)
    details = page.cards[RECOMMENDED].details.text()
    assert "MB download" in details and "needs about" in details and "MIT" in details

    click(qtbot, page, RECOMMENDED)  # the one click
    wait_card(qtbot, page, RECOMMENDED, "Parley uses it now")
    path = library.downloaded()[RECOMMENDED].path
    assert controller.settings.chat_model == str(path) and controller.chat.model.path == path
    assert controller.settings.first_start_done and load_settings(tmp_path / "settings.json").settings.first_start_done
    controller.window.input_bar.edit.setPlainText("Hello there")
    qtbot.mouseClick(controller.window.input_bar.send_button, Qt.MouseButton.LeftButton)
    assert window.pages.currentWidget() is window.conversation_view  # sending brings the conversation back
    qtbot.waitUntil(
        lambda: not controller.replies.busy and len(window.conversation_view.messages) == 2, timeout=REPLY_TIMEOUT_MS
    )
    assert window.conversation_view.messages[-1].text  # the downloaded model answered


def test_pause_then_resume_after_a_restart(qtbot, tmp_path: Path, catalog, hub, model_bytes: bytes) -> None:  # noqa: F811
    hub.behaviour.delay_s = 0.05  # 64 KiB every 50 ms: seconds for the whole file
    controller = _start(qtbot, tmp_path)
    page = page_of(controller)
    wait_card(qtbot, page, RECOMMENDED)
    click(qtbot, page, RECOMMENDED)
    qtbot.waitUntil(lambda: page.cards[RECOMMENDED].progress.value() > 0, timeout=LOAD_TIMEOUT_MS)
    assert page.cards[RECOMMENDED].button.text() == "Pause" and "MB/s" in page.cards[RECOMMENDED].state.text()
    assert not page.cards[WRONG].button.isEnabled()  # one download at a time
    click(qtbot, page, RECOMMENDED)
    wait_card(qtbot, page, RECOMMENDED, "Paused at")
    partial = cache() / "models--tests--Tiny-Chat-GGUF" / "blobs" / f"{hub.sha}.incomplete"
    kept = partial.stat().st_size
    assert 0 < kept < len(model_bytes) and page.cards[RECOMMENDED].button.text() == "Resume"
    controller.window.close()  # Parley closes; the page was not dismissed
    assert not controller.settings.first_start_done

    hub.behaviour.delay_s = 0.0
    again = _start(qtbot, tmp_path / "again")  # a restart (same data and hub cache)
    page = page_of(again)
    wait_card(qtbot, page, RECOMMENDED, "Paused at")
    assert page.cards[RECOMMENDED].button.text() == "Resume"
    click(qtbot, page, RECOMMENDED)
    wait_card(qtbot, page, RECOMMENDED, "Parley uses it now")
    assert hub.gets()[-1][2] == f"bytes={kept}-"  # continued where it stopped
    assert library.downloaded()[RECOMMENDED].path.read_bytes() == model_bytes


def test_offline_the_page_says_so_once_and_the_starter_keeps_answering(
    qtbot, tmp_path: Path, catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")  # nothing listens there
    controller = _start(qtbot, tmp_path)
    page = page_of(controller)
    wait_card(qtbot, page, RECOMMENDED)
    click(qtbot, page, RECOMMENDED)
    wait_card(qtbot, page, RECOMMENDED, "No network")
    said = page.notice.text()
    assert said.startswith("Cannot reach 127.0.0.1:9") and "the starter models keep working" in said
    page.say("")  # the user read it
    click(qtbot, page, RECOMMENDED)
    wait_card(qtbot, page, RECOMMENDED, "No network")
    assert page.notice.isHidden()  # said once
    assert page.cards[RECOMMENDED].button.text() == "Download and use"
    qtbot.waitUntil(lambda: controller.chat.model is not None, timeout=LOAD_TIMEOUT_MS)
    assert controller.replies.send("Hello")
    qtbot.waitUntil(lambda: not controller.replies.busy, timeout=REPLY_TIMEOUT_MS)
    assert controller.window.conversation_view.messages[-1].text  # the starter answered


def test_a_file_that_does_not_match_its_hash_is_refused_and_named(qtbot, tmp_path: Path, catalog) -> None:
    controller = _start(qtbot, tmp_path)
    page = page_of(controller)
    qtbot.waitUntil(lambda: WRONG in page.cards, timeout=LOAD_TIMEOUT_MS)
    click(qtbot, page, WRONG)
    wait_card(qtbot, page, WRONG, "is not the one Parley expects")
    assert CHAT_FILE in page.cards[WRONG].state.text()
    assert WRONG not in library.downloaded() and controller.settings.chat_model == "default"


def test_a_machine_with_too_little_memory_is_told_the_starter_is_what_fits(
    qtbot, tmp_path: Path, catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(memory_fit, "available_ram", lambda: 5_000_000)  # 5 MB free: less than any model needs
    controller = _start(qtbot, tmp_path)
    page = page_of(controller)
    qtbot.waitUntil(lambda: "starter is what fits" in page.chat_hint.text(), timeout=LOAD_TIMEOUT_MS)
    assert not page.cards


def test_dismissed_it_stays_away_and_the_models_menu_brings_it_back(qtbot, tmp_path: Path, catalog) -> None:
    controller = _start(qtbot, tmp_path)
    window, page = controller.window, page_of(controller)
    qtbot.mouseClick(page.dismiss_button, Qt.MouseButton.LeftButton)
    assert window.pages.currentWidget() is window.conversation_view and controller.settings.first_start_done
    menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Models")
    next(a for a in menu.actions() if a.text() == "&Recommended for this computer").trigger()
    assert window.pages.currentWidget() is page
    later = make_controller(qtbot, tmp_path / "later", wait_ready=False, first_start_done=True)
    assert later.first_start.page is None  # dismissed before: not shown at start
