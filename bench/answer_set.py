"""The questions of ``bench_answers.py``: what people ask a voice assistant, each with a check.

Seven kinds: arithmetic, units, facts, definitions, translation, how-to (in two sentences) and
follow-ups (a second question that needs the first turn).  Each item is one or more user turns;
the check reads the reply to the last one.  Checks are deliberately lenient about form ("51",
"fifty-one", "The answer is 51.") and strict about content: a number must appear as a whole
number, a word as a whole word, and a wrong number next to the right one still counts as right
only if the right one is there (a model that lists every candidate is rare at these sizes).
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from collections.abc import Callable

Check = Callable[[str], bool]

_SMALL = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen"
).split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()


def number_words(n: int) -> set[str]:
    """English spellings of ``n`` (below 10,000) that a model may write instead of digits."""
    if n < 0 or n >= 10_000:
        return set()
    if n < 20:
        return {_SMALL[n]}
    if n < 100:
        tens, ones = divmod(n, 10)
        if not ones:
            return {_TENS[tens - 2]}
        return {f"{_TENS[tens - 2]}-{_SMALL[ones]}", f"{_TENS[tens - 2]} {_SMALL[ones]}"}
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        head = f"{_SMALL[hundreds]} hundred"
        if not rest:
            return {head}
        return {f"{head} {tail}" for tail in number_words(rest)} | {f"{head} and {tail}" for tail in number_words(rest)}
    thousands, rest = divmod(n, 1000)
    head = f"{_SMALL[thousands]} thousand" if thousands < 20 else ""
    if not head:
        return set()
    if not rest:
        return {head}
    return {f"{head} {tail}" for tail in number_words(rest)} | {f"{head} and {tail}" for tail in number_words(rest)}


def normalise(text: str) -> str:
    """Lower case, accents kept, typographic quotes and dashes made plain, spaces collapsed."""
    text = unicodedata.normalize("NFC", text).lower()
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u2013", "-").replace("\u2014", "-")
    return re.sub(r"\s+", " ", text)


def numbers_in(text: str) -> set[float]:
    """Every number written in digits (``1,000``, ``1000``, ``2.5``, ``-3``)."""
    found = set()
    for match in re.finditer(r"(?<![\w.])-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\w.])-?\d+(?:\.\d+)?", text):
        try:
            found.add(float(match.group().replace(",", "")))
        except ValueError:
            continue
    return found


def number(*values: float) -> Check:
    """Right when any of ``values`` appears, in digits or (whole numbers) in words."""

    def check(reply: str) -> bool:
        text = normalise(reply)
        if any(v in numbers_in(text) for v in values):
            return True
        words = set().union(*(number_words(int(v)) for v in values if float(v).is_integer()))
        return any(re.search(rf"\b{re.escape(w)}\b", text) for w in words)

    return check


def word(*options: str) -> Check:
    """Right when any of ``options`` appears as whole words (case and spacing ignored)."""
    patterns = [re.compile(rf"(?<!\w){re.escape(normalise(o))}(?!\w)") for o in options]

    def check(reply: str) -> bool:
        text = normalise(reply)
        return any(p.search(text) for p in patterns)

    return check


def all_of(*checks: Check) -> Check:
    def check(reply: str) -> bool:
        return all(c(reply) for c in checks)

    return check


def stem(*options: str) -> Check:
    """Right when a word starting with any of ``options`` appears (``attract`` matches
    ``attracts`` and ``attraction``)."""
    patterns = [re.compile(rf"(?<!\w){re.escape(normalise(o))}") for o in options]

    def check(reply: str) -> bool:
        text = normalise(reply)
        return any(p.search(text) for p in patterns)

    return check


@dataclasses.dataclass(frozen=True)
class Item:
    kind: str
    turns: tuple[str, ...]
    check: Check
    expected: str  # what a right answer holds, for the report

    @property
    def question(self) -> str:
        return self.turns[-1]


def _q(kind: str, text: str | tuple[str, ...], check: Check, expected: str) -> Item:
    return Item(kind, (text,) if isinstance(text, str) else text, check, expected)


KINDS = ("arithmetic", "units", "facts", "definitions", "translation", "how-to", "follow-up")

ITEMS: tuple[Item, ...] = (
    # ------------------------------------------------------------------ arithmetic
    _q("arithmetic", "What is 17 times 3?", number(51), "51"),
    _q("arithmetic", "What's 144 divided by 12?", number(12), "12"),
    _q("arithmetic", "What is 15 percent of 200?", number(30), "30"),
    _q("arithmetic", "What is 23 plus 58?", number(81), "81"),
    _q("arithmetic", "What is 1000 minus 357?", number(643), "643"),
    _q("arithmetic", "What is 9 squared?", number(81), "81"),
    _q("arithmetic", "What's the square root of 64?", number(8), "8"),
    _q("arithmetic", "What is half of 250?", number(125), "125"),
    _q("arithmetic", "What is 12 times 12?", number(144), "144"),
    _q("arithmetic", "What is 7 times 8?", number(56), "56"),
    _q("arithmetic", "What is 45 plus 55?", number(100), "100"),
    _q("arithmetic", "What is 100 divided by 4?", number(25), "25"),
    _q("arithmetic", "What is 3 to the power of 4?", number(81), "81"),
    _q("arithmetic", "What is 250 minus 75?", number(175), "175"),
    _q("arithmetic", "What is 6 times 9?", number(54), "54"),
    _q("arithmetic", "What is 20 percent of 50?", number(10), "10"),
    _q("arithmetic", "If I have 3 boxes of 12 eggs, how many eggs do I have?", number(36), "36"),
    _q("arithmetic", "What is 2 plus 3 times 4?", number(14), "14"),
    _q("arithmetic", "What is 99 plus 1?", number(100), "100"),
    _q("arithmetic", "What is 81 divided by 9?", number(9), "9"),
    # ------------------------------------------------------------------ units
    _q("units", "How many centimeters are in a meter?", number(100), "100"),
    _q("units", "How many minutes are in 3 hours?", number(180), "180"),
    _q("units", "How many grams are in a kilogram?", number(1000), "1000"),
    _q("units", "How many days are in a leap year?", number(366), "366"),
    _q("units", "How many hours are in a day?", number(24), "24"),
    _q("units", "How many meters are in a kilometer?", number(1000), "1000"),
    _q("units", "How many days are in a week?", number(7), "7"),
    _q("units", "How many months are in a year?", number(12), "12"),
    _q("units", "How many milliliters are in a liter?", number(1000), "1000"),
    _q("units", "What is 0 degrees Celsius in Fahrenheit?", number(32), "32"),
    _q("units", "How many inches are in a foot?", number(12), "12"),
    _q("units", "How many minutes are in a day?", number(1440), "1440"),
    _q("units", "How many feet are in a yard?", number(3), "3"),
    _q("units", "What is 100 degrees Celsius in Fahrenheit?", number(212), "212"),
    _q("units", "How many hours are in two days?", number(48), "48"),
    _q("units", "How many seconds are in one hour?", number(3600), "3600"),
    # ------------------------------------------------------------------ facts
    _q("facts", "What is the capital of France?", word("paris"), "Paris"),
    _q("facts", "What is the capital of Japan?", word("tokyo"), "Tokyo"),
    _q("facts", "What is the capital of Australia?", word("canberra"), "Canberra"),
    _q("facts", "What is the capital of Canada?", word("ottawa"), "Ottawa"),
    _q("facts", "What is the capital of Italy?", word("rome", "roma"), "Rome"),
    _q("facts", "What is the capital of Germany?", word("berlin"), "Berlin"),
    _q("facts", "What is the capital of Spain?", word("madrid"), "Madrid"),
    _q("facts", "What is the capital of Egypt?", word("cairo"), "Cairo"),
    _q("facts", "What is the capital of Kenya?", word("nairobi"), "Nairobi"),
    _q("facts", "Who wrote Romeo and Juliet?", word("shakespeare"), "Shakespeare"),
    _q("facts", "Which planet is known as the Red Planet?", word("mars"), "Mars"),
    _q("facts", "What is the largest planet in our solar system?", word("jupiter"), "Jupiter"),
    _q("facts", "What is the chemical symbol for gold?", word("au"), "Au"),
    _q("facts", "How many continents are there?", number(7), "7"),
    _q("facts", "What is the largest ocean on Earth?", word("pacific"), "Pacific"),
    _q("facts", "Who painted the Mona Lisa?", word("leonardo", "da vinci"), "Leonardo da Vinci"),
    _q("facts", "What gas do plants take in from the air?", word("carbon dioxide", "co2", "co₂"), "carbon dioxide"),
    _q("facts", "What is the tallest mountain in the world?", word("everest"), "Everest"),
    _q("facts", "Who was the first person to walk on the Moon?", word("armstrong"), "Neil Armstrong"),
    _q("facts", "In which year did the Second World War end?", number(1945), "1945"),
    _q("facts", "What is the longest river in Africa?", word("nile"), "the Nile"),
    _q("facts", "How many legs does a spider have?", number(8), "8"),
    _q("facts", "What language do people speak in Brazil?", word("portuguese"), "Portuguese"),
    _q("facts", "What is the hardest natural substance?", word("diamond", "diamonds"), "diamond"),
    _q("facts", "Which element has the chemical symbol O?", word("oxygen"), "oxygen"),
    # The Sun, or the nearest other star: both are right answers to the question as people ask it.
    _q("facts", "What is the closest star to Earth?", word("sun", "proxima centauri"), "the Sun (or Proxima Centauri)"),
    _q("facts", "Who developed the theory of relativity?", word("einstein"), "Einstein"),
    _q("facts", "What is the largest mammal?", word("blue whale", "blue whales"), "the blue whale"),
    # ------------------------------------------------------------------ definitions
    _q(
        "definitions",
        "What is photosynthesis, in one sentence?",
        all_of(word("light", "sunlight", "sun"), word("energy", "sugar", "sugars", "glucose", "food")),
        "light -> energy/sugar",
    ),
    _q(
        "definitions",
        "What is gravity, in one sentence?",
        all_of(word("force"), stem("mass", "object", "attract", "pull", "bod")),
        "a force that pulls masses together",
    ),
    _q(
        "definitions",
        "What is a noun?",
        all_of(word("person", "people"), word("place", "thing", "things")),
        "a person, place or thing",
    ),
    _q(
        "definitions",
        "What is a democracy, in one sentence?",
        all_of(word("people", "citizens"), stem("vot", "elect", "govern", "power", "rule")),
        "rule by the people, who vote",
    ),
    _q(
        "definitions",
        "What is a prime number?",
        all_of(stem("divis", "divid", "factor"), word("1", "one", "itself")),
        "divisible only by 1 and itself",
    ),
    _q(
        "definitions",
        "What is inflation in economics?",
        all_of(word("price", "prices"), stem("ris", "increas", "up", "higher")),
        "prices rising",
    ),
    _q("definitions", "What is a volcano?", stem("magma", "lava", "molten"), "an opening where magma/lava comes out"),
    _q(
        "definitions",
        "What is a mammal?",
        stem("milk", "hair", "fur", "warm-blooded", "warm blooded"),
        "warm-blooded, hair, milk",
    ),
    _q("definitions", "What is a verb?", stem("action", "state", "occurr", "doing"), "a word for an action or state"),
    _q("definitions", "What is DNA?", stem("genetic", "gene", "hered", "deoxyribo", "inherit"), "the genetic material"),
    _q(
        "definitions",
        "What is a synonym?",
        all_of(word("same", "similar"), word("meaning")),
        "a word with the same meaning",
    ),
    _q("definitions", "What is a galaxy?", stem("star"), "a system of stars"),
    _q(
        "definitions",
        "What is evaporation?",
        all_of(word("liquid", "water"), stem("gas", "vapor", "vapour", "steam")),
        "liquid turning to gas",
    ),
    _q(
        "definitions",
        "What is an atom?",
        stem("smallest", "basic", "unit", "particle", "building block", "proton", "electron"),
        "the smallest unit of matter",
    ),
    _q(
        "definitions",
        "What is a fraction in maths?",
        stem("part", "divid", "numerator", "ratio", "quotient"),
        "a part of a whole",
    ),
    # ------------------------------------------------------------------ translation
    _q("translation", "How do you say 'good morning' in French?", word("bonjour"), "bonjour"),
    _q("translation", "How do you say 'thank you' in Spanish?", word("gracias"), "gracias"),
    _q("translation", "How do you say 'thank you' in German?", word("danke"), "danke"),
    _q("translation", "How do you say 'please' in Italian?", word("per favore", "per piacere", "prego"), "per favore"),
    _q("translation", "What is 'cat' in Spanish?", word("gato", "gata"), "gato"),
    _q("translation", "What is 'water' in French?", word("eau", "l'eau"), "eau"),
    _q(
        "translation",
        "How do you say 'hello' in Japanese?",
        word("konnichiwa", "こんにちは", "konnichi wa"),
        "konnichiwa",
    ),
    _q("translation", "How do you say 'good night' in Spanish?", word("buenas noches"), "buenas noches"),
    _q("translation", "How do you say 'I love you' in French?", word("je t'aime", "je t aime"), "je t'aime"),
    _q("translation", "What is 'dog' in German?", word("hund"), "Hund"),
    _q("translation", "What is 'house' in Spanish?", word("casa"), "casa"),
    _q("translation", "What is 'friend' in Italian?", word("amico", "amica"), "amico"),
    _q("translation", "How do you say 'yes' in French?", word("oui"), "oui"),
    _q("translation", "What is 'cheese' in French?", word("fromage"), "fromage"),
    _q("translation", "What is 'bread' in Spanish?", word("pan"), "pan"),
    _q("translation", "How do you say 'goodbye' in Italian?", word("arrivederci", "ciao", "addio"), "arrivederci"),
    # ------------------------------------------------------------------ how-to
    _q(
        "how-to",
        "In two sentences: how do I boil an egg?",
        all_of(word("water"), stem("boil", "simmer"), stem("minute")),
        "water, boil, minutes",
    ),
    _q(
        "how-to",
        "In two sentences: how do I make a cup of tea?",
        all_of(stem("water", "kettle"), stem("tea bag", "teabag", "leaves", "steep", "brew")),
        "water, tea bag / steep",
    ),
    _q(
        "how-to",
        "In two sentences: how can I fall asleep faster?",
        stem("screen", "caffeine", "routine", "dark", "relax", "breath", "bed", "same time"),
        "a routine, dark room, no screens",
    ),
    _q(
        "how-to",
        "In two sentences: how do I change a flat tire?",
        stem("jack", "lug", "spare"),
        "jack, lug nuts, spare",
    ),
    _q(
        "how-to",
        "In two sentences: how do I plant a tomato seed?",
        all_of(stem("soil", "compost", "pot"), stem("water")),
        "soil, water",
    ),
    _q(
        "how-to",
        "In two sentences: how do I make toast?",
        all_of(word("bread"), stem("toaster", "toast", "grill", "pan")),
        "bread in a toaster",
    ),
    _q(
        "how-to",
        "In two sentences: how do I cook rice?",
        all_of(word("water"), stem("boil", "simmer", "cook")),
        "water, simmer",
    ),
    _q(
        "how-to",
        "In two sentences: how do I wash a wool sweater?",
        stem("cold", "cool", "lukewarm", "gentle", "hand", "wool detergent", "lay", "flat"),
        "cold water, gently, dry flat",
    ),
    _q("how-to", "In two sentences: how do I remove a splinter?", stem("tweezer", "needle"), "tweezers"),
    _q(
        "how-to",
        "In two sentences: how can I save money on groceries?",
        stem("list", "budget", "sale", "coupon", "bulk", "plan", "compar", "discount", "store brand", "generic"),
        "a list, a plan, sales",
    ),
    _q(
        "how-to",
        "In two sentences: how do I clean a cast iron pan?",
        stem("oil", "dry", "soap", "scrub", "salt", "hot water", "season"),
        "scrub, dry, oil",
    ),
    _q(
        "how-to",
        "In two sentences: how do I take a screenshot on Windows?",
        stem(
            "print screen",
            "prtsc",
            "prt sc",
            "prtscn",
            "snip",
            "windows key",
            "windows + shift",
            "win + shift",
            "windows+shift",
            "game bar",
        ),
        "Print Screen or Win+Shift+S",
    ),
    _q(
        "how-to",
        "In two sentences: how do I keep cut flowers fresh?",
        all_of(word("water"), stem("cut", "trim", "change", "stem")),
        "fresh water, trim the stems",
    ),
    _q(
        "how-to",
        "In two sentences: how do I warm up before running?",
        stem("stretch", "walk", "jog", "slow", "dynamic", "leg swing", "lunge"),
        "walk or jog slowly, dynamic stretches",
    ),
    _q(
        "how-to",
        "In two sentences: how do I put out a small kitchen grease fire?",
        stem("lid", "cover", "baking soda", "extinguish", "smother", "salt", "heat off", "turn off"),
        "cover it with a lid, never water",
    ),
    # ------------------------------------------------------------------ follow-ups
    _q("follow-up", ("My name is Ada.", "What is my name?"), word("ada"), "Ada"),
    _q("follow-up", ("I have 5 apples.", "If I eat 2 of them, how many are left?"), number(3), "3"),
    _q("follow-up", ("What is 12 plus 5?", "Now double that."), number(34), "34"),
    _q("follow-up", ("What is the capital of France?", "Which river runs through it?"), word("seine"), "the Seine"),
    _q(
        "follow-up",
        ("Who wrote Hamlet?", "What country was he from?"),
        word("england", "english", "britain", "british", "uk", "united kingdom"),
        "England",
    ),
    _q("follow-up", ("My favourite colour is green.", "What is my favourite colour?"), word("green"), "green"),
    _q("follow-up", ("I live in Toronto.", "Which country do I live in?"), word("canada"), "Canada"),
    _q("follow-up", ("How do you say 'cat' in French?", "And in Spanish?"), word("gato", "gata"), "gato"),
    _q("follow-up", ("What is 6 times 7?", "Add 8 to that."), number(50), "50"),
    _q(
        "follow-up", ("I'm travelling to Japan next week.", "Which currency should I bring?"), word("yen", "jpy"), "yen"
    ),
    _q("follow-up", ("What is the boiling point of water in Celsius?", "And in Fahrenheit?"), number(212), "212"),
    _q("follow-up", ("I bought 3 books at 10 dollars each.", "How much did I spend?"), number(30), "30"),
    _q("follow-up", ("What is the capital of Japan?", "And of Germany?"), word("berlin"), "Berlin"),
    _q(
        "follow-up",
        ("I am 25 years old and my sister is 10 years older than me.", "How old is my sister?"),
        number(35),
        "35",
    ),
    _q("follow-up", ("My dog is called Biscuit.", "What is my dog's name?"), word("biscuit"), "Biscuit"),
    _q(
        "follow-up",
        ("Which planet is closest to the Sun?", "And which one is the largest?"),
        word("jupiter"),
        "Jupiter",
    ),
)

# --------------------------------------------------------------------------- speakable replies

_MARKDOWN = re.compile(r"(^|\n)\s*(#{1,6} |[-*+] |\d+\. |\|.*\|)|\*\*|__|```|`[^`]+`", re.MULTILINE)
_EMOJI = re.compile("[\U0001f300-\U0001faff\u2600-\u27bf\U0001f000-\U0001f2ff]")
_AS_AN_AI = re.compile(r"\bas an ai\b|\blanguage model\b|\bi'?m (just )?an ai\b|\bi am (just )?an ai\b", re.IGNORECASE)


def speakable_problems(reply: str) -> list[str]:
    """What in ``reply`` reads badly aloud: Markdown, emoji, "As an AI"."""
    problems = []
    if _MARKDOWN.search(reply):
        problems.append("markdown")
    if _EMOJI.search(reply):
        problems.append("emoji")
    if _AS_AN_AI.search(reply):
        problems.append("as-an-ai")
    return problems
