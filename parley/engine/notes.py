"""The engine's words for the user, as templates an interface can translate.

The engine never imports Qt, and its messages are English.  A message built with ``note``
is a ``Note``: a plain ``str`` (the English text, as logs, the CLI and ``str(exc)`` use it)
that also keeps its template and the values that fill it, so the app can show it in the
user's language (``parley.app.engine_notes.said``: the template through Qt's translations,
context ``EngineNotes``, then filled).  A value may itself be a ``Note`` (a file's problem
inside "{path}: {problem}"); any other value is data (a path, a device's name, what a native
library said) and is shown as it is.

Every template is a constant of this module, so ``packaging/translations.py`` finds them all
without importing Parley and puts them into the .ts files beside the app's own words.  Not every
engine message is a note yet: those that are not stay English (docs/translations.md lists
which are).
"""

from __future__ import annotations

from collections.abc import Mapping

# ---------------------------------------------------------------- model files (ModelFileError)
FILE_PROBLEM = "{path}: {problem}"
FILE_MISSING = "the file does not exist"
FILE_BROKEN_LINK = "the file is missing (a broken link)"
FILE_NOT_REGULAR = "this is not a regular file (a device, pipe or socket)"
NOT_GGUF = "not a GGUF model file: {what}"
GGUF_TRUNCATED = "the file is truncated: it ends inside the {section} ({size} bytes in all)"
WHISPER_TRUNCATED = "file is truncated: it ends at byte {size} inside the vocabulary"
EMBEDDING_NOT_CHAT = (
    "this is an embedding model (it turns text into numbers for search), not a chat model: "
    "choose it in Settings > Desktop under Embeddings for other apps, or with `parley serve --embedding-model`"
)
# ---------------------------------------------------------------- loading (ModelLoadError)
LOAD_REFUSED = "{engine} could not load {path} on {device}: {reason}"
LOAD_REFUSED_SEE_LOG = "{engine} could not load {path} on {device} (see the log)"
# ---------------------------------------------------------------- devices (DeviceLostError)
REMOTE_DEVICE_LOST = "the remote device {device} ({server}) was lost: {reason}"
# ---------------------------------------------------------------- audio (CaptureError)
MICROPHONE_NOT_OPENED = "Cannot open the microphone '{name}': {reason}"
MICROPHONE_IN_USE = "Cannot open the microphone '{name}': {reason} - it may be in use by another application"
NO_MICROPHONE = (
    "No microphone found: there is no audio input device. Connect a microphone, or check that "
    "the sound server (PulseAudio or PipeWire) is running."
)
# ---------------------------------------------------------------- audio out (PlaybackError)
SPEAKERS_NOT_OPENED = "Cannot open the speakers: {reason}"
PLAYING_FAILED = "Playing audio failed: {reason}"
# ---------------------------------------------------------------- downloads (DownloadError)
DOWNLOADS_OFF = "Downloads are switched off (HF_HUB_OFFLINE is set)."
CANNOT_REACH = (
    "Cannot reach {host}: {reason}. Check the network connection (and HTTPS_PROXY if you use a proxy), then try again."
)
NOT_THE_EXPECTED_FILE = (
    "The file {name} in {repo} is not the one Parley expects (SHA-256 {found}… instead of {expected}…); "
    "nothing was downloaded."
)
# ---------------------------------------------------------------- disk space (DiskFullError)
DISK_FULL_WRITING = "Not enough disk space in {folder} to write {name}: free some space and try again."
DISK_FULL_BEFORE_DOWNLOAD = (
    "Not enough disk space for {name}: it needs {needed} more, but {folder} has {free} free. "
    "Free some space and try again."
)


class Note(str):
    """An English message that keeps its template and values (see the module's docstring)."""

    template: str
    values: Mapping[str, object]

    def __new__(cls, template: str, **values: object) -> Note:
        """``template`` (a constant of this module) filled with ``values``."""
        note = super().__new__(cls, template.format(**values))
        note.template, note.values = template, values
        return note

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled (an error sent between processes) as its template and values."""
        return _rebuilt, (self.template, dict(self.values))


def _rebuilt(template: str, values: dict[str, object]) -> Note:
    return Note(template, **values)
