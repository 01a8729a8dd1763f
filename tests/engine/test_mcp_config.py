"""``mcp.json``: the formats other apps write, hostile files and entries, and edits that keep
what Parley does not know."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from parley.engine.errors import ToolConfigError
from parley.engine.tools.mcp import config
from parley.engine.tools.mcp.config import HttpServer, McpConfig, StdioServer


def write(path: Path, document: object) -> Path:
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def one_line(message: str) -> bool:
    return "\n" not in message and "\r" not in message and 0 < len(message) < 400


def test_a_missing_file_means_no_servers(tmp_path: Path) -> None:
    assert config.load(tmp_path / "mcp.json") == McpConfig()
    assert config.load(tmp_path / "no-such-folder" / "mcp.json") == McpConfig()


def test_the_config_file_is_in_the_config_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARLEY_CONFIG_DIR", str(tmp_path))
    assert config.config_path() == tmp_path / "mcp.json"
    write(tmp_path / "mcp.json", {"mcpServers": {"files": {"command": "mcp-files"}}})
    assert [s.name for s in config.load().servers] == ["files"]


def test_the_formats_of_other_apps_are_read(tmp_path: Path) -> None:
    document = {
        "mcpServers": {
            # Claude Desktop and LM Studio
            "filesystem": {
                "command": "npx",
                "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/Documents"],
                "env": {"DEBUG": "1"},
            },
            # Streamable HTTP with a token, as LM Studio and Cursor write it
            "notes": {"url": "https://notes.example.com/mcp", "headers": {"Authorization": "Bearer abc"}},
            # Claude Code and VS Code name the transport
            "weather": {"type": "http", "url": "http://127.0.0.1:8123/mcp"},
            "git": {"type": "stdio", "command": "uvx", "args": ["mcp-server-git"], "cwd": "/home/me/src"},
            # Cursor's and Parley's switch
            "paused": {"command": "mcp-paused", "disabled": True},
        },
        "someOtherAppSetting": {"theme": "dark"},
    }
    loaded = config.load(write(tmp_path / "mcp.json", document))
    assert loaded.problems == ()
    assert [s.name for s in loaded.servers] == ["filesystem", "notes", "weather", "git", "paused"]
    fs = loaded.get("filesystem")
    assert isinstance(fs, StdioServer)
    assert fs.command == "npx" and fs.args[-1] == "/home/me/Documents" and dict(fs.env) == {"DEBUG": "1"}
    assert fs.transport == "stdio" and fs.describe().startswith("npx -y @modelcontextprotocol/server-filesystem")
    notes = loaded.get("notes")
    assert isinstance(notes, HttpServer) and dict(notes.headers) == {"Authorization": "Bearer abc"}
    assert notes.transport == "http"
    assert isinstance(loaded.get("weather"), HttpServer)
    git = loaded.get("git")
    assert isinstance(git, StdioServer) and git.cwd == "/home/me/src"
    assert [s.name for s in loaded.enabled()] == ["filesystem", "notes", "weather", "git"]
    assert loaded.get("paused") is not None and loaded.get("nothing") is None


def test_an_address_is_shown_without_its_secrets() -> None:
    server = HttpServer("notes", "https://user:secret@notes.example.com:8443/mcp?token=abc#x")
    assert server.describe() == "https://notes.example.com:8443/mcp"


BAD_ENTRIES = {
    "not-an-object": ["npx"],
    "both": {"command": "a", "url": "http://x/mcp"},
    "neither": {"args": ["x"]},
    "args-not-a-list": {"command": "a", "args": "one two"},
    "args-numbers": {"command": "a", "args": ["--port", 8080]},
    "env-number": {"command": "a", "env": {"PORT": 8080}},
    "env-bad-name": {"command": "a", "env": {"A=B": "c"}},
    "empty-command": {"command": "  "},
    "nul-command": {"command": "a\u0000b"},
    "ftp": {"url": "ftp://files.example.com/mcp"},
    "file-url": {"url": "file:///etc/passwd"},
    "no-host": {"url": "http:///mcp"},
    "bad-port": {"url": "http://example.com:99999/mcp"},
    "space-url": {"url": "http://example.com/a b"},
    "header-newline": {"url": "http://example.com/mcp", "headers": {"X-Token": "a\r\nInjected: 1"}},
    "header-bad-name": {"url": "http://example.com/mcp", "headers": {"Bad Header": "x"}},
    "disabled-yes": {"command": "a", "disabled": "yes"},
    "sse": {"type": "sse", "url": "http://example.com/sse"},
    "odd-type": {"type": "websocket", "url": "ws://example.com"},
    "stdio-with-url": {"type": "stdio", "url": "http://example.com/mcp"},
    "long-arg": {"command": "a", "args": ["x" * (config.MAX_TEXT_CHARS + 1)]},
    "many-args": {"command": "a", "args": ["x"] * (config.MAX_ARGS + 1)},
    "many-env": {"command": "a", "env": {f"V{i}": "x" for i in range(config.MAX_ENV + 1)}},
    "many-headers": {"url": "http://e.com/mcp", "headers": {f"X-{i}": "x" for i in range(config.MAX_HEADERS + 1)}},
    "long-url": {"url": "http://example.com/" + "a" * config.MAX_URL_CHARS},
}
BAD_NAMES = ["", "a/b", "..\\up", "tab\there", "new\nline", "x" * 65, " lead", "trail ", "..", "bell\u0007"]


def test_a_bad_entry_is_reported_and_the_good_ones_are_used(tmp_path: Path) -> None:
    servers: dict[str, object] = {"good": {"command": "mcp-good"}}
    servers |= BAD_ENTRIES
    servers |= {name: {"command": "mcp-named-badly"} for name in BAD_NAMES[:4]}
    servers["also-good"] = {"url": "https://example.com/mcp"}
    loaded = config.load(write(tmp_path / "mcp.json", {"mcpServers": servers}))
    assert [s.name for s in loaded.servers] == ["good", "also-good"]
    assert len(loaded.problems) == len(BAD_ENTRIES) + 4
    for problem in loaded.problems:
        assert one_line(problem), problem
        assert problem.startswith("mcp.json")
    text = "\n".join(loaded.problems)
    assert "'not-an-object': its entry must be an object, not a list" in text
    assert '\'both\': it has both a "command" and a "url"' in text
    assert "'args-numbers': \"args[1]\" must be text, not a number" in text
    assert "'ftp': \"url\" must start with http:// or https://" in text
    assert "'header-newline': \"headers.X-Token\" holds a line break" in text
    assert "'sse': it uses the SSE transport, which Parley does not support" in text
    assert "'many-args': \"args\" has 257 items, more than 256" in text


@pytest.mark.parametrize("name", BAD_NAMES)
def test_a_server_name_must_be_printable_short_and_no_path(tmp_path: Path, name: str) -> None:
    loaded = config.load(write(tmp_path / "mcp.json", {"mcpServers": {name: {"command": "x"}, "ok": {"command": "y"}}}))
    assert [s.name for s in loaded.servers] == ["ok"]
    (problem,) = loaded.problems
    assert one_line(problem) and "cannot be used" in problem
    assert config.server_name_problem(name)


def test_good_names_are_kept() -> None:
    for name in ("pantry", "Office HTTP", "météo", "a", "x" * 64, "my.server-2_b", "日本語"):
        assert config.server_name_problem(name) == "", name


def test_ten_thousand_servers_cost_little(tmp_path: Path) -> None:
    servers = {f"s{i}": {"command": "x"} for i in range(10_000)}
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"mcpServers": servers}, separators=(",", ":")), encoding="utf-8")
    assert path.stat().st_size <= config.MAX_FILE_BYTES
    start = time.monotonic()
    loaded = config.load(path)
    assert time.monotonic() - start < 2
    assert len(loaded.servers) == config.MAX_SERVERS
    assert loaded.problems == ("mcp.json lists 10,000 servers; only the first 32 are used",)


WHOLE_FILE_PROBLEMS = {
    "not-json": (b"{mcpServers: {}}", "not valid JSON"),
    "a-list": (b"[]", 'expected a JSON object with "mcpServers", found a list'),
    "servers-a-list": (b'{"mcpServers": []}', '"mcpServers" must be an object of servers, not a list'),
    "deep": (b'{"mcpServers": {"a": {"env": ' + b"[" * 5000 + b"]" * 5000 + b"}}}", "nested more than"),
    "huge": (b'{"mcpServers": {}, "pad": "' + b"x" * (config.MAX_FILE_BYTES + 1) + b'"}', "more than the 262144"),
    "long-integer": (b'{"mcpServers": {}, "n": ' + b"9" * 5000 + b"}", "not valid JSON"),
    "not-utf8": (b'{"mcpServers": {"\xff": {}}}', "not UTF-8"),
    "nan": (b'{"mcpServers": {}, "n": NaN}', "not valid JSON"),
}


@pytest.mark.parametrize("case", sorted(WHOLE_FILE_PROBLEMS))
def test_a_file_that_cannot_be_read_raises_one_line(tmp_path: Path, case: str) -> None:
    content, expected = WHOLE_FILE_PROBLEMS[case]
    path = tmp_path / "mcp.json"
    path.write_bytes(content)
    start = time.monotonic()
    with pytest.raises(ToolConfigError) as raised:
        config.load(path)
    assert time.monotonic() - start < 2
    message = str(raised.value)
    assert one_line(message), message
    assert expected in message and ("mcp.json" in message), message


def test_a_fifo_a_folder_and_a_link_loop_are_refused_at_once(tmp_path: Path) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this platform")
    fifo = tmp_path / "fifo" / "mcp.json"
    fifo.parent.mkdir()
    os.mkfifo(fifo)  # nobody writes: a plain open() would wait forever
    folder = tmp_path / "folder" / "mcp.json"
    folder.mkdir(parents=True)
    loop = tmp_path / "loop" / "mcp.json"
    loop.parent.mkdir()
    loop.symlink_to(loop)
    for path, expected in ((fifo, "a FIFO"), (folder, "a folder"), (loop, "symbolic links")):
        start = time.monotonic()
        with pytest.raises(ToolConfigError) as raised:
            config.load(path)
        assert time.monotonic() - start < 2
        assert expected in str(raised.value) and one_line(str(raised.value))


# --------------------------------------------------------------------------- edits

WITH_UNKNOWN_KEYS = {
    "$schema": "https://example.com/mcp.schema.json",
    "mcpServers": {
        "pantry": {
            "command": "mcp-pantry",
            "args": ["--db", "pantry.db"],
            "alwaysAllow": ["check_stock"],
            "timeout": 60,
        },
        "broken": {"command": 42, "comment": "kept as it is"},
        "office": {"url": "http://127.0.0.1:8123/mcp", "disabled": True, "autoApprove": []},
    },
    "inputs": [{"id": "token", "type": "promptString"}],
}


def test_edits_keep_what_parley_does_not_know(tmp_path: Path) -> None:
    path = write(tmp_path / "mcp.json", WITH_UNKNOWN_KEYS)

    loaded = config.set_disabled("pantry", True, path)
    assert loaded.get("pantry") is not None and loaded.get("pantry").disabled  # type: ignore[union-attr]
    document = json.loads(path.read_text(encoding="utf-8"))
    expected = json.loads(json.dumps(WITH_UNKNOWN_KEYS))
    expected["mcpServers"]["pantry"]["disabled"] = True
    assert document == expected

    config.set_disabled("office", False, path)
    config.set_disabled("pantry", False, path)
    document = json.loads(path.read_text(encoding="utf-8"))
    del expected["mcpServers"]["office"]["disabled"]
    del expected["mcpServers"]["pantry"]["disabled"]
    assert document == expected

    added = config.add_server(HttpServer("notes", "https://notes.example.com/mcp", {"Authorization": "Bearer t"}), path)
    assert [s.name for s in added.servers] == ["pantry", "office", "notes"]
    assert added.problems and "broken" in added.problems[0]  # still reported, still kept in the file
    config.add_server(StdioServer("files", "mcp-files", ("--root", "/tmp"), {"A": "1"}, disabled=True), path)
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["mcpServers"]["notes"] == {
        "url": "https://notes.example.com/mcp",
        "headers": {"Authorization": "Bearer t"},
    }
    assert document["mcpServers"]["files"] == {
        "command": "mcp-files",
        "args": ["--root", "/tmp"],
        "env": {"A": "1"},
        "disabled": True,
    }
    assert list(document["mcpServers"]) == ["pantry", "broken", "office", "notes", "files"]

    removed = config.remove_server("broken", path)
    assert removed.problems == ()
    document = json.loads(path.read_text(encoding="utf-8"))
    assert "broken" not in document["mcpServers"]
    assert document["$schema"] == WITH_UNKNOWN_KEYS["$schema"] and document["inputs"] == WITH_UNKNOWN_KEYS["inputs"]
    assert document["mcpServers"]["pantry"]["alwaysAllow"] == ["check_stock"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mcp.json"]  # no temporary file left


def test_an_edit_creates_the_file_and_its_folder(tmp_path: Path) -> None:
    path = tmp_path / "new" / "config" / "mcp.json"
    loaded = config.add_server(StdioServer("pantry", "mcp-pantry"), path)
    assert [s.name for s in loaded.servers] == ["pantry"]
    assert json.loads(path.read_text(encoding="utf-8")) == {"mcpServers": {"pantry": {"command": "mcp-pantry"}}}


def test_edits_refuse_what_they_cannot_do(tmp_path: Path) -> None:
    path = write(tmp_path / "mcp.json", {"mcpServers": {"pantry": {"command": "a"}}})
    before = path.read_bytes()
    cases = [
        (lambda: config.set_disabled("nothing", True, path), "has no server named 'nothing'"),
        (lambda: config.remove_server("nothing", path), "has no server named 'nothing'"),
        (lambda: config.add_server(StdioServer("pantry", "b"), path), "already has a server named 'pantry'"),
        (lambda: config.add_server(StdioServer("a/b", "b"), path), "cannot be named 'a/b'"),
        (lambda: config.add_server(HttpServer("ftp", "ftp://example.com"), path), "must start with http://"),
        (lambda: config.add_server(StdioServer("nul", "a\0b"), path), "holds a NUL character"),
    ]
    for edit, expected in cases:
        with pytest.raises(ToolConfigError) as raised:
            edit()
        assert expected in str(raised.value) and one_line(str(raised.value))
    assert path.read_bytes() == before


def test_an_edit_never_overwrites_a_file_it_cannot_read(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text('{"mcpServers": {"pantry": {"command": "a"}},,}', encoding="utf-8")
    before = path.read_bytes()
    for edit in (
        lambda: config.set_disabled("pantry", True, path),
        lambda: config.add_server(StdioServer("b", "b"), path),
        lambda: config.remove_server("pantry", path),
    ):
        with pytest.raises(ToolConfigError, match="not valid JSON"):
            edit()
    assert path.read_bytes() == before
    write(path, {"mcpServers": ["pantry"]})
    with pytest.raises(ToolConfigError, match="must be an object of servers"):
        config.add_server(StdioServer("b", "b"), path)


def test_no_more_than_the_most_servers_are_added(tmp_path: Path) -> None:
    servers = {f"s{i}": {"command": "x"} for i in range(config.MAX_SERVERS)}
    path = write(tmp_path / "mcp.json", {"mcpServers": servers})
    with pytest.raises(ToolConfigError, match="already lists 32 servers"):
        config.add_server(StdioServer("one-more", "x"), path)
