"""The window while a 1,000-file folder is indexed: how long the UI thread is ever kept waiting.

The app's own ``DocumentRoom`` (a worker of its own, the real reader process and embedding model)
indexes a generated folder of 1,000 Markdown, text and HTML files while a 5 ms timer runs on the
UI thread; a tick that comes late by more than its interval is a stall the user would see (a
frame not drawn, a key not answered).  Prints the longest stall, the 99th percentile of the
ticks' lateness, and the indexing's files per minute.

    python bench/bench_docs_stall.py [--files 1000]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from bench.machine import processor

TICK_MS = 5
PARAGRAPH = (
    "The harbour office keeps the tide tables for the season, and each skipper signs for the mooring "
    "before the evening bell. Fuel is sold from the north quay until six; the slipway is closed on "
    "Sundays for repairs. "
)


def write_folder(folder: Path, files: int) -> None:
    for i in range(files):
        kind = ("md", "txt", "html")[i % 3]
        body = (PARAGRAPH + f"Note {i}: berth {i % 40}, crane {i % 7}.\n\n") * (2 + i % 5)
        if kind == "md":
            text = f"# Notice {i}\n\n## Moorings\n\n{body}"
        elif kind == "html":
            text = f"<html><head><title>Notice {i}</title></head><body><h1>Notice {i}</h1><p>{body}</p></body></html>"
        else:
            text = f"Notice {i}\n\n{body}"
        (folder / f"notice{i:04}.{kind}").write_text(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=1000)
    args = parser.parse_args()
    app = QApplication(["bench", "-platform", "offscreen"])
    from parley.app.documents.room import DocumentRoom
    from parley.engine.backend.threads import allowed_cores

    print(f"processor: {processor()}, {allowed_cores()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "notices"
        folder.mkdir()
        write_folder(folder, args.files)
        room = DocumentRoom(Path(tmp) / "index.sqlite3")
        lateness: list[float] = []
        last = [time.perf_counter()]
        done: list[object] = []

        def tick() -> None:
            now = time.perf_counter()
            lateness.append(max(0.0, (now - last[0]) * 1000 - TICK_MS))
            last[0] = now

        timer = QTimer(interval=TICK_MS)
        timer.timeout.connect(tick)
        room.indexed.connect(lambda summaries: (done.append(summaries), app.quit()))
        start = time.perf_counter()
        timer.start()
        room.add([folder])
        app.exec()  # the UI thread's own event loop, until the indexing ends
        seconds = time.perf_counter() - start
        timer.stop()
        (summary,) = done[0]  # type: ignore[misc]
        room.close()
    lateness.sort()
    p99 = lateness[int(len(lateness) * 0.99)] if lateness else 0.0
    print(f"files: {summary.read} read ({summary.failed} failed), {summary.passages} passages in {seconds:.1f} s")
    print(f"files per minute: {summary.read / seconds * 60:.0f}")
    print(f"UI thread: {len(lateness)} ticks of {TICK_MS} ms; longest stall {lateness[-1]:.1f} ms, p99 {p99:.1f} ms")


if __name__ == "__main__":
    main()
