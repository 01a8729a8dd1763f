"""A request that asks for two or three things at once, cut into its parts.

"Set a timer for 20 minutes and remind me at 6 to take the bins out" is two requests, each for a
tool of its own; asked whole, the model is made to call one tool (the sure path forces one
call) and the other request is lost.  So a request is cut at "and", "then", "also" or a
semicolon when every part is a request of its own: some tool is wanted for it (``wanted``: the
highest relevance of a tool's cues on the part alone), one at least surely, and it says more
than numbers ("add up 1999 2450 and 875" is one sum).  A part that only names what differs
("what time is it in Tokyo and in New York", "... and New York": the same preposition, or a
name) takes the rest of the part before it ("what time is it in New York").  A request whose
second part depends on the first ("is Vega free at 3 and if it is book it", "if not",
"otherwise") is not cut: the turn reads the first call's result before the model chooses the
second (``turn``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .numerals import only_numbers
from .tool import NEVER, SURE

MAX_PARTS = 3
_SEPARATOR = re.compile(r",?\s+(?:and\s+(?:then\s+|also\s+)?|then\s+|also\s+)|;\s*", re.IGNORECASE)
_DEPENDS = re.compile(r"\b(?:if|unless|otherwise|whether|so that|in that case)\b", re.IGNORECASE)
_PLACE_TAIL = re.compile(r"^(?P<head>.*\b(?P<preposition>in|at|for)\s+)[^,]+$", re.IGNORECASE)
_ONLY_A_PLACE = re.compile(r"^(?:(?P<preposition>in|at|for)\s+)?(?P<rest>(?:\S+\s+){0,3}\S+)$", re.IGNORECASE)
_MIN_WORDS = 3


def request_parts(request: str, wanted: Callable[[str], float]) -> list[str]:
    """The parts of ``request``, each a request of its own, in order; ``[request]`` when it is one."""
    if _DEPENDS.search(request):
        return [request]
    pieces = [piece.strip(" ,.") for piece in _SEPARATOR.split(request)]
    if len(pieces) < 2 or len(pieces) > MAX_PARTS or not all(pieces):
        return [request]
    parts: list[str] = []
    levels: list[float] = []
    for piece in pieces:
        level = wanted(piece)
        if level <= NEVER and parts:
            piece = _completed(piece, parts[-1])
            level = wanted(piece) if piece else NEVER
        if level <= NEVER or len(piece.split()) < _MIN_WORDS or only_numbers(piece):
            return [request]
        parts.append(piece)
        levels.append(level)
    return parts if max(levels) >= SURE else [request]


def depends_on_result(request: str) -> bool:
    """Whether ``request`` asks for a second thing that depends on what the first gives ("is
    Vega free at 3 and if it is book it")."""
    return bool(_DEPENDS.search(request) and _SEPARATOR.search(request))


def _completed(piece: str, before: str) -> str:
    """``piece`` as the part before it would say it, when it only names what differs ("in New
    York" after "what time is it in Tokyo"); "" when it does not read so."""
    tail, short = _PLACE_TAIL.match(before), _ONLY_A_PLACE.match(piece)
    if tail is None or short is None:
        return ""
    preposition, rest = short.group("preposition"), short.group("rest")
    if preposition and preposition.lower() != tail.group("preposition").lower():
        return ""
    if not preposition and not all(word[:1].isupper() for word in rest.split()):
        return ""  # a name ("and New York") or the same preposition ("and in New York"), not "and a half"
    return f"{tail.group('head')}{rest}"
