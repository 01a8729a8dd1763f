"""The document reader's child process: documents read there as in-process, and the child's
limits: a read past its time is killed and the next file gets a new child, one past its memory
is refused the same way, and a child killed from outside costs only the file it was reading."""

from __future__ import annotations

import os
import signal
import sys
import threading
from pathlib import Path

import pytest

from parley.engine.documents.reader_process import ReaderProcess
from parley.engine.documents.reading import Block, DocumentError, read_document

pytestmark = pytest.mark.timeout(120)  # a few child starts on a busy machine; only a hang gets near


def small_file(tmp_path: Path) -> Path:
    path = tmp_path / "small.md"
    path.write_text("# Notes\n\nA short note.\n")
    return path


def slow_file(tmp_path: Path) -> Path:
    """Some 8 MB of HTML: seconds of ``html.parser``, far past the tests' tenth of a second."""
    path = tmp_path / "slow.html"
    with path.open("w") as file:
        file.write("<html><body>")
        for _ in range(8 << 10):
            file.write("<div><p>some <b>bold</b> words <i>here</i></p></div>\n" * 18)
    return path


def test_a_document_read_in_the_child_is_the_one_read_here(tmp_path: Path) -> None:
    path = small_file(tmp_path)
    with ReaderProcess() as reader:
        assert reader.pid is None  # started by the first read
        document = reader.read(path)
        child = reader.pid
        assert document == read_document(path)
        assert document.blocks == [Block("Notes\n\nA short note.", "Notes")]
        assert child is not None and child != os.getpid()
        (tmp_path / "binary.txt").write_bytes(bytes(range(256)))
        with pytest.raises(DocumentError, match=r"^not text \(binary content\)$"):
            reader.read(tmp_path / "binary.txt")
        assert reader.read(path) == document
        assert reader.pid == child  # one child for every file
    assert reader.pid is None


def test_a_read_past_the_time_limit_ends_the_child_and_the_next_read_starts_another(tmp_path: Path) -> None:
    small, slow = small_file(tmp_path), slow_file(tmp_path)
    with ReaderProcess(time_limit=0.1) as reader:
        reader.read(small)
        first = reader.pid
        with pytest.raises(DocumentError, match=r"^took longer than 0\.1 s to read$"):
            reader.read(slow)
        assert reader.pid is None
        assert reader.read(small).title == "Notes"
        assert reader.pid not in (None, first)


@pytest.mark.skipif(sys.platform == "win32", reason="Windows has no address-space limit: the time limit alone")
def test_a_read_past_the_memory_limit_is_refused_and_the_next_read_starts_another(tmp_path: Path) -> None:
    """48 MB of four-byte characters: the bytes, the text and its paragraphs take well over the
    200 MB of address space the child is given here."""
    big = tmp_path / "emoji.txt"
    line = ("\U0001f600\U0001f389\U0001f680 " * 64 + "\n").encode()
    with big.open("wb") as file:
        for _ in range((48 << 20) // len(line)):
            file.write(line)
    with ReaderProcess(memory_limit=200 << 20) as reader:
        with pytest.raises(DocumentError, match=r"^needed more than 200 MB of memory to read$"):
            reader.read(big)
        assert reader.read(small_file(tmp_path)).title == "Notes"


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="watches the child's open files in /proc")
def test_a_child_killed_while_reading_costs_that_file_only(tmp_path: Path) -> None:
    small, slow = small_file(tmp_path), slow_file(tmp_path)
    with ReaderProcess() as reader:
        reader.read(small)
        child = reader.pid
        assert child is not None
        done = threading.Event()

        def kill_once_it_reads() -> None:
            while not done.is_set():
                if str(slow) in open_files(child):
                    os.kill(child, signal.SIGKILL)
                    return
                done.wait(0.001)

        killer = threading.Thread(target=kill_once_it_reads)
        killer.start()
        try:
            with pytest.raises(DocumentError) as caught:
                reader.read(slow)
        finally:
            done.set()
            killer.join()
        assert str(caught.value) == "the document reader stopped while reading it (killed by SIGKILL)"
        assert reader.read(small).title == "Notes"
        assert reader.pid not in (None, child)


def open_files(pid: int) -> set[str]:
    found = set()
    for entry in os.scandir(f"/proc/{pid}/fd"):
        try:
            found.add(os.readlink(entry.path))
        except OSError:  # closed since the listing
            pass
    return found
