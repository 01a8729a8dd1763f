"""``mcp.json``: the MCP servers the user gave Parley, in the format other apps use.

The file holds ``{"mcpServers": {NAME: ENTRY, ...}}`` as LM Studio, Cursor and Claude Desktop
write it, so that a user can copy their servers over.  An entry is a program started on this
computer (``{"command": "...", "args": [...], "env": {...}}``, spoken to on its stdin and
stdout) or a Streamable HTTP endpoint (``{"url": "https://...", "headers": {...}}``); Parley
adds ``"disabled": true`` (the key Cursor uses too) for a server kept but not started.

The file is untrusted input (another program, a copy from the web): it is read bounded
(``MAX_FILE_BYTES``, ``MAX_DEPTH``, a regular file only), and every count and string is bounded.
What makes the whole file unusable (not JSON, too large, a FIFO, not the ``mcpServers`` shape)
raises ``ToolConfigError`` with a one-line message; a bad entry is one line in
``McpConfig.problems`` and the good entries are used.  A missing file means no servers.

The edits (``add_server``, ``remove_server``, ``set_disabled``) read the file again, change
that one entry and replace the file atomically, keeping every key Parley does not know (at the
top, in ``mcpServers`` and in each entry); a file that cannot be read as a whole is never
overwritten.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shlex
import urllib.parse
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Union

from parley.config.paths import config_dir

from ...atomic import atomic_write
from ...errors import ToolConfigError, UntrustedFileError
from ...untrusted import parse_json, read_bytes

CONFIG_FILE = "mcp.json"
SERVERS_KEY = "mcpServers"
MAX_FILE_BYTES = 256 << 10  # a few servers take a kilobyte
MAX_DEPTH = 16  # the format nests 4 deep (mcpServers, a server, env)
MAX_SERVERS = 32
MAX_ARGS = 256
MAX_ENV = 256
MAX_HEADERS = 64
MAX_NAME_CHARS = 64
MAX_TEXT_CHARS = 4096  # a command, an argument, a variable's or a header's value
MAX_KEY_CHARS = 256  # a variable's or a header's name
MAX_URL_CHARS = 2048
MAX_SHOWN_CHARS = 40  # of a bad name quoted in a message

HTTP_TYPES = ("http", "streamable-http", "streamable_http", "streamableHttp")
STDIO_TYPES = ("stdio",)
HEADER_NAME = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$")
_FORBIDDEN_NAME_CHARS = ("/", "\\")


@dataclasses.dataclass(frozen=True)
class StdioServer:
    """A server Parley starts as a program and speaks to on its stdin and stdout."""

    name: str
    command: str
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = dataclasses.field(default_factory=dict, hash=False)  # over the user's environment
    cwd: str | None = None
    disabled: bool = False

    @property
    def transport(self) -> str:
        return "stdio"

    def describe(self) -> str:
        """The command line, for people and messages (cut to 200 characters)."""
        line = shlex.join([self.command, *self.args])
        return line if len(line) <= 200 else line[:199] + "…"

    def entry(self) -> dict[str, Any]:
        """The server as ``mcp.json`` holds it."""
        entry: dict[str, Any] = {"command": self.command}
        if self.args:
            entry["args"] = list(self.args)
        if self.env:
            entry["env"] = dict(self.env)
        if self.cwd is not None:
            entry["cwd"] = self.cwd
        if self.disabled:
            entry["disabled"] = True
        return entry


@dataclasses.dataclass(frozen=True)
class HttpServer:
    """A server Parley reaches over Streamable HTTP."""

    name: str
    url: str
    headers: Mapping[str, str] = dataclasses.field(default_factory=dict, hash=False)  # e.g. Authorization
    disabled: bool = False

    @property
    def transport(self) -> str:
        return "http"

    def describe(self) -> str:
        """The address without its query or user info (either may hold a token)."""
        parts = urllib.parse.urlsplit(self.url)
        host = parts.hostname or ""
        if ":" in host:
            host = f"[{host}]"
        port = f":{parts.port}" if parts.port else ""
        return f"{parts.scheme}://{host}{port}{parts.path}"

    def entry(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"url": self.url}
        if self.headers:
            entry["headers"] = dict(self.headers)
        if self.disabled:
            entry["disabled"] = True
        return entry


ServerConfig = Union[StdioServer, HttpServer]  # noqa: UP007  (a runtime alias on Python 3.10)


@dataclasses.dataclass(frozen=True)
class McpConfig:
    """The servers of ``mcp.json`` in its order, and one line per entry that cannot be used."""

    servers: tuple[ServerConfig, ...] = ()
    problems: tuple[str, ...] = ()

    def enabled(self) -> tuple[ServerConfig, ...]:
        return tuple(server for server in self.servers if not server.disabled)

    def get(self, name: str) -> ServerConfig | None:
        return next((server for server in self.servers if server.name == name), None)


def config_path() -> Path:
    return config_dir() / CONFIG_FILE


def load(path: str | Path | None = None) -> McpConfig:
    """The servers of ``mcp.json`` (``path``, or the one in the config folder); no servers when
    the file does not exist.  ToolConfigError when the file cannot be used as a whole."""
    path = Path(path) if path is not None else config_path()
    document = _read(path)
    return parse(document, what=path.name) if document is not None else McpConfig()


def parse(document: Any, what: str = CONFIG_FILE) -> McpConfig:
    """The servers of an ``mcp.json`` document already parsed from JSON."""
    servers_doc = _servers_of(document, what)
    servers: list[ServerConfig] = []
    problems: list[str] = []
    names = list(servers_doc)
    if len(names) > MAX_SERVERS:
        problems.append(f"{what} lists {len(names):,} servers; only the first {MAX_SERVERS} are used")
        names = names[:MAX_SERVERS]
    for name in names:
        problem = server_name_problem(name)
        if problem:
            problems.append(f"{what}: a server's name {_shown(name)} cannot be used: {problem}")
            continue
        try:
            servers.append(server_of(name, servers_doc[name]))
        except ValueError as exc:
            problems.append(f"{what}: server {_shown(name)}: {exc}")
    return McpConfig(tuple(servers), tuple(problems))


def server_name_problem(name: object) -> str:
    """Why ``name`` cannot name a server ("" when it can): 1 to 64 printable characters, no path
    separators, no spaces at either end."""
    if not isinstance(name, str):
        return "not text"
    if not name or len(name) > MAX_NAME_CHARS:
        return f"it must be 1 to {MAX_NAME_CHARS} characters"
    if not name.isprintable():
        return "it holds a control or invisible character"
    if any(c in name for c in _FORBIDDEN_NAME_CHARS):
        return "it holds a path separator (/ or \\)"
    if name != name.strip():
        return "it starts or ends with a space"
    if name in (".", ".."):
        return "it is . or .."
    return ""


def server_of(name: str, entry: Any) -> ServerConfig:
    """One entry of ``mcpServers`` as a server; ValueError with the reason when it cannot be used."""
    if not isinstance(entry, dict):
        raise ValueError(f"its entry must be an object, not {_json_type(entry)}")
    disabled = entry.get("disabled", False)
    if not isinstance(disabled, bool):
        raise ValueError('"disabled" must be true or false')
    kind = entry.get("type")
    if kind is not None and not isinstance(kind, str):
        raise ValueError('"type" must be text')
    if kind == "sse":
        raise ValueError("it uses the SSE transport, which Parley does not support (stdio and Streamable HTTP only)")
    if kind is not None and kind not in HTTP_TYPES + STDIO_TYPES:
        raise ValueError(f'"type" {_shown(kind)} is not one Parley knows (stdio or http)')
    has_command, has_url = "command" in entry, "url" in entry
    if has_command and has_url:
        raise ValueError('it has both a "command" and a "url"; keep one')
    if has_url or kind in HTTP_TYPES:
        if kind in STDIO_TYPES:
            raise ValueError('"type" is stdio but it has a "url"')
        return HttpServer(
            name, _url(entry.get("url")), _text_map(entry.get("headers"), "headers", MAX_HEADERS, _header), disabled
        )
    if not has_command:
        raise ValueError('it has neither a "command" (a program to start) nor a "url"')
    command = _text(entry["command"], "command")
    if not command.strip():
        raise ValueError('"command" is empty')
    cwd = entry.get("cwd")
    return StdioServer(
        name,
        command,
        _args(entry.get("args")),
        _text_map(entry.get("env"), "env", MAX_ENV, _variable),
        None if cwd is None else _text(cwd, "cwd"),
        disabled,
    )


# --------------------------------------------------------------------------- edits


def set_disabled(name: str, disabled: bool, path: str | Path | None = None) -> McpConfig:
    """Turn server ``name`` off (``"disabled": true``) or on (the key removed); the file as it
    is now.  ToolConfigError when the file cannot be read or has no such server."""
    path = Path(path) if path is not None else config_path()
    document = _read_for_edit(path)
    servers = document.setdefault(SERVERS_KEY, {})
    entry = servers.get(name)
    if not isinstance(entry, dict):
        raise ToolConfigError(f"{path.name} has no server named {_shown(name)}")
    if disabled:
        entry["disabled"] = True
    else:
        entry.pop("disabled", None)
    _write(path, document)
    return parse(document, what=path.name)


def add_server(server: ServerConfig, path: str | Path | None = None) -> McpConfig:
    """Add ``server`` at the end; ToolConfigError when its name is taken or unusable, the file
    holds ``MAX_SERVERS`` already, or cannot be read."""
    path = Path(path) if path is not None else config_path()
    problem = server_name_problem(server.name)
    if problem:
        raise ToolConfigError(f"a server cannot be named {_shown(server.name)}: {problem}")
    entry = server.entry()
    try:
        server_of(server.name, entry)
    except ValueError as exc:
        raise ToolConfigError(f"server {_shown(server.name)}: {exc}") from None
    document = _read_for_edit(path)
    servers = document.setdefault(SERVERS_KEY, {})
    if server.name in servers:
        raise ToolConfigError(f"{path.name} already has a server named {_shown(server.name)}")
    if len(servers) >= MAX_SERVERS:
        raise ToolConfigError(f"{path.name} already lists {len(servers)} servers, the most Parley uses")
    servers[server.name] = entry
    _write(path, document)
    return parse(document, what=path.name)


def remove_server(name: str, path: str | Path | None = None) -> McpConfig:
    """Remove server ``name``; ToolConfigError when there is none or the file cannot be read."""
    path = Path(path) if path is not None else config_path()
    document = _read_for_edit(path)
    servers = document.get(SERVERS_KEY, {})
    if name not in servers:
        raise ToolConfigError(f"{path.name} has no server named {_shown(name)}")
    del servers[name]
    _write(path, document)
    return parse(document, what=path.name)


# --------------------------------------------------------------------------- reading and writing


def _read(path: Path) -> Any:
    """The parsed document, or None when there is no file."""
    try:
        os.stat(path)
    except FileNotFoundError:
        return None
    except OSError:
        pass  # a loop of links, no permission: read_bytes says which
    try:
        return parse_json(read_bytes(path, MAX_FILE_BYTES), what=str(path), max_depth=MAX_DEPTH)
    except UntrustedFileError as exc:
        raise ToolConfigError(str(exc)) from None


def _read_for_edit(path: Path) -> dict[str, Any]:
    document = _read(path)
    if document is None:
        return {SERVERS_KEY: {}}
    _servers_of(document, path.name)  # the whole-file checks: never overwrite what cannot be read
    assert isinstance(document, dict)
    return document


def _write(path: Path, document: dict[str, Any]) -> None:
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_write(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as exc:
        raise ToolConfigError(f"cannot save {path}: {exc.strerror or exc}") from None


def _servers_of(document: Any, what: str) -> dict[str, Any]:
    if not isinstance(document, dict):
        raise ToolConfigError(f'{what}: expected a JSON object with "{SERVERS_KEY}", found {_json_type(document)}')
    servers = document.get(SERVERS_KEY, {})
    if not isinstance(servers, dict):
        raise ToolConfigError(f'{what}: "{SERVERS_KEY}" must be an object of servers, not {_json_type(servers)}')
    return servers


# --------------------------------------------------------------------------- values


def _text(value: Any, what: str, max_chars: int = MAX_TEXT_CHARS) -> str:
    if not isinstance(value, str):
        raise ValueError(f'"{what}" must be text, not {_json_type(value)}')
    if len(value) > max_chars:
        raise ValueError(f'"{what}" is {len(value):,} characters long, more than {max_chars:,}')
    if "\0" in value:
        raise ValueError(f'"{what}" holds a NUL character')
    return value


def _args(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise ValueError(f'"args" must be a list of text, not {_json_type(value)}')
    if len(value) > MAX_ARGS:
        raise ValueError(f'"args" has {len(value):,} items, more than {MAX_ARGS}')
    return tuple(_text(arg, f"args[{i}]") for i, arg in enumerate(value))


def _variable(key: str, value: Any) -> str:
    if not key or len(key) > MAX_KEY_CHARS or "=" in key or not key.isprintable():
        raise ValueError(f'"env" has a variable name that cannot be used: {_shown(key)}')
    return _text(value, f"env.{key[:40]}")


def _header(key: str, value: Any) -> str:
    if not HEADER_NAME.match(key):
        raise ValueError(f'"headers" has a name that cannot be used: {_shown(key)}')
    text = _text(value, f"headers.{key}")
    if any(c in text for c in "\r\n"):
        raise ValueError(f'"headers.{key}" holds a line break')
    return text


def _text_map(value: Any, what: str, max_items: int, check: Any) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValueError(f'"{what}" must be an object of text values, not {_json_type(value)}')
    if len(value) > max_items:
        raise ValueError(f'"{what}" has {len(value):,} entries, more than {max_items}')
    return {key: check(key, item) for key, item in value.items()}


def _url(value: Any) -> str:
    url = _text(value, "url", MAX_URL_CHARS)
    if not url.isprintable() or any(c.isspace() for c in url):
        raise ValueError('"url" holds a space or a control character')
    try:
        parts = urllib.parse.urlsplit(url)
        parts.port  # noqa: B018  (raises ValueError for a port that is not a number or out of range)
    except ValueError as exc:
        raise ValueError(f'"url" cannot be read: {exc}') from None
    if parts.scheme.lower() not in ("http", "https"):
        scheme = f"{parts.scheme}:" if parts.scheme else "no scheme"
        raise ValueError(f'"url" must start with http:// or https:// ({_shown(scheme)} is not supported)')
    if not parts.hostname:
        raise ValueError('"url" has no host')
    return url


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= MAX_SHOWN_CHARS else text[: MAX_SHOWN_CHARS - 1] + "…"
