"""``convert_units``: a value from one unit to another of the same kind (length, mass, volume and
cooking measures, temperature, speed, area, time, data and data rates, energy, pressure, power,
angle, fuel economy).

Units are found by name, plural, symbol or common spelling ("miles", "mi", "km/h", "kph", "°F",
"fahrenheit", "lbs", "fl oz", "square feet"), case-insensitively except where case is the
meaning ("MB" a megabyte, "Mb" a megabit).  A name that means two units ("oz": weight or volume,
"m": metres or minutes) takes the meaning that fits the other unit.  Factors are exact
(``Fraction``), so 5 miles are exactly 8.04672 km; a rounded result says so ("≈").
"""

from __future__ import annotations

import dataclasses
import difflib
import math
import re
from collections.abc import Mapping
from decimal import Decimal, localcontext
from fractions import Fraction
from typing import Any

from ...backend.cancel import CancelFlag
from ..tool import ToolResult, ToolSpec
from . import cues
from .cues import Cued
from .wording import fold_keep

SHOWN_DIGITS = 6  # significant digits of a rounded result
EXACT_DIGITS = 9  # an exact result with at most this many significant digits is shown whole
MAX_NAME_CHARS = 60
TAKEN_AS_RATIO = 0.85  # a misspelt name this close to a unit's is taken as that unit (and said)

F = Fraction


@dataclasses.dataclass(frozen=True)
class Unit:
    dimension: str  # "length"
    singular: str  # "kilometre"
    plural: str  # "kilometres"
    symbol: str  # "km"
    factor: Fraction | float  # value * factor (+ offset) is the value in the dimension's base unit
    offset: Fraction = F(0)  # temperatures
    inverse: bool = False  # fuel use: base = factor / value (litres per 100 km against km per litre)

    def name(self, value: Fraction | float) -> str:
        return self.singular if value == 1 else self.plural

    def to_base(self, value: Fraction | float) -> Fraction | float:
        if self.inverse:
            if value == 0:
                raise ValueError(f"0 {self.plural} cannot be converted")
            return self.factor / value
        return value * self.factor + self.offset

    def from_base(self, value: Fraction | float) -> Fraction | float:
        if self.inverse:
            if value == 0:
                raise ValueError("a value of 0 cannot be converted")
            return self.factor / value
        return (value - self.offset) / self.factor


_DIMENSIONS = {
    "length": "length",
    "mass": "weight",
    "volume": "volume",
    "temperature": "temperature",
    "speed": "speed",
    "area": "area",
    "time": "time",
    "data": "data size",
    "rate": "data rate",
    "energy": "energy",
    "pressure": "pressure",
    "power": "power",
    "angle": "angle",
    "fuel": "fuel economy",
}

_POUND = F("0.45359237")
_INCH = F("0.0254")
_GALLON = F("3.785411784")  # litres
_G = F("9.80665")

# dimension, "singular|plural", symbol, factor, other names ("|"-separated), offset.
_TABLE: tuple[tuple[str, str, str, Fraction | float, str, Fraction], ...] = (
    ("length", "nanometre|nanometres", "nm", F(1, 10**9), "", F(0)),
    ("length", "micrometre|micrometres", "µm", F(1, 10**6), "micron|microns|um", F(0)),
    ("length", "millimetre|millimetres", "mm", F(1, 1000), "", F(0)),
    ("length", "centimetre|centimetres", "cm", F(1, 100), "", F(0)),
    ("length", "metre|metres", "m", F(1), "", F(0)),
    ("length", "kilometre|kilometres", "km", F(1000), "kms|klick|klicks", F(0)),
    ("length", "inch|inches", "in", _INCH, '"|ins', F(0)),
    ("length", "foot|feet", "ft", 12 * _INCH, "'|foots", F(0)),
    ("length", "yard|yards", "yd", 36 * _INCH, "yds", F(0)),
    ("length", "mile|miles", "mi", 63360 * _INCH, "", F(0)),
    ("length", "nautical mile|nautical miles", "nmi", F(1852), "nm mile", F(0)),
    ("length", "astronomical unit|astronomical units", "au", F(149597870700), "", F(0)),
    ("length", "light year|light years", "ly", F(9460730472580800), "lightyear|lightyears|light-year", F(0)),
    ("mass", "microgram|micrograms", "µg", F(1, 10**9), "mcg|ug", F(0)),
    ("mass", "milligram|milligrams", "mg", F(1, 10**6), "", F(0)),
    ("mass", "gram|grams", "g", F(1, 1000), "gm|gms|gr|gramme|grammes", F(0)),
    ("mass", "kilogram|kilograms", "kg", F(1), "kilo|kilos|kgs|kilogramme|kilogrammes", F(0)),
    ("mass", "tonne|tonnes", "t", F(1000), "metric ton|metric tons|metric tonne", F(0)),
    ("mass", "ounce|ounces", "oz", _POUND / 16, "ozs", F(0)),
    ("mass", "pound|pounds", "lb", _POUND, "lbs|pound weight|#", F(0)),
    ("mass", "stone|stone", "st", 14 * _POUND, "stones", F(0)),
    ("mass", "US ton|US tons", "ton", 2000 * _POUND, "ton|tons|short ton|short tons", F(0)),
    ("mass", "long ton|long tons", "long ton", 2240 * _POUND, "imperial ton|imperial tons|uk ton", F(0)),
    ("mass", "carat|carats", "ct", F(1, 5000), "", F(0)),
    ("volume", "millilitre|millilitres", "ml", F(1, 1000), "cc|cm3|cubic centimetre|cubic centimetres", F(0)),
    ("volume", "centilitre|centilitres", "cl", F(1, 100), "", F(0)),
    ("volume", "decilitre|decilitres", "dl", F(1, 10), "", F(0)),
    ("volume", "litre|litres", "l", F(1), "ltr|ltrs|lt", F(0)),
    ("volume", "cubic metre|cubic metres", "m³", F(1000), "m3|cubic m|cu m", F(0)),
    ("volume", "cubic inch|cubic inches", "in³", (_INCH * 10) ** 3, "in3|cu in|cubic in", F(0)),
    ("volume", "cubic foot|cubic feet", "ft³", (12 * _INCH * 10) ** 3, "ft3|cu ft|cubic ft", F(0)),
    ("volume", "teaspoon|teaspoons", "tsp", _GALLON / 768, "tsps|teaspoonful|teaspoonfuls|t", F(0)),
    ("volume", "tablespoon|tablespoons", "tbsp", _GALLON / 256, "tbsps|tbs|tbl|tablespoonful|tablespoonfuls", F(0)),
    ("volume", "fluid ounce|fluid ounces", "fl oz", _GALLON / 128, "floz|fl oz|fl ozs|fl. oz|oz|ounce|ounces", F(0)),
    ("volume", "cup|cups", "cup", _GALLON / 16, "c|us cup|us cups", F(0)),
    ("volume", "pint|pints", "pt", _GALLON / 8, "pts|us pint|us pints", F(0)),
    ("volume", "quart|quarts", "qt", _GALLON / 4, "qts|us quart|us quarts", F(0)),
    ("volume", "gallon|gallons", "gal", _GALLON, "gals|us gallon|us gallons", F(0)),
    ("volume", "imperial fluid ounce|imperial fluid ounces", "imp fl oz", F("4.54609") / 160, "uk fluid ounce", F(0)),
    ("volume", "imperial pint|imperial pints", "imp pt", F("4.54609") / 8, "uk pint|uk pints|british pint", F(0)),
    ("volume", "imperial gallon|imperial gallons", "imp gal", F("4.54609"), "uk gallon|uk gallons", F(0)),
    ("temperature", "degree Celsius|degrees Celsius", "°C", F(1), "c|celsius|centigrade|degc|deg c", F("273.15")),
    (
        "temperature",
        "degree Fahrenheit|degrees Fahrenheit",
        "°F",
        F(5, 9),
        "f|fahrenheit|degf|deg f",
        F("459.67") * F(5, 9),
    ),
    ("temperature", "kelvin|kelvin", "K", F(1), "kelvins|k|degrees kelvin|degree kelvin", F(0)),
    ("speed", "metre per second|metres per second", "m/s", F(1), "mps|meter/second|ms-1", F(0)),
    ("speed", "kilometre per hour|kilometres per hour", "km/h", F(1000, 3600), "kph|kmh|kmph|kmhr|km/hr|kmh-1", F(0)),
    ("speed", "mile per hour|miles per hour", "mph", 63360 * _INCH / 3600, "mi/h|mi/hr|miph", F(0)),
    ("speed", "knot|knots", "kn", F(1852, 3600), "kt|kts", F(0)),
    ("speed", "foot per second|feet per second", "ft/s", 12 * _INCH, "fps", F(0)),
    ("area", "square millimetre|square millimetres", "mm²", F(1, 10**6), "mm2|sq mm", F(0)),
    ("area", "square centimetre|square centimetres", "cm²", F(1, 10**4), "cm2|sq cm", F(0)),
    ("area", "square metre|square metres", "m²", F(1), "m2|sq m|sqm|sq metre|sq metres", F(0)),
    ("area", "square kilometre|square kilometres", "km²", F(10**6), "km2|sq km|sqkm", F(0)),
    ("area", "hectare|hectares", "ha", F(10**4), "", F(0)),
    ("area", "acre|acres", "ac", 43560 * (12 * _INCH) ** 2, "", F(0)),
    ("area", "square inch|square inches", "in²", _INCH**2, "in2|sq in|sq inch|sq inches", F(0)),
    ("area", "square foot|square feet", "ft²", (12 * _INCH) ** 2, "ft2|sq ft|sqft|sq foot|sq feet", F(0)),
    ("area", "square yard|square yards", "yd²", (36 * _INCH) ** 2, "yd2|sq yd|sq yard|sq yards", F(0)),
    ("area", "square mile|square miles", "mi²", (63360 * _INCH) ** 2, "mi2|sq mi|sq mile|sq miles", F(0)),
    ("time", "nanosecond|nanoseconds", "ns", F(1, 10**9), "nsec", F(0)),
    ("time", "microsecond|microseconds", "µs", F(1, 10**6), "us|usec", F(0)),
    ("time", "millisecond|milliseconds", "ms", F(1, 1000), "msec|msecs", F(0)),
    ("time", "second|seconds", "s", F(1), "sec|secs", F(0)),
    ("time", "minute|minutes", "min", F(60), "mins|m", F(0)),
    ("time", "hour|hours", "h", F(3600), "hr|hrs", F(0)),
    ("time", "day|days", "d", F(86400), "", F(0)),
    ("time", "week|weeks", "wk", F(7 * 86400), "wks", F(0)),
    ("time", "month|months", "month", F(2629746), "mo|mos|mth|mths", F(0)),  # a 12th of a Gregorian year
    ("time", "year|years", "yr", F(31556952), "yrs|y|a", F(0)),  # 365.2425 days
    ("time", "decade|decades", "decade", F(315569520), "", F(0)),
    ("time", "century|centuries", "century", F(3155695200), "", F(0)),
    ("data", "bit|bits", "bit", F(1, 8), "", F(0)),
    ("data", "byte|bytes", "B", F(1), "", F(0)),
    ("data", "kilobyte|kilobytes", "kB", F(10**3), "kb|kbyte|kbytes", F(0)),
    ("data", "megabyte|megabytes", "MB", F(10**6), "mb|mbyte|mbytes|meg|megs", F(0)),
    ("data", "gigabyte|gigabytes", "GB", F(10**9), "gb|gbyte|gbytes|gig|gigs", F(0)),
    ("data", "terabyte|terabytes", "TB", F(10**12), "tb|tbyte|tbytes", F(0)),
    ("data", "petabyte|petabytes", "PB", F(10**15), "pb", F(0)),
    ("data", "kibibyte|kibibytes", "KiB", F(2**10), "kib", F(0)),
    ("data", "mebibyte|mebibytes", "MiB", F(2**20), "mib", F(0)),
    ("data", "gibibyte|gibibytes", "GiB", F(2**30), "gib", F(0)),
    ("data", "tebibyte|tebibytes", "TiB", F(2**40), "tib", F(0)),
    ("data", "kilobit|kilobits", "kbit", F(125), "kbits", F(0)),
    ("data", "megabit|megabits", "Mbit", F(125000), "mbits", F(0)),
    ("data", "gigabit|gigabits", "Gbit", F(125 * 10**6), "gbits", F(0)),
    ("rate", "bit per second|bits per second", "bit/s", F(1), "bps|b/s", F(0)),
    ("rate", "kilobit per second|kilobits per second", "kbit/s", F(10**3), "kbps|kb/s|kbit/s", F(0)),
    ("rate", "megabit per second|megabits per second", "Mbit/s", F(10**6), "mbps|mbit/s", F(0)),
    ("rate", "gigabit per second|gigabits per second", "Gbit/s", F(10**9), "gbps|gbit/s", F(0)),
    ("rate", "megabyte per second|megabytes per second", "MB/s", F(8 * 10**6), "mbyte/s|mb/sec", F(0)),
    ("rate", "gigabyte per second|gigabytes per second", "GB/s", F(8 * 10**9), "gbyte/s", F(0)),
    ("energy", "joule|joules", "J", F(1), "j", F(0)),
    ("energy", "kilojoule|kilojoules", "kJ", F(1000), "kj", F(0)),
    ("energy", "megajoule|megajoules", "MJ", F(10**6), "mj", F(0)),
    ("energy", "calorie|calories", "cal", F("4.184"), "small calorie|small calories", F(0)),
    ("energy", "kilocalorie|kilocalories", "kcal", F(4184), "kcals|food calorie|food calories|big calorie", F(0)),
    ("energy", "watt-hour|watt-hours", "Wh", F(3600), "wh|watt hour|watt hours", F(0)),
    ("energy", "kilowatt-hour|kilowatt-hours", "kWh", F(3600000), "kwh|kilowatt hour|kilowatt hours", F(0)),
    ("energy", "British thermal unit|British thermal units", "BTU", F("1055.05585262"), "btu|btus", F(0)),
    ("energy", "electronvolt|electronvolts", "eV", F("1.602176634e-19"), "ev|electron volt|electron volts", F(0)),
    ("pressure", "pascal|pascals", "Pa", F(1), "pa", F(0)),
    ("pressure", "hectopascal|hectopascals", "hPa", F(100), "hpa", F(0)),
    ("pressure", "kilopascal|kilopascals", "kPa", F(1000), "kpa", F(0)),
    ("pressure", "bar|bar", "bar", F(10**5), "bars", F(0)),
    ("pressure", "millibar|millibars", "mbar", F(100), "", F(0)),
    ("pressure", "atmosphere|atmospheres", "atm", F(101325), "atms", F(0)),
    ("pressure", "pound per square inch|pounds per square inch", "psi", _POUND * _G / _INCH**2, "lb/in2", F(0)),
    ("pressure", "millimetre of mercury|millimetres of mercury", "mmHg", F("133.322387415"), "mmhg|torr", F(0)),
    ("power", "watt|watts", "W", F(1), "w", F(0)),
    ("power", "kilowatt|kilowatts", "kW", F(1000), "kw", F(0)),
    ("power", "megawatt|megawatts", "MW", F(10**6), "mw", F(0)),
    ("power", "horsepower|horsepower", "hp", 550 * 12 * _INCH * _POUND * _G, "bhp", F(0)),
    ("power", "metric horsepower|metric horsepower", "PS", F("735.49875"), "ps|cv|pferdestarke", F(0)),
    ("angle", "degree|degrees", "°", F(1), "deg|degs", F(0)),
    ("angle", "radian|radians", "rad", 180 / math.pi, "rads", F(0)),
    ("angle", "turn|turns", "turn", F(360), "revolution|revolutions|rev|revs", F(0)),
    ("angle", "arcminute|arcminutes", "′", F(1, 60), "arcmin|minute of arc", F(0)),
    ("angle", "arcsecond|arcseconds", "″", F(1, 3600), "arcsec|second of arc", F(0)),
    ("fuel", "kilometre per litre|kilometres per litre", "km/L", F(1), "kpl|km/l|kmpl", F(0)),
)
# Fuel use, the inverse of economy: base (km per litre) = factor / value.
_INVERSE = (
    ("fuel", "litre per 100 kilometres|litres per 100 kilometres", "L/100 km", F(100), "l/100km|l/100 km|lp100km"),
)
_MILES_PER_GALLON = (
    ("fuel", "mile per gallon|miles per gallon", "mpg", 63360 * _INCH / 1000 / _GALLON, "us mpg|mi/gal"),
    (
        "fuel",
        "mile per imperial gallon|miles per imperial gallon",
        "mpg (UK)",
        63360 * _INCH / 1000 / F("4.54609"),
        "uk mpg|imperial mpg|mpg uk|mpg imperial",
    ),
)
# Symbols whose case is their meaning, looked up before the case-insensitive names.
_CASED = {
    "b": "bit",
    "B": "byte",
    "Mb": "megabit",
    "Gb": "gigabit",
    "Kb": "kilobit",
    "MB": "megabyte",
    "GB": "gigabyte",
    "KB": "kilobyte",
    "Mbps": "megabit per second",
    "MBps": "megabyte per second",
}
_IRREGULAR = {"feet": "foot", "inches": "inch", "centuries": "century", "stones": "stone"}


def _key(text: str) -> str:
    """A unit's name as the index holds it: lower case, without accents, dots and degree signs,
    British spellings, "per" as "/", "²" as "2"."""
    key = fold_keep(text.strip())
    for old, new in (
        ("²", "2"),
        ("³", "3"),
        ("^2", "2"),
        ("^3", "3"),
        ("μ", "u"),
        ("µ", "u"),
        ("°", " "),
        ("º", " "),
        ("meter", "metre"),
        ("liter", "litre"),
        (".", " "),
        ("_", " "),
    ):
        key = key.replace(old, new)
    key = re.sub(r"\bdegrees?\s+(?=c\b|f\b|k\b|celsius|fahrenheit|centigrade|kelvin)", "", key)
    key = re.sub(r"\s+per\s+", "/", key)
    key = re.sub(r"\s*/\s*", "/", key)
    key = " ".join(key.split())
    key = re.sub(r"^(?:square|sq)\s+(\w+)$|^(\w+)\s+squared$", lambda m: (m[1] or m[2]) + "2", key)
    key = re.sub(r"^(?:cubic|cu)\s+(\w+)$|^(\w+)\s+cubed$", lambda m: (m[1] or m[2]) + "3", key)
    return " ".join(key.split())


def _build() -> tuple[dict[str, list[Unit]], dict[str, Unit]]:
    index: dict[str, list[Unit]] = {}
    by_name: dict[str, Unit] = {}

    def add(unit: Unit, names: list[str]) -> None:
        by_name[unit.singular] = unit
        for name in names:
            if not name:
                continue
            bucket = index.setdefault(_key(name), [])
            if unit not in bucket:
                bucket.append(unit)

    rows: list[tuple[Unit, str]] = []
    for dimension, names, symbol, factor, others, offset in _TABLE:
        singular, plural = names.split("|")
        rows.append((Unit(dimension, singular, plural, symbol, factor, offset), others))
    for dimension, names, symbol, factor, others in _INVERSE:
        singular, plural = names.split("|")
        rows.append((Unit(dimension, singular, plural, symbol, factor, inverse=True), others))
    for dimension, names, symbol, factor, others in _MILES_PER_GALLON:
        singular, plural = names.split("|")
        rows.append((Unit(dimension, singular, plural, symbol, factor), others))
    # Names first, then other names, so that a unit's own name wins over another's alias ("t":
    # the tonne, not the teaspoon that cooks write "t").
    for unit, _ in rows:
        add(unit, [unit.singular, unit.plural, unit.symbol])
    for unit, others in rows:
        add(unit, others.split("|"))
    return index, by_name


_INDEX, _BY_NAME = _build()


def _singulars(key: str) -> list[str]:
    """``key`` and the forms it would have in the singular ("feet2" -> "foot2", "miles" -> "mile")."""
    words = key.split(" ")
    stem, power = re.fullmatch(r"(.*?)([23]?)", words[-1]).groups()  # type: ignore[union-attr]
    forms = [key]
    for form in (
        _IRREGULAR.get(stem),
        stem[:-2] if stem.endswith("es") else None,
        stem[:-1] if stem.endswith("s") else None,
    ):
        if form:
            forms.append(" ".join([*words[:-1], form + power]))
    if len(words) > 1 and words[0] in _IRREGULAR:  # "feet per second"
        forms.append(" ".join([_IRREGULAR[words[0]], *words[1:]]))
    return forms


class UnitError(Exception):
    """A unit that cannot be used, in words for the model."""


def find_units(text: str) -> tuple[list[Unit], str]:
    """The units ``text`` may name, the likeliest first, and how a misspelt name was taken ("" or
    "'Celcius' taken as degrees Celsius"); UnitError when it names none."""
    raw = " ".join(text.split())
    if not raw:
        raise UnitError("a unit is missing")
    if len(raw) > MAX_NAME_CHARS:
        raise UnitError(f"{raw[:MAX_NAME_CHARS]!r}... is too long for a unit's name")
    found: list[Unit] = []
    cased = _CASED.get(raw.replace(" ", ""))
    if cased:
        found.append(_BY_NAME[cased])
    for key in _singulars(_key(raw)):
        for unit in _INDEX.get(key, []):
            if unit not in found:
                found.append(unit)
        if found:
            break
    if found:
        return found, ""
    key = _key(raw)
    close = difflib.get_close_matches(key, [k for k in _INDEX if len(k) > 3], n=1, cutoff=0.8) if len(key) > 4 else []
    if close and difflib.SequenceMatcher(None, key, close[0]).ratio() >= TAKEN_AS_RATIO:
        units = _INDEX[close[0]]
        return units, f"{raw!r} taken as {units[0].plural}"
    hint = f"; did you mean {_INDEX[close[0]][0].plural}?" if close else ""
    raise UnitError(f"{raw!r} is not a unit I know{hint}")


def _pick(source: list[Unit], target: list[Unit]) -> tuple[Unit, Unit]:
    for a in source:
        for b in target:
            if a.dimension == b.dimension:
                return a, b
    a, b = source[0], target[0]
    why = ""
    if {a.dimension, b.dimension} == {"mass", "volume"}:
        why = " (that needs the ingredient's density)"
    raise UnitError(
        f"{a.plural} measure {_DIMENSIONS[a.dimension]} and {b.plural} measure "
        f"{_DIMENSIONS[b.dimension]}: they cannot be converted into each other{why}"
    )


def _amount(value: Fraction | float) -> tuple[str, bool]:
    """A value for people ("8.04672", "1,609.344") and whether it is exact: exact values of up to
    ``EXACT_DIGITS`` significant digits whole, others rounded to ``SHOWN_DIGITS`` (never
    dropping digits before the point)."""
    if isinstance(value, Fraction):
        exact = _exact_decimal(value)
        if exact is not None:
            return _grouped(exact), True
    elif not math.isfinite(value):
        raise UnitError("the result is too large")
    if value == 0:
        return "0", True
    whole_digits = len(str(abs(int(value))))
    with localcontext() as context:
        context.prec = max(SHOWN_DIGITS, whole_digits)
        if isinstance(value, Fraction):
            shown = Decimal(value.numerator) / Decimal(value.denominator)
        else:
            shown = +Decimal(value)
    exact_float = isinstance(value, float) and float(shown) == value
    return _grouped(shown), exact_float


def _exact_decimal(value: Fraction) -> Decimal | None:
    den, places = value.denominator, 0
    while den % 10 == 0:
        den //= 10
        places += 1
    while den % 2 == 0 or den % 5 == 0:
        den //= 2 if den % 2 == 0 else 5
        places += 1
    if den != 1:
        return None
    with localcontext() as context:
        context.prec = 80
        exact = Decimal(value.numerator) / Decimal(value.denominator)
    digits = len(exact.normalize().as_tuple().digits)
    return exact if digits <= EXACT_DIGITS and places <= 20 else None


def _grouped(value: Decimal) -> str:
    value = value.normalize()
    if value.adjusted() >= 21 or value.adjusted() < -9:
        return f"{value:.{SHOWN_DIGITS - 1}E}".replace("E", " × 10^").replace("^+", "^")
    text = format(value, "f")
    sign = "-" if text.startswith("-") else ""
    whole, _, fraction = text.lstrip("-").partition(".")
    return f"{sign}{int(whole):,}" + (f".{fraction}" if fraction else "")


def _value(number: Any) -> Fraction | float:
    """The model's number as an exact fraction (the decimal it wrote, not its binary float)."""
    if isinstance(number, bool) or not isinstance(number, (int, float)):
        raise UnitError("the value must be a number")
    if isinstance(number, float) and not math.isfinite(number):
        raise UnitError("the value must be a finite number")
    if abs(number) > 1e30:
        raise UnitError("the value is too large")
    return F(number) if isinstance(number, int) else F(repr(number))


def convert(value: Any, source: str, target: str) -> ToolResult:
    """The tool's work: "5 miles = 8.04672 kilometres", or an error result saying why not."""
    try:
        amount = _value(value)
        (sources, source_note), (targets, target_note) = find_units(source), find_units(target)
        unit_from, unit_to = _pick(sources, targets)
        try:
            result = unit_to.from_base(unit_from.to_base(amount))
        except (ValueError, ZeroDivisionError) as exc:
            raise UnitError(str(exc) or "that value cannot be converted") from None
        if unit_from.dimension == "temperature" and unit_from.to_base(amount) < 0:
            raise UnitError("that is below absolute zero")
        shown, exact = _amount(result)
    except UnitError as exc:
        return ToolResult.error(str(exc))
    given = _amount(amount)[0]
    sign = "=" if exact else "≈"
    notes = "; ".join(n for n in (source_note, target_note) if n)
    text = f"{given} {unit_from.name(amount)} {sign} {shown} {unit_to.name(result)}" + (f" ({notes})" if notes else "")
    summary = f"{given} {unit_from.symbol} {sign} {shown} {unit_to.symbol}"
    near, same = _spoken_amount(result)
    said = f"{given} {unit_from.name(amount)} is {'' if exact and same else 'about '}{near} {unit_to.name(result)}."
    return ToolResult(text, summary, answer=said)


def _spoken_amount(value: Any) -> tuple[str, bool]:
    """``value`` to four significant digits, as said aloud ("42.16"), and whether that is exact."""
    number = float(value)
    if number == int(number) and abs(number) < 1e15:
        return f"{int(number):,}", True
    places = max(0, 3 - math.floor(math.log10(abs(number)))) if number else 0
    near = round(number, places)
    return f"{near:,.{places}f}".rstrip("0").rstrip("."), near == number


class UnitConverter(Cued):
    """The ``convert_units`` tool."""

    spec = ToolSpec(
        name="convert_units",
        title="Convert units",
        description=(
            "Convert a value between units of length, weight, volume, cooking measures, temperature, "
            "speed, area, time, data size, energy, pressure and power."
        ),
        parameters={
            "type": "object",
            "properties": {
                "value": {"type": "number", "description": "The number to convert, e.g. 5."},
                "from_unit": {"type": "string", "description": 'The unit it is in, e.g. "miles", "°F", "cups".'},
                "to_unit": {"type": "string", "description": 'The unit wanted, e.g. "km", "°C", "ml".'},
            },
            "required": ["value", "from_unit", "to_unit"],
        },
        read_only=True,
    )

    def describe(self, arguments: Mapping[str, Any]) -> str:
        value = arguments.get("value", "")
        return f"convert {value} {arguments.get('from_unit', '')} to {arguments.get('to_unit', '')}"

    def relevance(self, request: str) -> float:
        """Sure for two units and a number or a question ("how many cups is 500 ml"); maybe for
        one unit; never without one (``cues``)."""
        text = cues.words_of(request)
        if not cues.english(request):
            return cues.MAYBE
        units = _units_in(text)
        if units >= 2 and (cues.NUMBER.search(text) or cues.CONVERT.search(text)):
            return cues.SURE
        return cues.MAYBE if units >= 1 else cues.NEVER

    def run(self, arguments: Mapping[str, Any], cancel: CancelFlag) -> ToolResult:
        return convert(arguments.get("value"), str(arguments.get("from_unit", "")), str(arguments.get("to_unit", "")))


def _units_in(text: str) -> int:
    """How many unit names ``text`` (folded) holds: one-word and two-word names of the table."""
    words = [w.strip(".,") for w in text.replace("°", " ").split()]
    found = 0
    for i, word in enumerate(words):
        pair = f"{word} {words[i + 1]}" if i + 1 < len(words) else ""
        if pair and _is_unit(pair):
            found += 1
        elif word not in cues.UNIT_STOPWORDS and len(word) > 1 and _is_unit(word):
            found += 1
    return found


def _is_unit(name: str) -> bool:
    return any(form in _INDEX for form in _singulars(_key(name)))
