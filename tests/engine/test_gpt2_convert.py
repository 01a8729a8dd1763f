"""Legacy ggml GPT-2 -> GGUF: a lossless, validated rearrangement with GPT-2's tokenizer."""

from __future__ import annotations

import dataclasses
import re
import struct
from pathlib import Path

import numpy as np
import pytest

from parley.engine.errors import Cancelled, ModelFileError
from parley.engine.modelfiles.gguf_file import check_gguf, read_gguf
from parley.engine.modelfiles.gpt2_convert import (
    convert_gpt2_ggml_to_gguf,
    default_gpt2_vocab,
    gguf_tensor_name,
    gpt2_byte_decoder,
    gpt2_byte_encoder,
    read_legacy_gpt2,
)
from tests.support import tinymodels as tm
from tests.support.requirements import require

N_LAYER = 2


class Flag:
    """A cancel flag like parley.engine.backend.cancel.CancelToken, without the native build."""

    def __init__(self, cancelled: bool = False) -> None:
        self.cancelled = cancelled


def convert(src: Path, dst: Path, **kwargs: object):  # noqa: ANN201 - returns GGUFInfo
    return convert_gpt2_ggml_to_gguf(src, dst, vocab=tm.vocab_source(), **kwargs)


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))  # temporary files are hidden


def refused(src: Path, dst: Path, pattern: str) -> ModelFileError:
    """The conversion fails with a ModelFileError naming ``src`` and leaves nothing behind."""
    with pytest.raises(ModelFileError) as caught:
        convert(src, dst)
    assert caught.value.path == src
    assert re.search(pattern, caught.value.problem, re.IGNORECASE), caught.value.problem
    assert not dst.exists()
    assert leftovers(dst.parent) == []
    return caught.value


def legacy(
    tmp_path: Path,
    tensors: dict[str, tm.LegacyTensor],
    *,
    vocab: list[bytes] | None = None,
    ftype: int = 0,
    qnt_version: int = 2,
) -> Path:
    return tm.write_gpt2_legacy_ggml(
        tmp_path / "ggml-model.bin",
        tensors,
        vocab or tm.gpt2_legacy_vocab(),
        n_head=4,
        ftype=ftype,
        qnt_version=qnt_version,
    )


@pytest.fixture(scope="module")
def f32_tensors() -> dict[str, tm.LegacyTensor]:
    return tm.tiny_gpt2_legacy_tensors(n_vocab=tm.GPT2_N_VOCAB, n_layer=N_LAYER)


# ------------------------------------------------------------------------------ vocabulary


def test_byte_table_is_gpt2s() -> None:
    encoder = gpt2_byte_encoder()
    assert sorted(encoder) == list(range(256))
    assert len(set(encoder.values())) == 256
    assert (encoder[ord(" ")], encoder[ord("\n")], encoder[ord("A")], encoder[0]) == ("Ġ", "Ċ", "A", "Ā")
    assert {v: k for k, v in encoder.items()} == gpt2_byte_decoder()
    # GPT-2's first 256 tokens are exactly the 256 single bytes
    tokens = tm.gpt2_tokenizer()["tokenizer.ggml.tokens"].value
    assert sorted(gpt2_byte_decoder()[t] for t in tokens[:256]) == list(range(256))


# ------------------------------------------------------------------------------ lossless conversion


@pytest.mark.parametrize(
    ("ftype", "lm_head"),
    [(0, False), (1, True), (7, False)],
    ids=["f32-tied", "f16-lm_head", "q8_0"],
)
def test_conversion_is_lossless(tmp_path: Path, ftype: int, lm_head: bool) -> None:
    tensors = tm.tiny_gpt2_legacy_tensors(
        n_vocab=tm.GPT2_N_VOCAB,
        n_layer=N_LAYER,
        ftype=ftype,
        lm_head=lm_head,
        seed=7,
    )
    src = legacy(tmp_path, tensors, ftype=ftype)
    dst = tmp_path / "model.gguf"
    info = convert(src, dst)

    assert info.path == dst
    assert info == dataclasses.replace(check_gguf(dst), path=dst)
    assert (info.architecture, info.n_tensors, info.context_length) == ("gpt2", len(tensors), 256)
    assert info.file_type == ftype
    assert info.has_vocab
    converted = tm.tensor_bytes(dst)
    assert set(converted) == {gguf_tensor_name(name) for name in tensors}
    for name, tensor in tensors.items():
        ggml_type, ne, raw = converted[gguf_tensor_name(name)]
        assert (ggml_type, ne) == (tensor.ttype, tensor.ne), name
        assert raw == tensor.raw, name
    assert ("output.weight" in converted) == lm_head
    assert leftovers(tmp_path) == []


def test_weights_keep_ggml_orientation(tmp_path: Path, f32_tensors: dict[str, tm.LegacyTensor]) -> None:
    """c_attn is [n_embd, 3*n_embd] in ggml order in both formats (what llama.cpp's gpt2 asks
    for), so element (row o, column i) of the numpy view is the same weight before and after."""
    dst = tmp_path / "model.gguf"
    convert(legacy(tmp_path, f32_tensors), dst)
    _, ne, raw = tm.tensor_bytes(dst)["blk.1.attn_qkv.weight"]
    assert ne == (64, 192)
    after = np.frombuffer(raw, np.float32).reshape(192, 64)
    np.testing.assert_array_equal(after, f32_tensors["model/h1/attn/c_attn/w"].data)


def test_metadata(tmp_path: Path, f32_tensors: dict[str, tm.LegacyTensor]) -> None:
    dst = tmp_path / "model.gguf"
    convert(legacy(tmp_path, f32_tensors), dst)
    keys = ("tokenizer.ggml.tokens", "tokenizer.ggml.token_type", "tokenizer.ggml.merges")
    ours, source = read_gguf(dst, arrays=keys), read_gguf(tm.vocab_source(), arrays=keys)
    assert {k: ours.get(k) for k in ours.metadata if k.startswith("gpt2.")} == {
        "gpt2.context_length": 256,
        "gpt2.embedding_length": 64,
        "gpt2.feed_forward_length": 256,
        "gpt2.block_count": N_LAYER,
        "gpt2.attention.head_count": 4,
        "gpt2.attention.layer_norm_epsilon": pytest.approx(1e-5),
    }
    assert ours.get("general.name") == "ggml-model"
    tokenizer_keys = [k for k in source.metadata if k.startswith("tokenizer.")]
    assert tokenizer_keys
    for key in tokenizer_keys:
        assert ours.metadata[key] == source.metadata[key], key


def test_reads_legacy_header(tmp_path: Path, f32_tensors: dict[str, tm.LegacyTensor]) -> None:
    model = read_legacy_gpt2(legacy(tmp_path, f32_tensors, ftype=1, qnt_version=2))
    assert dataclasses.astuple(model.hparams) == (tm.GPT2_N_VOCAB, 256, 64, 4, N_LAYER, 1, 2)
    assert model.vocab == tm.gpt2_legacy_vocab()
    assert {n: t.ne for n, t in model.tensors.items()} == {n: t.ne for n, t in f32_tensors.items()}


def test_progress_and_replacing_an_existing_file(
    tmp_path: Path,
    f32_tensors: dict[str, tm.LegacyTensor],
) -> None:
    dst = tmp_path / "model.gguf"
    dst.write_bytes(b"old")
    seen: list[float] = []
    convert(legacy(tmp_path, f32_tensors), dst, progress=seen.append, cancel=Flag())
    assert seen == sorted(seen) and seen[-1] == 1.0 and 0 < seen[0] < 1
    check_gguf(dst)


# ------------------------------------------------------------------------------ cancel


def test_cancel_before_start_leaves_nothing(tmp_path: Path, f32_tensors: dict[str, tm.LegacyTensor]) -> None:
    dst = tmp_path / "model.gguf"
    with pytest.raises(Cancelled):
        convert(legacy(tmp_path, f32_tensors), dst, cancel=Flag(True))
    assert not dst.exists()
    assert leftovers(tmp_path) == []


def test_cancel_midway_keeps_the_old_file(tmp_path: Path, f32_tensors: dict[str, tm.LegacyTensor]) -> None:
    dst = tmp_path / "model.gguf"
    dst.write_bytes(b"previous model")
    flag = Flag()
    seen: list[float] = []

    def progress(fraction: float) -> None:
        seen.append(fraction)
        flag.cancelled = True

    with pytest.raises(Cancelled):
        convert(legacy(tmp_path, f32_tensors), dst, progress=progress, cancel=flag)
    assert len(seen) == 1 and seen[0] < 1
    assert dst.read_bytes() == b"previous model"
    assert leftovers(tmp_path) == []


# ------------------------------------------------------------------------------ refused sources


def test_smaller_vocabulary_is_not_gpt2(tmp_path: Path) -> None:
    src = tm.write_tiny_gpt2_legacy_ggml(tmp_path / "ggml-model.bin", n_vocab=1000)
    refused(src, tmp_path / "model.gguf", r"vocabulary is not GPT-2's: it has 1000 tokens, GPT-2 has 50257")


def test_changed_token_is_not_gpt2(tmp_path: Path, f32_tensors: dict[str, tm.LegacyTensor]) -> None:
    vocab = tm.gpt2_legacy_vocab()
    vocab[4242] = b"parley"
    src = legacy(tmp_path, f32_tensors, vocab=vocab)
    refused(src, tmp_path / "model.gguf", r"not GPT-2's: token 4242 is b'parley'")


@pytest.mark.parametrize("where", ["header", "vocabulary", "tensor table", "tensor data"])
def test_truncated_source(tmp_path: Path, f32_tensors: dict[str, tm.LegacyTensor], where: str) -> None:
    src = legacy(tmp_path, f32_tensors)
    data = src.read_bytes()
    cut = {
        "header": 20,
        "vocabulary": 5000,
        "tensor table": data.index(b"model/h1/ln_2/g") - 6,
        "tensor data": len(data) - 3,
    }[where]
    src.write_bytes(data[:cut])
    pattern = "truncated" if where == "tensor data" else f"truncated: it ends inside the {where}"
    refused(src, tmp_path / "model.gguf", pattern)


def test_missing_tensor(tmp_path: Path, f32_tensors: dict[str, tm.LegacyTensor]) -> None:
    tensors = {k: v for k, v in f32_tensors.items() if k != "model/h1/mlp/c_fc/b"}
    refused(legacy(tmp_path, tensors), tmp_path / "model.gguf", "tensor 'model/h1/mlp/c_fc/b' is missing")


def test_unknown_tensor(tmp_path: Path, f32_tensors: dict[str, tm.LegacyTensor]) -> None:
    extra = tm.LegacyTensor(0, (64,), np.zeros(64, np.float32))
    refused(
        legacy(tmp_path, {**f32_tensors, "model/h0/attn/bias": extra}),
        tmp_path / "model.gguf",
        "unknown tensor 'model/h0/attn/bias'",
    )


def test_untransposed_weight(tmp_path: Path, f32_tensors: dict[str, tm.LegacyTensor]) -> None:
    """A checkpoint matrix written without the converters' transpose has the wrong shape."""
    w = f32_tensors["model/h0/mlp/c_fc/w"]
    untransposed = tm.LegacyTensor(w.ttype, (256, 64), np.ascontiguousarray(w.data.T))
    refused(
        legacy(tmp_path, {**f32_tensors, "model/h0/mlp/c_fc/w": untransposed}),
        tmp_path / "model.gguf",
        r"'model/h0/mlp/c_fc/w' has shape \[256, 64\], expected \[64, 256\]",
    )


def test_half_precision_bias(tmp_path: Path, f32_tensors: dict[str, tm.LegacyTensor]) -> None:
    b = f32_tensors["model/h0/ln_1/b"]
    tensors = {**f32_tensors, "model/h0/ln_1/b": tm.LegacyTensor(1, b.ne, b.data.astype(np.float16))}
    refused(legacy(tmp_path, tensors), tmp_path / "model.gguf", "'model/h0/ln_1/b' is stored as F16")


def test_old_quantization_version(tmp_path: Path) -> None:
    tensors = tm.tiny_gpt2_legacy_tensors(n_vocab=tm.GPT2_N_VOCAB, n_layer=N_LAYER, ftype=7)
    src = legacy(tmp_path, tensors, ftype=7, qnt_version=1)
    refused(src, tmp_path / "model.gguf", "old quantization format version 1")


def test_unknown_ftype(tmp_path: Path, f32_tensors: dict[str, tm.LegacyTensor]) -> None:
    refused(legacy(tmp_path, f32_tensors, ftype=5), tmp_path / "model.gguf", "unknown weight format")


def test_gguf_is_not_a_legacy_file(tmp_path: Path) -> None:
    src = tm.write_tiny_gpt2_gguf(tmp_path / "already.gguf", n_vocab=300)
    refused(src, tmp_path / "model.gguf", "not a legacy ggml GPT-2 file")


def test_missing_and_empty_sources(tmp_path: Path) -> None:
    refused(tmp_path / "absent.bin", tmp_path / "model.gguf", "does not exist")
    empty = tmp_path / "empty.bin"
    empty.write_bytes(b"")
    refused(empty, tmp_path / "model.gguf", "empty")


def test_corrupt_header(tmp_path: Path, f32_tensors: dict[str, tm.LegacyTensor]) -> None:
    src = legacy(tmp_path, f32_tensors)
    data = bytearray(src.read_bytes())
    data[16:20] = struct.pack("<i", 5)  # n_head 5 does not divide n_embd 64
    src.write_bytes(bytes(data))
    refused(src, tmp_path / "model.gguf", "header is corrupt")


def test_default_tokenizer_is_found(tmp_path: Path, f32_tensors: dict[str, tm.LegacyTensor]) -> None:
    """Without ``vocab``, the tokenizer is found beside the native libraries or, in a source
    checkout, in the native build's llama.cpp sources."""
    assert default_gpt2_vocab().read_bytes() == tm.vocab_source().read_bytes()
    info = convert_gpt2_ggml_to_gguf(legacy(tmp_path, f32_tensors), tmp_path / "model.gguf")
    assert info.has_vocab


def test_missing_tokenizer_file(tmp_path: Path, f32_tensors: dict[str, tm.LegacyTensor]) -> None:
    absent = tmp_path / "ggml-vocab-gpt-2.gguf"
    with pytest.raises(ModelFileError) as caught:
        convert_gpt2_ggml_to_gguf(legacy(tmp_path, f32_tensors), tmp_path / "model.gguf", vocab=absent)
    assert caught.value.path == absent
    assert "tokenizer file is missing" in caught.value.problem


def test_destination_is_a_directory(tmp_path: Path, f32_tensors: dict[str, tm.LegacyTensor]) -> None:
    dst = tmp_path / "model.gguf"
    dst.mkdir()
    with pytest.raises(ModelFileError) as caught:
        convert(legacy(tmp_path, f32_tensors), dst)
    assert caught.value.path == dst
    assert dst.is_dir() and leftovers(tmp_path) == []


def test_unwritable_destination(tmp_path: Path, f32_tensors: dict[str, tm.LegacyTensor]) -> None:
    dst = tmp_path / "no" / "such" / "folder" / "model.gguf"
    with pytest.raises(ModelFileError) as caught:
        convert(legacy(tmp_path, f32_tensors), dst)
    assert caught.value.path == dst
    assert "cannot write" in caught.value.problem


# ------------------------------------------------------------------------------ llama.cpp itself


def reference_logits(tensors: dict[str, tm.LegacyTensor], tokens: list[int], n_head: int) -> np.ndarray:
    """GPT-2 as ggml's examples/gpt-2 computes it, in float64 numpy, on the legacy tensors."""

    def w(name: str) -> np.ndarray:
        t = tensors[name]
        return t.data.astype(np.float64).reshape(tuple(reversed(t.ne)))

    def norm(x: np.ndarray, prefix: str) -> np.ndarray:
        mean, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
        return (x - mean) / np.sqrt(var + 1e-5) * w(f"{prefix}/g") + w(f"{prefix}/b")

    def gelu(x: np.ndarray) -> np.ndarray:
        return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))

    x = w("model/wte")[tokens] + w("model/wpe")[: len(tokens)]
    n, e = x.shape
    mask = np.triu(np.full((n, n), -np.inf), 1)
    for i in range(sum(name.endswith("/ln_1/g") for name in tensors)):
        h = f"model/h{i}"
        qkv = norm(x, f"{h}/ln_1") @ w(f"{h}/attn/c_attn/w").T + w(f"{h}/attn/c_attn/b")
        q, k, v = (qkv[:, j * e : (j + 1) * e].reshape(n, n_head, -1).transpose(1, 0, 2) for j in range(3))
        scores = q @ k.transpose(0, 2, 1) / np.sqrt(e // n_head) + mask
        p = np.exp(scores - scores.max(-1, keepdims=True))
        attn = (p / p.sum(-1, keepdims=True) @ v).transpose(1, 0, 2).reshape(n, e)
        x = x + attn @ w(f"{h}/attn/c_proj/w").T + w(f"{h}/attn/c_proj/b")
        y = gelu(norm(x, f"{h}/ln_2") @ w(f"{h}/mlp/c_fc/w").T + w(f"{h}/mlp/c_fc/b"))
        x = x + y @ w(f"{h}/mlp/c_proj/w").T + w(f"{h}/mlp/c_proj/b")
    head = w("model/lm_head") if "model/lm_head" in tensors else w("model/wte")
    return norm(x, "model/ln_f") @ head.T


def test_llama_cpp_logits_match_the_original_model(tmp_path: Path) -> None:
    """Optional: needs the native build.  llama.cpp's logits for the converted file equal
    GPT-2 computed the way ggml's example computes it on the original tensors; large layer
    weights make a mis-oriented matrix change the logits by far more than the tolerance."""
    from parley.engine.errors import NativeLibraryError, NoDeviceError

    tensors = tm.tiny_gpt2_legacy_tensors(
        n_vocab=tm.GPT2_N_VOCAB,
        n_layer=N_LAYER,
        lm_head=True,
        seed=5,
        std=0.3,
    )
    dst = tmp_path / "model.gguf"
    convert(legacy(tmp_path, tensors), dst)
    try:
        run = tm.run_llama(dst, "Hello world, this is Parley!")
    except (NativeLibraryError, NoDeviceError) as exc:
        require(False, f"native build unavailable: {exc}")
    want = reference_logits(tensors, run.tokens, n_head=4)
    transposed = {**tensors}
    for i in range(N_LAYER):
        name = f"model/h{i}/attn/c_proj/w"
        transposed[name] = dataclasses.replace(tensors[name], data=np.ascontiguousarray(tensors[name].data.T))
    assert np.abs(run.logits - want).max() < 0.02
    assert np.abs(run.logits - reference_logits(transposed, run.tokens, n_head=4)).max() > 0.2
