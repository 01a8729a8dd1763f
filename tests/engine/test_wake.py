"""The wake words on their real models (pymicro-wakeword's, checked by hash), with speech in
Parley's natural voice, and the phrase cut from a transcript."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from parley.engine.errors import WakeWordError
from parley.engine.wake import words
from parley.engine.wake.detector import REFRACTORY_S, WakeDetector, check_threshold
from parley.engine.wake.phrase import after_wake_phrase
from parley.engine.wake.words import WAKE_WORDS, find_word
from tests.support.requirements import require
from tests.support.speech import natural_speech

MODEL_WORDS = [w for w in WAKE_WORDS if not w.heard_in_transcript]
QUESTION = "what is the capital of France?"


@pytest.fixture(scope="module", autouse=True)
def installed() -> None:
    require(words.package_folder() is not None, "pymicro-wakeword is not installed (requirements-wake.txt)")


def heard(detector: WakeDetector, audio: np.ndarray, block: int = 1600) -> list:
    found = []
    for start in range(0, len(audio), block):
        found += detector.push(audio[start : start + block])
    return found


@pytest.mark.parametrize("word", MODEL_WORDS, ids=lambda w: w.id)
def test_each_word_is_heard_where_it_is_said_and_no_other(word) -> None:
    """The word before a question is heard once, within a second after it is said; the others'
    phrases, and the question alone, are not heard as it."""
    said = natural_speech(f"{word.phrase}, {QUESTION}", pad_s=1.0)
    detector = WakeDetector(word)
    try:
        found = heard(detector, said)
        assert len(found) == 1, found
        assert 1.0 < found[0].seconds < 3.0 and found[0].word == word.id and found[0].score > word.threshold
        for other in MODEL_WORDS:
            if other is not word:
                detector.reset()
                assert heard(detector, natural_speech(f"{other.phrase}, {QUESTION}")) == [], other.id
        detector.reset()
        assert heard(detector, natural_speech(QUESTION.capitalize())) == []
    finally:
        detector.close()


def test_the_best_score_since_a_time_is_kept_past_the_floor() -> None:
    """``peak_since``: the word's score is there from where it was said, and gone after it or
    after a reset; the question alone keeps nothing past the floor."""
    word = find_word("hey_jarvis")
    detector = WakeDetector(word)
    try:
        heard(detector, natural_speech(f"Hey Jarvis, {QUESTION}", pad_s=1.0))
        assert detector.peak_since(0.0) > word.threshold
        assert detector.peak_since(detector.seconds) == 0.0
        detector.reset()
        assert detector.peak_since(0.0) == 0.0
        heard(detector, natural_speech(QUESTION.capitalize(), pad_s=1.0))
        assert detector.peak_since(0.0) == 0.0 and 0.0 < detector.floor < detector.threshold
    finally:
        detector.close()


def test_the_stream_time_and_reset() -> None:
    """Blocks of any size give the same detection; reset starts the stream at 0 again."""
    word = find_word("hey_jarvis")
    said = natural_speech(f"Hey Jarvis, {QUESTION}", pad_s=1.0)
    detector = WakeDetector(word)
    try:
        at = [d.seconds for d in heard(detector, said, block=160)]
        assert detector.seconds == len(said) / 16000
        detector.reset()
        assert detector.seconds == 0.0
        again = [d.seconds for d in heard(detector, said, block=16000)]
        assert len(at) == len(again) == 1 and abs(at[0] - again[0]) < 0.05
    finally:
        detector.close()


def test_the_word_said_a_hundred_times_wakes_at_most_once_a_second() -> None:
    word = find_word("alexa")
    ten = natural_speech(", ".join(["Alexa"] * 10) + ".", pad_s=0.1)
    said = np.concatenate([ten] * 10)  # a hundred times in a row
    detector = WakeDetector(word)
    try:
        found = heard(detector, said)
    finally:
        detector.close()
    gaps = np.diff([d.seconds for d in found])
    assert found and (gaps >= REFRACTORY_S).all(), [d.seconds for d in found]
    assert len(found) <= len(said) / 16000 / REFRACTORY_S + 1


@pytest.mark.parametrize("threshold", [0, 0.0, 1, 1.0, -0.5, 2, float("nan"), True, "0.5"])
def test_a_threshold_outside_zero_to_one_is_refused(threshold) -> None:
    with pytest.raises(WakeWordError, match="between 0 and 1"):
        check_threshold(threshold)
    with pytest.raises(WakeWordError, match="between 0 and 1"):
        WakeDetector(find_word("hey_jarvis"), threshold)


def test_a_lower_threshold_hears_more() -> None:
    """At 0.5 the word is heard where it is at the model's cutoff, and at 0.999 9 not at all."""
    word = find_word("hey_jarvis")
    said = natural_speech(f"Hey Jarvis, {QUESTION}")
    for threshold, count in ((0.5, 1), (0.9999, 0)):
        detector = WakeDetector(word, threshold)
        try:
            assert len(heard(detector, said)) == count, threshold
        finally:
            detector.close()


def package_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """pymicro-wakeword's files in a folder of the test's, found in place of the installed ones."""
    installed = words.package_folder()
    assert installed is not None
    copy = tmp_path / "pymicro_wakeword"
    shutil.copytree(installed, copy)
    monkeypatch.setattr(words, "package_folder", lambda: copy)
    return copy


@pytest.mark.parametrize("damage", ["truncated", "replaced", "missing", "a folder", "huge", "a FIFO", "a link loop"])
def test_a_damaged_model_is_refused_before_it_is_loaded(tmp_path, monkeypatch, damage) -> None:
    copy = package_copy(tmp_path, monkeypatch)
    model = copy / "models" / "hey_jarvis.tflite"
    data = model.read_bytes()
    model.unlink()
    if damage == "truncated":
        model.write_bytes(data[: len(data) // 2])
    elif damage == "replaced":
        model.write_bytes((copy / "models" / "alexa.tflite").read_bytes())  # a real model, not this one
    elif damage == "a folder":
        model.mkdir()
    elif damage == "huge":
        with model.open("wb") as f:
            f.truncate(2 << 30)
    elif damage == "a FIFO":  # a reader that waited on it would hang hands-free
        os.mkfifo(model)
    elif damage == "a link loop":
        model.symlink_to(model.with_name("loop"))
        model.with_name("loop").symlink_to(model)
    with pytest.raises(WakeWordError) as caught:
        WakeDetector(find_word("hey_jarvis"))
    message = str(caught.value)
    assert ("checksum" in message) if damage in ("truncated", "replaced") else ("cannot be read" in message), message
    assert WakeDetector(find_word("alexa")).word.id == "alexa"  # the others still load


def test_without_the_package_the_model_words_say_so(monkeypatch) -> None:
    monkeypatch.setattr(words, "package_folder", lambda: None)
    with pytest.raises(WakeWordError, match="needs the pymicro-wakeword package"):
        WakeDetector(find_word("okay_nabu"))


def test_unknown_words_and_the_transcript_word() -> None:
    with pytest.raises(WakeWordError, match="no wake word 'computer'.*hey_jarvis"):
        find_word("computer")
    with pytest.raises(WakeWordError, match="transcript"):
        WakeDetector(find_word("parley"))


def test_the_settings_know_the_same_words() -> None:
    from parley.config.settings import WAKE_WORD_IDS

    assert WAKE_WORD_IDS == ("", *(w.id for w in WAKE_WORDS))


@pytest.mark.parametrize(
    ("text", "question"),
    [
        ("Hey Jarvis, what is the capital of France?", "What is the capital of France?"),
        ("Hey, Jarvis. What time is it?", "What time is it?"),
        ("Hi Jarves what time is it", "What time is it"),
        ("A Jarvis, tell me a joke.", "Tell me a joke."),
        ("Hey Jarvis.", ""),
        ("Hey Jarvis, stop.", "Stop."),
        ("what time is it", "what time is it"),  # the audio had the word: the words are kept
    ],
)
def test_a_model_word_is_cut_from_the_transcript(text, question) -> None:
    assert after_wake_phrase(text, find_word("hey_jarvis")) == question


@pytest.mark.parametrize(
    ("word", "text", "question"),
    [
        ("okay_nabu", "Okay, no boo.", ""),  # how whisper tiny.en writes the word alone
        ("okay_nabu", "Okay Nabu, play some music.", "Play some music."),
        ("hey_mycroft", "Hey, Microsoft. What time is it?", "What time is it?"),
        ("alexa", "Lexa, what time is it?", "What time is it?"),
        ("alexa", "What time is it?", "What time is it?"),
    ],
)
def test_whisper_s_spellings_of_the_words_are_cut(word, text, question) -> None:
    assert after_wake_phrase(text, find_word(word)) == question


@pytest.mark.parametrize(
    ("text", "question"),
    [
        ("Parley, what time is it?", "What time is it?"),
        ("Hey Parley, what time is it?", "What time is it?"),
        ("Parlay. What is two plus two?", "What is two plus two?"),
        ("Parley.", ""),
        ("Harley, play some music.", "Play some music."),  # how whisper tiny.en often writes it
        ("Arley, play some music.", "Play some music."),  # ... and the natural voice's soft "P"
        ("Early, play some music.", None),
        ("Barley is a grain.", None),
        ("The parley went well.", None),
        ("I said parley, what time is it?", None),
        ("", None),
    ],
)
def test_parley_is_found_only_at_the_start(text, question) -> None:
    assert after_wake_phrase(text, find_word("parley")) == question
