"""Validate a GGUF model file before native code sees it.

llama.cpp trusts its input in places: a bad hyper-parameter trips a ``GGML_ASSERT`` and aborts
the whole process, and a stub architecture such as ``clip`` aborts on load.  ``check_gguf``
reads the header (magic, version, metadata, tensor table) with bounds checks on every read,
checks every tensor's data against the file size, and rejects what this llama.cpp cannot load,
each time with a :class:`~parley.engine.errors.ModelFileError` that names the file.

The header is parsed here rather than with ``gguf.GGUFReader``: that reader builds a numpy
view per array element (seconds for a 150k-token vocabulary) and trusts array lengths (a
corrupt count makes it loop for a very long time).  The ``gguf`` package still supplies the
format constants and the tensor type sizes.  Tensor data is never read, so the cost depends on
the size of the metadata, not of the file.
"""

from __future__ import annotations

import dataclasses
import math
import struct
from collections.abc import Collection
from pathlib import Path
from typing import Any

import numpy as np
from gguf.constants import (
    GGML_QUANT_SIZES,
    GGUF_DEFAULT_ALIGNMENT,
    GGUF_VERSION,
    GGMLQuantizationType,
    GGUFValueType,
)

from parley.engine import notes
from parley.engine.errors import ModelFileError
from parley.engine.formats import GGJT_MAGIC, GGMF_MAGIC, GGML_MAGIC, GGUF_MAGIC
from parley.engine.modelfiles.bounded_reader import Cursor, Truncated, map_readonly
from parley.engine.notes import Note

# ``general.architecture`` values of the pinned llama.cpp (``LLM_ARCH_NAMES`` in
# src/llama-arch.cpp), less ``clip`` (a quantize-only stub that aborts when loaded as a model)
# and ``(unknown)``.  tests/engine/test_gguf_file.py checks this against the pinned source.
SUPPORTED_ARCHITECTURES: frozenset[str] = frozenset(
    {
        "afmoe",
        "apertus",
        "arcee",
        "arctic",
        "arwkv7",
        "baichuan",
        "bailingmoe",
        "bailingmoe2",
        "bailingmoe3",
        "bert",
        "bitnet",
        "bloom",
        "chameleon",
        "chatglm",
        "codeshell",
        "cogvlm",
        "cohere2",
        "cohere2moe",
        "command-r",
        "dbrx",
        "deci",
        "deepseek",
        "deepseek2",
        "deepseek2-ocr",
        "deepseek32",
        "deepseek4",
        "dflash",
        "dots1",
        "dots3note",
        "dream",
        "eagle3",
        "ernie4_5",
        "ernie4_5-moe",
        "eurobert",
        "exaone",
        "exaone-moe",
        "exaone4",
        "falcon",
        "falcon-h1",
        "gemma",
        "gemma-embedding",
        "gemma2",
        "gemma3",
        "gemma3n",
        "gemma4",
        "gemma4-assistant",
        "glm-dsa",
        "glm4",
        "glm4moe",
        "glm5-next",
        "gpt-oss",
        "gpt2",
        "gptj",
        "gptneox",
        "granite",
        "granite_swa",
        "granitehybrid",
        "granitemoe",
        "graniteswitch",
        "grok",
        "grovemoe",
        "hrm_text",
        "hunyuan-dense",
        "hunyuan-moe",
        "hunyuan_vl",
        "hy_v3",
        "hy_v4",
        "internlm2",
        "jais",
        "jais2",
        "jamba",
        "jina-bert-v2",
        "jina-bert-v3",
        "kimi-k3",
        "kimi-linear",
        "laguna",
        "lfm2",
        "lfm2moe",
        "llada",
        "llada-moe",
        "llama",
        "llama-embed",
        "llama4",
        "maincoder",
        "mamba",
        "mamba2",
        "maple",
        "mellum",
        "mimo2",
        "minicpm",
        "minicpm3",
        "minimax-01",
        "minimax-m2",
        "minimax-m3",
        "mistral3",
        "mistral4",
        "modern-bert",
        "mpt",
        "muse-glimmer",
        "nanbeige",
        "nemotron",
        "nemotron_h",
        "nemotron_h_moe",
        "neo-bert",
        "nomic-bert",
        "nomic-bert-moe",
        "olmo",
        "olmo2",
        "olmoe",
        "openelm",
        "orion",
        "paddleocr",
        "pangu-embedded",
        "phi2",
        "phi3",
        "phimoe",
        "plamo",
        "plamo2",
        "plamo3",
        "plm",
        "pockettts",
        "qwen",
        "qwen2",
        "qwen2moe",
        "qwen2vl",
        "qwen3",
        "qwen35",
        "qwen35moe",
        "qwen3moe",
        "qwen3next",
        "qwen3tts",
        "qwen3vl",
        "qwen3vlmoe",
        "qwen4exp",
        "refact",
        "rnd1",
        "rwkv6",
        "rwkv6qwen2",
        "rwkv7",
        "seed_oss",
        "smallthinker",
        "smollm3",
        "spark2_5",
        "stablelm",
        "starcoder",
        "starcoder2",
        "step35",
        "t5",
        "t5encoder",
        "talkie",
        "wavtokenizer-dec",
        "xverse",
    }
)

# Architectures llama.cpp names but cannot load as a model, with what the file is instead.
_NOT_MODELS = {"clip": "a CLIP/vision projector (mmproj) file, not a language model"}

# Tensor types of the pinned ggml that the installed gguf package does not know yet:
# id -> (name, block size, bytes per block), from ggml/src/ggml.c and ggml-common.h.
_NEWER_GGML_TYPES: dict[int, tuple[str, int, int]] = {42: ("Q2_0", 64, 18)}

# id -> (name, elements per block, bytes per block) for every type a GGUF tensor may have.
GGML_TYPES: dict[int, tuple[str, int, int]] = {
    **{int(t): (t.name, *GGML_QUANT_SIZES[t]) for t in GGMLQuantizationType},
    **_NEWER_GGML_TYPES,
}

# Limits of the pinned ggml/llama.cpp (ggml.h, gguf.h, src/llama-hparams.h).
GGML_MAX_DIMS = 4
GGML_MAX_NAME = 64
LLAMA_MAX_LAYERS = 512
# Lengths and counts read from the file are bounded before anything is allocated or looped over
# for them: a sparse file can claim terabytes, all zeros but a header.  Real models stay far
# below these (keys are tens of bytes, chat templates tens of kilobytes, vocabularies 262k).
MAX_KEY_BYTES = 65535  # the GGUF specification's limit for a key
MAX_STRING_BYTES = 16 << 20
MAX_ARRAY_ITEMS = 1 << 24
_MIN_VERSION = 2  # GGUFv1 is no longer read by ggml

_SCALAR_FORMATS: dict[GGUFValueType, struct.Struct] = {
    GGUFValueType.UINT8: struct.Struct("<B"),
    GGUFValueType.INT8: struct.Struct("<b"),
    GGUFValueType.UINT16: struct.Struct("<H"),
    GGUFValueType.INT16: struct.Struct("<h"),
    GGUFValueType.UINT32: struct.Struct("<I"),
    GGUFValueType.INT32: struct.Struct("<i"),
    GGUFValueType.FLOAT32: struct.Struct("<f"),
    GGUFValueType.BOOL: struct.Struct("<?"),
    GGUFValueType.UINT64: struct.Struct("<Q"),
    GGUFValueType.INT64: struct.Struct("<q"),
    GGUFValueType.FLOAT64: struct.Struct("<d"),
}
_NUMPY_DTYPES: dict[GGUFValueType, str] = {
    GGUFValueType.UINT8: "<u1",
    GGUFValueType.INT8: "<i1",
    GGUFValueType.UINT16: "<u2",
    GGUFValueType.INT16: "<i2",
    GGUFValueType.UINT32: "<u4",
    GGUFValueType.INT32: "<i4",
    GGUFValueType.FLOAT32: "<f4",
    GGUFValueType.BOOL: "?",
    GGUFValueType.UINT64: "<u8",
    GGUFValueType.INT64: "<i8",
    GGUFValueType.FLOAT64: "<f8",
}
_INTEGER_TYPES = frozenset(
    {
        GGUFValueType.UINT8,
        GGUFValueType.INT8,
        GGUFValueType.UINT16,
        GGUFValueType.INT16,
        GGUFValueType.UINT32,
        GGUFValueType.INT32,
        GGUFValueType.UINT64,
        GGUFValueType.INT64,
    }
)
_U32 = struct.Struct("<I")
_U64 = struct.Struct("<Q")
_I64 = struct.Struct("<q")

# First bytes of files people mistake for GGUF models, and what they are.
_KNOWN_MAGICS: dict[bytes, str] = {
    GGML_MAGIC: "a legacy ggml file (e.g. a whisper.cpp model or an old ggml GPT-2 model)",
    GGMF_MAGIC: "a legacy llama.cpp GGMF file",
    GGJT_MAGIC: "a legacy llama.cpp GGJT file",
    b"\x89PNG": "a PNG image",
    b"PK\x03\x04": "a ZIP archive (e.g. a PyTorch checkpoint)",
}


@dataclasses.dataclass(frozen=True)
class GGUFField:
    """One metadata value.  ``value`` is None for an array that was not asked for."""

    type: GGUFValueType
    value: Any
    item_type: GGUFValueType | None = None  # arrays only
    count: int = 1  # arrays: number of items


@dataclasses.dataclass(frozen=True)
class GGUFTensor:
    """One entry of the tensor table; ``ne`` is in ggml order (fastest-varying first)."""

    name: str
    ne: tuple[int, ...]
    ggml_type: int
    offset: int  # absolute position of the data in the file
    nbytes: int

    @property
    def n_elements(self) -> int:
        return math.prod(self.ne)

    @property
    def type_name(self) -> str:
        return GGML_TYPES[self.ggml_type][0]


@dataclasses.dataclass(frozen=True)
class GGUFContents:
    """The parsed, bounds-checked header of a GGUF file."""

    path: Path
    version: int
    file_size: int
    alignment: int
    data_offset: int
    metadata: dict[str, GGUFField]
    tensors: list[GGUFTensor]

    def get(self, key: str, default: Any = None) -> Any:
        field = self.metadata.get(key)
        return default if field is None or field.value is None else field.value


@dataclasses.dataclass(frozen=True)
class GGUFInfo:
    """What the rest of Parley needs to know about a model file that passed validation."""

    path: Path
    architecture: str
    name: str | None
    n_tensors: int
    n_params: int
    file_size: int
    context_length: int | None
    chat_template: str | None
    file_type: int | None
    has_vocab: bool
    embedding: bool = False  # an embedding model (a pooling of its own, or an encoder), not a chat model


def _printable(text: str, limit: int = 80) -> str:
    """A name from the file as it can be shown in one line of a message (a corrupt file's names
    can hold line breaks and control characters)."""
    shown = "".join(c if c.isprintable() else "?" for c in text[:limit])
    return shown + ("..." if len(text) > limit else "")


def _string(path: Path, cur: Cursor, limit: int, what: str) -> str:
    """A GGUF string: its u64 length, then UTF-8 bytes (undecodable ones replaced).  A length
    over ``limit`` is refused before the bytes are copied and decoded."""
    n = cur.unpack(_U64)
    start = cur.skip(n)
    if n > limit:
        raise ModelFileError(path, f"the file is corrupt: {what} claims {n} bytes, more than the {limit} allowed")
    return cur.buf[start : start + n].decode("utf-8", errors="replace")


def read_gguf(path: str | Path, *, arrays: Collection[str] = (), raw_arrays: Collection[str] = ()) -> GGUFContents:
    """Parse and check the header of a GGUF file without reading any tensor data.

    Scalar metadata is always decoded; array values only for the keys in ``arrays`` (numbers
    as lists, strings as ``str`` with undecodable bytes replaced) or ``raw_arrays`` (strings
    as ``bytes``), the others keep their type and length.  Raises ModelFileError for anything
    ggml would refuse or that runs past the end of the file.
    """
    path = Path(path)
    buf, size = map_readonly(path)
    wanted = {key: "text" for key in arrays} | {key: "bytes" for key in raw_arrays}
    try:
        return _parse(path, buf, size, wanted)
    finally:
        buf.close()


def _parse(path: Path, buf: Any, size: int, arrays: dict[str, str]) -> GGUFContents:
    cur = Cursor(buf, size)
    section = "header"
    try:
        _check_magic(path, buf, size)
        cur.skip(4)
        version = _check_version(path, cur.unpack(_U32))
        n_tensors, n_kv = cur.unpack(_I64), cur.unpack(_I64)
        if n_tensors < 0 or n_kv < 0 or n_tensors * 24 + n_kv * 12 > size - cur.pos:
            raise ModelFileError(
                path,
                f"the file is truncated or its header is corrupt: it claims {n_tensors} tensors "
                f"and {n_kv} metadata keys, more than its size can hold",
            )
        metadata: dict[str, GGUFField] = {}
        for i in range(n_kv):
            section = f"metadata (entry {i + 1} of {n_kv})"
            key, field = _read_kv(path, cur, arrays)
            if key in metadata:
                raise ModelFileError(path, f"the metadata is corrupt: key '{_printable(key)}' appears twice")
            metadata[key] = field
        alignment = _alignment(path, metadata)
        tensors: list[tuple[str, tuple[int, ...], int, int]] = []
        names: set[str] = set()
        for i in range(n_tensors):
            section = f"tensor table (tensor {i + 1} of {n_tensors})"
            entry = _read_tensor_info(path, cur)
            if entry[0] in names:
                raise ModelFileError(
                    path, f"the tensor table is corrupt: tensor '{_printable(entry[0])}' appears twice"
                )
            names.add(entry[0])
            tensors.append(entry)
        data_offset = -(-cur.pos // alignment) * alignment
        if n_tensors > 0 and data_offset > size:
            raise Truncated
    except Truncated:
        raise ModelFileError(
            path,
            Note(notes.GGUF_TRUNCATED, section=section, size=size),
        ) from None
    placed = _place_tensors(path, tensors, data_offset, alignment, size)
    return GGUFContents(path, version, size, alignment, data_offset, metadata, placed)


def _check_magic(path: Path, buf: Any, size: int) -> None:
    head = bytes(buf[:4])
    if head == GGUF_MAGIC:
        if size < 24:
            raise Truncated
        return
    known = _KNOWN_MAGICS.get(head)
    what = known if known is not None else f"its first bytes are {head!r}, not 'GGUF'"
    raise ModelFileError(path, Note(notes.NOT_GGUF, what=what))


def _check_version(path: Path, version: int) -> int:
    if version & 0xFFFF == 0 and version != 0:
        raise ModelFileError(path, "this is a big-endian GGUF file; only little-endian files can be loaded")
    if version == 1:
        raise ModelFileError(
            path,
            "GGUF version 1 is no longer supported by llama.cpp; convert the model again",
        )
    if version < _MIN_VERSION or version > GGUF_VERSION:
        raise ModelFileError(
            path,
            f"unsupported GGUF version {version} (this llama.cpp reads versions {_MIN_VERSION} to {GGUF_VERSION})",
        )
    return version


def _value_type(path: Path, raw: int, key: str) -> GGUFValueType:
    try:
        return GGUFValueType(raw)
    except ValueError:
        raise ModelFileError(path, f"the metadata is corrupt: key '{_printable(key)}' has unknown type {raw}") from None


def _read_kv(path: Path, cur: Cursor, arrays: dict[str, str]) -> tuple[str, GGUFField]:
    key = _string(path, cur, MAX_KEY_BYTES, "a metadata key")
    if not key:
        raise ModelFileError(path, "the metadata is corrupt: a key is empty")
    vtype = _value_type(path, cur.unpack(_U32), key)
    if vtype == GGUFValueType.STRING:
        return key, GGUFField(vtype, _string(path, cur, MAX_STRING_BYTES, f"the value of '{_printable(key)}'"))
    if vtype != GGUFValueType.ARRAY:
        return key, GGUFField(vtype, cur.unpack(_SCALAR_FORMATS[vtype]))
    item_type = _value_type(path, cur.unpack(_U32), key)
    count = cur.unpack(_U64)
    if item_type == GGUFValueType.ARRAY:
        raise ModelFileError(path, f"the metadata is corrupt: key '{_printable(key)}' is an array of arrays")
    _check_count(path, cur, key, item_type, count)
    value = _read_array(cur, item_type, count, arrays.get(key))
    return key, GGUFField(vtype, value, item_type, count)


def _check_count(path: Path, cur: Cursor, key: str, item_type: GGUFValueType, count: int) -> None:
    """An array the rest of the file cannot hold is a truncation; one it could hold (a sparse
    file) but that no model has is refused before a list that long is built or walked."""
    item_bytes = 8 if item_type == GGUFValueType.STRING else _SCALAR_FORMATS[item_type].size
    if count * item_bytes > cur.size - cur.pos:
        raise Truncated
    if count > MAX_ARRAY_ITEMS:
        raise ModelFileError(
            path,
            f"the metadata is corrupt: key '{_printable(key)}' claims {count} items, "
            f"more than the {MAX_ARRAY_ITEMS} allowed",
        )


def _read_array(cur: Cursor, item_type: GGUFValueType, count: int, keep: str | None) -> list[Any] | None:
    """The array's values when ``keep`` ("text": strings decoded, "bytes": raw), else None."""
    if item_type != GGUFValueType.STRING:
        start = cur.skip(count * _SCALAR_FORMATS[item_type].size)
        if not keep:
            return None
        scalars: list[Any] = np.frombuffer(cur.buf, _NUMPY_DTYPES[item_type], count, start).tolist()
        return scalars
    if count * 8 > cur.size - cur.pos:  # each string needs at least its 8-byte length
        raise Truncated
    # The hot loop of the parser (vocabularies of 250k tokens and as many merges): inlined.
    buf, pos, size = cur.buf, cur.pos, cur.size
    values: list[Any] | None = [] if keep else None
    text = keep == "text"
    for _ in range(count):
        if pos + 8 > size:
            raise Truncated
        end = pos + 8 + _U64.unpack_from(buf, pos)[0]
        if end > size:
            raise Truncated
        if values is not None:
            values.append(buf[pos + 8 : end].decode("utf-8", errors="replace") if text else buf[pos + 8 : end])
        pos = end
    cur.pos = pos
    return values


def _alignment(path: Path, metadata: dict[str, GGUFField]) -> int:
    field = metadata.get("general.alignment")
    if field is None:
        return GGUF_DEFAULT_ALIGNMENT
    if field.type != GGUFValueType.UINT32 or field.value == 0 or field.value & (field.value - 1):
        raise ModelFileError(
            path,
            "the metadata is corrupt: general.alignment is not a power of two (uint32)",
        )
    return int(field.value)


def _read_tensor_info(path: Path, cur: Cursor) -> tuple[str, tuple[int, ...], int, int]:
    name = _string(path, cur, MAX_KEY_BYTES, "a tensor name")
    if len(name.encode("utf-8")) >= GGML_MAX_NAME:
        raise ModelFileError(path, f"the tensor table is corrupt: tensor name '{_printable(name)}' is too long")
    n_dims = cur.unpack(_U32)
    if n_dims > GGML_MAX_DIMS:
        raise ModelFileError(path, f"the tensor table is corrupt: tensor '{_printable(name)}' has {n_dims} dimensions")
    ne = tuple(cur.unpack(_I64) for _ in range(n_dims))
    if any(n < 0 for n in ne) or math.prod(ne) >= 2**63:
        raise ModelFileError(path, f"the tensor table is corrupt: tensor '{_printable(name)}' has shape {list(ne)}")
    ggml_type = cur.unpack(_U32)
    if ggml_type not in GGML_TYPES:
        raise ModelFileError(
            path,
            f"tensor '{_printable(name)}' has type {ggml_type}, which this llama.cpp does not know",
        )
    block = GGML_TYPES[ggml_type][1]
    if ne and ne[0] % block:
        raise ModelFileError(
            path,
            f"the tensor table is corrupt: tensor '{_printable(name)}' has rows of {ne[0]} elements, "
            f"not a multiple of the {GGML_TYPES[ggml_type][0]} block size {block}",
        )
    return name, ne, ggml_type, cur.unpack(_U64)


def _place_tensors(
    path: Path,
    entries: list[tuple[str, tuple[int, ...], int, int]],
    data_offset: int,
    alignment: int,
    size: int,
) -> list[GGUFTensor]:
    """Check the tensor offsets the way ggml does (packed, aligned, in table order) and that
    every tensor's data lies inside the file."""
    tensors = []
    expected = 0
    for name, ne, ggml_type, offset in entries:
        _, block, block_bytes = GGML_TYPES[ggml_type]
        nbytes = math.prod(ne) // block * block_bytes
        if offset != expected:
            raise ModelFileError(
                path,
                f"the tensor table is corrupt: tensor '{_printable(name)}' has data offset {offset}, "
                f"expected {expected}",
            )
        end = data_offset + offset + nbytes
        if end > size:
            raise ModelFileError(
                path,
                f"the file is truncated: tensor '{_printable(name)}' needs bytes up to {end} but the file has {size}",
            )
        tensors.append(GGUFTensor(name, ne, ggml_type, data_offset + offset, nbytes))
        expected += -(-nbytes // alignment) * alignment
    return tensors


def check_gguf(path: str | Path) -> GGUFInfo:
    """Validate ``path`` as a model this llama.cpp can load; raise ModelFileError if it is not."""
    contents = read_gguf(path, raw_arrays=(TOKENS_KEY,))
    path = contents.path
    arch = _architecture(contents)
    if not contents.tensors:
        raise ModelFileError(
            path,
            "the file has no tensors: it holds only a vocabulary/tokenizer (vocab-only GGUF), not a model",
        )
    _check_hparams(contents, arch)
    _check_vocab(contents)
    tokens = contents.metadata.get("tokenizer.ggml.tokens")
    return GGUFInfo(
        path=path,
        architecture=arch,
        name=_optional(contents, "general.name", str),
        n_tensors=len(contents.tensors),
        n_params=sum(t.n_elements for t in contents.tensors),
        file_size=contents.file_size,
        context_length=_optional(contents, f"{arch}.context_length", int),
        chat_template=_optional(contents, "tokenizer.chat_template", str),
        file_type=_optional(contents, "general.file_type", int),
        has_vocab=tokens is not None and tokens.type == GGUFValueType.ARRAY and tokens.count > 0,
        embedding=_is_embedding(contents, arch),
    )


def check_chat_gguf(path: str | Path) -> GGUFInfo:
    """``check_gguf``, and refuse an embedding model: it loads, but as a chat model it only
    strings tokens together (an encoder has nothing to generate with)."""
    info = check_gguf(path)
    if info.embedding:
        raise ModelFileError(info.path, Note(notes.EMBEDDING_NOT_CHAT))
    return info


# Architectures that only encode (BERT and its kin): embedding models whatever their file says
ENCODERS = frozenset(
    {"bert", "nomic-bert", "nomic-bert-moe", "jina-bert-v2", "jina-bert-v3", "modern-bert", "neo-bert", "eurobert"}
)
POOLINGS = (1, 2, 3)  # llama.cpp's mean, cls and last: the poolings that give an embedding (rank is a reranker's)


def _is_embedding(contents: GGUFContents, arch: str) -> bool:
    """Whether the file is an embedding model: it names a pooling that gives one (converters
    write it for embedding models only; a reranker's rank pooling is not one), or its
    architecture only encodes."""
    pooling = contents.get(f"{arch}.pooling_type")
    if isinstance(pooling, int) and not isinstance(pooling, bool):
        return pooling in POOLINGS or (pooling == 0 and arch in ENCODERS)
    return arch in ENCODERS


def _architecture(contents: GGUFContents) -> str:
    path = contents.path
    arch = contents.get("general.architecture")
    if not isinstance(arch, str) or not arch:
        raise ModelFileError(path, "the metadata has no general.architecture, so this is not a usable model")
    if arch in _NOT_MODELS:
        raise ModelFileError(path, f"this is {_NOT_MODELS[arch]}")
    kind = contents.get("general.type", "model")
    if kind != "model":
        raise ModelFileError(
            path,
            f"this is a GGUF file of type '{kind}' (for architecture '{arch}'), not a model",
        )
    if arch not in SUPPORTED_ARCHITECTURES:
        raise ModelFileError(path, f"architecture '{arch}' is not supported by this version of llama.cpp")
    return arch


def _check_hparams(contents: GGUFContents, arch: str) -> None:
    """Reject values that make llama.cpp abort (GGML_ASSERT) instead of reporting an error."""
    key = f"{arch}.block_count"
    field = contents.metadata.get(key)
    if field is None or field.type not in _INTEGER_TYPES:
        raise ModelFileError(
            contents.path,
            f"the metadata has no integer {key}, so the model cannot be loaded",
        )
    if not 0 < field.value <= LLAMA_MAX_LAYERS:
        raise ModelFileError(
            contents.path,
            f"{key} is {field.value}; llama.cpp accepts 1 to {LLAMA_MAX_LAYERS} layers",
        )


TOKENS_KEY = "tokenizer.ggml.tokens"


def _check_vocab(contents: GGUFContents) -> None:
    """Reject a vocabulary that makes llama.cpp's vocabulary loader abort: it maps every token's
    text to its id and asserts that no two tokens are the same (an empty token counts as
    ``[EMPTY_<id>]``, as llama.cpp renames it)."""
    field = contents.metadata.get(TOKENS_KEY)
    if field is None or field.type != GGUFValueType.ARRAY or field.item_type != GGUFValueType.STRING:
        return  # llama.cpp reports a missing or mistyped vocabulary itself
    tokens = [t or f"[EMPTY_{i}]".encode() for i, t in enumerate(field.value)]
    if len(set(tokens)) != len(tokens):
        seen: set[bytes] = set()
        for duplicate in tokens:  # the first token equal to an earlier one
            if duplicate in seen:
                break
            seen.add(duplicate)
        raise ModelFileError(
            contents.path,
            f"the vocabulary is corrupt: token {duplicate.decode('utf-8', 'replace')!r} appears twice",
        )


def _optional(contents: GGUFContents, key: str, kind: type) -> Any:
    """The value of ``key`` if present and of the right kind (int excludes bool), else None."""
    field = contents.metadata.get(key)
    if field is None or field.type == GGUFValueType.ARRAY:
        return None
    if kind is int:
        return int(field.value) if field.type in _INTEGER_TYPES else None
    return field.value if isinstance(field.value, kind) else None
