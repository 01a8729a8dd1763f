"""``parley docs`` and ``parley chat --docs``, as a user runs them: a folder added and indexed, its
files listed (with the reason a file could not be read), a question answered from it with the
sources printed, "not found" said without the model guessing, changes picked up by ``update``, a
collection removed with the files untouched, and the errors a user can make."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from parley.engine.documents.grounding import NOT_FOUND
from parley.engine.library import packs
from tests.support.requirements import require

REPO = Path(__file__).resolve().parents[2]
WIFI = "# Home network\n\nThe guest network is called Harbour; its password is blue-kettle-42.\n"
BOILER = (
    "# The boiler\n\n## Servicing\n\nThe boiler was serviced by Harald Lund on 14 March; he set the water "
    "pressure to 1.5 bar.\n\n## Faults\n\nWhen the display shows E119 the pressure is too low: open the "
    "filling loop until the gauge reads 1.5 bar, then press reset.\n"
)


@pytest.fixture(scope="module")
def model() -> Path:
    state = packs.pack_state(packs.find_pack("qwen2.5-coder-0.5b"))
    require(state.usable, "the 0.5B model pack (./setup.sh test)")
    return packs.pack_path(state.pack)


def parley(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PARLEY_DATA_DIR": str(tmp_path / "data"), "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "parley", *args]
    return subprocess.run(command, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    (folder / "wifi.md").write_text(WIFI)
    (folder / "boiler.md").write_text(BOILER)
    (folder / "scan.pdf").write_bytes(b"%PDF-1.4\n% a scan that is not a PDF at all")
    return folder


def test_a_folder_is_added_listed_updated_and_removed(tmp_path: Path, home: Path) -> None:
    added = parley(tmp_path, "docs", "add", str(home), "--name", "Home")
    assert added.returncode == 0, added.stderr
    assert "Home: 3 files read (1 could not be read: `parley docs list Home`)" in added.stdout
    listed = parley(tmp_path, "docs", "list")
    assert listed.stdout.startswith("Home: 2 files, ") and "1 not read" in listed.stdout
    files = parley(tmp_path, "docs", "list", "Home")
    assert f"{home / 'scan.pdf'}: not read: " in files.stdout and f"{home / 'wifi.md'}: 1 passages" in files.stdout

    (home / "wifi.md").unlink()
    updated = parley(tmp_path, "docs", "update")
    assert "Home: 0 files read, 2 unchanged, 1 removed" in updated.stdout

    removed = parley(tmp_path, "docs", "remove", "home")
    assert removed.returncode == 0 and "your files were not touched" in removed.stdout
    assert sorted(p.name for p in home.iterdir()) == ["boiler.md", "scan.pdf"]
    assert "no collections yet" in parley(tmp_path, "docs", "list").stderr


def test_mistakes_are_said_plainly(tmp_path: Path, home: Path) -> None:
    missing = parley(tmp_path, "docs", "add", str(tmp_path / "nowhere"))
    assert missing.returncode == 2 and "does not exist" in missing.stderr
    unknown = parley(tmp_path, "docs", "remove", "Work")
    assert unknown.returncode == 2 and "there is no collection called 'Work'" in unknown.stderr
    bad_name = parley(tmp_path, "docs", "add", str(home), "--name", "x" * 81)
    assert bad_name.returncode == 2 and "at most 80 characters" in bad_name.stderr


def test_chat_answers_from_a_collection_and_prints_its_sources(tmp_path: Path, home: Path, model: Path) -> None:
    (home / "scan.pdf").unlink()
    for i in range(20):  # enough that passages are chosen, not whole documents
        (home / f"recipe{i}.md").write_text(f"# Recipe {i}\n\n" + f"Stir the pot number {i} slowly for a while. " * 60)
    assert parley(tmp_path, "docs", "add", str(home)).returncode == 0
    chat = ["chat", "--model", str(model), "--temp", "0", "--device", "cpu", "--no-tools", "--docs", "home"]
    answered = parley(tmp_path, *chat, "What pressure did Harald set the boiler to?")
    assert answered.returncode == 0, answered.stderr
    reply, _, sources = answered.stdout.partition("sources:")
    assert "1.5" in reply
    assert f"boiler.md, The boiler › Servicing  ({home / 'boiler.md'})" in sources.splitlines()[1]

    nothing = parley(tmp_path, *chat, "Who won the football world cup in 1974?")
    assert nothing.returncode == 0 and nothing.stdout.strip() == NOT_FOUND

    empty = parley(tmp_path, "chat", "--model", str(model), "--docs", "nothing", "hello")
    assert empty.returncode == 2 and "there is no collection called 'nothing'" in empty.stderr
