"""The real Parley app as a process of its own (``python -m parley``), with folders of its own.

``app_environment`` gives it a data, settings and runtime folder under the test's temporary
folder, so a developer's running Parley is never involved; ``App`` starts it and reads its log
line by line.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.support.lines import LineReader

REPO = Path(__file__).resolve().parents[2]


def app_environment(
    tmp_path: Path, platform: str = "offscreen", settings: dict[str, Any] | None = None
) -> dict[str, str]:
    """The environment for an app of its own under ``tmp_path`` (``settings``: its settings file)."""
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700, exist_ok=True)
    env = dict(os.environ)
    env.update(
        PARLEY_DATA_DIR=str(tmp_path / "data"),
        PARLEY_CONFIG_DIR=str(tmp_path / "config"),
        XDG_RUNTIME_DIR=str(runtime),
        QT_QPA_PLATFORM=platform,
        PYTHONPATH=str(REPO),
    )
    if settings is not None:
        config = tmp_path / "config"
        config.mkdir(exist_ok=True)
        (config / "settings.json").write_text(json.dumps(settings), "utf-8")
    return env


class App:
    """A running ``python -m parley`` whose log is read line by line."""

    def __init__(self, env: dict[str, str], *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "parley", *args], env=env, stderr=subprocess.PIPE, text=True, cwd=REPO
        )
        self.log = LineReader(self.process.stderr)  # type: ignore[arg-type]
        self.lines: list[str] = []

    def wait_for(self, text: str, timeout: float = 120.0) -> str:
        """The next log line that contains ``text``."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            line = self.log.next(left)
            if not line:
                raise AssertionError(f"Parley exited ({self.process.wait()}) before logging {text!r}")
            self.lines.append(line)
            if text in line:
                return line
        raise AssertionError(f"Parley did not log {text!r} within {timeout:g} s; it logged:\n{''.join(self.lines)}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
