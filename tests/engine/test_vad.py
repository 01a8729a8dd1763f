"""Energy VAD: trimming takes, the voiced region of a growing take, and cutting a stream into
utterances, on real espeak-ng speech and real-level room noise."""

from __future__ import annotations

import numpy as np
import pytest
import soundfile

from parley.engine.audio.files import SAMPLE_RATE
from parley.engine.audio.vad import EnergyVAD, UtteranceSegmenter, voiced_part, voiced_region
from tests.support.requirements import require
from tests.support.speech import SENTENCES, espeak_available, room_noise, synthesize


@pytest.fixture(scope="module")
def speech(tmp_path_factory: pytest.TempPathFactory) -> np.ndarray:
    """About 1.7 s of espeak-ng speech at 16 kHz."""
    require(espeak_available(), "espeak-ng is not installed")
    path = synthesize("Testing one two three.", tmp_path_factory.mktemp("speech") / "speech.wav")
    samples, _ = soundfile.read(path, dtype="float32")
    return samples


@pytest.fixture(scope="module")
def sentences(tmp_path_factory: pytest.TempPathFactory) -> list[np.ndarray]:
    require(espeak_available(), "espeak-ng is not installed")
    folder = tmp_path_factory.mktemp("sentences")
    return [
        soundfile.read(synthesize(text, folder / f"{i}.wav"), dtype="float32")[0] for i, text in enumerate(SENTENCES)
    ]


def test_energy_vad_trims_silence_around_speech(speech):
    padded = np.concatenate([room_noise(1.0), speech, room_noise(1.0)])
    vad = EnergyVAD()
    trimmed = vad.trim(padded)
    margins = int(2 * vad.hangover_seconds * SAMPLE_RATE) + int(vad.frame_seconds * SAMPLE_RATE)
    assert len(trimmed) <= len(speech) + margins  # the seconds of padding are gone
    assert np.sum(trimmed.astype(np.float64) ** 2) > 0.999 * np.sum(speech.astype(np.float64) ** 2)
    assert len(vad.trim(room_noise(1.0))) == 0


def test_energy_vad_is_speech_with_hangover(speech):
    vad = EnergyVAD(hangover_seconds=0.25)
    block = SAMPLE_RATE // 16  # 62.5 ms: block times add up exactly in binary floating point
    start = int(np.argmax(np.abs(speech))) // block * block
    loud = speech[start : start + block]
    quiet = np.zeros(block, dtype=np.float32)
    assert not vad.is_speech(quiet)
    assert vad.is_speech(loud)
    decisions = [vad.is_speech(quiet) for _ in range(6)]  # 375 ms of silence after speech
    assert decisions == [True] * 3 + [False] * 3  # held for the 250 ms hangover, then released
    vad.reset()
    assert not vad.is_speech(quiet)


def test_a_settled_region_of_a_prefix_is_the_region_of_the_whole_take(speech):
    """What the live transcript relies on: once the margin after the speech has been recorded,
    more silence does not move the region, and more speech does."""
    take = np.concatenate([room_noise(0.5), speech, room_noise(1.5, seed=1), speech, room_noise(0.6, seed=2)])
    whole = voiced_region(take)
    assert whole is not None and whole.settled
    first_end = int((0.5 + len(speech) / SAMPLE_RATE + 0.45) * SAMPLE_RATE)
    prefix = voiced_region(take[:first_end])
    assert prefix is not None and prefix.settled and prefix.end < whole.end  # the second one moves it
    for cut in range(first_end, first_end + int(0.6 * SAMPLE_RATE), 997):  # only silence added
        assert voiced_region(take[:cut]) == prefix
    last_loud = voiced_region(speech, margin_seconds=0.0).end  # the speech ends here
    unsettled = voiced_region(take[: int(0.5 * SAMPLE_RATE) + last_loud + int(0.1 * SAMPLE_RATE)])
    assert unsettled is not None and not unsettled.settled  # the margin is not in yet
    assert voiced_region(room_noise(2.0)) is None and len(voiced_part(room_noise(2.0))) == 0
    assert voiced_part(take)[0] == take[whole.start]


def _feed(segmenter: UtteranceSegmenter, audio: np.ndarray, block: int = 1600) -> list[np.ndarray]:
    out = []
    for i in range(0, len(audio), block):
        out += segmenter.push(audio[i : i + block])
    return out


def test_sentences_separated_by_pauses_are_separate_utterances(sentences):
    gap = 1.5
    stream = np.concatenate(
        [room_noise(1.0)] + [np.concatenate([s, room_noise(gap, seed=i + 1)]) for i, s in enumerate(sentences)]
    )
    utterances = _feed(UtteranceSegmenter(), stream)
    assert len(utterances) == len(sentences)
    for heard, said in zip(utterances, sentences, strict=True):
        energy = np.sum(said.astype(np.float64) ** 2)
        assert np.sum(heard.astype(np.float64) ** 2) > 0.99 * energy  # the whole sentence, once
        assert len(heard) < len(said) + 2 * SAMPLE_RATE * 0.8  # without the long pauses


@pytest.mark.parametrize("level_db", [-60.0, -50.0, -45.0])
def test_twenty_seconds_of_room_noise_is_no_utterance(level_db):
    segmenter = UtteranceSegmenter()
    assert _feed(segmenter, room_noise(20.0, level_db)) == [] and not segmenter.in_utterance


def test_speech_over_a_noisy_room_still_starts_an_utterance(sentences):
    noise = room_noise(6.0, -45.0, seed=3)
    stream = noise.copy()
    stream[SAMPLE_RATE * 2 : SAMPLE_RATE * 2 + len(sentences[0])] += sentences[0]
    utterances = _feed(UtteranceSegmenter(), stream)
    assert len(utterances) == 1


def test_a_click_is_no_utterance():
    stream = room_noise(3.0)
    stream[SAMPLE_RATE : SAMPLE_RATE + 320] = 0.8  # 20 ms at full scale
    assert _feed(UtteranceSegmenter(), stream) == []


def test_a_long_utterance_is_cut_at_the_limit(speech):
    stream = np.concatenate([speech] * 6)  # ~10 s of speech without a long pause
    segmenter = UtteranceSegmenter(max_seconds=4.0)
    pieces = _feed(segmenter, stream)
    assert len(pieces) >= 2 and all(len(p) <= 4.0 * SAMPLE_RATE + 1 for p in pieces)


def test_samples_that_may_not_be_speech_start_nothing_but_are_kept_as_pre_roll(speech):
    """Hands-free on speakers: Parley's own voice (``may_be_speech=False``) never starts an
    utterance, yet the moments before the user's speech is admitted stay in the utterance."""
    segmenter = UtteranceSegmenter()
    assert _feed_flagged(segmenter, speech, False) == [] and not segmenter.in_utterance
    segmenter.reset()
    onset = int(np.argmax(np.abs(speech) > 0.05))  # where the speech becomes loud
    head, tail = speech[:onset], speech[onset:]
    out = _feed_flagged(segmenter, np.concatenate([room_noise(0.5), head]), False)
    out += _feed_flagged(segmenter, np.concatenate([tail, room_noise(1.5, seed=1)]), True)
    assert len(out) == 1
    kept = out[0]
    assert np.sum(kept.astype(np.float64) ** 2) > 0.99 * np.sum(speech.astype(np.float64) ** 2)


def _feed_flagged(segmenter: UtteranceSegmenter, audio: np.ndarray, may_be_speech: bool) -> list[np.ndarray]:
    out = []
    for i in range(0, len(audio), 320):
        out += segmenter.push(audio[i : i + 320], may_be_speech)
    return out
