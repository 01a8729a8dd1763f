"""Missing tools skip on a developer's machine and fail in a strict run (tests/support/requirements.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def run_pytest(args: list[str], *, strict: bool, path: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "PARLEY_STRICT_TESTS": "1" if strict else "0"}
    if path is not None:
        env["PATH"] = path
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_require_skips_with_the_reason_or_fails_when_strict(tmp_path: Path) -> None:
    (tmp_path / "test_needs.py").write_text(
        "from tests.support.requirements import require\n"
        "def test_needs_a_tool():\n"
        "    require(False, 'the frobnicator is not installed')\n"
        "def test_has_it():\n"
        "    require(True, 'never shown')\n"
    )
    relaxed = run_pytest([str(tmp_path)], strict=False)
    assert relaxed.returncode == 0, relaxed.stdout
    assert "1 passed, 1 skipped" in relaxed.stdout and "the frobnicator is not installed" in relaxed.stdout
    strict = run_pytest([str(tmp_path)], strict=True)
    assert strict.returncode == 1
    assert "1 failed, 1 passed" in strict.stdout
    assert "missing requirement: the frobnicator is not installed" in strict.stdout


def test_speech_tests_without_espeak_run_those_that_need_no_audio() -> None:
    """With espeak-ng off the PATH, the speech module still runs its tests that need no
    synthesized speech; those that do are skipped (or, in a strict run, fail)."""
    selection = ["tests/engine/test_speech.py", "-k", "audio_context_is_sized or wer_bound or bad_settings"]
    no_tools = str(Path(sys.executable).parent)  # python only: no espeak-ng
    relaxed = run_pytest(selection, strict=False, path=no_tools)
    assert relaxed.returncode == 0, relaxed.stdout + relaxed.stderr
    assert "2 passed, 1 skipped" in relaxed.stdout and "espeak-ng is not installed" in relaxed.stdout
    strict = run_pytest(selection, strict=True, path=no_tools)
    assert strict.returncode == 1 and "2 passed" in strict.stdout and "1 error" in strict.stdout  # in a fixture
    assert "missing requirement: espeak-ng is not installed" in strict.stdout
