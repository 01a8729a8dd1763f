"""``parley wake``: the real command on files of speech in Parley's natural voice."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
import soundfile

from parley.engine.wake import words
from tests.cli.test_cli import parley
from tests.support.requirements import require
from tests.support.speech import natural_speech

LINE = re.compile(r"^(\d+\.\d\d) ([a-z_]+) (\d\.\d{3})$")


@pytest.fixture(scope="module")
def clips(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    require(words.package_folder() is not None, "pymicro-wakeword is not installed (requirements-wake.txt)")
    folder = tmp_path_factory.mktemp("wake")
    said = {
        "twice": np.concatenate(
            [natural_speech("Hey Jarvis, what time is it?", pad_s=1.0), natural_speech("Hey Jarvis, stop.", pad_s=1.0)]
        ),
        "without": natural_speech("What time is it? Please stop.", pad_s=1.0),
        "parley": natural_speech("Parley, what is the capital of France?", pad_s=1.0),
        "charlie": natural_speech("Charlie makes motorcycles in Milwaukee.", pad_s=1.0),
    }
    paths = {}
    for name, audio in said.items():
        paths[name] = folder / f"{name}.wav"
        soundfile.write(paths[name], audio, 16000)
    return paths


def detections(stdout: str) -> list[tuple[float, str, float]]:
    """The lines of one file's detections."""
    found = []
    for line in stdout.splitlines():
        match = LINE.match(line)
        assert match, line
        found.append((float(match[1]), match[2], float(match[3])))
    return found


def by_file(stdout: str) -> dict[str, list[tuple[float, str, float]]]:
    """Several files' detections, each after its "# FILE" line."""
    files: dict[str, list[tuple[float, str, float]]] = {}
    for block in stdout.split("# ")[1:]:
        name, _, lines = block.partition("\n")
        files[name] = detections(lines)
    return files


def test_the_words_are_listed() -> None:
    result = parley("wake", "--list")
    assert result.returncode == 0, result.stderr
    listed = [line.split("\t")[0] for line in result.stdout.splitlines()]
    assert listed == ["hey_jarvis", "okay_nabu", "hey_mycroft", "alexa", "parley"]


def test_each_detection_is_a_line_with_its_time_the_word_and_the_score(clips) -> None:
    result = parley("wake", str(clips["twice"]))
    assert result.returncode == 0, result.stderr
    found = detections(result.stdout)
    assert [w for _, w, _ in found] == ["hey_jarvis", "hey_jarvis"], result.stdout
    first_clip_s = len(natural_speech("Hey Jarvis, what time is it?", pad_s=1.0)) / 16000
    assert 1.0 < found[0][0] < 2.5 and first_clip_s + 1.0 < found[1][0] < first_clip_s + 2.5, found
    threshold = words.find_word("hey_jarvis").threshold  # the score of the first output above it
    assert all(threshold < score <= 1.0 for _, _, score in found)
    quiet = parley("wake", str(clips["without"]))
    assert quiet.returncode == 0 and quiet.stdout == "", quiet.stdout


def test_parley_is_found_in_the_transcript_of_each_utterance(clips) -> None:
    result = parley("wake", "--word", "parley", str(clips["parley"]), str(clips["charlie"]), str(clips["twice"]))
    assert result.returncode == 0, result.stderr
    files = by_file(result.stdout)
    assert list(files) == [str(clips[n]) for n in ("parley", "charlie", "twice")]
    (at, word, score), *more = files[str(clips["parley"])]
    assert not more and word == "parley" and score == 1.0 and 0.3 < at < 1.5, result.stdout
    assert files[str(clips["charlie"])] == files[str(clips["twice"])] == []


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--threshold", "0"], "between 0 and 1"),
        (["--threshold", "1"], "between 0 and 1"),
        (["--word", "computer"], "no wake word 'computer'"),
        (["--word", "parley", "--threshold", "0.5"], "no threshold"),
        ([], "at least one audio file"),
    ],
)
def test_bad_arguments_are_refused_with_the_reason(clips, args, said) -> None:
    files = [str(clips["twice"])] if args else []
    result = parley("wake", *args, *files)
    assert result.returncode == 2 and said in result.stderr and result.stdout == "", result.stderr


def test_an_unreadable_file_is_said_and_the_others_are_read(clips, tmp_path) -> None:
    bad = tmp_path / "not-audio.wav"
    bad.write_bytes(b"RIFF" + b"\0" * 100)
    result = parley("wake", str(bad), str(clips["twice"]))
    assert result.returncode == 1 and "not-audio.wav" in result.stderr
    assert len(by_file(result.stdout)[str(clips["twice"])]) == 2
