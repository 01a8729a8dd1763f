"""The whisper engine on the real default model (tiny.en), with speech synthesized by espeak-ng."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import soundfile
import soxr

from parley.engine.audio.files import SAMPLE_RATE, load_audio
from parley.engine.backend.cancel import CancelToken
from parley.engine.errors import (
    AudioContextError,
    AudioError,
    Cancelled,
    ModelClosedError,
    ModelFileError,
    ThreadCountError,
    UnknownLanguageError,
)
from parley.engine.modelfiles.defaults import default_speech_model_path
from parley.engine.speech import SpeechModel, audio_ctx_for
from parley.engine.textmetrics import corpus_word_error_rate, word_error_rate
from tests.support.requirements import require
from tests.support.speech import espeak_available, synthesize

REPO = Path(__file__).resolve().parents[2]

# Sentences and voices for the WER check; tiny.en makes small mistakes on synthetic voices.
SENTENCES = [
    "The quick brown fox jumps over the lazy dog.",
    "Please set a timer for ten minutes and remind me to call my sister.",
    "What is the weather going to be like tomorrow morning?",
    "I would like to book a table for two people at seven tonight.",
]
VOICES = ["en-us", "en", "en-us+f3"]
# Measured here: corpus WER 0.13 over these 12 clips (see the closing note); the bound leaves room
# for small differences between machines without letting a broken pipeline through.
WER_BOUND = 0.25


@pytest.fixture(scope="module")
def model() -> SpeechModel:
    with SpeechModel(default_speech_model_path(), device="cpu", threads=2) as m:
        yield m


@pytest.fixture(scope="module")
def clips(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, Path]]:
    require(espeak_available(), "espeak-ng is not installed (it speaks the test sentences)")
    folder = tmp_path_factory.mktemp("clips")
    out = []
    for i, text in enumerate(SENTENCES):
        for voice in VOICES:
            out.append((text, synthesize(text, folder / f"clip{i}-{voice.replace('+', '_')}.wav", voice=voice)))
    return out


def test_synthetic_speech_transcribes_within_the_wer_bound(model: SpeechModel, clips: list[tuple[str, Path]]) -> None:
    pairs = [(text, model.transcribe(load_audio(path)).text) for text, path in clips]
    wer = corpus_word_error_rate(pairs)
    print(f"corpus WER over {len(pairs)} clips: {wer:.3f}")
    assert wer < WER_BOUND, pairs
    assert model.name == "whisper tiny.en" and not model.multilingual


def test_same_clip_gives_the_same_text_whatever_came_before(clips: list[tuple[str, Path]]) -> None:
    """A fresh context, then the same context after clips of other lengths: identical text."""
    target = load_audio(clips[1][1])
    others = [load_audio(p) for _, p in clips[3:9]]
    longer = np.concatenate(others)  # ~20 s: a larger audio context than the target's
    with SpeechModel(default_speech_model_path(), device="cpu", threads=2) as fresh:
        alone = fresh.transcribe(target).text
        fresh.transcribe(longer)
        for clip in others[:3]:
            fresh.transcribe(clip)
        again = fresh.transcribe(target).text
        fresh.transcribe(longer, audio_ctx="full")
        third = fresh.transcribe(target).text
    assert alone == again == third


def test_audio_context_is_sized_to_the_clip() -> None:
    assert audio_ctx_for(2.0) == 256
    assert audio_ctx_for(8.0) == 512
    assert audio_ctx_for(14.0) == 768
    assert audio_ctx_for(29.0) == 0  # whisper's own 30 s window
    assert all(audio_ctx_for(s / 4) % 256 == 0 for s in range(1, 100))


def test_segments_stream_through_the_callback(model: SpeechModel, clips: list[tuple[str, Path]]) -> None:
    chosen = clips[::3]  # one clip of each sentence, about 14 s
    audio = np.concatenate([load_audio(p) for _, p in chosen])
    streamed, progress = [], []
    result = model.transcribe(audio, single_segment=False, on_segment=streamed.append, on_progress=progress.append)
    assert streamed == result.segments and len(streamed) >= 2
    assert all(a.end <= b.start + 1e-6 or a.start <= b.start for a, b in itertools.pairwise(streamed))
    assert result.segments[-1].end <= result.audio_seconds + 1e-6
    assert progress and progress == sorted(progress)
    assert word_error_rate(" ".join(t for t, _ in chosen), result.text) < WER_BOUND


def test_cancel_from_another_thread_stops_the_transcription(model: SpeechModel, clips: list[tuple[str, Path]]) -> None:
    audio = np.concatenate([load_audio(p) for _, p in clips] * 3)  # a few minutes: many windows
    token = CancelToken()
    first_segment = threading.Event()
    outcome: list[BaseException | object] = []

    def work() -> None:
        try:
            outcome.append(model.transcribe(audio, on_segment=lambda s: first_segment.set(), cancel=token))
        except BaseException as exc:  # noqa: BLE001 - handed to the test thread
            outcome.append(exc)

    worker = threading.Thread(target=work)
    worker.start()
    assert first_segment.wait(120), "no segment was decoded"
    token.cancel()
    worker.join(120)
    assert not worker.is_alive()
    assert isinstance(outcome[0], Cancelled)
    # The context is still usable afterwards.
    assert word_error_rate(clips[0][0], model.transcribe(load_audio(clips[0][1])).text) < 0.5


def test_any_rate_and_channel_count_gives_the_same_text(
    model: SpeechModel, clips: list[tuple[str, Path]], tmp_path: Path
) -> None:
    text, path = clips[0]
    mono16 = load_audio(path)
    reference = model.transcribe(mono16).text
    stereo44 = soxr.resample(mono16, SAMPLE_RATE, 44100)
    stereo44 = np.stack([stereo44, stereo44 * 0.5], axis=1)
    soundfile.write(tmp_path / "stereo44.flac", stereo44, 44100)
    from_file = model.transcribe(load_audio(tmp_path / "stereo44.flac")).text
    from_array = model.transcribe(stereo44.astype(np.float32), sample_rate=44100).text
    for hypothesis in (from_file, from_array):
        assert word_error_rate(reference, hypothesis) <= 0.2


@pytest.mark.parametrize(
    "audio, rate, problem",
    [
        (np.zeros(0, dtype=np.float32), SAMPLE_RATE, "no audio"),
        (np.full(16000, np.nan, dtype=np.float32), SAMPLE_RATE, "NaN"),
        (np.zeros(16000, dtype=np.float32), 50, "rate"),
    ],
)
def test_bad_audio_gives_a_clear_error(model: SpeechModel, audio: np.ndarray, rate: int, problem: str) -> None:
    with pytest.raises(AudioError, match=problem):
        model.transcribe(audio, sample_rate=rate)


def test_silence_gives_no_words_and_no_crash(model: SpeechModel) -> None:
    result = model.transcribe(np.zeros(SAMPLE_RATE * 2, dtype=np.float32))
    assert len(result.text.split()) <= 3


def test_bad_settings_and_a_closed_model_raise_typed_errors() -> None:
    model = SpeechModel(default_speech_model_path(), device="cpu", threads=1)
    silence = np.zeros(SAMPLE_RATE, dtype=np.float32)
    for bad in (-1, 1501, "wide", None):
        with pytest.raises(AudioContextError, match="auto, full or 0 to 1500"):
            model.transcribe(silence, audio_ctx=bad)  # type: ignore[arg-type]
    model.close()
    with pytest.raises(ModelClosedError):
        model.transcribe(silence)
    with pytest.raises(ThreadCountError):
        SpeechModel(default_speech_model_path(), device="cpu", threads=-1)


def test_close_from_another_thread_cancels_the_transcription() -> None:
    """The first progress report waits until ``close()`` on another thread has cancelled the
    call's token; a close that waited for the whole transcription would never do that."""
    model = SpeechModel(default_speech_model_path(), device="cpu", threads=1)
    noise = np.random.default_rng(0).normal(0, 0.01, SAMPLE_RATE * 65).astype(np.float32)  # three windows
    token, waited = CancelToken(), []
    closer = threading.Thread(target=model.close)

    def on_progress(percent: int) -> None:
        if not waited:
            closer.start()
            waited.append(wait_until(lambda: token.cancelled, 30))

    with pytest.raises(Cancelled):
        model.transcribe(noise, on_progress=on_progress, cancel=token)
    closer.join(60)
    assert waited == [True] and not closer.is_alive()
    with pytest.raises(ModelClosedError):
        model.transcribe(noise[:SAMPLE_RATE])


def test_a_callback_that_transcribes_again_gets_busy_instead_of_a_deadlock() -> None:
    code = (
        "import json, numpy as np\n"
        "from parley.engine.errors import ModelBusyError\n"
        "from parley.engine.modelfiles.defaults import default_speech_model_path\n"
        "from parley.engine.speech import SpeechModel\n"
        "model = SpeechModel(default_speech_model_path(), device='cpu', threads=1)\n"
        "clip, seen = np.zeros(16000 * 2, dtype=np.float32), []\n"
        "def on_progress(percent):\n"
        "    try:\n"
        "        model.transcribe(clip)\n"
        "        seen.append('ran')\n"
        "    except ModelBusyError as exc:\n"
        "        seen.append(str(exc))\n"
        "result = model.transcribe(clip, on_progress=on_progress)\n"
        "print(json.dumps({'seen': seen, 'text': result.text}))\n"
    )
    try:
        proc = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )
    except subprocess.TimeoutExpired:
        pytest.fail("the transcription did not finish within 120 s: the model deadlocked")
    assert proc.returncode == 0, proc.stderr
    seen = json.loads(proc.stdout.strip().splitlines()[-1])["seen"]
    assert seen and all(s.startswith("the speech model is busy on this thread") for s in seen)


def wait_until(condition: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def test_unknown_language_code(tmp_path: Path) -> None:
    from parley.engine.modelfiles.whisper_convert import convert_ct2_whisper
    from tests.support.ct2_fixtures import write_ct2_whisper

    source = write_ct2_whisper(tmp_path / "ct2", size="tiny", n_vocab=51865)["source"]
    convert_ct2_whisper(source, tmp_path / "multilingual.bin")
    with SpeechModel(tmp_path / "multilingual.bin", device="cpu", threads=1) as model:
        with pytest.raises(UnknownLanguageError) as info:
            model.transcribe(np.zeros(SAMPLE_RATE, dtype=np.float32), language="xx")
        assert info.value.code == "xx" and str(info.value) == "unknown language code 'xx'"


@pytest.mark.parametrize("make", ["missing", "directory", "garbage", "truncated"])
def test_bad_model_files_raise_before_native_code(tmp_path: Path, make: str) -> None:
    path = tmp_path / "model.bin"
    if make == "directory":
        path.mkdir()
    elif make == "garbage":
        path.write_bytes(os.urandom(4096))
    elif make == "truncated":
        source = default_speech_model_path()
        with source.open("rb") as fh:
            path.write_bytes(fh.read(source.stat().st_size // 2))
    with pytest.raises(ModelFileError) as info:
        SpeechModel(path, device="cpu")
    assert str(path) in str(info.value)


def test_transcribe_command(clips: list[tuple[str, Path]]) -> None:
    text, path = clips[0]
    proc = subprocess.run(
        [sys.executable, "-m", "parley", "transcribe", str(path), str(clips[4][1]), "--json", "--threads", "2"],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r["file"] for r in rows] == [str(path), str(clips[4][1])]
    assert word_error_rate(text, rows[0]["text"]) < 0.5
    assert rows[0]["segments"] and rows[0]["device"] == "CPU"
    stamped = subprocess.run(
        [sys.executable, "-m", "parley", "transcribe", str(path), "--timestamps"],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert stamped.returncode == 0 and stamped.stdout.startswith("[00:00.000 --> ")


def test_microphone_to_transcript(clips: list[tuple[str, Path]], model: SpeechModel, mic) -> None:  # noqa: ANN001
    """The real PortAudio path: PulseAudio virtual microphone -> our Recorder -> whisper."""
    from parley.engine.audio.capture import Recorder

    text, path = clips[6]
    recorder = Recorder("pulse", refresh=True)
    recorder.start()
    mic.play(path, wait=True)
    audio = recorder.stop()
    assert len(audio) / SAMPLE_RATE >= soundfile.info(str(path)).duration * 0.9
    assert word_error_rate(text, model.transcribe(audio).text) < 0.35


@pytest.mark.slow
def test_multilingual_base_detects_the_language(clips: list[tuple[str, Path]]) -> None:
    from parley.engine.modelfiles.defaults import speech_model_path

    try:
        path = speech_model_path("base")
    except ModelFileError as exc:
        require(False, str(exc))
    with SpeechModel(path, device="cpu", threads=2) as base:
        assert base.multilingual
        text, clip = clips[0]
        result = base.transcribe(load_audio(clip), language="auto")
        assert result.language == "en"
        assert word_error_rate(text, result.text) < 0.35
