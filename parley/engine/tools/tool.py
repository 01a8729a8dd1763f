"""What a tool is, and the toolbox that stands between a model's call and the tool.

A model's call is untrusted text: its name may be unknown, its arguments malformed or off the
schema, and it may loop.  ``Toolbox.check`` turns a parsed call into a ``CheckedCall`` (the tool
and its arguments as a dict, matching the tool's parameters) or a ``ToolResult`` error the model
reads back; ``Toolbox.run`` runs a checked call and bounds what it returns.  A tool's result is
data for the model, never an instruction: whether a call may run without asking is decided by
the caller from ``ToolSpec.read_only`` and the user's choices, never from anything a tool said.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Protocol

from ..backend.cancel import CancelFlag
from ..errors import Cancelled
from .numerals import clock_words, in_digits

log = logging.getLogger("parley.tools")

NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,63}$")  # what every template and the server accept
MAX_DESCRIPTION_CHARS = 1024  # a tool's description as the model reads it
MAX_SCHEMA_BYTES = 16 * 1024  # a tool's parameters, as JSON
MAX_RESULT_CHARS = 8000  # what the model reads of a result (about 2,000 tokens)
BUILT_IN = "built-in"  # the source of the tools that come with Parley
NO_TOOL = "no_tool"  # the choice of no tool (tools.turn): a name no tool may take
# How plainly a request is a tool's business (``Toolbox.relevance``; builtin.cues): sure (the model
# is made to call one of the sure tools), maybe (the model decides), never (a call is not run).
SURE, MAYBE, NEVER = 1.0, 0.5, 0.0


@dataclasses.dataclass(frozen=True)
class ToolSpec:
    """A tool as the model and the user see it."""

    name: str  # unique in a toolbox; NAME
    description: str  # for the model: what it does and when to use it
    parameters: Mapping[str, Any]  # a JSON Schema of type object
    read_only: bool  # only reads: runs without asking
    source: str = BUILT_IN  # BUILT_IN or the MCP server's name
    title: str = ""  # for people ("Set a timer"); the name when empty

    def function(self) -> dict[str, Any]:
        """The OpenAI-style declaration templates read."""
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": dict(self.parameters)},
        }


@dataclasses.dataclass(frozen=True)
class ToolResult:
    """What a call gave: ``text`` for the model (bounded by the toolbox), ``summary`` a few words
    for people (the window's step), ``is_error`` when it failed, and ``answer``: the whole reply
    to the user's request in a sentence or two, worded to be read aloud ("1,234 times 5,678 is
    7,006,652."), when the result is one; the turn then says it instead of asking the model to
    word the result again (``turn``)."""

    text: str
    summary: str = ""
    is_error: bool = False
    answer: str = ""

    @classmethod
    def error(cls, message: str) -> ToolResult:
        return cls(text=f"Error: {message}", summary=message, is_error=True)


class Tool(Protocol):
    """A callable tool: its spec, a description of a call for people, and the call itself."""

    @property
    def spec(self) -> ToolSpec: ...

    def describe(self, arguments: Mapping[str, Any]) -> str:
        """The call in a few words for people, as the end of "Shall I ...?" ("set a timer for
        10 minutes"); never raises."""
        ...

    def run(self, arguments: Mapping[str, Any], cancel: CancelFlag) -> ToolResult:
        """Do it.  ``arguments`` match ``spec.parameters`` (the toolbox checked them).  Returns a
        result (an error result for a failure the model should hear about); may raise only
        ``Cancelled`` when ``cancel`` is set."""
        ...


@dataclasses.dataclass(frozen=True)
class CheckedCall:
    tool: Tool
    arguments: dict[str, Any]
    id: str = ""  # the call's id in the conversation

    @property
    def name(self) -> str:
        return self.tool.spec.name

    def describe(self) -> str:
        try:
            return self.tool.describe(self.arguments) or self.name
        except Exception:  # noqa: BLE001  (a description is never worth a failed reply)
            return self.name


class Toolbox:
    """The tools offered in one conversation, by name."""

    def __init__(self, tools: Iterable[Tool] = ()) -> None:
        self._tools: dict[str, Tool] = {}
        for tool in tools:
            self.add(tool)

    def add(self, tool: Tool) -> None:
        """Add ``tool``; ValueError for a name that is malformed or already taken."""
        name = tool.spec.name
        if not NAME.match(name):
            raise ValueError(f"a tool's name must be 1-64 letters, digits, _ or -, starting with a letter: {name!r}")
        if name in self._tools:
            raise ValueError(f"two tools are named {name!r}")
        self._tools[name] = tool

    def __iter__(self) -> Iterator[Tool]:
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def plainly_for(self, request: str) -> bool:
        """Whether ``request`` is plainly some tool's business ("set a timer for ten minutes")."""
        return any(self.relevance(tool.spec.name, request) >= SURE for tool in self)

    def relevance(self, name: str, request: str) -> float:
        """How plainly ``request`` is tool ``name``'s business: its own ``relevance(request)``
        where it has one (the built-in tools' cues), ``MAYBE`` for a tool without (an MCP
        server's), ``NEVER`` for a name no tool has."""
        tool = self._tools.get(name)
        if tool is None:
            return NEVER  # no such tool: the call is a confusion
        judge = getattr(tool, "relevance", None)
        if judge is None:
            return MAYBE
        try:
            return float(judge(request))
        except Exception:  # noqa: BLE001  (a cue that fails decides nothing)
            return MAYBE

    def parameters_for(self, name: str, request: str) -> dict[str, Any]:
        """The parameters a forced call of tool ``name`` writes for ``request``: the tool's own
        ``parameters_for`` where it has one (the built-ins narrow theirs to what the request
        names), its declared parameters otherwise; a call is always checked against those."""
        tool = self._tools[name]
        narrow = getattr(tool, "parameters_for", None)
        if narrow is not None:
            try:
                return dict(narrow(request))
            except Exception:  # noqa: BLE001  (a cue that fails narrows nothing)
                log.exception("%s: parameters_for failed", name)
        return dict(tool.spec.parameters)

    def arguments_from(self, name: str, request: str) -> dict[str, Any] | None:
        """The arguments ``request`` gives tool ``name`` as it is, read by the tool's own parser
        (a built-in's ``arguments_from``: "what's 14 times 23" is the calculator's "14 times
        23"), so that a forced call needs no model; None where the model is to write them."""
        read = getattr(self._tools[name], "arguments_from", None)
        if read is None:
            return None
        try:
            found = read(request)
        except Exception:  # noqa: BLE001  (a parser that fails reads nothing)
            log.exception("%s: arguments_from failed", name)
            return None
        return None if found is None else dict(found)

    @property
    def names(self) -> set[str]:
        return set(self._tools)

    def declarations(self) -> list[dict[str, Any]]:
        """The tools as the prompt declares them."""
        return [tool.spec.function() for tool in self._tools.values()]

    def check(self, name: str, arguments: str, call_id: str = "") -> CheckedCall | ToolResult:
        """A model's call (``arguments``: JSON text) made ready to run, or the error result the
        model reads instead: an unknown tool, arguments that are not a JSON object or do not
        match the tool's parameters."""
        tool = self._tools.get(name)
        if tool is None:
            known = ", ".join(sorted(self._tools)) or "none"
            return ToolResult.error(f"there is no tool named {name[:64]!r} (the tools: {known})")
        try:
            value = json.loads(arguments) if arguments.strip() else {}
        except (ValueError, RecursionError):
            return ToolResult.error(f"the arguments of {name} are not valid JSON")
        if not isinstance(value, dict):
            return ToolResult.error(f"the arguments of {name} must be a JSON object")
        problem = schema_problem(tool.spec.parameters, value)
        if problem:
            return ToolResult.error(f"the arguments of {name} do not fit its parameters: {problem}")
        return CheckedCall(tool, value, call_id)

    def run(self, call: CheckedCall, cancel: CancelFlag) -> ToolResult:
        """Run a checked call; an exception the tool lets out (a bug, or a peer's failure) is an
        error result, and the result's text is cut to ``MAX_RESULT_CHARS``."""
        try:
            result = call.tool.run(call.arguments, cancel)
        except Cancelled:
            raise
        except Exception as exc:  # noqa: BLE001  (a tool's failure is the model's to hear, not the reply's end)
            result = ToolResult.error(f"{call.name} failed: {_first_line(exc)}")
        return bounded(result)


_STOP_WORDS = frozenset(
    """a about after all also am an and any are as at be been before but by can could did do does doing done
    for from get give go got had has have how i if in into is it its just let like make me more most my no not
    now of off on one or our out please put say see set should so some tell than that the their them then there
    these they this to too up us use used using want was we well were what when where which who whom why will
    with would you your yours an item items thing things value values something someone many much""".split()
)


def _content_words(text: str) -> set[str]:
    """The words that carry meaning, lower case, in a rough singular ("rooms" -> "room",
    "booking" -> "book"): what a request and a tool's description are matched by."""
    words = set()
    for word in re.findall(r"[a-z]+", text.lower().replace("_", " ")):
        if len(word) < 3 or word in _STOP_WORDS:
            continue
        for ending in ("ings", "ing", "ies", "es", "ed", "s"):
            if word.endswith(ending) and len(word) - len(ending) >= 3:
                word = word[: -len(ending)] + ("y" if ending == "ies" else "")
                break
        words.add(word)
    return words


def shares_words(request: str, names: tuple[str, ...], texts: tuple[str, ...]) -> bool:
    """Whether ``request`` is about what a tool without cues of its own (an MCP server's) does:
    it has a meaningful word of the tool's ``names`` (its name, title, server), or two of all its
    words (``texts`` too: its description), or one of them in a request about what only a tool
    knows (``own_things``: "where does Ada sit" for a directory's "where they sit", "are we out
    of coffee" for a pantry's "(eggs, milk, flour, coffee...)").  One word of a description alone
    is too little: "what's your name" shares one with a directory's "their name", "how do I
    boil an egg" one with a pantry's.  The verb a tool's name begins with is one of its
    description's words here: "check if Orion is free" is not about ``check_stock``."""
    wanted = _content_words(request)
    named = set().union(*(_content_words(text) for text in names))
    described = named.union(*(_content_words(text) for text in texts))
    verb = _content_words(_name_verb(names[0])) if names else set()
    shared = wanted & described
    return bool(wanted & named - verb) or len(shared) >= 2 or (bool(shared - verb) and own_things(request))


_OURS = re.compile(r"\b(?:we|we've|we're|we'd|our|ours|us)\b", re.IGNORECASE)


@functools.lru_cache(maxsize=8)  # asked once per server tool of the same request
def own_things(request: str) -> bool:
    """Whether ``request`` asks about someone's or something's own things, which a tool may know
    and a model cannot: it names someone (``proper_names``: "which team is Alan Turing on") or
    speaks of what we have ("do we still have flour", "our shopping")."""
    return bool(proper_names(request)) or bool(_OURS.search(request))


_NOT_NAMES = frozenset({"i", "i'm", "i'd", "i'll", "i've", "ok", "okay"})


def proper_names(text: str) -> list[str]:
    """The words of ``text`` written as names: capitalised, not at the start of a sentence (where
    every word is), nor "I" ("where does Ada sit", "which team is Alan Turing on"; whisper writes
    names so)."""
    found = []
    for match in re.finditer(r"[A-Za-z][\w']*", text):
        word, i = match.group(), match.start() - 1
        while i >= 0 and text[i].isspace():  # the mark before it, past the spaces
            i -= 1
        if word[0].isupper() and i >= 0 and text[i] not in '.?!:;"' and word.lower() not in _NOT_NAMES:
            found.append(word)
    return found


def _name_verb(name: str) -> str:
    """The word a tool's name begins with ("check" of ``check_stock``, ``checkStock``)."""
    return re.split(r"[_\-\s]+|(?<=[a-z])(?=[A-Z])", name.strip())[0].lower()


_POLITE = re.compile(
    r"^(?:(?:ok(?:ay)?|hey|so|now|and|then|please|can you|could you|would you|will you|i want to|i'd like to|"
    r"i would like to|let's|lets|go and|quickly)\s+)*"
)


def named_by_verb(request: str, name: str, texts: tuple[str, ...]) -> bool:
    """Whether ``request`` plainly asks for what a tool without cues of its own (an MCP
    server's) does: it begins with the verb the tool's name begins with ("book Lyra at 9" for
    ``book_room``, "add coffee to the shopping list" for ``add_to_shopping_list``), and shares
    another meaningful word with the tool (its name, title or description: "hour" with "for
    some minutes" counts; "check if Orion is free" shares none with ``check_stock``)."""
    verb = _name_verb(name)
    if len(verb) < 3 or verb in _STOP_WORDS:
        return False
    start = _POLITE.sub("", request.strip().lower(), count=1)
    if not re.match(rf"{re.escape(verb)}\b", start):
        return False
    wanted = _content_words(request) - _content_words(verb)
    known = set().union(*(_content_words(text) for text in (name, *texts))) - _content_words(verb)
    return bool({w[:5] for w in wanted} & {w[:5] for w in known})


def grounded(arguments: str, request: str) -> bool:
    """Whether a call's arguments (JSON text) come from ``request``: each string in them that
    has meaningful words shares one with it ("Vega" for "is Vega free"; a word's other forms
    count: "eggs" for "how many eggs").  A call a model offered tools made up ("book
    'Conference Room 101'" for "is it rude to be 5 minutes late to a meeting") has none.
    Numbers in it share one with the request's where the request has any ("0.12 * 85" for "12%
    of 85"); strings of no word and no number other than a clock time ("15:00") say nothing
    (a server's clock times: ``times_said``)."""
    try:
        value = json.loads(arguments) if arguments.strip() else {}
    except (ValueError, RecursionError):
        return True  # not a call that can run: the check says why
    said = {word[:5] for word in _content_words(request)}
    strings: list[str] = []

    def collect(item: Any, depth: int = 0) -> None:
        if depth > 8 or len(strings) > 64:
            return
        if isinstance(item, str):
            strings.append(item[:400])
        elif isinstance(item, dict):
            for inner in item.values():
                collect(inner, depth + 1)
        elif isinstance(item, list):
            for inner in item:
                collect(inner, depth + 1)

    collect(value)
    said_numbers = _numbers(request)
    for text in strings:
        words = {word[:5] for word in _content_words(text)}
        if words and not words & said:
            return False
        numbers = _numbers(text)
        if numbers and said_numbers and not numbers & said_numbers:
            return False  # "1234 * 5678" for "name 3 rivers in Europe": the offer's example, not the request's
    return True


def times_said(arguments: str, request: str) -> bool:
    """Whether each clock time in a call's arguments (JSON text) is one ``request`` names, where
    it names any: "14:30" (the time now, or a guess) for "book it at 3" is not; any time is, for
    a request that names none (it may come from a tool's result: "the next free slot")."""
    named = said_times(request)
    if not named:
        return True
    for hours, minutes in _CLOCK.findall(arguments[:4000]):
        if (int(hours), int(minutes)) not in named:
            return False
    return True


_CLOCK = re.compile(r"\b([01]?\d|2[0-3]):([0-5]\d)\b")
_SAID_TIME = re.compile(
    r"\b(?:at|by|until|till|from|to)\s+(\d{1,2})(?::([0-5]\d))?(?:\s*([ap])\.?\s?m\b\.?)?", re.IGNORECASE
)


def said_times(request: str) -> set[tuple[int, int]]:
    """The clock times ``request`` names ("at 3", "by 6:30 pm", "from 15:00", "at half one"),
    each as the hours and minutes it may mean: "at 3" is 03:00 or 15:00."""
    times: set[tuple[int, int]] = set()
    for hours, minutes, half in _SAID_TIME.findall(clock_words(in_digits(request.lower()))):
        hour, minute = int(hours), int(minutes or 0)
        if hour > 23:
            continue
        if half:
            if hour > 12:
                continue
            times.add((hour % 12 + (12 if half.lower() == "p" else 0), minute))
        else:
            times |= {(hour, minute), (hour + 12, minute)} if hour < 12 else {(hour, minute)}
    return times


def _numbers(text: str) -> set[str]:
    """The numbers in ``text``, as plain digits ("1,234.50" -> "1234.5"); clock times are no
    numbers here ("15:00" for "at 3")."""
    plain = re.sub(r"\d{1,2}:\d{2}", " ", text.replace(",", ""))
    found = re.findall(r"\d+(?:\.\d+)?", plain)
    return {n.rstrip("0").rstrip(".") if "." in n else n for n in found[:64]}


def bounded(result: ToolResult) -> ToolResult:
    """``result`` with its text cut to ``MAX_RESULT_CHARS`` (saying so)."""
    if len(result.text) <= MAX_RESULT_CHARS:
        return result
    cut = result.text[:MAX_RESULT_CHARS]
    note = f"\n[... cut: the result had {len(result.text):,} characters, only the first {MAX_RESULT_CHARS:,} are shown]"
    return dataclasses.replace(result, text=cut + note)


def schema_problem(schema: Mapping[str, Any], value: Any) -> str:
    """Why ``value`` does not match the JSON Schema ``schema`` ("" when it does).  A schema the
    validator cannot read counts as matching nothing but an object (its own problem is said)."""
    try:
        import jsonschema  # the mcp SDK's own dependency; only needed once a call is checked
    except ImportError:  # its Rust part (rpds-py) does not load on Wine 8.0: the plain checks
        return _plain_problem(schema, value)
    try:
        validator_class = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
        validator = validator_class(schema)
        error = jsonschema.exceptions.best_match(validator.iter_errors(value))
    except (jsonschema.exceptions.SchemaError, RecursionError, TypeError, ValueError) as exc:
        return "" if isinstance(value, dict) else f"the tool's schema cannot be read ({_first_line(exc)})"
    if error is None:
        return ""
    where = "/".join(str(p) for p in error.absolute_path)
    return f"{where + ': ' if where else ''}{error.message[:200]}"


_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
    "null": (type(None),),
}


def _plain_problem(schema: Mapping[str, Any], value: Any) -> str:
    """The checks a call gets where jsonschema cannot load: an object, its required keys, each
    known key's type and enum."""
    if not isinstance(value, dict):
        return "not an object"
    missing = [key for key in schema.get("required", ()) if isinstance(key, str) and key not in value]
    if missing:
        return f"{missing[0]!r} is a required property"
    found = schema.get("properties")
    properties: dict[str, Any] = found if isinstance(found, dict) else {}
    for key, item in value.items():
        spec = properties.get(key)
        if not isinstance(spec, dict):
            continue
        kinds = spec.get("type")
        names = [kinds] if isinstance(kinds, str) else [k for k in kinds or () if isinstance(k, str)]
        allowed = tuple(t for name in names for t in _JSON_TYPES.get(name, ()))
        wrong_bool = isinstance(item, bool) and "boolean" not in names
        if names and allowed and (not isinstance(item, allowed) or wrong_bool):
            return f"{key}: {item!r:.60} is not of type {' or '.join(names)}"
        if isinstance(spec.get("enum"), list) and item not in spec["enum"]:
            return f"{key}: {item!r:.60} is not one of {spec['enum']!r:.120}"
    return ""


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0][:300] if text else type(exc).__name__
