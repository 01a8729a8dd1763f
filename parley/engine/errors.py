"""Every exception Parley raises for a caller to handle; each message is meant to be shown to a
user as is.

Every distinct failure has its own type, so a caller decides what to do from the type alone and
never from the message text.  All of them are defined here (``tests/engine/test_errors.py`` checks that
no module under ``parley.engine`` or ``parley.cli`` defines another), so this tree is the whole
list.  The app adds one: ``parley.app.tasks.JobCancelled``, a ``Cancelled``.

    ParleyError                  catch it to report any failure to the user (the CLI's main does)
    ├── NativeLibraryError         the native libraries are missing or do not load (native)
    ├── NoDeviceError              no compute device registered (devices.select_device)
    ├── DeviceLostError            the device a model runs on went away: what ran there is lost,
    │   │                          at load, mid-reply or mid-transcription.  Load the model again
    │   │                          on the CPU (devices.fallback_to_cpu); the engines do it
    │   │                          themselves when the loss happens while they load
    │   └── RemoteDeviceLost           its remote compute server was lost (remote.check)
    ├── RemoteError                a remote compute server cannot be used: unreachable, not one,
    │                              a token refused (remote.connect, check_server, parse_endpoint)
    ├── ModelFileError             a model file that cannot be used (``path``, ``problem``):
    │                              the validators and converters in modelfiles
    ├── ModelLoadError             the native engine refused a file that passed validation (e.g.
    │                              out of memory); the engines retry a GPU's failure on the CPU
    ├── ModelClosedError           the model was closed
    ├── ModelBusyError             the model was called again from its own reply's callback
    ├── Cancelled                  stopped on request (a CancelToken, a progress callback): not a
    │   │                          failure, callers say "stopped" rather than report it
    │   └── DownloadCancelled          a download was cancelled; its partial file is kept
    ├── DiskFullError              not enough disk space: refused before a download that cannot
    │                              fit, or the disk (or quota) filled up while a converted model,
    │                              a download or a record was written (``is_disk_full`` tells the
    │                              OSError apart).  What was being written is removed, except a
    │                              download's partial file, kept to resume; the message says which
    ├── UntrustedFileError         a file Parley does not control cannot be read safely: not a
    │                              regular file, too large, malformed (untrusted); callers report
    │                              it for that one entry and go on
    ├── DocumentError              one of the user's documents cannot be read: not text,
    │                              encrypted, damaged, a zip or PDF bomb, past a time or memory
    │                              bound (documents.reading, documents.reader_process); the
    │                              message is the reason shown beside that file
    ├── CollectionError            a collection of documents that does not exist, or a name or
    │                              path it cannot take (documents.index, documents.store)
    ├── WakeWordError              a wake word that cannot be used: unknown, its model missing or
    │                              changed, a threshold outside (0, 1) (wake)
    ├── CatalogError               the model catalog is malformed (library.catalog)
    ├── UnknownModelError          no catalog entry has that id (library.find_entry)
    ├── DownloadError              a download failed (library.download_model)
    │   ├── NoNetworkError             the Hub cannot be reached or stopped responding
    │   └── ChecksumError              the file is not the expected one; it was removed
    ├── InvalidSettingError        a setting or argument is out of range
    │   ├── ContextSizeError           context length too small
    │   ├── MaxTokensError             longest reply below one token
    │   ├── ThreadCountError           CPU threads below one
    │   ├── AudioContextError          whisper audio context out of range
    │   └── UnknownLanguageError       language code whisper does not know
    ├── ChatError                  a reply could not be produced (ChatSession); the conversation
    │   │                          is left as it was
    │   ├── ContextOverflowError       the prompt does not fit in the context
    │   ├── DecodeError                llama_decode failed
    │   ├── TokenizeError              llama.cpp could not tokenize the text
    │   ├── PromptFormatError          the chat template could not be applied
    │   │   └── TemplateRefusedError       the model's own template refuses the conversation
    │   ├── NothingToRegenerateError   regenerate() with no reply to replace
    │   ├── InvalidHistoryError        history with roles other than user/assistant
    │   ├── QueueFullError             too many replies already wait for the batch engine
    │   ├── SchemaError                a JSON Schema a grammar cannot hold (``keyword`` names what):
    │   │                              an unsupported keyword, a contradiction, too large
    │   └── GrammarError               llama.cpp refused a grammar (chat.constrained)
    ├── TranscriptionError         whisper_full failed (SpeechModel.transcribe)
    ├── AudioError                 audio that cannot be used (empty, not finite, unreadable)
    │   └── AudioLimitError            audio refused by a limit (length, decoded size)
    ├── CaptureError               microphone capture failed
    ├── PlaybackError              the speakers cannot be used (no output device, PortAudio)
    ├── EchoCancellerError         the echo canceller (AEC3) is not installed or refused
    │                              its settings
    ├── ToolConfigError            the tools' configuration cannot be used: ``mcp.json``
    │                              malformed, too large or naming a server wrongly (tools.mcp)
    └── VoiceError                 a read-aloud voice cannot be used: its files are missing or
                                   malformed, its phonemizer (espeak-ng) is missing or failed

A reply or a transcription can therefore end in a ``ChatError`` / ``TranscriptionError`` (this
request failed, the model is fine), a ``DeviceLostError`` (the model must be loaded again
elsewhere), a ``ModelClosedError`` or a ``Cancelled``: catch the ones to tell apart, then
``ParleyError``.

Signals that never leave their package are not failures and are not listed: each is caught
where it is raised and turned into one of the above (``modelfiles.bounded_reader.Truncated`` into a
``ModelFileError``; ``backend.rpc.wire.Refused``, a message the RPC server refuses, ends that
client's connection; ``chat.decoder.DecodeAborted``, a decode a cancel stopped, ends a reply as
"cancelled" or becomes ``Cancelled``; the built-in tools' ``CalculationError``, ``PlaceError``,
``UnitError``, ``TimerError`` and ``SearchError`` and the MCP client's ``ResponseTooLarge`` become
a tool's error result, which the model reads).  Module-private ones start with an underscore.
"""

from __future__ import annotations

import errno
from pathlib import Path

from .notes import FILE_PROBLEM, Note

_DISK_FULL_ERRNOS = frozenset({errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)})


def is_disk_full(error: BaseException) -> bool:
    """Whether ``error`` is the operating system saying the disk, or the user's quota, is full."""
    return isinstance(error, OSError) and error.errno in _DISK_FULL_ERRNOS


class ParleyError(Exception):
    """Base of every error Parley reports to the user."""


class NativeLibraryError(ParleyError):
    """The native libraries are missing, incomplete or failed to load."""


class NoDeviceError(ParleyError):
    """No compute device was registered, so no model can be loaded."""


class DeviceLostError(ParleyError):
    """The device a model runs on went away, at load or in the middle of a reply or a
    transcription: the model cannot be used any more.  Load it again on another device (the
    CPU, ``devices.fallback_to_cpu(choice, str(exc))``)."""


class RemoteDeviceLost(DeviceLostError):
    """The server of a remote device went away (the message names it as ``HOST:PORT``)."""


class RemoteError(ParleyError):
    """A remote compute server cannot be used: unreachable, not a ggml RPC server, another
    protocol version, a token refused, or no devices.  The message names the endpoint
    (``HOST:PORT``, never a token) and the reason."""


class ModelFileError(ParleyError):
    """A model file is missing, unreadable, truncated, a directory, or not a model.

    ``path`` names the file and ``problem`` says what is wrong with it.
    """

    def __init__(self, path: str | Path, problem: str) -> None:
        self.path = Path(path)
        self.problem = problem
        super().__init__(Note(FILE_PROBLEM, path=self.path, problem=problem))


class ModelLoadError(ParleyError):
    """The native engine refused a model that passed validation (e.g. out of memory)."""


class ModelClosedError(ParleyError):
    """The model was closed; it cannot be used any more."""


class ModelBusyError(ParleyError):
    """The model was asked to start work from inside its own running reply (e.g. from the
    ``on_text`` callback), which would otherwise wait for itself forever."""


class Cancelled(ParleyError):
    """The operation was cancelled from another thread."""


class DownloadCancelled(Cancelled):
    """The user cancelled a download; the partial file is kept and the next try resumes it."""


class DiskFullError(ParleyError):
    """Not enough disk space: a download that cannot fit (checked before it starts), or the disk
    or the quota filled up while a file was written (``is_disk_full``)."""


# --------------------------------------------------------------------------- files and the library


class UntrustedFileError(ParleyError):
    """A file cannot be read safely: not a regular file, too large, malformed; says which and why."""


class DocumentError(ParleyError):
    """One of the user's documents cannot be read; the message is a one-line reason without the
    path (the collection's list shows it beside the file)."""


class CollectionError(ParleyError):
    """A collection of documents that does not exist, or a name or path it cannot take."""


class WakeWordError(ParleyError):
    """A wake word that cannot be used: unknown, its model missing or changed, a threshold outside
    (0, 1); the message says which."""


class CatalogError(ParleyError):
    """The catalog file is malformed (for the shipped file a packaging bug; the tests check it)."""


class UnknownModelError(ParleyError):
    """No catalog entry has that id."""


class DownloadError(ParleyError):
    """A download failed; the message says why and what happens to the partial file."""


class NoNetworkError(DownloadError):
    """The Hub (or the proxy) cannot be reached, or stopped responding."""


class ChecksumError(DownloadError):
    """The file's SHA-256 is not the expected one; the file was removed."""


# --------------------------------------------------------------------------- settings


class InvalidSettingError(ParleyError):
    """A setting or argument is out of range (the message names it and the allowed range)."""


class ContextSizeError(InvalidSettingError):
    """The context length asked for is too small to hold a prompt and a reply."""


class MaxTokensError(InvalidSettingError):
    """The longest reply is set below one token."""


class ThreadCountError(InvalidSettingError):
    """The number of CPU threads is below one."""


class AudioContextError(InvalidSettingError):
    """whisper's audio context is outside 0..1500 frames (or not a number, "auto" or "full")."""


class UnknownLanguageError(InvalidSettingError):
    """A language code whisper does not know; ``code`` is the code as given."""

    def __init__(self, code: str) -> None:
        self.code = code
        super().__init__(f"unknown language code {code!r}")


# --------------------------------------------------------------------------- chat


class ChatError(ParleyError):
    """A reply could not be produced; the conversation is left as it was."""


class ContextOverflowError(ChatError):
    """The prompt (the message, with the system prompt) does not fit in the context.

    ``tokens`` is how many tokens it takes and ``n_ctx`` the context length.
    """

    def __init__(self, message: str, tokens: int, n_ctx: int) -> None:
        self.tokens = tokens
        self.n_ctx = n_ctx
        super().__init__(message)


class DecodeError(ChatError):
    """``llama_decode`` failed; ``code`` is what it returned."""

    def __init__(self, message: str, code: int) -> None:
        self.code = code
        super().__init__(message)


class TokenizeError(ChatError):
    """llama.cpp could not tokenize the text."""


class PromptFormatError(ChatError):
    """The model's chat template could not be applied to the conversation (llama.cpp's built-in
    formats, or the template itself failed or passed a bound in its sandbox)."""


class TemplateRefusedError(PromptFormatError):
    """The model's own chat template refused the conversation (its ``raise_exception``)."""


class NothingToRegenerateError(ChatError):
    """``regenerate`` was called but the conversation does not end with a reply."""


class InvalidHistoryError(ChatError):
    """Earlier messages handed to a session hold a role other than user or assistant."""


class QueueFullError(ChatError):
    """Every sequence of the batch engine is busy and its waiting line is full."""


class SchemaError(ChatError):
    """A JSON Schema (a response format, a tool's parameters) that a grammar cannot hold.

    ``keyword`` is the schema keyword at fault ("" when it is the schema as a whole: too large,
    or no value satisfies it).
    """

    def __init__(self, message: str, keyword: str) -> None:
        self.keyword = keyword
        super().__init__(message)


class GrammarError(ChatError):
    """llama.cpp refused a grammar (its GBNF did not parse)."""


# --------------------------------------------------------------------------- speech and audio


class TranscriptionError(ParleyError):
    """``whisper_full`` failed; ``code`` is what it returned."""

    def __init__(self, message: str, code: int) -> None:
        self.code = code
        super().__init__(message)


class AudioError(ParleyError):
    """Audio that cannot be used: empty, not finite, unreadable file, unsupported format."""


class AudioLimitError(AudioError):
    """Audio refused by a limit: longer than allowed, or more data than may be decoded."""


class CaptureError(ParleyError):
    """Microphone capture failed: no input device, PortAudio missing, device lost."""


class PlaybackError(ParleyError):
    """Playing audio failed: no output device, PortAudio missing, the device refused the stream."""


class EchoCancellerError(ParleyError):
    """The echo canceller cannot be used: pywebrtc-audio is not installed, or it refused its settings."""


class VoiceError(ParleyError):
    """A text-to-speech voice cannot be used or failed: missing or malformed files, no espeak-ng."""


# --------------------------------------------------------------------------- tools


class ToolConfigError(ParleyError):
    """The tools' configuration (``mcp.json``) cannot be used as a whole: not JSON, too large,
    not the ``mcpServers`` shape.  One server's bad entry is reported for that entry instead."""
