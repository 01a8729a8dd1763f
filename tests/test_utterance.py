"""The shared speech rules (``parley.engine.utterance``) on real clips and whisper's real markers."""

from __future__ import annotations

import numpy as np
import pytest
import soundfile

from parley.engine.capture import EnergyVAD
from parley.engine.speech import Segment, Transcript
from parley.engine.utterance import (
    MARGIN_S,
    SPEECH_THRESHOLD_DB,
    speech_in,
    spoken_text,
    voiced_part,
    voiced_span,
)
from tests.speech import espeak_available, synthesize

RATE = 16_000


@pytest.fixture(scope="module")
def sentence(tmp_path_factory: pytest.TempPathFactory) -> np.ndarray:
    if not espeak_available():
        pytest.skip("espeak-ng is not installed")
    path = synthesize("How far away is the moon from the earth?", tmp_path_factory.mktemp("u") / "s.wav")
    audio, _ = soundfile.read(path, dtype="float32")
    return audio


def test_silence_around_a_sound_is_cut_with_a_margin() -> None:
    tone = (0.1 * np.sin(2 * np.pi * 440 * np.arange(RATE) / RATE)).astype(np.float32)     # -23 dBFS
    clip = np.concatenate([np.zeros(2 * RATE, np.float32), tone, np.zeros(3 * RATE, np.float32)])
    assert voiced_span(clip) == (int((2 - MARGIN_S) * RATE), int((3 + MARGIN_S) * RATE))


def test_speech_is_kept_whole(sentence: np.ndarray) -> None:
    pad = 2 * RATE
    clip = np.concatenate([np.zeros(pad, np.float32), sentence, np.zeros(pad, np.float32)])
    audible = np.flatnonzero(np.abs(clip) > 10 ** (-40 / 20))
    begin, end = voiced_span(clip)
    assert begin <= audible[0] and audible[-1] < end
    assert end - begin < len(clip) - 3 * RATE            # most of the 4 s of silence is gone
    assert np.array_equal(voiced_part(clip), clip[begin:end])


def test_the_same_cut_as_the_app_made(sentence: np.ndarray) -> None:
    """Until the app calls ``voiced_part`` itself: the cut it made with the capture VAD is this one."""
    rng = np.random.default_rng(1)
    room = (rng.standard_normal(RATE) * 10 ** (-70 / 20)).astype(np.float32)
    for clip in (sentence, np.concatenate([room, sentence, room]), np.concatenate([sentence, room, sentence])):
        assert np.array_equal(voiced_part(clip), EnergyVAD(threshold_db=SPEECH_THRESHOLD_DB).trim(clip))


@pytest.mark.parametrize("level_db", [None, -90.0, -70.0, -60.0])
def test_no_speech_in_silence_or_a_quiet_room(level_db: float | None) -> None:
    noise = np.random.default_rng(2).standard_normal(3 * RATE)
    clip = np.zeros(3 * RATE, np.float32) if level_db is None else (noise * 10 ** (level_db / 20)).astype(np.float32)
    assert voiced_span(clip) == (0, 0) and len(voiced_part(clip)) == 0


def test_too_short_for_whisper_is_no_speech() -> None:
    """whisper.cpp transcribes nothing under 100 ms: a loud 60 ms file holds no speech it could hear."""
    blip = (0.3 * np.sin(np.arange(int(0.06 * RATE)) / 3)).astype(np.float32)
    assert voiced_span(blip) == (0, 0)
    assert voiced_span(np.concatenate([np.zeros(RATE, np.float32), blip])) != (0, 0)   # the margin makes it long enough
    assert voiced_span(np.array([], np.float32)) == (0, 0)


@pytest.mark.parametrize(("text", "said"), [
    (" [BLANK_AUDIO]", ""), (" (phone ringing)", ""), (" [MUSIC PLAYING]", ""), (" *cough*", ""),
    (" [Music] [Applause]", ""), (" ...", ""), (" ♪", ""), ("", ""),
    (" How far away is the moon?", "How far away is the moon?"),
    (" Hello (laughs).", "Hello."), ("*cough* Yes, sure.", "Yes, sure."), (" 你好", "你好"),
])
def test_markers_are_not_speech(text: str, said: str) -> None:
    assert speech_in(text) == said


def test_spoken_text_joins_the_speech_segments() -> None:
    transcript = Transcript([Segment(0.0, 1.0, " [BLANK_AUDIO]"), Segment(1.0, 2.0, " Hello."),
                             Segment(2.0, 3.0, " (music)"), Segment(3.0, 4.0, " How are you?")], "en", 4.0, 0.1)
    assert spoken_text(transcript) == "Hello. How are you?"
    assert spoken_text(Transcript([Segment(0.0, 1.0, " [BLANK_AUDIO]")], "en", 1.0, 0.1)) == ""
    assert spoken_text(Transcript([], "en", 1.0, 0.1)) == ""
