"""PortAudio through sounddevice, shared by capture and playback.

sounddevice is imported on first use, not at import time, so a machine without PortAudio can
still run everything else.  Re-initialising PortAudio (to rescan devices) invalidates every open
stream in the process, input or output, so each open stream is counted here under one lock and
``capture.list_input_devices(refresh=True)`` skips the rescan while any is open.
"""

from __future__ import annotations

import threading
from types import ModuleType
from typing import cast

from ..native_loading import NATIVE_LOADING, set_openmp_waiting

PORTAUDIO_MISSING = "PortAudio is not installed (Debian/Ubuntu: sudo apt install libportaudio2)"

STREAMS_LOCK = threading.Lock()
"""Held while a stream is opened or closed, and while PortAudio is re-initialised."""

_open_streams = 0


def sounddevice() -> ModuleType:
    """The sounddevice module; OSError when libportaudio cannot be loaded (callers turn it into
    their own error with ``PORTAUDIO_MISSING``)."""
    with NATIVE_LOADING:
        set_openmp_waiting()  # this system's PortAudio loads libgomp
        import sounddevice
    return cast(ModuleType, sounddevice)


def stream_opened() -> None:
    """Count a stream that is now open; call with ``STREAMS_LOCK`` held."""
    global _open_streams
    _open_streams += 1


def stream_closed() -> None:
    """Count a stream that is now closed; call with ``STREAMS_LOCK`` held."""
    global _open_streams
    _open_streams -= 1


def streams_open() -> int:
    """How many streams are open; read with ``STREAMS_LOCK`` held."""
    return _open_streams
