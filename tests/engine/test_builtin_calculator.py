"""The built-in tools that compute: ``calculate`` (exact, bounded, never eval), ``convert_units``
and ``get_time`` (the IANA zones), on the answers people expect."""

from __future__ import annotations

import time
from datetime import datetime, timezone
from fractions import Fraction
from zoneinfo import ZoneInfo

import pytest

from parley.engine.tools.builtin import clock as clock_module
from parley.engine.tools.builtin.calculator import CalculationError, Calculator, calculate, evaluate, normalize
from parley.engine.tools.builtin.clock import Clock, PlaceError, find_place
from parley.engine.tools.builtin.units import convert


class NeverCancelled:
    cancelled = False


@pytest.mark.parametrize(
    ("expression", "text"),
    [
        ("1234 * 5678", "1,234 × 5,678 = 7,006,652"),
        ("1,234 times 5,678", "1,234 × 5,678 = 7,006,652"),
        ("1,234 x 5,678", "1,234 × 5,678 = 7,006,652"),
        ("What is 1234×5678?", "1,234 × 5,678 = 7,006,652"),
        ("15% of 80", "15% of 80 = 12"),
        ("20 percent of 150", "20% of 150 = 30"),
        ("12.5% of 80", "12.5% of 80 = 10"),
        ("(2+3)^2", "(2 + 3) ^ 2 = 25"),
        ("0.1 + 0.2", "0.1 + 0.2 = 0.3"),
        ("sqrt(16)", "sqrt(16) = 4"),
        ("square root of 144", "sqrt(144) = 12"),
        ("cube root of 27", "cbrt(27) = 3"),
        ("2 to the power of 10", "2 ^ 10 = 1,024"),
        ("50 + 10%", "50 + 10% = 55"),
        ("increase 50 by 10%", "50 + 10% = 55"),
        ("decrease 80 by 25%", "80 - 25% = 60"),
        ("what percent is 30 of 120", "30 is 25% of 120"),
        ("30 is what percentage of 120", "30 is 25% of 120"),
        ("percent change from 50 to 60", "From 50 to 60 is an increase of 20%"),
        ("10 mod 3", "10 mod 3 = 1"),
        ("10 % 3", "10 mod 3 = 1"),
        ("5!", "factorial(5) = 120"),
        ("2^-3", "2 ^ -3 = 0.125"),
        ("7 // 2", "7 // 2 = 3"),
        ("round(2.675, 2)", "round(2.675, 2) = 2.68"),
        ("sin(30)", "sin(30) = 0.5 (angles in degrees)"),
        ("log(1000)", "log(1,000) = 3"),
        ("(-8)^(1/3)", "(-8) ^ (1 ÷ 3) = -2"),
        ("2(3+4)", "2 × (3 + 4) = 14"),
        ("1/3", "1 ÷ 3 ≈ 0.333333333333 (exactly 1/3)"),
        ("sqrt(2)", "sqrt(2) ≈ 1.41421356237"),
    ],
)
def test_the_answer_comes_first_and_exact(expression: str, text: str) -> None:
    result = calculate(expression)
    assert not result.is_error, result.text
    assert result.text == text
    assert result.summary.startswith(text.split(" (exactly")[0])


@pytest.mark.parametrize(
    ("request_text", "expression"),
    [
        ("what's 14 times 23", "14 times 23"),
        ("What is 1,234 times 5,678?", "1,234 times 5,678"),
        ("how much is 2024 minus 1987", "2024 minus 1987"),
        ("what's the square root of 2", "square root of 2"),
        ("what's 12 percent of 85", "12 percent of 85"),
        ("can you work out 7 to the power of 5", "7 to the power of 5"),
        # What the calculator does not read as it is: the model writes the expression
        ("how much is a 15 percent tip on 62 dollars", None),
        ("if we split a bill of 187.50 pounds between 5 people how much does each pay", None),
        ("divide 340 by 8", None),
        ("what's the capital of France", None),
        ("what is", None),
    ],
)
def test_a_request_the_calculator_reads_as_it_is_needs_no_model(request_text: str, expression: str | None) -> None:
    assert Calculator().arguments_from(request_text) == (None if expression is None else {"expression": expression})


def test_arithmetic_is_exact_not_floating_point() -> None:
    assert evaluate(normalize("1,234 times 5,678")) == 7006652
    assert evaluate(normalize("0.1 + 0.2")) == Fraction(3, 10)
    assert evaluate(normalize("1/3 * 3")) == 1
    assert evaluate(normalize("123456789 * 987654321 * 123456789")) == 123456789 * 987654321 * 123456789
    assert evaluate(normalize("2**100")) == 2**100
    assert calculate("2**100").text.endswith("= 1,267,650,600,228,229,401,496,703,205,376")


@pytest.mark.parametrize(
    ("expression", "problem"),
    [
        ("9**9**9", "too large"),
        ("10**10**10", "too large"),
        ("2**10000000", "too large"),
        ("factorial(100000)", "too large"),
        ("1e99999", "too large"),
        ("(10**999) * (10**999) * (10**999) * (10**999)", "too large"),
        ("__import__('os').system('echo hi')", "not a function"),
        ("open('/etc/passwd')", "not a function"),
        ("(1).__class__", "only numbers"),
        ("x + 1", "is not a number"),
        ("[1, 2, 3]", "only numbers"),
        ("'a' * 10", "only numbers"),
        ("lambda: 1", "only numbers"),
        ("2 +* 3", "cannot read"),
        ("1 if 1 else 2", "only numbers"),
        ("1/0", "division by zero"),
        ("sqrt(-1)", "not a real number"),
        ("(" * 150 + "1" + ")" * 150, "too long"),
        ("-" * 250 + "1", "too long or nested too deep"),
        ("1+" * 200 + "1", "too long"),
        ("", "empty"),
        ("tan(90)", "undefined"),
    ],
)
def test_hostile_and_impossible_expressions_are_refused_at_once(expression: str, problem: str) -> None:
    start = time.perf_counter()
    result = calculate(expression)
    assert time.perf_counter() - start < 0.5
    assert result.is_error
    assert problem in result.text


def test_the_walk_refuses_what_it_does_not_know_before_computing() -> None:
    with pytest.raises(CalculationError, match="not a function"):
        evaluate("max(2**3000, 3) + eval('1')")


def test_huge_results_are_said_with_their_size() -> None:
    result = calculate("2^1000")
    assert result.text == "2 ^ 1,000 ≈ 1.07150860719 × 10^301 (a 302-digit number)"


@pytest.mark.parametrize(
    ("value", "source", "target", "text"),
    [
        (5, "miles", "km", "5 miles = 8.04672 kilometres"),
        (100, "°F", "°C", "100 degrees Fahrenheit ≈ 37.7778 degrees Celsius"),
        (0, "celsius", "fahrenheit", "0 degrees Celsius = 32 degrees Fahrenheit"),
        (300, "kelvin", "C", "300 kelvin = 26.85 degrees Celsius"),
        (10, "lbs", "grams", "10 pounds = 4,535.9237 grams"),
        (8, "oz", "g", "8 ounces = 226.796185 grams"),
        (8, "oz", "ml", "8 fluid ounces ≈ 236.588 millilitres"),
        (1, "fl oz", "tbsp", "1 fluid ounce = 2 tablespoons"),
        (2, "cups", "ml", "2 cups = 473.176473 millilitres"),
        (1, "tablespoon", "teaspoons", "1 tablespoon = 3 teaspoons"),
        (60, "mph", "km/h", "60 miles per hour = 96.56064 kilometres per hour"),
        (100, "kph", "mph", "100 kilometres per hour ≈ 62.1371 miles per hour"),
        (1000, "square feet", "m²", "1,000 square feet = 92.90304 square metres"),
        (2, "sq. ft.", "sq in", "2 square feet = 288 square inches"),
        (90, "m", "h", "90 minutes = 1.5 hours"),
        (5, "m", "ft", "5 metres ≈ 16.4042 feet"),
        (1, "GB", "MB", "1 gigabyte = 1,000 megabytes"),
        (100, "Mbps", "MB/s", "100 megabits per second = 12.5 megabytes per second"),
        (1, "Mb", "kB", "1 megabit = 125 kilobytes"),
        (1, "kWh", "kJ", "1 kilowatt-hour = 3,600 kilojoules"),
        (1, "atm", "psi", "1 atmosphere ≈ 14.6959 pounds per square inch"),
        (1, "stone", "pounds", "1 stone = 14 pounds"),
        (30, "mpg", "L/100km", "30 miles per gallon ≈ 7.84049 litres per 100 kilometres"),
        (1.5, "metres", "feet", "1.5 metres ≈ 4.92126 feet"),
        (20, "Celcius", "F", "20 degrees Celsius = 68 degrees Fahrenheit ('Celcius' taken as degrees Celsius)"),
    ],
)
def test_units_by_name_symbol_plural_and_spelling(value: float, source: str, target: str, text: str) -> None:
    result = convert(value, source, target)
    assert not result.is_error, result.text
    assert result.text == text


@pytest.mark.parametrize(
    ("value", "source", "target", "problem"),
    [
        (5, "miles", "kilograms", "miles measure length and kilograms measure weight"),
        (1, "cup", "grams", "needs the ingredient's density"),
        (5, "blorps", "m", "'blorps' is not a unit I know"),
        (-500, "C", "K", "below absolute zero"),
        (0, "mpg", "l/100km", "cannot be converted"),
        (1e300, "m", "km", "too large"),
        (1, "m" * 100, "km", "too long"),
    ],
)
def test_units_that_cannot_be_converted_say_why(value: float, source: str, target: str, problem: str) -> None:
    result = convert(value, source, target)
    assert result.is_error
    assert problem in result.text


# A Tuesday, 14:05 in Paris (winter: UTC+1).
NOW = datetime(2025, 12, 9, 14, 5, tzinfo=ZoneInfo("Europe/Paris")).timestamp()


def paris_clock() -> Clock:
    return Clock(lambda: NOW, ZoneInfo("Europe/Paris"))


@pytest.mark.parametrize(
    ("place", "text"),
    [
        ("Tokyo", "22:05 on Tuesday, 9 December 2025 in Tokyo (Asia/Tokyo, UTC+9; 8 hours ahead of here)."),
        ("tokyo, japan", "22:05 on Tuesday, 9 December 2025 in Tokyo (Asia/Tokyo, UTC+9; 8 hours ahead of here)."),
        (
            "India",
            "18:35 on Tuesday, 9 December 2025 in India (Asia/Kolkata, UTC+5:30; 4 hours 30 minutes ahead of here).",
        ),
        (
            "São Paulo",
            "10:05 on Tuesday, 9 December 2025 in São Paulo (America/Sao_Paulo, UTC-3; 4 hours behind here).",
        ),
        ("new york", "08:05 on Tuesday, 9 December 2025 in New York (America/New_York, UTC-5; 6 hours behind here)."),
        (
            "California",
            "05:05 on Tuesday, 9 December 2025 in California (America/Los_Angeles, UTC-8; 9 hours behind here).",
        ),
        (
            "Sydney",
            "00:05 on Wednesday, 10 December 2025 in Sydney (Australia/Sydney, UTC+11; 10 hours ahead of here).",
        ),
        ("UK", "13:05 on Tuesday, 9 December 2025 in UK (Europe/London, UTC; 1 hour behind here)."),
        ("UTC+5:30", "18:35 on Tuesday, 9 December 2025 in UTC+5:30 (UTC+5:30; 4 hours 30 minutes ahead of here)."),
        ("Zürich", "14:05 on Tuesday, 9 December 2025 in Zürich (Europe/Zurich, UTC+1; the same time as here)."),
    ],
)
def test_the_time_in_a_named_place(place: str, text: str) -> None:
    result = paris_clock().run({"place": place}, NeverCancelled())
    assert not result.is_error, result.text
    assert result.text == text


def test_the_time_here_and_days_from_now() -> None:
    here = paris_clock().run({}, NeverCancelled())
    assert here.text == "14:05 on Tuesday, 9 December 2025 (local time; Europe/Paris, UTC+1)."
    assert paris_clock().run({"place": "here"}, NeverCancelled()).text == here.text
    ahead = paris_clock().run({"days_from_now": 100}, NeverCancelled())
    assert ahead.text == "Thursday, 19 March 2026 is 100 days from today (today is Tuesday, 9 December 2025)."
    back = paris_clock().run({"days_from_now": -7}, NeverCancelled())
    assert back.text.startswith("Tuesday, 2 December 2025 is 7 days ago")


def test_a_country_with_several_zones_says_whose_time_it_gives() -> None:
    result = paris_clock().run({"place": "USA"}, NeverCancelled())
    assert "America/New_York" in result.text
    assert "the United States has several time zones; this is Washington, D.C.'s" in result.text


def test_an_unknown_place_is_an_error_naming_it() -> None:
    result = paris_clock().run({"place": "Atlantis"}, NeverCancelled())
    assert result.is_error
    assert "'Atlantis'" in result.text
    misspelt = paris_clock().run({"place": "Tokio"}, NeverCancelled())
    assert misspelt.is_error
    assert "did you mean Tokyo?" in misspelt.text
    with pytest.raises(PlaceError):
        find_place("UTC+20")


def test_every_place_in_the_tables_is_a_zone_of_this_system() -> None:
    names = [*clock_module._COUNTRIES, *clock_module._REGIONS, *clock_module._WIDE_COUNTRIES]
    for name in names:
        place = find_place(name)
        assert datetime.now(timezone.utc).astimezone(place.zone).utcoffset() is not None, name


def test_the_local_time_without_an_injected_zone_is_the_computers() -> None:
    before = datetime.now().astimezone().strftime("%H:%M")
    result = Clock().run({}, NeverCancelled())
    after = datetime.now().astimezone().strftime("%H:%M")
    assert "local time" in result.text
    assert result.text.startswith((before, after))
