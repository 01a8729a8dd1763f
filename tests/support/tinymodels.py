"""Tiny random-weight models for tests, with GPT-2's real tokenizer.

The vocabulary comes from llama.cpp's vocab-only ``models/ggml-vocab-gpt-2.gguf`` in the pinned
source package, found through the native build's cache (``native/build.py --print-work``), so
llama.cpp can tokenize and detokenize text with these models.  The weights are random, so the
text they generate is noise; what they are good for is loading, tokenizing, decoding and
chat-formatting in a fraction of a second.

Four writers:
* ``write_tiny_llama_gguf`` and ``write_tiny_gpt2_gguf``: GGUF files with the tensor names and
  shapes llama.cpp's ``load_tensors`` asks for (src/models/llama.cpp, src/models/gpt2.cpp).
* ``write_tiny_arch_gguf``: the newer chat architectures of the catalog (qwen3, qwen3moe,
  gemma3, phi3, smollm3, gpt-oss), each with what its ``load_arch_tensors`` and
  ``load_arch_hparams`` read (src/models/<arch>.cpp, names from src/llama-arch.cpp).
* ``write_tiny_gpt2_legacy_ggml``: the legacy ``ggml-model.bin`` format of ggml's
  examples/gpt-2, the input of ``parley.engine.modelfiles.gpt2_convert``.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any, Literal

import numpy as np
from gguf import GGMLQuantizationType, GGUFValueType, GGUFWriter, LlamaFileType, quantize

from parley.engine.formats import GGML_MAGIC
from parley.engine.modelfiles.gguf_file import GGUFField, read_gguf
from parley.engine.modelfiles.gpt2_convert import (
    GGML_QNT_VERSION,
    GGML_QNT_VERSION_FACTOR,
    gpt2_byte_decoder,
)

REPO = Path(__file__).resolve().parents[2]
GPT2_VOCAB_FILE = "ggml-vocab-gpt-2.gguf"
GPT2_N_VOCAB = 50257
FIM_TOKENS_FROM_END = (2, 3, 4)  # write_tiny_llama_gguf(fim=True): prefix, suffix, middle
N_BYTE_TOKENS = 256  # GPT-2's first 256 tokens are the single bytes
GPT2_LINE_BREAK = 198  # "\n" in GPT-2's vocabulary

# ChatML; with GPT-2's vocabulary <|im_start|> and <|im_end|> are tokenized as plain text.
CHATML_TEMPLATE = (
    "{% for message in messages %}"
    "{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
)

WeightType = Literal["f32", "f16"]
_TOKENIZER_KEYS = ("tokenizer.ggml.tokens", "tokenizer.ggml.token_type", "tokenizer.ggml.merges")
_TOKEN_TYPE_CONTROL = 3


# The environment the test session started with: a test that points PARLEY_CACHE_DIR at a
# temporary folder must not move where the native build's sources are looked up.
_SESSION_ENV = dict(os.environ)


@functools.cache
def vocab_source() -> Path:
    """llama.cpp's GPT-2 vocab-only GGUF from the sources the native build extracted."""
    work = subprocess.run(
        [sys.executable, str(REPO / "native" / "build.py"), "--print-work"],
        check=True,
        capture_output=True,
        text=True,
        env=_SESSION_ENV,
    ).stdout.strip()
    path = Path(work) / "src" / "llama.cpp" / "models" / GPT2_VOCAB_FILE
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing: run `python native/build.py` first")
    return path


def llama_cpp_source() -> Path:
    """The extracted llama.cpp source tree the native build used."""
    return vocab_source().parents[1]


@functools.cache
def _full_tokenizer() -> dict[str, GGUFField]:
    """GPT-2's tokenizer fields, arrays as tuples so that no caller can change the cached copy."""
    contents = read_gguf(vocab_source(), arrays=_TOKENIZER_KEYS)
    return {
        k: dataclasses.replace(f, value=tuple(f.value)) if isinstance(f.value, list) else f
        for k, f in contents.metadata.items()
        if k.startswith("tokenizer.")
    }


def gpt2_tokenizer(n_vocab: int | None = None) -> dict[str, GGUFField]:
    """The ``tokenizer.*`` metadata of GPT-2, whole or cut down to ``n_vocab`` tokens.

    GPT-2's token 256+i is the result of merge i and is built from lower ids only, so the
    first ``n_vocab - 1`` tokens with the first ``n_vocab - 257`` merges are a consistent
    smaller BPE vocabulary; ``<|endoftext|>`` moves to the last id.  llama.cpp needs at least
    one merge, hence at least 258 tokens.
    """
    full = _full_tokenizer()
    if n_vocab is None or n_vocab == GPT2_N_VOCAB:
        return dict(full)
    if not N_BYTE_TOKENS + 2 <= n_vocab < GPT2_N_VOCAB:
        raise ValueError(f"n_vocab must be in [{N_BYTE_TOKENS + 2}, {GPT2_N_VOCAB}], got {n_vocab}")
    tokens = (*full["tokenizer.ggml.tokens"].value[: n_vocab - 1], "<|endoftext|>")
    types = (*full["tokenizer.ggml.token_type"].value[: n_vocab - 1], _TOKEN_TYPE_CONTROL)
    merges = full["tokenizer.ggml.merges"].value[: n_vocab - 1 - N_BYTE_TOKENS]
    cut = dict(full)
    for key, values, item_type in (
        ("tokenizer.ggml.tokens", tokens, GGUFValueType.STRING),
        ("tokenizer.ggml.token_type", types, GGUFValueType.INT32),
        ("tokenizer.ggml.merges", merges, GGUFValueType.STRING),
    ):
        cut[key] = GGUFField(GGUFValueType.ARRAY, values, item_type, len(values))
    for key in ("tokenizer.ggml.bos_token_id", "tokenizer.ggml.eos_token_id"):
        cut[key] = GGUFField(GGUFValueType.UINT32, n_vocab - 1)
    return cut


def add_fields(writer: GGUFWriter, fields: dict[str, GGUFField]) -> None:
    """Write metadata fields with the value types they had in their source file."""
    for key, field in fields.items():
        writer.add_key_value(key, field.value, field.type, sub_type=field.item_type)


def _matrix(rng: np.random.Generator, rows: int, cols: int, wtype: WeightType) -> np.ndarray:
    """A weight in numpy order (ggml ne reversed): ``rows`` outputs of ``cols`` inputs."""
    data = rng.normal(0.0, 0.02, size=(rows, cols)).astype(np.float32)
    return data.astype(np.float16) if wtype == "f16" else data


def _gain(rng: np.random.Generator, n: int) -> np.ndarray:
    return (1.0 + rng.normal(0.0, 0.02, size=n)).astype(np.float32)


def _bias(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.normal(0.0, 0.02, size=n).astype(np.float32)


def write_gguf_file(path: Path, writer: GGUFWriter, tensors: dict[str, np.ndarray]) -> Path:
    """Add ``tensors`` to ``writer`` and write the whole file (header, metadata, tensors)."""
    for name, data in tensors.items():
        writer.add_tensor(name, data)
    writer.write_header_to_file(path)
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def _file_type(wtype: WeightType) -> int:
    return int(LlamaFileType.MOSTLY_F16 if wtype == "f16" else LlamaFileType.ALL_F32)


def llama_tensor_shapes(
    *,
    n_vocab: int,
    n_embd: int,
    n_layer: int,
    n_head: int,
    n_head_kv: int,
    n_ff: int,
    tie_embeddings: bool,
    n_expert: int = 0,
) -> dict[str, tuple[int, ...]]:
    """Tensor names and ggml shapes (ne) that llama.cpp's LLM_ARCH_LLAMA loader requires; with
    ``n_expert``, each layer's feed-forward is a mixture of that many experts of ``n_ff`` and a
    router (Mixtral's layout)."""
    head_dim = n_embd // n_head
    shapes: dict[str, tuple[int, ...]] = {
        "token_embd.weight": (n_embd, n_vocab),
        "output_norm.weight": (n_embd,),
    }
    if not tie_embeddings:
        shapes["output.weight"] = (n_embd, n_vocab)
    for i in range(n_layer):
        shapes |= {
            f"blk.{i}.attn_norm.weight": (n_embd,),
            f"blk.{i}.attn_q.weight": (n_embd, head_dim * n_head),
            f"blk.{i}.attn_k.weight": (n_embd, head_dim * n_head_kv),
            f"blk.{i}.attn_v.weight": (n_embd, head_dim * n_head_kv),
            f"blk.{i}.attn_output.weight": (head_dim * n_head, n_embd),
            f"blk.{i}.ffn_norm.weight": (n_embd,),
        }
        if n_expert:
            shapes |= {
                f"blk.{i}.ffn_gate_inp.weight": (n_embd, n_expert),
                f"blk.{i}.ffn_gate_exps.weight": (n_embd, n_ff, n_expert),
                f"blk.{i}.ffn_down_exps.weight": (n_ff, n_embd, n_expert),
                f"blk.{i}.ffn_up_exps.weight": (n_embd, n_ff, n_expert),
            }
        else:
            shapes |= {
                f"blk.{i}.ffn_gate.weight": (n_embd, n_ff),
                f"blk.{i}.ffn_down.weight": (n_ff, n_embd),
                f"blk.{i}.ffn_up.weight": (n_embd, n_ff),
            }
    return shapes


def gpt2_tensor_shapes(
    *,
    n_vocab: int,
    n_embd: int,
    n_layer: int,
    n_ctx: int,
    n_ff: int,
    tie_embeddings: bool,
) -> dict[str, tuple[int, ...]]:
    """Tensor names and ggml shapes (ne) that llama.cpp's LLM_ARCH_GPT2 loader requires."""
    shapes: dict[str, tuple[int, ...]] = {
        "token_embd.weight": (n_embd, n_vocab),
        "position_embd.weight": (n_embd, n_ctx),
        "output_norm.weight": (n_embd,),
        "output_norm.bias": (n_embd,),
    }
    if not tie_embeddings:
        shapes["output.weight"] = (n_embd, n_vocab)
    for i in range(n_layer):
        shapes |= {
            f"blk.{i}.attn_norm.weight": (n_embd,),
            f"blk.{i}.attn_norm.bias": (n_embd,),
            f"blk.{i}.attn_qkv.weight": (n_embd, 3 * n_embd),
            f"blk.{i}.attn_qkv.bias": (3 * n_embd,),
            f"blk.{i}.attn_output.weight": (n_embd, n_embd),
            f"blk.{i}.attn_output.bias": (n_embd,),
            f"blk.{i}.ffn_norm.weight": (n_embd,),
            f"blk.{i}.ffn_norm.bias": (n_embd,),
            f"blk.{i}.ffn_up.weight": (n_embd, n_ff),
            f"blk.{i}.ffn_up.bias": (n_ff,),
            f"blk.{i}.ffn_down.weight": (n_ff, n_embd),
            f"blk.{i}.ffn_down.bias": (n_embd,),
        }
    return shapes


def _random_tensors(
    shapes: dict[str, tuple[int, ...]],
    wtype: WeightType,
    seed: int,
) -> dict[str, np.ndarray]:
    """Random data for each shape: matrices of ``wtype``; norm gains near 1, biases near 0 (f32)."""
    rng = np.random.default_rng(seed)
    tensors = {}
    for name, ne in shapes.items():
        if len(ne) == 3:  # experts: one matrix each
            tensors[name] = np.stack([_matrix(rng, ne[1], ne[0], wtype) for _ in range(ne[2])])
        elif len(ne) == 2:
            tensors[name] = _matrix(rng, ne[1], ne[0], wtype)
        elif name.endswith(".bias"):
            tensors[name] = _bias(rng, ne[0])
        else:
            tensors[name] = _gain(rng, ne[0])
    return tensors


def _check_heads(n_embd: int, n_head: int, n_head_kv: int) -> None:
    if n_embd % n_head or n_head % n_head_kv:
        raise ValueError(
            f"n_embd ({n_embd}) must be a multiple of n_head ({n_head}), and n_head of n_head_kv ({n_head_kv})",
        )


def _tiny_writer(
    path: str | Path,
    arch: str,
    name: str,
    wtype: WeightType,
    n_vocab: int | None,
    n_ctx: int,
    n_embd: int,
    n_layer: int,
    n_ff: int,
    n_head: int,
) -> tuple[GGUFWriter, int]:
    """A GGUF writer with the fields every tiny model has (GPT-2's tokenizer among them), and the
    vocabulary size it ended up with."""
    tokenizer = gpt2_tokenizer(n_vocab)
    writer = GGUFWriter(path, arch)
    writer.add_name(name)
    writer.add_file_type(_file_type(wtype))
    writer.add_context_length(n_ctx)
    writer.add_embedding_length(n_embd)
    writer.add_block_count(n_layer)
    writer.add_feed_forward_length(n_ff)
    writer.add_head_count(n_head)
    add_fields(writer, tokenizer)
    return writer, tokenizer["tokenizer.ggml.tokens"].count


def write_tiny_llama_gguf(
    path: str | Path,
    *,
    n_vocab: int | None = None,
    n_embd: int = 64,
    n_layer: int = 2,
    n_head: int = 4,
    n_head_kv: int = 2,
    n_ff: int | None = None,
    n_ctx: int = 256,
    chat_template: str | None = CHATML_TEMPLATE,
    wtype: WeightType = "f32",
    tie_embeddings: bool = True,
    seed: int = 0,
    name: str = "tiny-llama",
    never_ends: bool = False,
    answers_nothing: bool = False,
    fim: bool = False,
    n_expert: int = 0,
    n_expert_used: int = 0,
) -> Path:
    """A random-weight ``llama`` GGUF with GPT-2's tokenizer (``n_vocab`` None: all 50257);
    with ``n_expert``, a mixture of experts that uses ``n_expert_used`` of them per token.

    ``never_ends``: the end-of-text token (the last id) is never sampled with top-k: its tied
    embedding row is zero, so its logit is 0, the median of the random logits.  A random model
    would otherwise end a reply by chance, anywhere from its first tokens on.

    ``answers_nothing``: the end-of-text token's tied embedding row is the line break's, scaled
    up, so its logit is the largest after a prompt that ends with a line break (as a chat
    template's does): a greedy reply ends before its first token."""
    _check_heads(n_embd, n_head, n_head_kv)
    n_ff = n_ff or 2 * n_embd
    writer, n_vocab = _tiny_writer(path, "llama", name, wtype, n_vocab, n_ctx, n_embd, n_layer, n_ff, n_head)
    writer.add_head_count_kv(n_head_kv)
    writer.add_rope_dimension_count(n_embd // n_head)
    writer.add_rope_freq_base(10000.0)
    writer.add_layer_norm_rms_eps(1e-5)
    writer.add_vocab_size(n_vocab)
    if n_expert:
        writer.add_expert_count(n_expert)
        writer.add_expert_used_count(n_expert_used)
    if chat_template is not None:
        writer.add_chat_template(chat_template)
    if fim:
        for kind, back in zip(("pre", "suf", "mid"), FIM_TOKENS_FROM_END, strict=True):
            writer.add_key_value(f"tokenizer.ggml.fim_{kind}_token_id", n_vocab - back, GGUFValueType.UINT32)
    shapes = llama_tensor_shapes(
        n_vocab=n_vocab,
        n_embd=n_embd,
        n_layer=n_layer,
        n_head=n_head,
        n_head_kv=n_head_kv,
        n_ff=n_ff,
        tie_embeddings=tie_embeddings,
        n_expert=n_expert,
    )
    tensors = _random_tensors(shapes, wtype, seed)
    if never_ends:
        assert tie_embeddings, "the end-of-text logit is silenced through the tied embeddings"
        tensors["token_embd.weight"][n_vocab - 1] = 0.0
    if answers_nothing:
        assert tie_embeddings, "the end-of-text logit is raised through the tied embeddings"
        tensors["token_embd.weight"][n_vocab - 1] = 50.0 * tensors["token_embd.weight"][GPT2_LINE_BREAK]
    return write_gguf_file(Path(path), writer, tensors)


def write_tiny_gpt2_gguf(
    path: str | Path,
    *,
    n_vocab: int | None = None,
    n_embd: int = 64,
    n_layer: int = 2,
    n_head: int = 4,
    n_ctx: int = 256,
    chat_template: str | None = None,
    wtype: WeightType = "f32",
    tie_embeddings: bool = True,
    seed: int = 0,
    name: str = "tiny-gpt2",
) -> Path:
    """A random-weight ``gpt2`` GGUF with GPT-2's tokenizer (``n_vocab`` None: all 50257)."""
    _check_heads(n_embd, n_head, n_head)
    n_ff = 4 * n_embd
    writer, n_vocab = _tiny_writer(path, "gpt2", name, wtype, n_vocab, n_ctx, n_embd, n_layer, n_ff, n_head)
    writer.add_layer_norm_eps(1e-5)
    if chat_template is not None:
        writer.add_chat_template(chat_template)
    shapes = gpt2_tensor_shapes(
        n_vocab=n_vocab,
        n_embd=n_embd,
        n_layer=n_layer,
        n_ctx=n_ctx,
        n_ff=n_ff,
        tie_embeddings=tie_embeddings,
    )
    return write_gguf_file(Path(path), writer, _random_tensors(shapes, wtype, seed))


# ---------------------------------------------------------------------------------------------
# The newer architectures of the catalog

TINY_ARCHS = ("qwen3", "qwen3moe", "gemma3", "phi3", "smollm3", "gpt-oss")
_N_EXPERT, _N_EXPERT_USED = 4, 2


def arch_tensor_shapes(
    arch: str, *, n_vocab: int, n_embd: int, n_layer: int, n_head: int, n_head_kv: int, n_ff: int
) -> dict[str, tuple[int, ...]]:
    """Tensor names and ggml shapes (ne) that llama.cpp's loader of ``arch`` requires.

    The attention of every one is llama's (q, k, v, output; phi3's q, k and v fused into one
    matrix); on top: qwen3 and qwen3moe normalise q and k per head; gemma3 also normalises after
    attention and after the feed-forward; phi3's feed-forward has one up matrix of twice the width
    (gate and up); qwen3moe and gpt-oss have a router and experts instead of one feed-forward,
    gpt-oss with biases, attention sinks, a norm after attention and an output matrix of its own.
    """
    if arch not in TINY_ARCHS:
        raise ValueError(f"no tiny writer for {arch!r}; known: {', '.join(TINY_ARCHS)}")
    head = n_embd // n_head
    q, kv = head * n_head, head * n_head_kv
    shapes: dict[str, tuple[int, ...]] = {"token_embd.weight": (n_embd, n_vocab), "output_norm.weight": (n_embd,)}
    if arch == "gpt-oss":
        shapes["output.weight"] = (n_embd, n_vocab)
    for i in range(n_layer):
        b = f"blk.{i}"
        shapes |= {f"{b}.attn_norm.weight": (n_embd,), f"{b}.attn_output.weight": (q, n_embd)}
        if arch == "phi3":
            shapes[f"{b}.attn_qkv.weight"] = (n_embd, q + 2 * kv)
        else:
            shapes |= {f"{b}.attn_q.weight": (n_embd, q), f"{b}.attn_k.weight": (n_embd, kv)}
            shapes[f"{b}.attn_v.weight"] = (n_embd, kv)
        if arch in ("qwen3", "qwen3moe", "gemma3"):
            shapes |= {f"{b}.attn_q_norm.weight": (head,), f"{b}.attn_k_norm.weight": (head,)}
        if arch == "gemma3":
            shapes |= {f"{b}.post_attention_norm.weight": (n_embd,), f"{b}.post_ffw_norm.weight": (n_embd,)}
        if arch == "gpt-oss":
            shapes |= {f"{b}.post_attention_norm.weight": (n_embd,), f"{b}.attn_sinks.weight": (n_head,)}
            shapes[f"{b}.attn_output.bias"] = (n_embd,)
        else:
            shapes[f"{b}.ffn_norm.weight"] = (n_embd,)
        if arch in ("qwen3moe", "gpt-oss"):
            shapes |= {
                f"{b}.ffn_gate_inp.weight": (n_embd, _N_EXPERT),
                f"{b}.ffn_gate_exps.weight": (n_embd, n_ff, _N_EXPERT),
                f"{b}.ffn_up_exps.weight": (n_embd, n_ff, _N_EXPERT),
                f"{b}.ffn_down_exps.weight": (n_ff, n_embd, _N_EXPERT),
            }
            if arch == "gpt-oss":
                shapes |= {
                    f"{b}.ffn_gate_inp.bias": (_N_EXPERT,),
                    f"{b}.ffn_gate_exps.bias": (n_ff, _N_EXPERT),
                    f"{b}.ffn_up_exps.bias": (n_ff, _N_EXPERT),
                    f"{b}.ffn_down_exps.bias": (n_embd, _N_EXPERT),
                }
        elif arch == "phi3":
            shapes |= {f"{b}.ffn_up.weight": (n_embd, 2 * n_ff), f"{b}.ffn_down.weight": (n_ff, n_embd)}
        else:
            shapes |= {f"{b}.ffn_gate.weight": (n_embd, n_ff), f"{b}.ffn_up.weight": (n_embd, n_ff)}
            shapes[f"{b}.ffn_down.weight"] = (n_ff, n_embd)
    return shapes


def write_tiny_arch_gguf(
    path: str | Path,
    arch: str,
    *,
    n_vocab: int | None = 2000,
    n_embd: int = 64,
    n_layer: int = 2,
    n_head: int = 4,
    n_head_kv: int = 2,
    n_ff: int = 128,
    n_ctx: int = 256,
    chat_template: str | None = CHATML_TEMPLATE,
    seed: int = 0,
) -> Path:
    """A random-weight GGUF of architecture ``arch`` (one of ``TINY_ARCHS``) with GPT-2's tokenizer,
    F32 weights, ChatML.  gemma3 and gpt-oss get a sliding window of 64 tokens on every other
    layer, as their real files have (with a longer window, every 6th or 2nd layer full).  The
    end-of-text token's output row is zero, as ``write_tiny_llama_gguf(never_ends=True)`` does,
    so a reply is never empty by chance."""
    _check_heads(n_embd, n_head, n_head_kv)
    # Not named after the architecture: llama.cpp gives a model *named* "phi3" the special tokens
    # of Phi-3's vocabulary, which GPT-2's lacks (Phi-4-mini's own name does not say phi3).
    name = "Tiny random model"
    writer, n_vocab = _tiny_writer(path, arch, name, "f32", n_vocab, n_ctx, n_embd, n_layer, n_ff, n_head)
    writer.add_head_count_kv(n_head_kv)
    writer.add_rope_freq_base(10000.0)
    writer.add_layer_norm_rms_eps(1e-6)
    writer.add_vocab_size(n_vocab)
    if arch in ("qwen3moe", "gpt-oss"):
        writer.add_expert_count(_N_EXPERT)
        writer.add_expert_used_count(_N_EXPERT_USED)
        writer.add_expert_feed_forward_length(n_ff)
    if arch in ("gemma3", "gpt-oss"):
        writer.add_sliding_window(64)
        writer.add_key_value(f"{arch}.attention.sliding_window_pattern", 2, GGUFValueType.UINT32)
    if chat_template is not None:
        writer.add_chat_template(chat_template)
    shapes = arch_tensor_shapes(
        arch, n_vocab=n_vocab, n_embd=n_embd, n_layer=n_layer, n_head=n_head, n_head_kv=n_head_kv, n_ff=n_ff
    )
    rng = np.random.default_rng(seed)
    tensors = {}
    for name, ne in shapes.items():
        if len(ne) >= 2:
            tensors[name] = rng.normal(0.0, 0.02, size=tuple(reversed(ne))).astype(np.float32)
        elif name.endswith((".bias", "attn_sinks.weight")):
            tensors[name] = _bias(rng, ne[0])
        else:
            tensors[name] = _gain(rng, ne[0])
    tensors["output.weight" if "output.weight" in tensors else "token_embd.weight"][n_vocab - 1] = 0.0
    return write_gguf_file(Path(path), writer, tensors)


# ---------------------------------------------------------------------------------------------
# An embedding model (BERT's encoder: attention that is not causal, a pooling in the file)


def write_tiny_bert_gguf(
    path: str | Path,
    *,
    n_vocab: int | None = 2000,
    n_embd: int = 64,
    n_layer: int = 2,
    n_head: int = 4,
    n_ctx: int = 256,
    pooling: str = "mean",
    name: str = "tiny-bert",
    seed: int = 0,
) -> Path:
    """A random-weight ``bert`` GGUF with GPT-2's tokenizer, F32, pooled as ``pooling`` ("mean"
    or "cls") says: what llama.cpp's loader needs of an embedding model such as bge or MiniLM."""
    from gguf import PoolingType

    _check_heads(n_embd, n_head, n_head)
    n_ff = 2 * n_embd
    writer, n_vocab = _tiny_writer(path, "bert", name, "f32", n_vocab, n_ctx, n_embd, n_layer, n_ff, n_head)
    writer.add_layer_norm_eps(1e-12)
    writer.add_causal_attention(False)
    writer.add_pooling_type(PoolingType.MEAN if pooling == "mean" else PoolingType.CLS)
    writer.add_token_type_count(2)
    shapes: dict[str, tuple[int, ...]] = {
        "token_embd.weight": (n_embd, n_vocab),
        "token_types.weight": (n_embd, 2),
        "position_embd.weight": (n_embd, n_ctx),
        "token_embd_norm.weight": (n_embd,),
        "token_embd_norm.bias": (n_embd,),
    }
    for i in range(n_layer):
        b = f"blk.{i}"
        for part in ("attn_q", "attn_k", "attn_v", "attn_output"):
            shapes |= {f"{b}.{part}.weight": (n_embd, n_embd), f"{b}.{part}.bias": (n_embd,)}
        shapes |= {f"{b}.ffn_up.weight": (n_embd, n_ff), f"{b}.ffn_up.bias": (n_ff,)}
        shapes |= {f"{b}.ffn_down.weight": (n_ff, n_embd), f"{b}.ffn_down.bias": (n_embd,)}
        for norm in ("attn_output_norm", "layer_output_norm"):
            shapes |= {f"{b}.{norm}.weight": (n_embd,), f"{b}.{norm}.bias": (n_embd,)}
    rng = np.random.default_rng(seed)
    tensors = {}
    for tensor, ne in shapes.items():
        if len(ne) >= 2:
            tensors[tensor] = rng.normal(0.0, 0.1, size=tuple(reversed(ne))).astype(np.float32)
        elif tensor.endswith(".bias"):
            tensors[tensor] = _bias(rng, ne[0])
        else:
            tensors[tensor] = _gain(rng, ne[0])
    return write_gguf_file(Path(path), writer, tensors)


# ---------------------------------------------------------------------------------------------
# Legacy ggml GPT-2 (examples/gpt-2 of ggml)


@dataclasses.dataclass(frozen=True)
class LegacyTensor:
    """One tensor of a legacy file: ggml type id, ggml shape (ne), and the stored bytes."""

    ttype: int
    ne: tuple[int, ...]
    data: np.ndarray

    @property
    def raw(self) -> bytes:
        return self.data.tobytes()


# Legacy ftype (ggml_ftype) -> ggml type of the big matrices; everything else is F32.
LEGACY_FTYPES: dict[int, GGMLQuantizationType] = {
    0: GGMLQuantizationType.F32,
    1: GGMLQuantizationType.F16,
    7: GGMLQuantizationType.Q8_0,
}


def _legacy_tensor(data: np.ndarray, ttype: GGMLQuantizationType) -> LegacyTensor:
    """Store float32 ``data`` (numpy order) as ``ttype``."""
    ne = tuple(reversed(data.shape))
    if ttype == GGMLQuantizationType.F32:
        return LegacyTensor(int(ttype), ne, data.astype(np.float32))
    if ttype == GGMLQuantizationType.F16:
        return LegacyTensor(int(ttype), ne, data.astype(np.float16))
    return LegacyTensor(int(ttype), ne, quantize(data.astype(np.float32), ttype))


def tiny_gpt2_legacy_tensors(
    *,
    n_vocab: int,
    n_embd: int = 64,
    n_layer: int = 2,
    n_ctx: int = 256,
    ftype: int = 0,
    lm_head: bool = False,
    seed: int = 0,
    std: float = 0.02,
) -> dict[str, LegacyTensor]:
    """Random tensors named and shaped as ggml's gpt-2 example loads them.

    The example multiplies ``ggml_mul_mat(w, x)`` with every ``/w`` of ne ``[n_in, n_out]``
    (its converters transpose the checkpoints' Conv1D matrices, numpy shape ``(n_in, n_out)``).
    ``std`` is the spread of the layers' weight matrices: large values make every layer
    matter to the logits.
    """
    big = LEGACY_FTYPES[ftype]
    f32 = GGMLQuantizationType.F32
    rng = np.random.default_rng(seed)

    def matrix(n_out: int, n_in: int, spread: float = std) -> np.ndarray:
        return rng.normal(0.0, spread, size=(n_out, n_in)).astype(np.float32)

    tensors = {"model/wte": _legacy_tensor(matrix(n_vocab, n_embd, 0.02), big)}
    tensors["model/wpe"] = _legacy_tensor(matrix(n_ctx, n_embd, 0.02), f32)
    if lm_head:
        tensors["model/lm_head"] = _legacy_tensor(matrix(n_vocab, n_embd, 0.02), big)
    tensors["model/ln_f/g"] = _legacy_tensor(_gain(rng, n_embd), f32)
    tensors["model/ln_f/b"] = _legacy_tensor(_bias(rng, n_embd), f32)
    for i in range(n_layer):
        h = f"model/h{i}"
        tensors |= {
            f"{h}/ln_1/g": _legacy_tensor(_gain(rng, n_embd), f32),
            f"{h}/ln_1/b": _legacy_tensor(_bias(rng, n_embd), f32),
            f"{h}/attn/c_attn/w": _legacy_tensor(matrix(3 * n_embd, n_embd), big),
            f"{h}/attn/c_attn/b": _legacy_tensor(_bias(rng, 3 * n_embd), f32),
            f"{h}/attn/c_proj/w": _legacy_tensor(matrix(n_embd, n_embd), big),
            f"{h}/attn/c_proj/b": _legacy_tensor(_bias(rng, n_embd), f32),
            f"{h}/ln_2/g": _legacy_tensor(_gain(rng, n_embd), f32),
            f"{h}/ln_2/b": _legacy_tensor(_bias(rng, n_embd), f32),
            f"{h}/mlp/c_fc/w": _legacy_tensor(matrix(4 * n_embd, n_embd), big),
            f"{h}/mlp/c_fc/b": _legacy_tensor(_bias(rng, 4 * n_embd), f32),
            f"{h}/mlp/c_proj/w": _legacy_tensor(matrix(n_embd, 4 * n_embd), big),
            f"{h}/mlp/c_proj/b": _legacy_tensor(_bias(rng, n_embd), f32),
        }
    return tensors


def gpt2_legacy_vocab(n_vocab: int | None = None) -> list[bytes]:
    """GPT-2's tokens as the legacy format stores them: raw bytes, not byte-to-unicode text."""
    return list(_legacy_vocab(n_vocab))


@functools.cache
def _legacy_vocab(n_vocab: int | None) -> tuple[bytes, ...]:
    decoder = gpt2_byte_decoder()
    tokens = gpt2_tokenizer(n_vocab)["tokenizer.ggml.tokens"].value
    return tuple(bytes(decoder[ch] for ch in token) for token in tokens)


def write_gpt2_legacy_ggml(
    path: str | Path,
    tensors: dict[str, LegacyTensor],
    vocab: list[bytes],
    *,
    n_head: int,
    ftype: int,
    qnt_version: int = GGML_QNT_VERSION,
) -> Path:
    """Write a legacy ggml GPT-2 file; hyper-parameters are read off the tensors' shapes."""
    n_embd, n_vocab = tensors["model/wte"].ne
    n_ctx = tensors["model/wpe"].ne[1]
    n_layer = sum(1 for name in tensors if name.endswith("/ln_1/g"))
    path = Path(path)
    with path.open("wb") as fh:
        fh.write(GGML_MAGIC)
        stored_ftype = ftype + GGML_QNT_VERSION_FACTOR * qnt_version
        fh.write(struct.pack("<6i", n_vocab, n_ctx, n_embd, n_head, n_layer, stored_ftype))
        fh.write(struct.pack("<i", len(vocab)))
        for token in vocab:
            fh.write(struct.pack("<i", len(token)) + token)
        for name, tensor in tensors.items():
            encoded = name.encode()
            fh.write(struct.pack("<3i", len(tensor.ne), len(encoded), tensor.ttype))
            fh.write(struct.pack(f"<{len(tensor.ne)}i", *tensor.ne) + encoded)
            fh.write(tensor.raw)
    return path


def write_tiny_gpt2_legacy_ggml(
    path: str | Path,
    *,
    n_vocab: int | None = None,
    n_embd: int = 64,
    n_layer: int = 2,
    n_head: int = 4,
    n_ctx: int = 256,
    ftype: int = 0,
    lm_head: bool = False,
    seed: int = 0,
) -> Path:
    """A random-weight legacy ggml GPT-2 file (``ggml-model.bin``) with GPT-2's vocabulary.

    ``ftype`` 0 stores everything as F32, 1 the big matrices as F16, 7 as Q8_0.  A cut-down
    ``n_vocab`` is not GPT-2's vocabulary, so the converter refuses it.
    """
    _check_heads(n_embd, n_head, n_head)
    vocab = gpt2_legacy_vocab(n_vocab)
    tensors = tiny_gpt2_legacy_tensors(
        n_vocab=len(vocab),
        n_embd=n_embd,
        n_layer=n_layer,
        n_ctx=n_ctx,
        ftype=ftype,
        lm_head=lm_head,
        seed=seed,
    )
    return write_gpt2_legacy_ggml(path, tensors, vocab, n_head=n_head, ftype=ftype)


def tensor_bytes(path: Path) -> dict[str, tuple[int, tuple[int, ...], bytes]]:
    """Every tensor of a GGUF file: ggml type, ne and raw data (for exact comparisons)."""
    contents = read_gguf(path)
    data = path.read_bytes()
    return {t.name: (t.ggml_type, t.ne, data[t.offset : t.offset + t.nbytes]) for t in contents.tensors}


# ---------------------------------------------------------------------------------------------
# Running a file through llama.cpp (needs the native build)


@dataclasses.dataclass(frozen=True)
class LlamaRun:
    """What llama.cpp made of a model file and a text."""

    n_vocab: int
    tokens: list[int]
    detokenized: str
    logits: np.ndarray  # (len(tokens), n_vocab), one row per position
    chat_template: str | None


def run_llama(path: Path, text: str, *, n_ctx: int = 64) -> LlamaRun:
    """Load ``path`` with llama.cpp on the CPU, tokenize ``text``, decode it in one batch and
    return the logits of every position.  Raises NativeLibraryError without the native build."""
    from parley.engine.backend import native

    native.load_backends()
    ffi, lib = native.ffi(), native.lib()
    mparams = lib.llama_model_default_params()
    mparams.n_gpu_layers = 0
    model = lib.llama_model_load_from_file(str(path).encode(), mparams)
    if model == ffi.NULL:
        raise RuntimeError(f"llama.cpp could not load {path}")
    try:
        vocab = lib.llama_model_get_vocab(model)
        n_vocab = lib.llama_vocab_n_tokens(vocab)
        encoded = text.encode()
        ids = ffi.new("llama_token[]", n_ctx)
        n = lib.llama_tokenize(vocab, encoded, len(encoded), ids, n_ctx, False, False)
        if n < 0:
            raise RuntimeError(f"{text!r} needs more than {n_ctx} tokens")
        tokens = [ids[i] for i in range(n)]
        piece = ffi.new("char[]", 256)
        detokenized = b"".join(
            ffi.buffer(piece, lib.llama_token_to_piece(vocab, t, piece, 256, 0, False))[:] for t in tokens
        ).decode()
        template = lib.llama_model_chat_template(model, ffi.NULL)
        return LlamaRun(
            n_vocab,
            tokens,
            detokenized,
            _decode_all(native, model, tokens, n_vocab, n_ctx),
            None if template == ffi.NULL else ffi.string(template).decode(),
        )
    finally:
        lib.llama_model_free(model)


def _decode_all(native: Any, model: Any, tokens: list[int], n_vocab: int, n_ctx: int) -> np.ndarray:
    ffi, lib = native.ffi(), native.lib()
    cparams = lib.llama_context_default_params()
    cparams.n_ctx = cparams.n_batch = cparams.n_ubatch = n_ctx
    cparams.n_threads = cparams.n_threads_batch = 1
    ctx = lib.llama_init_from_model(model, cparams)
    if ctx == ffi.NULL:
        raise RuntimeError("llama.cpp could not create a context")
    batch = lib.llama_batch_init(len(tokens), 0, 1)
    try:
        batch.n_tokens = len(tokens)
        for i, token in enumerate(tokens):
            batch.token[i], batch.pos[i], batch.n_seq_id[i], batch.logits[i] = token, i, 1, 1
            batch.seq_id[i][0] = 0
        if lib.llama_decode(ctx, batch) != 0:
            raise RuntimeError("llama_decode failed")
        return np.stack(
            [
                np.frombuffer(ffi.buffer(lib.llama_get_logits_ith(ctx, i), 4 * n_vocab), np.float32).copy()
                for i in range(len(tokens))
            ]
        )
    finally:
        lib.llama_batch_free(batch)
        lib.llama_free(ctx)
