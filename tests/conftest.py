"""Shared test configuration: headless Qt, and the virtual microphone fixtures.

Missing tools and builds go through ``tests.support.requirements.require``: skipped with the reason on
a developer's machine, a failure in a strict run (``PARLEY_STRICT_TESTS=1``: CI)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tests.support.pulse import VirtualMicrophone

# Real Qt windows, rendered offscreen unless the caller chose a platform (e.g. xcb under Xvfb).
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# The tests read the windows' English words: the interface's language follows the system's
# (LANGUAGE first, app/ui/i18n.py), so a developer's own language is not the tests'.
os.environ["LANGUAGE"] = "en"

# A PulseAudio server of this test session's own (tests/support/pulse.py starts it): the virtual
# microphone must hear only what this session plays, never a desktop's sound or another test run
# on the same machine.  libpulse (pactl, paplay, PortAudio's ALSA plugin) finds a server by this
# folder; it is set before anything connects.
if "PULSE_SERVER" not in os.environ:
    os.environ["PULSE_RUNTIME_PATH"] = tempfile.mkdtemp(prefix="parley-test-pulse-")


@pytest.fixture(scope="module")
def virtual_mic() -> Iterator[VirtualMicrophone]:
    """A PulseAudio virtual microphone (the server is started if none runs) for the module."""
    from parley.engine.audio.capture import list_input_devices
    from tests.support.pulse import PulseUnavailable, virtual_microphone
    from tests.support.requirements import require

    try:
        with virtual_microphone() as microphone:
            devices = list_input_devices(refresh=True)  # PortAudio may have started before Pulse
            require(
                "pulse" in [d.name for d in devices], "PortAudio has no 'pulse' device (install libasound2-plugins)"
            )
            yield microphone
    except PulseUnavailable as exc:
        require(False, f"PulseAudio unavailable: {exc}")


@pytest.fixture
def mic(virtual_mic: VirtualMicrophone) -> VirtualMicrophone:
    """The virtual microphone, plugged in again if an earlier test unplugged it."""
    virtual_mic.plug_in()
    return virtual_mic


@pytest.fixture
def broken_gpu_libdir(tmp_path: Path) -> Path:
    """A library folder for PARLEY_LIB_DIR: ours, plus a CUDA backend module that cannot load."""
    from parley.engine.backend import native

    libdir = tmp_path / "lib"
    libdir.mkdir()
    for path in native.lib_dir().iterdir():
        if not path.name.startswith(("_ffi", "__")):
            (libdir / path.name).symlink_to(path)
    (libdir / "libggml-cuda.so").write_bytes(b"not a shared library")
    return libdir


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--device-under-test",
        default=None,
        metavar="NAME",
        help="run tests/engine/test_device.py on this device (CUDA0, Vulkan0...); "
        "without it those tests are deselected, not skipped",
    )


@pytest.hookimpl(tryfirst=True)  # before ``-m`` selects by marker
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test that records from the virtual microphone is a ``pulseaudio`` test, however it
    reaches the fixture.  Device tests need hardware CI does not have: they run only when a
    device is named."""
    for item in items:
        if "virtual_mic" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.pulseaudio)
    if config.getoption("--device-under-test"):
        return
    deselected = [item for item in items if item.get_closest_marker("device")]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = [item for item in items if not item.get_closest_marker("device")]
