"""Model packs: chunk packages joined into one checked file, refused by name when a part is wrong.

Small packs are made by the tests as real installed packages (a folder on ``sys.path`` holding
``<module>/data/partNN.bin``), described by a packs file of their own (``PARLEY_MODEL_PACKS``),
so the join, the checks and the messages run exactly as for the shipped Qwen packs; one test
joins the real 0.5B pack that ``setup.sh test`` installs and asks it a question.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from parley.engine.errors import CatalogError, DiskFullError, ModelFileError
from parley.engine.library import packs
from tests.support.privileges import run_on_small_tmpfs
from tests.support.requirements import require
from tests.support.tinypacks import TinyPacks


@pytest.fixture
def tiny(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TinyPacks]:
    made = TinyPacks(tmp_path, {"tiny-a": os.urandom(900_000), "tiny-b": os.urandom(897_000)})
    monkeypatch.setenv("PARLEY_MODEL_PACKS", str(made.file))
    monkeypatch.setenv("PARLEY_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_DATA_DIRS", str(tmp_path / "share"))
    monkeypatch.delenv("PARLEY_PACKS_DIR", raising=False)
    monkeypatch.syspath_prepend(str(made.site))
    packs._load.cache_clear()
    yield made
    packs._load.cache_clear()


def test_the_shipped_packs_reproduce_qwens_files() -> None:
    """The shipped list: every part pinned (wheel and slice), the slices adding up to Qwen's file."""
    shipped = {p.id: p for p in packs.packs()}
    assert set(shipped) == {"qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b"}
    small, large = shipped["qwen2.5-coder-0.5b"], shipped["qwen2.5-coder-1.5b"]
    assert (small.size, small.sha256[:12], len(small.parts)) == (491_400_064, "1d9614638d18", 6)
    assert (large.size, large.sha256[:12], len(large.parts)) == (1_117_320_768, "cc324af070c2", 22)
    assert large.rank > small.rank
    for pack in shipped.values():
        requirements = pack.requirements().splitlines()
        assert len(requirements) == len(pack.parts) + 1
        assert all("==" in line and "--hash=sha256:" in line for line in requirements[1:])
    assert "Apache License" in packs.licence_text() and "Version 2.0" in packs.licence_text()


def test_parts_are_joined_once_and_checked(tiny: TinyPacks) -> None:
    pack = packs.find_pack("tiny-a")
    assert packs.pack_state(pack).status == "joinable"
    seen: list[float] = []
    path = packs.pack_path(pack, progress=seen.append)
    assert path.read_bytes() == tiny.joined("tiny-a")
    assert seen[-1] == pytest.approx(1.0) and seen == sorted(seen)
    assert packs.pack_state(pack).status == "ready"
    stat = path.stat()
    assert packs.pack_path(pack) == path and path.stat().st_mtime_ns == stat.st_mtime_ns  # not joined again
    assert [s.pack.id for s in packs.installed_packs()] == ["tiny-a", "tiny-b"]


def test_a_missing_part_is_named(tiny: TinyPacks) -> None:
    tiny.part("tiny-a", 2).unlink()
    state = packs.pack_state(packs.find_pack("tiny-a"))
    assert state.status == "incomplete" and not state.usable
    assert "part 2 (tiny-a-part2) is not installed" in (state.problem or "")
    assert "parley models install tiny-a" in (state.problem or "")
    with pytest.raises(ModelFileError, match="part 2"):
        packs.pack_path(packs.find_pack("tiny-a"))
    assert [s.pack.id for s in packs.installed_packs()] == ["tiny-b"]


def test_a_truncated_part_is_named_and_nothing_is_left(tiny: TinyPacks) -> None:
    data = tiny.part("tiny-a", 3).read_bytes()
    tiny.part("tiny-a", 3).write_bytes(data[:-10])
    state = packs.pack_state(packs.find_pack("tiny-a"))
    assert state.status == "incomplete" and "part 3 of Tiny A (tiny-a-part3) is truncated" in (state.problem or "")
    with pytest.raises(ModelFileError, match="truncated"):
        packs.pack_path(packs.find_pack("tiny-a"))
    assert not any(packs.packs_cache_dir().glob("tiny-a*.gguf*"))


def test_parts_out_of_order_are_refused_by_name(tiny: TinyPacks) -> None:
    """Same sizes, swapped contents: only the slices' hashes can tell, and the message says which."""
    one, two = tiny.part("tiny-b", 1), tiny.part("tiny-b", 2)
    first, second = one.read_bytes(), two.read_bytes()
    assert len(first) == len(second)  # 897,000 bytes in three equal slices
    one.write_bytes(second)
    two.write_bytes(first)
    with pytest.raises(ModelFileError, match=r"part 1 of Tiny B .* holds part 2's bytes: the parts are out of order"):
        packs.pack_path(packs.find_pack("tiny-b"))
    assert not list(packs.packs_cache_dir().glob("*.gguf*"))


def test_a_part_from_another_version_is_refused(tiny: TinyPacks) -> None:
    path = tiny.part("tiny-a", 1)
    data = bytearray(path.read_bytes())
    data[1000] ^= 0xFF  # same size, other bytes
    path.write_bytes(bytes(data))
    with pytest.raises(ModelFileError, match="part 1 of Tiny A .* does not match its SHA-256"):
        packs.pack_path(packs.find_pack("tiny-a"))
    path.write_bytes(bytes(data) + b"more")
    state = packs.pack_state(packs.find_pack("tiny-a"))
    assert "it is from another version" in (state.problem or "")


def test_a_damaged_joined_copy_is_joined_again(tiny: TinyPacks) -> None:
    pack = packs.find_pack("tiny-a")
    path = packs.pack_path(pack)
    with open(path, "r+b") as f:  # same size, a flipped byte, a newer time: the stamp no longer holds
        f.seek(5)
        f.write(b"\x00" if f.read(1) != b"\x00" else b"\x01")
    assert packs.pack_state(pack).status == "joinable"
    assert packs.pack_path(pack).read_bytes() == tiny.joined("tiny-a")


def test_a_system_copy_is_used_in_place_and_checked_once(tiny: TinyPacks, tmp_path: Path) -> None:
    """The .deb's file in /usr/share/parley/models (here: an XDG data folder), parts or not."""
    system = tmp_path / "share" / "parley" / "models"
    system.mkdir(parents=True)
    (system / "tiny-b.gguf").write_bytes(tiny.joined("tiny-b"))
    tiny.remove("tiny-b")
    pack = packs.find_pack("tiny-b")
    assert packs.pack_state(pack).status == "joinable"
    assert packs.pack_path(pack) == system / "tiny-b.gguf"
    assert packs.pack_state(pack).status == "ready"
    assert not list(packs.packs_cache_dir().glob("*.gguf"))  # never copied
    (system / "tiny-b.gguf").write_bytes(tiny.joined("tiny-b")[:-1] + b"!")
    with pytest.raises(ModelFileError, match="does not match Tiny B's SHA-256"):
        packs.pack_path(pack)


def test_a_hostile_packs_file_is_refused_before_any_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    base = {
        "id": "x",
        "name": "X",
        "file": "x.gguf",
        "size": 1,
        "sha256": "0" * 64,
        "licence": "MIT",
        "upstream": "a/b",
        "parameters": "1",
        "quantisation": "q",
        "rank": 1,
        "note": "n",
    }
    part = {
        "package": "x-part1",
        "version": "1",
        "wheel_sha256": "0" * 64,
        "file": "data/p.bin",
        "size": 1,
        "sha256": "0" * 64,
    }
    cases = {
        "a path as the file": {**base, "file": "../../x.gguf", "parts": [part]},
        "a dotted package (find_spec would import its parent)": {**base, "parts": [{**part, "package": "os.path"}]},
        "a part outside its package": {**base, "parts": [{**part, "file": "../../etc/passwd"}]},
        "sizes that do not add up": {**base, "size": 2, "parts": [part]},
        "too many parts": {**base, "parts": [part] * 1001},
        "a rank that is not a number": {**base, "rank": "9", "parts": [part]},
    }
    for why, entry in cases.items():
        path = tmp_path / "packs.json"
        path.write_text(json.dumps({"format": 1, "packs": [entry]}))
        monkeypatch.setenv("PARLEY_MODEL_PACKS", str(path))
        packs._load.cache_clear()
        with pytest.raises(CatalogError, match="cannot be used"):
            packs.packs()
        assert why
    packs._load.cache_clear()


@pytest.mark.linux_namespaces  # a real small tmpfs (tests/support/privileges.py)
def test_a_disk_that_fills_during_the_join_leaves_nothing_and_says_how_much(tiny: TinyPacks, tmp_path: Path) -> None:
    """A real ENOSPC on a 2 MiB tmpfs: there is room when the join starts, and another writer
    fills the disk while the parts are joined."""
    disk = tmp_path / "disk"
    disk.mkdir()
    script = f"""
import json, os, sys
sys.path.insert(0, {str(tiny.site)!r})
from parley.engine.library import packs
from parley.engine.errors import DiskFullError
out = {{}}

def fill(fraction):
    if fraction > 0.2 and not out.get("filled"):
        out["filled"] = True
        with open({str(disk / "filler")!r}, "wb") as f:
            try:
                while True:
                    f.write(b"x" * 65536)
                    f.flush()
            except OSError:
                pass

packs.DISK_MARGIN = 0
try:
    packs.pack_path(packs.find_pack("tiny-b"), progress=fill)
    out["outcome"] = "joined"
except DiskFullError as e:
    out["outcome"] = str(e)
out["left"] = sorted(os.listdir({str(disk / "models" / "packs")!r}))
print(json.dumps(out))
"""
    env = {
        **os.environ,
        "PARLEY_CACHE_DIR": str(disk),
        "PARLEY_MODEL_PACKS": str(tiny.file),
        "PYTHONPATH": os.pathsep.join(sys.path),
    }
    result = run_on_small_tmpfs(disk, "2m", script, env)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["filled"]
    assert report["outcome"].startswith("Not enough disk space in"), report
    assert "to join Tiny B: it needs" in report["outcome"] and "is free" in report["outcome"]
    assert report["left"] == []  # no half-joined file, no temporary file


def test_too_little_room_is_refused_before_writing(tiny: TinyPacks, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(packs, "DISK_MARGIN", 1 << 60)  # more than any disk has free
    with pytest.raises(DiskFullError, match=r"to join Tiny A: it needs .* and .* is free"):
        packs.pack_path(packs.find_pack("tiny-a"))
    assert not list(packs.packs_cache_dir().glob("*"))


def test_the_real_small_pack_joins_loads_and_answers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Qwen2.5-Coder 0.5B pack from PyPI (installed by ``setup.sh test``): joined, checked
    against Qwen's SHA-256, loaded by llama.cpp, and right about a capital."""
    from parley.engine.chat.model import ChatModel, ChatSession, SamplingParams

    pack = packs.find_pack("qwen2.5-coder-0.5b")
    require(packs.pack_state(pack).usable, "the 0.5B model pack (./setup.sh test installs it)")
    path = packs.pack_path(pack)
    assert path.stat().st_size == 491_400_064
    with ChatModel(path, n_ctx=512) as model:
        reply = ChatSession(model, "Answer in one short sentence.").reply(
            "What is the capital of France?", SamplingParams(temperature=0, max_tokens=24)
        )
    assert "Paris" in reply.text
