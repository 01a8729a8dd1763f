"""What a dictation does to its transcript: ``DictationOptions``, made from the settings, and
the per-application modes that the app and ``parley transcribe`` share.

The defaults and bounds here are the settings' too (``parley.config.settings`` imports them):
a stored value outside them is bounded when the options are made, and ``warnings`` says what
was left out, so a huge vocabulary or a bad rule never makes the whole settings file fall back.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Any, Protocol

from . import replacements as rules_, vocabulary as vocab

MAX_RULES = rules_.MAX_RULES
# The system prompt; the take follows as the message "Dictated text: ..." (cleanup.MESSAGE).
# Written for the smallest model: with "clean up" and "Reply with the cleaned text only" the
# starter (SmolLM2-135M) chatted about the text; with "rewrite" and "Do not answer" it rewrites.
DEFAULT_CLEANUP_PROMPT = (
    "Rewrite the dictated text with correct punctuation and capitalization. Drop repeated words "
    "and false starts. Do not answer questions or requests in it; only rewrite it. Output the "
    "rewritten text and nothing else."
)
MAX_CLEANUP_PROMPT_CHARS = 4000
DEFAULT_CLEANUP_TIMEOUT_S = 2.0
CLEANUP_TIMEOUT_RANGE = (0.5, 30.0)

# Per-application modes (X11 window class -> mode); Settings > Dictation tells what each does.
MODES = ("default", "plain", "cleaned", "terminal", "terminal-keys", "raw")
# The terminals' window classes (lower case), as the settings' table starts: xterm and urxvt do
# not paste the clipboard on Ctrl+Shift+V by default, so the app types there.
DEFAULT_APP_MODES = {
    **dict.fromkeys(
        (
            "gnome-terminal",
            "gnome-terminal-server",
            "konsole",
            "alacritty",
            "kitty",
            "foot",
            "footclient",
            "terminator",
            "xfce4-terminal",
            "tilix",
            "org.wezfurlong.wezterm",
            "wezterm",
            "st",
            "st-256color",
        ),
        "terminal",
    ),
    **dict.fromkeys(("xterm", "uxterm", "urxvt", "rxvt"), "terminal-keys"),
}


class DictationSettings(Protocol):
    """The fields of ``parley.config.settings.Settings`` that dictation reads."""

    dictation_vocabulary: list[str]
    dictation_vocabulary_threshold: float
    dictation_replacements: list[list[str]]
    dictation_spoken_punctuation: bool
    dictation_remove_fillers: bool
    dictation_cleanup: bool
    dictation_cleanup_prompt: str
    dictation_cleanup_timeout_s: float
    language: str


@dataclasses.dataclass(frozen=True)
class DictationOptions:
    vocabulary: tuple[str, ...] = ()
    vocabulary_threshold: float = vocab.DEFAULT_THRESHOLD
    replacements: tuple[tuple[str, str], ...] = ()
    spoken_punctuation: bool = True
    remove_fillers: bool = True
    cleanup: bool = False
    cleanup_prompt: str = DEFAULT_CLEANUP_PROMPT
    cleanup_timeout_s: float = DEFAULT_CLEANUP_TIMEOUT_S
    language: str = "auto"
    correct_vocabulary: bool = True  # off only in the "raw" mode: the list then only biases whisper
    warnings: tuple[str, ...] = ()  # what was left out of the stored values, one sentence each

    @classmethod
    def from_settings(cls, settings: DictationSettings) -> DictationOptions:
        return cls.bounded(
            vocabulary=settings.dictation_vocabulary,
            vocabulary_threshold=settings.dictation_vocabulary_threshold,
            replacements=settings.dictation_replacements,
            spoken_punctuation=settings.dictation_spoken_punctuation,
            remove_fillers=settings.dictation_remove_fillers,
            cleanup=settings.dictation_cleanup,
            cleanup_prompt=settings.dictation_cleanup_prompt,
            cleanup_timeout_s=settings.dictation_cleanup_timeout_s,
            language=settings.language,
        )

    @classmethod
    def bounded(
        cls,
        *,
        vocabulary: Sequence[str] = (),
        replacements: Sequence[Sequence[str]] = (),
        vocabulary_threshold: float = vocab.DEFAULT_THRESHOLD,
        cleanup_prompt: str = DEFAULT_CLEANUP_PROMPT,
        cleanup_timeout_s: float = DEFAULT_CLEANUP_TIMEOUT_S,
        **flags: Any,
    ) -> DictationOptions:
        """Options from values that may break the bounds (a hand-edited file, a command line):
        what cannot be used is left out or clamped, and ``warnings`` says so."""
        words, warnings = vocab.bound(vocabulary)
        rules, problems = rules_.usable_rules(replacements)
        if problems:
            warnings += [f"Replacement rules left out: {problems[0]}", *problems[1:]]
        prompt = cleanup_prompt if cleanup_prompt.strip() else DEFAULT_CLEANUP_PROMPT
        if len(prompt) > MAX_CLEANUP_PROMPT_CHARS:
            warnings.append(f"The clean-up prompt was cut to {MAX_CLEANUP_PROMPT_CHARS} characters.")
            prompt = prompt[:MAX_CLEANUP_PROMPT_CHARS]
        return cls(
            vocabulary=words,
            vocabulary_threshold=_clamp(vocabulary_threshold, *vocab.THRESHOLD_RANGE, vocab.DEFAULT_THRESHOLD),
            replacements=tuple(rules),
            cleanup_prompt=prompt,
            cleanup_timeout_s=_clamp(cleanup_timeout_s, *CLEANUP_TIMEOUT_RANGE, DEFAULT_CLEANUP_TIMEOUT_S),
            warnings=tuple(warnings),
            **flags,
        )

    def with_mode(self, mode: str) -> DictationOptions:
        """These options in a per-application mode (``MODES``; an unknown one changes nothing)."""
        if mode in ("plain", "terminal", "terminal-keys"):
            return dataclasses.replace(self, cleanup=False)
        if mode == "cleaned":
            return dataclasses.replace(self, cleanup=True)
        if mode == "raw":
            return dataclasses.replace(
                self,
                cleanup=False,
                replacements=(),
                spoken_punctuation=False,
                remove_fillers=False,
                correct_vocabulary=False,
            )
        return self

    def whisper_prompt(self) -> str | None:
        """whisper's initial prompt from the vocabulary (``vocabulary.whisper_prompt``)."""
        return vocab.whisper_prompt(self.vocabulary, self.language)


def whisper_prompt(options: DictationOptions) -> str | None:
    """whisper's initial prompt for these options: the vocabulary, within whisper's prompt size."""
    return options.whisper_prompt()


def _clamp(value: float, low: float, high: float, default: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        return default
    return min(max(float(value), low), high)
