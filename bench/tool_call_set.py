"""A set of tool calls for ``bench_serve.py --features``: 60 requests, each with the tools on
offer, a user's message, and the one call (name and arguments) that answers it.

Single-argument and multi-argument calls, strings, integers, numbers, enums and booleans; every
request offers all six tools, so the name must be chosen.  A reply scores when its first call
has the right name and its arguments parse as JSON and match (strings compared without case and
surrounding space, numbers by value; arguments the schema leaves optional may be left out only
where the expected call leaves them out too).
"""

from __future__ import annotations

import json
from typing import Any


def _tool(name: str, description: str, properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    parameters = {"type": "object", "properties": properties, "required": required}
    return {"type": "function", "function": {"name": name, "description": description, "parameters": parameters}}


TOOLS = [
    _tool(
        "get_weather",
        "The current weather in a city",
        {"city": {"type": "string"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
        ["city", "unit"],
    ),
    _tool("add", "Add two integers", {"a": {"type": "integer"}, "b": {"type": "integer"}}, ["a", "b"]),
    _tool(
        "convert_currency",
        "Convert an amount of money from one currency to another",
        {
            "amount": {"type": "number"},
            "from_currency": {"type": "string", "description": "ISO code, e.g. USD"},
            "to_currency": {"type": "string", "description": "ISO code, e.g. EUR"},
        },
        ["amount", "from_currency", "to_currency"],
    ),
    _tool(
        "set_timer",
        "Start a countdown timer",
        {"minutes": {"type": "integer"}, "label": {"type": "string"}},
        ["minutes", "label"],
    ),
    _tool(
        "translate",
        "Translate text into a language",
        {"text": {"type": "string"}, "language": {"type": "string"}},
        ["text", "language"],
    ),
    _tool(
        "set_light",
        "Switch a room's light on or off",
        {"room": {"type": "string"}, "on": {"type": "boolean"}},
        ["room", "on"],
    ),
]

CITIES = ["Paris", "Tokyo", "Lima", "Oslo", "Cairo", "Sydney", "Toronto", "Madrid", "Nairobi", "Seoul"]
SUMS = [(2, 3), (17, 25), (120, 35), (7, 8), (1000, 234), (56, 44), (9, 91), (300, 12), (45, 55), (63, 7)]
MONEY = [
    (100, "USD", "EUR"),
    (250, "GBP", "JPY"),
    (19.99, "EUR", "USD"),
    (5000, "JPY", "GBP"),
    (75, "CHF", "EUR"),
    (12.5, "USD", "CAD"),
    (300, "AUD", "USD"),
    (40, "EUR", "SEK"),
    (1000, "INR", "USD"),
    (60, "CAD", "MXN"),
]
TIMERS = [
    (5, "tea"),
    (10, "pasta"),
    (25, "work"),
    (3, "eggs"),
    (45, "bread"),
    (15, "laundry"),
    (8, "rice"),
    (30, "meeting"),
    (2, "break"),
    (20, "nap"),
]
PHRASES = [
    ("good morning", "French"),
    ("thank you", "Spanish"),
    ("where is the station", "German"),
    ("I love books", "Italian"),
    ("see you tomorrow", "Japanese"),
    ("happy birthday", "Portuguese"),
    ("the cat is black", "Dutch"),
    ("good night", "Swedish"),
    ("how are you", "Polish"),
    ("welcome", "Greek"),
]
LIGHTS = [
    ("kitchen", True),
    ("bedroom", False),
    ("garage", True),
    ("office", False),
    ("hallway", True),
    ("bathroom", False),
    ("living room", True),
    ("porch", False),
    ("attic", True),
    ("basement", False),
]


def cases() -> list[tuple[str, str, dict[str, Any]]]:
    """(user message, expected function, expected arguments), 60 of them."""
    out: list[tuple[str, str, dict[str, Any]]] = []
    for i, city in enumerate(CITIES):
        unit = "celsius" if i % 2 == 0 else "fahrenheit"
        out.append((f"What's the weather in {city} right now, in {unit}?", "get_weather", {"city": city, "unit": unit}))
    for a, b in SUMS:
        out.append((f"Use the calculator to add {a} and {b}.", "add", {"a": a, "b": b}))
    for amount, src, dst in MONEY:
        want = {"amount": amount, "from_currency": src, "to_currency": dst}
        out.append((f"How much is {amount} {src} in {dst}?", "convert_currency", want))
    for minutes, label in TIMERS:
        out.append((f"Set a {minutes} minute timer called {label}.", "set_timer", {"minutes": minutes, "label": label}))
    for text, language in PHRASES:
        out.append((f'Translate "{text}" into {language}.', "translate", {"text": text, "language": language}))
    for room, on in LIGHTS:
        out.append((f"Turn {'on' if on else 'off'} the light in the {room}.", "set_light", {"room": room, "on": on}))
    return out


def _same(got: Any, want: Any) -> bool:
    if isinstance(want, bool) or isinstance(got, bool):
        return got is want
    if isinstance(want, (int, float)):
        return isinstance(got, (int, float)) and abs(got - want) < 1e-6
    if isinstance(want, str):
        return isinstance(got, str) and got.strip().lower() == want.strip().lower()
    return bool(got == want)


def score(tool_calls: list[dict[str, Any]] | None, name: str, arguments: dict[str, Any]) -> tuple[bool, bool]:
    """(the name is right, the name and every argument are right) for a reply's OpenAI ``tool_calls``."""
    if not tool_calls:
        return False, False
    function = tool_calls[0].get("function", {})
    if function.get("name") != name:
        return False, False
    try:
        got = json.loads(function.get("arguments") or "{}")
    except ValueError:
        return True, False
    if not isinstance(got, dict) or set(got) != set(arguments):
        return True, False
    return True, all(_same(got[k], v) for k, v in arguments.items())
