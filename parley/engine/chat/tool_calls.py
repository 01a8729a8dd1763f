"""Tool calls in a model's reply: the families' formats, parsed whole or as the reply streams.

A reply may call tools in any of the forms the catalog's families write:

- Qwen / Hermes (and every template without tools of its own, which is told to write this form):
  ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>``, one block per call;
- Llama 3.x: a JSON object ``{"name": ..., "parameters": {...}}`` as the whole reply, or after
  ``<|python_tag|>``, several separated by ``;``;
- Mistral: ``[TOOL_CALLS]`` and a JSON array of ``{"name", "arguments"}`` (or the newer
  ``[TOOL_CALLS]name[ARGS]{...}``);
- Gemma: a ````` ```tool_code ````` block holding Python calls ``name(key=value, ...)`` whose
  arguments are literals (read with ``ast``, never run);
- any family, now and then: a ````` ```json ````` block, or a ``<tools>`` element (the tag that
  lists tools in the Hermes prompt), holding call objects, as small models write them in place
  of their own form (Qwen2.5-Coder 1.5B), followed or not by more text; a block that holds no
  call of a known name stays text.

The name must be one of the request's tools and the arguments a JSON object; anything else (a
malformed call, an unknown name) stays in the reply's text, so a model's mistake reaches the
client as content, never as an error.  ``ToolCallStream`` gives the same result piece by piece:
text as it comes (held back only where a call may be starting), then each call's name as soon as
it is known and its arguments' JSON text as it is written, as OpenAI streams them.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import re
import uuid
from typing import Any

START_MARKERS = ("<tool_call>", "[TOOL_CALLS]", "<|python_tag|>", "```tool_code", "```json", "<tools>")
END_MARKERS = {"<tool_call>": "</tool_call>", "```tool_code": "```", "```json": "```", "<tools>": "</tools>"}
_HEAD = re.compile(r'\s*\{\s*"(?:name|function)"\s*:\s*"((?:[^"\\]|\\.)*)"\s*,\s*"(?:arguments|parameters)"\s*:\s*')


@dataclasses.dataclass
class ToolCall:
    name: str
    arguments: str  # a JSON object, as text
    id: str = dataclasses.field(default_factory=lambda: f"call_{uuid.uuid4().hex[:24]}")


def parse_reply(text: str, names: set[str]) -> tuple[str, list[ToolCall]]:
    """The reply's text without its tool calls, and the calls (see the module docstring)."""
    calls: list[ToolCall] = []
    kept: list[str] = []
    rest = text
    while rest:
        start, marker = _first_marker(rest)
        if marker is None:
            if not calls and not "".join(kept).strip():
                bare = _bare_calls(rest, names)
                if bare:
                    calls += bare
                    rest = ""
                    break
            kept.append(rest)
            break
        kept.append(rest[:start])
        body_start = start + len(marker)
        end_marker = END_MARKERS.get(marker)
        end = rest.find(end_marker, body_start) if end_marker else -1
        body = rest[body_start : end if end >= 0 else len(rest)]
        found = _calls_in(marker, body, names)
        if found:
            calls += found
        else:
            kept.append(rest[start : end + len(end_marker) if end >= 0 and end_marker else len(rest)])
        rest = rest[end + len(end_marker) :] if end >= 0 and end_marker else ""
    return "".join(kept).strip(), calls


def _first_marker(text: str) -> tuple[int, str | None]:
    hits = [(i, m) for m in START_MARKERS if (i := text.find(m)) >= 0]
    return min(hits) if hits else (-1, None)


def _calls_in(marker: str, body: str, names: set[str]) -> list[ToolCall]:
    if marker == "```tool_code":
        return _python_calls(body, names)
    if marker == "[TOOL_CALLS]":
        named = re.fullmatch(r"\s*([A-Za-z0-9_.-]+)\s*(?:\[ARGS\])?\s*(\{.*\})\s*", body, re.S)
        if named:
            return _checked([{"name": named.group(1), "arguments": _loads(named.group(2))}], names)
    return _bare_calls(body, names)


def _bare_calls(text: str, names: set[str]) -> list[ToolCall]:
    """JSON call objects: one, an array of them, or several one after the other (separated by
    whitespace, ',' or ';'); a ```json fence around them is allowed.  Calls followed by text
    that is none count when they are most of it (a small model writes the call, then echoes
    its schema)."""
    stripped = text.strip()
    fenced = re.fullmatch(r"```(?:json)?\s*(.*?)\s*```", stripped, re.S)
    if fenced:
        stripped = fenced.group(1)
    items: list[Any] = []
    decoder, at = json.JSONDecoder(), 0
    while at < len(stripped):
        try:
            value, at = decoder.raw_decode(stripped, at)
        except (ValueError, RecursionError):
            break  # what follows the calls is no call: a small model's echo of the schema, say
        found = value if isinstance(value, list) else [value]
        if items and not _checked(found, names):
            break
        items += found
        while at < len(stripped) and stripped[at] in " \t\r\n;,":
            at += 1
    else:
        return _checked(items, names) if items else []
    calls = _checked(items, names)
    return calls if calls and at > len(stripped) // 2 else []


def _checked(items: list[Any], names: set[str]) -> list[ToolCall]:
    """Calls from ``{"name", "arguments" | "parameters"}`` objects; none unless every item is one."""
    calls = []
    for item in items:
        if not isinstance(item, dict):
            return []
        name = item.get("name", item.get("function"))
        arguments = item.get("arguments", item.get("parameters", {}))
        if isinstance(arguments, str):
            arguments = _loads(arguments)
        if not isinstance(name, str) or name not in names or not isinstance(arguments, dict):
            return []
        calls.append(ToolCall(name, json.dumps(arguments, ensure_ascii=False)))
    return calls


def _python_calls(body: str, names: set[str]) -> list[ToolCall]:
    try:
        tree = ast.parse(body.strip(), mode="exec")
    except (SyntaxError, ValueError, RecursionError):
        return []
    calls = []
    for statement in tree.body:
        if not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)):
            return []
        call = statement.value
        if not isinstance(call.func, ast.Name) or call.func.id not in names or call.args:
            return []
        try:
            arguments = {k.arg: ast.literal_eval(k.value) for k in call.keywords if k.arg}
            calls.append(ToolCall(call.func.id, json.dumps(arguments, ensure_ascii=False)))
        except (ValueError, TypeError, SyntaxError, RecursionError):
            return []
    return calls


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


# --------------------------------------------------------------------------- streaming


@dataclasses.dataclass
class ToolDelta:
    """A piece of a streamed call: the first has ``id`` and ``name``, the next ones arguments."""

    index: int
    arguments: str
    id: str | None = None
    name: str | None = None


class ToolCallStream:
    """Reply text in, content and tool-call pieces out (``push`` per piece, ``finish`` at the end).

    The streamed pieces add up to what ``parse_reply`` gives for the whole text, with one
    difference for a malformed call: a call whose name was already sent (its JSON broke later)
    stays as sent, and its text is sent as content as well.
    """

    def __init__(self, names: set[str]) -> None:
        self.names = names
        self.calls: list[ToolCall] = []
        self._pending = ""  # text not yet sent, where a call may begin
        self._sent_text = False
        self._call: str | None = None  # the marker of the call being read ("" for a bare JSON call)
        self._body = ""
        self._streamed = 0  # characters of the current call's arguments sent
        self._head: tuple[str, int] | None = None  # (name, where its arguments start in the body)
        self._delta_call: ToolCall | None = None

    def push(self, piece: str) -> list[str | ToolDelta]:
        out: list[str | ToolDelta] = []
        if self._call is not None:
            self._body += piece
            out += self._read_call(final=False)
            return out
        self._pending += piece
        return self._scan(out)

    def finish(self) -> list[str | ToolDelta]:
        out: list[str | ToolDelta] = []
        if self._call is not None:
            out += self._read_call(final=True)
        if self._pending:
            if not self._sent_text and not self.calls and (bare := _bare_calls(self._pending, self.names)):
                for call in bare:
                    out.append(self._new_delta(call))
            else:
                out.append(self._pending)
            self._pending = ""
        return out

    def _scan(self, out: list[str | ToolDelta]) -> list[str | ToolDelta]:
        while True:
            text = self._pending
            start, marker = _first_marker(text)
            if marker is None and not self._sent_text and not self.calls and _may_be_json(text):
                head = _HEAD.match(text, _json_start(text))
                if head is not None and head.group(1) in self.names:  # a bare call: stream it
                    self._call, self._body, self._pending = "", text, ""
                    return out + self._read_call(final=False)
                return out  # maybe a bare JSON call: held until it parses or not, at the end
            if marker is None:
                keep = _partial_marker(text)
                if keep:
                    self._send(out, text[:keep])
                    self._pending = text[keep:]
                return out
            self._send(out, text[:start])
            self._call, self._body = marker, text[start + len(marker) :]
            self._pending, self._head, self._streamed = "", None, 0
            out += self._read_call(final=False)
            if self._call is not None:
                return out

    def _send(self, out: list[str | ToolDelta], text: str) -> None:
        if text:
            if not self._sent_text and not self.calls:
                text = text.lstrip()
            if text:
                out.append(text)
                self._sent_text = True

    def _read_call(self, final: bool) -> list[str | ToolDelta]:
        """Stream what can be streamed of the call being read; at its end (its closing marker,
        or the reply's), check it whole."""
        out: list[str | ToolDelta] = []
        marker = self._call or ""
        end_marker = END_MARKERS.get(marker)
        end = self._body.find(end_marker) if end_marker else -1
        body = self._body[:end] if end >= 0 else self._body
        if marker in ("", "<tool_call>", "<|python_tag|>", "[TOOL_CALLS]", "```json", "<tools>"):
            out += self._stream_arguments(body)
        if end < 0 and not final:
            return out
        after = self._body[end + len(end_marker) :] if end >= 0 and end_marker else ""
        found = _calls_in(marker, body, self.names)
        if self._delta_call is not None:  # already announced: finish its arguments
            streamed = found[0] if found and found[0].name == self._delta_call.name else None
            if streamed is not None:
                rest = _arguments_text(body, self._head)[self._streamed :]
                if rest:
                    out.append(ToolDelta(len(self.calls) - 1, rest))
                self.calls[-1].arguments = streamed.arguments
                found = found[1:]
            else:  # announced, then broken: its text is sent as content too
                out.append(marker + body + (end_marker if end >= 0 and end_marker else ""))
                self._sent_text = True
            self._delta_call = None
        elif not found:
            out.append(marker + body + (end_marker if end >= 0 and end_marker else ""))
            self._sent_text = True
        for call in found:
            out.append(self._new_delta(call))
        self._call, self._body, self._head, self._streamed = None, "", None, 0
        if after:
            self._pending = after
            out = self._scan(out)
        return out

    def _stream_arguments(self, body: str) -> list[str | ToolDelta]:
        """The first call's name once known, then its arguments as they are written."""
        out: list[str | ToolDelta] = []
        if self._head is None:
            head = _HEAD.match(body, _json_start(body))
            if head is None or head.group(1) not in self.names:
                return out
            self._head = (head.group(1), head.end())
            call = ToolCall(head.group(1), "")
            self._delta_call = call
            self.calls.append(call)
            out.append(ToolDelta(len(self.calls) - 1, "", call.id, call.name))
        if self._delta_call is None:
            return out
        text = _arguments_text(body, self._head)
        if len(text) > self._streamed:
            out.append(ToolDelta(len(self.calls) - 1, text[self._streamed :]))
            self._streamed = len(text)
        return out

    def _new_delta(self, call: ToolCall) -> ToolDelta:
        self.calls.append(call)
        return ToolDelta(len(self.calls) - 1, call.arguments, call.id, call.name)


def _arguments_text(body: str, head: tuple[str, int] | None) -> str:
    """The arguments' JSON text written so far: from their start to the end of the value (or of
    what was written)."""
    if head is None:
        return ""
    start = head[1]
    end = _value_end(body, start)
    return body[start : end if end is not None else len(body)]


def _value_end(text: str, start: int) -> int | None:
    """Where the JSON object or array starting at ``start`` ends (None: not yet)."""
    depth, in_string, escaped = 0, False, False
    for i in range(start, len(text)):
        c = text[i]
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "{[":
            depth += 1
        elif c in "}]":
            depth -= 1
            if depth == 0:
                return i + 1
    return None


def _json_start(text: str) -> int:
    """Where the first call object may start: past whitespace, a ```json fence and a '['."""
    match = re.match(r"\s*(?:```json)?[\s\[]*", text)
    return match.end() if match else 0


def _may_be_json(text: str) -> bool:
    """Whether a reply that starts with ``text`` may be JSON calls alone (Llama 3's form)."""
    start = text.lstrip()
    return any(start.startswith(c) or c.startswith(start) for c in ("{", "[", "```json")) if start else True


def _partial_marker(text: str) -> int:
    """How much of ``text`` can be sent: all but a tail that may be the start of a marker."""
    for start in range(max(0, len(text) - max(map(len, START_MARKERS))), len(text)):
        tail = text[start:]
        if any(m.startswith(tail) for m in START_MARKERS):
            return start
    return len(text)
