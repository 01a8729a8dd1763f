"""The neural voice activity detector: Silero VAD's weights from the silero-vad package,
converted for whisper.cpp and run on Parley's one ggml.

The converted network is checked against the same network written out in numpy
(``tests/support/silero_reference.py``) on real speech and noise; the converter and the file
check refuse what is not Silero's model before native code sees it; and the hands-free
segmenter, with the neural detector, cuts real speech and ignores fans, keys and music."""

from __future__ import annotations

import json
import os
import struct
from pathlib import Path

import numpy as np
import pytest
import soundfile

from parley.engine.audio.silero import NeuralDetector, SileroVAD, check_vad_file
from parley.engine.audio.vad import UtteranceSegmenter
from parley.engine.errors import ModelFileError
from parley.engine.modelfiles import silero_convert
from parley.engine.modelfiles.defaults import default_vad_source
from tests.support import noises
from tests.support.silero_reference import ReferenceVAD
from tests.support.speech import room_noise
from tests.support.tinymodels import llama_cpp_source


@pytest.fixture(scope="module")
def source() -> Path:
    return default_vad_source()  # installed by requirements-models.txt: missing is a failure


@pytest.fixture(scope="module")
def model(source: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return silero_convert.ensure_vad_model(source, tmp_path_factory.mktemp("vad"))


@pytest.fixture(scope="module")
def jfk() -> np.ndarray:
    """Real human speech: whisper.cpp's sample, in the sources the native build fetched."""
    path = llama_cpp_source().parent / "whisper.cpp" / "samples" / "jfk.wav"
    samples, rate = soundfile.read(path, dtype="float32")
    assert rate == 16000
    return samples


def test_ggml_vad_agrees_with_the_network_written_in_numpy(source: Path, model: Path, jfk: np.ndarray) -> None:
    audio = np.concatenate([room_noise(1.0, -55.0), jfk, noises.fan(2.0), noises.music(2.0)])
    reference = ReferenceVAD(silero_convert.read_safetensors(source)).probabilities(audio)
    with SileroVAD(model) as vad:
        probs = vad.probabilities(audio)
    assert probs.shape == reference.shape
    assert float(np.max(np.abs(probs - reference))) < 1e-3
    speech = slice(int(1.0 * 16000 / 512) + 3, int((1.0 + len(jfk) / 16000) * 16000 / 512) - 3)
    assert np.mean(probs[speech] > 0.5) > 0.6  # the network hears the speech as speech
    assert np.mean(probs[: int(16000 / 512)] > 0.5) == 0.0  # and the quiet room as not


def test_probabilities_do_not_depend_on_how_the_stream_is_cut(model: Path, jfk: np.ndarray) -> None:
    with SileroVAD(model) as whole, SileroVAD(model) as pieces:
        at_once = whole.probabilities(jfk)
        rng = np.random.default_rng(1)
        got, pos = [], 0
        while pos < len(jfk):
            size = int(rng.integers(1, 3000))
            got.append(pieces.probabilities(jfk[pos : pos + size]))
            pos += size
        assert np.array_equal(np.concatenate(got), at_once)
        pieces.reset()  # the LSTM state and the partial window are forgotten
        assert np.array_equal(pieces.probabilities(jfk), at_once)


def test_the_cached_file_is_rewritten_when_it_differs(source: Path, tmp_path: Path) -> None:
    path = silero_convert.ensure_vad_model(source, tmp_path)
    good = path.read_bytes()
    path.write_bytes(good[:-100])
    assert silero_convert.ensure_vad_model(source, tmp_path).read_bytes() == good
    path.unlink()
    path.symlink_to("/dev/zero")
    assert silero_convert.ensure_vad_model(source, tmp_path).read_bytes() == good
    assert not path.is_symlink()


def _safetensors(tensors: dict[str, np.ndarray], header_edit=None) -> bytes:
    header, body, offset = {}, [], 0
    for name, value in tensors.items():
        raw = np.ascontiguousarray(value, dtype="<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(value.shape), "data_offsets": [offset, offset + len(raw)]}
        body.append(raw)
        offset += len(raw)
    if header_edit:
        header_edit(header)
    text = json.dumps(header).encode()
    return struct.pack("<Q", len(text)) + text + b"".join(body)


def _edit(name: str, key: str, value: object):
    def edit(header: dict) -> None:
        header[name][key] = value

    return edit


@pytest.mark.parametrize(
    "damage",
    [
        "truncated",
        "huge header",
        "not json",
        "missing tensor",
        "extra tensor",
        "wrong shape",
        "wrong dtype",
        "outside the file",
        "overlap",
        "not finite",
        "fifo",
        "link loop",
    ],
)
def test_the_converter_refuses_what_is_not_silero(source: Path, tmp_path: Path, damage: str) -> None:
    tensors = dict(silero_convert.read_safetensors(source))
    edit = None
    if damage == "missing tensor":
        del tensors["conv2.bias"]
    elif damage == "extra tensor":
        tensors["../../etc/passwd"] = np.zeros(4, np.float32)
    elif damage == "wrong shape":
        tensors["conv1.weight"] = tensors["conv1.weight"].reshape(129, 128, 3)
    elif damage == "wrong dtype":
        edit = _edit("conv1.bias", "dtype", "F16")
    elif damage == "outside the file":
        edit = _edit("final_conv.bias", "data_offsets", [10**12, 10**12 + 4])
    elif damage == "overlap":
        edit = _edit("conv2.bias", "data_offsets", list(map(int, [0, 256])))
    elif damage == "not finite":
        tensors["conv3.bias"] = np.full(64, np.nan, np.float32)
    data = _safetensors(tensors, edit)
    if damage == "truncated":
        data = data[:-10]
    elif damage == "huge header":
        data = struct.pack("<Q", 2**62) + data[8:]
    elif damage == "not json":
        data = data[:8] + b"\xff" * (len(data) - 8)
    bad = tmp_path / "bad.safetensors"
    if damage == "fifo":
        os.mkfifo(bad)  # would block a plain open() for ever
    elif damage == "link loop":
        bad.symlink_to(bad)
    else:
        bad.write_bytes(data)
    with pytest.raises(ModelFileError):
        silero_convert.ensure_vad_model(bad, tmp_path / "cache")
    assert not (tmp_path / "cache").exists() or not any((tmp_path / "cache").iterdir())


def test_a_vad_file_with_another_layout_never_reaches_native_code(model: Path, tmp_path: Path) -> None:
    data = bytearray(model.read_bytes())
    check_vad_file(model)
    cases = {
        "layers": lambda d: d.__setitem__(slice(38, 42), struct.pack("<i", 4000)),  # encoder layer count
        "short": lambda d: d.__delitem__(slice(len(d) - 4, len(d))),
        "long": lambda d: d.extend(b"\0" * 4),
    }
    for name, damage in cases.items():
        copy = bytearray(data)
        damage(copy)
        path = tmp_path / f"{name}.bin"
        path.write_bytes(bytes(copy))
        with pytest.raises(ModelFileError, match="layout"):
            SileroVAD(path)
    with pytest.raises(ModelFileError, match="cannot be read"):
        SileroVAD(Path("/dev/zero"))


def _feed(segmenter: UtteranceSegmenter, audio: np.ndarray, block: int = 1600) -> list[np.ndarray]:
    out = []
    for i in range(0, len(audio), block):
        out += segmenter.push(audio[i : i + block])
    return out


@pytest.mark.parametrize("noise", sorted(noises.NOISES))
def test_hands_free_with_the_neural_detector_ignores_noise(model: Path, noise: str) -> None:
    """A quiet room, then a noise starts: a fan or music at this level makes the loudness
    detector hear one long utterance (bench/bench_vad.py); the neural one hears none."""
    scene = np.concatenate([room_noise(2.0), noises.NOISES[noise](18.0, level_db=-25.0)])
    with SileroVAD(model) as vad:
        segmenter = UtteranceSegmenter(NeuralDetector(vad))
        assert _feed(segmenter, scene) == []
        assert not segmenter.in_utterance


def test_hands_free_with_the_neural_detector_hears_speech_over_a_fan(model: Path, jfk: np.ndarray) -> None:
    stream = noises.fan(len(jfk) / 16000 + 4.0, level_db=-38.0)
    stream[16000 : 16000 + len(jfk)] += jfk
    with SileroVAD(model) as vad:
        segmenter = UtteranceSegmenter(NeuralDetector(vad))
        heard = _feed(segmenter, stream)
        rest = segmenter.flush()
    heard += [rest] if rest is not None else []
    assert heard, "the speech started no utterance"
    covered = sum(len(h) for h in heard)
    assert covered > 0.8 * len(jfk)  # the speech is in the utterances
    assert covered < len(jfk) + 3.0 * 16000  # and the fan on either side mostly is not
