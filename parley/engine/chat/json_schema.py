"""JSON Schema to grammar: what the model may write is exactly JSON that the schema accepts.

Covers what OpenAI's strict structured outputs allow, and a little more:

- ``type`` (one or a list): object, array, string, number, integer, boolean, null; no type:
  any JSON value;
- objects: ``properties`` in the order given, ``required``, ``additionalProperties`` (false; a
  schema for the values of a map without ``properties``); optional properties may be left out,
  and properties beyond ``properties`` are never written (the output stays valid either way);
- arrays: ``items``, ``prefixItems``, ``minItems``, ``maxItems``;
- ``enum``, ``const``, ``anyOf`` / ``oneOf`` (as alternatives), ``allOf`` (merged);
- strings: ``minLength``, ``maxLength``, ``pattern`` (a regular expression subset: ``regex``),
  and the ``format`` values date, time, date-time, duration, uuid, email, hostname, ipv4, ipv6;
- integers: ``minimum``, ``maximum``, ``exclusiveMinimum``, ``exclusiveMaximum`` exactly;
  numbers: a lower bound of 0 or more with an optional upper bound, both whole numbers;
- ``$ref`` within the document (``#``, ``#/$defs/...``, any JSON pointer), recursion included.

Anything else that restricts values (``not``, ``if``, ``uniqueItems``, ``patternProperties``,
``multipleOf``...) raises SchemaError naming the keyword, rather than letting through output
that the schema would refuse.  Keywords that only describe (``title``, ``description``,
``default``, ``examples``...) are ignored.  Bounds: the schema's nesting depth, the number of
rules and the size of the grammar (``gbnf``); a recursive schema is a recursive rule, and one
that can never finish (a required property that is the object itself) is refused.

Whitespace between tokens is optional and bounded (at most ``MAX_SPACE`` characters), so a
model cannot fill its reply with spaces; numbers have at most 16 digits in each part.
"""

from __future__ import annotations

import json
import math
from typing import Any

from ..errors import SchemaError
from .gbnf import EMPTY, NEVER, Expr, Grammar, Ref, alt, char_class, lit, opt, rep, seq
from .regex import regex_expr

MAX_DEPTH = 48  # nesting of schemas within schemas
MAX_SPACE = 16  # whitespace characters between two tokens
MAX_DIGITS = 16  # digits of an integer part, a fraction or (3) an exponent

ANNOTATIONS = frozenset(
    {
        "title",
        "description",
        "default",
        "examples",
        "$comment",
        "deprecated",
        "readOnly",
        "writeOnly",
        "$schema",
        "$id",
        "$anchor",
        "discriminator",
        "contentEncoding",
        "contentMediaType",
        "strict",
    }
)
SUPPORTED = frozenset(
    {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "prefixItems",
        "minItems",
        "maxItems",
        "enum",
        "const",
        "anyOf",
        "oneOf",
        "allOf",
        "$ref",
        "$defs",
        "definitions",
        "format",
        "minLength",
        "maxLength",
        "pattern",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "nullable",
        "uniqueItems",
        "propertyNames",
        "minProperties",
        "maxProperties",
    }
)
TYPES = ("object", "array", "string", "number", "integer", "boolean", "null")
FORMATS = ("date", "time", "date-time", "duration", "uuid", "email", "hostname", "ipv4", "ipv6")


def schema_grammar(schema: object) -> str:
    """The GBNF of the JSON values ``schema`` accepts; SchemaError when it cannot be held."""
    converter = _Converter(schema, Grammar())
    return converter.grammar.gbnf(converter.value(schema, "#", 0))


def json_object_grammar() -> str:
    """The GBNF of any JSON object (``response_format: json_object``)."""
    converter = _Converter({}, Grammar())
    return converter.grammar.gbnf(converter.any_object())


def value_expr(grammar: Grammar, schema: object) -> Expr:
    """An expression in ``grammar`` for the JSON values of ``schema`` (a forced tool call builds
    its call around its parameters' schema)."""
    return _Converter(schema, grammar).value(schema, "#", 0)


def space(grammar: Grammar) -> Ref:
    """The optional, bounded whitespace between two tokens."""
    return grammar.shared("space", lambda: rep(char_class([(" ", " "), ("\t", "\t"), ("\n", "\n")]), 0, MAX_SPACE))


def string_expr(grammar: Grammar) -> Ref:
    """Any JSON string."""
    return grammar.shared("string", lambda: seq(lit('"'), rep(_char(grammar), 0, None), lit('"')))


def _char(grammar: Grammar) -> Ref:
    """One character of a JSON string, as written between its quotes."""

    def make() -> Expr:
        escaped = char_class([(c, c) for c in '"\\/bfnrt'])
        escape = seq(lit("\\"), alt(escaped, seq(lit("u"), rep(HEX, 4, 4))))
        return alt(char_class([('"', '"'), ("\\", "\\"), ("\x00", "\x1f")], negated=True), escape)

    return grammar.shared("char", make)


class _Converter:
    def __init__(self, document: object, grammar: Grammar) -> None:
        self.document = document
        self.grammar = grammar
        self.refs: dict[str, Ref] = {}  # a JSON pointer's rule, made once (recursion refers to it)
        self.ws = space(grammar)

    # ------------------------------------------------------------------ common rules

    def string(self, low: int = 0, high: int | None = None) -> Expr:
        if low == 0 and high is None:
            return string_expr(self.grammar)
        keyword = "maxLength" if high is not None else "minLength"
        return seq(lit('"'), rep(_char(self.grammar), low, high, keyword), lit('"'))

    def natural(self) -> Ref:
        """0, or a whole number without leading zeros (at most MAX_DIGITS digits)."""
        return self.grammar.shared("natural", lambda: alt(lit("0"), seq(NONZERO, rep(DIGIT, 0, MAX_DIGITS - 1))))

    def integer(self) -> Ref:
        return self.grammar.shared("integer", lambda: seq(opt(lit("-")), self.natural()))

    def number(self) -> Ref:
        def make() -> Expr:
            fraction = seq(lit("."), rep(DIGIT, 1, MAX_DIGITS))
            sign = opt(char_class([("+", "+"), ("-", "-")]))
            exponent = seq(char_class([("e", "e"), ("E", "E")]), sign, rep(DIGIT, 1, 3))
            return seq(opt(lit("-")), self.natural(), opt(fraction), opt(exponent))

        return self.grammar.shared("number", make)

    def any_value(self) -> Ref:
        def make() -> Expr:
            value = self.any_value()
            array = seq(lit("["), self.ws, opt(self.joined(value)), self.ws, lit("]"))
            return alt(self.any_object(), array, self.string(), self.number(), lit("true"), lit("false"), lit("null"))

        return self.grammar.shared("value", make)

    def any_object(self) -> Ref:
        return self.grammar.shared("object", lambda: self.map_of(self.any_value()))

    def joined(self, item: Expr, low: int = 1, high: int | None = None) -> Expr:
        """``low`` to ``high`` (at least 1) of ``item``, separated by commas."""
        return seq(item, rep(seq(lit(","), self.ws, item), low - 1, None if high is None else high - 1, "maxItems"))

    def map_of(self, value: Expr, key: Expr | None = None, low: int = 0, high: int | None = None) -> Expr:
        """An object of ``low`` to ``high`` pairs whose values are ``value`` (keys: ``key``)."""
        pair = seq(key or self.string(), self.ws, lit(":"), self.ws, value)
        pairs = self.joined(pair, max(low, 1), high)
        return seq(lit("{"), self.ws, pairs if low > 0 else opt(pairs) if high != 0 else EMPTY, self.ws, lit("}"))

    # ------------------------------------------------------------------ schemas

    def value(self, schema: object, where: str, depth: int) -> Expr:
        if depth > MAX_DEPTH:
            raise SchemaError(f"the schema is nested more than {MAX_DEPTH} levels deep", "")
        if schema is True or schema == {}:
            return self.any_value()
        if schema is False:
            return NEVER
        if not isinstance(schema, dict):
            raise SchemaError(f"a schema must be an object or a boolean, not {_kind(schema)} (at {where})", "")
        for key in schema:
            if key not in SUPPORTED and key not in ANNOTATIONS:
                raise SchemaError(f"the schema keyword '{key}' is not supported (at {where})", str(key))
        if schema.get("uniqueItems") is True:
            raise SchemaError(f"'uniqueItems' cannot be held by a grammar (at {where})", "uniqueItems")
        if "$ref" in schema:
            return self.reference(schema, where, depth)
        if "allOf" in schema:
            merged = {k: v for k, v in schema.items() if k != "allOf"}
            for part in _list(schema, "allOf", where):
                merged = _merge(merged, self.resolved(part, where), where)
            return self.value(merged, where, depth + 1)
        for key in ("anyOf", "oneOf"):
            if key in schema:
                rest = {k: v for k, v in schema.items() if k != key and k not in ANNOTATIONS}
                options = []
                for i, option in enumerate(_list(schema, key, where)):
                    branch = _merge(rest, self.resolved(option, where), where) if rest else option
                    options.append(self.value(branch, f"{where}/{key}/{i}", depth + 1))
                return alt(*options)
        if "const" in schema:
            return self.literals([schema["const"]], schema, where)
        if "enum" in schema:
            return self.literals(_list(schema, "enum", where), schema, where)
        return alt(*(self.typed(t, schema, where, depth) for t in self.types(schema, where)))

    def reference(self, schema: dict[str, Any], where: str, depth: int) -> Expr:
        pointer = schema["$ref"]
        if not isinstance(pointer, str) or not pointer.startswith("#"):
            raise SchemaError(f"'$ref' may point within the schema only ('#...'), not at {pointer!r}", "$ref")
        rest = {k: v for k, v in schema.items() if k not in ANNOTATIONS and k not in ("$ref", "$defs", "definitions")}
        if rest:  # constraints beside the reference: both hold
            return self.value({"allOf": [{"$ref": pointer}], **rest}, where, depth + 1)
        ref = self.refs.get(pointer)
        if ref is None:
            ref = self.refs[pointer] = Ref(self.grammar.name(pointer.rsplit("/", 1)[-1] or "root-schema"))
            self.grammar.rules[ref.name] = self.value(self.lookup(pointer), pointer, depth + 1)
        return ref

    def lookup(self, pointer: str) -> object:
        node = self.document
        for raw in pointer[2:].split("/") if len(pointer) > 1 else []:
            key = raw.replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict) and key in node:
                node = node[key]
            elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
                node = node[int(key)]
            else:
                raise SchemaError(f"'$ref' {pointer!r} points at nothing in the schema", "$ref")
        return node

    def resolved(self, schema: object, where: str) -> dict[str, Any]:
        """``schema`` as an object with its references followed (for merging)."""
        for _ in range(MAX_DEPTH):
            if not (isinstance(schema, dict) and isinstance(schema.get("$ref"), str)):
                break
            rest = {k: v for k, v in schema.items() if k != "$ref"}
            target = self.resolved(self.lookup(schema["$ref"]), where)
            schema = _merge(rest, target, where) if rest else target
        else:
            raise SchemaError("the schema's references go round in a circle", "$ref")
        if schema is True:
            return {}
        if not isinstance(schema, dict):
            raise SchemaError(f"a schema must be an object (at {where})", "")
        return schema

    def types(self, schema: dict[str, Any], where: str) -> list[str]:
        declared = schema.get("type")
        if declared is None:
            types = [t for t, keys in _IMPLIED.items() if any(k in schema for k in keys)] or ["any"]
        else:
            types = [declared] if isinstance(declared, str) else declared
            if not isinstance(types, list) or not types or any(t not in TYPES for t in types):
                raise SchemaError(f"'type' must be one of {', '.join(TYPES)} or a list of them (at {where})", "type")
        if schema.get("nullable") is True and "null" not in types and "any" not in types:
            types = [*types, "null"]
        return types

    def typed(self, kind: str, schema: dict[str, Any], where: str, depth: int) -> Expr:
        if kind == "any":
            return self.any_value()
        if kind == "null":
            return lit("null")
        if kind == "boolean":
            return alt(lit("true"), lit("false"))
        if kind == "integer":
            low, high = _bounds(schema, where, integer=True)
            return self.integer() if low is None and high is None else integer_range(low, high)
        if kind == "number":
            return self.bounded_number(schema, where)
        if kind == "string":
            return self.string_value(schema, where)
        if kind == "array":
            return self.array(schema, where, depth)
        return self.object(schema, where, depth)

    def bounded_number(self, schema: dict[str, Any], where: str) -> Expr:
        low, high = _bounds(schema, where, integer=False)
        if low is None and high is None:
            return self.number()
        if "exclusiveMinimum" in schema or "exclusiveMaximum" in schema:
            message = f"exclusive bounds on a 'number' are not supported; use 'integer' (at {where})"
            raise SchemaError(message, "exclusiveMinimum" if "exclusiveMinimum" in schema else "exclusiveMaximum")
        if low is None or low < 0:
            raise SchemaError(f"a 'number' may have a lower bound of 0 or more only (at {where})", "minimum")
        fraction = opt(seq(lit("."), rep(DIGIT, 1, MAX_DIGITS)))
        zeros = opt(seq(lit("."), rep(lit("0"), 1, MAX_DIGITS)))
        if high is None:
            return seq(integer_range(low, None), fraction)
        if high == low:
            return seq(integer_range(low, low), zeros)
        return alt(seq(integer_range(low, high - 1), fraction), seq(integer_range(high, high), zeros))

    def string_value(self, schema: dict[str, Any], where: str) -> Expr:
        low = _count(schema, "minLength", where) or 0
        high = _count(schema, "maxLength", where)
        fmt, pattern = schema.get("format"), schema.get("pattern")
        if (fmt is not None or pattern is not None) and ("minLength" in schema or "maxLength" in schema):
            keyword = "minLength" if "minLength" in schema else "maxLength"
            raise SchemaError(f"'{keyword}' beside 'format' or 'pattern' is not supported (at {where})", keyword)
        if fmt is not None and pattern is not None:
            raise SchemaError(f"'format' and 'pattern' together are not supported (at {where})", "pattern")
        if fmt is not None:
            if fmt not in FORMATS:
                raise SchemaError(f"the string format {fmt!r} is not supported (at {where})", "format")
            return seq(lit('"'), self.grammar.shared(f"format-{fmt}", _FORMAT_MAKERS[fmt]), lit('"'))
        if pattern is not None:
            if not isinstance(pattern, str):
                raise SchemaError(f"'pattern' must be a string (at {where})", "pattern")
            return seq(lit('"'), regex_expr(pattern, _char(self.grammar)), lit('"'))
        return self.string(low, high)

    def array(self, schema: dict[str, Any], where: str, depth: int) -> Expr:
        low = _count(schema, "minItems", where) or 0
        high = _count(schema, "maxItems", where)
        prefix = _list(schema, "prefixItems", where) if "prefixItems" in schema else []
        items = schema.get("items", True)
        fixed = [self.value(p, f"{where}/prefixItems/{i}", depth + 1) for i, p in enumerate(prefix)]
        rest = self.value(items, f"{where}/items", depth + 1)
        sep = seq(lit(","), self.ws)
        options: list[Expr] = []
        # n elements, all from the prefix, or the whole prefix and then k more of ``items``.
        top = len(fixed) if high is None else min(len(fixed), high)
        for n in range(low, top + 1):
            if n < len(fixed) or rest == NEVER or n == high:
                options.append(_joined(fixed[:n], sep))
        if rest != NEVER and (high is None or high > len(fixed)):
            more_low, more_high = max(low - len(fixed), 0), None if high is None else high - len(fixed)
            if fixed:
                options.append(seq(_joined(fixed, sep), rep(seq(sep, rest), more_low, more_high, "maxItems")))
            else:
                listed = self.joined(rest, max(more_low, 1), more_high)
                options.append(listed if more_low > 0 else opt(listed))
        return seq(lit("["), self.ws, alt(*options), self.ws, lit("]"))

    def object(self, schema: dict[str, Any], where: str, depth: int) -> Expr:
        properties = schema.get("properties", {})
        if not isinstance(properties, dict):
            raise SchemaError(f"'properties' must be an object (at {where})", "properties")
        required = schema.get("required", [])
        if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
            raise SchemaError(f"'required' must be a list of names (at {where})", "required")
        extra = schema.get("additionalProperties", True)
        missing = [r for r in required if r not in properties]
        if missing:
            if extra is False:
                return NEVER  # a required property that may not be there
            raise SchemaError(
                f"required properties without a schema ({', '.join(missing)}) are not supported (at {where})",
                "required",
            )
        low, high = _count(schema, "minProperties", where) or 0, _count(schema, "maxProperties", where)
        if not properties:
            names = schema.get("propertyNames")
            key = None
            if names is not None:
                if not isinstance(names, dict) or names.get("type", "string") != "string":
                    raise SchemaError(f"'propertyNames' must be a string schema (at {where})", "propertyNames")
                key = self.string_value(names, f"{where}/propertyNames")
            value = NEVER if extra is False else self.value(extra, f"{where}/additionalProperties", depth + 1)
            return self.map_of(value, key, low, high) if value != NEVER or low == 0 else NEVER
        for keyword in ("propertyNames", "minProperties", "maxProperties"):
            if keyword in schema:
                raise SchemaError(f"'{keyword}' beside 'properties' is not supported (at {where})", keyword)
        pairs = []
        for name, sub in properties.items():
            value = self.value(sub, f"{where}/properties/{name}", depth + 1)
            key = lit(json.dumps(name, ensure_ascii=False))
            pairs.append((name in required, seq(key, self.ws, lit(":"), self.ws, value)))
        # The properties in their order, the optional ones possibly left out: tails[i] is what
        # may follow once property i-1 (or an earlier one) was written, each with its comma.
        sep = seq(lit(","), self.ws)
        tails: list[Expr] = [EMPTY] * (len(pairs) + 1)
        for i in range(len(pairs) - 1, -1, -1):
            needed, pair = pairs[i]
            tail = seq(seq(sep, pair) if needed else opt(seq(sep, pair)), tails[i + 1])
            tails[i] = self.grammar.define(f"{where}-rest", tail) if i < len(pairs) - 1 else tail
        firsts = []
        for i, (needed, pair) in enumerate(pairs):
            firsts.append(seq(pair, tails[i + 1]))
            if needed:
                break
        else:
            firsts.append(EMPTY)
        return seq(lit("{"), self.ws, alt(*firsts), self.ws, lit("}"))

    def literals(self, values: list[Any], schema: dict[str, Any], where: str) -> Expr:
        allowed = set(self.types(schema, where)) if "type" in schema else None
        options = []
        for value in values:
            kind = _type_of(value)
            if allowed is not None and kind not in allowed and not (kind == "integer" and "number" in allowed):
                continue
            options.append(lit(json.dumps(value, ensure_ascii=False, separators=(",", ":"))))
        return alt(*options)


def _joined(items: list[Expr], sep: Expr) -> Expr:
    body: Expr = EMPTY
    for i, item in enumerate(items):
        body = seq(body, sep, item) if i else item
    return body


# --------------------------------------------------------------------------- helpers

_IMPLIED = {
    "object": ("properties", "additionalProperties", "required"),
    "array": ("items", "prefixItems", "minItems", "maxItems"),
    "string": ("minLength", "maxLength", "pattern", "format"),
    "number": ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"),
}

DIGIT = char_class([("0", "9")])
NONZERO = char_class([("1", "9")])
HEX = char_class([("0", "9"), ("a", "f"), ("A", "F")])


def _kind(value: object) -> str:
    return type(value).__name__


def _type_of(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if value.is_integer() else "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _list(schema: dict[str, Any], key: str, where: str) -> list[Any]:
    value = schema[key]
    if not isinstance(value, list) or (key != "enum" and key != "prefixItems" and not value):
        raise SchemaError(f"'{key}' must be a non-empty list (at {where})", key)
    return value


def _count(schema: dict[str, Any], key: str, where: str) -> int | None:
    value = schema.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0 or value != int(value):
        raise SchemaError(f"'{key}' must be a whole number of at least 0 (at {where})", key)
    return int(value)


def _bounds(schema: dict[str, Any], where: str, integer: bool) -> tuple[int | None, int | None]:
    """Inclusive whole-number bounds (an integer's exclusive bound moves by one)."""
    low = high = None
    for key, sign in (("minimum", 1), ("exclusiveMinimum", 1), ("maximum", -1), ("exclusiveMaximum", -1)):
        value = schema.get(key)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise SchemaError(f"'{key}' must be a number (at {where})", key)
        if not integer and value != int(value):
            raise SchemaError(f"a fractional '{key}' on a 'number' is not supported (at {where})", key)
        exclusive = key.startswith("exclusive")
        if sign > 0:
            bound = math.floor(value) + 1 if exclusive else math.ceil(value)
            low = bound if low is None else max(low, bound)
        else:
            bound = math.ceil(value) - 1 if exclusive else math.floor(value)
            high = bound if high is None else min(high, bound)
    for limit in (low, high):
        if limit is not None and abs(limit) >= 10**MAX_DIGITS:
            raise SchemaError(f"bounds beyond {MAX_DIGITS} digits are not supported (at {where})", "maximum")
    return low, high


def _merge(a: dict[str, Any], b: dict[str, Any], where: str) -> dict[str, Any]:
    """Two schemas that must both hold, as one (allOf; an anyOf's branch with its siblings)."""
    merged = dict(a)
    for key, value in b.items():
        if key in ANNOTATIONS or key not in merged or merged[key] == value:
            merged.setdefault(key, value)
        elif key == "properties" and isinstance(value, dict) and isinstance(merged[key], dict):
            both = set(value) & set(merged[key])
            if any(value[k] != merged[key][k] for k in both):
                message = f"'allOf' parts that give one property two schemas are not supported (at {where})"
                raise SchemaError(message, "allOf")
            merged[key] = {**merged[key], **value}
        elif key == "required" and isinstance(value, list) and isinstance(merged[key], list):
            merged[key] = [*merged[key], *(r for r in value if r not in merged[key])]
        else:
            raise SchemaError(f"'allOf' parts that set '{key}' differently are not supported (at {where})", "allOf")
    return merged


# --------------------------------------------------------------------------- integers in a range


def integer_range(low: int | None, high: int | None) -> Expr:
    """Exactly the integers from ``low`` to ``high`` (None: no bound on that side; at most
    MAX_DIGITS digits there), written without leading zeros."""
    top = 10**MAX_DIGITS - 1
    low_ = -top if low is None else low
    high_ = top if high is None else high
    if low_ > high_:
        return NEVER
    options: list[Expr] = []
    if high_ >= 0:
        options.append(_natural_range(max(low_, 0), high_))
    if low_ < 0:
        options.append(seq(lit("-"), _natural_range(max(1, -high_), -low_)))
    return alt(*options)


def _natural_range(low: int, high: int) -> Expr:
    """The numbers low..high (0 <= low <= high) without leading zeros."""
    options = []
    for digits in range(len(str(low)), len(str(high)) + 1):
        first = 0 if digits == 1 else 10 ** (digits - 1)
        a, b = max(low, first), min(high, 10**digits - 1)
        if a <= b:
            options.append(_same_length(str(a), str(b)))
    return alt(*options)


def _same_length(a: str, b: str) -> Expr:
    """The digit strings from ``a`` to ``b``, both of the same length."""
    if not a:
        return EMPTY
    if a[0] == b[0]:
        return seq(lit(a[0]), _same_length(a[1:], b[1:]))
    rest = len(a) - 1
    if a[1:] == "0" * rest and b[1:] == "9" * rest:
        return seq(char_class([(a[0], b[0])]), rep(DIGIT, rest, rest))
    options = [seq(lit(a[0]), _same_length(a[1:], "9" * rest))]
    if int(b[0]) - int(a[0]) > 1:
        options.append(seq(char_class([(str(int(a[0]) + 1), str(int(b[0]) - 1))]), rep(DIGIT, rest, rest)))
    options.append(seq(lit(b[0]), _same_length("0" * rest, b[1:])))
    return alt(*options)


# --------------------------------------------------------------------------- string formats


def _two(low: int, high: int) -> Expr:
    """Two digits from ``low`` to ``high`` (leading zero kept)."""
    return _same_length(f"{low:02d}", f"{high:02d}")


def _date() -> Expr:
    """A calendar date whose day exists in its month (29 February left out: leap years)."""
    months = {31: ("01", "03", "05", "07", "08", "10", "12"), 30: ("04", "06", "09", "11"), 28: ("02",)}
    return seq(
        rep(DIGIT, 4, 4),
        lit("-"),
        alt(*(seq(alt(*map(lit, names)), lit("-"), _two(1, days)) for days, names in months.items())),
    )


def _time() -> Expr:
    hour, minute = _two(0, 23), _two(0, 59)
    offset = alt(lit("Z"), seq(char_class([("+", "+"), ("-", "-")]), hour, lit(":"), minute))
    return seq(hour, lit(":"), minute, lit(":"), minute, opt(seq(lit("."), rep(DIGIT, 1, 6))), offset)


def _units(letters: str) -> Expr:
    """One or more of ``n`` followed by a unit letter, in the order of ``letters``."""
    n = rep(DIGIT, 1, 4)
    options = []
    for i, letter in enumerate(letters):
        options.append(seq(n, lit(letter), *(opt(seq(n, lit(later))) for later in letters[i + 1 :])))
    return alt(*options)


def _duration() -> Expr:
    time = seq(lit("T"), _units("HMS"))
    return seq(lit("P"), alt(seq(_units("YMD"), opt(time)), time, seq(rep(DIGIT, 1, 4), lit("W"))))


def _uuid() -> Expr:
    groups = [rep(HEX, k, k) for k in (8, 4, 4, 4, 12)]
    return seq(groups[0], *(seq(lit("-"), g) for g in groups[1:]))


def _label() -> Expr:
    return rep(char_class([("a", "z"), ("A", "Z"), ("0", "9")]), 1, 63)


def _hostname() -> Expr:
    return seq(_label(), rep(seq(lit("."), _label()), 0, 8))


def _email() -> Expr:
    local = rep(char_class([("a", "z"), ("A", "Z"), ("0", "9"), *((c, c) for c in "._%+-")]), 1, 64)
    tld = rep(char_class([("a", "z"), ("A", "Z")]), 2, 24)
    return seq(local, lit("@"), _label(), rep(seq(lit("."), _label()), 0, 4), lit("."), tld)


def _ipv4() -> Expr:
    octet = _natural_range(0, 255)
    return seq(octet, lit("."), octet, lit("."), octet, lit("."), octet)


def _ipv6() -> Expr:
    group = rep(HEX, 1, 4)
    return seq(group, rep(seq(lit(":"), group), 7, 7))


_FORMAT_MAKERS = {
    "date": _date,
    "time": _time,
    "date-time": lambda: seq(_date(), lit("T"), _time()),
    "duration": _duration,
    "uuid": _uuid,
    "email": _email,
    "hostname": _hostname,
    "ipv4": _ipv4,
    "ipv6": _ipv6,
}
