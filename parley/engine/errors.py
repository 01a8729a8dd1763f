"""Exception types the engines raise; each message is meant to be shown to a user as is."""

from __future__ import annotations

from pathlib import Path


class ParleyError(Exception):
    """Base of every error Parley reports to the user."""


class NativeLibraryError(ParleyError):
    """The native libraries are missing, incomplete or failed to load."""


class NoDeviceError(ParleyError):
    """No compute device was registered, so no model can be loaded."""


class ModelFileError(ParleyError):
    """A model file is missing, unreadable, truncated, a directory, or not a model.

    ``path`` names the file and ``problem`` says what is wrong with it.
    """

    def __init__(self, path: str | Path, problem: str) -> None:
        self.path = Path(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")


class ModelLoadError(ParleyError):
    """The native engine refused a model that passed validation (e.g. out of memory)."""


class AudioError(ParleyError):
    """Audio that cannot be used: empty, not finite, unreadable file, unsupported format."""


class CaptureError(ParleyError):
    """Microphone capture failed: no input device, PortAudio missing, device lost."""


class Cancelled(ParleyError):
    """The operation was cancelled from another thread."""
