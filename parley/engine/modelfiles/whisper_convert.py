"""Conversion of CTranslate2 Whisper models (faster-whisper's format) to whisper.cpp ggml files.

A CTranslate2 Whisper folder holds ``model.bin`` (the weights, possibly split into
``model.bin.part1``, ``model.bin.part2``, ...), ``config.json`` and ``vocabulary.txt`` (or
``vocabulary.json``).  The weights map one to one onto whisper.cpp's tensors once the fused
projections are split:

- self-attention ``linear_0`` stacks query, key and value along the output rows;
- cross-attention ``linear_0`` is the query and ``linear_1`` stacks key and value;
- the key rows of the fused biases are dropped: whisper.cpp has no key bias, and a key bias
  only adds the same number to every score of a query, which softmax cancels.

Both formats store matrices row-major as [out, in], which is ggml's [in, out] with ``ne[0]``
contiguous, so a tensor's bytes carry over unchanged and are streamed in chunks.  As with
whisper.cpp's own converter, matrices are written as f16 and biases, norms, convolution
biases and positional embeddings as f32.  The mel filter table, which CTranslate2 does not
ship, comes from ``mel.mel_filters``.

``ensure_converted`` keeps one converted copy per model in a cache folder and rebuilds it when
the source changed or the copy is damaged.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import os
import re
import struct
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from ..atomic import atomic_path, atomic_write
from ..audio.mel import mel_filters
from ..backend.cancel import CancelFlag
from ..errors import Cancelled, ModelFileError, UntrustedFileError
from ..formats import GGML_MAGIC_U32
from ..untrusted import is_regular_file, load_json, parse_json, read_bytes
from .whisper_file import WhisperFileInfo, WhisperHParams, check_whisper_ggml, hparams_problem

ProgressCallback = Callable[[float], None]

CT2_BINARY_VERSIONS = (4, 5, 6)  # same variable layout; Whisper models are written as v6
CT2_DTYPES: dict[int, np.dtype[Any]] = {
    0: np.dtype("<f4"),
    1: np.dtype("i1"),
    2: np.dtype("<i2"),
    3: np.dtype("<i4"),
    4: np.dtype("<f2"),
    5: np.dtype("<u2"),
}  # 5 is bfloat16, kept as raw bits
BF16 = 5
CHUNK_BYTES = 8 << 20  # copy granularity: bounds memory, paces progress/cancel
FINGERPRINT_BYTES = 1 << 20
MAX_VOCABULARY_BYTES = 16 << 20  # Whisper's is under 1 MB
MAX_SIDECAR_BYTES = 1 << 20
FTYPE_MOSTLY_F16 = 1
GGML_F32, GGML_F16 = 0, 1
EOT_TOKEN = "<|endoftext|>"
CACHE_FORMAT = 1  # bump when the converter's output changes
_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_PART_RE = re.compile(r"\.part(\d+)$")


# ---------------------------------------------------------------------------------------------
# Reading CTranslate2 models


@dataclasses.dataclass(frozen=True)
class Ct2Source:
    """The files of one CTranslate2 model: weight parts in order, and the vocabulary."""

    parts: tuple[Path, ...]
    vocabulary: Path

    @property
    def files(self) -> tuple[Path, ...]:
        return self.parts + (self.vocabulary,)


@dataclasses.dataclass(frozen=True)
class _Variable:
    shape: tuple[int, ...]
    dtype: int
    offset: int  # in the concatenation of the parts
    nbytes: int

    @property
    def rows(self) -> int:
        return self.shape[0] if self.shape else 1

    @property
    def row_bytes(self) -> int:
        return self.nbytes // self.rows


def find_ct2_source(source: Path | Sequence[Path]) -> Ct2Source:
    """Locate the weight parts and the vocabulary of a CTranslate2 model.

    ``source`` is a model folder, or a list of folders and/or weight files whose weights are
    concatenated in order (``model.bin.partN`` files are put in N order and must be complete).
    The vocabulary is looked up in every folder involved.
    """
    entries = [Path(source)] if isinstance(source, (str, os.PathLike)) else [Path(p) for p in source]
    if not entries:
        raise ModelFileError(Path("."), "no CTranslate2 model given")
    parts: list[Path] = []
    folders: list[Path] = []
    for entry in entries:
        if entry.is_dir():
            folders.append(entry)
            parts.extend(_weights_in(entry))
        elif entry.is_file():
            folders.append(entry.parent)
            parts.append(entry)
        else:
            raise ModelFileError(entry, "not found")
    if not parts:
        raise ModelFileError(entries[0], "no model.bin (or model.bin.partN) in this folder")
    return Ct2Source(parts=_order_parts(parts), vocabulary=_find_vocabulary(folders, parts[0]))


def _weights_in(folder: Path) -> list[Path]:
    single = folder / "model.bin"
    if single.is_file():
        return [single]
    parts = sorted(folder.glob("model.bin.part*"))
    for part in parts:  # opening a FIFO would block the conversion for ever
        if not is_regular_file(part):
            raise ModelFileError(part, "not a regular file, so not a model part")
    return parts


def _order_parts(parts: list[Path]) -> tuple[Path, ...]:
    numbers = [_PART_RE.search(p.name) for p in parts]
    if not all(numbers):
        return tuple(parts)
    ordered = sorted(zip((int(m.group(1)) for m in numbers if m), parts, strict=False))
    for expected, (number, path) in enumerate(ordered, start=1):
        if number != expected:
            raise ModelFileError(path, f"model part {expected} is missing (found part {number})")
    return tuple(path for _, path in ordered)


def _find_vocabulary(folders: list[Path], weights: Path) -> Path:
    for folder in folders:
        for name in ("vocabulary.json", "vocabulary.txt"):
            if (folder / name).is_file():
                return folder / name
    raise ModelFileError(weights.parent, "no vocabulary.txt or vocabulary.json next to the CTranslate2 model")


class _PartsReader:
    """The weight parts read as one byte stream."""

    def __init__(self, parts: tuple[Path, ...]) -> None:
        self.parts = parts
        self._files: list[io.BufferedReader] = []
        self._starts: list[int] = []
        size = 0
        try:
            for part in parts:
                f = open(part, "rb")
                self._files.append(f)
                self._starts.append(size)
                size += os.fstat(f.fileno()).st_size
        except OSError as e:
            self.close()
            raise ModelFileError(part, f"cannot be read: {e.strerror or e}") from None
        self.size = size

    def close(self) -> None:
        for f in self._files:
            f.close()

    def __enter__(self) -> _PartsReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def read(self, offset: int, n: int) -> bytearray:
        """Exactly ``n`` bytes from ``offset``, crossing part boundaries as needed."""
        if offset + n > self.size:
            raise ModelFileError(self.parts[-1], "CTranslate2 model is truncated (a part may be missing or incomplete)")
        out = bytearray(n)
        view = memoryview(out)
        done = 0
        while done < n:
            index = max(i for i, start in enumerate(self._starts) if start <= offset + done)
            f = self._files[index]
            f.seek(offset + done - self._starts[index])
            got = f.readinto(view[done:])
            if not got:
                raise ModelFileError(self.parts[index], "changed size while being read")
            done += got
        return out


class Ct2Model:
    """Variable index of a CTranslate2 ``model.bin``; the data stays on disk until read."""

    def __init__(self, reader: _PartsReader) -> None:
        self.reader = reader
        self.variables: dict[str, _Variable] = {}
        self.aliases: dict[str, str] = {}
        self._pos = 0
        self._parse()

    def _bad(self, problem: str) -> ModelFileError:
        return ModelFileError(self.reader.parts[0], problem)

    def _unpack(self, fmt: str) -> tuple[int, ...]:
        n = struct.calcsize("<" + fmt)
        values = struct.unpack("<" + fmt, self.reader.read(self._pos, n))
        self._pos += n
        return values

    def _string(self) -> str:
        (length,) = self._unpack("H")
        raw = self.reader.read(self._pos, length)
        self._pos += length
        if not raw or raw[-1] != 0:
            raise self._bad("not a CTranslate2 model (malformed string)")
        return raw[:-1].decode("utf-8", errors="replace")

    def _parse(self) -> None:
        if self.reader.size < 4:
            raise self._bad("not a CTranslate2 model (file too short)")
        (version,) = self._unpack("I")
        if version not in CT2_BINARY_VERSIONS:
            raise self._bad(f"not a supported CTranslate2 model (binary version {version})")
        spec = self._string()
        self._unpack("I")  # spec revision: the variable names below are what matters
        if spec != "WhisperSpec":
            raise self._bad(f"is a CTranslate2 '{spec}' model, not a Whisper model")
        (count,) = self._unpack("I")
        for _ in range(count):
            name = self._string()
            (rank,) = self._unpack("B")
            shape = self._unpack(f"{rank}I")
            dtype, nbytes = self._unpack("BI")
            if dtype not in CT2_DTYPES:
                raise self._bad(f"variable '{name}' has unknown data type {dtype}")
            if nbytes != int(np.prod(shape, dtype=np.int64)) * CT2_DTYPES[dtype].itemsize:
                raise self._bad(f"variable '{name}' has {nbytes} bytes for shape {list(shape)}")
            self.variables[name] = _Variable(shape, dtype, self._pos, nbytes)
            self._pos += nbytes
        (n_aliases,) = self._unpack("I")
        for _ in range(n_aliases):
            alias = self._string()
            self.aliases[alias] = self._string()
        if self._pos != self.reader.size:
            raise self._bad(
                f"CTranslate2 model has {self.reader.size - self._pos} unexpected "
                "bytes at the end (wrong or extra part?)"
            )

    def get(self, name: str) -> _Variable:
        target = self.aliases.get(name, name)
        if target not in self.variables and name.endswith("_scale"):
            base = name[: -len("_scale")]
            target = self.aliases.get(base, base) + "_scale"
        if target not in self.variables:
            raise self._bad(f"not a supported CTranslate2 Whisper model: variable '{name}' is missing")
        return self.variables[target]

    def has(self, name: str) -> bool:
        try:
            self.get(name)
        except ModelFileError:
            return False
        return True

    def scalar(self, name: str) -> int:
        var = self.get(name)
        return int(np.frombuffer(self.reader.read(var.offset, var.nbytes), CT2_DTYPES[var.dtype])[0])

    def count_layers(self, stack: str) -> int:
        n = 0
        while self.has(f"{stack}/layer_{n}/ffn/linear_0/weight"):
            n += 1
        return n

    def rows_as(self, name: str, start: int, stop: int, out: np.dtype) -> np.ndarray:
        """Rows [start, stop) of a variable, flattened and converted to ``out``.

        int8/int16 weights are dequantized with their ``_scale`` (CTranslate2 stores
        ``round(w * scale)``, one scale per row for int8, one for the tensor for int16).
        """
        var = self.get(name)
        raw = self.reader.read(var.offset + start * var.row_bytes, (stop - start) * var.row_bytes)
        data = np.frombuffer(raw, CT2_DTYPES[var.dtype])
        if var.dtype == BF16:
            data = (data.astype(np.uint32) << 16).view(np.float32)
        elif data.dtype.kind == "i":
            scale = self._scale(name, var, start, stop)
            data = (data.reshape(stop - start, -1) / scale).reshape(-1)
        return data.astype(out, copy=False)

    def _scale(self, name: str, var: _Variable, start: int, stop: int) -> np.ndarray:
        scale = self.get(name + "_scale")
        values = np.frombuffer(self.reader.read(scale.offset, scale.nbytes), CT2_DTYPES[scale.dtype]).astype(np.float32)
        if values.size == 1:
            return values.reshape(1, 1)
        if values.size != var.rows:
            raise self._bad(f"variable '{name}_scale' does not match '{name}'")
        return values[start:stop, None]


def read_vocabulary(path: Path) -> list[str]:
    """Tokens of ``vocabulary.txt`` (one per line) or ``vocabulary.json`` (a JSON list), read
    as untrusted: a regular file of at most MAX_VOCABULARY_BYTES, a flat JSON list."""
    try:
        data = read_bytes(path, MAX_VOCABULARY_BYTES)
        if path.suffix == ".json":
            tokens = parse_json(data, what=str(path), max_depth=1)
            if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
                raise ModelFileError(path, "is not a JSON list of tokens")
            return tokens
        text = data.decode("utf-8")
    except UntrustedFileError as e:
        raise ModelFileError(path, f"cannot be read: {str(e).removeprefix(f'{path}: ')}") from None
    except UnicodeDecodeError as e:
        raise ModelFileError(path, f"cannot be read: {e}") from None
    tokens = text.split("\n")  # not splitlines(): tokens may contain other line separators
    if tokens and tokens[-1] == "":
        tokens.pop()
    return tokens


def _byte_decoder() -> dict[int, int]:
    """``str.translate`` table undoing GPT-2's byte-to-unicode map of byte-level BPE tokens.

    Printable Latin-1 bytes stand for themselves; the other 68 bytes were moved, in order, to
    code points 256 and up so every byte has a visible character.  Characters no byte maps to
    become U+FFFF, which the Latin-1 encoding after the translation rejects.
    """
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    table = {b: b for b in printable}
    moved = [b for b in range(256) if b not in set(printable)]
    table.update((256 + i, b) for i, b in enumerate(moved))
    table.update((b, 0xFFFF) for b in moved)
    return table


def base_vocabulary(tokens: list[str], hp: WhisperHParams, path: Path) -> list[bytes]:
    """The byte strings of the BPE tokens, i.e. every token before ``<|endoftext|>``.

    whisper.cpp stores only these and derives the special tokens from n_vocab; its token ids
    assume end-of-text at 50256 (English-only) or 50257 (multilingual, after an empty token).
    """
    if len(tokens) != hp.n_vocab:
        raise ModelFileError(path, f"has {len(tokens)} tokens but the model has {hp.n_vocab}")
    expected_eot = 50256 + int(hp.multilingual)
    if tokens[expected_eot] != EOT_TOKEN:
        raise ModelFileError(path, f"token {expected_eot} is not {EOT_TOKEN}: not a Whisper vocabulary")
    decoder = _byte_decoder()
    try:
        return [token.translate(decoder).encode("latin-1") for token in tokens[:expected_eot]]
    except UnicodeEncodeError as e:
        raise ModelFileError(path, f"token {e.object!r} is not byte-level BPE") from None


# ---------------------------------------------------------------------------------------------
# Mapping onto whisper.cpp tensors


@dataclasses.dataclass(frozen=True)
class _Tensor:
    """One whisper.cpp tensor: rows [start, stop) of a CTranslate2 variable."""

    name: str
    source: str
    start: int
    stop: int
    ne: tuple[int, ...]
    ggml_type: int

    @property
    def nbytes(self) -> int:
        return int(np.prod(self.ne)) * (4 if self.ggml_type == GGML_F32 else 2)


def ct2_hparams(model: Ct2Model) -> WhisperHParams:
    conv1 = model.get("encoder/conv1/weight").shape  # [state, n_mels, 3]
    return WhisperHParams(
        n_vocab=model.get("decoder/embeddings/weight").shape[0],
        n_audio_ctx=model.get("encoder/position_encodings/encodings").shape[0],
        n_audio_state=conv1[0],
        n_audio_head=model.scalar("encoder/num_heads"),
        n_audio_layer=model.count_layers("encoder"),
        n_text_ctx=model.get("decoder/position_encodings/encodings").shape[0],
        n_text_state=model.get("decoder/embeddings/weight").shape[1],
        n_text_head=model.scalar("decoder/num_heads"),
        n_text_layer=model.count_layers("decoder"),
        n_mels=conv1[1],
    )


def _plan(model: Ct2Model, hp: WhisperHParams) -> list[_Tensor]:
    """Every whisper.cpp tensor as a row range of a CTranslate2 variable.

    Types follow whisper.cpp's converter: f32 for 1-D tensors and positional embeddings, f16
    for the matrices and convolution kernels.
    """
    plan: list[_Tensor] = []

    def add(name: str, source: str, part: int = 0, of: int = 1) -> None:
        var = model.get(source)
        rows = var.rows // of
        shape = (rows, *var.shape[1:])
        f32 = len(shape) < 2 or name.endswith("positional_embedding")
        ne = tuple(reversed(shape))
        if name.endswith(("conv1.bias", "conv2.bias")):
            ne = (1, rows)  # whisper.cpp broadcasts them as [1, state]
        plan.append(_Tensor(name, source, part * rows, (part + 1) * rows, ne, GGML_F32 if f32 else GGML_F16))

    def norm(name: str, source: str) -> None:
        add(f"{name}.weight", f"{source}/gamma")
        add(f"{name}.bias", f"{source}/beta")

    def linear(name: str, source: str, part: int = 0, of: int = 1, bias: bool = True) -> None:
        add(f"{name}.weight", f"{source}/weight", part, of)
        if bias:
            add(f"{name}.bias", f"{source}/bias", part, of)

    def attention(name: str, source: str, cross: bool) -> None:
        norm(f"{name}_ln", f"{source}/layer_norm")
        if cross:
            linear(f"{name}.query", f"{source}/linear_0")
            linear(f"{name}.key", f"{source}/linear_1", 0, 2, bias=False)
            linear(f"{name}.value", f"{source}/linear_1", 1, 2)
            linear(f"{name}.out", f"{source}/linear_2")
        else:
            linear(f"{name}.query", f"{source}/linear_0", 0, 3)
            linear(f"{name}.key", f"{source}/linear_0", 1, 3, bias=False)
            linear(f"{name}.value", f"{source}/linear_0", 2, 3)
            linear(f"{name}.out", f"{source}/linear_1")

    def block(name: str, source: str, cross: bool) -> None:
        attention(f"{name}.attn", f"{source}/self_attention", cross=False)
        if cross:
            attention(f"{name}.cross_attn", f"{source}/attention", cross=True)
        norm(f"{name}.mlp_ln", f"{source}/ffn/layer_norm")
        linear(f"{name}.mlp.0", f"{source}/ffn/linear_0")
        linear(f"{name}.mlp.2", f"{source}/ffn/linear_1")

    add("encoder.positional_embedding", "encoder/position_encodings/encodings")
    for conv in ("conv1", "conv2"):
        add(f"encoder.{conv}.weight", f"encoder/{conv}/weight")
        add(f"encoder.{conv}.bias", f"encoder/{conv}/bias")
    for i in range(hp.n_audio_layer):
        block(f"encoder.blocks.{i}", f"encoder/layer_{i}", cross=False)
    norm("encoder.ln_post", "encoder/layer_norm")

    add("decoder.positional_embedding", "decoder/position_encodings/encodings")
    add("decoder.token_embedding.weight", "decoder/embeddings/weight")
    for i in range(hp.n_text_layer):
        block(f"decoder.blocks.{i}", f"decoder/layer_{i}", cross=True)
    norm("decoder.ln", "decoder/layer_norm")
    return plan


# ---------------------------------------------------------------------------------------------
# Writing


class _HashingWriter:
    """Writes to a file and hashes what it wrote, so the cache needs no second pass."""

    def __init__(self, f: BinaryIO) -> None:
        self.f = f
        self.sha256 = hashlib.sha256()

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.f.write(data)
        self.sha256.update(data)


def _write_header(out: _HashingWriter, hp: WhisperHParams, vocab: list[bytes]) -> None:
    out.write(
        struct.pack(
            "<I11i",
            GGML_MAGIC_U32,
            hp.n_vocab,
            hp.n_audio_ctx,
            hp.n_audio_state,
            hp.n_audio_head,
            hp.n_audio_layer,
            hp.n_text_ctx,
            hp.n_text_state,
            hp.n_text_head,
            hp.n_text_layer,
            hp.n_mels,
            FTYPE_MOSTLY_F16,
        )
    )
    filters = mel_filters(hp.n_mels)
    out.write(struct.pack("<2i", *filters.shape))
    out.write(filters.astype("<f4").tobytes())
    out.write(struct.pack("<i", len(vocab)))
    out.write(b"".join(struct.pack("<I", len(token)) + token for token in vocab))


def _chunks(tensor: _Tensor, row_bytes: int) -> Iterator[tuple[int, int]]:
    step = max(1, CHUNK_BYTES // max(1, row_bytes))
    for start in range(tensor.start, tensor.stop, step):
        yield start, min(start + step, tensor.stop)


def _write_tensors(
    out: _HashingWriter,
    model: Ct2Model,
    plan: list[_Tensor],
    progress: ProgressCallback | None,
    cancel: CancelFlag | None,
) -> None:
    total = sum(t.nbytes for t in plan)
    done = 0
    for tensor in plan:
        name = tensor.name.encode("ascii")
        out.write(struct.pack(f"<3i{len(tensor.ne)}i", len(tensor.ne), len(name), tensor.ggml_type, *tensor.ne) + name)
        dtype = np.dtype("<f4") if tensor.ggml_type == GGML_F32 else np.dtype("<f2")
        for start, stop in _chunks(tensor, model.get(tensor.source).row_bytes):
            if cancel is not None and cancel.cancelled:
                raise Cancelled("model conversion cancelled")
            data = model.rows_as(tensor.source, start, stop, dtype)
            out.write(data.data.cast("B"))  # the array's bytes, not copied
            done += data.nbytes
            if progress is not None:
                progress(done / total)


def _convert(
    source: Ct2Source, out_path: Path, progress: ProgressCallback | None, cancel: CancelFlag | None
) -> tuple[WhisperFileInfo, str]:
    """Convert, validate and atomically publish; returns the info and the output's SHA-256."""
    with _PartsReader(source.parts) as reader:
        model = Ct2Model(reader)
        hp = ct2_hparams(model)
        problem = hparams_problem(hp, FTYPE_MOSTLY_F16)
        if problem:
            raise ModelFileError(source.parts[0], f"cannot be converted for whisper.cpp: {problem}")
        vocab = base_vocabulary(read_vocabulary(source.vocabulary), hp, source.vocabulary)
        plan = _plan(model, hp)
        out_path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_path(out_path) as tmp:  # a full disk: DiskFullError, and nothing left behind
            with open(tmp, "wb") as f:
                out = _HashingWriter(f)
                _write_header(out, hp, vocab)
                _write_tensors(out, model, plan, progress, cancel)
            info = check_whisper_ggml(tmp)
    return dataclasses.replace(info, path=out_path), out.sha256.hexdigest()


def convert_ct2_whisper(
    model_dir: Path | list[Path],
    out_path: Path,
    *,
    progress: ProgressCallback | None = None,
    cancel: CancelFlag | None = None,
) -> WhisperFileInfo:
    """Convert a CTranslate2 Whisper model to a whisper.cpp ggml file at ``out_path``.

    ``model_dir`` is the model folder, or a list of folders/files holding its weight parts.
    ``progress`` gets the fraction done (0..1); ``cancel.cancelled`` is polled between chunks
    and raises ``Cancelled``.  The file appears only when complete and validated: a cancelled
    or failed conversion leaves nothing behind.  Raises ``ModelFileError`` for unusable input
    and ``DiskFullError`` when the disk fills up.
    """
    info, _ = _convert(find_ct2_source(model_dir), Path(out_path), progress, cancel)
    return info


# ---------------------------------------------------------------------------------------------
# Cache


def _fingerprint(files: tuple[Path, ...]) -> list[dict[str, object]]:
    """Cheap identity of the source files: size, mtime and a hash of the first and last MB."""
    prints = []
    for path in files:
        st = path.stat()
        digest = hashlib.sha256()
        with open(path, "rb") as f:
            digest.update(f.read(FINGERPRINT_BYTES))
            if st.st_size > FINGERPRINT_BYTES:
                f.seek(max(FINGERPRINT_BYTES, st.st_size - FINGERPRINT_BYTES))
                digest.update(f.read())
        prints.append(
            {"name": path.name, "size": st.st_size, "mtime_ns": st.st_mtime_ns, "edges_sha256": digest.hexdigest()}
        )
    return prints


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(CHUNK_BYTES):
            digest.update(block)
    return digest.hexdigest()


def _read_sidecar(path: Path) -> dict[str, object] | None:
    try:
        data = load_json(path, max_bytes=MAX_SIDECAR_BYTES)
    except UntrustedFileError:  # deep nesting included: rebuilt, never raised
        return None
    return data if isinstance(data, dict) and data.get("format") == CACHE_FORMAT else None


def _cache_is_valid(output: Path, sidecar_path: Path, source_print: list[dict[str, object]], full_check: bool) -> bool:
    """Whether the cached file is intact and was made from this source.

    The full SHA-256 is skipped only when the file's size and mtime still match the sidecar
    and the sidecar is strictly newer than the file: a write after the sidecar was stored then
    necessarily moved the mtime.  When the two stamps are equal (coarse file system clocks,
    or a write right after conversion) the hash decides, as git does for "racily clean"
    files.  Truncation and header damage are also caught by ``check_whisper_ggml``.
    """
    sidecar = _read_sidecar(sidecar_path)
    if sidecar is None or sidecar.get("source") != source_print:
        return False
    try:
        st = output.stat()
        sidecar_mtime = sidecar_path.stat().st_mtime_ns
    except OSError:
        return False
    if st.st_size != sidecar.get("size"):
        return False
    try:
        check_whisper_ggml(output)
    except ModelFileError:
        return False
    stamp_ok = st.st_mtime_ns == sidecar.get("mtime_ns") and sidecar_mtime > st.st_mtime_ns
    if stamp_ok and not full_check:
        return True
    if file_sha256(output) != sidecar.get("sha256"):
        return False
    _write_sidecar(sidecar_path, output, sidecar["sha256"], source_print)  # refresh the stamp
    return True


def _write_sidecar(path: Path, output: Path, sha256: object, source_print: list[dict[str, object]]) -> None:
    st = output.stat()
    with atomic_write(path, "w", encoding="utf-8") as f:
        json.dump(
            {
                "format": CACHE_FORMAT,
                "size": st.st_size,
                "mtime_ns": st.st_mtime_ns,
                "sha256": sha256,
                "source": source_print,
            },
            f,
            indent=1,
        )


def ensure_converted(
    source: Path | list[Path],
    cache_dir: Path,
    name: str,
    progress: ProgressCallback | None = None,
    cancel: CancelFlag | None = None,
    *,
    full_check: bool = False,
) -> Path:
    """Path of ``cache_dir/<name>.bin``, converting ``source`` first if needed.

    The sidecar ``<name>.bin.json`` records the output's size, mtime and SHA-256 and a
    fingerprint of the source files.  The copy is rebuilt when the source changed, the
    sidecar is missing or unreadable, or the file no longer matches it (see
    ``_cache_is_valid``); ``full_check`` forces the full SHA-256 comparison.
    """
    if not _NAME_RE.fullmatch(name):  # a programming error: the names are Parley's own constants
        raise ValueError(f"invalid cache name {name!r}")
    ct2 = find_ct2_source(source)
    cache_dir = Path(cache_dir)
    output = cache_dir / f"{name}.bin"
    sidecar = cache_dir / f"{name}.bin.json"
    source_print = _fingerprint(ct2.files)
    if output.is_file() and _cache_is_valid(output, sidecar, source_print, full_check):
        return output
    sidecar.unlink(missing_ok=True)  # never pair an old sidecar with a new file
    _, sha256 = _convert(ct2, output, progress, cancel)
    _write_sidecar(sidecar, output, sha256, source_print)  # a full disk: DiskFullError (atomic_write)
    return output
