"""Settings: defaults, round trip, and files that are missing, corrupt or partly wrong."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from parley.config import settings as settings_module
from parley.config.paths import config_dir
from parley.config.settings import Settings, default_system_prompt, load_settings, save_settings

REPO = Path(__file__).resolve().parents[2]
HANG_GUARD_S = 60.0  # only reached when reading the file blocks


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
    s = Settings(
        chat_model="/models/a.gguf",
        device="CUDA0",
        threads=6,
        microphone="USB Mic",
        language="de",
        temperature=0.3,
        top_p=0.8,
        top_k=20,
        max_tokens=256,
        context_length=8192,
        send_on_release=False,
        read_replies_aloud=True,
        ptt_shortcut="Ctrl+Shift+T",
        system_prompt="Be brief.",
        hands_free=True,
        live_transcript=False,
    )
    s.remember_model("chat", "/models/a.gguf")
    save_settings(s)
    assert json.loads(settings_file.read_text())["device"] == "CUDA0"
    assert [p.name for p in settings_file.parent.iterdir()] == ["settings.json"]  # no temporary left behind
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
    save_settings(loaded.settings)  # and saving works again afterwards
    assert load_settings().warnings == []


def test_bad_values_and_unknown_keys_fall_back_one_by_one(settings_file):
    settings_file.parent.mkdir(parents=True)
    settings_file.write_text(
        json.dumps(
            {
                "temperature": "hot",
                "top_k": True,
                "max_tokens": 0,
                "threads": 4,
                "device": "cpu",
                "microphone": None,
                "language": "fr",
                "volume": 11,
                "top_p": 1,
            }
        )
    )
    loaded = load_settings()
    s = loaded.settings
    assert (s.temperature, s.top_k, s.max_tokens) == (0.7, 40, 512)  # unusable: defaults
    assert (s.threads, s.device, s.language, s.top_p) == (4, "cpu", "fr", 1.0)  # usable: kept
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


# ------------------------------------------------------------------ hostile settings files


def _load_in_child(path) -> list[str]:
    """``load_settings(path)`` in a child process (a FIFO would block this one); its warnings."""
    code = (
        "import json, sys\nfrom pathlib import Path\nfrom parley.config.settings import Settings, load_settings\n"
        "loaded = load_settings(Path(sys.argv[1]))\nassert loaded.settings == Settings()\n"
        "print(json.dumps(loaded.warnings))"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    result = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, env=env, timeout=HANG_GUARD_S, cwd=REPO
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return json.loads(result.stdout)


@pytest.mark.parametrize(
    "content",
    [
        b"[" * 100_000 + b"]" * 100_000,  # RecursionError in json
        b'{"threads": ' + b"7" * 5000 + b"}",  # ValueError past 4300 digits
        b'{"system_prompt": "' + b"x" * (2 << 20) + b'"}',  # more than a settings file holds
        b'{"device": "\xc3\x28"}',  # invalid UTF-8 inside a string
    ],
    ids=["deep", "huge-int", "too-large", "bad-utf8"],
)
def test_unreadable_content_gives_defaults_and_keeps_the_file(settings_file, content):
    settings_file.parent.mkdir(parents=True)
    settings_file.write_bytes(content)
    loaded = load_settings()
    assert loaded.settings == Settings()
    assert len(loaded.warnings) == 1 and "using the defaults" in loaded.warnings[0]
    assert "\n" not in loaded.warnings[0] and len(loaded.warnings[0]) < 400
    assert settings_file.with_name("settings.json.bad").read_bytes() == content
    save_settings(loaded.settings)
    assert load_settings().warnings == []


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "folder", "loop", "dangling"])
def test_something_else_in_place_of_the_file_gives_defaults(settings_file, kind):
    """Nothing is read from a FIFO (it would block), /dev/zero (it never ends) or a folder; each
    is set aside like a corrupt file, so the next save writes a file of its own."""
    settings_file.parent.mkdir(parents=True)
    if kind == "fifo":
        os.mkfifo(settings_file)
    elif kind == "dev-zero":
        settings_file.symlink_to("/dev/zero")
    elif kind == "folder":
        settings_file.mkdir()
    elif kind == "loop":
        settings_file.symlink_to(settings_file.name)
    else:
        settings_file.symlink_to("nowhere.json")
    warnings = _load_in_child(settings_file)
    assert len(warnings) == 1 and "using the defaults" in warnings[0] and "settings.json.bad" in warnings[0]
    assert os.path.lexists(settings_file.with_name("settings.json.bad")) and not os.path.lexists(settings_file)
    save_settings(Settings())
    assert load_settings().warnings == []


def test_warnings_about_values_are_short_and_few(settings_file):
    settings_file.parent.mkdir(parents=True)
    raw = {f"unknown-{i}": i for i in range(5000)} | {"device": "x" * 100_000, "language": ["y"] * 50_000}
    settings_file.write_text(json.dumps(raw))
    loaded = load_settings()
    assert len(loaded.warnings) <= settings_module.MAX_WARNINGS + 1
    assert all(len(w) < 300 and "\n" not in w for w in loaded.warnings)
    assert "more problems" in loaded.warnings[-1]


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("chat_model", "/models/a\0.gguf"),
        ("speech_model", "\0"),
        ("model_folders", ["/ok", "/x\0y"]),
        ("recent_chat_models", ["/m.gguf"] * 1000),
    ],
)
def test_paths_that_cannot_name_a_file_are_refused(settings_file, key, value):
    settings_file.parent.mkdir(parents=True)
    settings_file.write_text(json.dumps({key: value}))
    loaded = load_settings()
    assert getattr(loaded.settings, key) == getattr(Settings(), key)
    assert len(loaded.warnings) == 1 and repr(key) in loaded.warnings[0]


@pytest.mark.parametrize(
    ("word", "threshold", "kept"),
    [
        ("computer", 0.5, ("", 0.5)),
        ("okay_nabu", 0, ("okay_nabu", None)),
        ("okay_nabu", 1, ("okay_nabu", None)),
        ("okay_nabu", True, ("okay_nabu", None)),
        (None, "0.5", ("", None)),
    ],
)
def test_a_wake_word_or_threshold_that_cannot_be_used_falls_back(settings_file, word, threshold, kept):
    """An unknown word, and a threshold at which everything (0) or nothing (1) wakes, are refused
    with a warning each; a usable value beside them is kept."""
    settings_file.parent.mkdir(parents=True)
    settings_file.write_text(json.dumps({"wake_word": word, "wake_threshold": threshold}))
    loaded = load_settings()
    assert (loaded.settings.wake_word, loaded.settings.wake_threshold) == kept
    assert len(loaded.warnings) == (kept[0] != word) + (kept[1] != threshold)
    settings_file.write_text(json.dumps({"wake_word": "alexa", "wake_threshold": 0.8}))
    loaded = load_settings()
    assert (loaded.settings.wake_word, loaded.settings.wake_threshold, loaded.warnings) == ("alexa", 0.8, [])
