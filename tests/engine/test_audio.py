"""Audio loading and validation on real speech files in every format the app accepts.

Reference resamples come from sox, an independent implementation, so the checks do not just
compare soxr with itself.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import soundfile

from parley.engine.audio.files import SAMPLE_RATE, SILENCE_DBFS, load_audio, prepare_for_model, rms_level
from parley.engine.errors import AudioError, AudioLimitError
from tests.support.privileges import unreadable_copy, without_root
from tests.support.requirements import require
from tests.support.speech import espeak_available, synthesize

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def sox_installed() -> None:
    require(shutil.which("sox") is not None, "sox is not installed (it makes the reference resamples)")


needs_sox = pytest.mark.usefixtures("sox_installed")


def sox(*args: str | Path) -> None:
    subprocess.run(["sox", *map(str, args)], check=True, capture_output=True)


@pytest.fixture(scope="module")
def speech_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    require(espeak_available(), "espeak-ng is not installed (it speaks the test sentence)")
    directory = tmp_path_factory.mktemp("speech")
    synthesize("Testing one two three.", directory / "speech.wav", sample_rate=22050)
    return directory


def reference(source: Path, out: Path) -> np.ndarray:
    """sox's own conversion of ``source`` to 16 kHz mono (channels averaged)."""
    sox(source, "-r", str(SAMPLE_RATE), "-c", "1", out)
    samples, _ = soundfile.read(out, dtype="float32")
    return samples


def zero_lag_correlation(a: np.ndarray, b: np.ndarray) -> float:
    n = min(len(a), len(b))
    return float(np.corrcoef(a[:n], b[:n])[0, 1])


@needs_sox
@pytest.mark.parametrize(
    ("name", "sox_args"),
    [
        ("speech.flac", []),
        ("speech.ogg", []),
        ("stereo44.wav", ["-c", "2", "-r", "44100"]),
        ("stereo48.flac", ["-c", "2", "-r", "48000"]),
    ],
)
def test_formats_rates_and_channels_load_as_16k_mono(speech_dir: Path, name: str, sox_args: list[str]) -> None:
    source = speech_dir / "speech.wav"
    converted = speech_dir / name
    sox(source, *sox_args, converted)

    audio = load_audio(converted)

    assert audio.dtype == np.float32 and audio.ndim == 1 and audio.flags.c_contiguous
    assert len(audio) / SAMPLE_RATE == pytest.approx(soundfile.info(source).duration, rel=0.01)
    expected = reference(converted, speech_dir / f"reference-{name}.wav")
    assert zero_lag_correlation(audio, expected) > 0.99


@needs_sox
def test_wav_at_22khz_matches_sox_resample(speech_dir: Path) -> None:
    source = speech_dir / "speech.wav"
    audio = load_audio(source)
    assert len(audio) / SAMPLE_RATE == pytest.approx(soundfile.info(source).duration, rel=0.01)
    assert zero_lag_correlation(audio, reference(source, speech_dir / "reference-wav.wav")) > 0.99


@needs_sox
def test_mp3_loads(speech_dir: Path) -> None:
    # The sox here has no MP3 handler (libsox-fmt-mp3 is not installed), but the libsndfile
    # bundled with soundfile encodes MP3 with LAME, so the file is made with soundfile and
    # compared with sox's resample of the WAV it was encoded from.
    require("MP3" in soundfile.available_formats(), "this libsndfile cannot write MP3")
    source = speech_dir / "speech.wav"
    samples, rate = soundfile.read(source, dtype="float32")
    mp3 = speech_dir / "speech.mp3"
    soundfile.write(mp3, samples, rate, format="MP3")

    audio = load_audio(mp3)

    assert len(audio) / SAMPLE_RATE == pytest.approx(soundfile.info(source).duration, rel=0.01)
    assert zero_lag_correlation(audio, reference(source, speech_dir / "reference-mp3.wav")) > 0.99


# --------------------------------------------------------------------------- decode bombs

GIB = 1 << 30


def write_tone_flac(path: Path, seconds: int, channels: int, rate: int, tone_seconds: int | None = None) -> Path:
    """A FLAC of a 440 Hz tone in the first channel for ``tone_seconds`` (default: throughout),
    then silence, with silent other channels; written one second at a time, so the test never
    holds the decoded audio.  Silence compresses to almost nothing."""
    t = np.arange(rate) / rate
    tone = np.zeros((rate, channels), dtype=np.int16)
    tone[:, 0] = (0.5 * 32767 * np.sin(2 * np.pi * 440 * t)).astype(np.int16)
    silence = np.zeros_like(tone)
    with soundfile.SoundFile(path, "w", rate, channels, subtype="PCM_16", format="FLAC") as f:
        for second in range(seconds):
            f.write(tone if tone_seconds is None or second < tone_seconds else silence)
    return path


def peak_rss(args: list[str]) -> tuple[subprocess.CompletedProcess[str], int]:
    """Run ``args`` through a wrapper process and return its result and its peak resident
    memory in bytes (the wrapper's only child, so no other test's process counts)."""
    wrapper = (
        "import json, resource, subprocess, sys\n"
        "p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
        "print(json.dumps({'rc': p.returncode, 'out': p.stdout, 'err': p.stderr,\n"
        "                  'kib': resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    run = subprocess.run(
        [sys.executable, "-c", wrapper, *args], capture_output=True, text=True, env=env, timeout=600, check=True
    )
    result = json.loads(run.stdout)
    return subprocess.CompletedProcess(args, result["rc"], result["out"], result["err"]), result["kib"] * 1024


@pytest.fixture(scope="module")
def tiny_whisper(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from parley.engine.modelfiles.whisper_convert import convert_ct2_whisper
    from tests.support.ct2_fixtures import write_ct2_whisper

    folder = tmp_path_factory.mktemp("whisper")
    convert_ct2_whisper(write_ct2_whisper(folder / "ct2")["source"], folder / "tiny.bin")
    return folder / "tiny.bin"


def test_a_decode_bomb_is_refused_from_its_header_in_bounded_memory(tmp_path: Path, tiny_whisper: Path) -> None:
    """About 1 MB of FLAC that decodes to 5 minutes of 8 channels at 384 kHz: 3.7 GB as float32."""
    bomb = write_tone_flac(tmp_path / "bomb.flac", 300, 8, 384_000, tone_seconds=1)
    assert bomb.stat().st_size < 2 << 20
    result, peak = peak_rss(
        [sys.executable, "-m", "parley", "transcribe", "--model", str(tiny_whisper), "--threads", "1", str(bomb)]
    )
    assert result.returncode == 1, result.stderr
    assert (
        f"{bomb}: too much audio to decode: 5 min 0 s of 8 channels at 384000 Hz is 922 million samples; "
        "the limit is 691 million"
    ) in result.stderr
    assert peak < GIB, f"peak resident memory {peak / GIB:.2f} GiB"


def test_a_large_file_is_decoded_in_bounded_blocks(tmp_path: Path) -> None:
    """30 s of 8 channels at 384 kHz (368 MB as float32) is accepted, decoded a block at a time."""
    path = write_tone_flac(tmp_path / "large.flac", 30, 8, 384_000)
    code = (
        "import sys\n"
        "from parley.engine.audio.files import load_audio\n"
        "audio = load_audio(sys.argv[1])\n"
        "print(len(audio), float(abs(audio).max()))\n"
    )
    result, peak = peak_rss([sys.executable, "-c", code, str(path)])
    assert result.returncode == 0, result.stderr
    frames, loudest = result.stdout.split()
    assert int(frames) == 30 * SAMPLE_RATE
    assert float(loudest) == pytest.approx(0.5 / 8, rel=0.02)  # the tone, averaged with 7 silent channels
    assert peak < 250 << 20, f"peak resident memory {peak / (1 << 20):.0f} MiB"


def test_blocks_give_the_same_audio_as_one_pass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from parley.engine.audio import files as audio_module

    rate = 44100
    t = np.arange(3 * rate) / rate
    stereo = np.stack([0.5 * np.sin(2 * np.pi * 440 * t), 0.2 * np.sin(2 * np.pi * 3000 * t)], axis=1)
    soundfile.write(tmp_path / "stereo.wav", stereo.astype(np.float32), rate, subtype="FLOAT")
    whole = prepare_for_model(stereo.astype(np.float32), rate)
    for block in (1000, 2 * 3 * rate, 1 << 20):  # many blocks, a block boundary at the very end, one block
        monkeypatch.setattr(audio_module, "BLOCK_SAMPLES", block)
        np.testing.assert_array_equal(load_audio(tmp_path / "stereo.wav"), whole)


def test_refused_from_the_header(tmp_path: Path) -> None:
    too_long = write_tone_flac(tmp_path / "long.flac", 3, 1, 8000)
    with pytest.raises(AudioLimitError, match=r"long\.flac: the audio is 3\.0 s long; the limit is 2\.0 s"):
        load_audio(too_long, max_seconds=2)
    many = tmp_path / "many.wav"
    soundfile.write(many, np.zeros((100, 65), dtype=np.float32), 16000)
    with pytest.raises(AudioError, match="has 65 channels; at most 64"):
        load_audio(many)
    streamed = bytearray(write_tone_flac(tmp_path / "streamed.flac", 1, 1, 8000).read_bytes())
    streamed[8 + 13] &= 0xF0  # STREAMINFO's 36-bit total sample count = 0: "unknown"
    streamed[8 + 14 : 8 + 18] = bytes(4)
    (tmp_path / "streamed.flac").write_bytes(bytes(streamed))
    with pytest.raises(AudioError, match="does not say how long it is"):
        load_audio(tmp_path / "streamed.flac")


def test_load_audio_rejects_audio_longer_than_the_limit(speech_dir: Path) -> None:
    with pytest.raises(AudioError, match=r"speech\.wav.*1\.\d s long; the limit is 0\.5 s"):
        load_audio(speech_dir / "speech.wav", max_seconds=0.5)


def _corrupt(data: bytes, start: int) -> bytes:
    damaged = bytearray(data)
    for i in range(start, len(damaged), 7):
        damaged[i] ^= 0x5A
    return bytes(damaged)


BAD_FILES = {
    # name: (how to make it from the good WAV/FLAC/OGG bytes, what the message must say)
    "empty.wav": (lambda wav, flac, ogg: b"", "empty"),
    "notes.wav": (lambda wav, flac, ogg: b"just some text, not audio\n" * 20, "not an audio file"),
    "noise.flac": (lambda wav, flac, ogg: bytes(range(256)) * 40, "not an audio file"),
    "header-only.wav": (lambda wav, flac, ogg: wav[:44], "no audio"),
    "corrupt.flac": (lambda wav, flac, ogg: _corrupt(flac, 2000), "corrupt"),
    "truncated.ogg": (lambda wav, flac, ogg: ogg[:2000], "corrupt"),
}


@needs_sox
@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_bad_files_raise_audio_error(speech_dir: Path, tmp_path: Path, name: str) -> None:
    good = {suffix: tmp_path / f"good.{suffix}" for suffix in ("flac", "ogg")}
    for path in good.values():
        sox(speech_dir / "speech.wav", path)
    make, problem = BAD_FILES[name]
    bad = tmp_path / name
    wav, flac, ogg = (path.read_bytes() for path in (speech_dir / "speech.wav", *good.values()))
    bad.write_bytes(make(wav, flac, ogg))

    with pytest.raises(AudioError, match=problem) as caught:
        load_audio(bad)
    assert name in str(caught.value)


def test_missing_file_and_directory_raise_audio_error(tmp_path: Path) -> None:
    with pytest.raises(AudioError, match=r"nothing\.wav: file not found"):
        load_audio(tmp_path / "nothing.wav")
    with pytest.raises(AudioError, match="is a directory"):
        load_audio(tmp_path)


@pytest.mark.parametrize(
    ("make", "problem"),
    [
        (lambda p: p.symlink_to("/dev/zero"), r"zero\.wav: not a regular file"),
        (lambda p: p.symlink_to(p.name), r"zero\.wav: a loop of symbolic links"),
        (lambda p: p.symlink_to("gone.wav"), r"zero\.wav: file not found \(a broken link\)"),
    ],
    ids=["dev-zero", "loop", "dangling"],
)
def test_what_is_not_a_regular_file_is_refused_before_reading(tmp_path: Path, make, problem: str) -> None:
    path = tmp_path / "zero.wav"
    make(path)
    with pytest.raises(AudioError, match=problem):
        load_audio(path)


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    """Opening a FIFO to read blocks until something writes to it: in a child, so a regression
    fails by the timeout instead of blocking the suite."""
    pipe = tmp_path / "pipe.wav"
    os.mkfifo(pipe)
    code = (
        "import sys\nfrom parley.engine.audio.files import load_audio\nfrom parley.engine.errors import AudioError\n"
        "try:\n    load_audio(sys.argv[1])\nexcept AudioError as e:\n    print(e)\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    result = subprocess.run(
        [sys.executable, "-c", code, str(pipe)], capture_output=True, text=True, env=env, timeout=60, cwd=REPO
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout == f"{pipe}: not a regular file (a device, pipe or socket), so not an audio file\n"


def test_unreadable_file_raises_audio_error(tmp_path: Path) -> None:
    source = tmp_path / "secret.wav"
    soundfile.write(source, np.zeros(1600, dtype=np.float32), SAMPLE_RATE)
    with (
        unreadable_copy(source) as path,
        without_root(),
        pytest.raises(AudioError, match=r"secret\.wav: cannot be read \(Permission denied\)"),
    ):
        load_audio(path)


def test_wav_with_zero_frames_raises_audio_error(tmp_path: Path) -> None:
    path = tmp_path / "silent.wav"
    soundfile.write(path, np.zeros(0, dtype=np.float32), 16000)
    with pytest.raises(AudioError, match="no audio"):
        load_audio(path)


def tone(frequency: float, rate: int, seconds: float = 1.0, amplitude: float = 0.5) -> np.ndarray:
    t = np.arange(int(rate * seconds)) / rate
    return amplitude * np.sin(2 * np.pi * frequency * t)


def test_prepare_passes_16k_float32_through_unchanged() -> None:
    audio = tone(440, SAMPLE_RATE).astype(np.float32)
    assert prepare_for_model(audio, SAMPLE_RATE) is audio


def test_prepare_scales_integer_pcm() -> None:
    pcm16 = np.array([0, 16384, -32768, 32767], dtype=np.int16)
    np.testing.assert_allclose(prepare_for_model(pcm16, SAMPLE_RATE), [0, 0.5, -1, 32767 / 32768])
    pcm32 = np.array([0, 2**30, -(2**31)], dtype=np.int32)
    np.testing.assert_allclose(prepare_for_model(pcm32, SAMPLE_RATE), [0, 0.5, -1])
    pcm8 = np.array([128, 192, 0], dtype=np.uint8)
    np.testing.assert_allclose(prepare_for_model(pcm8, SAMPLE_RATE), [0, 0.5, -1])


def test_prepare_converts_float64_and_non_contiguous_input() -> None:
    audio = tone(440, 2 * SAMPLE_RATE)[::2]  # float64, strided view at 16 kHz
    out = prepare_for_model(audio, SAMPLE_RATE)
    assert out.dtype == np.float32 and out.flags.c_contiguous
    np.testing.assert_allclose(out, audio, atol=1e-7)


def test_prepare_averages_channels() -> None:
    left, right = tone(440, SAMPLE_RATE), tone(440, SAMPLE_RATE, amplitude=0.1)
    out = prepare_for_model(np.stack([left, right], axis=1), SAMPLE_RATE)
    np.testing.assert_allclose(out, (left + right) / 2, atol=1e-6)
    single = prepare_for_model(left[:, None], SAMPLE_RATE)
    np.testing.assert_allclose(single, left, atol=1e-7)


def test_prepare_resamples_band_limited() -> None:
    # 1 kHz is kept at its level; 10 kHz is above the 8 kHz Nyquist limit of 16 kHz audio and
    # must be filtered out, not folded back to 6 kHz as naive decimation would.
    rate = 48000
    kept = prepare_for_model(tone(1000, rate), rate)
    removed = prepare_for_model(tone(10000, rate), rate)
    assert len(kept) == SAMPLE_RATE
    middle = slice(1000, -1000)  # away from the filter's edges
    assert rms_level(kept[middle]) == pytest.approx(rms_level(tone(1000, SAMPLE_RATE)), abs=0.1)
    assert rms_level(removed[middle]) < -80


def test_prepare_keeps_samples_beyond_full_scale() -> None:
    loud = np.array([1.5, -2.0, 0.25], dtype=np.float32)
    np.testing.assert_array_equal(prepare_for_model(loud, SAMPLE_RATE), loud)


@pytest.mark.parametrize(
    ("samples", "rate", "problem"),
    [
        (np.zeros(0, dtype=np.float32), SAMPLE_RATE, "no audio"),
        (np.zeros((0, 2), dtype=np.float32), SAMPLE_RATE, "no audio"),
        (np.array([0.0, np.nan, 0.1], dtype=np.float32), SAMPLE_RATE, "NaN or infinite"),
        (np.array([0.0, np.inf], dtype=np.float64), SAMPLE_RATE, "NaN or infinite"),
        (np.zeros((2, 16000), dtype=np.float32), SAMPLE_RATE, "transpose"),
        (np.zeros((4, 4, 4), dtype=np.float32), SAMPLE_RATE, "1-D or"),
        (np.float32(0.5), SAMPLE_RATE, "1-D or"),
        (np.zeros(100, dtype=np.complex64), SAMPLE_RATE, "unsupported sample type"),
        (np.zeros(100, dtype=bool), SAMPLE_RATE, "unsupported sample type"),
        (np.zeros(100, dtype=np.float32), 500, "unusable sample rate 500 Hz"),
        (np.zeros(100, dtype=np.float32), 500_000, "unusable sample rate"),
        (np.zeros(100, dtype=np.float32), 0, "unusable sample rate"),
        (np.zeros(100, dtype=np.float32), "16000", "must be a number"),
    ],
)
def test_prepare_rejects_unusable_audio(samples: np.ndarray, rate: int, problem: str) -> None:
    with pytest.raises(AudioError, match=problem):
        prepare_for_model(samples, rate)


def test_prepare_rejects_audio_longer_than_the_limit() -> None:
    long = np.zeros(16000 * 95, dtype=np.float32)
    with pytest.raises(AudioError, match=r"1 min 35 s long; the limit is 1 min 0 s"):
        prepare_for_model(long, SAMPLE_RATE, max_seconds=60)
    assert len(prepare_for_model(long, SAMPLE_RATE)) == len(long)  # the default is 30 minutes


def test_rms_level_in_dbfs() -> None:
    assert rms_level(tone(1000, SAMPLE_RATE, amplitude=1.0)) == pytest.approx(-3.01, abs=0.01)
    assert rms_level(np.full(100, 0.1, dtype=np.float32)) == pytest.approx(-20.0, abs=0.01)
    assert rms_level(np.zeros(100, dtype=np.float32)) == SILENCE_DBFS
    assert rms_level(np.zeros(0, dtype=np.float32)) == SILENCE_DBFS
