"""Convert a legacy ggml GPT-2 model (the ``ggml-model.bin`` of ggml's examples/gpt-2) to GGUF.

The legacy format, as ggml's ``examples/gpt-2`` loader reads it (all little-endian):

* ``u32`` magic ``0x67676d6c``; ``i32`` n_vocab, n_ctx, n_embd, n_head, n_layer, ftype, where
  ``ftype // 1000`` is the quantization version and ``ftype % 1000`` the ``ggml_ftype``;
* ``i32`` n_vocab again, then per token an ``i32`` length and the token's raw bytes;
* tensors until the end of the file: ``i32`` n_dims, name length, ggml type; ``n_dims`` × ``i32``
  ne (ggml order); the name; the data, unpadded.

Orientation: the example computes ``ggml_mul_mat(w, x)`` with every weight of ne
``[n_in, n_out]`` (its converters transpose the checkpoints' Conv1D matrices, numpy shape
``(n_in, n_out)``, to get there), and splits ``c_attn``'s output into Q, K, V in that order.  llama.cpp's ``gpt2`` graph
wants exactly that: ``attn_qkv`` of ne ``[n_embd, 3*n_embd]`` used as ``ggml_mul_mat(w, x)`` and
split Q, K, V; ``ffn_up`` ``[n_embd, n_ff]``; ``ffn_down`` ``[n_ff, n_embd]``.  So the conversion
renames tensors and copies their bytes unchanged: no transposition, no re-quantization.

The legacy vocabulary is raw bytes and has no merges, so the tokenizer is taken from llama.cpp's
GPT-2 vocab-only GGUF after checking that the legacy vocabulary is exactly GPT-2's.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
import struct
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

import numpy as np
from gguf import GGMLQuantizationType, GGUFWriter

from parley.engine._native import LIB_DIR
from parley.engine.atomic import atomic_path
from parley.engine.backend.cancel import CancelFlag
from parley.engine.errors import Cancelled, ModelFileError
from parley.engine.formats import GGML_MAGIC
from parley.engine.modelfiles.bounded_reader import Cursor, Truncated, map_readonly
from parley.engine.modelfiles.gguf_file import (
    GGML_TYPES,
    LLAMA_MAX_LAYERS,
    GGUFContents,
    GGUFInfo,
    check_gguf,
    read_gguf,
)

GGML_QNT_VERSION = 2  # the current block layout of ggml's quantized types
GGML_QNT_VERSION_FACTOR = 1000
GPT2_VOCAB_FILE = "ggml-vocab-gpt-2.gguf"
LAYER_NORM_EPS = 1e-5  # fixed in ggml's gpt-2 example

# ggml_ftype values of files the example could load; GGUF's general.file_type uses the same numbers.
_LEGACY_FTYPES = frozenset({0, 1, 2, 3, 4, 7, 8, 9})
_F32 = int(GGMLQuantizationType.F32)
_MATRIX_TYPES = frozenset(
    int(t)
    for t in (
        GGMLQuantizationType.F32,
        GGMLQuantizationType.F16,
        GGMLQuantizationType.Q4_0,
        GGMLQuantizationType.Q4_1,
        GGMLQuantizationType.Q5_0,
        GGMLQuantizationType.Q5_1,
        GGMLQuantizationType.Q8_0,
    )
)
_FLOAT_TYPES = frozenset({_F32, int(GGMLQuantizationType.F16)})

_GLOBAL_NAMES = {
    "model/wte": "token_embd.weight",
    "model/wpe": "position_embd.weight",
    "model/ln_f/g": "output_norm.weight",
    "model/ln_f/b": "output_norm.bias",
    "model/lm_head": "output.weight",
}
_LAYER_NAMES = {
    "ln_1/g": "attn_norm.weight",
    "ln_1/b": "attn_norm.bias",
    "attn/c_attn/w": "attn_qkv.weight",
    "attn/c_attn/b": "attn_qkv.bias",
    "attn/c_proj/w": "attn_output.weight",
    "attn/c_proj/b": "attn_output.bias",
    "ln_2/g": "ffn_norm.weight",
    "ln_2/b": "ffn_norm.bias",
    "mlp/c_fc/w": "ffn_up.weight",
    "mlp/c_fc/b": "ffn_up.bias",
    "mlp/c_proj/w": "ffn_down.weight",
    "mlp/c_proj/b": "ffn_down.bias",
}
_LAYER_RE = re.compile(r"model/h(0|[1-9][0-9]*)/(.+)")
_TOKENIZER_ARRAYS = ("tokenizer.ggml.tokens", "tokenizer.ggml.token_type", "tokenizer.ggml.merges")
_MAX_DIMS = 2  # the example's loader reads at most two dimensions
_MAX_NAME = 256
_I32 = struct.Struct("<i")
_CHUNK = 8 << 20  # bytes copied between progress reports and cancel checks

ProgressCallback = Callable[[float], None]
"""Called with the fraction of tensor data copied so far (0..1)."""


@dataclasses.dataclass(frozen=True)
class LegacyHParams:
    n_vocab: int
    n_ctx: int
    n_embd: int
    n_head: int
    n_layer: int
    ftype: int  # ggml_ftype, quantization version removed
    qnt_version: int


@dataclasses.dataclass(frozen=True)
class LegacyTensorInfo:
    name: str
    ne: tuple[int, ...]
    ttype: int
    offset: int  # absolute position of the data in the file
    nbytes: int


@dataclasses.dataclass(frozen=True)
class LegacyGPT2:
    """The parsed header, vocabulary and tensor table of a legacy file (data left in place)."""

    hparams: LegacyHParams
    vocab: list[bytes]
    tensors: dict[str, LegacyTensorInfo]


@functools.cache
def gpt2_byte_encoder() -> dict[int, str]:
    """GPT-2's reversible byte -> printable character table (``bytes_to_unicode`` of
    openai/gpt-2's encoder.py): printable Latin-1 bytes map to themselves, the other 68 bytes
    to U+0100 onwards, in byte order."""
    kept = [
        *range(ord("!"), ord("~") + 1),
        *range(ord("¡"), ord("¬") + 1),
        *range(ord("®"), ord("ÿ") + 1),
    ]
    table = {b: chr(b) for b in kept}
    moved = (b for b in range(256) if b not in table)
    table.update((b, chr(256 + i)) for i, b in enumerate(moved))
    return dict(sorted(table.items()))


@functools.cache
def gpt2_byte_decoder() -> dict[str, int]:
    return {ch: b for b, ch in gpt2_byte_encoder().items()}


def default_gpt2_vocab() -> Path:
    """GPT-2's tokenizer (llama.cpp's ``models/ggml-vocab-gpt-2.gguf``), which the native build
    puts beside the native libraries."""
    return LIB_DIR / GPT2_VOCAB_FILE


def read_legacy_gpt2(path: str | Path) -> LegacyGPT2:
    """Parse a legacy ggml GPT-2 file's header, vocabulary and tensor table; check them the way
    ggml's example loader does (names, shapes, sizes).  Raises ModelFileError."""
    path = Path(path)
    buf, size = map_readonly(path)
    try:
        return _parse_legacy(path, Cursor(buf, size))
    finally:
        buf.close()


def _parse_legacy(path: Path, rd: Cursor) -> LegacyGPT2:
    section = "header"
    try:
        if rd.size < 4 or rd.buf[:4] != GGML_MAGIC:
            raise ModelFileError(
                path,
                "not a legacy ggml GPT-2 file (the first bytes are not the ggml magic)",
            )
        rd.skip(4)
        hparams = _check_hparams(path, *(rd.unpack(_I32) for _ in range(6)))
        section = "vocabulary"
        vocab = _read_vocab(path, rd, hparams.n_vocab)
        tensors: dict[str, LegacyTensorInfo] = {}
        while rd.pos < rd.size:
            section = f"tensor table (tensor {len(tensors) + 1})"
            info = _read_tensor(path, rd)
            if info.name in tensors:
                raise ModelFileError(path, f"the file is corrupt: tensor '{info.name}' appears twice")
            tensors[info.name] = info
    except Truncated:
        raise ModelFileError(
            path,
            f"the file is truncated: it ends inside the {section} ({rd.size} bytes in all)",
        ) from None
    _check_tensors(path, hparams, tensors)
    return LegacyGPT2(hparams, vocab, tensors)


def _check_hparams(
    path: Path,
    n_vocab: int,
    n_ctx: int,
    n_embd: int,
    n_head: int,
    n_layer: int,
    ftype: int,
) -> LegacyHParams:
    if min(n_vocab, n_ctx, n_embd, n_head, n_layer) <= 0 or n_embd % n_head or ftype < 0:
        raise ModelFileError(
            path,
            f"the header is corrupt: n_vocab={n_vocab} n_ctx={n_ctx} n_embd={n_embd} "
            f"n_head={n_head} n_layer={n_layer} ftype={ftype}",
        )
    if n_layer > LLAMA_MAX_LAYERS:  # the expected tensor table is built from it
        raise ModelFileError(
            path,
            f"the header is corrupt: n_layer={n_layer}; llama.cpp accepts 1 to {LLAMA_MAX_LAYERS}",
        )
    qnt_version, base = divmod(ftype, GGML_QNT_VERSION_FACTOR)
    if base not in _LEGACY_FTYPES:
        raise ModelFileError(path, f"the header names an unknown weight format (ftype {base})")
    return LegacyHParams(n_vocab, n_ctx, n_embd, n_head, n_layer, base, qnt_version)


def _read_vocab(path: Path, rd: Cursor, n_vocab: int) -> list[bytes]:
    count = rd.unpack(_I32)
    if count != n_vocab:
        raise ModelFileError(
            path,
            f"the file is corrupt: the vocabulary has {count} tokens, the header says {n_vocab}",
        )
    if count * 4 > rd.size - rd.pos:
        raise Truncated
    return [rd.raw(rd.unpack(_I32)) for _ in range(count)]


def _read_tensor(path: Path, rd: Cursor) -> LegacyTensorInfo:
    n_dims, name_len, ttype = rd.unpack(_I32), rd.unpack(_I32), rd.unpack(_I32)
    if not 1 <= n_dims <= _MAX_DIMS or not 0 < name_len <= _MAX_NAME or ttype not in GGML_TYPES:
        raise ModelFileError(
            path,
            f"the tensor table is corrupt at byte {rd.pos - 12} "
            f"(n_dims={n_dims}, name length={name_len}, type={ttype})",
        )
    ne = tuple(rd.unpack(_I32) for _ in range(n_dims))
    try:
        name = rd.raw(name_len).decode("utf-8")
    except UnicodeDecodeError:
        raise ModelFileError(
            path,
            f"the tensor table is corrupt at byte {rd.pos - name_len} (a name is not text)",
        ) from None
    type_name, block, block_bytes = GGML_TYPES[ttype]
    if min(ne) <= 0 or ne[0] % block:
        raise ModelFileError(path, f"tensor '{name}' has an invalid shape {list(ne)} for type {type_name}")
    nbytes = math.prod(ne) // block * block_bytes
    return LegacyTensorInfo(name, ne, ttype, rd.skip(nbytes), nbytes)


def _expected_shapes(hp: LegacyHParams) -> dict[str, tuple[int, ...]]:
    """Legacy tensor names -> ne, as the example's loader creates them (lm_head is optional)."""
    e = hp.n_embd
    shapes: dict[str, tuple[int, ...]] = {
        "model/wte": (e, hp.n_vocab),
        "model/wpe": (e, hp.n_ctx),
        "model/ln_f/g": (e,),
        "model/ln_f/b": (e,),
        "model/lm_head": (e, hp.n_vocab),
    }
    per_layer = {
        "ln_1/g": (e,),
        "ln_1/b": (e,),
        "attn/c_attn/w": (e, 3 * e),
        "attn/c_attn/b": (3 * e,),
        "attn/c_proj/w": (e, e),
        "attn/c_proj/b": (e,),
        "ln_2/g": (e,),
        "ln_2/b": (e,),
        "mlp/c_fc/w": (e, 4 * e),
        "mlp/c_fc/b": (4 * e,),
        "mlp/c_proj/w": (4 * e, e),
        "mlp/c_proj/b": (e,),
    }
    for i in range(hp.n_layer):
        shapes |= {f"model/h{i}/{suffix}": ne for suffix, ne in per_layer.items()}
    return shapes


def _squeeze(ne: tuple[int, ...]) -> tuple[int, ...]:
    """Drop trailing 1s: the loader compares ne[0], ne[1] with 1 filling a missing dimension."""
    while len(ne) > 1 and ne[-1] == 1:
        ne = ne[:-1]
    return ne


def _check_tensors(path: Path, hp: LegacyHParams, tensors: dict[str, LegacyTensorInfo]) -> None:
    expected = _expected_shapes(hp)
    unknown = sorted(set(tensors) - set(expected))
    if unknown:
        raise ModelFileError(path, f"not a GPT-2 model: unknown tensor '{unknown[0]}'")
    missing = [name for name in expected if name not in tensors and name != "model/lm_head"]
    if missing:
        raise ModelFileError(path, f"the model is incomplete: tensor '{missing[0]}' is missing")
    for name, info in tensors.items():
        if _squeeze(info.ne) != _squeeze(expected[name]):
            raise ModelFileError(
                path,
                f"tensor '{name}' has shape {list(info.ne)}, expected {list(expected[name])}",
            )
        is_matrix = name in ("model/wte", "model/lm_head") or name.endswith("/w")
        allowed = _MATRIX_TYPES if is_matrix else {_F32}
        type_name = GGML_TYPES[info.ttype][0]
        if info.ttype not in allowed:
            raise ModelFileError(
                path,
                f"tensor '{name}' is stored as {type_name}, which ggml's GPT-2 loader does not accept there",
            )
        if info.ttype not in _FLOAT_TYPES and hp.qnt_version != GGML_QNT_VERSION:
            raise ModelFileError(
                path,
                f"the model is quantized ({type_name}) with the old quantization format version "
                f"{hp.qnt_version}; only version {GGML_QNT_VERSION} can be converted "
                "(re-quantize it from F16/F32)",
            )


def gguf_tensor_name(legacy_name: str) -> str:
    """The llama.cpp ``gpt2`` tensor name for a legacy tensor name."""
    if legacy_name in _GLOBAL_NAMES:
        return _GLOBAL_NAMES[legacy_name]
    match = _LAYER_RE.fullmatch(legacy_name)
    if match is None or match.group(2) not in _LAYER_NAMES:
        raise KeyError(legacy_name)
    return f"blk.{match.group(1)}.{_LAYER_NAMES[match.group(2)]}"


def _load_tokenizer(vocab: Path) -> GGUFContents:
    if not vocab.is_file():
        raise ModelFileError(
            vocab,
            "GPT-2's tokenizer file is missing; it comes from llama.cpp's models/ folder with the native build",
        )
    contents = read_gguf(vocab, arrays=_TOKENIZER_ARRAYS)
    if contents.get("tokenizer.ggml.model") != "gpt2" or contents.get("tokenizer.ggml.merges") is None:
        raise ModelFileError(vocab, "this is not GPT-2's tokenizer (no gpt2 BPE vocabulary with merges)")
    return contents


def _check_vocab(path: Path, legacy: list[bytes], tokenizer: GGUFContents) -> None:
    """Require the legacy vocabulary to be GPT-2's, token for token."""
    tokens = tokenizer.get("tokenizer.ggml.tokens")
    if len(legacy) != len(tokens):
        raise ModelFileError(
            path,
            f"the vocabulary is not GPT-2's: it has {len(legacy)} tokens, GPT-2 has {len(tokens)}; "
            "only GPT-2 models can be converted",
        )
    decoder = gpt2_byte_decoder()
    for i, (raw, token) in enumerate(zip(legacy, tokens, strict=False)):
        if raw != _token_bytes(token, decoder):
            raise ModelFileError(
                path,
                f"the vocabulary is not GPT-2's: token {i} is {raw!r}, GPT-2's is {token!r}; "
                "only GPT-2 models can be converted",
            )


def _token_bytes(token: str, decoder: dict[str, int]) -> bytes | None:
    """A GGUF GPT-2 token (byte-to-unicode text) as raw bytes; None if it is not such text."""
    try:
        return bytes(decoder[ch] for ch in token)
    except KeyError:
        return None


def _gguf_order(names: dict[str, LegacyTensorInfo], n_layer: int) -> list[str]:
    """Legacy names in the order the GGUF lists them: globals, then layer by layer."""
    order = [n for n in _GLOBAL_NAMES if n in names]
    for i in range(n_layer):
        order += [f"model/h{i}/{suffix}" for suffix in _LAYER_NAMES]
    return order


def _writer(path: Path, model: LegacyGPT2, tokenizer: GGUFContents, name: str) -> GGUFWriter:
    hp = model.hparams
    writer = GGUFWriter(path, "gpt2")
    writer.add_name(name)
    writer.add_file_type(hp.ftype)
    writer.add_quantization_version(GGML_QNT_VERSION)
    writer.add_context_length(hp.n_ctx)
    writer.add_embedding_length(hp.n_embd)
    writer.add_feed_forward_length(4 * hp.n_embd)
    writer.add_block_count(hp.n_layer)
    writer.add_head_count(hp.n_head)
    writer.add_layer_norm_eps(LAYER_NORM_EPS)
    for key, field in tokenizer.metadata.items():
        if key.startswith("tokenizer."):
            writer.add_key_value(key, field.value, field.type, sub_type=field.item_type)
    for legacy_name in _gguf_order(model.tensors, hp.n_layer):
        info = model.tensors[legacy_name]
        # numpy order is ne reversed; quantized tensors are given as rows of bytes
        _, block, block_bytes = GGML_TYPES[info.ttype]
        ne = _expected_shapes(hp)[legacy_name]
        byte_shape = (*reversed(ne[1:]), ne[0] // block * block_bytes)
        writer.add_tensor_info(
            gguf_tensor_name(legacy_name),
            byte_shape,
            np.dtype(np.uint8),
            info.nbytes,
            raw_dtype=GGMLQuantizationType(info.ttype),
        )
    return writer


def convert_gpt2_ggml_to_gguf(
    src: str | Path,
    dst: str | Path,
    *,
    vocab: str | Path | None = None,
    progress: ProgressCallback | None = None,
    cancel: CancelFlag | None = None,
) -> GGUFInfo:
    """Convert the legacy ggml GPT-2 file ``src`` to the GGUF file ``dst`` and validate it.

    ``vocab`` is llama.cpp's ``ggml-vocab-gpt-2.gguf`` (default: the one installed with the
    native libraries).  ``progress`` gets the fraction done; ``cancel.cancelled`` is polled
    between chunks and raises Cancelled.  ``dst`` appears only when complete (written to a
    temporary file beside it, then renamed); on failure or cancellation nothing is left
    behind and an existing ``dst`` is untouched.  Raises ModelFileError (bad source, not
    GPT-2's vocabulary, write failure), DiskFullError (from ``atomic_path``) or Cancelled.
    """
    src, dst = Path(src), Path(dst)
    tokenizer = _load_tokenizer(Path(vocab) if vocab is not None else default_gpt2_vocab())
    model = read_legacy_gpt2(src)
    _check_vocab(src, model.vocab, tokenizer)
    try:
        with atomic_path(dst) as tmp:
            _write(src, tmp, model, tokenizer, progress, cancel)
            info = check_gguf(tmp)
    except OSError as exc:
        raise ModelFileError(dst, f"cannot write the converted model: {exc.strerror or exc}") from None
    return dataclasses.replace(info, path=dst)


def _write(
    src: Path,
    tmp: Path,
    model: LegacyGPT2,
    tokenizer: GGUFContents,
    progress: ProgressCallback | None,
    cancel: CancelFlag | None,
) -> None:
    """Write the GGUF header, then copy each tensor's bytes from ``src`` in chunks."""
    order = _gguf_order(model.tensors, model.hparams.n_layer)
    total = sum(model.tensors[n].nbytes for n in order)
    writer = _writer(tmp, model, tokenizer, src.stem)
    try:
        writer.write_header_to_file()
        writer.write_kv_data_to_file()
        writer.write_ti_data_to_file()
        assert writer.fout is not None
        out = writer.fout[0]
        done = 0
        with src.open("rb") as fin:
            for legacy_name in order:
                info = model.tensors[legacy_name]
                writer.write_padding(out, out.tell())
                fin.seek(info.offset)
                for chunk in _chunks(src, fin, info.nbytes, cancel):
                    out.write(chunk)
                    done += len(chunk)
                    if progress is not None:
                        progress(done / total)
                writer.write_padding(out, info.nbytes)
    finally:
        writer.close()


def _chunks(src: Path, fin: BinaryIO, nbytes: int, cancel: CancelFlag | None) -> Iterator[bytes]:
    remaining = nbytes
    while remaining:
        if cancel is not None and cancel.cancelled:
            raise Cancelled("the conversion was cancelled")
        chunk = fin.read(min(_CHUNK, remaining))
        if not chunk:
            raise ModelFileError(src, "the file got shorter while it was being converted")
        remaining -= len(chunk)
        yield chunk
