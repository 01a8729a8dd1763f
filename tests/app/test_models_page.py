"""The Models page in the real Settings dialog (offscreen), against the loopback Hub."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTabWidget

from parley.app import model_library
from parley.app.model_library import ModelLibrary
from parley.app.ui import models_page
from parley.app.ui.settings_dialog import SettingsDialog
from parley.config.settings import Settings
from parley.engine import library
from parley.engine.library.embedding_models import embedding_model_path
from tests.support.models_hub import CHAT_FILE, CHAT_REPO, cache, hub, model_bytes, write_catalog  # noqa: F401 - fixtures
from tests.support.requirements import require
from tests.support.tinymodels import write_tiny_llama_gguf


@pytest.fixture
def mine(tmp_path: Path) -> Path:
    folder = tmp_path / "my models"
    folder.mkdir()
    write_tiny_llama_gguf(folder / "own-chat.gguf", n_vocab=1000, n_embd=32)
    return folder


@pytest.fixture
def dialog(qtbot, hub, mine: Path):  # noqa: F811 - the hub fixture
    d = SettingsDialog(
        Settings(model_folders=[str(mine)]),
        models=ModelLibrary(),
        validate=lambda s: None,
        compute_devices=[],
        microphones=[],
        read_aloud_problem=None,
    )
    qtbot.addWidget(d)
    d.show()
    d.findChild(QTabWidget).setCurrentWidget(d.models_page)  # the first showing starts the scan
    qtbot.waitUntil(lambda: len(d.models_page.items()) > 0, timeout=30000)
    return d


def row(page: models_page.ModelsPage, text: str):
    for item in page.items():
        if item.text(0) == text:
            return item
    raise AssertionError(f"no row {text!r} in {[i.text(0) for i in page.items()]}")


def click(qtbot, button) -> None:
    assert button.isEnabled() and button.isVisible(), button.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_found_and_catalog_rows_and_use_picks_the_file(qtbot, dialog, mine: Path) -> None:
    page = dialog.models_page
    own = row(page, "own-chat.gguf")
    assert own.text(3) == "Chat" and own.text(1).startswith("fits: ") and own.text(5).startswith("Your folder: ")
    catalog_row = row(page, "Tiny chat")
    assert catalog_row.text(4) == "MIT" and catalog_row.text(5) == "tests/Tiny-Chat-GGUF"
    page.tree.setCurrentItem(catalog_row)
    assert page.download_button.isEnabled() and not page.use_button.isEnabled()
    page.tree.setCurrentItem(own)
    assert not page.download_button.isEnabled() and not page.remove_button.isEnabled()
    click(qtbot, page.use_button)
    assert dialog.chat_model.value == str(mine / "own-chat.gguf")
    dialog.accept()
    assert dialog.result_settings.chat_model == str(mine / "own-chat.gguf")
    assert dialog.result_settings.model_folders == [str(mine)]


def test_the_embedding_model_is_in_the_catalog_with_its_kind(qtbot, dialog) -> None:
    """Issue 31: the catalog's embedding model is listed as Embeddings, installed from PyPI (setup.sh
    installs it): nothing to download or use here, since Settings > Desktop chooses it."""
    page = dialog.models_page
    minilm = row(page, "all-MiniLM-L6-v2")
    assert minilm.parent().text(0).startswith("Catalog")
    assert [minilm.text(c) for c in (3, 4, 5)] == ["Embeddings", "Apache-2.0", "installed"]
    assert minilm.text(1).startswith("fits: ")
    assert "384 dimensions" in minilm.toolTip(0) and "Settings > Desktop" in minilm.toolTip(0)
    page.tree.setCurrentItem(minilm)
    assert not page.use_button.isEnabled() and not page.download_button.isEnabled()
    assert not page.remove_button.isEnabled()


@pytest.fixture
def my_embedding_model(mine: Path) -> Path:
    """all-MiniLM-L6-v2's converted GGUF in the user's folder, as any GGUF embedding model."""
    require(importlib.util.find_spec("all_minilm_l6_v2") is not None, "all-MiniLM-L6-v2 is not installed")
    return Path(shutil.copyfile(embedding_model_path("all-minilm-l6-v2"), mine / "minilm.gguf"))


def test_an_embedding_model_file_is_listed_as_one_and_use_picks_it_for_other_apps(
    qtbot, my_embedding_model: Path, dialog
) -> None:
    page = dialog.models_page
    found = row(page, "minilm.gguf")
    assert found.text(3) == "Embeddings" and found.text(1).startswith("fits: ")
    page.tree.setCurrentItem(found)
    click(qtbot, page.use_button)
    assert page.status.text() == "Selected minilm.gguf as the embedding model for other apps; press OK to use it."
    assert dialog.serve_embedding_model.currentData() == str(my_embedding_model)
    assert dialog.chat_model.value == Settings().chat_model  # the chat model stays
    dialog.accept()
    assert dialog.result_settings.serve_embedding_model == str(my_embedding_model)


def test_the_fit_column_is_in_sight_in_the_dialog_as_it_opens(dialog) -> None:
    """Issue 34: "Fits this computer?" sat off-screen in the 560-pixel dialog, behind a
    horizontal scroll bar.  It is now the second column, inside the visible width."""
    tree = dialog.models_page.tree
    header = tree.header()
    assert tree.headerItem().text(1) == "Fits here?"
    assert header.sectionViewportPosition(1) + header.sectionSize(1) // 2 < tree.viewport().width()


def test_recommended_for_this_computer_closes_settings_to_show_the_page(qtbot, dialog) -> None:
    click(qtbot, dialog.models_page.recommended_button)
    assert dialog.wants_recommendations and dialog.result() == 0 and dialog.result_settings is None


def test_download_from_the_page_then_use_and_remove(qtbot, dialog, model_bytes: bytes) -> None:  # noqa: F811
    page = dialog.models_page
    page.tree.setCurrentItem(row(page, "Tiny chat"))
    click(qtbot, page.download_button)
    qtbot.waitUntil(lambda: page.status.text().startswith("Downloaded and checked"), timeout=30000)
    qtbot.waitUntil(lambda: page.tree.topLevelItem(0).childCount() == 1, timeout=30000)
    mine_row = page.tree.topLevelItem(0).child(0)
    assert mine_row.text(0) == "Tiny chat" and page.tree.topLevelItem(0).text(0) == "Downloaded by Parley (1)"
    page.tree.setCurrentItem(mine_row)
    click(qtbot, page.use_button)
    path = library.downloaded()["tiny-chat"].path
    assert dialog.chat_model.value == str(path) and path.read_bytes() == model_bytes
    click(qtbot, page.remove_button)
    qtbot.waitUntil(lambda: page.tree.topLevelItem(0).childCount() == 0, timeout=30000)
    assert not path.exists()


def test_cancel_from_the_page_keeps_the_partial_download(qtbot, dialog, hub, model_bytes: bytes) -> None:  # noqa: F811
    page = dialog.models_page
    hub.behaviour.delay_s = 0.05
    page.tree.setCurrentItem(row(page, "Tiny chat"))
    click(qtbot, page.download_button)
    assert not page.closing_note.isHidden() and "kept" in page.closing_note.text()
    qtbot.waitUntil(lambda: page.progress.value() > 0 and "MB/s" in page.status.text(), timeout=30000)
    click(qtbot, page.cancel_button)
    qtbot.waitUntil(lambda: page.status.text().startswith("Download cancelled"), timeout=30000)
    partial = cache() / "models--tests--Tiny-Chat-GGUF" / "blobs" / f"{hub.sha}.incomplete"
    assert 0 < partial.stat().st_size < len(model_bytes)
    assert page.progress.isHidden() and not page.cancel_button.isVisible()
    assert page.download_button.isEnabled()


def test_closing_settings_mid_download_stops_it_and_the_next_try_resumes(qtbot, dialog, hub) -> None:  # noqa: F811
    page = dialog.models_page
    hub.behaviour.delay_s = 0.05
    page.tree.setCurrentItem(row(page, "Tiny chat"))
    click(qtbot, page.download_button)
    qtbot.waitUntil(lambda: page.progress.value() > 0, timeout=30000)
    dialog.reject()
    assert model_library.LINGERING == []  # both threads stopped within the shutdown
    partial = cache() / "models--tests--Tiny-Chat-GGUF" / "blobs" / f"{hub.sha}.incomplete"
    kept = partial.stat().st_size
    assert kept > 0
    hub.behaviour.delay_s = 0.0
    library.download_model("tiny-chat")
    assert hub.gets()[-1][2] == f"bytes={kept}-"


def test_a_hostile_catalog_entry_is_named_on_the_page_and_the_others_stay(
    qtbot,
    hub,
    mine: Path,
    tmp_path: Path,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
    model_bytes: bytes,
) -> None:  # noqa: F811
    catalog = write_catalog(
        tmp_path / "hostile.json",
        [
            {"id": "tiny-chat", "repo": CHAT_REPO, "file": CHAT_FILE, "size": len(model_bytes), "sha256": hub.sha},
            {"id": "escape", "repo": CHAT_REPO, "file": "../../../victim/notes.txt", "size": 10},
        ],
    )
    monkeypatch.setenv("PARLEY_MODEL_CATALOG", str(catalog))
    d = SettingsDialog(
        Settings(model_folders=[str(mine)]),
        models=ModelLibrary(),
        validate=lambda s: None,
        compute_devices=[],
        microphones=[],
        read_aloud_problem=None,
    )
    qtbot.addWidget(d)
    d.show()
    d.findChild(QTabWidget).setCurrentWidget(d.models_page)
    qtbot.waitUntil(lambda: len(d.models_page.items()) > 0, timeout=30000)
    assert [i.text(0) for i in d.models_page.items()].count("Tiny chat") == 1
    status = d.models_page.status.text()
    assert status.startswith("Ignored: ") and "escape" in status, status
