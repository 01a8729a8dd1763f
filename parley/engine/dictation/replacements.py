"""The user's replacement rules: "parley dot com" -> "parley.com", "my address" -> a snippet.

A rule's spoken words match whole words, in any case, with any commas whisper put between
them.  All rules are applied in one pass over the transcript, longest spoken phrase first, and
what a rule writes is never read again by another rule: a set of rules cannot loop while
dictating, and one take grows at most by the longest written text per word said.

``check_rules`` refuses, when rules are saved, what would loop or grow without bound in a tool
that applies rules again to their own output (the way people expect chains to work, and the
way most of them do), and what cannot be matched: a rule whose written text contains its own
spoken words in other words ("a" -> "a a"), rules that feed each other in a circle, empty or
punctuation-only spoken words, the same spoken words twice, and rules beyond the bounds below.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

MAX_RULES = 200
MAX_SPOKEN_CHARS = 100
MAX_WRITTEN_CHARS = 2000  # a snippet: an address, a signature
_WORD = re.compile(r"\w+")


def spoken_words(spoken: str) -> tuple[str, ...]:
    return tuple(w.lower() for w in _WORD.findall(spoken))


def check_rules(rules: Sequence[Sequence[str]]) -> list[str]:
    """The problems of ``rules`` ([spoken, written] pairs), one sentence each; [] when they are fine."""
    problems: list[str] = []
    if len(rules) > MAX_RULES:
        problems.append(f"At most {MAX_RULES} replacement rules are kept; there are {len(rules)}.")
    seen: dict[tuple[str, ...], str] = {}
    usable: list[tuple[tuple[str, ...], str, str]] = []
    for number, rule in enumerate(rules[:MAX_RULES], 1):
        if len(rule) != 2 or not all(isinstance(part, str) for part in rule):
            problems.append(f"Rule {number} is not a pair of texts (what is said, what is written).")
            continue
        spoken, written = rule
        said = spoken_words(spoken)
        shown = _shown(spoken)
        if not said:
            problems.append(f"Rule {number}: {shown} has no words to listen for.")
        elif len(spoken) > MAX_SPOKEN_CHARS:
            problems.append(f"Rule {number}: what is said is longer than {MAX_SPOKEN_CHARS} characters.")
        elif len(written) > MAX_WRITTEN_CHARS:
            problems.append(f"Rule {number}: what is written is longer than {MAX_WRITTEN_CHARS} characters.")
        elif said in seen:
            problems.append(f"Rule {number}: {shown} is already the spoken words of another rule.")
        elif _contains(written, said) and spoken_words(written) != said:
            problems.append(
                f"Rule {number}: {shown} would be written again inside its own replacement, "
                "growing each time it is applied."
            )
        else:
            seen[said] = spoken
            usable.append((said, spoken, written))
    problems += _circles(usable)
    return problems


def _circles(rules: list[tuple[tuple[str, ...], str, str]]) -> list[str]:
    """Rules whose written text says another rule's words, around a circle back to the first."""
    feeds = {
        said: [other for other, _, _ in rules if other != said and _contains(written, other)]
        for said, _, written in rules
    }
    spoken = {said: text for said, text, _ in rules}
    found: list[str] = []
    reported: set[frozenset[tuple[str, ...]]] = set()
    for start in feeds:
        path = _path_back(feeds, start)
        if path and frozenset(path) not in reported:
            reported.add(frozenset(path))
            chain = " -> ".join(_shown(spoken[s]) for s in [*path, start])
            found.append(f"These rules replace each other in a circle: {chain}.")
    return found


def _path_back(feeds: dict[tuple[str, ...], list[tuple[str, ...]]], start: tuple[str, ...]) -> list[tuple[str, ...]]:
    """A path of rules from ``start`` that leads back to it ([] when none)."""
    stack = [(start, [start])]
    visited: set[tuple[str, ...]] = set()
    while stack:
        node, path = stack.pop()
        for nxt in feeds[node]:
            if nxt == start:
                return path
            if nxt not in visited:
                visited.add(nxt)
                stack.append((nxt, [*path, nxt]))
    return []


def _contains(text: str, said: tuple[str, ...]) -> bool:
    words = spoken_words(text)
    n = len(said)
    return any(words[i : i + n] == said for i in range(len(words) - n + 1))


def _shown(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:40] + "...")


def usable_rules(rules: Iterable[Sequence[str]]) -> tuple[list[tuple[str, str]], list[str]]:
    """The rules that pass ``check_rules`` one by one and together, and the problems of the rest.

    Used when rules come from a settings file that was edited by hand: a bad rule is left out
    and said, the others still work."""
    kept: list[tuple[str, str]] = []
    problems: list[str] = []
    for number, rule in enumerate(rules, 1):
        if len(kept) == MAX_RULES:
            problems.append(f"At most {MAX_RULES} replacement rules are used; those from rule {number} on are not.")
            break
        found = check_rules([*kept, rule])
        if found:
            problems += [p.replace(f"Rule {len(kept) + 1}:", f"Rule {number}:") for p in found]
        else:
            kept.append((rule[0], rule[1]))
    return kept, problems


def apply_rules(text: str, rules: Sequence[tuple[str, str]]) -> str:
    """``text`` with each rule's spoken words replaced by its written text, in one pass."""
    if not rules:
        return text
    by_words = {spoken_words(spoken): written for spoken, written in rules}
    ordered = sorted(by_words, key=len, reverse=True)
    pattern = re.compile(
        "|".join(r"(?<!\w)" + r"[\s,]+".join(re.escape(w) for w in said) + r"(?!\w)" for said in ordered),
        re.IGNORECASE,
    )

    def written(match: re.Match[str]) -> str:
        return by_words[spoken_words(match.group(0))]

    return pattern.sub(written, text)
