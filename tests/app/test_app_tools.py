"""Tools in the window, as a user meets them: a spoken sum computed and said, a timer that asks
first and is answered by voice, a timer that rings (also after Parley was closed and started
again), an MCP server of mcp.json used in a reply and stopped with Parley, Settings > Tools.

The real app on the 0.5B model pack (greedy), the real tools; the spoken turn through the
PulseAudio virtual microphone, whisper and the natural voice.
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from parley.app.controller import Controller
from parley.engine.library import packs
from parley.engine.tools.builtin import TimerBook
from parley.engine.tools.mcp.client import ServerState
from tests.support.app_helpers import make_controller, speak, spoken_clip, stored, wait_idle
from tests.support.mcp_servers import group_members
from tests.support.requirements import require

REPO = Path(__file__).resolve().parents[2]
SUM = "What is 1,234 times 5,678?"


@pytest.fixture(scope="module")
def qwen() -> Path:
    state = packs.pack_state(packs.find_pack("qwen2.5-coder-0.5b"))
    require(state.usable, "the 0.5B model pack (./setup.sh test)")
    return packs.pack_path(state.pack)


def qwen_settings(model: Path, **more: Any) -> dict[str, Any]:
    return {
        "chat_model": str(model),
        "temperature": 0.0,
        "max_tokens": 96,
        "context_length": 4096,
        "always_allowed_tools": [],
        **more,
    }


def last_reply(controller: Controller) -> Any:
    return controller.book.current.messages[-1]


@pytest.mark.pulseaudio
@pytest.mark.slow
def test_a_spoken_sum_is_computed_shown_as_a_step_and_said_aloud(qtbot, tmp_path, qwen, mic) -> None:
    clip = spoken_clip(tmp_path / "sum.wav", "What is 1234 times 5678?")
    controller = make_controller(
        qtbot,
        tmp_path,
        microphone="pulse",
        read_replies_aloud=True,
        read_aloud="from settings",
        **qwen_settings(qwen),
    )
    sounded: list[float] = []
    controller.spoken.first_sound.connect(lambda: sounded.append(time.monotonic()))
    speak(qtbot, controller, mic, clip)
    qtbot.waitUntil(lambda: bool(sounded), timeout=120_000)
    wait_idle(qtbot, controller)
    reply = last_reply(controller)
    assert "7,006,652" in reply.content, reply.content
    assert "7,006,652" in controller.spoken.said  # read aloud: the answer, never the call's JSON
    assert "{" not in controller.spoken.said
    steps = reply.stats["steps"]
    assert [(s["name"], s["status"]) for s in steps] == [("calculate", "done")]
    widget = controller.window.conversation_view.messages[-1]
    assert widget.steps_button.isVisible() and not widget.steps_text.isVisible()  # folded
    widget.steps_button.click()
    assert widget.steps_text.isVisible() and "Result: 1,234 × 5,678 = 7,006,652" in widget.steps_text.text()
    assert stored(controller)[-1][1] == reply.content  # kept with the conversation


def test_the_time_asked_is_told_at_once_and_the_conversation_goes_on(qtbot, tmp_path, qwen) -> None:
    """ "What time is it" leaves the clock nothing to write: the call is made without the model,
    and the next question is answered with the conversation read, the call's turn in it."""
    controller = make_controller(qtbot, tmp_path, **qwen_settings(qwen))
    controller.replies.send("what time is it")
    wait_idle(qtbot, controller)
    reply = last_reply(controller)
    assert re.search(r"\d{1,2}:\d{2}", reply.content), reply.content
    assert [(s["name"], s["arguments"], s["status"]) for s in reply.stats["steps"]] == [("get_time", {}, "done")]
    controller.replies.send("and what is the capital of France?")
    wait_idle(qtbot, controller)
    assert "Paris" in last_reply(controller).content
    assert [role for role, _, _ in stored(controller)] == ["user", "assistant", "user", "assistant"]


def test_a_timer_asks_first_in_the_window_and_by_voice_and_a_no_is_kept(qtbot, tmp_path, qwen) -> None:
    controller = make_controller(qtbot, tmp_path, **qwen_settings(qwen))
    view = controller.window.conversation_view
    asked: list[Any] = []
    controller.replies.asked.connect(asked.append)

    controller.replies.send("set a timer for ten minutes")
    qtbot.waitUntil(lambda: bool(asked), timeout=60_000)
    assert asked[0].text == "Shall I set a timer for 10 minutes?"
    qtbot.waitUntil(lambda: view.messages[-1].question_row.isVisible(), timeout=5_000)
    assert "Shall I set a timer for 10 minutes?" in controller.replies.text  # shown and read with the reply
    view.messages[-1].no_button.click()
    wait_idle(qtbot, controller)
    assert last_reply(controller).content == "All right, I won't set a timer for 10 minutes."
    assert controller.tools.timers.active() == [] and not view.messages[-1].question_row.isVisible()

    controller.replies.send("set a timer for ten minutes")
    qtbot.waitUntil(lambda: controller.replies.question is not None, timeout=60_000)
    controller.spoken_turn.heard("Yes, please.")  # the words of the next take: the answer
    wait_idle(qtbot, controller)
    assert [t.seconds for t in controller.tools.timers.active()] == [600]
    assert "10 minutes" in last_reply(controller).content
    assert [m.content for m in controller.book.current.messages if m.role == "user"] == [
        "set a timer for ten minutes",
        "set a timer for ten minutes",
    ]  # "Yes, please." answered; it was never sent as a message


def test_stopping_a_reply_that_asks_answers_no_and_keeps_the_conversation(qtbot, tmp_path, qwen) -> None:
    controller = make_controller(qtbot, tmp_path, **qwen_settings(qwen))
    controller.replies.send("remind me to call the dentist tomorrow at nine")
    qtbot.waitUntil(lambda: controller.replies.question is not None, timeout=60_000)
    controller.stop()
    wait_idle(qtbot, controller)
    assert controller.replies.question is None and controller.tools.timers.active() == []
    assert [role for role, _, _ in stored(controller)] == ["user", "assistant"]


def test_a_timer_rings_and_one_that_fell_due_while_parley_was_closed_rings_at_start(qtbot, tmp_path, qwen) -> None:
    missed = TimerBook(tmp_path, clock=lambda: time.time() - 3600)  # set an hour ago, for a minute
    missed.add_timer(60, "tea")
    controller = make_controller(qtbot, tmp_path, **qwen_settings(qwen))  # rings as it starts
    notice = controller.window.notice
    qtbot.waitUntil(lambda: "tea timer" in notice.label.text(), timeout=5_000)
    said = notice.label.text().splitlines()
    # "ended at 14:02", or "ended yesterday at 23:53" when the hour before the test was yesterday's
    missed_line = re.compile(r"Missed: your tea timer ended (yesterday )?at \d")
    assert any(missed_line.match(line) for line in said) and notice.isVisible(), said

    rang: list[tuple[str, bool]] = []
    controller.tools.rang.connect(lambda text, was_missed: rang.append((text, was_missed)))
    controller.tools.timers.add_timer(1, "egg")
    qtbot.waitUntil(lambda: bool(rang), timeout=10_000)
    assert rang == [("Your egg timer is done.", False)] and "Your egg timer is done." in notice.label.text()
    assert controller.tools.timers.active() == []


@pytest.mark.pulseaudio
@pytest.mark.slow
def test_a_timer_set_by_voice_rings_after_parley_starts_again(qtbot, tmp_path, qwen, mic) -> None:
    # "Set a timer…" alone was heard as "Santa Tiger 410 seconds" through the microphone in one run of
    # three: the espeak voice is borderline there; with "please" it is heard right at 110-150 wpm.
    clip = spoken_clip(tmp_path / "timer.wav", "Please set a timer for ten seconds.")
    allowed = qwen_settings(qwen, microphone="pulse", always_allowed_tools=["set_timer"])
    first = make_controller(qtbot, tmp_path, **allowed)
    speak(qtbot, first, mic, clip)
    qtbot.waitUntil(lambda: len(first.book.current.messages) >= 2, timeout=60_000)  # heard, replying
    wait_idle(qtbot, first)
    said = [(m.role, m.content) for m in first.book.current.messages]  # what was heard, what was answered
    assert [t.seconds for t in first.tools.timers.active()] == [10], said
    first.shutdown()  # Parley closes before the timer is done
    second = make_controller(qtbot, tmp_path, **qwen_settings(qwen))  # and starts again on the same folder
    rang: list[str] = []
    second.tools.rang.connect(lambda text, _missed: rang.append(text))
    qtbot.waitUntil(lambda: bool(rang), timeout=30_000)
    assert rang[0] == "Your 10-second timer is done." or rang[0].startswith("Missed: your 10-second timer"), rang


def test_an_mcp_server_of_mcp_json_answers_in_the_window_and_stops_with_parley(qtbot, tmp_path, qwen) -> None:
    server = {"command": sys.executable, "args": ["-m", "tests.support.mcp_servers", "pantry"], "cwd": str(REPO)}
    (tmp_path / "mcp.json").write_text(json.dumps({"mcpServers": {"pantry": server}}))
    controller = make_controller(qtbot, tmp_path, **qwen_settings(qwen))
    tools = controller.tools
    qtbot.waitUntil(lambda: any(s.state is ServerState.READY for s in tools.server_statuses()), timeout=60_000)
    box = tools.toolbox()
    assert box is not None and {"check_stock", "add_to_shopping_list", "list_shopping"} <= box.names
    controller.replies.asked.connect(lambda _question: controller.asking_first.clicked(True))  # a yes to any
    controller.replies.send("check the pantry stock: is there any milk left?")
    wait_idle(qtbot, controller)
    steps = last_reply(controller).stats.get("steps")
    assert steps, last_reply(controller).content
    assert {(s["source"], s["status"]) for s in steps} <= {("pantry", "done"), ("pantry", "declined")}
    pid = tools.server_statuses()[0].pid
    assert pid is not None and group_members(pid)
    controller.shutdown()
    assert group_members(pid) == [], "the MCP server outlived Parley"


def test_settings_tools_lists_the_tools_and_turns_a_server_off(qtbot, tmp_path, qwen) -> None:
    server = {"command": sys.executable, "args": ["-m", "tests.support.mcp_servers", "pantry"], "cwd": str(REPO)}
    (tmp_path / "mcp.json").write_text(json.dumps({"mcpServers": {"pantry": server}}))
    controller = make_controller(qtbot, tmp_path, **qwen_settings(qwen))
    qtbot.waitUntil(lambda: bool(controller.tools.server_statuses()), timeout=60_000)
    controller.open_settings()
    dialog = controller.settings_flow.dialog
    assert dialog is not None
    page = dialog.tools_page
    names = [page.tools.topLevelItem(i).text(0) for i in range(page.tools.topLevelItemCount())]
    assert {"Calculate", "Set a timer", "Read the clipboard"} <= set(names), names
    servers = page.servers
    qtbot.waitUntil(
        lambda: servers.topLevelItemCount() == 1 and "ready" in servers.topLevelItem(0).text(1), timeout=60_000
    )
    item = servers.topLevelItem(0)
    item.setCheckState(0, item.checkState(0).__class__.Unchecked)  # the tree is filled again after it
    qtbot.waitUntil(
        lambda: json.loads((tmp_path / "mcp.json").read_text())["mcpServers"]["pantry"].get("disabled") is True,
        timeout=10_000,
    )
    qtbot.waitUntil(lambda: controller.tools.server_statuses()[0].state is ServerState.OFF, timeout=10_000)
    dialog.reject()


def test_every_built_in_tool_title_is_translated_where_shown(qtbot, tmp_path) -> None:
    from parley.app.tools.clipboard import ClipboardTool
    from parley.app.ui.tools_page import BUILT_IN_TITLES
    from parley.engine.tools.builtin import builtin_tools

    titles = {tool.spec.title for tool in [*builtin_tools(TimerBook(tmp_path)), ClipboardTool()]}
    assert titles == set(BUILT_IN_TITLES)
