"""An MCP server started as a program, spoken to over its stdin and stdout, with bounds.

The SDK's own stdio transport reads lines of any length and passes the server's stderr through
to ours; a server here is untrusted, so this one (for the SDK's ``ClientSession``, through the
same pair of anyio streams) keeps every bound:

- a message (a line of stdout) longer than ``max_message_bytes`` stops the server, with a
  message that says so; so do lines that are not JSON-RPC past ``MAX_JUNK_LINES``;
- stderr is read as it comes and only its tail (``STDERR_TAIL_BYTES``) is kept, for the
  messages: a server that writes megabytes there costs nothing but the reading;
- the server runs in a process group (a session) of its own, and stopping it (at the end, on a
  failure, on a timeout) closes its stdin, waits ``stop_grace``, then terminates the whole group
  and kills what is left, so that nothing it started outlives it.  On Windows the process
  starts in a new process group and in a job object of its own, which ends with everything in
  it (``taskkill /T`` on its tree when no job object can be made).  Groups still alive when
  Python exits are killed then (``atexit``).

``StdioTransport.failure`` says, in one line, why the server went away on its own (it exited,
broke the protocol); ``ended`` is called then, so that its owner can stop waiting.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import os
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any

import anyio
import anyio.abc
import mcp_types
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.shared.message import SessionMessage

from .config import StdioServer
from .sieve import SessionStreams

MAX_MESSAGE_BYTES = 4 << 20  # a tool list of 1,000 tools fits in 1 MiB
STDERR_TAIL_BYTES = 8 << 10
STDERR_LINES_SHOWN = 3
MAX_LINE_SHOWN = 160  # characters of one stderr line or junk line in a message
MAX_JUNK_LINES = 64  # lines of stdout that are not JSON-RPC before the server is stopped
READ_CHUNK = 64 << 10
EXIT_WAIT = 1.0  # how long to wait for an exit code once stdout has closed
_POLL = 0.02

_ToSession = MemoryObjectSendStream[SessionMessage | Exception]
_FromSession = MemoryObjectReceiveStream[SessionMessage]

_live_lock = threading.Lock()
_live_groups: dict[int, Any] = {}  # pid (the group's id on POSIX): its job object on Windows (or None)


class StdioTransport:
    """One server process and the streams a ``ClientSession`` reads and writes (``open``)."""

    def __init__(
        self,
        server: StdioServer,
        *,
        max_message_bytes: int = MAX_MESSAGE_BYTES,
        stop_grace: float = 2.0,
        ended: Callable[[], None] = lambda: None,
    ) -> None:
        self.server = server
        self.max_message_bytes = max_message_bytes
        self.stop_grace = stop_grace
        self.pid: int | None = None
        self.failure = ""  # why the server went away on its own, one line; "" while it runs
        self.junk_lines = 0
        self.junk_sample = ""
        self._ended = ended
        self._stderr = bytearray()
        self._process: anyio.abc.Process | None = None
        self._stopping = False
        self._stderr_done: anyio.Event | None = None

    # ------------------------------------------------------------------ what messages use

    def stderr_tail(self, lines: int = STDERR_LINES_SHOWN) -> str:
        """The last non-empty lines of stderr, joined with " | " ("" when it said nothing)."""
        text = self._stderr.decode("utf-8", errors="replace")
        shown = [_printable(line.strip()) for line in text.splitlines() if line.strip()][-lines:]
        return " | ".join(_cut(line, MAX_LINE_SHOWN) for line in shown)

    def explain(self, what: str) -> str:
        """``what`` with what the server said on stderr and any text it wrote that was not MCP."""
        tail = self.stderr_tail()
        if tail:
            what += f"; its last words on stderr: {tail}"
        if self.junk_lines:
            lines = "a line that is" if self.junk_lines == 1 else f"{self.junk_lines} lines that are"
            what += f"; it wrote {lines} not MCP (JSON-RPC) on stdout, such as {self.junk_sample!r}"
        return what

    # ------------------------------------------------------------------ the streams

    @contextlib.asynccontextmanager
    async def open(self) -> AsyncIterator[SessionStreams]:
        """Start the server; yields the streams for a ``ClientSession``.  Leaving stops it and
        its process group.  OSError (with the command in its message) when it cannot start."""
        process = await self._start()
        self._stderr_done = anyio.Event()
        read_writer, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](0)
        write_stream, write_reader = anyio.create_memory_object_stream[SessionMessage](0)
        try:
            async with anyio.create_task_group() as tg:
                tg.start_soon(self._read_stdout, process, read_writer)
                tg.start_soon(self._read_stderr, process)
                tg.start_soon(self._write_stdin, process, write_reader)
                try:
                    yield read_stream, write_stream
                finally:
                    with anyio.CancelScope(shield=True):
                        await self._stop(process)
                    tg.cancel_scope.cancel()
        finally:
            for stream in (read_writer, read_stream, write_stream, write_reader):
                stream.close()

    async def _start(self) -> anyio.abc.Process:
        server = self.server
        env = {**os.environ, **server.env}
        command = server.command
        if not any(sep in command for sep in ("/", os.sep)) and (found := shutil.which(command, path=env.get("PATH"))):
            command = found  # the PATH of the server's environment, and Windows' .cmd and .exe
        elif not any(sep in command for sep in ("/", os.sep)):
            raise OSError(f"cannot start {server.describe()}: there is no program {command!r} on the PATH")
        if server.cwd is not None and not os.path.isdir(server.cwd):
            raise OSError(f"cannot start {server.describe()}: its folder (cwd) {server.cwd!r} does not exist")
        options: dict[str, Any] = {}
        if sys.platform == "win32":
            options["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP | subprocess.CREATE_NO_WINDOW
        else:
            options["start_new_session"] = True
        try:
            process = await anyio.open_process(
                [command, *server.args],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
                cwd=server.cwd,
                **options,
            )
        except OSError as exc:
            raise OSError(f"cannot start {server.describe()}: {exc.strerror or exc}") from None
        except ValueError as exc:  # a NUL in an argument, a bad cwd type
            raise OSError(f"cannot start {server.describe()}: {exc}") from None
        self._process = process
        self.pid = process.pid
        job = _job_for(process.pid) if sys.platform == "win32" else None
        with _live_lock:
            _live_groups[process.pid] = job
        return process

    async def _read_stdout(self, process: anyio.abc.Process, out: _ToSession) -> None:
        assert process.stdout is not None
        pending = bytearray()
        limit = self.max_message_bytes
        try:
            while True:
                try:
                    chunk = await process.stdout.receive(READ_CHUNK)
                except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
                    break
                start = 0
                while (end := chunk.find(b"\n", start)) != -1:
                    if len(pending) + end - start > limit:
                        self._fail(process, self._too_long())
                        return
                    pending += chunk[start:end]
                    start = end + 1
                    line = bytes(pending).strip()
                    pending.clear()
                    if line and not await self._deliver(process, line, out):
                        return
                if len(pending) + len(chunk) - start > limit:
                    self._fail(process, self._too_long())
                    return
                pending += chunk[start:]
            if not self._stopping:
                await self._exited(process)
        finally:
            out.close()

    async def _deliver(self, process: anyio.abc.Process, line: bytes, out: _ToSession) -> bool:
        try:
            message = mcp_types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        except ValueError:  # not JSON, or JSON that is not a JSON-RPC message (pydantic's ValidationError)
            self.junk_lines += 1
            if not self.junk_sample:
                self.junk_sample = _cut(_printable(line.decode("utf-8", errors="replace")), MAX_LINE_SHOWN)
            if self.junk_lines > MAX_JUNK_LINES:
                self._fail(process, f"{self.server.name} does not speak MCP on its stdout")
                return False
            return True
        try:
            await out.send(SessionMessage(message))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            return False
        return True

    def _too_long(self) -> str:
        size = f"{self.max_message_bytes / (1 << 20):g} MiB"
        return f"{self.server.name} sent a message larger than {size} (or output without line ends); Parley stopped it"

    async def _exited(self, process: anyio.abc.Process) -> None:
        """Stdout closed: wait a moment for the exit code, and for the rest of stderr."""
        with anyio.move_on_after(EXIT_WAIT):
            while process.returncode is None:
                await anyio.sleep(_POLL)
            if self._stderr_done is not None:
                await self._stderr_done.wait()
        if self._stopping:
            return
        code = process.returncode
        if code is None:
            how = "closed its output"
        elif code < 0:
            how = f"was killed by signal {-code}"
        else:
            how = f"exited with code {code}"
        self._set_failure(self.explain(f"{self.server.name} {how} (command: {self.server.describe()})"))

    async def _read_stderr(self, process: anyio.abc.Process) -> None:
        assert process.stderr is not None
        try:
            with contextlib.suppress(anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
                while True:
                    chunk = await process.stderr.receive(READ_CHUNK)
                    self._stderr += chunk
                    if len(self._stderr) > STDERR_TAIL_BYTES:
                        del self._stderr[: len(self._stderr) - STDERR_TAIL_BYTES]
        finally:
            if self._stderr_done is not None:
                self._stderr_done.set()

    async def _write_stdin(self, process: anyio.abc.Process, messages: _FromSession) -> None:
        assert process.stdin is not None
        with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream, OSError):
            async for item in messages:
                text = item.message.model_dump_json(by_alias=True, exclude_unset=True)
                await process.stdin.send(text.encode("utf-8") + b"\n")

    # ------------------------------------------------------------------ the end

    def _set_failure(self, reason: str) -> None:
        if not self.failure and not self._stopping:
            self.failure = reason
            self._ended()

    def _fail(self, process: anyio.abc.Process, reason: str) -> None:
        """The server broke a bound: say why, and kill its group at once (no grace)."""
        self._set_failure(self.explain(reason))
        _kill_group(process.pid, hard=True)

    async def _stop(self, process: anyio.abc.Process) -> None:
        """Close stdin, wait ``stop_grace``; terminate the group, wait; kill what is left."""
        self._stopping = True
        assert process.stdin is not None
        with contextlib.suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
            await process.stdin.aclose()
        if not await _wait_exit(process, self.stop_grace):
            _kill_group(process.pid, hard=False)
            if not await _wait_exit(process, self.stop_grace):
                _kill_group(process.pid, hard=True)
                await _wait_exit(process, self.stop_grace)
        _kill_group(process.pid, hard=True)  # whatever the server started and left in its group
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
                    await stream.aclose()
        _close_transport(process)
        with _live_lock:
            job = _live_groups.pop(process.pid, None)
        if job is not None:
            _close_job(job)


async def _wait_exit(process: anyio.abc.Process, timeout: float) -> bool:
    with anyio.move_on_after(timeout):
        while process.returncode is None:
            await anyio.sleep(_POLL)
    return process.returncode is not None


def _close_transport(process: anyio.abc.Process) -> None:
    """Close asyncio's transport of the process and its pipes now, on the loop, rather than when
    the garbage collector finds them (after the loop may have closed: "Event loop is closed")."""
    transport = getattr(process, "_transport", None)  # anyio's asyncio Process; no public way
    if transport is None:
        return
    with contextlib.suppress(Exception):
        for fd in (0, 1, 2):
            pipe = transport.get_pipe_transport(fd)
            if pipe is not None:
                pipe.close()
        transport.close()


def _kill_group(pid: int, *, hard: bool) -> None:
    """Terminate (or kill) the process group led by ``pid``.  On Windows, which has no such
    signal: end the server's job object (every process it started), or its process tree."""
    if sys.platform == "win32":
        with _live_lock:
            job = _live_groups.get(pid)
        if job is not None:
            with contextlib.suppress(Exception):
                _pywin32("win32job").TerminateJobObject(job, 1)
                return
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            subprocess.run(
                ["taskkill", "/F", "/T", "/PID", str(pid)],
                capture_output=True,
                timeout=5,
                creationflags=subprocess.CREATE_NO_WINDOW,
            )
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGTERM)  # TerminateProcess
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL if hard else signal.SIGTERM)


def _job_for(pid: int) -> Any:
    """Windows: a job object holding the process ``pid`` (and so whatever it starts from now
    on), which kills them all when its last handle closes (with Parley, at the latest); None
    when one cannot be made (the tree is then ended with ``taskkill /T``)."""
    job = None
    try:
        win32api, win32con, win32job = _pywin32("win32api"), _pywin32("win32con"), _pywin32("win32job")
        job = win32job.CreateJobObject(None, "")
        info = win32job.QueryInformationJobObject(job, win32job.JobObjectExtendedLimitInformation)
        info["BasicLimitInformation"]["LimitFlags"] |= win32job.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
        win32job.SetInformationJobObject(job, win32job.JobObjectExtendedLimitInformation, info)
        handle = win32api.OpenProcess(win32con.PROCESS_SET_QUOTA | win32con.PROCESS_TERMINATE, False, pid)
        try:
            win32job.AssignProcessToJobObject(job, handle)
        finally:
            win32api.CloseHandle(handle)
        return job
    except Exception:  # noqa: BLE001  (pywin32 missing or refused: taskkill is the fallback)
        if job is not None:
            _close_job(job)
        return None


def _close_job(job: Any) -> None:
    with contextlib.suppress(Exception):
        _pywin32("win32api").CloseHandle(job)


def _pywin32(module: str) -> Any:
    """A module of pywin32 (which the mcp SDK brings on Windows), imported when first needed."""
    return importlib.import_module(module)


@atexit.register
def _kill_live_groups() -> None:
    """Python is exiting with servers still running (a hub never closed): kill them."""
    with _live_lock:
        pids = list(_live_groups)
    for pid in pids:
        _kill_group(pid, hard=True)


def _printable(text: str) -> str:
    return "".join(c if c.isprintable() else " " for c in text)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
