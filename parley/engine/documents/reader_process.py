"""``read_document`` in a child process, so that a document cannot take Parley down with it.

The bounds in ``reading`` stop what they can see coming (a zip bomb, a file too large); a PDF
whose pages take minutes to parse, a library whose memory runs away, or a crash in native code
(lxml's libxml2) they cannot.  Here the reading runs in a persistent child process started with
multiprocessing's "spawn" (never "fork", which copies the parent's threads' locks, Qt's among
them): each file is given a time limit, after which the child is killed and started again for the
next file; on POSIX the child's address space is capped with ``RLIMIT_AS`` (Windows has no such
limit: the time limit alone bounds it there); a child that dies takes only that file with it.

The child imports this module and ``reading`` (with the format libraries it loads for a file),
nothing of the app.  Like every spawned child it first imports the parent's main module, so
the program's entry point keeps its work under ``if __name__ == "__main__"`` (and a frozen build
calls ``multiprocessing.freeze_support()``).
"""

from __future__ import annotations

import multiprocessing
import signal
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from pathlib import Path
from types import TracebackType

from .reading import Document, DocumentError, read_document

TIME_LIMIT = 60.0  # seconds for one file
MEMORY_LIMIT = 1 << 30  # the child's address space, in bytes
START_LIMIT = 60.0  # seconds for a child to start: its imports, on a busy machine

_READY = "ready"


class ReaderProcess:
    """Reads documents in a child process started on the first ``read`` and kept for the next.

    Use it from one thread at a time: a read sends the path and waits for the answer on one pipe.
    """

    def __init__(self, time_limit: float = TIME_LIMIT, memory_limit: int = MEMORY_LIMIT) -> None:
        self.time_limit = time_limit
        self.memory_limit = memory_limit
        self._context = multiprocessing.get_context("spawn")
        self._process: BaseProcess | None = None
        self._pipe: Connection | None = None

    @property
    def pid(self) -> int | None:
        """The child's process id while one runs (to watch it from outside)."""
        return self._process.pid if self._process is not None else None

    def read(self, path: Path) -> Document:
        """``path`` read by the child; DocumentError with the reason, the child's own or its limits'."""
        pipe, process = self._started()
        try:
            pipe.send(str(path))
            if not wait([pipe, process.sentinel], self.time_limit):
                self._stop()
                raise DocumentError(f"took longer than {self.time_limit:g} s to read")
            answer, value = pipe.recv()
        except (EOFError, OSError):  # the child died before or while answering
            raise self._died(process) from None
        if answer == "memory":
            self._stop()  # its heap after a MemoryError is no place to read the next file
            raise DocumentError(f"needed more than {_size(self.memory_limit)} of memory to read")
        if answer == "refused":
            raise DocumentError(value)
        assert isinstance(value, Document)
        return value

    def close(self) -> None:
        """Ends the child, if one runs; a later ``read`` starts another."""
        self._stop()

    def __enter__(self) -> ReaderProcess:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()

    def _started(self) -> tuple[Connection, BaseProcess]:
        """The pipe to a running child and the child, started (and waited for) when there is none
        or the last one is seen to have ended while idle."""
        if self._pipe is not None and self._process is not None and self._process.is_alive():
            return self._pipe, self._process
        self._stop()
        self._pipe, child_end = self._context.Pipe()
        self._process = process = self._context.Process(
            target=_serve, args=(child_end, self.memory_limit), name="parley-document-reader", daemon=True
        )
        process.start()
        child_end.close()  # the child's end: once the child is gone, reading ours ends at once
        try:
            if wait([self._pipe, process.sentinel], START_LIMIT) and self._pipe.recv() == _READY:
                return self._pipe, process
        except (EOFError, OSError):
            pass
        self._stop()
        raise DocumentError("Parley's document reader could not start")

    def _died(self, process: BaseProcess) -> DocumentError:
        process.join(5)  # its pipe closed as it ended: the exit code follows at once
        code = process.exitcode
        self._stop()
        if code is not None and code < 0:
            how = f"killed by {signal.Signals(-code).name}" if -code in signal.valid_signals() else f"signal {-code}"
        else:
            how = f"exit code {code}"
        return DocumentError(f"the document reader stopped while reading it ({how})")

    def _stop(self) -> None:
        if self._pipe is not None:
            self._pipe.close()
            self._pipe = None
        if self._process is not None:
            self._process.kill()
            self._process.join()
            self._process.close()
            self._process = None


def _serve(pipe: Connection, memory_limit: int) -> None:
    """The child: reads each path the parent sends and answers ("document", Document),
    ("refused", reason) or ("memory", ""); ends when the parent closes the pipe."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C in a terminal reaches the child too: the parent decides
    _limit_memory(memory_limit)
    pipe.send(_READY)
    while True:
        try:
            path = pipe.recv()
        except EOFError:
            return
        try:
            pipe.send(("document", read_document(Path(path))))
        except DocumentError as exc:
            pipe.send(("refused", str(exc)))
        except MemoryError:
            pipe.send(("memory", ""))
            return
        except Exception as exc:  # a reader's bug: that file fails, the next is read
            pipe.send(("refused", f"could not be read ({type(exc).__name__}: {exc})"))


def _limit_memory(limit: int) -> None:
    """Caps the address space on POSIX; elsewhere (Windows) there is no such limit to set."""
    try:
        import resource
    except ImportError:
        return
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    try:
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ValueError, OSError):  # macOS refuses some values: the time limit still holds
        pass


def _size(count: int) -> str:
    return f"{count / (1 << 30):g} GB" if count >= 1 << 30 else f"{count / (1 << 20):g} MB"
