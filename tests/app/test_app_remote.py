"""Remote compute in the desktop app: a real `parley rpc-server`, the real window and engines.

Each case runs the app in a child process (ggml cannot unregister a remote device, so the test
process's own device list stays as it is) and reports what the window showed as JSON.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from parley.engine.backend.rpc import remote
from tests.support.app_helpers import tiny_chat_model  # noqa: F401 - fixture
from tests.support.rpc_client_fuzzing import FakeServer, Mutation
from tests.support.rpc_server import REPO, TOKEN, Server, free_port

_APP = """
import json, sys
from PySide6.QtCore import QTimer
from parley.app.bootstrap import create_app, create_window, start_controller
from parley.config.settings import Settings
from parley.app.conversations.store import Store

model, servers, session_servers, kill_after = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3]), \\
    int(sys.argv[4])
app = create_app(sys.argv[:1])
window = create_window()
messages = []
window.statusBar().messageChanged.connect(messages.append)
# A reply to be cut short runs long: the tiny model streams 400 tokens in fewer than 20 pieces
# (the window takes new text every 40 ms), so it could end before the server is killed.
settings = Settings(chat_model=model, device="rpc", rpc_servers=servers, context_length=8192,
                    max_tokens=4000 if kill_after else 400, threads=1)
controller = start_controller(window, settings=settings, store=Store(":memory:"), session_servers=session_servers)
report = {"replies": [], "devices": []}
pieces = []

def done():
    view = window.conversation_view
    report.update(
        messages=messages, notice=window.notice.label.text(), device_label=window.device_label.text(),
        device_tooltip=window.device_label.toolTip(),
        stored=[(m.role, m.state, len(m.content)) for m in controller.book.current.messages],
        footers=[w.footer_label.text() for w in view.messages if w.role == "assistant"],
        shown=[len(w.text) for w in view.messages if w.role == "assistant"])
    print(json.dumps(report), flush=True)
    app.quit()

def finished(text, finish):
    report["replies"].append((len(text), finish, len(pieces)))
    report["devices"].append(controller.chat.model.device.device.name if controller.chat.model else None)
    if len(report["replies"]) == 1 and kill_after:
        QTimer.singleShot(0, second)
    else:
        done()

def second():
    if controller.chat.model is None or controller.chat.model.device.device.name != "CPU":
        QTimer.singleShot(50, second)           # the chat model is being loaded again on the CPU
        return
    report["devices"].append("then CPU")
    controller.replies.send("And now?")

def piece(text):
    pieces.append(text)
    if kill_after and len(pieces) == kill_after and len(report["replies"]) == 0:
        print("KILL", flush=True)

def ready(model):
    report.setdefault("first_device", model.device.device.name)
    if not report["replies"]:
        controller.replies.send("Tell me a long story")

controller.chat_ready.connect(ready)
controller.reply_progress.connect(piece)
controller.reply_finished.connect(finished)
QTimer.singleShot(240_000, lambda: (print(json.dumps({"timeout": report}), flush=True), app.exit(3)))
sys.exit(app.exec())
"""


def _run(
    model: Path,
    servers: list[str],
    session: list[str] = (),
    kill: Server | None = None,
    kill_after: int = 0,
    stall: float = 30.0,
) -> dict:
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "PYTHONPATH": str(REPO),
        "PARLEY_RPC_STALL_TIMEOUT": str(stall),
    }
    child = subprocess.Popen(
        [sys.executable, "-c", _APP, str(model), json.dumps(servers), json.dumps(list(session)), str(kill_after)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        for line in child.stdout:
            if line.strip() == "KILL" and kill is not None:
                kill.kill()
            elif line.startswith("{"):
                report = json.loads(line)
                assert "timeout" not in report, report
                child.wait(timeout=60)
                report["stderr"] = child.stderr.read()
                return report
        raise AssertionError(f"the app ended without a report: {child.wait()} {child.stderr.read()}")
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


@pytest.fixture
def server():
    srv = Server()
    yield srv
    srv.stop()
    print(f"the server's log:\n{srv.log()}")  # shown for a failed test: why the server dropped a client


def test_a_server_killed_mid_reply_ends_the_reply_and_the_next_one_runs_on_the_cpu(tiny_chat_model, server):
    report = _run(tiny_chat_model, [server.endpoint], kill=server, kill_after=20)
    print(f"\n{json.dumps(report, indent=1)}")
    assert report["first_device"] == "RPC0"
    (streamed, finish, pieces), (second_len, second_finish, _) = report["replies"]
    assert finish == "error" and pieces >= 20 and streamed > 0
    assert report["stored"][:2] == [["user", "complete", 20], ["assistant", "stopped", streamed]]
    assert report["shown"][0] == streamed  # what streamed is kept, as shown
    assert report["footers"][0].startswith("⚠ Cut short:") and "was lost" in report["footers"][0]
    assert report["devices"][-1] == "CPU" and second_finish == "max_tokens" and second_len > 0
    said = [m for m in report["messages"] if server.endpoint in m or "RPC0" in m]
    assert len(said) == 1 and said[0].startswith(f"The remote compute server {server.endpoint} was lost"), said
    assert said[0].endswith("Parley goes on with this machine's CPU.")  # said once, however many engines moved
    assert "(fallback)" in report["device_label"] and "RPC0" in report["device_tooltip"]


def test_an_unreachable_server_is_said_and_the_models_run_here(tiny_chat_model):
    nobody = f"127.0.0.1:{free_port()}"
    report = _run(tiny_chat_model, [nobody])
    assert report["first_device"] == "CPU" and report["replies"][0][1] == "max_tokens"
    said = [m for m in report["messages"] if m.startswith("Remote compute:")]
    assert len(said) == 1 and nobody in said[0] and "this machine" in said[0]


def test_a_server_given_for_the_session_is_used(tiny_chat_model, server):
    """``parley --rpc HOST:PORT``: a server for this session only, not in the settings."""
    from parley.app.main import split_rpc

    assert split_rpc(["parley", "--rpc", server.endpoint, "-platform", "offscreen"]) == (
        ["parley", "-platform", "offscreen"],
        [server.endpoint],
    )
    report = _run(tiny_chat_model, [], session=[server.endpoint])
    assert report["first_device"] == "RPC0" and report["replies"][0][1] == "max_tokens", json.dumps(report, indent=1)
    assert report["devices"] == ["RPC0"]


def test_a_server_with_a_token_that_then_stalls_is_lost_in_seconds_and_the_token_never_shown(tiny_chat_model):
    """The token from the settings is sent first; the server (a fake) stalls in the middle of a
    reply: the app says it is lost within the stall limit and goes on on the CPU."""
    with FakeServer(Mutation(remote.GET_TENSOR, 30, "stall", value=5), token=TOKEN) as fake:
        report = _run(tiny_chat_model, [f"{TOKEN.hex()}@{fake.endpoint}"], kill_after=10, stall=1.0)
    assert TOKEN.hex()[:16] not in json.dumps(report), report
    assert report["first_device"] == "RPC0"
    (_, finish, _), (second_len, _, _) = report["replies"]
    assert finish == "error" and report["devices"][-1] == "CPU" and second_len > 0, report["replies"]
    said = [m for m in report["messages"] if fake.endpoint in m]
    assert len(said) == 1 and said[0].startswith(
        f"The remote compute server {fake.endpoint} was lost (the server stopped answering (nothing for 1 s))"
    ), said


def test_a_refused_token_is_said_without_the_token_and_the_models_run_here(tiny_chat_model):
    with FakeServer(token=TOKEN) as fake:
        report = _run(tiny_chat_model, [f"{'3' * 64}@{fake.endpoint}"])
    assert report["first_device"] == "CPU" and report["replies"][0][1] == "max_tokens"
    said = [m for m in report["messages"] if m.startswith("Remote compute:")]
    assert len(said) == 1 and f"{fake.endpoint}: the server refused the token" in said[0], said
    assert "3333333333" not in json.dumps(report)
