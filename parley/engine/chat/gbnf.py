"""Grammars for llama.cpp's grammar sampler, built as expressions and written out as GBNF.

The JSON Schema converter (``json_schema``) and the forced tool calls (``tool_calls``) build
their grammars from the expressions below instead of pasting GBNF text together, so that two
checks can be made before llama.cpp sees any of it:

- **productivity:** a rule that can never finish (a required property whose schema refers to
  itself, an enum that no value of its type satisfies) would let the model start a value it can
  never end.  ``Grammar.gbnf`` finds the rules that can produce some text (a fixed point), drops
  every alternative that cannot, and refuses the grammar when the root itself cannot;
- **size:** the text is bounded (``MAX_GRAMMAR_CHARS``), and so is every repetition count
  (``MAX_REPEAT``): llama.cpp expands ``x{0,n}`` into ``n`` nested rules.

Expressions: ``Lit`` (exact text), ``Chars`` (one character of a class), ``Seq``, ``Alt``,
``Rep`` (``low`` to ``high`` times; ``high`` None: no upper bound) and ``Ref`` (a named rule,
which may refer to itself: recursion is native to GBNF).  ``NEVER`` matches nothing, ``EMPTY``
the empty text.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

from ..errors import SchemaError

MAX_GRAMMAR_CHARS = 256 * 1024  # GBNF text handed to llama.cpp
MAX_RULES = 4096
MAX_REPEAT = 2000  # the largest finite repetition bound (maxLength, maxItems): llama.cpp's own limit


@dataclasses.dataclass(frozen=True)
class Lit:
    text: str


@dataclasses.dataclass(frozen=True)
class Chars:
    """One character of a class, written as GBNF's bracket body (``^"\\\\`` for ``[^"\\\\]``)."""

    body: str


@dataclasses.dataclass(frozen=True)
class Seq:
    items: tuple[Expr, ...]


@dataclasses.dataclass(frozen=True)
class Alt:
    items: tuple[Expr, ...]


@dataclasses.dataclass(frozen=True)
class Rep:
    item: Expr
    low: int
    high: int | None


@dataclasses.dataclass(frozen=True)
class Ref:
    name: str


Expr = Lit | Chars | Seq | Alt | Rep | Ref

NEVER = Alt(())
EMPTY = Seq(())


def seq(*items: Expr) -> Expr:
    """A sequence, flattened; NEVER when any part is."""
    flat: list[Expr] = []
    for item in items:
        if item == NEVER:
            return NEVER
        if isinstance(item, Seq):
            flat.extend(item.items)
        elif not (isinstance(item, Lit) and not item.text):
            flat.append(item)
    merged: list[Expr] = []
    for item in flat:  # adjacent literals as one
        if merged and isinstance(item, Lit) and isinstance(merged[-1], Lit):
            merged[-1] = Lit(merged[-1].text + item.text)
        else:
            merged.append(item)
    return merged[0] if len(merged) == 1 else Seq(tuple(merged))


def alt(*items: Expr) -> Expr:
    """A choice, flattened and without repeats; NEVER when there is nothing to choose."""
    flat = dict.fromkeys(part for item in items for part in (item.items if isinstance(item, Alt) else (item,)))
    return next(iter(flat)) if len(flat) == 1 else Alt(tuple(flat))  # a dict: an enum of 20,000 stays linear


def rep(item: Expr, low: int, high: int | None, keyword: str = "maxLength") -> Expr:
    """``item`` repeated ``low`` to ``high`` times; SchemaError naming ``keyword`` past MAX_REPEAT."""
    if low < 0 or (high is not None and high < low):
        return NEVER
    if low > MAX_REPEAT or (high is not None and high > MAX_REPEAT):
        raise SchemaError(f"'{keyword}' above {MAX_REPEAT} cannot be held by a grammar", keyword)
    if high == 0:
        return EMPTY
    if low == high == 1:
        return item
    return Rep(item, low, high)


def opt(item: Expr) -> Expr:
    return rep(item, 0, 1)


def lit(text: str) -> Expr:
    return Lit(text)


class Grammar:
    """Named rules and the GBNF text they make."""

    def __init__(self) -> None:
        self.rules: dict[str, Expr] = {}
        self._names: set[str] = {"root"}
        self._shared: dict[str, Ref] = {}

    def shared(self, hint: str, make: Callable[[], Expr]) -> Ref:
        """The one rule named after ``hint`` in this grammar, made by ``make()`` the first time
        (it may refer to itself)."""
        ref = self._shared.get(hint)
        if ref is None:
            ref = self._shared[hint] = Ref(self.name(hint))
            self.rules[ref.name] = make()
        return ref

    def name(self, hint: str) -> str:
        """A new rule name from ``hint`` (GBNF names: letters, digits and dashes)."""
        base = re.sub(r"[^A-Za-z0-9]+", "-", hint).strip("-").lower() or "rule"
        name, n = base, 1
        while name in self._names:
            n += 1
            name = f"{base}-{n}"
        if len(self._names) > MAX_RULES:
            raise SchemaError(f"the schema needs more than {MAX_RULES} grammar rules", "$defs")
        self._names.add(name)
        return name

    def define(self, hint: str, expr: Expr) -> Ref:
        name = self.name(hint)
        self.rules[name] = expr
        return Ref(name)

    def gbnf(self, root: Expr) -> str:
        """The GBNF text of ``root`` and the rules it reaches; SchemaError when no text matches
        it or the text is too long."""
        rules = {**self.rules, "root": root}
        productive = _productive(rules)
        if "root" not in productive:
            raise SchemaError("the schema allows no value at all (contradictory, or recursive without end)", "")
        pruned = {name: _prune(expr, productive) for name, expr in rules.items() if name in productive}
        # llama.cpp refuses a rule whose counted repetitions multiply past 2000: each gets a rule.
        for name in list(pruned):
            pruned[name] = self._hoist(pruned[name], pruned, top=True)
        lines, size = [], 0
        for name in _reachable(pruned):
            line = f"{name} ::= {_write(pruned[name], 0)}"
            size += len(line) + 1
            if size > MAX_GRAMMAR_CHARS:
                raise SchemaError(f"the schema is too large: its grammar passes {MAX_GRAMMAR_CHARS} characters", "")
            lines.append(line)
        return "\n".join(lines) + "\n"

    def _hoist(self, expr: Expr, rules: dict[str, Expr], top: bool = False) -> Expr:
        if isinstance(expr, Seq):
            return Seq(tuple(self._hoist(e, rules) for e in expr.items))
        if isinstance(expr, Alt):
            return Alt(tuple(self._hoist(e, rules, top) for e in expr.items))
        if isinstance(expr, Rep):
            counted = Rep(self._hoist(expr.item, rules), expr.low, expr.high)
            if expr.low <= 1 and expr.high in (1, None) or top:
                return counted
            name = self.name("repeat")
            rules[name] = counted
            return Ref(name)
        return expr


def _can_produce(expr: Expr, productive: set[str]) -> bool:
    if isinstance(expr, (Lit, Chars)):
        return True
    if isinstance(expr, Seq):
        return all(_can_produce(e, productive) for e in expr.items)
    if isinstance(expr, Alt):
        return any(_can_produce(e, productive) for e in expr.items)
    if isinstance(expr, Rep):
        return expr.low == 0 or _can_produce(expr.item, productive)
    return expr.name in productive


def _productive(rules: dict[str, Expr]) -> set[str]:
    productive: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, expr in rules.items():
            if name not in productive and _can_produce(expr, productive):
                productive.add(name)
                changed = True
    return productive


def _prune(expr: Expr, productive: set[str]) -> Expr:
    """``expr`` without the parts that can never finish."""
    if isinstance(expr, Seq):
        return seq(*(_prune(e, productive) for e in expr.items))
    if isinstance(expr, Alt):
        return alt(*(p for p in (_prune(e, productive) for e in expr.items) if p != NEVER))
    if isinstance(expr, Rep):
        item = _prune(expr.item, productive)
        if item == NEVER:
            return EMPTY if expr.low == 0 else NEVER
        return Rep(item, expr.low, expr.high)
    if isinstance(expr, Ref) and expr.name not in productive:
        return NEVER
    return expr


def _refs(expr: Expr) -> list[str]:
    if isinstance(expr, Ref):
        return [expr.name]
    if isinstance(expr, (Seq, Alt)):
        return [name for e in expr.items for name in _refs(e)]
    if isinstance(expr, Rep):
        return _refs(expr.item)
    return []


def _reachable(rules: dict[str, Expr]) -> list[str]:
    order, todo = ["root"], ["root"]
    while todo:
        for name in _refs(rules[todo.pop()]):
            if name not in order:
                order.append(name)
                todo.append(name)
    return order


# Precedence: 0 an alternative list, 1 a sequence item, 2 an operand of a repetition.
def _write(expr: Expr, level: int) -> str:
    if isinstance(expr, Lit):
        return _quote(expr.text)
    if isinstance(expr, Chars):
        return f"[{expr.body}]"
    if isinstance(expr, Ref):
        return expr.name
    if isinstance(expr, Seq):
        if not expr.items:
            return '""'
        text = " ".join(_write(e, 1) for e in expr.items)
        return f"({text})" if level >= 2 and len(expr.items) > 1 else text
    if isinstance(expr, Alt):
        if not expr.items:
            raise AssertionError("NEVER is pruned before it is written")
        text = " | ".join(_write(e, 0) for e in expr.items)
        return f"({text})" if level >= 1 and len(expr.items) > 1 else text
    item = _write(expr.item, 2)
    low, high = expr.low, expr.high
    if (low, high) == (0, 1):
        return f"{item}?"
    if (low, high) == (0, None):
        return f"{item}*"
    if (low, high) == (1, None):
        return f"{item}+"
    if high is None:
        return f"{item}{{{low},}}"
    return f"{item}{{{low}}}" if low == high else f"{item}{{{low},{high}}}"


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def escape_char(c: str) -> str:
    """``c`` as GBNF writes it inside a literal or a class (escaped unless printable)."""
    if c in _ESCAPES:
        return _ESCAPES[c]
    if c.isprintable():
        return c
    code = ord(c)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _quote(text: str) -> str:
    return '"' + "".join(escape_char(c) for c in text) + '"'


def char_class(ranges: list[tuple[str, str]], negated: bool = False) -> Chars:
    """One character of the inclusive ``(first, last)`` ranges (or of none of them)."""
    parts = []
    for first, last in ranges:
        a, b = _class_char(first), _class_char(last)
        parts.append(a if first == last else f"{a}-{b}")
    return Chars(("^" if negated else "") + "".join(parts))


def _class_char(c: str) -> str:
    if c == "^":  # llama.cpp knows no escape for it, and first in a class it would negate it
        return "\\x5e"
    return "\\" + c if c in "]\\-[" else escape_char(c)
