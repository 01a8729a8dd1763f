"""Remote devices over ggml RPC, on loopback, with a real `parley rpc-server` process.

Everything that connects runs in a subprocess of its own (a fresh relay and ggml registry per
case, and a native abort would show as a signal instead of killing the test run).  The fake
servers at the end are real sockets speaking the wrong thing, the peers the handshake must
refuse.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from parley.engine.backend.rpc import endpoints, remote
from parley.engine.errors import RemoteError
from parley.engine.modelfiles.defaults import default_speech_model_path
from tests.support import rpc_client_fuzzing as fuzz
from tests.support.lines import LineReader
from tests.support.rpc_server import ENV, REPO, TOKEN, Server, free_port
from tests.support.tinymodels import write_tiny_llama_gguf

CLIP = REPO / "parley" / "resources" / "selftest" / "question.wav"
# A clear error, not a hang: the handshake's own limit is 3 s; this bound only catches a hang.
HANG = 20.0


@pytest.fixture
def server() -> Iterator[Server]:
    srv = Server()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tiny_llama_gguf(tmp_path_factory.mktemp("rpc") / "tiny.gguf", n_ctx=256, never_ends=True)


def parley(*args: str, stdin: str | None = None, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "parley", *args], env=ENV, input=stdin, capture_output=True, text=True, timeout=timeout
    )


def python(code: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], env=ENV, capture_output=True, text=True, timeout=timeout
    )


# --------------------------------------------------------------------------- working server


def test_remote_device_is_listed_with_its_memory(server: Server) -> None:
    proc = parley("devices", "--json", "--rpc", server.endpoint)
    assert proc.returncode == 0, proc.stderr
    info = json.loads(proc.stdout)
    (rpc,) = [d for d in info["devices"] if d["backend"] == "RPC"]
    assert rpc["remote"] == server.endpoint and rpc["name"] == "RPC0" and rpc["kind"] == "gpu"
    assert rpc["memory_total"] > 0 and 0 < rpc["memory_free"] <= rpc["memory_total"]
    assert server.endpoint in rpc["description"]
    local_gpus = [d["name"] for d in info["devices"] if d["kind"] == "gpu" and not d["remote"]]
    assert info["auto"] == (local_gpus[0] if local_gpus else "RPC0"), "auto: a local GPU, else a remote device"
    table = parley("devices", "--rpc", server.endpoint)
    assert table.returncode == 0 and "RPC0" in table.stdout and server.endpoint in table.stdout


def test_greedy_chat_through_the_remote_device_equals_the_cpu(server: Server) -> None:
    from parley.engine.modelfiles.defaults import default_chat_model_path

    common = [
        "chat",
        "--model",  # the starter by name: "default" may be a pack this machine measured
        str(default_chat_model_path()),
        "--prompt",
        "Name three rivers in Europe and say one thing about each.",
        "--temp",
        "0",
        "--max-tokens",
        "64",
        "--threads",
        "2",
        "--ctx",
        "512",
    ]
    local = parley(*common, "--device", "cpu")
    remote_run = parley(*common, "--device", "rpc", "--rpc", server.endpoint)
    assert local.returncode == 0, local.stderr
    assert remote_run.returncode == 0, remote_run.stderr
    assert "using the CPU" not in remote_run.stderr, remote_run.stderr
    assert len(local.stdout.split()) > 20
    assert remote_run.stdout == local.stdout


def test_sampled_chat_on_a_tiny_model_through_the_remote_device_equals_the_cpu(server: Server, tiny: Path) -> None:
    """Seeded sampling follows the logits closely, so equal text means equal logits all the way."""
    common = [
        "chat",
        "--model",
        str(tiny),
        "--prompt",
        "Tell me about the sea.",
        "--temp",
        "1.0",
        "--seed",
        "7",
        "--max-tokens",
        "48",
        "--threads",
        "2",
        "--ctx",
        "256",
    ]
    local = parley(*common, "--device", "cpu")
    remote_run = parley(*common, "--device", "RPC0", "--rpc", server.endpoint)
    assert local.returncode == 0 and remote_run.returncode == 0, remote_run.stderr
    assert len(set(local.stdout.split())) > 10
    assert remote_run.stdout == local.stdout


def test_speech_through_the_remote_device_equals_the_cpu(server: Server) -> None:
    default_speech_model_path()  # converted once, before the timed subprocesses
    local = parley("transcribe", "--json", "--threads", "2", "--device", "cpu", str(CLIP))
    remote_run = parley(
        "transcribe", "--json", "--threads", "2", "--device", "rpc", "--rpc", server.endpoint, str(CLIP)
    )
    assert local.returncode == 0, local.stderr
    assert remote_run.returncode == 0, remote_run.stderr
    here, there = json.loads(local.stdout), json.loads(remote_run.stdout)
    assert here["device"] == "CPU" and there["device"] == "RPC0"
    assert "capital of France" in here["text"]
    assert there["text"] == here["text"] and there["segments"] == here["segments"]


def test_a_model_freed_between_two_tokens_on_the_same_remote_device_keeps_the_reply(server: Server, tiny: Path) -> None:
    """The server drops the graph it holds whenever any buffer is freed, while ggml's client
    asks it to recompute that graph for the next token: a second model (the speech model, in
    the app) loaded and closed on the same device in the middle of a reply lost the server.
    The reply now goes on, token for token the same as on the CPU."""
    proc = python(f"""
        from parley.engine.backend.rpc import remote
        from parley.engine.chat.model import ChatModel, ChatSession, SamplingParams
        lost = []
        remote.on_lost(lambda endpoint, reason: lost.append(reason))
        remote.connect([{server.endpoint!r}])
        params = SamplingParams(temperature=1.0, seed=7, max_tokens=40)  # equal text: equal logits
        cpu = ChatModel({str(tiny)!r}, device="cpu", n_ctx=256, threads=2)
        print("CPU", repr(ChatSession(cpu).reply("Tell me a long story.", params).text))
        cpu.close()
        model = ChatModel({str(tiny)!r}, device="rpc", n_ctx=256, threads=2)
        pieces = []
        def on_text(piece):
            pieces.append(piece)
            if len(pieces) in (5, 12):  # another model comes and goes on the device mid-reply
                ChatModel({str(tiny)!r}, device="rpc", n_ctx=256, threads=2).close()
        text = ChatSession(model).reply("Tell me a long story.", params, on_text=on_text).text
        remote.check(model.device.device)
        print("RPC", repr(text))
        print("LOST", lost)
    """)
    assert proc.returncode == 0, f"rc {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    lines = dict(line.split(" ", 1) for line in proc.stdout.splitlines())
    assert lines["LOST"] == "[]", proc.stdout
    assert len(lines["CPU"]) > 40 and lines["RPC"] == lines["CPU"]


def test_speech_and_chat_computing_at_once_on_one_remote_device_take_turns(server: Server, tiny: Path) -> None:
    """The app's case: the speech model transcribes (its warm-up, a take) while a reply streams,
    both on the same remote device.  ggml's client recomputes "the graph the server holds" by
    reference, so without turns a loaded machine let the server run one model's graph with the
    other's inputs (an assertion there; the session lost).  Both results equal the CPU's."""
    default_speech_model_path()  # converted once, before the subprocess
    proc = python(f"""
        import threading
        from parley.engine.audio.files import load_audio
        from parley.engine.backend.rpc import remote
        from parley.engine.chat.model import ChatModel, ChatSession, SamplingParams
        from parley.engine.modelfiles.defaults import default_speech_model_path
        from parley.engine.speech import SpeechModel
        lost = []
        remote.on_lost(lambda endpoint, reason: lost.append(reason))
        remote.connect([{server.endpoint!r}])
        params = SamplingParams(temperature=1.0, seed=7, max_tokens=32)
        cpu = ChatModel({str(tiny)!r}, device="cpu", n_ctx=256, threads=1)
        print("CPU", repr(ChatSession(cpu).reply("Tell me a long story.", params).text))
        cpu.close()
        speech = SpeechModel(default_speech_model_path(), device="rpc", threads=1)
        chat = ChatModel({str(tiny)!r}, device="rpc", n_ctx=256, threads=1)
        audio, heard, started, done = load_audio({str(CLIP)!r}), [], threading.Event(), threading.Event()
        def transcribe():
            while not done.wait(0.05):  # takes come and go, as live transcripts do while one talks
                heard.append(speech.transcribe(audio, single_segment=True, on_progress=lambda _: started.set()).text)
        listener = threading.Thread(target=transcribe)
        listener.start()
        try:
            started.wait(120)  # the reply streams while the speech model computes
            text = ChatSession(chat).reply("Tell me a long story.", params).text
        finally:
            done.set()
            listener.join()
        remote.check(chat.device.device)
        print("RPC", repr(text))
        print("HEARD", len(heard), all("capital of France" in h for h in heard))
        print("LOST", lost)
    """)
    assert proc.returncode == 0, f"rc {proc.returncode}\n{proc.stdout}\n{proc.stderr}\n{server.log()}"
    lines = dict(line.split(" ", 1) for line in proc.stdout.splitlines())
    assert lines["LOST"] == "[]", proc.stdout + server.log()
    assert lines["RPC"] == lines["CPU"]
    assert lines["HEARD"].endswith(" True") and int(lines["HEARD"].split()[0]) >= 1


# --------------------------------------------------------------------------- a server that dies


def test_server_killed_mid_reply_ends_the_reply_with_an_error_and_the_cpu_takes_over(tiny: Path) -> None:
    """kill -9 while tokens stream: the text so far is kept, no stand-in token leaks out, the
    process lives on, and the same conversation continues on the CPU."""
    srv = Server()
    try:
        proc = python(f"""
            import os, signal
            from parley.engine.backend import devices
            from parley.engine.backend.rpc import remote
            from parley.engine.chat.model import ChatModel, ChatSession, SamplingParams
            from parley.engine.errors import RemoteDeviceLost
            lost = []
            remote.on_lost(lambda endpoint, reason: lost.append(endpoint))
            remote.connect([{srv.endpoint!r}])
            model = ChatModel({str(tiny)!r}, device="rpc", n_ctx=256, threads=2)
            print("DEVICE", model.device.device.name, model.device.device.remote)
            session = ChatSession(model)
            pieces = []
            def on_text(piece):
                pieces.append(piece)
                if len(pieces) == 5:
                    os.kill({srv.proc.pid}, signal.SIGKILL)
            params = SamplingParams(temperature=0, max_tokens=200)
            try:
                session.reply("Tell me a long story.", params, on_text=on_text)
                print("NO ERROR")
            except RemoteDeviceLost as exc:
                print("LOST", len(pieces), "|", exc)
            print("DEVICES", [(d.name, d.memory_total) for d in devices.list_devices()])
            print("RPC_CHOICE", devices.select_device("rpc").fallback_reason)
            model.close()
            cpu = ChatModel({str(tiny)!r}, device=devices.fallback_to_cpu(model.device, "lost"), n_ctx=256, threads=2)
            reply = ChatSession(cpu).reply("Tell me a long story.", params)
            print("CPU", cpu.device.device.name, len(reply.text) > 20)
            print("CALLBACK", lost)
        """)
    finally:
        srv.stop()
    assert proc.returncode == 0, f"rc {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    lines = dict(line.split(" ", 1) for line in proc.stdout.splitlines())
    assert lines["DEVICE"] == f"RPC0 {srv.endpoint}"
    assert lines["LOST"].startswith("5 |"), proc.stdout
    assert "RPC0" in lines["LOST"] and srv.endpoint in lines["LOST"]
    assert "('RPC0', 0)" in lines["DEVICES"]
    assert "was lost" in lines["RPC_CHOICE"] and "using the CPU" in lines["RPC_CHOICE"]
    assert lines["CPU"] == "CPU True"
    assert lines["CALLBACK"] == repr([srv.endpoint])


def test_chat_cli_says_once_that_the_server_was_lost_and_goes_on_on_the_cpu(tiny: Path) -> None:
    srv = Server()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "parley",
            "chat",
            "--interactive",
            "--model",
            str(tiny),
            "--rpc",
            srv.endpoint,
            "--device",
            "rpc",
            "--temp",
            "1.0",
            "--seed",
            "3",
            "--max-tokens",
            "24",
            "--threads",
            "2",
            "--ctx",
            "256",
        ],
        env=ENV,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        banner, err_lines = "", LineReader(proc.stderr)
        while "context;" not in banner:
            banner = err_lines.next()
            assert banner, "the chat ended before its banner"
        assert "on RPC0" in banner, banner
        srv.kill()
        proc.stdin.write("Hello there.\nAnd again.\nOnce more.\n")
        proc.stdin.close()
        proc.wait(timeout=120)  # the replies are short: the pipe never fills
        out, err = proc.stdout.read(), "".join(iter(err_lines.next, ""))
    finally:
        srv.stop()
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert err.count("was lost") == 1 and err.count("this machine's CPU") == 1, err  # said once
    assert "[cut short]" in err
    assert len([line for line in out.split("> ") if line.strip()]) == 2, out  # two replies, on the CPU


def test_unreachable_server_is_a_clear_error_in_time() -> None:
    endpoint = f"127.0.0.1:{free_port()}"
    started = time.monotonic()
    proc = parley("devices", "--rpc", endpoint, timeout=HANG)
    assert time.monotonic() - started < HANG
    assert proc.returncode == 2
    assert f"parley: error: {endpoint}: connection refused" in proc.stderr


def test_malformed_endpoint_is_refused() -> None:
    proc = parley("devices", "--rpc", "no-port-here")
    assert proc.returncode == 2 and "is not HOST:PORT" in proc.stderr


# --------------------------------------------------------------------------- wrong peers


class FakePeer:
    """A TCP server on loopback that answers every connection with ``reply(conn)``."""

    def __init__(self, reply) -> None:  # noqa: ANN001 - a function of the accepted socket
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.endpoint = f"127.0.0.1:{self.sock.getsockname()[1]}"
        self.conns: list[socket.socket] = []
        self._reply = reply
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.conns.append(conn)
            self._reply(conn)

    def close(self) -> None:
        self.sock.close()
        for conn in self.conns:
            conn.close()


def _silent(conn: socket.socket) -> None:
    pass  # accepts and never says a word


def _http(conn: socket.socket) -> None:
    conn.recv(1024)
    conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")


def _old_protocol(conn: socket.socket) -> None:
    conn.recv(1024)
    conn.sendall((3).to_bytes(8, "little") + bytes([3, 0, 0]))  # a protocol 3.0.0 server's HELLO


def _newer_protocol(conn: socket.socket) -> None:
    conn.recv(1024)
    conn.sendall((28).to_bytes(8, "little") + bytes([8, 1, 0, 0]) + bytes(24))


def _hangs_up(conn: socket.socket) -> None:
    conn.recv(1024)
    conn.close()


@pytest.mark.parametrize(
    ("peer", "message"),
    [
        (_silent, "no ggml RPC handshake within 3 s"),
        (_http, "not a ggml RPC server"),
        (_old_protocol, "RPC protocol version mismatch: the server speaks 3.0.0"),
        (_newer_protocol, "RPC protocol version mismatch: the server speaks 8.1.0"),
        (_hangs_up, "closed the connection during the handshake"),
    ],
)
def test_a_peer_that_does_not_speak_the_protocol_is_refused_before_ggml_sees_it(peer, message: str) -> None:  # noqa: ANN001
    fake = FakePeer(peer)
    try:
        started = time.monotonic()
        proc = parley("chat", "--rpc", fake.endpoint, "--prompt", "hi", timeout=HANG)
        assert time.monotonic() - started < HANG
    finally:
        fake.close()
    assert proc.returncode == 2, proc.stderr
    assert f"parley: error: {fake.endpoint}: " in proc.stderr and message in proc.stderr, proc.stderr


def test_check_server_names_the_problem_and_accepts_a_real_server(server: Server) -> None:
    info = remote.check_server(server.endpoint)
    assert info.device_count == 1 and info.version[0] == remote.PROTOCOL_MAJOR_FOR_TABLE
    with pytest.raises(RemoteError, match="connection refused"):
        remote.check_server(f"127.0.0.1:{free_port()}")


# --------------------------------------------------------------------------- the server command


# --------------------------------------------------------------------------- settings


def test_settings_keep_valid_servers_and_refuse_malformed_ones(tmp_path: Path) -> None:
    from parley.config.settings import load_settings

    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"rpc_servers": ["192.168.1.20:50052", "gpu-box:50052"]}))
    assert load_settings(path).settings.rpc_servers == ["192.168.1.20:50052", "gpu-box:50052"]
    for bad in (["no-port"], ["a:1", "a:1"], "a:1", ["host:99999"]):
        path.write_text(json.dumps({"rpc_servers": bad}))
        loaded = load_settings(path)
        assert loaded.settings.rpc_servers == [] and "rpc_servers" in loaded.warnings[0]


def check(endpoint: str) -> str | None:
    """What the app's ``check_server`` does: None when the server answers, else the message."""
    try:
        remote.check_server(endpoint)
    except RemoteError as exc:
        return str(exc)
    return None


def add_server(qtbot, group, endpoint: str) -> None:  # noqa: ANN001
    """Type ``endpoint`` and click Add; the check runs off the UI thread, which stays free."""
    group.endpoint.setText(endpoint)
    group.add_button.click()
    qtbot.waitUntil(lambda: not group.checking, timeout=10_000)


def test_a_slow_server_check_leaves_the_dialog_responsive(qtbot) -> None:  # noqa: ANN001
    """The check (a handshake of up to 3 s) runs in the background: Add returns at once and says so."""
    from parley.app.model_library import ModelLibrary
    from parley.app.settings_flow import checked_in_background
    from parley.app.ui.settings_dialog import SettingsDialog
    from parley.config.settings import Settings

    release = threading.Event()

    def check(endpoint: str) -> str | None:
        release.wait(10)
        return None

    dialog = SettingsDialog(
        Settings(),
        models=ModelLibrary(),
        validate=lambda s: None,
        compute_devices=[],
        microphones=[],
        read_aloud_problem=None,
        check_server=checked_in_background(check),
    )
    qtbot.addWidget(dialog)
    group = dialog.remote_servers
    group.endpoint.setText("127.0.0.1:9")
    group.add_button.click()
    assert group.checking and not group.add_button.isEnabled() and "Checking 127.0.0.1:9" in group.error.text()
    release.set()
    qtbot.waitUntil(lambda: not group.checking, timeout=10_000)
    assert group.values == ["127.0.0.1:9"] and not group.error.isVisibleTo(dialog)


def test_settings_dialog_checks_a_server_when_it_is_added(qtbot, server: Server) -> None:  # noqa: ANN001
    from parley.app.model_library import ModelLibrary
    from parley.app.settings_flow import checked_in_background
    from parley.app.ui.settings_dialog import SettingsDialog
    from parley.config.settings import Settings

    dialog = SettingsDialog(
        Settings(rpc_servers=["10.0.0.9:50052"]),
        models=ModelLibrary(),
        validate=lambda s: None,
        compute_devices=[],
        microphones=[],
        read_aloud_problem=None,
        check_server=checked_in_background(check),
    )
    qtbot.addWidget(dialog)
    group = dialog.remote_servers
    closed = f"127.0.0.1:{free_port()}"
    add_server(qtbot, group, closed)
    assert group.values == ["10.0.0.9:50052"]
    assert group.error.isVisibleTo(dialog) and "connection refused" in group.error.text()
    add_server(qtbot, group, server.endpoint)
    assert group.values == ["10.0.0.9:50052", server.endpoint] and not group.error.isVisibleTo(dialog)
    group.servers.setCurrentRow(0)
    group.remove_button.click()
    assert dialog.edited_settings().rpc_servers == [server.endpoint]


def test_settings_dialog_keeps_a_token_and_shows_it_masked(qtbot, tmp_path: Path) -> None:  # noqa: ANN001
    from parley.app.model_library import ModelLibrary
    from parley.app.settings_flow import checked_in_background
    from parley.app.ui.settings_dialog import SettingsDialog
    from parley.config.settings import Settings, load_settings

    with fuzz.FakeServer(token=TOKEN) as fake:
        dialog = SettingsDialog(
            Settings(),
            models=ModelLibrary(),
            validate=lambda s: None,
            compute_devices=[],
            microphones=[],
            read_aloud_problem=None,
            check_server=checked_in_background(check),
        )
        qtbot.addWidget(dialog)
        group = dialog.remote_servers
        add_server(qtbot, group, f"{'2' * 64}@{fake.endpoint}")
        assert group.error.text() == f"{fake.endpoint}: the server refused the token (check TOKEN@HOST:PORT)"
        add_server(qtbot, group, f"{TOKEN.hex()}@{fake.endpoint}")
        assert not group.error.isVisibleTo(dialog), group.error.text()
        assert group.servers.item(0).text() == f"…@{fake.endpoint}"
        add_server(qtbot, group, fake.endpoint)
        assert group.error.text() == f"{fake.endpoint} is already in the list."
    saved = dialog.edited_settings().rpc_servers
    assert saved == [f"{TOKEN.hex()}@{fake.endpoint}"]
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"rpc_servers": saved}))
    assert load_settings(path).settings.rpc_servers == saved
    path.write_text(json.dumps({"rpc_servers": [f"{TOKEN.hex()}@{fake.endpoint}", f"{TOKEN.hex()[:-2]}@h:1"]}))
    loaded = load_settings(path)
    assert loaded.settings.rpc_servers == [] and "rpc_servers" in loaded.warnings[0]
    assert TOKEN.hex()[:8] not in loaded.warnings[0] and f"…@{fake.endpoint}" in loaded.warnings[0], loaded.warnings


# --------------------------------------------------------------------------- server lost while loading

_LOAD_WHILE_KILLED = """
import sys, threading, time
sys.path.insert(0, {repo!r})
from tests.support.rpc_server import Server
from parley.engine.backend.rpc import remote
from parley.engine.chat.model import ChatModel
from parley.engine.modelfiles.defaults import default_chat_model_path, default_speech_model_path
from parley.engine.speech import SpeechModel

kind, fraction = sys.argv[1], float(sys.argv[2])
server = Server()
remote.connect([server.endpoint])
link = remote._links[server.endpoint]
path = default_chat_model_path() if kind == "chat" else default_speech_model_path()
size = path.stat().st_size
killed_at = []

def kill_part_way() -> None:
    start = link.sent
    while link.sent - start < fraction * size:
        time.sleep(0.001)
    server.kill()
    killed_at.append(link.sent - start)

watcher = threading.Thread(target=kill_part_way, daemon=True)
watcher.start()
model = ChatModel(path, device="rpc", n_ctx=512) if kind == "chat" else SpeechModel(path, device="rpc")
watcher.join(5)
print(killed_at[0] if killed_at else -1, size, "|", model.device.device.name, "|", model.device.fallback_reason)
"""


@pytest.mark.parametrize("kind", ["speech", "chat"])
def test_a_server_lost_while_a_model_is_sent_to_it_means_the_cpu(kind: str) -> None:
    """The weights are on their way when the server dies: allocations on the lost server get
    stand-in buffers (a failed one crashed whisper.cpp's error path), the load completes, and the
    engine finds the device lost and loads the model on the CPU instead.  The server is killed
    once a given share of the model's bytes has passed the relay, so each kill lands mid-load."""
    for fraction in (0.1, 0.5, 0.9):
        proc = subprocess.run(
            [sys.executable, "-c", _LOAD_WHILE_KILLED.format(repo=str(REPO)), kind, str(fraction)],
            env=ENV,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 0, proc.stderr[-2000:]
        where, device, reason = proc.stdout.strip().rpartition("\n")[2].split(" | ")
        sent, size = map(int, where.split())
        assert 0 < sent < size, f"the kill did not land during the load ({sent} of {size} bytes sent)"
        assert device == "CPU" and "RPC0" in reason and "using the CPU" in reason, proc.stdout


def _handshake_then_reset(conn: socket.socket) -> None:
    """Answer HELLO and DEVICE_COUNT like a server with one device, then die (a reset)."""
    version = bytes(
        [
            int(remote.native.lib().RPC_PROTO_MAJOR_VERSION),
            int(remote.native.lib().RPC_PROTO_MINOR_VERSION),
            int(remote.native.lib().RPC_PROTO_PATCH_VERSION),
            0,
        ]
    )
    conn.recv(9 + remote.HELLO_REQUEST_SIZE, socket.MSG_WAITALL)
    conn.sendall(remote.HELLO_REPLY_SIZE.to_bytes(8, "little") + version + bytes(24))
    conn.recv(9, socket.MSG_WAITALL)
    conn.sendall((4).to_bytes(8, "little") + (1).to_bytes(4, "little"))
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, (1).to_bytes(4, "little") + (0).to_bytes(4, "little"))
    conn.close()


def test_the_relay_reads_a_large_request_whole_when_the_server_is_already_gone() -> None:
    """ggml streams a weight tensor (SET_TENSOR, tens of MB) to a server that died before the
    first byte: the relay must still read the whole body, or its next read takes weight bytes
    for a command, it hangs up, and ggml aborts the process ("send failed").  Seen in CI; here
    the server is a socket that resets right after the handshake, and the test plays ggml."""
    for _ in range(3):  # the relay's idle watch may notice the reset first (every 0.5 s)
        fake = FakePeer(_handshake_then_reset)
        try:
            sock, info = remote._handshake(fake.endpoint, 3.0)
            link = remote._Link(fake.endpoint, sock, info)
            time.sleep(0.05)  # the reset arrives
            with socket.create_connection(
                ("127.0.0.1", int(link.relay_endpoint.rpartition(":")[2])), timeout=HANG
            ) as ggml:
                body = bytes(24 << 20)
                ggml.sendall(bytes([remote.SET_TENSOR]) + len(body).to_bytes(8, "little") + body)
                ggml.sendall(bytes([remote.GET_ALIGNMENT]) + (4).to_bytes(8, "little") + bytes(4))
                reply = ggml.recv(16, socket.MSG_WAITALL)
            assert reply == (8).to_bytes(8, "little") + (64).to_bytes(8, "little"), reply
            assert link.lost is not None
        finally:
            fake.close()


# --------------------------------------------------------------------------- hostile servers
# Each client runs in a subprocess (a native abort shows as a signal) with a time limit, against
# a fake ggml server in Python (tests/support/rpc_client_fuzzing.py) that spoils one reply.


def _devices(endpoint: str, *extra: str, stall: float = 1.0) -> subprocess.CompletedProcess[str]:
    env = {**ENV, "PARLEY_RPC_STALL_TIMEOUT": str(stall)}
    return subprocess.run(
        [sys.executable, "-m", "parley", "devices", "--json", "--rpc", endpoint, *extra],
        env=env,
        capture_output=True,
        text=True,
        timeout=HANG,
        preexec_fn=fuzz.limit_memory,
    )


def _drive(fake: fuzz.FakeServer, model: Path, stall: float = 1.0) -> tuple[str, str]:
    return fuzz.drive(fake.endpoint, model, limit=HANG * 3, stall=stall)


def test_a_server_that_claims_four_billion_devices_is_refused_before_ggml_sees_it() -> None:
    with fuzz.FakeServer(devices=4_000_000_000) as fake:
        proc = _devices(fake.endpoint)
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert proc.stderr == (
        f"parley: error: {fake.endpoint}: the server claims 4000000000 devices (at most 16 are "
        "possible): it is broken or not a ggml RPC server\n"
    )


def test_a_device_count_that_changes_after_the_handshake_never_reaches_ggml() -> None:
    """The relay answers ggml's DEVICE_COUNT from the checked handshake: a server that says 1,
    then 4e9, cannot size ggml's device vector."""
    with fuzz.FakeServer(fuzz.Mutation(remote.DEVICE_COUNT, 1, "field", 0, 4, 4_000_000_000)) as fake:
        proc = _devices(fake.endpoint)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert [d["name"] for d in json.loads(proc.stdout)["devices"] if d["remote"]] == ["RPC0"]
    assert fake.counts[remote.DEVICE_COUNT] == 1


@pytest.mark.parametrize(
    ("mutation", "reason"),
    [
        (fuzz.Mutation(remote.GET_ALIGNMENT, 0, "field", 0, 8, 0), "the server gave an alignment of 0"),
        (fuzz.Mutation(remote.GET_ALIGNMENT, 0, "field", 0, 8, 48), "the server gave an alignment of 48"),
        (fuzz.Mutation(remote.GET_MAX_SIZE, 0, "field", 0, 8, 0), "a maximum buffer size of 0"),
        (fuzz.Mutation(remote.BUFFER_GET_BASE, 0, "field", 0, 8, 0), "the server gave a buffer at address 0x0"),
        (fuzz.Mutation(remote.BUFFER_GET_BASE, 0, "field", 0, 8, 0x1234), "a buffer at address 0x1234"),
        (fuzz.Mutation(remote.BUFFER_GET_BASE, 0, "field", 0, 8, (1 << 64) - 64), "not wrapping around"),
        (fuzz.Mutation(remote.ALLOC_BUFFER, 0, "field", 0, 8, 0), "the server could not allocate"),
        (fuzz.Mutation(remote.ALLOC_BUFFER, 0, "field", 8, 8, 16), "the server allocated 16 bytes when"),
        (fuzz.Mutation(remote.ALLOC_BUFFER, 0, "field", 8, 8, 1 << 63), "the server allocated 9223372036854775808"),
        (fuzz.Mutation(remote.GET_DEVICE_MEMORY, 2, "field", 0, 8, 1 << 40), "free of 8589934592"),
        (fuzz.Mutation(remote.GET_ALLOC_SIZE, 0, "field", 0, 8, 1), "an allocation size of 1 bytes"),
        (fuzz.Mutation(remote.GET_ALLOC_SIZE, 0, "field", 0, 8, 1 << 62), "an allocation size of 4611686018427387904"),
        (fuzz.Mutation(remote.SET_TENSOR_HASH, 0, "field", 0, 1, 7), "answered 7 where 0 or 1 was expected"),
        (fuzz.Mutation(remote.GET_TENSOR, 0, "length", value=1 << 62), "malformed reply (4611686018427387904 bytes"),
    ],
    ids=str,
)
def test_a_reply_field_out_of_bounds_means_the_server_is_lost_and_the_cpu_takes_over(
    tiny: Path, mutation: fuzz.Mutation, reason: str
) -> None:
    with fuzz.FakeServer(mutation) as fake:
        verdict, detail = _drive(fake, tiny)
        assert fake.hit, f"{mutation} was never asked for"
    assert verdict == "refused", detail
    assert reason in detail, detail


def test_a_server_that_sends_a_length_and_stalls_is_lost_within_the_stall_limit(tiny: Path) -> None:
    with fuzz.FakeServer(fuzz.Mutation(remote.GET_DEVICE_MEMORY, 0, "stall", value=0)) as fake:
        started = time.monotonic()
        proc = _devices(fake.endpoint, stall=1.0)
        took = time.monotonic() - started
    assert proc.returncode == 0, proc.stderr[-2000:]
    (rpc,) = [d for d in json.loads(proc.stdout)["devices"] if d["remote"]]
    assert "lost: the server stopped answering (nothing for 1 s)" in rpc["description"], rpc
    assert took < HANG


def test_a_stall_in_the_middle_of_the_reply_after_a_compute_is_lost(tiny: Path) -> None:
    with fuzz.FakeServer(fuzz.Mutation(remote.GET_TENSOR, 0, "stall", value=3)) as fake:
        verdict, detail = _drive(fake, tiny)
    assert verdict == "refused" and "the server stopped answering (nothing for 1 s)" in detail, detail


def test_a_computation_longer_than_the_stall_limit_is_waited_for(tiny: Path) -> None:
    """The first reply after GRAPH_COMPUTE may take as long as the computation: no stall limit."""
    computed = threading.Event()

    def slow_compute(cmd: int, body: bytes) -> None:
        if cmd == remote.GRAPH_COMPUTE:
            computed.set()
        elif cmd == remote.GET_TENSOR and computed.is_set():
            computed.clear()
            time.sleep(2.5)  # the "computation" takes 2.5 stall limits

    with fuzz.FakeServer(on_request=slow_compute) as fake:
        verdict, detail = _drive(fake, tiny, stall=1.0)
    assert verdict == "served" and "EVALUATED RPC0" in detail, detail


_STRANGER = """
import socket, sys
with socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10) as s:
    s.sendall(bytes([14]) + (24).to_bytes(8, "little") + bytes(24))
    print("ANSWER", len(s.recv(100)))
"""

_SHARED_SESSION = """
import subprocess, sys
from parley.engine.backend.rpc import remote
from parley.engine.chat.model import ChatModel

endpoint, model_path = sys.argv[1], sys.argv[2]
remote.connect([endpoint])
model = ChatModel(model_path, device="rpc", n_ctx=64, threads=1)
port = remote._links[endpoint].relay_port
stranger = subprocess.run([sys.executable, "-c", sys.argv[3], str(port)], capture_output=True, text=True, timeout=20)
print(stranger.stdout.strip() or stranger.stderr.strip().splitlines()[-1])
model.evaluate(model.tokenize("Still working?"))
print("DEVICE", model.device.device.name, remote.lost_reason(model.device.device))
"""


def test_another_process_cannot_use_the_relay_port(tiny: Path) -> None:
    with fuzz.FakeServer() as fake:
        proc = subprocess.run(
            [sys.executable, "-c", _SHARED_SESSION, fake.endpoint, str(tiny), _STRANGER],
            env=ENV,
            capture_output=True,
            text=True,
            timeout=HANG * 3,
        )
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = proc.stdout.splitlines()
    assert lines[0] in ("ANSWER 0", "ConnectionResetError: [Errno 104] Connection reset by peer"), proc.stdout
    assert lines[1] == "DEVICE RPC0 None", proc.stdout
    assert f"refused a connection to the relay of {fake.endpoint} from another process" in proc.stderr, proc.stderr


def test_a_host_name_that_cannot_be_encoded_is_a_clear_error() -> None:
    proc = parley("devices", "--rpc", "a" * 70 + ".example:50052", timeout=HANG)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.startswith("parley: error: ") and proc.stderr.count("\n") == 1, proc.stderr


# --------------------------------------------------------------------------- tokens


def test_endpoints_with_tokens_are_parsed_and_never_echo_the_token() -> None:
    hexed = TOKEN.hex()
    assert endpoints.split_token(f"{hexed}@gpu-box:50052") == (TOKEN, "gpu-box:50052")
    assert endpoints.split_token(f" {hexed.upper()}@[::1]:7 ") == (TOKEN, "[::1]:7")
    assert endpoints.parse_endpoint(f"{hexed}@[::1]:7") == ("::1", 7)
    assert endpoints.split_token("10.0.0.2:9") == (None, "10.0.0.2:9")
    assert endpoints.public_endpoint(f"{hexed}@h:1") == "…@h:1"
    for bad in (hexed[:-1] + "@h:1", hexed + "0@h:1", hexed[:-1] + "g@h:1", "@h:1", f"{hexed}@h", f"{hexed}@h@h:1"):
        with pytest.raises(RemoteError) as caught:
            endpoints.parse_endpoint(bad)
        assert hexed[:16] not in str(caught.value), str(caught.value)


def test_a_token_is_sent_first_and_never_shown(tmp_path: Path) -> None:
    hexed = TOKEN.hex()
    with fuzz.FakeServer(token=TOKEN) as fake:
        given = _devices(f"{hexed}@{fake.endpoint}")
        token_file = tmp_path / "token"
        token_file.write_text(hexed + "\n")
        from_file = _devices(fake.endpoint, "--rpc-token-file", str(token_file))
        wrong = _devices(f"{'0' * 64}@{fake.endpoint}")
        none = _devices(fake.endpoint)
        token_file.write_text("not a token")
        bad_file = _devices(fake.endpoint, "--rpc-token-file", str(token_file))
    for proc in (given, from_file):
        assert proc.returncode == 0, proc.stderr
        assert hexed not in proc.stdout + proc.stderr
        (rpc,) = [d for d in json.loads(proc.stdout)["devices"] if d["remote"]]
        assert rpc["remote"] == fake.endpoint and rpc["description"] == f"remote device on {fake.endpoint}"
    assert wrong.returncode == 2 and wrong.stderr == (
        f"parley: error: {fake.endpoint}: the server refused the token (check TOKEN@HOST:PORT)\n"
    )
    assert none.returncode == 2 and "closed the connection during the handshake" in none.stderr
    assert bad_file.returncode == 2 and bad_file.stderr == (
        f"parley: error: {token_file} holds no token (64 hex characters expected)\n"
    )


_CHECK_ANOTHER_TOKEN = """
import sys
from parley.engine.backend.rpc import remote
from parley.engine.errors import RemoteError
right, wrong = sys.argv[1], sys.argv[2]
remote.connect([right])
print("SAME", remote.check_server(right).device_count)
try:
    remote.check_server(wrong)
except RemoteError as exc:
    print("OTHER", exc)
"""


def test_checking_a_connected_server_with_another_token_asks_the_server() -> None:
    with fuzz.FakeServer(token=TOKEN) as fake:
        proc = python(
            _CHECK_ANOTHER_TOKEN.replace("sys.argv[1]", repr(f"{TOKEN.hex()}@{fake.endpoint}")).replace(
                "sys.argv[2]", repr(f"{'4' * 64}@{fake.endpoint}")
            ),
            timeout=HANG,
        )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "SAME 1",
        f"OTHER {fake.endpoint}: the server refused the token (check TOKEN@HOST:PORT)",
    ], proc.stdout


def test_a_token_file_that_is_a_fifo_or_too_large_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo, large = tmp_path / "fifo", tmp_path / "large"
    os.mkfifo(fifo)
    large.write_text(TOKEN.hex() * 100)
    for path, why in ((fifo, "not a regular file (a FIFO)"), (large, "6400 bytes, more than the 128 expected")):
        proc = parley("devices", "--rpc", "127.0.0.1:9", "--rpc-token-file", str(path), timeout=HANG)
        assert proc.returncode == 2 and proc.stderr == f"parley: error: cannot read the token file {path}: {why}\n", (
            proc.stderr
        )


def test_a_real_server_takes_the_token_from_its_token_file(tmp_path: Path, tiny: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text(TOKEN.hex() + "\n")
    token_file.chmod(0o600)
    srv = Server("--token-file", str(token_file))
    try:
        chat = parley(
            "chat",
            "--model",
            str(tiny),
            "--device",
            "rpc",
            "--rpc",
            srv.endpoint,
            "--rpc-token-file",
            str(token_file),
            "--prompt",
            "Hi",
            "--max-tokens",
            "4",
            "--ctx",
            "128",
            "--threads",
            "2",
            timeout=120,
        )
        wrong = parley("devices", "--rpc", f"{'1' * 64}@{srv.endpoint}", timeout=HANG)
    finally:
        srv.stop()
    assert chat.returncode == 0 and "using the CPU" not in chat.stderr, chat.stderr
    assert TOKEN.hex() not in chat.stdout + chat.stderr
    assert wrong.returncode == 2 and "the server refused the token" in wrong.stderr, wrong.stderr


def test_a_lost_listener_is_held_weakly_and_once() -> None:
    """An app's engine host registers its relay callback on every model load: the remote module
    must neither collect copies of it nor keep a closed host alive."""
    import gc
    import weakref

    class Host:
        def lost(self, endpoint: str, reason: str) -> None:
            pass

    before = len(remote._listeners())
    host = Host()
    for _ in range(5):
        remote.on_lost(host.lost)
    assert len(remote._listeners()) == before + 1
    gone = weakref.ref(host)
    del host
    gc.collect()
    assert gone() is None and len(remote._listeners()) == before
