"""The shared speech rules (``parley.engine.audio.utterance``) on real clips and whisper's real markers."""

from __future__ import annotations

import numpy as np
import pytest
import soundfile

from parley.engine.audio.utterance import speech_in, speech_region, spoken_text, without_repeats
from parley.engine.audio.vad import voiced_region
from parley.engine.speech import Segment, Transcript
from tests.support.requirements import require
from tests.support.speech import espeak_available, synthesize

RATE = 16_000


@pytest.fixture(scope="module")
def sentence(tmp_path_factory: pytest.TempPathFactory) -> np.ndarray:
    require(espeak_available(), "espeak-ng is not installed")
    path = synthesize("How far away is the moon from the earth?", tmp_path_factory.mktemp("u") / "s.wav")
    audio, _ = soundfile.read(path, dtype="float32")
    return audio


def test_speech_is_the_app_s_voiced_region(sentence: np.ndarray) -> None:
    pad = np.zeros(2 * RATE, np.float32)
    clip = np.concatenate([pad, sentence, pad])
    region = speech_region(clip)
    assert region == voiced_region(clip)
    audible = np.flatnonzero(np.abs(clip) > 10 ** (-40 / 20))
    assert region.start <= audible[0] and audible[-1] < region.end
    assert region.end - region.start < len(clip) - 3 * RATE  # most of the 4 s of silence is cut


@pytest.mark.parametrize("level_db", [None, -90.0, -70.0, -60.0])
def test_no_speech_in_silence_or_a_quiet_room(level_db: float | None) -> None:
    noise = np.random.default_rng(2).standard_normal(3 * RATE)
    clip = np.zeros(3 * RATE, np.float32) if level_db is None else (noise * 10 ** (level_db / 20)).astype(np.float32)
    assert speech_region(clip) is None


def test_too_short_for_whisper_is_no_speech() -> None:
    """whisper.cpp transcribes nothing under 100 ms: a loud 60 ms file holds no speech it could hear."""
    blip = (0.3 * np.sin(np.arange(int(0.06 * RATE)) / 3)).astype(np.float32)
    assert voiced_region(blip) is not None and speech_region(blip) is None
    assert speech_region(np.concatenate([np.zeros(RATE, np.float32), blip])) is not None  # with its margin
    assert speech_region(np.array([], np.float32)) is None


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (" [BLANK_AUDIO]", ""),
        (" (phone ringing)", ""),
        (" [MUSIC PLAYING]", ""),
        (" *cough*", ""),
        (" [Music] [Applause]", ""),
        (" ...", ""),
        (" ♪", ""),
        ("", ""),
        (" How far away is the moon?", "How far away is the moon?"),
        (" Hello (laughs).", "Hello."),
        ("*cough* Yes, sure.", "Yes, sure."),
        (" 你好", "你好"),
    ],
)
def test_markers_are_not_speech(text: str, said: str) -> None:
    assert speech_in(text) == said


def test_spoken_text_joins_the_speech_segments() -> None:
    transcript = Transcript(
        [
            Segment(0.0, 1.0, " [BLANK_AUDIO]"),
            Segment(1.0, 2.0, " Hello."),
            Segment(2.0, 3.0, " (music)"),
            Segment(3.0, 4.0, " How are you?"),
        ],
        "en",
        4.0,
        0.1,
    )
    assert spoken_text(transcript) == "Hello. How are you?"
    assert spoken_text(Transcript([Segment(0.0, 1.0, " [BLANK_AUDIO]")], "en", 1.0, 0.1)) == ""
    assert spoken_text(Transcript([], "en", 1.0, 0.1)) == ""


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "Parley, what is the capital of France? Parley, What is the capital of France?",
            "Parley, what is the capital of France?",
        ),
        ('What is the capital of France?" What is the capital of France?', 'What is the capital of France?"'),
        ("No. No. Stop it.", "No. No. Stop it."),  # short: said twice on purpose
        (
            "I said I was coming. Then I said I was coming again.",
            "I said I was coming. Then I said I was coming again.",
        ),
        ("One two three. Four five six. One two three.", "One two three. Four five six. One two three."),
        ("Hello there", "Hello there"),
        ("", ""),
    ],
)
def test_a_sentence_whisper_wrote_twice_in_a_row_is_kept_once(text: str, said: str) -> None:
    assert without_repeats(text) == said
