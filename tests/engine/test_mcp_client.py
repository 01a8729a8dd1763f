"""``McpHub`` on real MCP servers (``tests.support.mcp_servers``): the pantry over stdio, the
office over Streamable HTTP, and every hostile behaviour the issue names, each with what it
gets, in bounded time, with no process left behind."""

from __future__ import annotations

import http.server
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator

import mcp_types
import pytest

from parley.engine.errors import Cancelled
from parley.engine.tools.mcp.client import Limits, McpHub, ServerState, ServerStatus, result_of
from parley.engine.tools.mcp.config import HttpServer, ServerConfig, StdioServer
from parley.engine.tools.tool import (
    MAX_DESCRIPTION_CHARS,
    MAX_RESULT_CHARS,
    MAX_SCHEMA_BYTES,
    NAME,
    CheckedCall,
    Toolbox,
    ToolResult,
)
from tests.support.mcp_servers import (
    INJECTION,
    PROC,
    Office,
    group_members,
    pantry_config,
    shopping_lines,
    stock_line,
)

# Generous where a server works (a slow machine costs nothing then), short where it hangs.
EASY = Limits(connect_timeout=30, list_timeout=30, call_timeout=30, stop_grace=0.5)
SHORT = Limits(connect_timeout=1.5, list_timeout=1.5, call_timeout=1.0, stop_grace=0.5)
SLACK = 3.0  # seconds a failure may take beyond its timeout (stopping the server, a loaded CPU)


class Flag:
    """A cancel flag a test sets (``backend.cancel.CancelFlag``)."""

    def __init__(self) -> None:
        self.cancelled = False


def wait_until(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} within {timeout} s")
        time.sleep(0.02)


def assert_group_gone(status: ServerStatus | None) -> None:
    assert status is not None and status.pid is not None, status
    pid = status.pid
    wait_until(lambda: not group_members(pid), 5, f"{status.name}'s process group {pid} gone")


@pytest.fixture
def hubs() -> Iterator[Callable[..., McpHub]]:
    """Hubs started for a test, all closed at its end."""
    made: list[McpHub] = []

    def make(servers: list[ServerConfig], limits: Limits = EASY, **kwargs: object) -> McpHub:
        hub = McpHub(servers, limits=limits, **kwargs)  # type: ignore[arg-type]
        made.append(hub)
        hub.start()
        return hub

    yield make
    for hub in made:
        hub.close()


def ready(hub: McpHub, timeout: float = 60) -> McpHub:
    assert hub.wait_ready(timeout), hub.statuses()
    return hub


# --------------------------------------------------------------------------- the good servers


def test_the_pantry_over_stdio(hubs: Callable[..., McpHub]) -> None:
    hub = ready(hubs([pantry_config()]))
    (status,) = hub.statuses()
    assert (status.name, status.transport, status.state, status.tools) == ("pantry", "stdio", ServerState.READY, 3)
    assert status.describe() == "pantry: ready with 3 tools" and status.problems == ()
    tools = {tool.spec.name: tool for tool in hub.tools()}
    assert set(tools) == {"check_stock", "add_to_shopping_list", "list_shopping"}
    assert tools["check_stock"].spec.read_only and tools["list_shopping"].spec.read_only
    assert not tools["add_to_shopping_list"].spec.read_only
    assert tools["check_stock"].spec.source == "pantry" and tools["check_stock"].spec.title == "Check the pantry"
    assert tools["add_to_shopping_list"].spec.parameters["required"] == ["item"]
    assert tools["add_to_shopping_list"].describe({"item": "flour", "quantity": 2}) == (
        "use Add to the shopping list of pantry (item: flour, quantity: 2)"
    )

    flag = Flag()
    result = tools["check_stock"].run({"item": "Eggs"}, flag)
    assert (result.text, result.is_error) == (stock_line("eggs"), False)
    assert result.summary == "Check the pantry (pantry)"
    assert hub.call("check_stock", {"item": "flour"}, flag).text == "flour: none left (0 kg)."

    # Through the toolbox, as a reply runs a model's call: checked against the schema first.
    toolbox = Toolbox(hub.tools())
    call = toolbox.check("add_to_shopping_list", '{"item": "flour", "quantity": 2}')
    assert isinstance(call, CheckedCall), call
    assert toolbox.run(call, flag).text.startswith("Added 2 x flour to the shopping list.")
    refused = toolbox.check("add_to_shopping_list", '{"quantity": "lots"}')
    assert isinstance(refused, ToolResult) and refused.is_error
    assert hub.call("list_shopping", {}, flag).text == shopping_lines({"bread": 1, "tomatoes": 6, "flour": 2})

    hub.close()
    assert [s.state for s in hub.statuses()] == [ServerState.OFF]
    assert_group_gone(status)
    assert hub.call("check_stock", {"item": "eggs"}, flag).is_error


def test_the_office_over_streamable_http(hubs: Callable[..., McpHub]) -> None:
    with Office() as office:
        hub = ready(hubs([office.config()]))
        (status,) = hub.statuses()
        assert (status.transport, status.state, status.tools, status.pid) == ("http", ServerState.READY, 3, None)
        tools = {tool.spec.name: tool.spec for tool in hub.tools()}
        assert {name: spec.read_only for name, spec in tools.items()} == {
            "find_colleague": True,
            "room_availability": True,
            "book_room": False,
        }
        flag = Flag()
        found = hub.call("find_colleague", {"name": "hopper"}, flag)
        assert found.text == "Grace Hopper: Compilers, desk 3.02, phone extension 3020, grace@example.com"
        assert hub.call("room_availability", {"room": "lyra"}, flag).text == (
            "Lyra (4 seats) is booked 10:30-11:00; free otherwise between 08:00 and 18:00."
        )
        assert (
            hub.call("book_room", {"room": "Lyra", "time": "10:45"}, flag).text
            == "Lyra is taken 10:30-11:00; not booked."
        )
        assert hub.call("book_room", {"room": "Lyra", "time": "15:00", "minutes": 45}, flag).text == (
            "Booked Lyra today 15:00-15:45."
        )
        assert "15:00-15:45" in hub.call("room_availability", {"room": "Lyra"}, flag).text


def test_names_stay_unique_and_valid(hubs: Callable[..., McpHub]) -> None:
    servers = [pantry_config(name="pantry"), pantry_config(name="the larder")]
    hub = ready(hubs(servers, reserved_names={"list_shopping"}))
    names = [(tool.spec.name, tool.server, tool.remote_name) for tool in hub.tools()]
    assert names == [
        ("check_stock", "pantry", "check_stock"),
        ("add_to_shopping_list", "pantry", "add_to_shopping_list"),
        ("pantry_list_shopping", "pantry", "list_shopping"),  # a built-in tool has the name
        ("the_larder_check_stock", "the larder", "check_stock"),
        ("the_larder_add_to_shopping_list", "the larder", "add_to_shopping_list"),
        ("the_larder_list_shopping", "the larder", "list_shopping"),
    ]
    flag = Flag()
    hub.call("the_larder_add_to_shopping_list", {"item": "salt"}, flag)
    assert "salt" in hub.call("the_larder_list_shopping", {}, flag).text
    assert "salt" not in hub.call("pantry_list_shopping", {}, flag).text
    assert len(Toolbox(hub.tools())) == 6


def test_refresh_starts_stops_and_keeps(hubs: Callable[..., McpHub]) -> None:
    larder = pantry_config(name="larder")
    off = StdioServer(larder.name, larder.command, larder.args, larder.env, disabled=True)
    hub = ready(hubs([pantry_config(), off]))
    assert [s.describe() for s in hub.statuses()] == ["pantry: ready with 3 tools", "larder: off"]
    first = hub.status("pantry")
    assert first is not None and first.pid is not None

    hub.refresh([pantry_config(), larder])
    ready(hub)
    assert [s.state for s in hub.statuses()] == [ServerState.READY, ServerState.READY]
    assert hub.status("pantry") is not None and hub.status("pantry").pid == first.pid  # type: ignore[union-attr]
    larder_status = hub.status("larder")

    hub.refresh([pantry_config()])
    assert [s.name for s in hub.statuses()] == ["pantry"]
    assert_group_gone(larder_status)
    assert {tool.server for tool in hub.tools()} == {"pantry"}


def test_a_server_still_starting_is_stopped_at_once(hubs: Callable[..., McpHub]) -> None:
    hub = hubs([pantry_config("hang-init")])  # EASY: it would wait 30 s for the handshake
    wait_until(lambda: bool(hub.status("pantry").pid), 10, "started")  # type: ignore[union-attr]
    status = hub.status("pantry")
    assert status is not None and status.state is ServerState.STARTING
    start = time.monotonic()
    hub.refresh([])
    assert hub.statuses() == []
    assert_group_gone(status)
    assert time.monotonic() - start < 2 * EASY.stop_grace + SLACK


# --------------------------------------------------------------------------- servers that fail at their start


class SilentHttp:
    """A TCP server that takes connections and never answers."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/mcp"
        self.held: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.held.append(conn)

    def close(self) -> None:
        self.sock.close()
        for conn in self.held:
            conn.close()


class NotMcp(http.server.BaseHTTPRequestHandler):
    """A web server that answers every request with a web page."""

    def do_POST(self) -> None:  # noqa: N802  (http.server's name)
        body = b"<html><body>Welcome to my homepage</body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST  # noqa: N815

    def log_message(self, *_: object) -> None:
        pass


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# name: (its mcp.json entry, what its status must say, the timeout it waits out, if any)
FAILING: dict[str, tuple[Callable[[], ServerConfig], tuple[str, ...], float]] = {
    "ghost": (
        lambda: StdioServer("ghost", "parley-no-such-mcp-server", ("--x",)),
        ("cannot start parley-no-such-mcp-server --x: there is no program 'parley-no-such-mcp-server' on the PATH",),
        0,
    ),
    "missing-path": (
        lambda: StdioServer("missing-path", "/nonexistent/bin/mcp-server"),
        ("cannot start /nonexistent/bin/mcp-server: ",),
        0,
    ),
    "missing-cwd": (
        lambda: StdioServer("missing-cwd", sys.executable, ("-c", "pass"), cwd="/nonexistent/folder"),
        ("its folder (cwd) '/nonexistent/folder' does not exist",),
        0,
    ),
    "exits": (
        lambda: pantry_config("exit", "exits"),
        (
            "exits exited with code 3 (command: ",
            "-m tests.support.mcp_servers pantry --mode exit)",
            "its last words on stderr: pantry: cannot open /nonexistent/pantry.db: No such file or directory",
        ),
        0,
    ),
    "hangs-at-init": (
        lambda: pantry_config("hang-init", "hangs-at-init"),
        ("hangs-at-init did not answer the MCP handshake (initialize) within 1.5 s",),
        SHORT.connect_timeout,
    ),
    "hangs-at-list": (
        lambda: pantry_config("hang-list", "hangs-at-list"),
        ("hangs-at-list did not answer the request for its tools (tools/list) within 1.5 s",),
        SHORT.list_timeout,
    ),
    "floods-stdout": (
        lambda: pantry_config("flood-stdout", "floods-stdout"),
        ("floods-stdout sent a message larger than 4 MiB (or output without line ends); Parley stopped it",),
        0,
    ),
    "not-json": (
        lambda: pantry_config("non-json", "not-json"),
        (
            "not-json did not answer the MCP handshake (initialize) within 1.5 s",
            "it wrote a line that is not MCP (JSON-RPC) on stdout, such as",
            "'Hello! I am a pantry, and I do not speak JSON.'",
        ),
        SHORT.connect_timeout,
    ),
    "unreachable": (
        lambda: HttpServer("unreachable", f"http://127.0.0.1:{closed_port()}/mcp?token=secret"),
        ("cannot reach unreachable at http://127.0.0.1:", "/mcp: All connection attempts failed"),
        0,
    ),
    "silent-http": (
        lambda: HttpServer("silent-http", SILENT.url),
        ("silent-http did not answer the MCP handshake (initialize) within 1.5 s",),
        SHORT.connect_timeout,
    ),
    "web-page": (
        lambda: HttpServer("web-page", WEB_PAGE_URL),
        ("web-page answered the MCP handshake with an error: Unexpected content type: text/html",),
        0,
    ),
}
SILENT: SilentHttp
WEB_PAGE_URL = ""


@pytest.fixture(scope="module")
def failing() -> Iterator[tuple[McpHub, float]]:
    """One hub with every server that fails at its start, started together."""
    global SILENT, WEB_PAGE_URL
    SILENT = SilentHttp()
    web = http.server.ThreadingHTTPServer(("127.0.0.1", 0), NotMcp)
    threading.Thread(target=web.serve_forever, daemon=True).start()
    WEB_PAGE_URL = f"http://127.0.0.1:{web.server_address[1]}/mcp"
    hub = McpHub([make() for make, _, _ in FAILING.values()], limits=SHORT)
    start = time.monotonic()
    hub.start()
    try:
        assert hub.wait_ready(SHORT.connect_timeout + SHORT.list_timeout + 15), hub.statuses()
        yield hub, time.monotonic() - start
    finally:
        hub.close()
        SILENT.close()
        web.shutdown()
        web.server_close()


@pytest.mark.parametrize("name", sorted(FAILING))
def test_a_server_that_fails_at_its_start_says_why(failing: tuple[McpHub, float], name: str) -> None:
    hub, _ = failing
    status = hub.status(name)
    assert status is not None and status.state is ServerState.FAILED, status
    for expected in FAILING[name][1]:
        assert expected in status.message, status.message
    assert "\n" not in status.message and "secret" not in status.message
    assert status.describe() == f"{name}: failed: {status.message}"
    assert status.took <= FAILING[name][2] + SLACK, status
    assert hub.tools() == [] or all(tool.server != name for tool in hub.tools())
    call = hub.call_remote(name, "check_stock", {}, Flag())
    assert call.is_error and f"the MCP server {name!r} is not ready (failed: " in call.text
    if isinstance(FAILING[name][0](), StdioServer) and status.pid is not None:
        assert_group_gone(status)


def test_all_failures_together_took_no_longer_than_the_slowest(failing: tuple[McpHub, float]) -> None:
    _, took = failing
    assert took < SHORT.connect_timeout + SHORT.list_timeout + SLACK


# --------------------------------------------------------------------------- servers that break in their tools


def test_a_call_that_hangs_times_out_and_can_be_cancelled(hubs: Callable[..., McpHub]) -> None:
    hub = ready(hubs([pantry_config("hang-call")], SHORT))
    flag = Flag()
    start = time.monotonic()
    result = hub.call("check_stock", {"item": "eggs"}, flag)
    took = time.monotonic() - start
    assert result.is_error and result.text == "Error: pantry did not answer the call of check_stock within 1 s"
    assert SHORT.call_timeout <= took < SHORT.call_timeout + SLACK
    assert not hub.call("add_to_shopping_list", {"item": "milk"}, flag).is_error  # the server still works

    timer = threading.Timer(0.3, lambda: setattr(flag, "cancelled", True))
    start = time.monotonic()
    timer.start()
    with pytest.raises(Cancelled, match="the call of check_stock on pantry was cancelled"):
        hub.call("check_stock", {"item": "eggs"}, flag, timeout=60)
    assert time.monotonic() - start < 0.3 + 1.0
    assert hub.status("pantry").state is ServerState.READY  # type: ignore[union-attr]
    assert hub.call("list_shopping", {}, Flag()).text.startswith("Shopping list:")

    # Closing the hub ends a call still waiting, at once.
    results = []
    waiting = threading.Thread(target=lambda: results.append(hub.call("check_stock", {"item": "x"}, Flag(), 60)))
    waiting.start()
    wait_until(lambda: bool(hub._connections["pantry"]._calls), 5, "the call under way")
    start = time.monotonic()
    hub.close()
    waiting.join(10)
    assert time.monotonic() - start < 2 * SHORT.stop_grace + SLACK
    (result,) = results
    assert result.is_error and result.text.startswith("Error: pantry stopped during the call of check_stock")


def test_a_server_that_crashes_in_a_call(hubs: Callable[..., McpHub]) -> None:
    hub = ready(hubs([pantry_config("crash-call")]))
    start = time.monotonic()
    result = hub.call("add_to_shopping_list", {"item": "milk"}, Flag())
    assert time.monotonic() - start < SLACK
    assert result.is_error
    assert "pantry stopped during the call of add_to_shopping_list: pantry exited with code 7" in result.text
    assert "its last words on stderr: pantry: the shopping list database is corrupt, giving up" in result.text
    wait_until(lambda: hub.status("pantry").state is ServerState.FAILED, 5, "failed")  # type: ignore[union-attr]
    status = hub.status("pantry")
    assert status is not None and "exited with code 7" in status.message
    assert_group_gone(status)
    assert hub.tools() == []
    assert (
        "is not ready (failed: pantry exited with code 7" in hub.call_remote("pantry", "list_shopping", {}, Flag()).text
    )


def test_a_result_of_100_mb_over_stdio_stops_the_server(hubs: Callable[..., McpHub]) -> None:
    hub = ready(hubs([pantry_config("huge-result")]))
    start = time.monotonic()
    result = hub.call("list_shopping", {}, Flag())
    assert time.monotonic() - start < 10
    assert result.is_error and "pantry sent a message larger than 4 MiB" in result.text
    assert len(result.text) <= MAX_RESULT_CHARS
    wait_until(lambda: hub.status("pantry").state is ServerState.FAILED, 5, "failed")  # type: ignore[union-attr]
    assert_group_gone(hub.status("pantry"))


@pytest.mark.parametrize("json_response", [False, True], ids=["event-stream", "json"])
def test_a_result_of_100_mb_over_http_is_cut_off(hubs: Callable[..., McpHub], json_response: bool) -> None:
    with Office("huge-result", json_response=json_response) as office:
        hub = ready(hubs([office.config()]))
        start = time.monotonic()
        result = hub.call("room_availability", {"room": "Vega"}, Flag())
        assert time.monotonic() - start < 15
        assert result.is_error and result.text == (
            "Error: office could not answer room_availability: "
            "its answer was larger than 4 MiB; Parley stopped reading it"
        )
        assert hub.status("office").state is ServerState.READY  # type: ignore[union-attr]
        assert hub.call("find_colleague", {"name": "Ada"}, Flag()).text.startswith("Ada Lovelace: Engineering")


def test_a_call_that_hangs_over_http_times_out(hubs: Callable[..., McpHub]) -> None:
    with Office("hang-call") as office:
        hub = ready(hubs([office.config()], SHORT))
        start = time.monotonic()
        result = hub.call("find_colleague", {"name": "Ada"}, Flag())
        assert SHORT.call_timeout <= time.monotonic() - start < SHORT.call_timeout + SLACK
        assert result.text == "Error: office did not answer the call of find_colleague within 1 s"
        assert hub.call("room_availability", {"room": "Vega"}, Flag()).text.startswith("Vega (12 seats) is free")


def test_1000_tools_are_cut_to_64(hubs: Callable[..., McpHub]) -> None:
    hub = ready(hubs([pantry_config("many-tools")]))
    status = hub.status("pantry")
    assert status is not None and status.tools == 64
    assert status.problems == ("the server lists 1,000 tools; only the first 64 are offered (936 left out)",)
    assert [tool.spec.name for tool in hub.tools()] == [f"tool_{i:04d}" for i in range(64)]


def test_hostile_tools_are_left_out_one_by_one(hubs: Callable[..., McpHub]) -> None:
    hub = ready(hubs([pantry_config("hostile-tools", "hostile")]))
    tools = {tool.spec.name: tool for tool in hub.tools()}
    assert set(tools) == {"good_tool", "long_description", "hostile_dotted_name"}
    assert tools["good_tool"].spec.read_only and tools["good_tool"].spec.title == "Good"
    assert not tools["long_description"].spec.read_only  # no readOnlyHint: it acts
    assert tools["hostile_dotted_name"].remote_name == "dotted.name"
    for tool in tools.values():
        assert NAME.match(tool.spec.name)
        assert len(tool.spec.description) <= MAX_DESCRIPTION_CHARS
        assert len(str(tool.spec.parameters)) <= MAX_SCHEMA_BYTES
    assert len(Toolbox(tools.values())) == 3
    status = hub.status("hostile")
    assert status is not None
    problems = "\n".join(status.problems)
    for expected in (
        "tool 'string_schema' is not valid MCP: inputSchema.type: Input should be 'object'",
        "tool 'bad name with spaces' left out: its name is not a valid MCP tool name",
        "tool '' left out: its name is not a valid MCP tool name",
        "tool 'ctrl\\x1b[31mred' left out: its name is not a valid MCP tool name",
        "tool '../../etc/passwd' left out",
        "tool 'naïve' left out",
        "tool 'long_description': its description (50,000 characters) was cut to 1,024",
        "tool 'huge_schema' left out: its parameters' schema is 56,722 bytes, more than 16,384",
        "tool 'deep_schema' left out: its parameters' schema nests more than 16 levels deep",
        "tool 'good_tool' left out: the server lists the name twice",
    ):
        assert expected in problems, problems
    assert len(status.problems) == 11 and all("\n" not in p and len(p) < 300 for p in status.problems)
    assert hub.call("good_tool", {}, Flag()).text == "called good_tool"


def test_an_injection_is_only_data(hubs: Callable[..., McpHub]) -> None:
    hub = ready(hubs([pantry_config("injection")]))
    tools = {tool.spec.name: tool.spec for tool in hub.tools()}
    assert INJECTION in tools["check_stock"].description  # told to the model as the server's words
    assert [name for name, spec in tools.items() if spec.read_only] == ["check_stock", "list_shopping"]
    result = hub.call("check_stock", {"item": "milk"}, Flag())
    assert result.text == f"{stock_line('milk')}\n{INJECTION}" and not result.is_error
    assert result.summary == "Check the pantry (pantry)"  # Parley's words for people, not the server's
    assert hub.call("list_shopping", {}, Flag()).text == shopping_lines({"bread": 1, "tomatoes": 6})  # nothing added


def test_a_flood_on_stderr_costs_nothing(hubs: Callable[..., McpHub]) -> None:
    hub = ready(hubs([pantry_config("flood-stderr")]))
    assert hub.status("pantry").state is ServerState.READY  # type: ignore[union-attr]
    assert hub.call("check_stock", {"item": "rice"}, Flag()).text == "rice: 3 kg in stock."
    conn = hub._connections["pantry"]  # what the messages would quote: the tail only
    assert conn.stdio is not None
    assert conn.stdio.stderr_tail() == "e" * 159 + "… | pantry: done flooding stderr"
    assert len(conn.stdio._stderr) <= 8 << 10


def test_closing_stops_what_a_server_started(hubs: Callable[..., McpHub]) -> None:
    hub = ready(hubs([pantry_config("with-child")]))
    status = hub.status("pantry")
    assert status is not None and status.pid is not None
    pid = status.pid
    if PROC.exists():  # Linux: the group's members can be listed
        wait_until(lambda: len(group_members(pid)) >= 2, 10, "the server and its child running")
    start = time.monotonic()
    hub.close()
    assert time.monotonic() - start < 2 * EASY.stop_grace + SLACK
    assert_group_gone(status)
    hub.close()  # again: nothing happens


# --------------------------------------------------------------------------- results


def test_results_are_text_with_placeholders() -> None:
    result = mcp_types.CallToolResult(
        content=[
            mcp_types.TextContent(text="The weather in Oslo:\x1b[31m cold\u202e"),
            mcp_types.ImageContent(data="aGVsbG8=", mime_type="image/png"),
            mcp_types.AudioContent(data="aGVsbG8=", mime_type="audio/wav"),
            mcp_types.ResourceLink(name="forecast", uri="https://example.com/forecast.pdf"),
            mcp_types.EmbeddedResource(
                resource=mcp_types.TextResourceContents(uri="file:///tmp/notes.txt", text="secret notes")
            ),
        ]
    )
    converted = result_of(result, server="weather", what="Forecast")
    assert converted.text.splitlines() == [
        "The weather in Oslo:[31m cold",
        "[an image (image/png), not shown]",
        "[audio (audio/wav), not played]",
        "[a link to a resource: https://example.com/forecast.pdf]",
        "[a resource: file:///tmp/notes.txt, not shown]",
    ]
    assert (converted.summary, converted.is_error) == ("Forecast (weather)", False)

    failed = result_of(
        mcp_types.CallToolResult(content=[mcp_types.TextContent(text="no such city")], is_error=True),
        server="weather",
        what="Forecast",
    )
    assert (failed.text, failed.summary, failed.is_error) == (
        "Error: no such city",
        "Forecast failed: no such city",
        True,
    )

    structured = result_of(mcp_types.CallToolResult(content=[], structured_content={"t": -3}), server="w", what="F")
    assert structured.text == '{"t": -3}'

    long = result_of(mcp_types.CallToolResult(content=[mcp_types.TextContent(text="x" * 50_000)]), server="w", what="F")
    assert len(long.text) < MAX_RESULT_CHARS + 200 and "the result had 50,000 characters" in long.text
