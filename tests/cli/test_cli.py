"""The ``parley`` command as a user runs it: ``python -m parley`` in a subprocess, on real clips
(espeak-ng speech, silence, noise, a 3000-byte WAV) and the real speech models.

The transcription rules are the app's (``parley.engine.audio.utterance``): silence around speech is
cut, a clip without speech is reported as such (exit 3), whisper's non-speech markers are not
text.  Which argument shapes open the window, and which are commands, is checked on the real
process too: the app, when it starts, opens its conversation database in PARLEY_DATA_DIR.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import soundfile

from parley.cli import wants_app
from parley.engine.audio.utterance import speech_region
from tests.support.requirements import require
from tests.support.speech import espeak_available, synthesize

REPO = Path(__file__).resolve().parents[2]
SENTENCE = "How far away is the moon from the earth?"  # whisper tiny.en hears it word for word
RATE = 16_000
PAD_S = 1.5
EXIT_NO_SPEECH = 3
APP_START_TIMEOUT_S = 60.0  # only reached if the app never starts


def environment(**extra: str) -> dict[str, str]:
    """This process's environment with this tree first on the Python path."""
    path = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path, **extra}


def parley(*args: str, env: dict[str, str] | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    """Run ``python -m parley ARGS`` as a user would."""
    return subprocess.run(
        [sys.executable, "-m", "parley", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        env=environment(**(env or {})),
        timeout=timeout,
    )


def transcribe(*args: str) -> subprocess.CompletedProcess:
    """``parley transcribe`` on one thread: two threads that spin-wait for each other crawl when
    other processes keep the cores busy (the tests do not measure speed)."""
    return parley("transcribe", "--threads", "1", *args)


def words(text: str) -> list[str]:
    return re.findall(r"[a-z']+", text.lower())


def write(path: Path, audio: np.ndarray) -> Path:
    soundfile.write(path, audio, RATE)
    return path


@pytest.fixture(scope="module")
def clips(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Speech with 1.5 s of silence on each side, and clips with no speech in them."""
    require(espeak_available(), "espeak-ng is not installed")
    folder = tmp_path_factory.mktemp("clips")
    spoken = synthesize(SENTENCE, folder / "spoken.wav", rate_wpm=130)
    speech, _ = soundfile.read(spoken, dtype="float32")
    silence = np.zeros(int(PAD_S * RATE), dtype=np.float32)
    noise = np.random.default_rng(0).standard_normal(3 * RATE)
    tiny = folder / "tiny.wav"
    soundfile.write(tiny, np.zeros(1478, dtype=np.int16), RATE, subtype="PCM_16")  # 44-byte header
    assert tiny.stat().st_size == 3000
    return {
        "speech": write(folder / "speech.wav", np.concatenate([silence, speech, silence])),
        "silence": write(folder / "silence.wav", np.zeros(3 * RATE, dtype=np.float32)),
        "quiet_room": write(folder / "quiet-room.wav", (noise * 10 ** (-70 / 20)).astype(np.float32)),
        "tiny": tiny,
        # Loud enough to pass the silence trim; whisper tiny.en hears "[BLANK_AUDIO]" in it.
        "hiss": write(folder / "hiss.wav", (noise * 10 ** (-50 / 20)).astype(np.float32)),
    }


# ---------------------------------------------------------------------- transcribe


@pytest.mark.parametrize("model", [[], ["--model", "default"]])
def test_transcribe_speech_between_silences(clips: dict[str, Path], model: list[str]) -> None:
    result = transcribe(*model, str(clips["speech"]))
    assert result.returncode == 0, result.stderr
    assert words(result.stdout) == words(SENTENCE)


def test_timestamps_are_those_of_the_file(clips: dict[str, Path]) -> None:
    """The silence before the speech is cut for whisper, but the times count from the file's start."""
    result = transcribe("--json", str(clips["speech"]))
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert words(report["text"]) == words(SENTENCE)
    assert report["audio_seconds"] == pytest.approx(soundfile.info(str(clips["speech"])).duration, abs=0.01)
    first, last = report["segments"][0], report["segments"][-1]
    assert PAD_S - 0.5 <= first["start"] <= PAD_S + 0.5
    assert last["end"] <= report["audio_seconds"]
    shown = transcribe("--timestamps", str(clips["speech"]))
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith(f"[00:0{int(first['start'])}.") and words(shown.stdout.split("]", 1)[1]) == words(
        SENTENCE
    )


@pytest.mark.parametrize("clip", ["silence", "quiet_room", "tiny", "hiss"])
def test_no_speech_is_reported(clips: dict[str, Path], clip: str) -> None:
    """Nothing on stdout, "no speech" on stderr, exit 3: not whisper's "you" for silence, not a
    native "input is too short" warning for a 3000-byte file, not "[BLANK_AUDIO]" for hiss."""
    if clip == "hiss":
        audio, _ = soundfile.read(clips[clip], dtype="float32")
        assert speech_region(audio) is not None, "the hiss must pass the silence cut for this test to mean anything"
    result = transcribe(str(clips[clip]))
    assert result.returncode == EXIT_NO_SPEECH, (result.stdout, result.stderr)
    assert result.stdout == ""
    said = [line for line in result.stderr.splitlines() if "preparing the speech model" not in line]
    assert said == [f"parley: {clips[clip]}: no speech"]


def test_several_files_exit_status(clips: dict[str, Path], tmp_path: Path) -> None:
    """Each file is reported; the status says the worst: 1 a file failed, 3 a file held no speech."""
    mixed = transcribe(str(clips["speech"]), str(clips["silence"]))
    assert mixed.returncode == EXIT_NO_SPEECH
    assert words(mixed.stdout) == words(SENTENCE) and f"{clips['silence']}: no speech" in mixed.stderr
    missing = tmp_path / "missing.wav"
    failed = transcribe(str(clips["silence"]), str(missing), str(clips["speech"]))
    assert failed.returncode == 1
    assert words(failed.stdout) == words(SENTENCE) and "missing.wav" in failed.stderr


def test_the_base_model_by_name(clips: dict[str, Path]) -> None:
    """--model takes "base" as the Settings do: the optional multilingual Whisper base."""
    from parley.engine.errors import ModelFileError
    from parley.engine.modelfiles.defaults import base_speech_sources

    try:
        base_speech_sources()
        installed = True
    except ModelFileError:
        installed = False
    require(installed, "the optional Whisper base packages are not installed (requirements-models-optional.txt)")
    base = transcribe("--model", "base", "--json", str(clips["speech"]))
    assert base.returncode == 0, base.stderr
    report = json.loads(base.stdout)
    assert words(report["text"]) == words(SENTENCE) and report["language"] == "en"


def test_a_model_file_that_does_not_exist(tmp_path: Path, clips: dict[str, Path]) -> None:
    result = transcribe("--model", str(tmp_path / "nope.bin"), str(clips["speech"]))
    assert result.returncode == 2 and "nope.bin" in result.stderr and result.stdout == ""


@pytest.mark.parametrize("order", ["before", "after"])
def test_verbose_before_or_after_the_command(clips: dict[str, Path], order: str) -> None:
    """-v shows whisper.cpp's own log lines (without it there are none: see the no-speech test)."""
    args = ["-v", "transcribe", str(clips["tiny"])] if order == "before" else ["transcribe", str(clips["tiny"]), "-v"]
    verbose = parley(*args)
    assert verbose.returncode == EXIT_NO_SPEECH, verbose.stderr
    assert "parley.native: whisper_init" in verbose.stderr
    assert f"parley: {clips['tiny']}: no speech" in verbose.stderr


# ---------------------------------------------------------------------- commands and the app


@pytest.mark.parametrize("args", [["transcrbe", "x.wav"], ["-v", "transcrbe", "x.wav"], ["x.wav"], ["chatt"]])
def test_a_mistyped_command_lists_the_commands(tmp_path: Path, args: list[str]) -> None:
    """An error and the list of commands, quickly, and no window (no conversation database)."""
    result = parley(
        *args, env={"PARLEY_DATA_DIR": str(tmp_path / "data"), "PARLEY_CONFIG_DIR": str(tmp_path)}, timeout=60
    )
    assert result.returncode == 2 and result.stdout == ""
    word = next(a for a in args if not a.startswith("-"))
    assert f"'{word}' is not a command" in result.stderr
    for command in ("devices", "transcribe", "chat"):
        assert re.search(rf"^\s+{command}\s", result.stderr, re.MULTILINE), result.stderr
    if word in ("transcrbe", "chatt"):
        assert "did you mean" in result.stderr
    assert not (tmp_path / "data").exists()


def test_help_and_version_are_the_command_line_s() -> None:
    assert parley("--version", timeout=60).stdout.startswith("parley ")
    shown = parley("-h", timeout=60)
    assert shown.returncode == 0 and "transcribe" in shown.stdout
    assert "Exit status" in parley("transcribe", "-h", timeout=60).stdout


@pytest.mark.parametrize("how", ["--press", "--release", "--toggle", "--cleaned --toggle"])
def test_a_take_command_loads_neither_qt_nor_the_engines(tmp_path: Path, how: str) -> None:
    """``parley dictate --press`` runs on each press of a desktop key binding: what it imports
    is time lost at the start of the take.  Without a running Parley it says so."""
    probe = (
        f"import sys; from parley.cli import main; code = main(['dictate', *{how.split()!r}]); "
        "print(sorted(m for m in ('numpy', 'PySide6', 'cffi') if m in sys.modules), code)"
    )
    env = environment(PARLEY_DATA_DIR=str(tmp_path / "data"), XDG_RUNTIME_DIR=str(tmp_path / "run"))
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, env=env, timeout=60
    )
    assert result.stdout.split("\n")[0] == "[] 1", result.stdout + result.stderr
    assert "Parley is not running" in result.stderr


@pytest.mark.parametrize("args", [[], ["-v"]])
def test_no_command_opens_the_app(tmp_path: Path, args: list[str]) -> None:
    data = tmp_path / "data"
    env = environment(
        PARLEY_DATA_DIR=str(data), PARLEY_CONFIG_DIR=str(tmp_path / "config"), QT_QPA_PLATFORM="offscreen"
    )
    app = subprocess.Popen(
        [sys.executable, "-m", "parley", *args], cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + APP_START_TIMEOUT_S
        while not (data / "conversations.sqlite3").exists() and app.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert app.poll() is None, f"parley {' '.join(args)} exited: {app.communicate()[1][-2000:]}"
        assert (data / "conversations.sqlite3").exists(), "the app did not open its conversations"
    finally:
        app.kill()
        app.communicate(timeout=30)


def test_self_test_is_the_app_s(tmp_path: Path) -> None:
    result = parley("--self-test", env={"QT_QPA_PLATFORM": "offscreen"})
    assert result.returncode == 0, result.stdout + result.stderr
    assert "self-test passed" in result.stdout


@pytest.mark.parametrize(
    ("args", "app"),
    [
        ([], True),
        (["-v"], True),
        (["--verbose"], True),
        (["--self-test"], True),
        (["--self-test", "--json", "report.json"], True),
        (["-platform", "offscreen"], True),
        (["-v", "--self-test"], True),
        (["transcribe", "a.wav"], False),
        (["-v", "transcribe", "a.wav"], False),
        (["transcrbe"], False),
        (["a.wav"], False),
        (["-h"], False),
        (["--help"], False),
        (["--version"], False),
        (["-v", "-h"], False),
    ],
)
def test_which_arguments_mean_the_app(args: list[str], app: bool) -> None:
    assert wants_app(args) is app
