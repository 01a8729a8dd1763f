"""``calculate``: exact arithmetic on an expression the model writes, never ``eval``.

The expression ("1,234 x 5,678", "15% of 80", "(2+3)^2", "sqrt(2)", "increase 50 by 10%") is put
into Python's syntax by a few plain rewrites (words and signs people use for operators, thousands
separators, percentages), parsed with ``ast`` and computed by walking the tree, which knows only
numbers, ``+ - * / // % **``, parentheses, unary signs, ``pi`` and ``e``, and the functions in
``FUNCTIONS``; anything else is refused with what went wrong.

Numbers are ``Fraction``s (``0.1 + 0.2`` is exactly 0.3, ``1/3`` stays a third) until something
irrational (a root that is not exact, a logarithm, a sine) makes a value a float.  Everything is
bounded before it is computed: the expression's length and tree, and every number's size (about
a thousand digits), so ``9**9**9`` or ``factorial(10**6)`` is refused at once instead of running
for hours.
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Callable, Mapping
from decimal import Decimal, localcontext
from fractions import Fraction
from typing import Any

from ...backend.cancel import CancelFlag
from ..tool import ToolResult, ToolSpec
from .cues import Cued
from .wording import sentence, spoken

MAX_EXPRESSION_CHARS = 300  # far more than anything said aloud
MAX_NODES = 300
MAX_DEPTH = 60
MAX_BITS = 3400  # about 1,000 decimal digits, for a numerator or a denominator
MAX_LITERAL_EXPONENT = 1000  # 1e1000 at most in a literal
FULL_DIGITS = 40  # integers up to this long are written out in full
SIGNIFICANT = 12  # digits of an approximate result
MAX_FACTORIAL = 449  # 449! has 997 digits

Number = Fraction | float


class CalculationError(Exception):
    """Why an expression cannot be computed, in words for the model."""


# ------------------------------------------------------------------------------ the rewrites

_SIGNS = {
    "×": "*",
    "✕": "*",
    "✖": "*",
    "·": "*",
    "⋅": "*",
    "∙": "*",
    "÷": "/",
    "∕": "/",
    "−": "-",
    "–": "-",
    "—": "-",
    "^": "**",
    "²": "**2",
    "³": "**3",
    "√": "sqrt",
    "π": "pi",
    "％": "%",
    "\u00a0": " ",
    "\u202f": " ",
}
_LEAD = re.compile(r"^\s*(?:what\s+is|what's|whats|how\s+much\s+is|calculate|compute|evaluate|work\s+out|solve)\b\s*")
_THOUSANDS = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})+(?![\d,])")
_WORDS = (
    (re.compile(r"\bmultiplied\s+by\b|\btimes\b"), " * "),
    (re.compile(r"\bdivided\s+by\b|\bover\b"), " / "),
    (re.compile(r"\bplus\b|\badded\s+to\b"), " + "),
    (re.compile(r"\bminus\b|\bless\b"), " - "),
    (re.compile(r"\bmod(?:ulo)?\b"), " mod "),
    (re.compile(r"\bto\s+the\s+power\s+of\b|\braised\s+to(?:\s+the\s+power\s+of)?\b|\bto\s+the\s+power\b"), " ** "),
    (re.compile(r"\bsquared\b"), " ** 2 "),
    (re.compile(r"\bcubed\b"), " ** 3 "),
    (re.compile(r"\bcube\s+root\s+of\b|\bcube\s+root\b"), " cbrt "),
    (re.compile(r"\bsquare\s+root\s+of\b|\bsquare\s+root\b|\broot\s+of\b"), " sqrt "),
    (re.compile(r"\bper\s*cent(?:age)?\b|\bpercent(?:age)?\b|\bpct\b"), "% "),
    (re.compile(r"(?<=[\d)\s])x(?=[\s\d(.])"), " * "),
)
_FUNCTION_NAMES = "sqrt|cbrt|abs|floor|ceil|round|exp|ln|log|log10|log2|sin|cos|tan|factorial|min|max"  # FUNCTIONS
_BARE_ARGUMENT = re.compile(rf"\b({_FUNCTION_NAMES})\s+(-?\d[\d.]*(?:e[+-]?\d+)?|pi\b|e\b)")
_IMPLICIT_TIMES = (
    (re.compile(r"((?<![a-z_\d.])\d[\d.]*|\))\s*(?=\()"), r"\1*"),
    (re.compile(rf"((?<![a-z_\d.])\d[\d.]*|\))\s*(?=(?:pi|{_FUNCTION_NAMES})\b)"), r"\1*"),
)
_FACTORIAL = re.compile(r"(\d+)\s*!(?!=)")
# A percentage: "15%" followed by nothing that would make the sign the remainder ("10 % 3").
_PERCENT_OF = re.compile(r"(\d[\d.]*)\s*%\s*of\b")
_GROUP_PERCENT_OF = re.compile(r"\)\s*%\s*of\b")
_PERCENT = re.compile(r"(\d[\d.]*)\s*%(?!\s*[\d(.a-z])")
_GROUP_PERCENT = re.compile(r"\)\s*%(?!\s*[\d(.a-z])")
# Questions about a percentage, answered with one ("30 is 25% of 120").
_RATIO = (
    re.compile(r"^what\s*%\s*(?:is|of)\s+(?P<a>.+?)\s+(?:of|out\s+of|from)\s+(?P<b>.+)$"),
    re.compile(r"^(?P<a>.+?)\s+(?:is|are)\s+what\s*%\s*of\s+(?P<b>.+)$"),
    re.compile(r"^(?P<a>.+?)\s+(?:as\s+an?|in)\s*%\s*of\s+(?P<b>.+)$"),
    re.compile(r"^(?P<a>.+?)\s+(?:out\s+of|of)\s+(?P<b>.+?)\s+(?:as\s+an?|in)\s*%$"),
)
_CHANGE = (
    re.compile(r"^(?:the\s+)?%\s*(?:change|increase|decrease|difference)\s+from\s+(?P<a>.+?)\s+to\s+(?P<b>.+)$"),
    re.compile(r"^(?:the\s+)?change\s+from\s+(?P<a>.+?)\s+to\s+(?P<b>.+?)\s+(?:as\s+an?|in)\s*%$"),
)
_INCREASE = re.compile(
    r"^(?P<verb>increase|raise|add|decrease|reduce|lower|subtract|take)\s+(?P<a>.+?)\s+by\s+(?P<p>.+)$"
)
_ADD_PERCENT = re.compile(r"^(?P<verb>add|subtract|take)\s+(?P<p>.+?%)\s+(?:to|from|off)\s+(?P<a>.+)$")


_MONEY = re.compile(r"[$£€¥]|\b(?:dollars?|pounds?|euros?|bucks|quid|cents?|pence)\b")


def normalize(expression: str) -> str:
    """The expression as people write or say it, in Python's syntax, lower case ("1,234 x 5,678"
    -> "1234 * 5678"); percentages are left as ``N%`` (``_percentages`` reads them)."""
    text = _MONEY.sub(" ", expression.strip().lower())  # "15% of 62$", "£187.50": amounts, not units
    for sign, plain in _SIGNS.items():
        text = text.replace(sign, plain)
    text = _LEAD.sub("", text)
    text = text.rstrip(" \t\r\n=?")
    text = text[:-1] if text.endswith(".") and not text[-2:-1].isdigit() else text
    text = _THOUSANDS.sub(lambda m: m.group(0).replace(",", ""), text)
    for pattern, replacement in _WORDS:
        text = pattern.sub(replacement, text)
    text = _BARE_ARGUMENT.sub(r"\1(\2)", text)
    text = _FACTORIAL.sub(r"factorial(\1)", text)
    for pattern, replacement in _IMPLICIT_TIMES:
        text = pattern.sub(replacement, text)
    return " ".join(text.split())


def _percentages(text: str) -> str:
    """``N% of X`` -> ``pct(N)*X``; a lone ``N%`` -> ``pct(N)`` (the walk reads ``X + pct(N)``
    as X increased by N%); ``mod`` -> ``%``."""
    text = _PERCENT_OF.sub(r"pct(\1)*", text)
    text = _GROUP_PERCENT_OF.sub(")/100*", text)
    text = _PERCENT.sub(r"pct(\1)", text)
    text = _GROUP_PERCENT.sub(")/100", text)
    return text.replace(" mod ", " % ")


# ------------------------------------------------------------------------------ the walk


def _sig_bits(value: Fraction) -> int:
    return max(value.numerator.bit_length(), value.denominator.bit_length())


def _checked(value: Number | complex) -> Number:
    if isinstance(value, complex):
        raise CalculationError("the result is not a real number")
    if isinstance(value, float):
        if not math.isfinite(value):
            raise CalculationError("the result is too large")
        return value
    if _sig_bits(value) > MAX_BITS:
        raise CalculationError("the numbers grow too large (more than about 1,000 digits)")
    return value


def _literal(node: ast.Constant, source: str) -> Fraction:
    value = node.value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise CalculationError("only numbers can be calculated")
    text = (ast.get_source_segment(source, node) or repr(value)).replace("_", "")
    match = re.fullmatch(r"(\d*\.?\d*)(?:e([+-]?\d{1,6}))?", text)
    if not match:
        raise CalculationError(f"cannot read the number {text[:30]}")
    exponent = int(match.group(2) or "0")
    if abs(exponent) > MAX_LITERAL_EXPONENT:
        raise CalculationError(f"the number {text[:30]} is too large")
    number = Fraction(match.group(1) or "0") * Fraction(10) ** exponent
    _checked(number)
    return number


def _iroot(n: int, k: int) -> int:
    """The integer part of the ``k``-th root of ``n`` >= 0 (Newton's method on integers)."""
    if n < 2:
        return n
    x = 1 << -(-n.bit_length() // k)
    while True:
        y = ((k - 1) * x + n // x ** (k - 1)) // k
        if y >= x:
            return x
        x = y


def _exact_root(value: Fraction, k: int) -> Fraction | None:
    """The ``k``-th root of ``value`` >= 0 when it is rational, else None."""
    num, den = _iroot(value.numerator, k), _iroot(value.denominator, k)
    if num**k == value.numerator and den**k == value.denominator:
        return Fraction(num, den)
    return None


def _power(base: Number, exponent: Number) -> Number:
    if isinstance(base, Fraction) and isinstance(exponent, Fraction):
        if exponent.denominator == 1:
            n = exponent.numerator
            if base == 0 and n < 0:
                raise CalculationError("division by zero")
            if base in (0, 1) or n == 0:
                return Fraction(1) if n == 0 else base
            if base == -1:
                return Fraction(-1 if n % 2 else 1)
            if _sig_bits(base) * abs(n) > MAX_BITS + _sig_bits(base):
                raise CalculationError("the result would be too large (more than about 1,000 digits)")
            return _checked(base**n)
        p, q = exponent.numerator, exponent.denominator
        if q <= 64:
            magnitude = -base if base < 0 else base
            root = _exact_root(magnitude, q)
            if base < 0 and q % 2 == 0:
                raise CalculationError("an even root of a negative number is not a real number")
            if root is not None:
                signed = -root if base < 0 else root
                return _power(signed, Fraction(p))
            if base < 0:  # an odd root of a negative number: real, negative when p is odd
                value = _float_power(float(magnitude), float(exponent))
                return -value if p % 2 else value
    if base < 0 and not float(exponent).is_integer():
        raise CalculationError("a fractional power of a negative number is not a real number")
    return _float_power(float(base), float(exponent))


def _float_power(base: float, exponent: float) -> float:
    try:
        return float(_checked(math.pow(base, exponent)))
    except OverflowError:
        raise CalculationError("the result is too large") from None
    except ValueError:
        raise CalculationError("that power is not a real number") from None


def _to_float(value: Number) -> float:
    try:
        return float(value)
    except OverflowError:
        raise CalculationError("the number is too large for this function") from None


def _degrees_sin(angle: Fraction) -> Number:
    """The sine of ``angle`` degrees, exact at multiples of 30 where the sine is rational."""
    turn = angle % 360
    half = Fraction(1, 2)
    exact = {0: Fraction(0), 30: half, 90: Fraction(1), 150: half, 180: Fraction(0), 210: -half, 270: -Fraction(1)}
    exact[330] = -half
    if turn.denominator == 1 and int(turn) in exact:
        return exact[int(turn)]
    return math.sin(math.radians(float(turn)))


def _trig(name: str, value: Number, radians: bool) -> Number:
    if radians or isinstance(value, float):
        angle = _to_float(value) if radians else math.radians(_to_float(value))
        result = {"sin": math.sin, "cos": math.cos, "tan": math.tan}[name](angle)
        if name == "tan" and abs(math.cos(angle)) < 1e-15:
            raise CalculationError("the tangent of that angle is undefined")
        return result
    if name == "sin":
        return _degrees_sin(value)
    if name == "cos":
        return _degrees_sin(value + 90)
    sine, cosine = _degrees_sin(value), _degrees_sin(value + 90)
    if cosine == 0:
        raise CalculationError(f"the tangent of {_plain(value)}° is undefined")
    if isinstance(sine, Fraction) and isinstance(cosine, Fraction):
        return sine / cosine
    turn = value % 180
    if turn in (45, 135):
        return Fraction(1 if turn == 45 else -1)
    return float(sine) / float(cosine)


def _log(value: Number, base: Number | None) -> Number:
    if value <= 0:
        raise CalculationError("the logarithm is defined only for positive numbers")
    if base is not None and (base <= 0 or base == 1):
        raise CalculationError("a logarithm's base must be positive and not 1")
    if isinstance(value, Fraction) and isinstance(base, Fraction) and base.denominator == 1 and base > 1:
        power = _whole_power(value.numerator, base.numerator) if value.denominator == 1 else None
        if power is None and value.numerator == 1:
            inverse = _whole_power(value.denominator, base.numerator)
            power = -inverse if inverse is not None else None
        if power is not None:
            return Fraction(power)
    if isinstance(value, Fraction):  # math.log takes integers of any size
        natural = math.log(value.numerator) - math.log(value.denominator)
    else:
        natural = math.log(value)
    if base is None:
        return natural
    return natural / (
        math.log(base.numerator) - math.log(base.denominator) if isinstance(base, Fraction) else math.log(base)
    )


def _whole_power(n: int, base: int) -> int | None:
    """k when ``n`` is ``base`` ** k, else None."""
    k = 0
    while n % base == 0 and n > 1:
        n //= base
        k += 1
    return k if n == 1 else None


def _round(value: Number, places: Number | None) -> Number:
    """Halves rounded away from zero, as people round (not Python's to-even)."""
    digits = 0 if places is None else places
    if not isinstance(digits, Fraction) or digits.denominator != 1 or abs(digits) > 50:
        raise CalculationError("round(x, n) needs a whole number of decimal places n, at most 50")
    exact = Fraction(repr(value)) if isinstance(value, float) else value
    scale = Fraction(10) ** int(digits)
    scaled = abs(exact) * scale
    whole = math.floor(scaled + Fraction(1, 2))
    result = Fraction(whole) / scale
    return -result if exact < 0 else result


def _factorial(value: Number) -> Number:
    if not isinstance(value, Fraction) or value.denominator != 1 or value < 0:
        raise CalculationError("factorial needs a whole number, 0 or more")
    if value > MAX_FACTORIAL:
        raise CalculationError(f"factorial of more than {MAX_FACTORIAL} would be too large (over 1,000 digits)")
    return Fraction(math.factorial(int(value)))


def _one(name: str, function: Callable[[Number], Number]) -> Callable[[list[Number], bool], Number]:
    def call(args: list[Number], radians: bool) -> Number:
        if len(args) != 1:
            raise CalculationError(f"{name} takes one number")
        return function(args[0])

    return call


def _sqrt(value: Number) -> Number:
    if value < 0:
        raise CalculationError("the square root of a negative number is not a real number")
    return _power(value, Fraction(1, 2))


def _abs(value: Number) -> Number:
    return -value if value < 0 else value


def _cbrt(value: Number) -> Number:
    root = _power(_abs(value), Fraction(1, 3))
    return -root if value < 0 else root


def _exp(value: Number) -> Number:
    try:
        return math.exp(_to_float(value))
    except OverflowError:
        raise CalculationError("the result is too large") from None


def _floor(value: Number) -> Number:
    return Fraction(math.floor(value))


def _ceil(value: Number) -> Number:
    return Fraction(math.ceil(value))


def _call_round(args: list[Number], radians: bool) -> Number:
    if len(args) not in (1, 2):
        raise CalculationError("round takes a number and, optionally, a number of decimal places")
    return _round(args[0], args[1] if len(args) == 2 else None)


def _call_log(args: list[Number], radians: bool) -> Number:
    if len(args) not in (1, 2):
        raise CalculationError("log takes a number and, optionally, a base")
    return _log(args[0], args[1] if len(args) == 2 else Fraction(10))


def _extreme(name: str, pick: Callable[..., Any]) -> Callable[[list[Number], bool], Number]:
    def call(args: list[Number], radians: bool) -> Number:
        if not args:
            raise CalculationError(f"{name} takes at least one number")
        value: Number = pick(args)
        return value

    return call


def _trig_function(name: str) -> Callable[[list[Number], bool], Number]:
    def call(args: list[Number], radians: bool) -> Number:
        if len(args) != 1:
            raise CalculationError(f"{name} takes one angle")
        return _trig(name, args[0], radians)

    return call


FUNCTIONS: Mapping[str, Callable[[list[Number], bool], Number]] = {
    "sqrt": _one("sqrt", _sqrt),
    "cbrt": _one("cbrt", _cbrt),
    "abs": _one("abs", _abs),
    "floor": _one("floor", _floor),
    "ceil": _one("ceil", _ceil),
    "round": _call_round,
    "exp": _one("exp", _exp),
    "ln": _one("ln", lambda x: _log(x, None)),
    "log": _call_log,
    "log10": _one("log10", lambda x: _log(x, Fraction(10))),
    "log2": _one("log2", lambda x: _log(x, Fraction(2))),
    "sin": _trig_function("sin"),
    "cos": _trig_function("cos"),
    "tan": _trig_function("tan"),
    "factorial": _one("factorial", _factorial),
    "min": _extreme("min", min),
    "max": _extreme("max", max),
    "pct": _one("pct", lambda x: x / 100),  # "15%", written by ``_percentages``
}
CONSTANTS: Mapping[str, float] = {"pi": math.pi, "e": math.e}
_OPERATORS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)


def _check_tree(tree: ast.AST) -> None:
    """Refuse what the walk does not know, and trees too big or deep, before computing anything."""
    stack: list[tuple[ast.AST, int]] = [(tree, 0)]
    count = 0
    while stack:
        node, depth = stack.pop()
        count += 1
        if count > MAX_NODES or depth > MAX_DEPTH:
            raise CalculationError("the expression is too long or nested too deep")
        if isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
                name = node.func.id if isinstance(node.func, ast.Name) else "that"
                raise CalculationError(f"{name} is not a function I know; I know {_known_functions()}")
            if node.keywords:
                raise CalculationError("functions take plain numbers, without names")
            stack += [(arg, depth + 1) for arg in node.args]
            continue
        if isinstance(node, ast.Name):
            if node.id not in CONSTANTS:
                raise CalculationError(f"{node.id!r} is not a number; write the numbers themselves")
        elif isinstance(node, ast.BinOp):
            if not isinstance(node.op, _OPERATORS):
                raise CalculationError("only + - * / // % and ^ (power) are known")
        elif isinstance(node, ast.UnaryOp):
            if not isinstance(node.op, (ast.USub, ast.UAdd)):
                raise CalculationError("only the signs + and - can stand before a number")
        elif not isinstance(node, (ast.Expression, ast.Constant, ast.operator, ast.unaryop, ast.expr_context)):
            raise CalculationError("only numbers, + - * / ^, parentheses and a few functions can be calculated")
        stack += [(child, depth + 1) for child in ast.iter_child_nodes(node)]


def _known_functions() -> str:
    return ", ".join(name for name in FUNCTIONS if name != "pct")


def _is_percent(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "pct"


class _Walk:
    def __init__(self, source: str) -> None:
        self.source = source

    def value(self, node: ast.AST, radians: bool = False) -> Number:
        if isinstance(node, ast.Expression):
            return self.value(node.body, radians)
        if isinstance(node, ast.Constant):
            return _literal(node, self.source)
        if isinstance(node, ast.Name):
            return CONSTANTS[node.id]
        if isinstance(node, ast.UnaryOp):
            operand = self.value(node.operand, radians)
            return -operand if isinstance(node.op, ast.USub) else operand
        if isinstance(node, ast.BinOp):
            return self.binary(node, radians)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            name = node.func.id
            in_radians = radians or (name in ("sin", "cos", "tan") and _mentions_pi(node))
            args = [self.value(arg, in_radians) for arg in node.args]
            return _checked(FUNCTIONS[name](args, in_radians))
        raise CalculationError("only numbers and arithmetic can be calculated")

    def binary(self, node: ast.BinOp, radians: bool) -> Number:
        left = self.value(node.left, radians)
        if isinstance(node.op, (ast.Add, ast.Sub)) and _is_percent(node.right):
            share = self.value(node.right, radians)  # "50 + 10%": 50 increased by 10%
            return _checked(left * (1 + share) if isinstance(node.op, ast.Add) else left * (1 - share))
        right = self.value(node.right, radians)
        op = node.op
        try:
            if isinstance(op, ast.Add):
                return _checked(left + right)
            if isinstance(op, ast.Sub):
                return _checked(left - right)
            if isinstance(op, ast.Mult):
                return _checked(left * right)
            if isinstance(op, ast.Pow):
                return _power(left, right)
            if right == 0:
                raise CalculationError("division by zero")
            if isinstance(op, ast.Div):
                return _checked(left / right)
            if isinstance(op, ast.FloorDiv):
                quotient = left // right
                return _checked(Fraction(quotient) if isinstance(quotient, int) else quotient)
            return _checked(left % right)
        except OverflowError:
            raise CalculationError("the result is too large") from None


def _mentions_pi(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Name) and n.id == "pi" for n in ast.walk(node))


def evaluate(expression: str) -> Number:
    """The value of ``expression`` (in the syntax ``normalize`` gives, percentages included);
    CalculationError when it cannot be computed."""
    source = _percentages(expression)
    if len(source) > 2 * MAX_EXPRESSION_CHARS:
        raise CalculationError("the expression is too long")
    try:
        tree = ast.parse(source, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise CalculationError(
            f"cannot read {expression[:80]!r} as arithmetic; write it like 1234 * 5678, 15% of 80 or sqrt(2)"
        ) from None
    _check_tree(tree)
    try:
        return _Walk(source).value(tree)
    except ZeroDivisionError:
        raise CalculationError("division by zero") from None
    except RecursionError:
        raise CalculationError("the expression is nested too deep") from None


# ------------------------------------------------------------------------------ the answer


def _decimal_text(value: Decimal) -> str:
    """A decimal with its integer part grouped by thousands ("1,234.5"), or "1.5 × 10^21" when it
    is very large or very small."""
    if value == 0:
        return "0"
    value = value.normalize()
    exponent = value.adjusted()
    if exponent >= 21 or exponent < -9:
        digits = value.as_tuple().digits
        mantissa = "".join(map(str, digits))
        mantissa = mantissa[0] + ("." + mantissa[1:] if len(mantissa) > 1 else "")
        return f"{'-' if value < 0 else ''}{mantissa} × 10^{exponent}"
    text = format(value, "f")
    sign = "-" if text.startswith("-") else ""
    whole, _, fraction = text.lstrip("-").partition(".")
    return f"{sign}{int(whole):,}" + (f".{fraction}" if fraction else "")


def _approximate(value: Number) -> Decimal:
    with localcontext() as context:
        context.prec = SIGNIFICANT
        if isinstance(value, float):
            return +Decimal(value)
        return Decimal(value.numerator) / Decimal(value.denominator)


def _terminating_places(value: Fraction) -> int | None:
    """How many decimal places write ``value`` exactly, when finitely many do."""
    den, twos, fives = value.denominator, 0, 0
    while den % 2 == 0:
        den //= 2
        twos += 1
    while den % 5 == 0:
        den //= 5
        fives += 1
    return max(twos, fives) if den == 1 else None


def format_number(value: Number) -> tuple[str, bool]:
    """``value`` for people and the model ("7,006,652", "0.333333333333") and whether that text
    is exact."""
    if isinstance(value, float):
        if value == 0:
            return "0", True
        shown = _approximate(value)
        return _decimal_text(shown), abs(float(shown) - value) <= 1e-15 * abs(value)
    if value.denominator == 1:
        digits = len(str(abs(value.numerator)))
        if digits <= FULL_DIGITS:
            return f"{value.numerator:,}", True
        return f"{_decimal_text(_approximate(value))} (a {digits:,}-digit number)", False
    places = _terminating_places(value)
    if places is not None and places <= 20:
        with localcontext() as context:
            context.prec = places + len(str(abs(value.numerator // value.denominator))) + 2
            exact = Decimal(value.numerator) / Decimal(value.denominator)
        if exact.adjusted() < 21:
            return _decimal_text(exact), True
    return _decimal_text(_approximate(value)), False


def _plain(value: Number) -> str:
    return format_number(value)[0]


def _answer(echo: str, value: Number, suffix: str = "") -> tuple[str, str]:
    """(text, summary): "1,234 × 5,678 = 7,006,652", with "≈" and the exact fraction when the
    decimal is rounded."""
    shown, exact = format_number(value)
    sign = "=" if exact else "≈"
    text = f"{echo} {sign} {shown}{suffix}"
    if (
        not exact
        and isinstance(value, Fraction)
        and value.denominator != 1
        and len(str(value.denominator)) <= 6
        and len(str(abs(value.numerator))) <= 9
    ):
        text += f" (exactly {value.numerator}/{value.denominator})"
    return text, f"{echo} {sign} {shown}{suffix}"


_TOKEN = re.compile(r"\d[\d_]*(?:\.\d*)?(?:e[+-]?\d+)?|\.\d+|[a-z_][a-z_0-9]*|\*\*|//|[-+*/%(),!]|\S")
_BINARY = {"+": "+", "-": "-", "*": "×", "/": "÷", "//": "//", "**": "^", "mod": "mod"}


def pretty(text: str) -> str:
    """The normalized expression as people read it: "1234*5678" -> "1,234 × 5,678"."""
    tokens = _TOKEN.findall(text)
    out: list[str] = []
    previous = ""
    for i, token in enumerate(tokens):
        following = tokens[i + 1] if i + 1 < len(tokens) else ""
        if token == "%" and (following[:1].isdigit() or following in ("(", ".")):
            token = "mod"  # the remainder, not a percentage
        if token[0].isdigit():
            whole, dot, rest = token.partition(".")
            if whole.isdigit() and len(whole) >= 4 and "e" not in token:
                token = f"{int(whole):,}{dot}{rest}"
            out.append(token if previous in ("(", "-u", "") else " " + token)
            previous = "n"
        elif token in _BINARY and not (token in ("+", "-") and previous in ("", "(", "op", ",")):
            out.append(f" {_BINARY[token]}")
            previous = "op"
        elif token in ("+", "-"):
            out.append(token if previous in ("", "(") else " " + token)
            previous = "-u"
        elif token == "(":
            out.append(token if previous in ("f", "(", "-u", "") else " " + token)
            previous = "("
        elif token in (")", "%", "!"):
            out.append(token)
            previous = "n"
        elif token == ",":
            out.append(",")
            previous = ","
        else:
            out.append(token if previous in ("(", "-u", "") else " " + token)
            previous = "f" if token in FUNCTIONS else "n"
    return "".join(out).strip()


def _in_degrees(text: str) -> bool:
    """Whether the expression takes a sine, cosine or tangent of degrees (no pi in it)."""
    return bool(re.search(r"\b(?:sin|cos|tan)\(", text)) and not re.search(r"\bpi\b", text)


def calculate(expression: str) -> ToolResult:
    """The tool's work: the answer first ("15% of 80 = 12"), or an error result saying why."""
    if len(expression) > MAX_EXPRESSION_CHARS:
        return ToolResult.error(f"the expression is too long (at most {MAX_EXPRESSION_CHARS} characters)")
    text = normalize(expression)
    if not text:
        return ToolResult.error("the expression is empty; write it like 1234 * 5678")
    try:
        for pattern in _RATIO:
            if match := pattern.match(text):
                part, whole = evaluate(match["a"]), evaluate(match["b"])
                if whole == 0:
                    raise CalculationError("a percentage of zero is undefined")
                share, exact = format_number(part / whole * 100)
                answer = f"{pretty(match['a'])} is {'' if exact else 'about '}{share}% of {pretty(match['b'])}"
                return ToolResult(answer, answer, answer=sentence(spoken(answer)))
        for pattern in _CHANGE:
            if match := pattern.match(text):
                start, end = evaluate(match["a"]), evaluate(match["b"])
                if start == 0:
                    raise CalculationError("a change from zero has no percentage")
                change = (end - start) / _abs(start) * 100
                shown, exact = format_number(_abs(change))
                kind = "an increase" if change > 0 else "a decrease" if change < 0 else "no change"
                about = "" if exact else "about "
                amount = f" of {about}{shown}%" if change else ""
                answer = f"From {pretty(match['a'])} to {pretty(match['b'])} is {kind}{amount}"
                return ToolResult(answer, answer, answer=sentence(spoken(answer)))
        if (match := _INCREASE.match(text)) and match["p"].rstrip().endswith("%"):
            sign = "+" if match["verb"] in ("increase", "raise", "add") else "-"
            text = (
                f"({match['a']}) {sign} {match['p']}"
                if " " in match["a"].strip()
                else f"{match['a']} {sign} {match['p']}"
            )
        elif (match := _ADD_PERCENT.match(text)) is not None:
            sign = "+" if match["verb"] == "add" else "-"
            text = f"{match['a']} {sign} {match['p']}"
        value = evaluate(text)
    except CalculationError as exc:
        return ToolResult.error(str(exc))
    answer, summary = _answer(pretty(text), value, " (angles in degrees)" if _in_degrees(text) else "")
    return ToolResult(answer, summary, answer=sentence(spoken(summary)))


_ASKED = re.compile(
    r"^(?:(?:so|and|ok|okay|hey|please|quickly|can you|could you|tell me)\s+)*"
    r"(?:what's|what is|whats|how much is|calculate|compute|work out)\s+(?:the\s+)?",
    re.IGNORECASE,
)


class Calculator(Cued):
    """The ``calculate`` tool."""

    def arguments_from(self, request: str) -> dict[str, Any] | None:
        """The call's arguments when ``request`` (its numbers in digits) is a calculation the
        calculator reads as it is once its question words go ("what's 14 times 23": "14 times
        23"), so that the model need not write it; None where it is not (the model writes it)."""
        expression = _ASKED.sub("", request.strip(), count=1).rstrip(" ?.!")
        if not expression or calculate(expression).is_error:
            return None
        return {"expression": expression}

    spec = ToolSpec(
        name="calculate",
        title="Calculate",
        description=(
            "Calculate exactly: arithmetic, percentages, powers and roots. "
            "Use it for any math instead of working it out yourself."
        ),
        parameters={
            "type": "object",
            "properties": {
                "expression": {
                    "type": "string",
                    "description": 'The calculation, e.g. "1234 * 5678", "15% of 80", "(2+3)^2", "sqrt(2)".',
                }
            },
            "required": ["expression"],
        },
        read_only=True,
    )

    def describe(self, arguments: Mapping[str, Any]) -> str:
        return f"calculate {str(arguments.get('expression', ''))[:80]}".rstrip()

    def run(self, arguments: Mapping[str, Any], cancel: CancelFlag) -> ToolResult:
        return calculate(str(arguments.get("expression", "")))
