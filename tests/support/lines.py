"""Reading a child process's output line by line without hanging the test run.

``select`` on a text stream can miss lines that Python has already buffered, and a bare
``readline()`` waits for ever on a child that stalls: a thread reads instead, and each line is
awaited with a time limit.
"""

from __future__ import annotations

import queue
import threading
from typing import IO


class LineReader:
    """The lines of ``stream`` (a child's stdout or stderr, text mode), each awaited with a limit."""

    def __init__(self, stream: IO[str]) -> None:
        self._lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream: IO[str]) -> None:
        for line in iter(stream.readline, ""):
            self._lines.put(line)
        self._lines.put("")  # end of the stream

    def next(self, timeout: float = 60.0) -> str:
        """The next line ('' once the stream has ended); fails if none comes within ``timeout``."""
        try:
            return self._lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"the child printed no line within {timeout:g} s") from None

    def poll(self) -> str | None:
        """The next line if one has come ('' once the stream has ended), else None at once."""
        try:
            return self._lines.get_nowait()
        except queue.Empty:
            return None
