"""Small synthetic CTranslate2 Whisper models, written at test time.

The layout follows what CTranslate2's WhisperSpec serialises (binary version 6): the same
variable names, shapes, scalar attributes and the ``decoder/projection/weight`` alias as the
real tiny.en package.  Widths are shrunk (``state``) so a model with large's 32+32 layers stays
a few megabytes; layer and head counts and the vocabulary size are the real ones.
"""

from __future__ import annotations

import functools
import json
import struct
from pathlib import Path

import numpy as np

# encoder/decoder layers and heads of each Whisper size
SIZES = {"tiny": (4, 6), "base": (6, 8), "small": (12, 12), "medium": (24, 16), "large": (32, 20)}
CT2_DTYPE_IDS = {"float32": 0, "int8": 1, "int16": 2, "int32": 3, "float16": 4, "bfloat16": 5}


@functools.cache
def gpt2_byte_to_unicode() -> dict[int, str]:
    """GPT-2's byte-level BPE alphabet: each byte's visible stand-in character."""
    keep = list(range(33, 127)) + list(range(161, 173)) + list(range(174, 256))
    table = {b: chr(b) for b in keep}
    extra = 0
    for b in range(256):
        if b not in table:
            table[b] = chr(256 + extra)
            extra += 1
    return table


def byte_level(token: bytes) -> str:
    table = gpt2_byte_to_unicode()
    return "".join(table[b] for b in token)


def synthetic_base_tokens(multilingual: bool) -> list[bytes]:
    """50256 distinct byte strings (+ the empty token of multilingual models)."""
    tokens = [bytes([b]) for b in range(256)]
    tokens += [f" w{i}".encode() if i % 3 else f"\n\t\x00{i}\xff".encode("latin-1") for i in range(50256 - 256)]
    if multilingual:
        tokens.append(b"")
    return tokens


def whisper_vocabulary(n_vocab: int) -> tuple[list[str], list[bytes]]:
    """A CTranslate2 vocabulary of ``n_vocab`` tokens and the base tokens it encodes."""
    base = synthetic_base_tokens(multilingual=n_vocab >= 51865)
    specials = ["<|endoftext|>", "<|startoftranscript|>"]
    n_timestamps = 1501
    specials += [f"<|special{i}|>" for i in range(n_vocab - len(base) - len(specials) - n_timestamps)]
    specials += [f"<|{i * 0.02:.2f}|>" for i in range(n_timestamps)]
    return [byte_level(t) for t in base] + specials, base


def _linear(rng: np.random.Generator, out: int, inp: int, zero_rows: slice | None = None) -> dict[str, np.ndarray]:
    bias = rng.standard_normal(out).astype(np.float32)
    if zero_rows is not None:
        bias[zero_rows] = 0.0  # CTranslate2 fills the missing key bias with zeros
    return {"weight": (rng.standard_normal((out, inp)) * 0.1).astype(np.float32), "bias": bias}


def _norm(rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    return {
        "gamma": (1 + 0.1 * rng.standard_normal(n)).astype(np.float32),
        "beta": (0.1 * rng.standard_normal(n)).astype(np.float32),
    }


def _flatten(prefix: str, tree: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    return {f"{prefix}/{key}": value for key, value in tree.items()}


def whisper_variables(
    *,
    enc_layers: int,
    dec_layers: int,
    heads: int,
    state: int,
    n_mels: int,
    n_vocab: int,
    n_audio_ctx: int = 1500,
    n_text_ctx: int = 448,
    seed: int = 0,
) -> dict[str, np.ndarray]:
    """float32 weights of a Whisper model under CTranslate2's variable names."""
    rng = np.random.default_rng(seed)
    s = state
    v: dict[str, np.ndarray] = {
        "encoder/conv1/weight": (rng.standard_normal((s, n_mels, 3)) * 0.1).astype(np.float32),
        "encoder/conv1/bias": rng.standard_normal(s).astype(np.float32),
        "encoder/conv2/weight": (rng.standard_normal((s, s, 3)) * 0.1).astype(np.float32),
        "encoder/conv2/bias": rng.standard_normal(s).astype(np.float32),
        "encoder/position_encodings/encodings": rng.standard_normal((n_audio_ctx, s)).astype(np.float32),
        "decoder/embeddings/weight": (rng.standard_normal((n_vocab, s)) * 0.1).astype(np.float32),
        "decoder/position_encodings/encodings": rng.standard_normal((n_text_ctx, s)).astype(np.float32),
    }
    v |= _flatten("encoder/layer_norm", _norm(rng, s))
    v |= _flatten("decoder/layer_norm", _norm(rng, s))
    for stack, n_layers in (("encoder", enc_layers), ("decoder", dec_layers)):
        for i in range(n_layers):
            layer = f"{stack}/layer_{i}"
            v |= _flatten(f"{layer}/self_attention/layer_norm", _norm(rng, s))
            v |= _flatten(f"{layer}/self_attention/linear_0", _linear(rng, 3 * s, s, slice(s, 2 * s)))
            v |= _flatten(f"{layer}/self_attention/linear_1", _linear(rng, s, s))
            if stack == "decoder":
                v |= _flatten(f"{layer}/attention/layer_norm", _norm(rng, s))
                v |= _flatten(f"{layer}/attention/linear_0", _linear(rng, s, s))
                v |= _flatten(f"{layer}/attention/linear_1", _linear(rng, 2 * s, s, slice(0, s)))
                v |= _flatten(f"{layer}/attention/linear_2", _linear(rng, s, s))
            v |= _flatten(f"{layer}/ffn/layer_norm", _norm(rng, s))
            v |= _flatten(f"{layer}/ffn/linear_0", _linear(rng, 4 * s, s))
            v |= _flatten(f"{layer}/ffn/linear_1", _linear(rng, s, 4 * s))
    v["encoder/num_heads"] = np.array(heads, dtype=np.int16)
    v["decoder/num_heads"] = np.array(heads, dtype=np.int16)
    for name in ("activation", "alibi", "pre_norm", "scale_embeddings", "start_from_zero_embedding"):
        v[f"decoder/{name}"] = np.array(0, dtype=np.int8)
    v["decoder/alignment_heads"] = np.array(heads, dtype=np.int16)
    v["decoder/alignment_layer"] = np.array(dec_layers - 1, dtype=np.int16)
    return v


def _is_quantizable(name: str) -> bool:
    return name.endswith("/weight") and ("linear_" in name or "embeddings" in name)


def encode_variables(
    variables: dict[str, np.ndarray], dtype: str
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Store float weights as ``dtype`` the way CTranslate2's quantization does.

    Returns the arrays to serialise and, per float variable, the float32 values they stand for
    (what a correct reader recovers).
    """
    stored: dict[str, np.ndarray] = {}
    meaning: dict[str, np.ndarray] = {}
    for name, value in variables.items():
        if value.dtype != np.float32:
            stored[name] = value
            continue
        if dtype == "float32":
            stored[name] = meaning[name] = value
        elif dtype == "float16":
            stored[name] = value.astype(np.float16)
            meaning[name] = stored[name].astype(np.float32)
        elif dtype == "bfloat16":
            bits = (value.view(np.uint32) >> 16).astype(np.uint16)
            stored[name] = bits
            meaning[name] = (bits.astype(np.uint32) << 16).view(np.float32)
        elif dtype == "int8_float16" and _is_quantizable(name):
            amax = np.abs(value).max(axis=1)
            amax[amax == 0] = 127.0
            scale = (127.0 / amax).astype(np.float32)
            q = np.rint(value * scale[:, None]).astype(np.int8)
            stored[name], stored[name + "_scale"] = q, scale
            meaning[name] = q.astype(np.float32) / scale[:, None]
        elif dtype == "int8_float16":
            stored[name] = value.astype(np.float16)
            meaning[name] = stored[name].astype(np.float32)
        else:
            raise ValueError(dtype)
    return stored, meaning


def _ct2_string(text: str) -> bytes:
    raw = text.encode() + b"\0"
    return struct.pack("<H", len(raw)) + raw


def serialize_ct2(
    variables: dict[str, np.ndarray], aliases: dict[str, str], spec: str = "WhisperSpec", revision: int = 3
) -> bytes:
    """CTranslate2's model.bin (binary version 6), variables in name order."""
    out = [struct.pack("<I", 6), _ct2_string(spec), struct.pack("<II", revision, len(variables))]
    for name in sorted(variables):
        value = variables[name]
        type_name = "bfloat16" if value.dtype == np.uint16 else str(value.dtype)
        out.append(_ct2_string(name) + struct.pack(f"<B{value.ndim}I", value.ndim, *value.shape))
        out.append(struct.pack("<BI", CT2_DTYPE_IDS[type_name], value.nbytes))
        out.append(np.ascontiguousarray(value).tobytes())
    out.append(struct.pack("<I", len(aliases)))
    for alias, target in aliases.items():
        out.append(_ct2_string(alias) + _ct2_string(target))
    return b"".join(out)


def write_ct2_whisper(
    folder: Path,
    *,
    size: str = "tiny",
    state: int | None = None,
    n_mels: int = 80,
    n_vocab: int = 51864,
    dtype: str = "float16",
    parts: int = 1,
    vocabulary_format: str = "txt",
    seed: int = 0,
) -> dict[str, object]:
    """Write a CTranslate2 Whisper model folder; returns what a test needs to check it.

    ``parts`` > 1 splits model.bin into ``model.bin.part1..N`` at byte positions that fall
    inside variables, each in its own folder ``folder/pN`` (like split wheel packages); the
    first folder also holds config.json and the vocabulary.
    """
    enc_layers, heads = SIZES[size]
    state = state or heads * 4
    variables = whisper_variables(
        enc_layers=enc_layers,
        dec_layers=enc_layers,
        heads=heads,
        state=state,
        n_mels=n_mels,
        n_vocab=n_vocab,
        seed=seed,
    )
    stored, meaning = encode_variables(variables, dtype)
    blob = serialize_ct2(stored, {"decoder/projection/weight": "decoder/embeddings/weight"})
    tokens, base = whisper_vocabulary(n_vocab)

    folders = [folder] if parts == 1 else [folder / f"p{i}" for i in range(1, parts + 1)]
    for f in folders:
        f.mkdir(parents=True, exist_ok=True)
    if parts == 1:
        (folder / "model.bin").write_bytes(blob)
    else:
        cuts = [len(blob) * i // parts + 7 for i in range(1, parts)]
        for i, (lo, hi) in enumerate(zip([0, *cuts], [*cuts, len(blob)], strict=True), start=1):
            (folders[i - 1] / f"model.bin.part{i}").write_bytes(blob[lo:hi])
    (folders[0] / "config.json").write_text(json.dumps({"lang_ids": [], "suppress_ids": []}))
    if vocabulary_format == "json":
        (folders[0] / "vocabulary.json").write_text(json.dumps(tokens), encoding="utf-8")
    else:
        (folders[0] / "vocabulary.txt").write_text("".join(t + "\n" for t in tokens), encoding="utf-8")
    return {
        "source": folders[0] if parts == 1 else folders,
        "folders": folders,
        "meaning": meaning,
        "base_tokens": base,
        "heads": heads,
        "layers": enc_layers,
        "state": state,
        "n_mels": n_mels,
        "n_vocab": n_vocab,
    }
