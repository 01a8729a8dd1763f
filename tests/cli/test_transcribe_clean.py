"""``parley transcribe --clean`` on real speech: sentences with names whisper has never seen,
spoken by espeak-ng and by Parley's natural voice, transcribed by the real default model (tiny.en)
with and without the user's vocabulary; and the other dictation steps through the command as
Dictate applies them (``parley.engine.dictation.pipeline.process``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.test_cli import parley
from tests.support.requirements import require
from tests.support.speech import espeak_available, synthesize
from tests.support.voices import speak, steady_voice

VOCABULARY = ["Siobhan", "Postgres", "Niamh", "Krzysztof", "Zyntrix", "Kubernetes"]
# (clip, sentence, the listed name checked in it, voice, whether whisper hears it without the
# list).  espeak-ng reads Irish and Polish names by English spelling rules ("Niamh" as
# "nee-am-h"), so it says only the names its rules get near.  The natural voice speaks without
# its random variation (tests.support.voices), so that each run hears the same clip: with it, tiny.en
# hears "Siobhan" right even without the list; "Niamh" it hears as "Niam" with the list too
# (docs/dictation.md has the figures over more clips).
CLIPS = [
    ("siobhan-espeak", "I had lunch with Siobhan yesterday.", "Siobhan", "espeak", False),
    ("siobhan-natural", "I had lunch with Siobhan yesterday.", "Siobhan", "natural", True),
    ("postgres-espeak", "We moved the database to Postgres last week.", "Postgres", "espeak", False),
    ("postgres-natural", "We moved the database to Postgres last week.", "Postgres", "natural", False),
    ("kubernetes-natural", "Ask Niamh about the Kubernetes cluster.", "Kubernetes", "natural", False),
    ("krzysztof-natural", "Tell Aoife the meeting with Krzysztof is at noon.", "Krzysztof", "natural", False),
    ("zyntrix-espeak", "Our new app is called Zyntrix.", "Zyntrix", "espeak", False),
    ("zyntrix-natural", "Our new app is called Zyntrix.", "Zyntrix", "natural", False),
]


@pytest.fixture(scope="module")
def clips(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    require(espeak_available(), "espeak-ng is not installed (it speaks the test sentences)")
    from parley.engine.voice.voices import unavailable

    require(unavailable() is None, f"the natural voice: {unavailable()}")
    voice = steady_voice()
    folder = tmp_path_factory.mktemp("names")
    out = {}
    for name, sentence, _, speaker, _ in CLIPS:
        path = folder / f"{name}.wav"
        out[name] = synthesize(sentence, path) if speaker == "espeak" else speak(voice, sentence, path)
    return out


def transcribe(*args: str, config: Path) -> list[dict[str, object]]:
    """``parley transcribe --json`` with the settings in ``config`` (none there: the defaults)."""
    result = parley("transcribe", "--threads", "2", "--json", *args, env={"PARLEY_CONFIG_DIR": str(config)})
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_with_the_vocabulary_the_names_come_out_right_and_without_it_as_before(
    clips: dict[str, Path], tmp_path: Path
) -> None:
    files = [str(clips[name]) for name, *_ in CLIPS]
    listed = tmp_path / "names.txt"
    listed.write_text("# my names\n" + "\n".join(VOCABULARY) + "\n")
    before = transcribe(*files, config=tmp_path)
    plain = transcribe("--clean", *files, config=tmp_path)
    with_list = transcribe("--vocabulary", str(listed), *files, config=tmp_path)
    for (clip, sentence, name, _, heard), then, now, listed_run in zip(CLIPS, before, plain, with_list, strict=True):
        assert name in str(listed_run["text"]), (clip, sentence, listed_run)
        assert (name in str(then["text"])) == heard, (clip, then)  # without the list: as today
        assert now["text"] == then["text"], (clip, now, then)  # --clean without a list: the words as before


# Takes with a repetition, a rule and spoken punctuation, by the steady natural voice.  tiny.en
# itself leaves out most hesitation sounds ("Um", "Hmm"), but not a word said twice.
TAKES = {
    "repeat": "Er, the the build is broken exclamation mark",
    "lines": "Hmm, so I I need the report by Friday new line thanks",
    "address": "Send the file to my address comma please period",
}


@pytest.fixture(scope="module")
def takes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    from parley.engine.voice.voices import unavailable

    require(unavailable() is None, f"the natural voice: {unavailable()}")
    voice = steady_voice()
    folder = tmp_path_factory.mktemp("takes")
    return {name: speak(voice, text, folder / f"{name}.wav") for name, text in TAKES.items()}


def test_the_dictation_settings_apply_as_dictate_applies_them(takes: dict[str, Path], tmp_path: Path) -> None:
    from parley.config.settings import Settings, save_settings

    settings = Settings(dictation_replacements=[["my address", "12 Main Street"]])
    save_settings(settings, tmp_path / "settings.json")
    files = [str(takes[name]) for name in TAKES]
    heard = {row["file"]: row for row in transcribe(*files, config=tmp_path)}
    typed = {row["file"]: row for row in transcribe("--clean", *files, config=tmp_path)}
    for path in takes.values():
        row = typed[str(path)]
        assert row["raw"] == heard[str(path)]["text"] and row["cleanup"] == "off" and row["note"] == "", row
        assert list(row["steps"]) == ["fillers", "replacements", "punctuation"]  # no vocabulary: no step
    assert "the the" in str(heard[str(takes["repeat"])]["text"])
    assert str(typed[str(takes["repeat"])]["text"]).endswith("the build is broken!")
    assert str(typed[str(takes["lines"])]["text"]).endswith("by Friday\nThanks.")
    address = str(typed[str(takes["address"])]["text"])  # "please" may be heard as "police"
    assert "to 12 Main Street, " in address and address.endswith(".") and "period" not in address, address
    rules = tmp_path / "rules.txt"
    rules.write_text("my address => 1 High St\\nLeeds\n")
    (again,) = transcribe("--rules", str(rules), "--no-spoken-punctuation", files[2], config=tmp_path)
    assert "to 1 High St\nLeeds comma " in str(again["text"]), again


def test_rules_that_loop_are_refused_before_anything_is_transcribed(takes: dict[str, Path], tmp_path: Path) -> None:
    rules = tmp_path / "rules.txt"
    rules.write_text("foo => bar\nbar => foo\n")
    result = parley("transcribe", "--rules", str(rules), str(takes["repeat"]), env={"PARLEY_CONFIG_DIR": str(tmp_path)})
    assert result.returncode == 2 and "in a circle" in result.stderr and result.stdout == ""


def test_the_clean_up_by_the_starter_model_through_the_command(takes: dict[str, Path], tmp_path: Path) -> None:
    """End to end: real speech, whisper, the text steps, the starter model's clean-up, and the
    note on stderr when the clean-up is not used."""
    result = parley(
        "transcribe", "--threads", "2", "--json", "--mode", "cleaned", "--chat-model", "starter",
        "--cleanup-timeout", "30", str(takes["lines"]), env={"PARLEY_CONFIG_DIR": str(tmp_path)},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    (typed,) = [json.loads(line) for line in result.stdout.splitlines()]
    assert typed["cleanup"] in ("used", "added_words", "dropped_words", "failed"), typed
    assert [name for name in typed["steps"]][-1] == "cleanup"
    if typed["cleanup"] == "used":
        assert typed["note"] == "" and str(typed["text"])[0].isupper()
    else:
        assert str(typed["note"]) in result.stderr
