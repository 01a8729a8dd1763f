"""A virtual microphone on a real PulseAudio server, for testing capture end to end.

``virtual_microphone()`` makes a null sink ``parley_vsink`` and a virtual source ``parley_vmic``
that records what is played into that sink, and makes the source the default, so the PortAudio
devices ``pulse`` and ``default`` (ALSA's PulseAudio plugin, from libasound2-plugins) record
exactly what ``play()`` sends.

PulseAudio behaviours that shape it:
- a null sink with nothing playing renders in 2-second chunks, so its monitor would deliver
  audio in bursts and drop the start of a clip; a silent stream plays into the sink for the
  whole session so the virtual microphone runs continuously, like a real one;
- the first recording from a fresh virtual source can wait up to those 2 s for its first audio;
  ``plug_in`` records once until audio flows, after which every client gets audio at once;
- when a source disappears, PulseAudio moves its recording streams to another source, which
  hides an unplugged microphone from the application.  ``unload_source`` therefore also kills
  the streams that were recording from it: what an application sees when a device vanishes
  with no fallback, or a raw ALSA device is unplugged;
- ALSA's PulseAudio plugin treats a stream that fails while the application is not polling it
  as an overrun and, recovering, connects a new stream to the default source: the application
  records on from whatever source is left.  Until the microphone is plugged in again, the
  clients that recorded from it have every new stream killed too (``_Unplugged``), as when
  there is nothing to fall back to.

Needs the pulseaudio, pulseaudio-utils (pactl, pacmd, pacat, paplay, parec) and
libasound2-plugins packages.  As root the server is started with ``pulseaudio -D`` (it warns
that it is not meant to run as root, and works).
"""

from __future__ import annotations

import contextlib
import select
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import soundfile

SINK = "parley_vsink"
SOURCE = "parley_vmic"
TOOLS = ("pulseaudio", "pactl", "pacmd", "pacat", "paplay", "parec")
_TIMEOUT = 15.0  # seconds; only reached when PulseAudio hangs


class PulseUnavailable(RuntimeError):
    """PulseAudio cannot be used here (tools missing, or the server will not start)."""


def _pactl(*args: str, check: bool = True) -> str:
    result = subprocess.run(["pactl", *args], capture_output=True, text=True, check=False)
    if check and result.returncode != 0:
        raise PulseUnavailable(f"pactl {' '.join(args)} failed: {result.stderr.strip()}")
    return result.stdout


def _short_list(kind: str) -> list[list[str]]:
    """The rows of ``pactl list short KIND``, split into fields (index first)."""
    return [line.split("\t") for line in _pactl("list", "short", kind).splitlines()]


def _index(kind: str, name: str) -> str | None:
    """Index of the sink or source called ``name``, None if there is none."""
    return next((fields[0] for fields in _short_list(kind) if fields[1] == name), None)


def _wait_for(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + _TIMEOUT
    while not condition():
        if time.monotonic() > deadline:
            raise PulseUnavailable(f"timed out waiting for {what}")
        time.sleep(0.05)


def server_running() -> bool:
    """True when a PulseAudio server answers for this user."""
    return subprocess.run(["pactl", "info"], capture_output=True, check=False).returncode == 0


def _daemon_gone() -> bool:
    """True when no PulseAudio daemon of this user is alive, answering or not.  A daemon
    that is still exiting removes its socket and PID file last, which would cut off a new
    daemon started in the meantime."""
    check = subprocess.run(["pulseaudio", "--check"], capture_output=True, check=False)
    return check.returncode != 0


@contextlib.contextmanager
def pulse_server() -> Iterator[None]:
    """Make sure a PulseAudio server runs; stop it afterwards if this started it."""
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        raise PulseUnavailable(f"not installed: {', '.join(missing)}")
    if server_running():
        yield
        return
    _wait_for(_daemon_gone, "an exiting PulseAudio daemon to finish")
    # -D returns once the daemon is up; --exit-idle-time=-1 keeps it up between tests.
    started = subprocess.run(["pulseaudio", "-D", "--exit-idle-time=-1"], capture_output=True, text=True, check=False)
    if started.returncode != 0:
        raise PulseUnavailable(f"pulseaudio would not start: {started.stderr.strip()}")
    try:
        _wait_for(server_running, "the PulseAudio server")
        yield
    finally:
        subprocess.run(["pulseaudio", "--kill"], capture_output=True, check=False)
        _wait_for(_daemon_gone, "PulseAudio to exit")


class VirtualMicrophone:
    """Handle on the virtual microphone that ``virtual_microphone()`` set up."""

    sink_name = SINK
    source_name = SOURCE

    def __init__(self) -> None:
        self._source_module: str | None = None
        self._unplugged: _Unplugged | None = None

    def play(self, wav_path: Path, wait: bool = True) -> subprocess.Popen:
        """Play an audio file into the microphone, waiting until it has been played unless
        ``wait`` is false (then pass the returned paplay process to ``finish``)."""
        player = subprocess.Popen(
            ["paplay", f"--device={SINK}", str(wav_path)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        if wait:
            finish(player, timeout=soundfile.info(str(wav_path)).duration + _TIMEOUT)
        return player

    def plug_in(self) -> None:
        """Create the virtual source (if it is not there), make it the default source, and
        wait until it delivers audio."""
        self.stop_keeping_unplugged()
        if self._source_module is None:
            self._source_module = _pactl(
                "load-module",
                "module-virtual-source",
                f"source_name={SOURCE}",
                f"master={SINK}.monitor",
            ).strip()
        _pactl("set-default-source", SOURCE)
        _record_until_audio_flows()

    def unload_source(self) -> None:
        """Unplug the microphone: remove the virtual source and kill the streams recording
        from it (see the module docstring for why they are killed)."""
        if self._source_module is None:
            return
        source = _index("sources", SOURCE)
        monitor = _index("sources", f"{SINK}.monitor")
        outputs = [fields for fields in _short_list("source-outputs") if fields[1] == source]
        recording = {fields[0] for fields in outputs}
        self._unplugged = _Unplugged({fields[2] for fields in outputs if fields[2] != "-"})
        _pactl("unload-module", self._source_module)
        self._source_module = None
        # PulseAudio moves the source's streams elsewhere (to the sink's monitor, or to another
        # source that is the default by then); a stream keeps its index when it moves.  Those
        # listed before the unload are killed wherever they went, and those listed after it on
        # the monitor too: a stream still attaching when the first list was taken is missed there.
        moved = {fields[0] for fields in _short_list("source-outputs") if fields[1] in (source, monitor)}
        for index in sorted(recording | moved):
            _kill_source_output(index)

    def stop_keeping_unplugged(self) -> None:
        """Let the clients that recorded from the unplugged microphone record again."""
        if self._unplugged is not None:
            self._unplugged.stop()
            self._unplugged = None


class _Unplugged:
    """Kills every recording stream the given PulseAudio clients open, until ``stop()``: the
    streams ALSA's plugin reconnects to the default source after its stream was killed."""

    def __init__(self, clients: set[str]) -> None:
        self._clients = clients
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="pulse-unplugged", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stopped.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stopped.wait(0.05):
            try:
                outputs = _short_list("source-outputs")
            except PulseUnavailable:
                return  # the server is gone, and every stream with it
            for index, _source, client, *_ in outputs:
                if client in self._clients:
                    _kill_source_output(index)


def _kill_source_output(index: str) -> None:
    subprocess.run(["pacmd", "kill-source-output", index], capture_output=True, check=False)


def finish(player: subprocess.Popen, timeout: float) -> None:
    """Wait for a ``play(..., wait=False)`` process and raise if paplay failed."""
    _, stderr = player.communicate(timeout=timeout)
    if player.returncode != 0:
        raise PulseUnavailable(f"paplay failed (exit {player.returncode}): {stderr.decode().strip()}")


@contextlib.contextmanager
def virtual_microphone() -> Iterator[VirtualMicrophone]:
    """Set up the virtual microphone as the default source (starting PulseAudio if needed);
    remove it afterwards and restore the previous default source."""
    with pulse_server():
        _unload_ours()
        previous_default = _pactl("get-default-source", check=False).strip()
        _pactl(
            "load-module",
            "module-null-sink",
            f"sink_name={SINK}",
            "sink_properties=device.description=Parley-virtual-speaker",
        )
        silence: subprocess.Popen | None = None
        microphone: VirtualMicrophone | None = None
        try:
            with open("/dev/zero", "rb") as zeros:
                silence = subprocess.Popen(
                    [
                        "pacat",
                        "--playback",
                        "--raw",
                        f"--device={SINK}",
                        "--format=s16le",
                        "--rate=16000",
                        "--channels=1",
                        "--latency-msec=20",
                        "--client-name=parley-silence",
                    ],
                    stdin=zeros,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            _wait_for(_sink_running, "the silent stream to start")
            microphone = VirtualMicrophone()
            microphone.plug_in()
            yield microphone
        finally:
            if microphone is not None:
                microphone.stop_keeping_unplugged()
            if silence is not None:
                silence.terminate()
                silence.wait()
            _unload_ours()
            if previous_default and _index("sources", previous_default) is not None:
                _pactl("set-default-source", previous_default, check=False)


def _unload_ours() -> None:
    """Unload parley's modules, including any left by a test run that crashed."""
    for argument in (f"source_name={SOURCE}", f"sink_name={SINK}"):  # the source uses the sink
        for index, _name, *args in _short_list("modules"):
            if argument in " ".join(args).split():
                _pactl("unload-module", index, check=False)


def _sink_running() -> bool:
    return any(fields[1] == SINK and fields[-1] == "RUNNING" for fields in _short_list("sinks"))


def _record_until_audio_flows() -> None:
    recorder = subprocess.Popen(
        [
            "parec",
            f"--device={SOURCE}",
            "--raw",
            "--format=s16le",
            "--rate=16000",
            "--channels=1",
            "--latency-msec=20",
            "--client-name=parley-warm-up",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        ready, _, _ = select.select([recorder.stdout], [], [], _TIMEOUT)
        if not ready:
            raise PulseUnavailable(f"no audio from {SOURCE} within {_TIMEOUT} s")
    finally:
        recorder.terminate()
        recorder.communicate()


@contextlib.contextmanager
def idle_microphone() -> Iterator[None]:
    """Make the default source a virtual microphone on a null sink that nothing plays into: like
    a real silent source, it delivers nothing for about 2 s at a time (PulseAudio renders an idle
    null sink in 2-second chunks).  Needs the server of ``virtual_microphone()`` running."""
    sink, source = "parley_idle_sink", "parley_idle_mic"
    previous = _pactl("get-default-source", check=False).strip()
    modules = [_pactl("load-module", "module-null-sink", f"sink_name={sink}").strip()]
    try:
        modules.append(
            _pactl("load-module", "module-virtual-source", f"source_name={source}", f"master={sink}.monitor").strip()
        )
        _pactl("set-default-source", source)
        yield
    finally:
        for module in reversed(modules):
            _pactl("unload-module", module, check=False)
        if previous:
            _pactl("set-default-source", previous, check=False)


@contextlib.contextmanager
def speakers() -> Iterator[str]:
    """A null sink ``parley_speakers`` as the default output, so that what the app plays goes
    there and not into the virtual microphone's sink (which PulseAudio may otherwise make the
    default, being its only sink).  Needs the server of ``virtual_microphone()``; yields its name."""
    sink = "parley_speakers"
    previous = _pactl("get-default-sink", check=False).strip()
    module = _pactl("load-module", "module-null-sink", f"sink_name={sink}").strip()
    try:
        _pactl("set-default-sink", sink)
        yield sink
    finally:
        _pactl("unload-module", module, check=False)
        if previous and _index("sinks", previous) is not None:
            _pactl("set-default-sink", previous, check=False)


@contextlib.contextmanager
def speakers_heard_by_microphone(level: float = 0.5, latency_ms: int = 60) -> Iterator[str]:
    """Laptop speakers, simulated: a null sink ``parley_speakers`` as the default output, looped
    back into the virtual microphone's sink ``latency_ms`` later at ``level`` of its loudness,
    so the microphone hears what the app plays beside what ``play()`` sends.  PulseAudio's
    loopback adapts its rate to hold that latency, so the echo's delay drifts a little, as a
    real sound card's does.  Needs the server of ``virtual_microphone()``; yields the sink's name."""
    sink = "parley_speakers"
    previous = _pactl("get-default-sink", check=False).strip()
    modules = [_pactl("load-module", "module-null-sink", f"sink_name={sink}").strip()]
    try:
        loopback = _pactl(
            "load-module",
            "module-loopback",
            f"source={sink}.monitor",
            f"sink={SINK}",
            f"latency_msec={latency_ms}",
            "source_dont_move=true",
            "sink_dont_move=true",
        ).strip()
        modules.append(loopback)
        _wait_for(lambda: _loopback_input(loopback) is not None, "the loopback to start")
        _pactl("set-sink-input-volume", str(_loopback_input(loopback)), f"{round(level * 65536)}")
        _pactl("set-default-sink", sink)
        yield sink
    finally:
        for module in reversed(modules):
            _pactl("unload-module", module, check=False)
        if previous and _index("sinks", previous) is not None:
            _pactl("set-default-sink", previous, check=False)


def _loopback_input(module: str) -> str | None:
    """The sink input that the loopback module ``module`` plays into the microphone's sink."""
    current = None
    for line in _pactl("list", "sink-inputs").splitlines():
        if line.startswith("Sink Input #"):
            current = line.split("#", 1)[1].strip()
        elif line.strip() == f"Owner Module: {module}":
            return current
    return None
