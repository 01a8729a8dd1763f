"""Numbers said in words, written in digits for the model of a turn with tools (``numerals``)."""

from __future__ import annotations

import pytest

from parley.engine.tools.numerals import MAX_CHARS, clock_words, in_digits


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("how much is two thousand and twenty four minus nineteen eighty seven", "how much is 2024 minus 1987"),
        ("what's a third of nine hundred and ninety", "what's 1/3 of 990"),
        ("two thirds of the cake", "2/3 of the cake"),
        (
            "split a bill of a hundred and eighty seven pounds fifty between five people",
            "split a bill of 187.50 pounds between 5 people",
        ),
        ("ten dollars five", "10.05 dollars"),
        ("it weighs two pounds three ounces", "it weighs 2 pounds 3 ounces"),
        ("what is eleven point five times four point two", "what is 11.5 times 4.2"),
        ("how many kilometers is twenty six point two miles", "how many kilometers is 26.2 miles"),
        ("set a twenty-five minute timer", "set a 25 minute timer"),
        ("start a timer for ninety seconds for the eggs", "start a timer for 90 seconds for the eggs"),
        ("what's one hundred and one times three", "what's 101 times 3"),
        ("three thousand four hundred and twelve", "3412"),
        ("a hundred and eighty seven", "187"),
        ("a thousand and one nights", "1001 nights"),
        ("seven million two hundred thousand", "7200000"),
        ("it's point five litres", "it's 0.5 litres"),
        ("zero point two five of a thousand", "0.25 of 1000"),
        ("twelve point oh five", "12.05"),
        ("twenty twenty four", "2024"),
        ("nineteen oh five", "1905"),
        ("we need six lemons put them on the list", "we need 6 lemons put them on the list"),
        ("Twelve Percent of Eighty-Five", "12 Percent of 85"),
    ],
)
def test_cardinals_decimals_and_years_are_written_in_digits(said: str, written: str) -> None:
    assert in_digits(said) == written


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("can you book Orion at four thirty for forty five minutes", "can you book Orion at 4:30 for 45 minutes"),
        ("remind me at six fifteen to call mum", "remind me at 6:15 to call mum"),
        ("wake me at seven oh five", "wake me at 7:05"),
        ("ring me eleven forty five pm", "ring me 11:45 pm"),
        ("book the Vega room at three for half an hour", "book the Vega room at 3 for half an hour"),
        ("remind me on the twenty fourth of December at six pm", "remind me on the 24th of December at 6 pm"),
        ("the thirty first", "the 31st"),
    ],
)
def test_clock_times_and_dates(said: str, written: str) -> None:
    assert in_digits(said) == written


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("remind me at half past six", "remind me at 6:30"),
        ("at quarter to seven", "at 6:45"),
        ("ten past nine", "9:10"),
        ("check if Orion is free at half one", "check if orion is free at 1:30"),  # British: 1:30
        ("quarter to one", "12:45"),
        ("half an hour", "half an hour"),  # a length, not a time
        ("from nine to five", "from 9 to 5"),  # a span
        ("book it for one more hour", "book it for one more hour"),
    ],
)
def test_clock_times_said_in_words(said: str, written: str) -> None:
    assert clock_words(in_digits(said.lower())) == written


@pytest.mark.parametrize(
    "said",
    [
        "which one is it",  # a lone "one" is a word more often than a number
        "set a timer for one hour",
        "wait a second",  # an ordinal alone
        "the first one",
        "a million and a half",  # a part after it
        "two and a half hours",
        # Numbers side by side read more than one way: 187.50 split five ways, or 187 and 55?
        "if we split a bill of a hundred and eighty seven fifty five ways",
        "add up nineteen ninety nine twenty four fifty and eight seventy five",
        "three four",
        "someone often said none",  # number words inside other words
        "and and one and",
        "",
    ],
)
def test_what_reads_more_than_one_way_stays_in_words(said: str) -> None:
    assert in_digits(said) == said


def test_digits_and_the_rest_of_the_text_are_kept() -> None:
    said = "what's 1,234 times five, and   what is 3.5% of ten?"
    assert in_digits(said) == "what's 1,234 times 5, and   what is 3.5% of 10?"


def test_hostile_text_is_bounded() -> None:
    long = "nine " * (MAX_CHARS // 5 + 1)
    assert in_digits(long) == long  # a message, not a request: left alone
    many = " ".join(["twenty"] * 700)  # tens side by side: ambiguous, left in words, in linear time
    assert in_digits(many) == many
    scales = "one " + "thousand " * 300  # scales must fall: "one thousand", then words
    assert in_digits(scales).startswith("1000 thousand")
