"""What in a request calls for a built-in tool: its cues, read from the user's words.

Small models call tools they were shown for requests that need none ("Who wrote Hamlet?" ->
``calculate``) and answer from memory what needed one ("twelve percent of eighty five" ->
"10.25").  Each built-in tool knows its own domain, so it says how its request looks:

- ``SURE``: the request is plainly this tool's ("set a timer for ten minutes", "what time is it
  in Tokyo", "what's 12% of 85"): the turn has the model call one of the sure tools;
- ``MAYBE``: it might be (a number and a unit; a word about time): the model decides;
- ``NEVER``: nothing in it is this tool's business (no number for the calculator, no unit for
  the converter): a call of it is a mistake the turn does not run, and the model answers in
  words instead.

The cues are English words, like the tools' descriptions; a request in another language gets
``MAYBE`` from every tool (the model decides alone, as without cues).  MCP tools have no cues:
``MAYBE`` always (``tool.relevance``).  The converter's cues need its table of units: they are
``units.UnitConverter.relevance``, with the words of this module.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..tool import MAYBE, NEVER, SURE, ToolSpec
from .wording import fold, fold_keep

__all__ = ["MAYBE", "NEVER", "SURE", "CUES", "Cued"]

_NUMBER_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen "
    "eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million billion half "
    "quarter third dozen"
).split()
NUMBER = re.compile(r"\d|\b(?:" + "|".join(_NUMBER_WORDS) + r")\b")
_ENGLISH = re.compile(
    r"\b(?:the|a|an|is|are|was|were|what|whats|how|who|when|where|why|which|me|my|i|you|your|to|of|in|into|for|by|"
    r"and|or|it|its|this|that|with|from|on|at|do|does|did|set|tell|can|could|would|please|give|say|about|any|"
    r"some|much|many|there|translate|write|make|show|help|have|has|need|want|good|best|remind|cancel|convert|"
    r"im|its|thats|thanks|thank|really|very|so|just|not|no|yes|ok|okay|hello|hi|hey|great|nice|sorry|be|will|"
    r"should|let|lets|get|go|know|think|like|all|out|up|if|but|then|than|bit|feel|feeling|today|we|our)\b"
)
_OPERATOR = re.compile(
    r"\d\s*[-+*/x×÷^%]\s*\d|\d\s*%|\b(?:times|multipl\w*|plus|minus|divide\w*|subtract\w*|add up|over|percent|"
    r"percentage|squared|cubed|square root|sqrt|power|factorial|sum of|product of|average of|tip|split|"
    r"(?:a )?(?:half|third|quarter|fifth|tenth) of|point)\b"
)
_MATH_WORDS = re.compile(r"\b(?:calculate|compute|math|add up|total|split|tip|interest|discount|tax|sum|average)\b")
_ASK_TIME = re.compile(
    r"\b(?:what(?:s| is)? (?:the )?(?:current |local )?time\b(?!\s+(?:complexity|signature|limit|frame|travel|value))|"
    r"time is it|the time in|time in [a-z]|what(?:s| is)? (?:the )?date|"
    r"what day|which day|todays date|date today|day is it|day of the week|(?:days|weeks) from (?:now|today)|"
    r"how many days (?:until|till|to)|what date will it be|what day will it be|"
    r"is it (?:morning|afternoon|evening|night|nighttime|daytime|late|early|dark|light) (?:yet )?in)\b"
)
# A question about how or why things are, or what a word means: no tool measures that.
_EXPLAIN = re.compile(
    r"^\s*why\b|\bwhat does .+ mean\b|\bmeaning of\b|\bdefine\b|\bdefinition\b|\bexplain\b|"
    r"\bhow (?:do|does|did|can) (?:we|they|people|it|you|i)\b|\bcomplexity\b|\bhistory of\b"
)
_ASKS = re.compile(r"\b(?:what|whats|when|which|how|is it|tell me|do you know|check|look up)\b|\?")
_TIME_WORDS = re.compile(r"\b(?:time|date|day|days|today|tomorrow|clock|oclock|week|weekday|timezone|zone)\b")
_TIMER_WORDS = re.compile(r"\b(?:timers?|reminders?|remind|alarms?|countdown|count down|wake me)\b")
_CANCEL_WORDS = re.compile(r"\b(?:cancel|stop|delete|remove|clear|turn off|get rid of|never mind)\b")
_LIST_WORDS = re.compile(r"\b(?:list|what|which|any|how long|how much time|left|remaining|running|set up)\b")
_SET_WORDS = re.compile(r"\b(?:set|start|make|create|put|give me|add|new|remind me|wake me)\b")
# "Set a timer for ten seconds" as speech recognition often writes it: "set a time for 10 seconds".
# No one asks the time that way, so it is the timer's request, not the clock's.
_MISHEARD_TIMER = re.compile(
    r"\b(?:set|start) (?:a |an |the |me a )?time (?:for|of) (?:\S+ ){1,4}?"
    r"(?:seconds?|secs?|minutes?|mins?|hours?|hrs?)\b"
)
_HISTORY = re.compile(
    r"\b(?:dictat\w*|did i (?:say|tell|ask|write|mention|note)|what i (?:said|told|asked|wrote|dictated)|"
    r"i told you|we (?:talked|spoke|discussed)|did we (?:say|talk|discuss|decide|agree)|i (?:mentioned|noted)|"
    r"our (?:last )?conversations?|my history|last time i)\b"
)
_HISTORY_WORDS = re.compile(r"\b(?:remember|earlier|yesterday|last week|said|told|mentioned|notes?)\b")
_CLIPBOARD = re.compile(r"\b(?:clipboard|(?:i|i've|i have|i just) copied|what i copied|the copied)\b")
CONVERT = re.compile(r"\b(?:convert|in|into|to|how many|how much|equals?|is)\b")
UNIT_STOPWORDS = frozenset(
    "a an at in to is it of or on as am be by do go he if me my no so up us we t s m l g c h d f k n p q v w x y z "
    "min sec second seconds minute minutes hour hours day days week weeks year years month months time".split()
)


def words_of(request: str) -> str:
    """The request in lower case, apostrophes gone ("what's" -> "whats"), signs kept ("12%")."""
    text = fold_keep(request).replace("'", "").replace("\u2019", "")
    return " " + " ".join(re.sub(r"[!?;:\"()]", " ", text).split()) + " "


def english(request: str) -> bool:
    """Whether the request reads as English: enough of its words are common English ones (one
    in four, and two from five words on: "in" alone does not make "Wie spät ist es in Tokio?");
    one or two words are taken as English.  Numbers in digits and names (capitalised after the
    first word: "what's Grace Hopper's phone extension") belong to no language: they are not
    counted ("divide 340 by 8" is read as its two words)."""
    said = request.replace("'", "").replace("\u2019", "").split()
    kept = " ".join(w for i, w in enumerate(said) if i == 0 or not w[:1].isupper())
    words = [w for w in fold(kept).split() if not w[:1].isdigit()]
    if len(words) <= 2:
        return True  # too short to tell ("pasta timer"): read as English
    common = sum(1 for word in words if _ENGLISH.fullmatch(word) or word in _NUMBER_WORDS)
    return common >= max(-(-len(words) // 4), 2 if len(words) >= 5 else 1)


def calculate(request: str) -> float:
    text = words_of(request)
    if not english(request):
        return MAYBE
    numbers = len(re.findall(r"\d+(?:[.,]\d+)*|\b(?:" + "|".join(_NUMBER_WORDS) + r")\b", text))
    if (
        numbers >= 2
        and _OPERATOR.search(text)
        or (numbers >= 1 and re.search(r"square root|sqrt|factorial|squared|cubed", text))
    ):
        return SURE
    if _EXPLAIN.search(text):
        return NEVER  # "what does percent mean": a question about the words, not a sum
    if numbers >= 2 or _MATH_WORDS.search(text) or _OPERATOR.search(text):
        return MAYBE
    return NEVER  # one number is a name or a date ("World War Two", "in 1969"), not a sum


def get_time(request: str) -> float:
    text = words_of(request)
    if not english(request):
        return MAYBE
    if _MISHEARD_TIMER.search(text):
        return NEVER
    if _ASK_TIME.search(text) and not _TIMER_WORDS.search(text):
        return SURE
    if _TIME_WORDS.search(text) and _ASKS.search(text) and not _EXPLAIN.search(text):
        return MAYBE
    return NEVER  # no time asked for ("I'm feeling a bit tired today")


_HOW_TO = re.compile(
    r"\bhow (?:do|can|would|should|does) (?:i|you|we|one)\b|\bhow to\b|"
    r"\bon (?:my|the|your|a) (?:phone|watch|oven|microwave|computer|iphone|android)\b"
)


def set_timer(request: str) -> float:
    text = words_of(request)
    if not english(request):
        return MAYBE
    if _HOW_TO.search(text):
        return NEVER  # how to set one on something else
    if _MISHEARD_TIMER.search(text):
        return SURE
    if not re.search(r"\b(?:timers?|countdown|count down|alarm|wake me)\b", text):
        return NEVER
    if _CANCEL_WORDS.search(text):
        return NEVER
    if _SET_WORDS.search(text) or NUMBER.search(text):
        return SURE
    return (
        MAYBE
        if re.search(r"\b(?:for|at|in)\b", text) and not re.search(r"\b(?:joke|story|poem|song)\b", text)
        else NEVER
    )


def set_reminder(request: str) -> float:
    text = words_of(request)
    if not english(request):
        return MAYBE
    if _HOW_TO.search(text):
        return NEVER
    if not re.search(r"\b(?:remind|reminder|reminders)\b", text):
        return NEVER
    if _CANCEL_WORDS.search(text) or re.search(r"\b(?:do i have|what|which|any|list)\b.*\breminders?\b", text):
        return NEVER  # cancelling, or asking which are set
    return SURE if re.search(r"\bremind me\b|\b(?:set|add|make|create) a reminder\b", text) else MAYBE


def list_timers(request: str) -> float:
    text = words_of(request)
    if not english(request):
        return MAYBE
    if not _TIMER_WORDS.search(text):
        return MAYBE if re.search(r"\bhow long\b.*\bleft\b", text) else NEVER  # "how long is left on the bread"
    if _CANCEL_WORDS.search(text):
        return NEVER
    if re.search(
        r"\b(?:list|how long|how much time|left|remaining|(?:what|which|any|my) (?:timers|reminders)|"
        r"do i have (?:a|any) (?:timers?|reminders?))\b",
        text,
    ):
        return SURE
    return MAYBE if _LIST_WORDS.search(text) else NEVER


def cancel_timer(request: str) -> float:
    text = words_of(request)
    if not english(request):
        return MAYBE
    if not _TIMER_WORDS.search(text):
        return NEVER
    return SURE if _CANCEL_WORDS.search(text) else NEVER


def search_history(request: str) -> float:
    text = words_of(request)
    if not english(request):
        return MAYBE
    if _HISTORY.search(text):
        return SURE
    return MAYBE if _HISTORY_WORDS.search(text) else NEVER


def read_clipboard(request: str) -> float:
    text = words_of(request)
    if not english(request):
        return MAYBE
    return SURE if _CLIPBOARD.search(text) else NEVER


CUES = {
    "calculate": calculate,
    "get_time": get_time,
    "set_timer": set_timer,
    "set_reminder": set_reminder,
    "list_timers": list_timers,
    "cancel_timer": cancel_timer,
    "search_history": search_history,
    "read_clipboard": read_clipboard,
}


# A timer's label said with it: "for the pasta", "a pasta timer" (not "for 10 minutes", "a 5 minute timer").
_LABEL_FOR = re.compile(
    r"\bfor (?:the|my|a|an|our|some) (?!(?:\d|minutes?|hours?|seconds?|half|quarter|couple|few|while|bit)\b)[a-z]"
)
_LABEL_BEFORE = re.compile(
    r"\b(?!(?:an?|the|my|minutes?|hours?|seconds?|mins?|secs?|hrs?|new|another|other|one|this|that)\b)[a-z]{3,} timer\b"
)
# A place named for the clock ("in Tokyo", "over in New York"), not a span ("in 3 weeks", "in the morning").
_PLACE = re.compile(
    r"\b(?:in|for) "
    r"(?!(?:an?|this|that|my|your|our|here|now|the (?:morning|afternoon|evening|night|future|past|week))\b)[a-z]"
)
_DAYS = re.compile(r"\b(?:\d+ days?|tomorrow|yesterday|ago|from (?:now|today))\b")
_WEEKS = re.compile(r"\b(?:\d+|an?|next|last) weeks?\b")


def timer_label_said(request: str) -> bool:
    """Whether the request names what a timer is for ("for the pasta", "an egg timer")."""
    text = words_of(request)
    return bool(_LABEL_FOR.search(text) or _LABEL_BEFORE.search(text))


def clock_spans(request: str) -> tuple[bool, str | None]:
    """What a request for the clock names: a place ("in Tokyo"), and a span of days or weeks
    from today ("days_from_now", "weeks_from_now", or None)."""
    text = words_of(request)
    span = "weeks_from_now" if _WEEKS.search(text) else "days_from_now" if _DAYS.search(text) else None
    return bool(_PLACE.search(text)), span


def narrowed(parameters: Mapping[str, Any], keep: Sequence[str], required: Sequence[str] = ()) -> dict[str, Any]:
    """``parameters`` (an object schema) with only the properties ``keep``, ``required`` made
    required (those it requires already stay so), and no others (with none kept, an object of
    any names would be one a grammar lets a model write)."""
    properties = {k: v for k, v in parameters.get("properties", {}).items() if k in keep}
    needed = [k for k in [*parameters.get("required", []), *required] if k in properties]
    needed = list(dict.fromkeys(needed))
    return {**parameters, "properties": properties, "required": needed, "additionalProperties": False}


class Cued:
    """A built-in tool's ``relevance`` to a request, from its cues (``tool.relevance``), and
    the parameters a forced call writes for it (``parameters_for``)."""

    spec: ToolSpec  # the tool's own

    def relevance(self, request: str) -> float:
        return CUES[self.spec.name](request)

    def parameters_for(self, request: str) -> dict[str, Any]:
        """The parameters a forced call of the tool writes for ``request`` (``tools.turn``),
        where the model sees no description, only the names its grammar lets it write: the
        tool's own, or fewer where the request says which optional ones it names (a forced
        call wrote ``{"place": "your computer"}`` for "what time is it", and no label for
        "set a timer for 10 minutes for the pasta")."""
        return dict(self.spec.parameters)
