"""``parley.config.paths``: each folder follows its environment override, and every part of
Parley finds its files there (the one place that names them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from parley.config import paths


@pytest.fixture
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("CONFIG", "DATA", "CACHE"):
        monkeypatch.setenv(f"PARLEY_{name}_DIR", str(tmp_path / name.lower()))
    return tmp_path


def test_each_folder_follows_its_variable(folders: Path) -> None:
    assert paths.config_dir() == folders / "config"
    assert paths.data_dir() == folders / "data"
    assert paths.cache_dir() == folders / "cache"
    assert paths.models_cache_dir() == folders / "cache" / "models"


def test_the_parts_keep_their_files_in_those_folders(folders: Path) -> None:
    from parley.app.desktop.typing.portal import token_path
    from parley.engine.backend.auto_choice import trials_path
    from parley.engine.library import choice, packs
    from parley.engine.library.records import records_path

    assert records_path().parent == folders / "data"
    assert trials_path().parent == folders / "cache"
    assert token_path().parent == folders / "cache"
    assert choice.speeds_path().parent == folders / "cache"
    assert packs.packs_cache_dir().parent == folders / "cache" / "models"


def test_without_variables_the_folders_are_the_users_own(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("CONFIG", "DATA", "CACHE"):
        monkeypatch.delenv(f"PARLEY_{name}_DIR", raising=False)
    for folder in (paths.config_dir(), paths.data_dir(), paths.cache_dir()):
        assert folder.is_absolute() and "parley" in folder.parts
