"""check_gguf on real files: the tiny models pass, every kind of bad file is a ModelFileError."""

from __future__ import annotations

import os
import random
import re
import shutil
import struct
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gguf import GGMLQuantizationType, GGUFReader, GGUFWriter

from parley.engine.errors import ModelFileError
from parley.engine.modelfiles.gguf_file import GGML_TYPES, SUPPORTED_ARCHITECTURES, GGUFInfo, check_gguf, read_gguf
from tests.support import tinymodels as tm
from tests.support.privileges import unreadable_copy, without_root
from tests.support.requirements import require

SMALL_VOCAB = 300


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("models")


@pytest.fixture(scope="module")
def tiny_llama(models: Path) -> Path:
    return tm.write_tiny_llama_gguf(models / "tiny-llama.gguf")


@pytest.fixture(scope="module")
def tiny_gpt2(models: Path) -> Path:
    return tm.write_tiny_gpt2_gguf(models / "tiny-gpt2.gguf", wtype="f16", tie_embeddings=False)


@pytest.fixture(scope="module")
def small_llama(models: Path) -> Path:
    """Small vocabulary, so the header is small enough to cut and corrupt everywhere."""
    return tm.write_tiny_llama_gguf(models / "small-llama.gguf", n_vocab=SMALL_VOCAB)


def rejected(path: Path, pattern: str) -> ModelFileError:
    """check_gguf(path) must raise a ModelFileError naming ``path`` whose problem matches ``pattern``."""
    with pytest.raises(ModelFileError) as caught:
        check_gguf(path)
    assert caught.value.path == Path(path)
    assert str(path) in str(caught.value)
    assert re.search(pattern, caught.value.problem, re.IGNORECASE), caught.value.problem
    return caught.value


def write_gguf(
    path: Path,
    arch: str,
    *,
    kv: dict[str, Any] | None = None,
    block_count: int | None = 2,
    tensors: dict[str, np.ndarray] | None = None,
) -> Path:
    """A minimal GGUF: the given metadata and tensors, nothing else."""
    writer = GGUFWriter(path, arch)
    if block_count is not None:
        writer.add_block_count(block_count)
    for key, value in (kv or {}).items():
        writer.add_string(key, value) if isinstance(value, str) else writer.add_uint32(key, value)
    if tensors is None:
        tensors = {"token_embd.weight": np.zeros((8, 4), np.float32)}
    return tm.write_gguf_file(path, writer, tensors)


def patched(src: Path, dst: Path, offset: int, new: bytes) -> Path:
    data = bytearray(src.read_bytes())
    data[offset : offset + len(new)] = new
    dst.write_bytes(bytes(data))
    return dst


def tensor_info_offset(path: Path, name: str) -> int:
    """Where the tensor table entry of ``name`` starts (its u64 name length)."""
    return path.read_bytes().index(struct.pack("<Q", len(name)) + name.encode())


def png_bytes() -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(b"\x00\x00"))
        + chunk(b"IEND", b"")
    )


# ------------------------------------------------------------------------------ good files


def test_tiny_llama_passes(tiny_llama: Path) -> None:
    info = check_gguf(tiny_llama)
    assert isinstance(info, GGUFInfo)
    assert info.path == tiny_llama
    assert info.architecture == "llama"
    assert info.name == "tiny-llama"
    assert info.n_tensors == 2 + 9 * 2
    shapes = tm.llama_tensor_shapes(
        n_vocab=tm.GPT2_N_VOCAB, n_embd=64, n_layer=2, n_head=4, n_head_kv=2, n_ff=128, tie_embeddings=True
    )
    assert info.n_params == sum(int(np.prod(ne)) for ne in shapes.values())
    assert info.file_size == tiny_llama.stat().st_size
    assert info.context_length == 256
    assert info.chat_template == tm.CHATML_TEMPLATE
    assert info.file_type == 0
    assert info.has_vocab


def test_tiny_gpt2_passes(tiny_gpt2: Path) -> None:
    info = check_gguf(tiny_gpt2)
    assert info.architecture == "gpt2"
    assert info.name == "tiny-gpt2"
    assert info.n_tensors == 5 + 12 * 2
    assert info.context_length == 256
    assert info.chat_template is None
    assert info.file_type == 1
    assert info.has_vocab


def test_tiny_models_have_llama_cpp_tensor_layout(tiny_llama: Path, tiny_gpt2: Path) -> None:
    llama = {t.name: t.ne for t in read_gguf(tiny_llama).tensors}
    assert llama == tm.llama_tensor_shapes(
        n_vocab=50257,
        n_embd=64,
        n_layer=2,
        n_head=4,
        n_head_kv=2,
        n_ff=128,
        tie_embeddings=True,
    )
    gpt2 = {t.name: (t.ne, t.type_name) for t in read_gguf(tiny_gpt2).tensors}
    assert gpt2["blk.1.attn_qkv.weight"] == ((64, 192), "F16")
    assert gpt2["blk.1.ffn_down.weight"] == ((256, 64), "F16")
    assert gpt2["output.weight"] == ((64, 50257), "F16")
    assert gpt2["blk.0.attn_qkv.bias"] == ((192,), "F32")


def test_tiny_models_carry_gpt2_tokenizer(tiny_llama: Path) -> None:
    keys = ("tokenizer.ggml.tokens", "tokenizer.ggml.merges", "tokenizer.ggml.token_type")
    ours, source = read_gguf(tiny_llama, arrays=keys), read_gguf(tm.vocab_source(), arrays=keys)
    for key in (*keys, "tokenizer.ggml.model", "tokenizer.ggml.pre", "tokenizer.ggml.eos_token_id"):
        assert ours.get(key) == source.get(key), key


def test_small_vocab_is_consistent_bpe(small_llama: Path) -> None:
    contents = read_gguf(small_llama, arrays=("tokenizer.ggml.tokens", "tokenizer.ggml.merges"))
    tokens, merges = contents.get("tokenizer.ggml.tokens"), contents.get("tokenizer.ggml.merges")
    assert len(tokens) == SMALL_VOCAB and tokens[-1] == "<|endoftext|>"
    assert contents.get("tokenizer.ggml.eos_token_id") == SMALL_VOCAB - 1
    assert [m.replace(" ", "") for m in merges] == tokens[tm.N_BYTE_TOKENS : -1]
    assert contents.get("llama.vocab_size") == SMALL_VOCAB


def test_parser_agrees_with_gguf_reader(small_llama: Path) -> None:
    """Cross-check against gguf-py's own reader on a real file."""
    ours = read_gguf(small_llama, arrays=("tokenizer.ggml.tokens", "tokenizer.ggml.token_type"))
    reader = GGUFReader(small_llama)
    assert set(ours.metadata) == {k for k in reader.fields if not k.startswith("GGUF.")}
    for key, field in reader.fields.items():
        if not key.startswith("GGUF.") and key != "tokenizer.ggml.merges":
            assert ours.get(key) == pytest.approx(field.contents()), key
    assert [(t.name, t.ne, t.ggml_type, t.offset, t.nbytes) for t in ours.tensors] == [
        (t.name, tuple(int(n) for n in t.shape), int(t.tensor_type), t.data_offset, t.n_bytes) for t in reader.tensors
    ]


def test_large_file_is_checked_from_its_header(models: Path) -> None:
    """A 100 MB model (sparse on disk): check_gguf reads the header and the tensor table only."""
    path = models / "large.gguf"
    writer = GGUFWriter(path, "llama")
    writer.add_block_count(1)
    writer.add_tensor_info("token_embd.weight", (25_000, 1_000), np.dtype(np.float32), 100_000_000)
    writer.write_header_to_file(path)
    writer.write_kv_data_to_file()
    writer.write_ti_data_to_file()
    writer.close()
    header = path.stat().st_size
    with path.open("r+b") as fh:
        fh.truncate(-(-header // 32) * 32 + 100_000_000)
    info = check_gguf(path)
    assert info.n_params == 25_000_000
    assert info.file_size > 100_000_000
    assert not info.has_vocab


def test_default_chat_model_passes() -> None:
    """The real SmolLM2 GGUF Parley ships by default (a ~100 MB Q4_1 llama)."""
    from parley.engine.modelfiles.defaults import default_chat_model_path

    try:
        path = default_chat_model_path()
    except ModelFileError as exc:
        require(False, str(exc))
    info = check_gguf(path)
    assert info.architecture == "llama"
    assert info.n_params > 100_000_000
    assert info.context_length == 8192
    assert info.chat_template and "im_start" in info.chat_template
    assert info.has_vocab


# ------------------------------------------------------------------------------ bad files


def test_missing_file(tmp_path: Path) -> None:
    rejected(tmp_path / "nope.gguf", "does not exist")


def test_directory(tmp_path: Path) -> None:
    folder = tmp_path / "model.gguf"
    folder.mkdir()
    rejected(folder, "directory")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs POSIX named pipes")
def test_named_pipe(tmp_path: Path) -> None:
    """Opening a pipe would block until something writes to it; it is refused before that."""
    pipe = tmp_path / "model.gguf"
    os.mkfifo(pipe)
    rejected(pipe, "not a regular file")


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.gguf"
    path.write_bytes(b"")
    rejected(path, "empty")


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX permissions")
def test_unreadable_file(tiny_llama: Path) -> None:
    with unreadable_copy(tiny_llama, "locked.gguf") as path, without_root():
        assert os.access(path.parent, os.X_OK, effective_ids=True)
        rejected(path, "permission denied")


def test_legacy_ggml_file(tmp_path: Path) -> None:
    """Whisper.cpp models and old GPT-2 models share the legacy ggml magic."""
    path = tm.write_tiny_gpt2_legacy_ggml(tmp_path / "ggml-model.bin", n_vocab=300)
    rejected(path, "not a GGUF model file: a legacy ggml file")


def test_png(tmp_path: Path) -> None:
    path = tmp_path / "picture.gguf"
    path.write_bytes(png_bytes())
    rejected(path, "not a GGUF model file: a PNG image")


@pytest.mark.parametrize("size", [1, 3, 4096])
def test_random_bytes(tmp_path: Path, size: int) -> None:
    path = tmp_path / "noise.gguf"
    path.write_bytes(random.Random(size).randbytes(size))
    rejected(path, "not a GGUF model file")


@pytest.mark.parametrize(
    ("version", "pattern"),
    [
        (1, "version 1 is no longer supported"),
        (0, "unsupported GGUF version 0"),
        (4, "unsupported GGUF version 4"),
        (0x03000000, "big-endian"),
    ],
)
def test_unsupported_version(small_llama: Path, tmp_path: Path, version: int, pattern: str) -> None:
    path = patched(small_llama, tmp_path / "version.gguf", 4, struct.pack("<I", version))
    rejected(path, pattern)


def test_magic_only(tmp_path: Path) -> None:
    path = tmp_path / "stub.gguf"
    path.write_bytes(b"GGUF\x03\x00\x00\x00")
    rejected(path, "truncated")


def test_truncated_inside_metadata(small_llama: Path, tmp_path: Path) -> None:
    data = small_llama.read_bytes()
    cut = data.index(b"tokenizer.ggml.merges") + 100
    path = tmp_path / "cut.gguf"
    path.write_bytes(data[:cut])
    rejected(path, r"truncated.*metadata")


def test_truncated_inside_tensor_table(small_llama: Path, tmp_path: Path) -> None:
    data = small_llama.read_bytes()
    cut = tensor_info_offset(small_llama, "blk.1.ffn_up.weight") + 10
    path = tmp_path / "cut.gguf"
    path.write_bytes(data[:cut])
    rejected(path, r"truncated.*tensor table")


def test_truncated_tensor_data(small_llama: Path, tmp_path: Path) -> None:
    last = read_gguf(small_llama).tensors[-1]
    path = tmp_path / "cut.gguf"
    path.write_bytes(small_llama.read_bytes()[: last.offset + last.nbytes - 1])
    rejected(path, rf"truncated: tensor '{re.escape(last.name)}'")


def test_every_cut_is_rejected(small_llama: Path, tmp_path: Path) -> None:
    """A copy cut anywhere (header, metadata, tensor table, data) is reported, never crashes."""
    data = small_llama.read_bytes()
    header_end = read_gguf(small_llama).data_offset
    cuts = sorted(
        {
            *range(0, header_end, max(1, header_end // 150)),
            *range(header_end, len(data), len(data) // 50),
        }
    )
    path = tmp_path / "cut.gguf"
    for cut in cuts:
        path.write_bytes(data[:cut])
        rejected(path, "truncated|empty|not a GGUF")


def test_corrupt_headers_never_escape_as_other_errors(small_llama: Path, tmp_path: Path) -> None:
    """Random damage to the header gives a GGUFInfo or a ModelFileError, nothing else."""
    data = small_llama.read_bytes()
    header_end = read_gguf(small_llama).data_offset
    rng = random.Random(1234)
    path = tmp_path / "damaged.gguf"
    outcomes = {"ok": 0, "rejected": 0}
    for _ in range(300):
        damaged = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            damaged[rng.randrange(header_end)] = rng.randrange(256)
        path.write_bytes(bytes(damaged))
        try:
            check_gguf(path)
            outcomes["ok"] += 1
        except ModelFileError as exc:
            assert exc.path == path
            outcomes["rejected"] += 1
    assert outcomes["rejected"] > 0


def test_huge_array_count(small_llama: Path, tmp_path: Path) -> None:
    key = b"tokenizer.ggml.tokens"
    count_at = small_llama.read_bytes().index(key) + len(key) + 8  # after value type and item type
    path = patched(small_llama, tmp_path / "huge.gguf", count_at, struct.pack("<Q", 2**60))
    rejected(path, "truncated")


def test_duplicate_token_that_would_abort(small_llama: Path, tmp_path: Path) -> None:
    """llama.cpp asserts that no two tokens are the same (found by bench/fuzz_files.py: a bit
    flip turned one token into another, and the process aborted)."""
    data = small_llama.read_bytes()
    first = data.index(b"\x01\x00\x00\x00\x00\x00\x00\x00!")  # token 0, "!" (length 1)
    second = data.index(b'\x01\x00\x00\x00\x00\x00\x00\x00"', first)  # token 1, '"'
    path = patched(small_llama, tmp_path / "twice.gguf", second + 8, b"!")
    rejected(path, "the vocabulary is corrupt: token '!' appears twice")


def test_vocab_only_file(tmp_path: Path) -> None:
    path = Path(shutil.copy(tm.vocab_source(), tmp_path / "ggml-vocab-gpt-2.gguf"))
    rejected(path, "no tensors.*vocab")


def test_every_vocab_only_file_of_llama_cpp_is_not_a_model() -> None:
    """The parser reads the real headers of all of llama.cpp's vocabulary test files."""
    files = sorted(tm.vocab_source().parent.glob("ggml-vocab-*.gguf"))
    assert len(files) > 10
    for path in files:
        rejected(path, "no tensors")


def test_unknown_architecture(tmp_path: Path) -> None:
    path = write_gguf(tmp_path / "frob.gguf", "frobnicator")
    error = rejected(path, "architecture 'frobnicator' is not supported")
    assert "frobnicator" in str(error)


def test_missing_architecture(small_llama: Path, tmp_path: Path) -> None:
    key = b"general.architecture"
    at = small_llama.read_bytes().index(key)
    path = patched(small_llama, tmp_path / "noarch.gguf", at, b"general.architectur_")
    rejected(path, "no general.architecture")


def test_clip_projector(tmp_path: Path) -> None:
    rejected(write_gguf(tmp_path / "mmproj.gguf", "clip", block_count=None), "CLIP")


def test_lora_adapter(tmp_path: Path) -> None:
    path = write_gguf(tmp_path / "lora.gguf", "llama", kv={"general.type": "adapter"})
    rejected(path, "type 'adapter'.*not a model")


@pytest.mark.parametrize(
    ("block_count", "pattern"),
    [
        (None, "no integer llama.block_count"),
        (0, "is 0"),
        (1000, "is 1000"),
    ],
)
def test_layer_count_that_would_abort(tmp_path: Path, block_count: int | None, pattern: str) -> None:
    rejected(write_gguf(tmp_path / "layers.gguf", "llama", block_count=block_count), pattern)


def test_unknown_tensor_type(small_llama: Path, tmp_path: Path) -> None:
    name = "output_norm.weight"  # 1-D: name length, name, n_dims, one ne, then the type
    at = tensor_info_offset(small_llama, name) + 8 + len(name) + 4 + 8
    path = patched(small_llama, tmp_path / "type.gguf", at, struct.pack("<I", 99))
    rejected(path, f"tensor '{name}' has type 99")


def test_corrupt_tensor_offset(small_llama: Path, tmp_path: Path) -> None:
    name = "output_norm.weight"
    at = tensor_info_offset(small_llama, name) + 8 + len(name) + 4 + 8 + 4
    path = patched(small_llama, tmp_path / "offset.gguf", at, struct.pack("<Q", 12345))
    rejected(path, f"tensor '{name}' has data offset 12345")


def test_row_not_multiple_of_block(tmp_path: Path) -> None:
    path = tmp_path / "q8.gguf"
    writer = GGUFWriter(path, "llama")
    writer.add_block_count(1)
    writer.add_tensor_info(
        "token_embd.weight", (4, 34), np.dtype(np.uint8), 4 * 34, raw_dtype=GGMLQuantizationType.Q8_0
    )  # one Q8_0 block (32 values) per row
    writer.write_header_to_file(path)
    writer.write_kv_data_to_file()
    writer.write_ti_data_to_file()
    writer.close()
    patched(path, path, tensor_info_offset(path, "token_embd.weight") + 8 + 17 + 4, struct.pack("<q", 33))
    rejected(path, "rows of 33 elements, not a multiple of the Q8_0 block size 32")


# ------------------------------------------------------------------------------ tables vs the pinned source


def test_supported_architectures_match_llama_cpp() -> None:
    source = (tm.llama_cpp_source() / "src" / "llama-arch.cpp").read_text()
    table = source[source.index("LLM_ARCH_NAMES") :]
    names = set(re.findall(r'\{\s*LLM_ARCH_\w+\s*,\s*"([^"]+)"\s*\}', table[: table.index("};")]))
    assert SUPPORTED_ARCHITECTURES == names - {"clip", "(unknown)"}


def test_tensor_types_match_ggml() -> None:
    header = (tm.llama_cpp_source() / "ggml" / "include" / "ggml.h").read_text()
    enum = header[header.index("enum ggml_type {") :]
    found = re.findall(r"^\s*GGML_TYPE_(\w+)\s*=\s*(\d+),", enum[: enum.index("};")], re.M)
    ids = {int(n) for name, n in found if name != "COUNT"}
    assert set(GGML_TYPES) == ids


# ------------------------------------------------------------------------------ llama.cpp itself


def test_llama_cpp_loads_the_tiny_models(tiny_llama: Path, tiny_gpt2: Path, small_llama: Path) -> None:
    """Optional: needs the native build.  llama.cpp loads each model, tokenizes and
    detokenizes text with GPT-2's BPE, and decodes it to finite logits."""
    from parley.engine.errors import NativeLibraryError, NoDeviceError

    text = "Hello world, this is Parley!"
    try:
        runs = {path: tm.run_llama(path, text) for path in (tiny_llama, tiny_gpt2, small_llama)}
    except (NativeLibraryError, NoDeviceError) as exc:
        require(False, f"native build unavailable: {exc}")
    for path, run in runs.items():
        assert run.detokenized == text, path
        assert run.logits.shape == (len(run.tokens), run.n_vocab)
        assert np.isfinite(run.logits).all()
    assert runs[tiny_llama].tokens[:2] == [15496, 995]  # GPT-2's ids for "Hello", " world"
    assert runs[tiny_gpt2].tokens == runs[tiny_llama].tokens
    assert runs[tiny_llama].chat_template == tm.CHATML_TEMPLATE
    assert runs[small_llama].n_vocab == SMALL_VOCAB
