"""Settings: defaults, round trip, and files that are missing, corrupt or partly wrong."""

from __future__ import annotations

import dataclasses
import json

import pytest

from parley.app import settings as settings_module
from parley.app.settings import Settings, config_dir, default_system_prompt, load_settings, save_settings


@pytest.fixture
def settings_file(tmp_path, monkeypatch):
    monkeypatch.setenv("PARLEY_CONFIG_DIR", str(tmp_path / "config"))
    return tmp_path / "config" / "settings.json"


def test_missing_file_gives_defaults(settings_file):
    loaded = load_settings()
    assert loaded.warnings == []
    s = loaded.settings
    assert (s.speech_model, s.chat_model, s.device, s.threads) == ("default", "default", "auto", 0)
    assert (s.microphone, s.language, s.ptt_shortcut) == (None, "auto", "Ctrl+Space")
    assert s.send_on_release is True and s.read_replies_aloud is False
    assert s.hands_free is False and s.live_transcript is True
    assert s.system_prompt == default_system_prompt() and "Parley" in s.system_prompt


def test_config_dir_follows_environment(settings_file):
    assert config_dir() == settings_file.parent


def test_round_trip(settings_file):
    s = Settings(chat_model="/models/a.gguf", device="CUDA0", threads=6, microphone="USB Mic", language="de",
                 temperature=0.3, top_p=0.8, top_k=20, max_tokens=256, context_length=8192,
                 send_on_release=False, read_replies_aloud=True, ptt_shortcut="Ctrl+Shift+T", system_prompt="Be brief.",
                 hands_free=True, live_transcript=False)
    s.remember_model("chat", "/models/a.gguf")
    save_settings(s)
    assert json.loads(settings_file.read_text())["device"] == "CUDA0"
    assert [p.name for p in settings_file.parent.iterdir()] == ["settings.json"]   # no temporary left behind
    loaded = load_settings()
    assert loaded.warnings == [] and loaded.settings == s


def test_every_field_is_validated():
    assert set(settings_module._VALID) == {f.name for f in dataclasses.fields(Settings)}


@pytest.mark.parametrize("content", ["{not json", "[1, 2]", "\xff\xfe garbage"])
def test_corrupt_file_gives_defaults_and_keeps_a_copy(settings_file, content):
    settings_file.parent.mkdir(parents=True)
    settings_file.write_bytes(content.encode("latin-1"))
    loaded = load_settings()
    assert loaded.settings == Settings()
    assert len(loaded.warnings) == 1 and "using the defaults" in loaded.warnings[0]
    assert settings_file.with_name("settings.json.bad").read_bytes() == content.encode("latin-1")
    save_settings(loaded.settings)                    # and saving works again afterwards
    assert load_settings().warnings == []


def test_bad_values_and_unknown_keys_fall_back_one_by_one(settings_file):
    settings_file.parent.mkdir(parents=True)
    settings_file.write_text(json.dumps({
        "temperature": "hot", "top_k": True, "max_tokens": 0, "threads": 4, "device": "cpu",
        "microphone": None, "language": "fr", "volume": 11, "top_p": 1,
    }))
    loaded = load_settings()
    s = loaded.settings
    assert (s.temperature, s.top_k, s.max_tokens) == (0.7, 40, 512)       # unusable: defaults
    assert (s.threads, s.device, s.language, s.top_p) == (4, "cpu", "fr", 1.0)   # usable: kept
    assert isinstance(s.top_p, float)
    assert len(loaded.warnings) == 4
    assert any("volume" in w for w in loaded.warnings)


def test_a_setting_saved_under_its_old_name_is_read(settings_file):
    """Earlier versions saved reading aloud as ``speak_replies``."""
    settings_file.parent.mkdir(parents=True)
    settings_file.write_text(json.dumps({"speak_replies": True}))
    loaded = load_settings()
    assert loaded.warnings == [] and loaded.settings.read_replies_aloud is True


def test_recent_models_newest_first_without_duplicates():
    s = Settings()
    for name in ["a", "b", "a", "default"] + [f"m{i}" for i in range(10)]:
        s.remember_model("speech", name)
    assert s.recent_speech_models[0] == "m9"
    assert len(s.recent_speech_models) == settings_module.RECENT_MODELS_KEPT
    assert "default" not in s.recent_speech_models
    assert len(set(s.recent_speech_models)) == len(s.recent_speech_models)
    copy = s.copy()
    copy.remember_model("speech", "new")
    assert "new" not in s.recent_speech_models
