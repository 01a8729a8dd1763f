"""Audio in the one form whisper.cpp takes: 16 kHz mono float32.

``load_audio`` reads a file (WAV, FLAC, OGG/Vorbis, MP3 and whatever else the libsndfile in
the soundfile wheel decodes) and ``prepare_for_model`` validates and converts any array before
it reaches the engine.  Both raise ``AudioError`` with a message fit to show the user.

Choices:
- samples that are NaN or infinite are rejected, not zeroed: they only come from a bug upstream
  (a broken decoder or device), and silently patching them would hand whisper garbage;
- samples outside [-1, 1] (clipped or hot recordings) are passed through unchanged: whisper's
  log-mel front end copes with them and rescaling would change the level of a normal clip;
- channels are averaged, and resampling is soxr's band-limited "HQ" (not a naive interpolation,
  which aliases speech energy above 8 kHz into the band whisper listens to);
- a file is checked from its header (rate, channels, length, how many samples it decodes to)
  before anything is decoded, then decoded in blocks of a bounded size, each downmixed and
  resampled as it comes: memory holds one block and the 16 kHz result, never the whole
  decoded file.  A compressed file is small however much audio it holds (a 1 MB FLAC can
  decode to 5 minutes of 8 channels at 384 kHz, 3.7 GB as float32), so the amount of decoding
  is capped too (``MAX_DECODED_SAMPLES``).
"""

from __future__ import annotations

import errno
import math
import os
import stat
from pathlib import Path

import numpy as np
import soundfile
import soxr

from ..errors import AudioError, AudioLimitError, UntrustedFileError
from ..formats import SAMPLE_RATE
from ..untrusted import open_regular

MIN_SAMPLE_RATE = 1000
MAX_SAMPLE_RATE = 384000
MAX_CHANNELS = 64
"""More "channels" than this means a (channels, frames) array was passed the wrong way round."""

DEFAULT_MAX_SECONDS = 30 * 60.0
"""Longest audio accepted by default: half an hour, far beyond any push-to-talk utterance."""

MAX_DECODED_SAMPLES = 30 * 60 * 192_000 * 2
"""Most samples (frames x channels) a file may decode to: half an hour of 192 kHz stereo, far
beyond any recording of speech.  Decoding and resampling take time for every sample, so a
file that holds more is refused from its header rather than decoded for minutes."""

BLOCK_SAMPLES = 1 << 20
"""Samples decoded at a time (4 MiB as float32), whatever the channel count."""

_UNKNOWN_LENGTH = 1 << 62
"""libsndfile reports a huge frame count when the header does not say (a streamed FLAC), and
then cannot read such a file in blocks."""

SILENCE_DBFS = -120.0
"""What ``rms_level`` returns for digital silence, instead of minus infinity."""


def load_audio(path: str | Path, *, max_seconds: float = DEFAULT_MAX_SECONDS) -> np.ndarray:
    """Read an audio file as 16 kHz mono float32, whatever its rate, channels or encoding."""
    path = Path(path)
    fd = _open_audio_file(path)
    try:
        audio = _read_audio(path, fd, max_seconds)
    finally:
        os.close(fd)
    if len(audio) == 0:
        raise AudioError(f"{path}: no audio could be decoded (the file is corrupt or truncated)")
    return audio


def check_audio_file(path: str | Path, *, max_seconds: float = DEFAULT_MAX_SECONDS) -> None:
    """Refuse (``AudioError``) what ``load_audio`` would refuse before decoding: anything but a
    regular file, an empty file, a format it cannot read, a header that asks for too much.
    Cheap (no decoding), so a command can check every file before it loads a model."""
    path = Path(path)
    fd = _open_audio_file(path)
    try:
        _read_audio(path, fd, max_seconds, header_only=True)
    finally:
        os.close(fd)


def _read_audio(path: Path, fd: int, max_seconds: float, *, header_only: bool = False) -> np.ndarray:
    """Decode the regular file open on ``fd`` (the one that was checked, not whatever ``path``
    names by now); ``header_only``: check it, decode nothing (an empty array)."""
    if os.fstat(fd).st_size == 0:
        raise AudioError(f"{path}: the file is empty (0 bytes)")
    try:
        with soundfile.SoundFile(fd, closefd=False) as f:
            _check_header(f.samplerate, f.channels, f.frames, max_seconds)
            return np.empty(0, np.float32) if header_only else _decode(f, max_seconds)
    except soundfile.LibsndfileError as e:
        raise AudioError(f"{path}: {_describe_libsndfile_error(e)}") from e
    except OSError as e:  # I/O errors while reading
        raise AudioError(f"{path}: cannot read the file ({e})") from e
    except AudioError as e:
        raise type(e)(f"{path}: {e}") from e


def _open_audio_file(path: Path) -> int:
    """A descriptor for ``path`` if it is a regular file; AudioError saying what it is otherwise
    (a FIFO would block the open and the read, ``/dev/zero`` would never end)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise AudioError(f"{path}: file not found" + (" (a broken link)" if os.path.islink(path) else "")) from None
    except OSError as e:
        what = "a loop of symbolic links" if e.errno == errno.ELOOP else f"cannot be read ({e.strerror or e})"
        raise AudioError(f"{path}: {what}") from None
    except ValueError:  # a NUL character
        raise AudioError(f"{path}: not a valid file name") from None
    if stat.S_ISDIR(mode):
        raise AudioError(f"{path}: is a directory, not an audio file")
    if not stat.S_ISREG(mode):
        raise AudioError(f"{path}: not a regular file (a device, pipe or socket), so not an audio file")
    try:
        return open_regular(path)
    except UntrustedFileError as e:  # no permission, or changed since the stat
        raise AudioError(f"{path}: cannot be read ({str(e).removeprefix(f'{path}: ')})") from None


def _check_header(rate: int, channels: int, frames: int, max_seconds: float) -> None:
    """Refuse, before decoding anything, a file whose header asks for too much."""
    if frames <= 0:
        raise AudioError("contains no audio (zero frames)")
    _check_rate(rate)
    if channels > MAX_CHANNELS:
        raise AudioError(f"has {channels} channels; at most {MAX_CHANNELS} are supported")
    if frames >= _UNKNOWN_LENGTH:
        raise AudioError(
            "the file does not say how long it is (a streamed recording?), so it cannot be "
            "read safely; convert it first (e.g. with sox or ffmpeg)"
        )
    _check_length(frames, rate, max_seconds, what="the audio")
    if frames * channels > MAX_DECODED_SAMPLES:
        raise AudioLimitError(
            f"too much audio to decode: {_format_duration(frames / rate)} of {channels} channels at "
            f"{rate} Hz is {frames * channels / 1e6:.0f} million samples; the limit is "
            f"{MAX_DECODED_SAMPLES / 1e6:.0f} million (half an hour of 192 kHz stereo)"
        )


def _decode(f: soundfile.SoundFile, max_seconds: float) -> np.ndarray:
    """Decode ``f`` a block at a time, each block downmixed to mono and resampled to 16 kHz as
    it comes.  The limits are enforced again as blocks arrive: a header's frame count can be an
    estimate (MP3)."""
    rate, channels = f.samplerate, f.channels
    block_frames = max(1, BLOCK_SAMPLES // channels)
    limit = min(int(max_seconds * rate), MAX_DECODED_SAMPLES // channels)
    resampler = (
        None if rate == SAMPLE_RATE else soxr.ResampleStream(rate, SAMPLE_RATE, 1, dtype="float32", quality="HQ")
    )
    buffer = np.empty((block_frames, channels), dtype=np.float32)
    pieces: list[np.ndarray] = []
    decoded, last = 0, False
    while not last:
        block = f.read(block_frames, dtype="float32", always_2d=True, out=buffer)
        decoded += len(block)
        if decoded > limit:
            raise AudioLimitError(
                f"is longer than {_format_duration(limit / rate)}, the most that may be decoded "
                f"({channels} channels at {rate} Hz)"
            )
        if not np.isfinite(block).all():
            raise AudioError("the audio contains NaN or infinite samples")
        mono = block[:, 0].copy() if channels == 1 else block.mean(axis=1, dtype=np.float32)
        last = len(block) < block_frames
        pieces.append(mono if resampler is None else resampler.resample_chunk(mono, last=last))
    return np.ascontiguousarray(np.concatenate(pieces), dtype=np.float32)


def prepare_for_model(
    samples: np.ndarray,
    sample_rate: int,
    *,
    max_seconds: float = DEFAULT_MAX_SECONDS,
) -> np.ndarray:
    """Validate ``samples`` and convert them to C-contiguous 16 kHz mono float32.

    Accepts 1-D arrays or 2-D (frames, channels) arrays of float (any width) or integer PCM
    (int16, int32 scaled to [-1, 1); uint8 centred on 128).  Raises ``AudioError`` for empty,
    non-finite, wrongly shaped or absurdly sampled audio and for audio longer than
    ``max_seconds``.  Returns ``samples`` itself when it is already in the right form.
    """
    audio = np.asarray(samples)
    _check_rate(sample_rate)
    if audio.ndim not in (1, 2):
        raise AudioError(f"audio must be 1-D or (frames, channels), got shape {audio.shape}")
    if audio.ndim == 2 and audio.shape[1] > MAX_CHANNELS:
        raise AudioError(
            f"audio of shape {audio.shape} has {audio.shape[1]} channels; expected (frames, channels) - transpose it?"
        )
    if audio.size == 0:
        raise AudioError("no audio (the recording is empty)")
    _check_length(audio.shape[0], sample_rate, max_seconds, what="the audio")

    audio = _to_float32(audio)
    if not np.isfinite(audio).all():
        raise AudioError("the audio contains NaN or infinite samples")
    if audio.ndim == 2:
        audio = audio[:, 0] if audio.shape[1] == 1 else audio.mean(axis=1, dtype=np.float32)
    if sample_rate != SAMPLE_RATE:
        audio = soxr.resample(audio, sample_rate, SAMPLE_RATE, quality="HQ")
    return np.ascontiguousarray(audio, dtype=np.float32)


def rms_level(block: np.ndarray) -> float:
    """RMS level of a block of float samples in dBFS: 0.0 for a full-scale square wave,
    about -3 for a full-scale sine, ``SILENCE_DBFS`` (-120) for silence or an empty block.

    dBFS rather than a linear 0..1 value because speech sits around -30 to -15 dBFS, which a
    linear meter would show as barely moving; a UI maps e.g. -60..0 dB onto its bar.
    """
    x = np.asarray(block, dtype=np.float32)
    if x.size == 0:
        return SILENCE_DBFS
    mean_square = float(np.mean(np.square(x, dtype=np.float64)))
    if mean_square <= 0.0 or not math.isfinite(mean_square):
        return SILENCE_DBFS
    return max(SILENCE_DBFS, 10.0 * math.log10(mean_square))


def _check_rate(sample_rate: object) -> None:
    if isinstance(sample_rate, bool) or not isinstance(sample_rate, (int, float, np.number)):
        raise AudioError(f"the sample rate must be a number, not {sample_rate!r}")
    if not (MIN_SAMPLE_RATE <= sample_rate <= MAX_SAMPLE_RATE):
        raise AudioError(f"unusable sample rate {sample_rate} Hz (expected {MIN_SAMPLE_RATE} to {MAX_SAMPLE_RATE} Hz)")


def _check_length(frames: int, sample_rate: float, max_seconds: float, *, what: str) -> None:
    seconds = frames / sample_rate
    if seconds > max_seconds:
        raise AudioLimitError(
            f"{what} is {_format_duration(seconds)} long; the limit is {_format_duration(max_seconds)}"
        )


def _format_duration(seconds: float) -> str:
    minutes, secs = divmod(round(seconds), 60)
    return f"{minutes} min {secs} s" if minutes else f"{seconds:.1f} s"


def _to_float32(audio: np.ndarray) -> np.ndarray:
    kind = audio.dtype.kind
    if kind == "f":
        return audio.astype(np.float32, copy=False)
    if kind == "i" and audio.dtype.itemsize in (2, 4):
        scale = 2.0 ** (8 * audio.dtype.itemsize - 1)
        return (audio / scale).astype(np.float32)
    if audio.dtype == np.uint8:
        return ((audio.astype(np.float32) - 128.0) / 128.0).astype(np.float32)
    raise AudioError(f"unsupported sample type {audio.dtype} (expected float, int16, int32 or uint8)")


# libsndfile's public error codes (sndfile.h); decoder errors have codes above these.
_SF_ERR_UNRECOGNISED_FORMAT = 1
_SF_ERR_SYSTEM = 2
_SF_ERR_UNSUPPORTED_ENCODING = 4


def _describe_libsndfile_error(error: soundfile.LibsndfileError) -> str:
    """Turn libsndfile's terse messages into the problem a user can act on."""
    detail = error.error_string
    if error.code == _SF_ERR_UNRECOGNISED_FORMAT:
        return f"not an audio file, or a format that cannot be read ({detail})"
    if error.code == _SF_ERR_UNSUPPORTED_ENCODING:
        return f"audio encoding not supported ({detail})"
    if error.code == _SF_ERR_SYSTEM:
        return f"cannot be read ({detail})"
    return f"cannot be decoded, the file is corrupt or truncated ({detail})"
