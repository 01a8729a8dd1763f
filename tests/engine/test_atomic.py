"""Atomic file replacement (parley.engine.atomic) and the one thread-count policy."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from parley.engine import atomic, speech
from parley.engine.backend import threads
from parley.engine.chat import model as chat


def hidden(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def test_atomic_write_replaces_the_file_only_when_the_block_succeeds(tmp_path: Path) -> None:
    target = tmp_path / "settings.json"
    target.write_text("old")
    with pytest.raises(RuntimeError):
        with atomic.atomic_write(target, "w", encoding="utf-8") as f:
            f.write("half of the new")
            raise RuntimeError("interrupted")
    assert target.read_text() == "old" and hidden(tmp_path) == []
    with atomic.atomic_write(target, "w", encoding="utf-8") as f:
        f.write("new")
        assert target.read_text() == "old"  # not yet: readers see the old file until the end
    assert target.read_text() == "new" and hidden(tmp_path) == []


def test_atomic_path_hands_out_a_fresh_file_with_umask_permissions(tmp_path: Path) -> None:
    target = tmp_path / "model.bin"
    old_umask = os.umask(0o022)
    try:
        with atomic.atomic_path(target) as tmp:
            assert tmp.parent == tmp_path and tmp.name.startswith(".model.bin.") and tmp.stat().st_size == 0
            tmp.write_bytes(b"ggml")
    finally:
        os.umask(old_umask)
    assert target.read_bytes() == b"ggml" and (target.stat().st_mode & 0o777) == 0o644
    assert hidden(tmp_path) == []


def test_a_failed_rename_leaves_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "taken"
    target.mkdir()  # a folder cannot be replaced by a file
    with pytest.raises(OSError):
        with atomic.atomic_write(target) as f:
            f.write(b"data")
    assert target.is_dir() and hidden(tmp_path) == []


def test_one_thread_policy_for_both_engines() -> None:
    assert chat.default_threads is threads.default_threads is speech.default_threads
    logical = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert 1 <= threads.default_threads() <= min(threads.MAX_DEFAULT_THREADS, logical)
