"""Exception types the engines raise; each message is meant to be shown to a user as is.

Every distinct failure has its own type, so a caller decides what to do from the type alone
and never from the message text.  The tree::

    ParleyError
    ├── NativeLibraryError         the native libraries are missing or do not load
    ├── NoDeviceError              no compute device registered
    ├── ModelFileError             a model file that cannot be used (``path``, ``problem``)
    ├── ModelLoadError             the native engine refused a file that passed validation
    ├── ModelClosedError           the model was closed
    ├── ModelBusyError             the model was called again from its own reply's callback
    ├── Cancelled                  stopped on request (a CancelToken, a progress callback)
    ├── DiskFullError              the disk filled up while writing a converted model
    ├── InvalidSettingError        a setting or argument is out of range
    │   ├── ContextSizeError           context length too small
    │   ├── MaxTokensError             longest reply below one token
    │   ├── ThreadCountError           CPU threads below one
    │   ├── AudioContextError          whisper audio context out of range
    │   └── UnknownLanguageError       language code whisper does not know
    ├── ChatError                  a reply could not be produced
    │   ├── ContextOverflowError       the prompt does not fit in the context
    │   ├── DecodeError                llama_decode failed
    │   ├── TokenizeError              llama.cpp could not tokenize the text
    │   ├── PromptFormatError          the chat template could not be applied
    │   ├── NothingToRegenerateError   regenerate() with no reply to replace
    │   ├── InvalidHistoryError        history with roles other than user/assistant
    │   └── QueueFullError             too many replies already wait for the batch engine
    ├── TranscriptionError         whisper_full failed
    ├── AudioError                 audio that cannot be used (empty, not finite, unreadable)
    │   └── AudioLimitError            audio refused by a limit (length, decoded size)
    └── CaptureError               microphone capture failed
"""

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


class ModelClosedError(ParleyError):
    """The model was closed; it cannot be used any more."""


class ModelBusyError(ParleyError):
    """The model was asked to start work from inside its own running reply (e.g. from the
    ``on_text`` callback), which would otherwise wait for itself forever."""


class Cancelled(ParleyError):
    """The operation was cancelled from another thread."""


class DiskFullError(ParleyError):
    """The disk filled up while writing a converted model; nothing was left behind."""


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
    """llama.cpp could not apply the model's chat template to the conversation."""


class NothingToRegenerateError(ChatError):
    """``regenerate`` was called but the conversation does not end with a reply."""


class InvalidHistoryError(ChatError):
    """Earlier messages handed to a session hold a role other than user or assistant."""


class QueueFullError(ChatError):
    """Every sequence of the batch engine is busy and its waiting line is full."""


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
