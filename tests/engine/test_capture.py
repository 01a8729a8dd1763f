"""Microphone capture through the real PortAudio -> ALSA -> PulseAudio path.

Speech is played into a PulseAudio virtual microphone (tests/support/pulse.py) while a ``Recorder``
records the PortAudio device ``pulse``, which follows PulseAudio's default source.  Waits are
on processes and events, each with a generous timeout that only guards against a hang.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
import soundfile

from parley.engine.audio.capture import (
    PORTAUDIO_MISSING,
    Recorder,
    find_input_device,
    list_input_devices,
)
from parley.engine.audio.files import SAMPLE_RATE, rms_level
from parley.engine.errors import CaptureError
from tests.support.pulse import VirtualMicrophone
from tests.support.requirements import require
from tests.support.speech import correlation_peak, espeak_available, synthesize

EVENT_TIMEOUT = 30.0  # seconds; only reached if something hangs
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def speech(tmp_path_factory: pytest.TempPathFactory) -> np.ndarray:
    """About 1.7 s of espeak-ng speech at 16 kHz."""
    require(espeak_available(), "espeak-ng is not installed (it speaks the test sentence)")
    path = synthesize("Testing one two three.", tmp_path_factory.mktemp("speech") / "speech.wav")
    samples, _ = soundfile.read(path, dtype="float32")
    return samples


@pytest.fixture(scope="module")
def played_clip(speech: np.ndarray, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The speech with silence around it, as played into the microphone: the leading silence
    makes the first level reports quiet, the trailing silence covers the capture latency
    after paplay has finished, so the whole utterance is recorded before ``stop()``."""
    silence = np.zeros(int(0.3 * SAMPLE_RATE), dtype=np.float32)
    path = tmp_path_factory.mktemp("played") / "played.wav"
    soundfile.write(path, np.concatenate([silence, speech, silence]), SAMPLE_RATE)
    return path


def test_lists_the_pulse_input_device(mic: VirtualMicrophone) -> None:
    devices = list_input_devices()
    pulse_device = find_input_device(devices, "pulse")
    assert pulse_device.host_api == "ALSA"
    assert pulse_device.channels >= 1 and pulse_device.default_samplerate > 0
    assert sum(d.is_default for d in devices) <= 1


def test_records_speech_played_into_the_microphone(
    mic: VirtualMicrophone, speech: np.ndarray, played_clip: Path
) -> None:
    levels: list[float] = []
    recorder = Recorder("pulse", on_level=levels.append)
    recorder.start()
    assert recorder.is_recording
    mic.play(played_clip)
    audio = recorder.stop()

    assert not recorder.is_recording and recorder.error is None and not recorder.limit_reached
    assert audio.dtype == np.float32 and audio.ndim == 1
    assert len(audio) >= len(speech)
    assert rms_level(audio) > -40.0  # speech, not the digital silence of an idle microphone
    assert correlation_peak(audio, speech) > 0.8
    # Levels were reported block by block, starting at silence and rising with the speech.
    assert len(levels) > 10
    assert levels[0] < -60.0 < -30.0 < max(levels)


def test_microphone_unplugged_mid_recording(mic: VirtualMicrophone, speech: np.ndarray, played_clip: Path) -> None:
    errors: list[CaptureError] = []
    kept: list[np.ndarray] = []
    reported = threading.Event()

    def on_error(error: CaptureError) -> None:  # as a UI would: collect what was recorded
        errors.append(error)
        kept.append(recorder.stop())
        reported.set()

    recorder = Recorder("pulse", on_error=on_error)
    recorder.start()
    mic.play(played_clip)
    mic.unload_source()

    assert reported.wait(EVENT_TIMEOUT)
    assert not recorder.is_recording
    assert "stopped delivering audio" in str(errors[0]) and "'pulse'" in str(errors[0])
    assert recorder.error is errors[0]
    assert correlation_peak(kept[0], speech) > 0.8  # what was recorded before the unplug

    # The process carries on: PulseAudio's default source is now the sink's monitor, which
    # the PortAudio device "default" records.
    other = Recorder("default")
    other.start()
    mic.play(played_clip)
    assert correlation_peak(other.stop(), speech) > 0.8
    assert other.error is None


def test_stops_by_itself_at_max_seconds(mic: VirtualMicrophone) -> None:
    reached = threading.Event()
    recorder = Recorder("pulse", max_seconds=0.5, on_limit=reached.set)
    recorder.start()

    assert reached.wait(EVENT_TIMEOUT)
    assert recorder.limit_reached and not recorder.is_recording
    assert recorder.elapsed == pytest.approx(0.5, abs=1e-3)
    audio = recorder.stop()
    assert abs(len(audio) - SAMPLE_RATE // 2) <= 1
    assert recorder.limit_reached and recorder.error is None


def test_start_is_idempotent_and_cancel_discards(mic: VirtualMicrophone) -> None:
    recorded = threading.Event()  # set from the audio thread once a tenth of a second is in
    recorder = Recorder("pulse", on_level=lambda _level: recorder.elapsed > 0.1 and recorded.set())
    recorder.start()
    assert recorded.wait(EVENT_TIMEOUT)
    recorder.start()  # a repeated key-down event keeps the same take
    assert recorder.elapsed > 0.1
    recorder.cancel()
    assert not recorder.is_recording and recorder.elapsed == 0.0
    assert len(recorder.stop()) == 0


def test_unknown_device_name(mic: VirtualMicrophone) -> None:
    recorder = Recorder("no-such-microphone", refresh=True)
    with pytest.raises(CaptureError, match=r"'no-such-microphone' not found; available: .*'pulse'"):
        recorder.start()
    assert not recorder.is_recording
    with pytest.raises(CaptureError, match="No microphone with device number 999"):
        Recorder(999).start()


def test_device_that_fails_to_open(mic: VirtualMicrophone, monkeypatch: pytest.MonkeyPatch) -> None:
    # PortAudio listed "pulse" while the server was reachable; pointing the ALSA plugin at a
    # server that does not exist makes opening it fail, as a device taken or gone would.
    monkeypatch.setenv("PULSE_SERVER", "unix:/nonexistent/parley-test")
    recorder = Recorder("pulse")
    with pytest.raises(CaptureError, match="Cannot open the microphone 'pulse'"):
        recorder.start()
    assert not recorder.is_recording


def run_python(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


PRINT_CAPTURE_ERROR = """
from parley.engine.audio.capture import Recorder
from parley.engine.errors import CaptureError
try:
    Recorder().start()
except CaptureError as e:
    print("CaptureError:", e)
"""


def test_no_input_device_at_all() -> None:
    # A fresh process whose PulseAudio server does not exist.  Where the machine has no sound
    # card (CI, this container) PortAudio then finds nothing to record from.
    result = run_python(
        "from parley.engine.audio.capture import list_input_devices\n"
        "print('DEVICES:', [d.name for d in list_input_devices()])\n" + PRINT_CAPTURE_ERROR,
        {"PULSE_SERVER": "unix:/nonexistent/parley-test"},
    )
    if "DEVICES: []" not in result.stdout:
        pytest.skip(f"this machine has sound hardware besides PulseAudio: {result.stdout.strip()}")
    assert "CaptureError: No microphone found" in result.stdout, result.stderr


def test_no_device_to_choose_from() -> None:
    for wanted in (None, "pulse", 0):
        with pytest.raises(CaptureError, match="No microphone found"):
            find_input_device([], wanted)


def test_portaudio_library_missing(tmp_path: Path) -> None:
    # sounddevice raises OSError on import when libportaudio cannot be loaded; a stand-in
    # module does exactly that, since the real library cannot be uninstalled for a test.
    (tmp_path / "sounddevice.py").write_text("raise OSError('PortAudio library not found')\n")
    result = run_python(PRINT_CAPTURE_ERROR, {"PYTHONPATH": f"{tmp_path}{os.pathsep}{REPO}"})
    assert f"CaptureError: {PORTAUDIO_MISSING}" in result.stdout, result.stderr
