""" "Parley" as the wake word: the name said apart before the question, which whisper drops from
the whole transcript, is found by transcribing the utterance's first word alone
(``wake.name_apart``), with the real whisper tiny.en and Parley's natural voice."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from parley.engine.modelfiles.defaults import default_speech_model_path
from parley.engine.speech import SpeechModel, transcribe_speech
from parley.engine.textmetrics import word_error_rate
from parley.engine.wake.name_apart import leading_word, question_by_name
from parley.engine.wake.phrase import after_wake_phrase, question_after_name, transcript_prompt
from parley.engine.wake.words import find_word
from tests.support.speech import natural_speech, room_noise

RATE = 16000
QUESTION = "What is the capital of France?"


@pytest.fixture(scope="module")
def apart() -> np.ndarray:
    """The natural voice's "Parley, what is the capital of France?": the name, a pause of about
    a quarter of a second, the question."""
    return natural_speech(f"Parley, {QUESTION.lower()}", pad_s=0.5)


@pytest.fixture(scope="module")
def model() -> Iterator[SpeechModel]:
    with SpeechModel(default_speech_model_path(), device="cpu", threads=2) as m:
        yield m


def loud(audio: np.ndarray) -> np.ndarray:
    """Which 10 ms of ``audio`` are louder than -50 dBFS."""
    frames = audio[: len(audio) // 160 * 160].reshape(-1, 160)
    return np.sqrt(np.mean(frames**2, axis=1)) > 10 ** (-50 / 20)


def onset(audio: np.ndarray) -> float:
    """Where the speech begins, in seconds."""
    return float(np.argmax(loud(audio))) * 160 / RATE


def offset(audio: np.ndarray) -> float:
    """Where the last sound in ``audio`` ends, in seconds."""
    return float(np.flatnonzero(loud(audio))[-1] + 1) * 160 / RATE


def test_the_first_word_said_apart_is_cut_at_the_pause_after_it(apart: np.ndarray) -> None:
    cut = leading_word(apart)
    assert cut is not None
    begins, ends = cut.start / RATE, cut.stop / RATE
    assert onset(apart) - 0.25 <= begins <= onset(apart)  # a little before it (the cut keeps 0.15 s)
    assert 0.3 <= ends - begins <= 0.9  # "Parley" and a little quiet either side, not the question
    pause = (offset(apart[: cut.stop]), cut.stop / RATE + onset(apart[cut.stop :]))  # after the name
    assert pause[1] - pause[0] >= 0.12
    # Quieter, later, under a room's noise: a cut in the same pause
    quiet = np.concatenate([np.zeros(2400, np.float32), 0.2 * apart])
    noisy = quiet + room_noise(len(quiet) / RATE, -55.0, seed=3)[: len(quiet)]
    moved = leading_word(noisy)
    assert moved is not None and pause[0] < (moved.stop - 2400) / RATE < pause[1]


def test_no_first_word_apart_in_one_breath_alone_or_in_silence() -> None:
    assert leading_word(natural_speech(QUESTION, pad_s=0.5)) is None  # no pause in its first 1.2 s
    assert leading_word(natural_speech("Parley.", pad_s=0.5)) is None  # nothing after the name
    assert leading_word(room_noise(2.0, -50.0, seed=1)) is None  # no speech standing out of the room
    assert leading_word(np.zeros(16000, np.float32)) is None
    assert leading_word(np.zeros(100, np.float32)) is None


@pytest.mark.parametrize(
    ("first_word", "text", "question"),
    [
        ("Parley", QUESTION, QUESTION),  # whisper dropped the name from the whole
        ("Parley.", "Partly, what is the capital of France?", QUESTION),  # ... or misheard it
        ("Hey, Parley!", "Hey Carley, what is it?", "What is it?"),
        ("Harley", "what time is it", "What time is it"),
        ("Parley", "Parley.", ""),  # the word alone: Parley listens
        ("Charlie", QUESTION, None),  # the first word is not the name: not for Parley
        ("What", "What is the capital of France?", None),
        ("", QUESTION, None),
    ],
)
def test_a_first_word_that_is_the_name_leaves_the_question(first_word: str, text: str, question: str | None) -> None:
    assert question_after_name(first_word, text) == question


def test_whisper_drops_the_name_said_apart_and_the_second_look_finds_it(apart: np.ndarray, model: SpeechModel) -> None:
    """Takes of one clip, shifted and quieter under a faint hiss: whisper primed with the name
    leaves it out of some (13 of 60 when this was measured, with the same takes), and the first
    word alone is the name in nearly all of those."""
    rng = np.random.default_rng(0)
    parley = find_word("parley")

    def heard(audio: np.ndarray) -> str:
        spoken = transcribe_speech(model, audio, initial_prompt=transcript_prompt())
        return "" if spoken is None else spoken.text

    takes = [
        (
            np.concatenate([np.zeros(shift, np.float32), gain * apart])
            + 0.003 * rng.standard_normal(shift + len(apart))
        ).astype(np.float32)
        for shift in (0, 320, 640, 960)
        for gain in (0.3, 0.7, 1.0)
    ]
    whole = sum(after_wake_phrase(heard(t), parley) is not None for t in takes)
    found = [q for q in (question_by_name(heard, t) for t in takes) if q is not None]
    print(f"\nthe name found in {whole} of {len(takes)} whole transcripts; with the first word alone, {len(found)}")
    assert len(found) >= len(takes) - 1
    assert all(word_error_rate(QUESTION.lower().rstrip("?"), q.lower().rstrip("?")) < 0.35 for q in found), found
