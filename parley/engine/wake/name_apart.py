"""The name said apart: "Parley, ... what is the capital of France?"

Whisper drops a name said alone before a sentence.  With the name as its prompt, tiny.en wrote
the natural voice's "Parley, what is the capital of France?" as "What is the capital of France?"
in 13 of 60 takes of one clip shifted, quieter or under faint noise; the first word alone, cut at
the pause after it and transcribed by itself, was "Parley" in 12 of those 13 (and in 27 of 30
with stronger noise added).  So when an utterance's transcript does not begin with the name,
hands-free looks again at its first word, if it was said apart (``leading_word``), and a first
word that reads as the name wakes Parley (``phrase.question_after_name``).

The pause is found by loudness, against the utterance's own floor and peak (no second speech
detector for one utterance, on the UI thread): a cut in the wrong place costs only a look, as
what the first word is stays whisper's to say.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .phrase import after_wake_phrase, question_after_name
from .words import find_word

SAMPLE_RATE = 16000
FRAME = 320  # 20 ms
SHORTEST_WORD_S = 0.15  # a first sound shorter than this is a click or a breath, not the name
LONGEST_WORD_S = 1.2  # "Hey Parley" said slowly; a longer first run is a sentence, not a name
SHORTEST_PAUSE_S = 0.12  # the comma after a name; a stop inside a word is shorter
SHORTEST_REST_S = 0.3  # the question after it: something must follow
LEAD_S = 0.15  # kept before the word: whisper hears a clipped onset poorly
CLEAR_DB = 12.0  # the speech stands this far above the room, or no pause can be told apart
QUIET_SHARE = 0.4  # a frame this far up from the floor to the peak (in dB) is still quiet


def leading_word(audio: np.ndarray) -> slice | None:
    """The first word (or two) of ``audio`` when it was said apart: a run of sound from
    ``SHORTEST_WORD_S`` to ``LONGEST_WORD_S`` long, then a pause of ``SHORTEST_PAUSE_S`` or more,
    then more speech, in 16 kHz audio.  None where there is no such run (one breath, or nothing
    after it)."""
    frames = len(audio) // FRAME
    if frames < 4:
        return None
    power = np.mean(np.square(audio[: frames * FRAME].reshape(frames, FRAME), dtype=np.float64), axis=1)
    level = 10.0 * np.log10(power + 1e-12)
    floor, peak = float(np.percentile(level, 10)), float(np.percentile(level, 98))
    if peak - floor < CLEAR_DB:
        return None
    loud = level > floor + QUIET_SHARE * (peak - floor)
    frame_s = FRAME / SAMPLE_RATE
    pause = round(SHORTEST_PAUSE_S / frame_s)
    at = np.flatnonzero(loud)
    if len(at) == 0:
        return None
    start = end = int(at[0])  # the word: from its first loud frame to its last before a pause
    while end + 1 < frames and loud[end + 1 : end + 1 + pause].any():
        end += 1
    if end - start + 1 < SHORTEST_WORD_S / frame_s or end - start + 1 > LONGEST_WORD_S / frame_s:
        return None
    after = np.flatnonzero(loud[end + 1 :])
    if len(after) < SHORTEST_REST_S / frame_s:
        return None
    gap = int(after[0])  # quiet frames between the word and what follows: cut in its middle
    return slice(max(0, start - round(LEAD_S / frame_s)) * FRAME, (end + 1 + gap // 2) * FRAME)


def question_by_name(transcribe: Callable[[np.ndarray], str], audio: np.ndarray) -> str | None:
    """What follows "Parley" in an utterance, as hands-free finds it (None: it does not begin with
    the name): in ``transcribe(audio)``, or with its first word said apart transcribed alone.
    ``transcribe`` is whisper primed with the name (``phrase.transcript_prompt``).  For the
    command line and the benchmark; the app takes the same two looks on its speech thread."""
    text = transcribe(audio)
    rest = after_wake_phrase(text, find_word("parley"))
    if rest is not None:
        return rest
    cut = leading_word(audio)
    return None if cut is None else question_after_name(transcribe(audio[cut]), text)
