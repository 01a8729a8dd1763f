"""``process``: what Dictate and ``parley transcribe --clean`` do to a transcript, in order.

1. fillers: hesitation sounds out, immediate repetitions said once (``fillers``);
2. vocabulary: near misses of the user's words corrected (``vocabulary``);
3. replacements: the user's rules (``replacements``);
4. spoken punctuation: "comma", "new line" (``punctuation``, English);
5. clean-up by the chat model, when on (a ``TextCleaner``: ``cleanup.Cleaner``), then the
   vocabulary's spellings again over what it wrote; whatever it does wrong (too slow, nothing,
   words of its own, no model yet) the text of steps 1-4 is typed and ``DictationResult.note``
   says why.

Fillers go first so that "Nguyen, um, Van" is one name to the vocabulary step.  Each step is
timed (``steps``), for the benchmark and for the app's log.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Literal, Protocol

from . import fillers, punctuation, replacements, vocabulary, words
from .options import DictationOptions

CleanupStatus = Literal["off", "used", "timed_out", "added_words", "dropped_words", "empty", "no_model", "failed"]


@dataclasses.dataclass(frozen=True)
class CleanupOutcome:
    status: CleanupStatus
    text: str  # the cleaned text when "used", else ""
    note: str = ""  # why it was not used, for the user


class TextCleaner(Protocol):
    """Cleans a transcript with a language model (``cleanup.Cleaner``)."""

    def clean(self, text: str, options: DictationOptions) -> CleanupOutcome: ...


@dataclasses.dataclass(frozen=True)
class DictationResult:
    raw: str  # what whisper heard
    text: str  # what is typed
    cleanup: CleanupStatus
    note: str  # "" or a sentence for the user: why the clean-up was not used
    steps: tuple[tuple[str, float], ...]  # (step, seconds) for each step that ran

    @property
    def plain(self) -> bool:
        return self.cleanup != "used"


NO_MODEL_NOTE = "The chat model is not loaded yet, so the text was typed without the clean-up."


def process(
    raw: str,
    options: DictationOptions,
    cleaner: TextCleaner | None = None,
    *,
    language: str | None = None,
) -> DictationResult:
    """The text to type for the transcript ``raw``.  ``language``: the language whisper
    detected, used when ``options.language`` is "auto" (the filler list, spoken punctuation)."""
    spoken_in = options.language if options.language != "auto" else (language or "auto")
    steps: list[tuple[str, float]] = []
    text = raw.strip()

    def step(name: str, run: Callable[[list[words.Word]], list[words.Word]]) -> None:
        nonlocal text
        started = time.perf_counter()
        text = words.join(run(words.split(text)))
        steps.append((name, time.perf_counter() - started))

    if options.remove_fillers:
        step(
            "fillers",
            lambda ws: fillers.collapse_repeats(fillers.remove_fillers(ws, spoken_in), spoken_in),
        )
    if options.correct_vocabulary and options.vocabulary:
        step("vocabulary", lambda ws: vocabulary.correct(ws, options.vocabulary, options.vocabulary_threshold))
    if options.replacements:
        started = time.perf_counter()
        text = replacements.apply_rules(text, options.replacements)
        steps.append(("replacements", time.perf_counter() - started))
    if options.spoken_punctuation and punctuation.applies_to(spoken_in):
        step("punctuation", punctuation.spoken_punctuation)
    if not options.cleanup or not text.strip():
        return DictationResult(raw, text, "off", "", tuple(steps))
    if cleaner is None:
        return DictationResult(raw, text, "no_model", NO_MODEL_NOTE, tuple(steps))
    started = time.perf_counter()
    outcome = cleaner.clean(text, options)
    typed = outcome.text if outcome.status == "used" else text
    if outcome.status == "used" and options.correct_vocabulary and options.vocabulary:
        # The list's spellings win over the model's ("PostgreSQL" back to "Postgres").
        typed = words.join(vocabulary.correct(words.split(typed), options.vocabulary, options.vocabulary_threshold))
    steps.append(("cleanup", time.perf_counter() - started))
    return DictationResult(raw, typed, outcome.status, outcome.note, tuple(steps))
