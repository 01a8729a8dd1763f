"""Hands-free's turn end: Smart Turn v3.2 from the pipecat-ai wheel, run on ONNX Runtime.

The features are Whisper's log-mel as the model was trained on (checked against pipecat's own
numpy extraction, loaded from the wheel's file without importing pipecat); the file check
refuses any other file before ONNX Runtime sees it; and on real synthesised speech over a
room's noise (``tests/support/turns.py``, the set ``bench/bench_turns.py`` measures), the
segmenter with the model waits through a pause to think mid-sentence, which the fixed 0.8 s
pause cuts, and ends a finished question, or "stop" said once at -30 dBFS, sooner than the
fixed pause does.
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import numpy as np
import pytest

from parley.engine.audio.silero import NeuralDetector, SileroVAD
from parley.engine.audio.turn_end import SmartTurn, check_turn_file, log_mel
from parley.engine.audio.vad import UtteranceSegmenter
from parley.engine.errors import ModelFileError
from parley.engine.modelfiles.defaults import default_turn_model_path
from tests.support import turns
from tests.support.requirements import require
from tests.support.speech import espeak_available, room_noise

BLOCK = 1600  # the listener's 100 ms blocks


@pytest.fixture(scope="module")
def model() -> Path:
    return default_turn_model_path()  # installed by requirements-models.txt: missing is a failure


@pytest.fixture(scope="module")
def smart(model: Path) -> SmartTurn:
    return SmartTurn(model)


def ends(segmenter: UtteranceSegmenter, audio: np.ndarray) -> list[int]:
    """The samples at which the segmenter completed each utterance of ``audio``."""
    out = []
    for i in range(0, len(audio), BLOCK):
        out += [min(len(audio), i + BLOCK)] * len(segmenter.push(audio[i : i + BLOCK]))
    if segmenter.flush() is not None:
        out.append(len(audio))
    return out


def test_features_are_the_ones_the_model_was_trained_on(model: Path) -> None:
    reference_file = model.parent.parent / "_whisper_features.py"
    spec = importlib.util.spec_from_file_location("smart_turn_features", reference_file)
    assert spec is not None and spec.loader is not None
    reference = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(reference)  # numpy only
    speech = turns.speak("What time is it in Tokyo?", "piper")
    for audio in (speech, np.tile(speech, 6)):  # shorter than the 8 s window, and longer
        window = audio[-128000:]
        expected = reference.compute_whisper_log_mel_features(np.pad(window, (128000 - len(window), 0)))
        assert np.abs(log_mel(audio) - expected).max() < 1e-4


def test_another_file_is_refused_before_onnx_runtime_reads_it(model: Path, tmp_path: Path) -> None:
    changed = tmp_path / "smart-turn.onnx"
    shutil.copyfile(model, changed)
    data = bytearray(changed.read_bytes())
    data[len(data) // 2] ^= 1
    changed.write_bytes(bytes(data))
    with pytest.raises(ModelFileError, match="SHA-256"):
        SmartTurn(changed)
    (tmp_path / "big.onnx").write_bytes(b"\0" * (len(data) + 1))
    with pytest.raises(ModelFileError, match="cannot be read"):
        check_turn_file(tmp_path / "big.onnx")


def test_a_finished_question_is_heard_as_finished_and_half_a_sentence_is_not(smart: SmartTurn) -> None:
    asked = turns.finished(1, "piper")  # "How far is the moon from the earth?"
    assert smart.probability(asked.audio[: asked.speech_end + 3200]) > 0.5
    said = turns.paused(14, "piper")  # "Remind me tomorrow at nine to ... water the plants."
    assert said.pause is not None
    assert smart.probability(said.audio[: said.pause[0] + 3200]) < 0.5


@pytest.mark.parametrize("voice", turns.VOICES)
def test_a_pause_to_think_does_not_end_the_turn(smart: SmartTurn, voice: str) -> None:
    require(voice == "piper" or espeak_available(), "espeak-ng is not installed")
    vad = SileroVAD.default()
    try:
        said = turns.paused(14, voice)  # a pause of 1.2 s after "Remind me tomorrow at nine to"
        assert said.pause is not None
        fixed = ends(UtteranceSegmenter(NeuralDetector(vad)), said.audio)
        assert fixed[0] < said.pause[1], "the fixed pause cuts this one (else it proves nothing)"
        vad.reset()
        judged = ends(UtteranceSegmenter(NeuralDetector(vad), judge=smart), said.audio)
        assert len(judged) == 1 and judged[0] > said.speech_end
    finally:
        vad.close()


def test_a_finished_question_ends_sooner_than_the_fixed_pause(smart: SmartTurn) -> None:
    vad = SileroVAD.default()
    try:
        asked = turns.finished(1, "piper")
        (fixed,) = ends(UtteranceSegmenter(NeuralDetector(vad)), asked.audio)
        vad.reset()
        (judged,) = ends(UtteranceSegmenter(NeuralDetector(vad), judge=smart), asked.audio)
        assert asked.speech_end < judged < fixed
    finally:
        vad.close()


@pytest.mark.parametrize("voice", turns.VOICES)
def test_stop_said_once_quietly_ends_the_turn_sooner_than_the_fixed_pause(smart: SmartTurn, voice: str) -> None:
    """ "Stop" once, at -30 dBFS over a quiet room: heard as a finished turn, it is sent well
    before the fixed pause would send it."""
    require(voice == "piper" or espeak_available(), "espeak-ng is not installed")
    clip = turns.speak("Stop.", voice)
    clip *= 10 ** (-30 / 20) / np.sqrt(np.mean(clip**2))
    scene = room_noise(5.0, -55.0, seed=1)
    scene[16000 : 16000 + len(clip)] += clip
    vad = SileroVAD.default()
    try:
        (fixed,) = ends(UtteranceSegmenter(NeuralDetector(vad)), scene)
        vad.reset()
        (judged,) = ends(UtteranceSegmenter(NeuralDetector(vad), judge=smart), scene)
        assert 16000 + len(clip) < judged < fixed
    finally:
        vad.close()


def test_a_judge_that_fails_leaves_the_turn_to_the_long_pause(model: Path) -> None:
    closed = SmartTurn(model)
    closed.close()  # its calls now raise ModelClosedError
    vad = SileroVAD.default()
    try:
        asked = turns.finished(1, "piper")
        (judged,) = ends(UtteranceSegmenter(NeuralDetector(vad), judge=closed), asked.audio)
        assert judged - asked.speech_end >= closed.longest_seconds * 16000
    finally:
        vad.close()


def test_a_question_over_parley_s_voice_ends_by_the_fixed_pause(smart: SmartTurn) -> None:
    """Talking over Parley (pushed with ``judged`` false): the echo canceller holds the user
    down in gaps while both speak, which the judge would hear as a finished question ("How
    the..." sent in the PulseAudio loop test); such an utterance ends after the fixed pause,
    exactly where the segmenter without a judge ends it."""
    vad = SileroVAD.default()
    try:
        asked = turns.finished(1, "piper")
        (fixed,) = ends(UtteranceSegmenter(NeuralDetector(vad)), asked.audio)
        vad.reset()
        segmenter = UtteranceSegmenter(NeuralDetector(vad), judge=smart)
        over = [
            min(len(asked.audio), i + BLOCK)
            for i in range(0, len(asked.audio), BLOCK)
            for _ in segmenter.push(asked.audio[i : i + BLOCK], judged=False)
        ]
        assert over == [fixed]
    finally:
        vad.close()
