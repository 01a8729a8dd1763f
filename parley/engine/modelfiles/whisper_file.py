"""Validation of whisper.cpp ggml model files before native code opens them.

whisper.cpp (1.8.5) trusts its model file: a bad ftype trips a ``GGML_ASSERT``, a corrupt length
becomes a huge allocation, an unexpected shape or a short file leaves tensors unset.  Each of
those aborts the whole process, so ``check_whisper_ggml`` walks the file the way
``whisper_model_load`` does and raises ``ModelFileError`` for anything it would not survive.

File layout (all little-endian int32 unless noted)::

    magic u32 = 0x67676d6c ("ggml")
    hparams   n_vocab n_audio_ctx n_audio_state n_audio_head n_audio_layer
              n_text_ctx n_text_state n_text_head n_text_layer n_mels ftype
    filters   n_mel n_fft, then n_mel * n_fft float32
    vocab     count, then per token: u32 length + bytes
    tensors   until end of file: n_dims, name length, ggml type, ne[0..n_dims) (ne[0] is the
              contiguous dimension), name, data

The tensor data is skipped with offsets, never read, so a check costs a few milliseconds
whatever the model size.
"""

from __future__ import annotations

import dataclasses
import mmap
import struct
from pathlib import Path

from .. import notes
from ..errors import ModelFileError
from ..formats import GGML_MAGIC, GGUF_MAGIC
from ..notes import Note
from .bounded_reader import map_readonly

QNT_VERSION_FACTOR = 1000  # ftype = quantization version * 1000 + ggml ftype
N_FFT_BINS = 201  # whisper.cpp's filter rows have 1 + WHISPER_N_FFT / 2 bins
MEL_BANDS = (80, 128)
# 51864: English-only, 51865: multilingual, 51866: large-v3 (one more language).  whisper.cpp
# derives its special token ids from n_vocab and names the missing language tokens from a
# fixed table, so any other count sends it out of bounds.
VOCAB_SIZES = (51864, 51865, 51866)
MULTILINGUAL_MIN_VOCAB = 51865
MAX_AUDIO_CTX = 1500  # 30 s of audio at 50 encoder frames per second
MAX_TEXT_CTX = 448
MAX_STATE = 4096
MAX_LAYERS = 64
MAX_TOKEN_BYTES = 1024
MAX_NAME_BYTES = 256
_U32 = struct.Struct("<I")
MODEL_SIZES = {4: "tiny", 6: "base", 12: "small", 24: "medium", 32: "large"}


@dataclasses.dataclass(frozen=True)
class GgmlType:
    """A ggml tensor type: ``block_size`` elements take ``type_size`` bytes."""

    id: int
    name: str
    block_size: int
    type_size: int

    def row_bytes(self, n: int) -> int:
        return n // self.block_size * self.type_size


def _types(*rows: tuple[int, str, int, int]) -> dict[int, GgmlType]:
    return {row[0]: GgmlType(*row) for row in rows}


# The types a whisper model file can hold: f32, f16 and every type that whisper.cpp's ftype
# table (ggml_ftype_to_ggml_type) maps to.  Sizes from ggml-common.h.
GGML_TYPES = _types(
    (0, "f32", 1, 4),
    (1, "f16", 1, 2),
    (30, "bf16", 1, 2),
    (2, "q4_0", 32, 18),
    (3, "q4_1", 32, 20),
    (6, "q5_0", 32, 22),
    (7, "q5_1", 32, 24),
    (8, "q8_0", 32, 34),
    (41, "q1_0", 128, 18),
    (39, "mxfp4", 32, 17),
    (40, "nvfp4", 64, 36),
    (10, "q2_k", 256, 84),
    (11, "q3_k", 256, 110),
    (12, "q4_k", 256, 144),
    (13, "q5_k", 256, 176),
    (14, "q6_k", 256, 210),
    (16, "iq2_xxs", 256, 66),
    (17, "iq2_xs", 256, 74),
    (18, "iq3_xxs", 256, 98),
    (19, "iq1_s", 256, 50),
    (20, "iq4_nl", 32, 18),
    (21, "iq3_s", 256, 110),
    (22, "iq2_s", 256, 82),
    (23, "iq4_xs", 256, 136),
    (29, "iq1_m", 256, 56),
)
F32, F16 = GGML_TYPES[0], GGML_TYPES[1]

# ggml_ftype -> ggml_type of the big matrices.  Any other ftype (e.g. 4, "q4_1 some f16")
# makes ggml_ftype_to_ggml_type assert, which aborts the process.
FTYPE_WEIGHT_TYPE = {
    0: 0,
    1: 1,
    2: 2,
    3: 3,
    7: 8,
    8: 6,
    9: 7,
    10: 10,
    11: 11,
    12: 12,
    13: 13,
    14: 14,
    15: 16,
    16: 17,
    17: 18,
    18: 19,
    19: 20,
    20: 21,
    21: 22,
    22: 23,
    23: 29,
    24: 30,
    25: 39,
    26: 40,
    27: 41,
}


@dataclasses.dataclass(frozen=True)
class WhisperHParams:
    n_vocab: int
    n_audio_ctx: int
    n_audio_state: int
    n_audio_head: int
    n_audio_layer: int
    n_text_ctx: int
    n_text_state: int
    n_text_head: int
    n_text_layer: int
    n_mels: int

    @property
    def multilingual(self) -> bool:
        return self.n_vocab >= MULTILINGUAL_MIN_VOCAB

    @property
    def model_size(self) -> str:
        """whisper.cpp's name for the size, from the encoder depth ("unknown" for others)."""
        return MODEL_SIZES.get(self.n_audio_layer, "unknown")


@dataclasses.dataclass(frozen=True)
class WhisperFileInfo:
    path: Path
    file_size: int
    hparams: WhisperHParams
    ftype: int  # ggml ftype with the quantization version taken off
    quant_version: int
    weight_type: str  # ggml type of the large matrices: "f16", "q5_0", ...
    n_vocab_stored: int  # tokens in the file; whisper.cpp derives the special ones
    n_tensors: int

    @property
    def model_size(self) -> str:
        return self.hparams.model_size

    @property
    def multilingual(self) -> bool:
        return self.hparams.multilingual


def expected_tensors(hp: WhisperHParams, weight_type: GgmlType) -> dict[str, tuple[tuple[int, ...], GgmlType]]:
    """Every tensor whisper.cpp creates for ``hp``: name -> (ne, padded to 4 dims; type).

    Mirrors the tensor list of ``whisper_model_load``.  Convolution kernels are f16 unless the
    whole model is f32; biases, norms and positional embeddings are always f32.
    """
    conv_type = F32 if weight_type is F32 else F16
    out: dict[str, tuple[tuple[int, ...], GgmlType]] = {}

    def add(name: str, ne: tuple[int, ...], ttype: GgmlType) -> None:
        out[name] = (ne + (1,) * (4 - len(ne)), ttype)

    def block(prefix: str, state: int) -> None:
        add(f"{prefix}.mlp_ln.weight", (state,), F32)
        add(f"{prefix}.mlp_ln.bias", (state,), F32)
        add(f"{prefix}.mlp.0.weight", (state, 4 * state), weight_type)
        add(f"{prefix}.mlp.0.bias", (4 * state,), F32)
        add(f"{prefix}.mlp.2.weight", (4 * state, state), weight_type)
        add(f"{prefix}.mlp.2.bias", (state,), F32)
        attention(prefix, "attn", state)

    def attention(prefix: str, kind: str, state: int) -> None:
        add(f"{prefix}.{kind}_ln.weight", (state,), F32)
        add(f"{prefix}.{kind}_ln.bias", (state,), F32)
        for proj in ("query", "key", "value", "out"):
            add(f"{prefix}.{kind}.{proj}.weight", (state, state), weight_type)
            if proj != "key":  # Whisper's key projections have no bias
                add(f"{prefix}.{kind}.{proj}.bias", (state,), F32)

    s = hp.n_audio_state
    add("encoder.positional_embedding", (s, hp.n_audio_ctx), F32)
    add("encoder.conv1.weight", (3, hp.n_mels, s), conv_type)
    add("encoder.conv1.bias", (1, s), F32)
    add("encoder.conv2.weight", (3, s, s), conv_type)
    add("encoder.conv2.bias", (1, s), F32)
    add("encoder.ln_post.weight", (s,), F32)
    add("encoder.ln_post.bias", (s,), F32)
    for i in range(hp.n_audio_layer):
        block(f"encoder.blocks.{i}", s)

    t = hp.n_text_state
    add("decoder.positional_embedding", (t, hp.n_text_ctx), F32)
    add("decoder.token_embedding.weight", (t, hp.n_vocab), weight_type)
    add("decoder.ln.weight", (t,), F32)
    add("decoder.ln.bias", (t,), F32)
    for i in range(hp.n_text_layer):
        block(f"decoder.blocks.{i}", t)
        attention(f"decoder.blocks.{i}", "cross_attn", t)
    return out


class _Cursor:
    """Bounds-checked reads over the mapped file; running past the end means truncation."""

    def __init__(self, path: Path, buf: mmap.mmap, size: int) -> None:
        self.path, self.buf, self.size, self.pos = path, buf, size, 0

    def need(self, n: int, what: str) -> None:
        if self.pos + n > self.size:
            raise ModelFileError(
                self.path, f"file is truncated: it ends at byte {self.size} inside {what} (needs {self.pos + n} bytes)"
            )

    def ints(self, fmt: str, what: str) -> tuple[int, ...]:
        n = struct.calcsize("<" + fmt)
        self.need(n, what)
        values = struct.unpack_from("<" + fmt, self.buf, self.pos)
        self.pos += n
        return values

    def skip(self, n: int, what: str) -> None:
        self.need(n, what)
        self.pos += n

    def take(self, n: int, what: str) -> bytes:
        self.need(n, what)
        data = self.buf[self.pos : self.pos + n]
        self.pos += n
        return data


def check_whisper_ggml(path: str | Path) -> WhisperFileInfo:
    """Validate a whisper.cpp ggml model file; raise ``ModelFileError`` saying what is wrong."""
    path = Path(path)
    buf, size = map_readonly(path)
    with buf:
        return _parse(_Cursor(path, buf, size))


def _parse(cur: _Cursor) -> WhisperFileInfo:
    _check_magic(cur)
    hp, ftype, quant_version = _read_hparams(cur)
    _check_filters(cur, hp)
    n_vocab_stored = _skip_vocab(cur, hp)
    weight_type = GGML_TYPES[FTYPE_WEIGHT_TYPE[ftype]]
    n_tensors = _walk_tensors(cur, expected_tensors(hp, weight_type))
    return WhisperFileInfo(
        path=cur.path,
        file_size=cur.size,
        hparams=hp,
        ftype=ftype,
        quant_version=quant_version,
        weight_type=weight_type.name,
        n_vocab_stored=n_vocab_stored,
        n_tensors=n_tensors,
    )


def _check_magic(cur: _Cursor) -> None:
    head = cur.buf[:4]
    if head == GGUF_MAGIC:
        raise ModelFileError(cur.path, "is a GGUF file (llama.cpp's format), not a whisper.cpp ggml speech model")
    if head != GGML_MAGIC:
        raise ModelFileError(
            cur.path,
            f"not a whisper.cpp ggml model (the file does not start with the ggml magic; first bytes {head.hex()})",
        )
    cur.pos = 4


def _read_hparams(cur: _Cursor) -> tuple[WhisperHParams, int, int]:
    values = cur.ints("11i", "the hyperparameters")
    hp = WhisperHParams(*values[:10])
    raw_ftype = values[10]
    problem = hparams_problem(hp, raw_ftype)
    if problem:
        raise ModelFileError(cur.path, f"invalid hyperparameters: {problem}")
    return hp, raw_ftype % QNT_VERSION_FACTOR, raw_ftype // QNT_VERSION_FACTOR


def hparams_problem(hp: WhisperHParams, raw_ftype: int) -> str | None:
    """Why whisper.cpp could not run a model with these hyperparameters, or None."""
    if hp.n_vocab not in VOCAB_SIZES:
        return f"n_vocab {hp.n_vocab} is not one of {', '.join(map(str, VOCAB_SIZES))}"
    bounds = {
        "n_audio_ctx": MAX_AUDIO_CTX,
        "n_text_ctx": MAX_TEXT_CTX,
        "n_audio_state": MAX_STATE,
        "n_text_state": MAX_STATE,
        "n_audio_layer": MAX_LAYERS,
        "n_text_layer": MAX_LAYERS,
        "n_audio_head": MAX_STATE,
        "n_text_head": MAX_STATE,
    }
    for field, upper in bounds.items():
        value = getattr(hp, field)
        if not 1 <= value <= upper:
            return f"{field} {value} is outside 1..{upper}"
    if hp.n_audio_state != hp.n_text_state:
        return f"n_audio_state {hp.n_audio_state} differs from n_text_state {hp.n_text_state}"
    if hp.n_audio_state % hp.n_audio_head or hp.n_text_state % hp.n_text_head:
        return "the attention heads do not divide the state size"
    if hp.n_mels not in MEL_BANDS:
        return f"n_mels {hp.n_mels} is not one of {', '.join(map(str, MEL_BANDS))}"
    if raw_ftype < 0 or raw_ftype % QNT_VERSION_FACTOR not in FTYPE_WEIGHT_TYPE:
        return f"ftype {raw_ftype} is not a type whisper.cpp can load"
    return None


def _check_filters(cur: _Cursor, hp: WhisperHParams) -> None:
    n_mel, n_fft = cur.ints("2i", "the mel filter header")
    if n_mel != hp.n_mels or n_fft != N_FFT_BINS:
        raise ModelFileError(cur.path, f"mel filter table is {n_mel} x {n_fft}, expected {hp.n_mels} x {N_FFT_BINS}")
    cur.skip(n_mel * n_fft * 4, "the mel filter table")


def _skip_vocab(cur: _Cursor, hp: WhisperHParams) -> int:
    (count,) = cur.ints("i", "the vocabulary size")
    if not 1 <= count <= hp.n_vocab:
        raise ModelFileError(cur.path, f"vocabulary has {count} tokens, expected 1..{hp.n_vocab}")
    # A tight loop: this is most of the check's time (50k tokens).
    unpack, buf, size, pos = _U32.unpack_from, cur.buf, cur.size, cur.pos
    for i in range(count):
        if pos + 4 > size:
            pos = size + 1
            break
        (length,) = unpack(buf, pos)
        if length > MAX_TOKEN_BYTES:
            raise ModelFileError(cur.path, f"vocabulary token {i} claims {length} bytes; the vocabulary is corrupt")
        pos += 4 + length
    if pos > size:
        raise ModelFileError(cur.path, Note(notes.WHISPER_TRUNCATED, size=size))
    cur.pos = pos
    return count


def _walk_tensors(cur: _Cursor, expected: dict[str, tuple[tuple[int, ...], GgmlType]]) -> int:
    seen: set[str] = set()
    while cur.pos < cur.size:
        name, ne, ttype = _read_tensor_header(cur)
        if name not in expected:
            raise ModelFileError(
                cur.path, f"unknown tensor '{name}': not part of a whisper model with these hyperparameters"
            )
        if name in seen:
            raise ModelFileError(cur.path, f"tensor '{name}' appears twice")
        seen.add(name)
        want_ne, want_type = expected[name]
        if ne != want_ne:
            raise ModelFileError(cur.path, f"tensor '{name}' has shape {_dims(ne)}, expected {_dims(want_ne)}")
        if ttype is not want_type:
            raise ModelFileError(cur.path, f"tensor '{name}' is stored as {ttype.name}, expected {want_type.name}")
        if ne[0] % ttype.block_size:
            raise ModelFileError(cur.path, f"tensor '{name}' rows of {ne[0]} do not fill whole {ttype.name} blocks")
        cur.skip(ttype.row_bytes(ne[0]) * ne[1] * ne[2] * ne[3], f"the data of tensor '{name}'")
    missing = [name for name in expected if name not in seen]
    if missing:
        raise ModelFileError(
            cur.path,
            f"file is truncated or incomplete: {len(missing)} of "
            f"{len(expected)} tensors are missing (first: "
            f"'{missing[0]}')",
        )
    return len(seen)


def _read_tensor_header(cur: _Cursor) -> tuple[str, tuple[int, ...], GgmlType]:
    start = cur.pos
    n_dims, name_len, type_id = cur.ints("3i", f"a tensor header at byte {start}")
    if not 1 <= n_dims <= 4 or not 1 <= name_len <= MAX_NAME_BYTES:
        raise ModelFileError(
            cur.path, f"corrupt tensor header at byte {start} (n_dims {n_dims}, name length {name_len})"
        )
    ne = cur.ints(f"{n_dims}i", f"a tensor header at byte {start}")
    raw_name = cur.take(name_len, f"a tensor header at byte {start}")
    try:
        name = raw_name.decode("ascii")
    except UnicodeDecodeError:
        raise ModelFileError(cur.path, f"corrupt tensor name at byte {start}") from None
    if type_id not in GGML_TYPES:
        raise ModelFileError(cur.path, f"tensor '{name}' has unknown ggml type {type_id}")
    if min(ne) < 1:
        raise ModelFileError(cur.path, f"tensor '{name}' has a non-positive dimension {list(ne)}")
    return name, ne + (1,) * (4 - n_dims), GGML_TYPES[type_id]


def _dims(ne: tuple[int, ...]) -> str:
    """ne without trailing 1s, e.g. [384, 1500]."""
    dims = list(ne)
    while len(dims) > 1 and dims[-1] == 1:
        dims.pop()
    return str(dims)
