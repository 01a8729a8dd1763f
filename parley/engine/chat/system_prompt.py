"""The system prompt Parley gives a chat model unless the user writes their own.

It is written for replies that are heard: short, direct, plain sentences that a voice reads
well (no tables, headings or emoji), and no "As an AI" preamble.  ``bench/bench_answers.py``
measures it on every model that can be had here, with no per-model variants.
"""

from __future__ import annotations

from importlib import resources

SYSTEM_PROMPT_RESOURCE = "resources/prompts/system.txt"


def default_system_prompt() -> str:
    return resources.files("parley").joinpath(SYSTEM_PROMPT_RESOURCE).read_text("utf-8").strip()


def is_earlier_default(text: str) -> bool:
    """Whether ``text`` is the default prompt of an earlier Parley (``resources/prompts/previous``):
    a settings file saves every field, so a user who never touched the prompt would otherwise
    keep an old default forever."""
    folder = resources.files("parley").joinpath("resources/prompts/previous")
    return any(
        entry.name.endswith(".txt") and entry.read_text("utf-8").strip() == text.strip() for entry in folder.iterdir()
    )
