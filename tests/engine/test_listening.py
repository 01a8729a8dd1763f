"""Live audio from the real microphone path (PortAudio -> ALSA -> PulseAudio virtual microphone):
snapshots of a take that is still recording, and the hands-free listener."""

from __future__ import annotations

import itertools
import threading

import numpy as np
import pytest
import soundfile

from parley.engine.audio.capture import Listener, Recorder
from parley.engine.audio.files import SAMPLE_RATE
from parley.engine.audio.vad import UtteranceSegmenter
from parley.engine.errors import CaptureError
from tests.support.pulse import finish
from tests.support.requirements import require
from tests.support.speech import SENTENCES, espeak_available, synthesize

EVENT_TIMEOUT = 30.0  # seconds; only reached if something hangs


@pytest.fixture(scope="module")
def three_sentences(tmp_path_factory: pytest.TempPathFactory):
    """Three sentences with 1.5 s of silence between them, as one WAV file."""
    require(espeak_available(), "espeak-ng is not installed")
    folder = tmp_path_factory.mktemp("sentences")
    gap = np.zeros(int(1.5 * SAMPLE_RATE), dtype=np.float32)
    parts = [gap[: SAMPLE_RATE // 2]]
    for i, text in enumerate(SENTENCES):
        parts += [soundfile.read(synthesize(text, folder / f"{i}.wav"), dtype="float32")[0], gap]
    path = folder / "three.wav"
    soundfile.write(path, np.concatenate(parts), SAMPLE_RATE)
    return path


def test_snapshots_are_prefixes_of_the_take(mic, three_sentences):
    recorder = Recorder("pulse")
    recorder.start()
    player = mic.play(three_sentences, wait=False)
    snapshots = []
    while player.poll() is None:
        threading.Event().wait(0.4)
        snapshots.append(recorder.snapshot())
    finish(player, timeout=EVENT_TIMEOUT)
    take = recorder.stop()
    assert len(snapshots) >= 5 and all(len(a) <= len(b) for a, b in itertools.pairwise(snapshots))
    for snapshot in snapshots:
        assert np.array_equal(snapshot, take[: len(snapshot)])  # exactly the same samples
    assert len(take) - len(snapshots[-1]) < 0.6 * SAMPLE_RATE
    assert len(recorder.snapshot()) == 0  # nothing is recording now


def test_the_listener_hands_over_each_sentence_as_one_utterance(mic, three_sentences):
    segmenter = UtteranceSegmenter()
    utterances: list[np.ndarray] = []
    levels: list[float] = []
    threads = set()

    def on_audio(block):
        threads.add(threading.current_thread().name)
        utterances.extend(segmenter.push(block))

    listener = Listener("pulse", on_audio=on_audio, on_level=levels.append)
    listener.start()
    assert listener.is_listening
    mic.play(three_sentences)
    threading.Event().wait(1.0)  # the last pause ends the last utterance
    listener.stop()
    assert not listener.is_listening
    count = len(levels)
    threading.Event().wait(0.3)
    assert len(levels) == count  # nothing arrives after stop() returned
    assert threads == {"parley-listener"}
    assert len(utterances) == len(SENTENCES), [len(u) / SAMPLE_RATE for u in utterances]
    assert max(levels) > -30.0


def test_a_lost_microphone_stops_the_listener_and_says_so(mic):
    errors: list[CaptureError] = []
    reported = threading.Event()
    listener = Listener(
        "pulse", on_audio=lambda _block: None, on_error=lambda exc: (errors.append(exc), reported.set())
    )
    listener.start()
    threading.Event().wait(0.3)
    mic.unload_source()
    assert reported.wait(EVENT_TIMEOUT)
    assert "stopped delivering audio" in str(errors[0]) and not listener.is_listening
