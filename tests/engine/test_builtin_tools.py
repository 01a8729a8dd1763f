"""The built-in tools as a toolbox holds them: few, each with a simple spec the toolbox accepts,
the arguments models write checked and run, and a description of each call that reads after
"Shall I ...". The tools' own work: test_builtin_calculator, _timers, _history."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from parley.engine.tools.builtin import TimerBook, builtin_tools
from parley.engine.tools.builtin.history import CONVERSATIONS_FILE, DICTATIONS_FILE, HistorySearch
from parley.engine.tools.tool import MAX_DESCRIPTION_CHARS, CheckedCall, Toolbox, ToolResult

PARIS = ZoneInfo("Europe/Paris")
NOW = datetime(2025, 12, 9, 14, 5, tzinfo=PARIS).timestamp()  # a Tuesday


class NeverCancelled:
    cancelled = False


@pytest.fixture
def toolbox(tmp_path: Path) -> Toolbox:
    book = TimerBook(tmp_path, clock=lambda: NOW, zone=PARIS)
    tools = builtin_tools(
        book,
        conversations=tmp_path / CONVERSATIONS_FILE,
        dictations=tmp_path / DICTATIONS_FILE,
        clock=lambda: NOW,
        zone=PARIS,
    )
    return Toolbox(tools)


def test_a_few_simple_tools_that_ask_before_they_change_anything(toolbox: Toolbox) -> None:
    assert sorted(toolbox.names) == [
        "calculate",
        "cancel_timer",
        "convert_units",
        "get_time",
        "list_timers",
        "search_history",
        "set_reminder",
        "set_timer",
    ]
    changing = {tool.spec.name for tool in toolbox if not tool.spec.read_only}
    assert changing == {"set_timer", "set_reminder", "cancel_timer"}
    for tool in toolbox:
        spec = tool.spec
        assert spec.title and spec.source == "built-in"
        assert len(spec.description) <= min(MAX_DESCRIPTION_CHARS, 160), spec.name
        properties = spec.parameters["properties"]
        assert spec.parameters["type"] == "object"
        assert len(properties) <= 3, spec.name  # a small model is confused by many parameters
        assert all(p["type"] in ("string", "number", "integer") and p["description"] for p in properties.values())
        assert set(spec.parameters.get("required", [])) <= set(properties)
        json.dumps(spec.function())  # what the prompt declares is plain JSON


CALLS = [
    ("get_time", '{"place": "Tokyo"}', "look up the time in Tokyo", "22:05 on Tuesday, 9 December 2025 in Tokyo"),
    ("get_time", "{}", "look up the time", "14:05 on Tuesday, 9 December 2025 (local time; Europe/Paris, UTC+1)."),
    ("get_time", '{"days_from_now": 100}', "look up the time", "Thursday, 19 March 2026 is 100 days from today"),
    ("get_time", '{"weeks_from_now": 3}', "look up the time", "Tuesday, 30 December 2025 is 21 days from today"),
    ("calculate", '{"expression": "1,234 times 5,678"}', "calculate 1,234 times 5,678", "1,234 × 5,678 = 7,006,652"),
    ("calculate", '{"expression": "15% of 80"}', "calculate 15% of 80", "15% of 80 = 12"),
    (
        "convert_units",
        '{"value": 5, "from_unit": "miles", "to_unit": "km"}',
        "convert 5 miles to km",
        "5 miles = 8.04672 kilometres",
    ),
    (
        "convert_units",
        '{"value": 98.6, "from_unit": "°F", "to_unit": "°C"}',
        "convert 98.6 °F to °C",
        "98.6 degrees Fahrenheit = 37 degrees Celsius",
    ),
    (
        "set_timer",
        '{"duration": "10 minutes", "label": "pasta"}',
        "set a pasta timer for 10 minutes",
        "Pasta timer set for 10 minutes; it rings at 14:15 (#1).",
    ),
    (
        "set_timer",
        '{"duration": "90 seconds"}',
        "set a timer for 1 minute 30 seconds",
        "Timer set for 1 minute 30 seconds",
    ),
    (
        "set_reminder",
        '{"message": "call the dentist", "time": "tomorrow at 9"}',
        "set a reminder for tomorrow at 09:00: call the dentist",
        "Reminder set for tomorrow at 09:00: call the dentist",
    ),
    ("list_timers", "", "list your timers and reminders", "No timers or reminders are set."),
    ("cancel_timer", '{"which": "pasta"}', 'cancel the timer "pasta"', "Error: no timers or reminders are set"),
    (
        "search_history",
        '{"words": "dentist", "when": "last week"}',
        'search your conversations and dictations for "dentist"',
        "There are no saved conversations or dictations to search yet.",
    ),
]


@pytest.mark.parametrize(("name", "arguments", "description", "answer"), CALLS)
def test_the_arguments_models_write_are_accepted_described_and_run(
    toolbox: Toolbox, name: str, arguments: str, description: str, answer: str
) -> None:
    call = toolbox.check(name, arguments, call_id="call_1")
    assert isinstance(call, CheckedCall), call
    assert call.describe() == description
    result = toolbox.run(call, NeverCancelled())
    assert result.text.startswith(answer), result.text
    assert result.summary


def test_a_timer_set_then_named_is_described_by_what_it_cancels(toolbox: Toolbox) -> None:
    set_call = toolbox.check("set_timer", '{"duration": "10 minutes", "label": "pasta"}')
    assert isinstance(set_call, CheckedCall)
    toolbox.run(set_call, NeverCancelled())
    cancel = toolbox.check("cancel_timer", '{"which": "the pasta timer"}')
    assert isinstance(cancel, CheckedCall)
    assert cancel.describe() == "cancel the pasta timer"
    assert toolbox.run(cancel, NeverCancelled()).text == "Cancelled the pasta timer."


@pytest.mark.parametrize(
    ("name", "arguments", "problem"),
    [
        ("calculate", '{"expression": 5}', "is not of type 'string'"),
        ("convert_units", '{"value": "five", "from_unit": "mi", "to_unit": "km"}', "is not of type 'number'"),
        ("convert_units", '{"value": 5}', "'from_unit' is a required property"),
        ("get_time", '{"days_from_now": 1000000}', "is greater than the maximum"),
        ("set_reminder", '{"message": "call"}', "'time' is a required property"),
        ("set_alarm", '{"time": "7am"}', "there is no tool named 'set_alarm'"),
    ],
)
def test_arguments_off_the_schema_never_reach_a_tool(toolbox: Toolbox, name: str, arguments: str, problem: str) -> None:
    result = toolbox.check(name, arguments)
    assert isinstance(result, ToolResult) and result.is_error
    assert problem in result.text


def test_a_tool_never_raises_on_odd_arguments(toolbox: Toolbox) -> None:
    odd = ['{"expression": "%%%%"}', '{"place": "\\u0000"}', '{"which": "#999"}', '{"words": "", "when": ""}']
    for tool in toolbox:
        for arguments in odd:
            call = toolbox.check(tool.spec.name, arguments)
            if isinstance(call, CheckedCall):
                assert isinstance(call.describe(), str)
                assert isinstance(toolbox.run(call, NeverCancelled()), ToolResult)


def test_the_defaults_are_parleys_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARLEY_DATA_DIR", str(tmp_path))
    book = TimerBook()
    assert book.path == tmp_path / "timers.json"
    (history,) = [tool for tool in builtin_tools(book) if isinstance(tool, HistorySearch)]
    assert (history.conversations, history.dictations) == (tmp_path / CONVERSATIONS_FILE, tmp_path / DICTATIONS_FILE)
