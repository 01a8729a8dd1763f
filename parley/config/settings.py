"""The user's settings: one typed dataclass, stored as JSON in the user's config folder.

Every field has a default, so a missing, unreadable or partly wrong file never stops the app:
what cannot be used is replaced by its default and reported in ``LoadedSettings.warnings``
for the status bar.  Saving writes a temporary file and renames it over the old one, so a
crash mid-save leaves the previous settings intact.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parley.engine.chat.system_prompt import default_system_prompt, is_earlier_default
from parley.engine.dictation import options as dictation, vocabulary as vocab
from parley.engine.errors import UntrustedFileError
from parley.engine.untrusted import load_json

from .paths import config_dir

log = logging.getLogger("parley.settings")

DEFAULT_MODEL = "default"
BASE_SPEECH_MODEL = "base"  # the optional multilingual Whisper base
RECENT_MODELS_KEPT = 8
WAKE_WORD_IDS = ("", "hey_jarvis", "okay_nabu", "hey_mycroft", "alexa", "parley")  # "": none; engine.wake.words
SETTINGS_FILE = "settings.json"
MAX_SETTINGS_BYTES = 1 << 20  # a few kilobytes, a long system prompt included
MAX_SETTINGS_DEPTH = 8  # the file nests 3 deep (the dictation rules: a list of pairs)
MAX_LIST_ITEMS = 256  # recent models, model folders, servers
MAX_WARNINGS = 10
MAX_SHOWN_CHARS = 80  # of a bad value quoted in a warning


# The system-wide shortcuts.  On macOS Qt calls Command "Ctrl", and Command+Option+Space
# opens Finder's search there: Option+Space instead, as the dictation tools on macOS use.
DICTATE_KEYS = "Alt+Space" if sys.platform == "darwin" else "Ctrl+Alt+Space"
ASK_KEYS = "Alt+Return" if sys.platform == "darwin" else "Ctrl+Alt+Return"
APPEARANCES = ("system", "light", "dark", "high-contrast")
# The tools that act but run without asking unless the user says otherwise: Parley's own timers
# and reminders, which touch nothing outside Parley and are undone by voice ("cancel the timer").
ALLOWED_TOOLS = ("set_timer", "set_reminder", "cancel_timer")


@dataclass
class Settings:
    speech_model: str = DEFAULT_MODEL  # "default" (tiny.en), "base" (multilingual) or a .bin path
    chat_model: str = DEFAULT_MODEL  # a .gguf path, or "default"
    recent_speech_models: list[str] = field(default_factory=list)  # newest first
    recent_chat_models: list[str] = field(default_factory=list)
    device: str = "auto"  # "auto" | "cpu" | a device name such as "CUDA0"
    threads: int = 0  # 0: let the engines decide
    microphone: str | None = None  # None: the system default input
    language: str = "auto"  # "auto" or a language code such as "en"
    system_prompt: str = field(default_factory=default_system_prompt)
    temperature: float = 0.7
    top_p: float = 0.95
    top_k: int = 40
    max_tokens: int = 512
    context_length: int = 4096
    send_on_release: bool = True  # False: the transcript goes into the text box
    read_replies_aloud: bool = False
    voice: str = DEFAULT_MODEL  # the read-aloud voice: "default" (the natural voice), "system", or a natural voice's id
    ptt_shortcut: str = "Ctrl+Space"
    hands_free: bool = False  # the microphone stays open; each utterance is sent
    hands_free_detector: str = "neural"  # what tells speech from noise: "neural" (Silero VAD) or "energy" (loudness)
    hands_free_turn_end: str = "model"  # what ends a turn: "model" (Smart Turn hears you finish) or "pause" (0.8 s)
    wake_word: str = ""  # hands-free takes only what begins with it ("": everything); engine.wake.words' ids
    wake_threshold: float | None = None  # how sure the detector must be, 0-1 exclusive (None: the model's own)
    global_shortcuts: bool = True  # Dictate and Ask Parley from any application (desktop.global_shortcuts)
    dictate_shortcut: str = DICTATE_KEYS  # held (or tapped to start and stop): words typed where the cursor is
    ask_shortcut: str = ASK_KEYS  # held: a question to Parley, answered in the quick-ask window
    dictate_cleaned_shortcut: str = ""  # optional: a dictation cleaned up by the chat model ("": none)
    dictation_method: str = "type"  # "type" (key events) or "paste" (through the clipboard, which is restored)
    dictation_space_after: bool = True  # a space after each dictated take
    typing_rate: int = 0  # characters a second when typing; 0: as fast as the app takes them
    told_about_global_shortcuts: bool = False  # the one-time notice that names the keys was shown
    live_transcript: bool = True  # words appear in the text box while the key is held
    model_folders: list[str] = field(default_factory=list)  # searched for models, besides other tools' folders
    rpc_servers: list[str] = field(default_factory=list)  # "HOST:PORT" of `parley rpc-server`s to use
    close_to_tray: bool = True  # closing the window hides it (where the desktop has a tray)
    start_minimized: bool = False  # start in the tray, without the window
    start_at_login: bool = False  # an autostart entry of Parley's own (desktop.autostart)
    serve_other_apps: bool = False  # the OpenAI-compatible server on the loaded models (local_server)
    serve_port: int = 8080  # its port on 127.0.0.1
    # Its /v1/embeddings: "" the chat model's own (mean-pooled, weaker for search), else an
    # embedding model: a catalog id ("all-minilm-l6-v2") or a GGUF with pooling
    serve_embedding_model: str = ""
    first_start_done: bool = False  # the first-start page was dismissed or a model picked there
    # Dictation (parley.engine.dictation): what is done to a transcript before it is typed.
    dictation_vocabulary: list[str] = field(default_factory=list)  # names, products, jargon
    dictation_vocabulary_threshold: float = vocab.DEFAULT_THRESHOLD  # near-miss similarity
    dictation_replacements: list[list[str]] = field(default_factory=list)  # [[spoken, written], ...]
    dictation_spoken_punctuation: bool = True  # "comma", "new line" (English)
    dictation_remove_fillers: bool = True  # "um", "uh"; "I I" said once
    dictation_cleanup: bool = False  # clean-up by the loaded chat model
    dictation_cleanup_prompt: str = dictation.DEFAULT_CLEANUP_PROMPT
    dictation_cleanup_timeout_s: float = dictation.DEFAULT_CLEANUP_TIMEOUT_S
    dictation_history_days: int = 7  # 0: keep none
    dictation_app_modes: dict[str, str] = field(  # X11 window class (lower case) -> mode
        default_factory=lambda: dict(dictation.DEFAULT_APP_MODES)
    )
    interface_language: str = ""  # "": the system's; else a shipped language such as "de" or "pt_BR"
    announce_replies: str = "end"  # what a screen reader is told of a reply: "end", "streaming" or "off"
    appearance: str = "system"  # the colours: one of APPEARANCES ("system": its dark and high-contrast settings)
    # Tools the chat model calls (parley.engine.tools): the built-in ones, and those of the MCP
    # servers in mcp.json (beside this file).  A tool that acts asks first unless allowed here.
    tools_enabled: bool = True
    always_allowed_tools: list[str] = field(default_factory=lambda: list(ALLOWED_TOOLS))

    def remember_model(self, kind: str, path: str) -> None:
        """Put a user's model file first in the recent list of ``kind`` ("speech" or "chat")."""
        if path in (DEFAULT_MODEL, BASE_SPEECH_MODEL):
            return
        recent = getattr(self, f"recent_{kind}_models")
        recent[:] = [path] + [p for p in recent if p != path][: RECENT_MODELS_KEPT - 1]

    def copy(self) -> Settings:
        return dataclasses.replace(
            self,
            recent_speech_models=list(self.recent_speech_models),
            recent_chat_models=list(self.recent_chat_models),
            model_folders=list(self.model_folders),
            rpc_servers=list(self.rpc_servers),
            dictation_vocabulary=list(self.dictation_vocabulary),
            dictation_replacements=[list(rule) for rule in self.dictation_replacements],
            dictation_app_modes=dict(self.dictation_app_modes),
            always_allowed_tools=list(self.always_allowed_tools),
        )


def _number(low: float, high: float) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and low <= v <= high


def _integer(low: int, high: int) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and low <= v <= high


def _text(v: Any) -> bool:
    return isinstance(v, str)


def _nonempty_text(v: Any) -> bool:
    return isinstance(v, str) and bool(v.strip())


def _path(v: Any) -> bool:
    """A non-empty text that can name a file (no NUL character, which no path can hold)."""
    return _nonempty_text(v) and "\0" not in v


def _text_list(v: Any) -> bool:
    return isinstance(v, list) and len(v) <= MAX_LIST_ITEMS and all(isinstance(p, str) for p in v)


def _path_list(v: Any) -> bool:
    return isinstance(v, list) and len(v) <= MAX_LIST_ITEMS and all(_path(p) for p in v)


def _endpoints(v: Any) -> bool:
    """A list of distinct ``HOST:PORT`` texts (not checked for a server: that needs the network)."""
    from parley.engine.backend.rpc.endpoints import parse_endpoint
    from parley.engine.errors import RemoteError

    if not _text_list(v) or len(set(v)) != len(v):
        return False
    try:
        for endpoint in v:
            parse_endpoint(endpoint)
    except RemoteError:
        return False
    return True


# A stored vocabulary or rule list is read as far as it is usable (the engine bounds it and
# says what it left out): only a value of the wrong shape falls back to the default.
MAX_STORED_ITEMS = 100_000


def _texts(v: Any) -> bool:
    return isinstance(v, list) and len(v) <= MAX_STORED_ITEMS and all(isinstance(p, str) for p in v)


def _rules(v: Any) -> bool:
    return (
        isinstance(v, list)
        and len(v) <= MAX_STORED_ITEMS
        and all(isinstance(r, list) and len(r) == 2 and all(isinstance(p, str) for p in r) for r in v)
    )


def _app_modes(v: Any) -> bool:
    return (
        isinstance(v, dict)
        and len(v) <= MAX_LIST_ITEMS
        and all(isinstance(k, str) and 0 < len(k) <= 256 and m in dictation.MODES for k, m in v.items())
    )


_VALID: dict[str, Callable[[Any], bool]] = {
    "speech_model": _path,
    "chat_model": _path,
    "recent_speech_models": _path_list,
    "recent_chat_models": _path_list,
    "device": _nonempty_text,
    "threads": _integer(0, 1024),
    "microphone": lambda v: v is None or _nonempty_text(v),
    "language": _nonempty_text,
    "system_prompt": _text,
    "temperature": _number(0.0, 2.0),
    "top_p": _number(0.0, 1.0),
    "top_k": _integer(0, 1000),
    "max_tokens": _integer(1, 32768),
    "context_length": _integer(256, 262144),
    "send_on_release": lambda v: isinstance(v, bool),
    "read_replies_aloud": lambda v: isinstance(v, bool),
    "voice": lambda v: isinstance(v, str) and 0 < len(v) <= 64 and v.replace("_", "").replace("-", "").isalnum(),
    "ptt_shortcut": _nonempty_text,
    "hands_free": lambda v: isinstance(v, bool),
    "hands_free_detector": lambda v: v in ("neural", "energy"),
    "hands_free_turn_end": lambda v: v in ("model", "pause"),
    "wake_word": lambda v: v in WAKE_WORD_IDS,
    "wake_threshold": lambda v: v is None or (isinstance(v, (int, float)) and not isinstance(v, bool) and 0 < v < 1),
    "global_shortcuts": lambda v: isinstance(v, bool),
    "dictate_shortcut": lambda v: isinstance(v, str) and len(v) <= 64,
    "dictate_cleaned_shortcut": lambda v: isinstance(v, str) and len(v) <= 64,
    "ask_shortcut": lambda v: isinstance(v, str) and len(v) <= 64,
    "dictation_method": lambda v: v in ("type", "paste"),
    "dictation_space_after": lambda v: isinstance(v, bool),
    "typing_rate": _integer(0, 1000),
    "told_about_global_shortcuts": lambda v: isinstance(v, bool),
    "live_transcript": lambda v: isinstance(v, bool),
    "model_folders": _path_list,
    "rpc_servers": _endpoints,
    "close_to_tray": lambda v: isinstance(v, bool),
    "start_minimized": lambda v: isinstance(v, bool),
    "start_at_login": lambda v: isinstance(v, bool),
    "serve_other_apps": lambda v: isinstance(v, bool),
    "serve_port": _integer(0, 65535),
    "serve_embedding_model": lambda v: v == "" or _path(v),
    "first_start_done": lambda v: isinstance(v, bool),
    "dictation_vocabulary": _texts,
    "dictation_vocabulary_threshold": _number(*vocab.THRESHOLD_RANGE),
    "dictation_replacements": _rules,
    "dictation_spoken_punctuation": lambda v: isinstance(v, bool),
    "dictation_remove_fillers": lambda v: isinstance(v, bool),
    "dictation_cleanup": lambda v: isinstance(v, bool),
    "dictation_cleanup_prompt": _text,
    "dictation_cleanup_timeout_s": _number(*dictation.CLEANUP_TIMEOUT_RANGE),
    "dictation_history_days": _integer(0, 3650),
    "dictation_app_modes": _app_modes,
    "interface_language": lambda v: isinstance(v, str) and re.fullmatch(r"([a-z]{2,3}(_[A-Z]{2})?)?", v) is not None,
    "announce_replies": lambda v: v in ("end", "streaming", "off"),
    "appearance": lambda v: v in APPEARANCES,
    "tools_enabled": lambda v: isinstance(v, bool),
    "always_allowed_tools": lambda v: _text_list(v) and all(0 < len(t) <= 64 for t in v),
}


_FLOATS = ("temperature", "top_p", "dictation_vocabulary_threshold", "dictation_cleanup_timeout_s")

# Settings that were saved under another name by an earlier version.
_RENAMED = {"speak_replies": "read_replies_aloud"}


@dataclass
class LoadedSettings:
    settings: Settings
    warnings: list[str]


def load_settings(path: Path | None = None) -> LoadedSettings:
    """Read the settings file; anything unusable becomes its default plus a warning.

    The file is read as untrusted (``parley.engine.untrusted``): a FIFO, a device or a folder in
    its place, more than MAX_SETTINGS_BYTES, invalid UTF-8, deep nesting or huge integers are
    set aside as ``settings.json.bad`` and the defaults used, so the app always starts and the
    user's file is never overwritten by the next save."""
    path = path or config_dir() / SETTINGS_FILE
    if not os.path.lexists(path):
        return LoadedSettings(Settings(), [])
    try:
        raw = load_json(path, max_bytes=MAX_SETTINGS_BYTES, max_depth=MAX_SETTINGS_DEPTH)
    except UntrustedFileError as exc:
        return LoadedSettings(Settings(), [_set_aside(path, f"could not be read ({_reason(exc, path)})")])
    if not isinstance(raw, dict):
        return LoadedSettings(Settings(), [_set_aside(path, "is not a JSON object")])

    warnings: list[str] = []
    values: dict[str, Any] = {}
    for old, new in _RENAMED.items():
        if old in raw and new not in raw:
            raw[new] = raw.pop(old)
    for key, value in raw.items():
        if key not in _VALID:
            warnings.append(f"Ignored the unknown setting {_shown(key)}.")
        elif _VALID[key](value):
            values[key] = float(value) if key in _FLOATS else value
        else:
            shown = _without_tokens(value) if key == "rpc_servers" else value
            warnings.append(f"The setting {key!r} had an unusable value ({_shown(shown)}); using the default.")
    if is_earlier_default(values.get("system_prompt", "")):
        del values["system_prompt"]  # never edited: today's default replaces the old one
    warnings = _at_most(warnings, MAX_WARNINGS)
    for message in warnings:
        log.warning("%s: %s", path, message)
    return LoadedSettings(Settings(**values), warnings)


def _reason(error: UntrustedFileError, path: Path) -> str:
    return str(error).removeprefix(f"{path}: ")


def _without_tokens(value: Any) -> Any:
    """``rpc_servers`` as a warning may quote it: each ``TOKEN@`` masked (a token is never shown)."""
    from parley.engine.backend.rpc.endpoints import public_endpoint

    if isinstance(value, list):
        return [public_endpoint(v) if isinstance(v, str) else v for v in value]
    return public_endpoint(value) if isinstance(value, str) else value


def _shown(value: Any) -> str:
    """A value from the file as a warning shows it: its repr, cut to one short line."""
    text = repr(value)
    return text if len(text) <= MAX_SHOWN_CHARS else text[:MAX_SHOWN_CHARS] + "..."


def _at_most(warnings: list[str], limit: int) -> list[str]:
    """The first ``limit`` warnings, and one line for the rest (a file of a thousand unknown
    keys is one problem, not a thousand lines)."""
    if len(warnings) <= limit:
        return warnings
    return warnings[:limit] + [f"... and {len(warnings) - limit} more problems in the settings file."]


def _set_aside(path: Path, problem: str) -> str:
    """Keep a copy of an unreadable settings file beside it, so saving does not destroy it."""
    backup = path.with_name(path.name + ".bad")
    try:
        os.replace(path, backup)
        kept = f" A copy was kept as {backup.name}."
    except OSError:
        kept = ""
    message = f"The settings file {path} {problem}; using the defaults.{kept}"
    log.warning("%s", message)
    return message


def _as_stored(settings: Settings) -> dict[str, Any]:
    """The settings as the file holds them: the dictation lists only as far as the engine uses
    them (what it would leave out is not kept), so the file stays far below MAX_SETTINGS_BYTES
    and is never set aside whole for its size."""
    stored = dataclasses.asdict(settings)
    stored["dictation_vocabulary"] = list(vocab.bound(settings.dictation_vocabulary)[0])
    stored["dictation_replacements"] = [list(rule) for rule in settings.dictation_replacements[: dictation.MAX_RULES]]
    return stored


def save_settings(settings: Settings, path: Path | None = None) -> None:
    """Write atomically: a temporary file in the same folder, flushed, then renamed over."""
    path = path or config_dir() / SETTINGS_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(temporary, "w", encoding="utf-8") as out:
            json.dump(_as_stored(settings), out, indent=2, ensure_ascii=False)
            out.write("\n")
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
