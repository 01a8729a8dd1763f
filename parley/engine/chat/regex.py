"""A JSON Schema ``pattern`` as a grammar expression for the text between a string's quotes.

The subset regular expressions share across ECMA-262 and Python that a grammar can hold:
literal characters and escapes (``\\.``, ``\\n``, ``\\uXXXX``...), ``.``, classes ``[a-z_]`` and
``[^...]``, ``\\d \\w \\s`` and their negations, groups ``(...)`` ``(?:...)`` ``(?<name>...)``,
``|``, the quantifiers ``* + ? {m} {m,} {m,n}`` (a lazy ``?`` after them changes nothing here), and
``^`` / ``$`` at the ends.  A pattern matches anywhere in the string unless anchored, as JSON
Schema says, so an unanchored side may hold any other text.  Look-arounds, back-references and
word boundaries raise SchemaError naming ``pattern``.

Each character is written as JSON writes it inside a string: ``"`` and ``\\`` escaped, control
characters as ``\\n``, ``\\t`` or ``\\u00XX``.  A class matches the plain characters it holds and
the escapes of the special ones it holds; other characters are only ever written plainly (a
valid, smaller set of strings).
"""

from __future__ import annotations

from ..errors import SchemaError
from .gbnf import EMPTY, MAX_REPEAT, NEVER, Expr, alt, char_class, lit, rep, seq

MAX_PATTERN_CHARS = 1000

_SHORT_ESCAPES = {"\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", '"': '\\"', "\\": "\\\\"}
_LETTER_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "0": "\0"}
_DIGITS = [("0", "9")]
_WORD = [("a", "z"), ("A", "Z"), ("0", "9"), ("_", "_")]
_SPACE = [(" ", " "), ("\t", "\r")]  # space, \t \n \v \f \r
_SPECIALS = [('"', '"'), ("\\", "\\"), ("\x00", "\x1f")]  # what JSON never writes plainly in a string
Ranges = list[tuple[str, str]]


def regex_expr(pattern: str, any_char: Expr) -> Expr:
    """The JSON string contents (between the quotes) that ``pattern`` matches; ``any_char`` is
    one JSON string character (for the unanchored ends)."""
    if len(pattern) > MAX_PATTERN_CHARS:
        raise SchemaError(f"'pattern' is longer than {MAX_PATTERN_CHARS} characters", "pattern")
    parser = _Parser(pattern)
    start = parser.take("^")
    body = parser.alternatives()
    end = parser.take("$")
    if not parser.done():
        raise SchemaError(f"'pattern' {pattern!r}: {parser.where()} is not supported", "pattern")
    anything = rep(any_char, 0, None)
    return seq(EMPTY if start else anything, body, EMPTY if end else anything)


def json_char(c: str) -> Expr:
    """``c`` as it is written inside a JSON string."""
    if c in _SHORT_ESCAPES:
        return lit(_SHORT_ESCAPES[c])
    if ord(c) < 0x20:
        return lit(f"\\u{ord(c):04x}")
    return lit(c)


def class_expr(ranges: Ranges, negated: bool) -> Expr:
    """One character of ``ranges`` (or of none of them), as JSON writes it."""
    if negated:
        plain = char_class([*ranges, *_SPECIALS], negated=True)
        special = [c for c in '"\\' if not _holds(ranges, c)]
        return alt(plain, *(json_char(c) for c in special))
    plain_ranges: Ranges = []
    specials: list[str] = []
    for first, last in ranges:
        for a, b in _without_specials(first, last):
            plain_ranges.append((a, b))
        specials += [chr(c) for c in range(ord(first), min(ord(last), 0x5C) + 1) if _is_special(chr(c))]
    options = [char_class(plain_ranges)] if plain_ranges else []
    return alt(*options, *(json_char(c) for c in dict.fromkeys(specials)))


def _is_special(c: str) -> bool:
    return c in '"\\' or ord(c) < 0x20


def _holds(ranges: Ranges, c: str) -> bool:
    return any(first <= c <= last for first, last in ranges)


def _without_specials(first: str, last: str) -> Ranges:
    """``first..last`` less the characters JSON escapes, as ranges."""
    out: Ranges = []
    start: int | None = None
    for code in range(ord(first), ord(last) + 1):
        if code > 0x5C:  # nothing special beyond the backslash: the rest is one range
            out.append((chr(start if start is not None else code), last))
            return out
        if _is_special(chr(code)):
            if start is not None:
                out.append((chr(start), chr(code - 1)))
                start = None
        elif start is None:
            start = code
    if start is not None:
        out.append((chr(start), last))
    return out


class _Parser:
    def __init__(self, pattern: str) -> None:
        self.text = pattern
        self.pos = 0
        self.depth = 0

    def done(self) -> bool:
        return self.pos >= len(self.text)

    def where(self) -> str:
        return f"{self.text[self.pos : self.pos + 8]!r} at {self.pos}"

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def take(self, c: str) -> bool:
        if self.text.startswith(c, self.pos):
            self.pos += len(c)
            return True
        return False

    def fail(self, what: str) -> SchemaError:
        return SchemaError(f"'pattern' {self.text!r}: {what} ({self.where()}) is not supported", "pattern")

    def alternatives(self) -> Expr:
        options = [self.sequence()]
        while self.take("|"):
            options.append(self.sequence())
        return alt(*options)

    def sequence(self) -> Expr:
        items: list[Expr] = []
        while not self.done() and self.peek() not in "|)":
            if self.peek() == "$" and self.pos == len(self.text) - 1:
                break
            items.append(self.quantified(self.atom()))
        return seq(*items)

    def quantified(self, atom: Expr) -> Expr:
        while True:
            c = self.peek()
            if c in ("*", "+", "?"):
                self.pos += 1
                low, high = {"*": (0, None), "+": (1, None), "?": (0, 1)}[c]
            elif c == "{" and self._counted():
                low, high = self._counts()
            else:
                return atom
            self.take("?")  # lazy: the same strings
            if self.peek() == "+":
                raise self.fail("a possessive quantifier")
            atom = rep(atom, low, high, "pattern")

    def _counted(self) -> bool:
        end = self.text.find("}", self.pos)
        inside = self.text[self.pos + 1 : end] if end > 0 else ""
        return bool(inside) and all(part.isdigit() or part == "" for part in inside.split(",", 1)) and inside[0] != ","

    def _counts(self) -> tuple[int, int | None]:
        end = self.text.index("}", self.pos)
        inside = self.text[self.pos + 1 : end]
        self.pos = end + 1
        low_text, comma, high_text = inside.partition(",")
        low = int(low_text)
        high = int(high_text) if high_text else (None if comma else low)
        if low > MAX_REPEAT or (high is not None and high > MAX_REPEAT):
            raise SchemaError(f"'pattern' repeats more than {MAX_REPEAT} times", "pattern")
        return low, high

    def atom(self) -> Expr:
        c = self.peek()
        if c == "(":
            return self.group()
        if c == "[":
            return self.bracket()
        if c == ".":
            self.pos += 1
            return class_expr([("\n", "\n"), ("\r", "\r")], negated=True)
        if c == "\\":
            ranges, negated, literal = self.escape(in_class=False)
            return json_char(literal) if literal is not None else class_expr(ranges, negated)
        if c in "*+?{" and not (c == "{" and not self._counted()):
            raise self.fail("a quantifier with nothing before it")
        if c in "^$":
            raise self.fail("an anchor inside the pattern")
        self.pos += 1
        return json_char(c)

    def group(self) -> Expr:
        self.pos += 1
        if self.take("?"):
            if self.take(":"):
                pass
            elif self.take("P<") or (self.peek() == "<" and self.text[self.pos + 1 : self.pos + 2] not in ("=", "!")):
                self.take("<")
                end = self.text.find(">", self.pos)
                if end < 0:
                    raise self.fail("an unfinished group name")
                self.pos = end + 1
            else:
                raise self.fail("a look-around or group option")
        self.depth += 1
        if self.depth > 32:
            raise self.fail("groups nested this deep")
        inner = self.alternatives()
        self.depth -= 1
        if not self.take(")"):
            raise self.fail("an unclosed group")
        return inner

    def bracket(self) -> Expr:
        self.pos += 1
        negated = self.take("^")
        ranges: Ranges = []
        extra: list[tuple[Ranges, bool]] = []  # \D \W \S inside a class
        first = True
        while self.peek() != "]" or first:
            if self.done():
                raise self.fail("an unclosed class")
            first = False
            if self.peek() == "\\":
                sub, sub_negated, literal = self.escape(in_class=True)
                if literal is None:
                    if sub_negated:
                        extra.append((sub, True))
                    else:
                        ranges += sub
                    continue
                low = literal
            else:
                low = self.peek()
                self.pos += 1
            if self.peek() == "-" and self.text[self.pos + 1 : self.pos + 2] not in ("]", ""):
                self.pos += 1
                if self.peek() == "\\":
                    _, _, high = self.escape(in_class=True)
                    if high is None:
                        raise self.fail("a range that ends in a class")
                else:
                    high = self.peek()
                    self.pos += 1
                if high < low:
                    raise self.fail("a range that runs backwards")
                ranges.append((low, high))
            else:
                ranges.append((low, low))
        self.pos += 1
        if extra and (negated or ranges or len(extra) > 1):
            raise self.fail("\\D, \\W or \\S beside other characters in a class")
        if extra:
            return class_expr(extra[0][0], True)
        return class_expr(ranges, negated) if ranges or negated else NEVER

    def escape(self, in_class: bool) -> tuple[Ranges, bool, str | None]:
        """A backslash escape: (ranges, negated, None) for a class, or ([], False, character)."""
        self.pos += 1
        c = self.peek()
        if not c:
            raise self.fail("a pattern that ends in a backslash")
        self.pos += 1
        classes = {"d": _DIGITS, "w": _WORD, "s": _SPACE}
        if c.lower() in classes:
            return classes[c.lower()], c.isupper(), None
        if c in _LETTER_ESCAPES:
            return [], False, _LETTER_ESCAPES[c]
        if c in "xu":
            size = 2 if c == "x" else 4
            digits = self.text[self.pos : self.pos + size]
            if len(digits) != size or any(d not in "0123456789abcdefABCDEF" for d in digits):
                raise self.fail(f"a malformed \\{c} escape")
            self.pos += size
            return [], False, chr(int(digits, 16))
        if c.isalnum():
            raise self.fail(f"the escape \\{c}")
        return [], False, c
