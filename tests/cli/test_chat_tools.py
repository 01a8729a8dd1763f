"""``parley chat`` with tools, as a user runs it: the built-in tools and the MCP servers of the
config folder's ``mcp.json``, each step on stderr, ``--no-tools``; a tool that acts is not
done where no one can answer; no server's process outlives the command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from parley.engine.library import packs
from tests.support.requirements import require

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def model() -> Path:
    state = packs.pack_state(packs.find_pack("qwen2.5-coder-0.5b"))
    require(state.usable, "the 0.5B model pack (./setup.sh test)")
    return packs.pack_path(state.pack)


def chat(
    tmp_path: Path, model: Path, *args: str, mcp: dict[str, object] | None = None
) -> subprocess.CompletedProcess[str]:
    config = tmp_path / "config"
    config.mkdir(exist_ok=True)
    if mcp is not None:
        (config / "mcp.json").write_text(json.dumps(mcp))
    env = {
        **os.environ,
        "PARLEY_CONFIG_DIR": str(config),
        "PARLEY_DATA_DIR": str(tmp_path / "data"),
        "PYTHONPATH": str(REPO),
    }
    command = [sys.executable, "-m", "parley", "chat", "--model", str(model), "--temp", "0", "--device", "cpu", *args]
    return subprocess.run(command, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)


def test_a_sum_is_computed_and_its_step_printed(tmp_path: Path, model: Path) -> None:
    done = chat(tmp_path, model, "what is 1,234 times 5,678?")
    assert done.returncode == 0, done.stderr
    assert "7,006,652" in done.stdout
    assert '[calculate {"expression": ' in done.stderr and ": done: 1,234 × 5,678 = 7,006,652]" in done.stderr


def test_no_tools_answers_from_the_model_alone(tmp_path: Path, model: Path) -> None:
    done = chat(tmp_path, model, "--no-tools", "what is 1,234 times 5,678?")
    assert done.returncode == 0, done.stderr
    assert "[calculate" not in done.stderr


def test_a_tool_that_acts_is_not_done_where_no_one_can_answer(tmp_path: Path, model: Path) -> None:
    done = chat(tmp_path, model, "set a timer for ten minutes")
    assert done.returncode == 0, done.stderr
    assert "[not done: set a timer for 10 minutes: a tool that acts asks first" in done.stderr
    assert "declined" in done.stderr and not (tmp_path / "data" / "timers.json").exists()
    allowed = chat(tmp_path, model, "--yes", "set a timer for ten minutes")
    assert "set_timer" in allowed.stderr and ": done:" in allowed.stderr
    assert json.loads((tmp_path / "data" / "timers.json").read_text())["timers"][0]["seconds"] == 600


def test_an_mcp_server_of_mcp_json_is_used_and_gone_afterwards(tmp_path: Path, model: Path) -> None:
    marker = f"pantry-{os.getpid()}-{tmp_path.name}"
    server = {"command": sys.executable, "args": ["-m", "tests.support.mcp_servers", "pantry"], "cwd": str(REPO)}
    server["env"] = {"PARLEY_TEST_MARK": marker}
    done = chat(
        tmp_path, model, "check the pantry stock: is there any milk left?", mcp={"mcpServers": {"pantry": server}}
    )
    assert done.returncode == 0, done.stderr
    assert "parley: MCP server pantry: ready with 3 tools" in done.stderr
    assert "(pantry)" in done.stderr and ": done:" in done.stderr, done.stderr
    left = [p for p in Path("/proc").iterdir() if p.name.isdigit() and _has_mark(p, marker)]
    assert not left, "an MCP server's process outlived parley chat"


def test_a_broken_mcp_json_is_said_and_the_built_in_tools_still_work(tmp_path: Path, model: Path) -> None:
    broken = {"mcpServers": {"bad/name": {"command": "x"}, "ok": 3}}
    done = chat(tmp_path, model, "what is 1,234 times 5,678?", mcp=broken)
    assert done.returncode == 0, done.stderr
    assert "parley: mcp.json: a server's name 'bad/name' cannot be used" in done.stderr
    assert "[calculate" in done.stderr and "7,006,652" in done.stdout


def _has_mark(proc: Path, marker: str) -> bool:
    try:
        return marker.encode() in (proc / "environ").read_bytes()
    except OSError:
        return False
