"""Text embeddings: pooled, L2-normalised vectors from a GGUF model, several texts per decode.

An ``Embedder`` is either an embedding model of its own (a GGUF with a pooling, such as
nomic-embed-text or bge: its file says how to pool) or a second context on the weights a
``ChatModel`` already holds, mean-pooled.  A chat model's embeddings are weaker for retrieval
than a model trained for them, but need nothing more to be loaded.

Texts are packed into batches of up to ``n_batch`` tokens and ``sequences`` texts, one
sequence each; one ``llama_decode`` gives every text's pooled vector
(``llama_get_embeddings_seq``).  An embedding model whose attention is not causal (BERT and its
kin) must see a whole text in one micro-batch, so a text's tokens are bounded by ``n_batch``
as well as by the model's context; longer texts are cut (``truncate``) or refused.

Matryoshka-trained models keep most of their quality in a vector's first dimensions, so a
shorter vector is its start, normalised again (``shorten``).  Which models are trained so is
known by their names (``MATRYOSHKA``), as nothing in a GGUF says it.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ..backend import native
from ..backend.cancel import CancelToken
from ..backend.devices import select_device
from ..backend.threads import default_threads
from ..errors import Cancelled, ContextOverflowError, DecodeError, InvalidSettingError, ModelClosedError, ModelLoadError
from ..handles.llama import CpuThreadpool, LlamaBatch, LlamaContext, LlamaModel, start_cpu_threadpool
from ..handles.owner import Owner
from ..modelfiles.gguf_file import check_gguf
from .model import ChatModel

MAX_TEXT_TOKENS = 2048  # tokens of one text: a bound on the attention's work for encoder models
SEQUENCES = 16  # texts decoded together
# With a causal model (a chat model's weights, or such a GGUF given as an embedding model), one
# text per decode: a causal model's sequences each have a part
# of the KV cache, and llama.cpp then splits a batch of several into equal micro-batches, which
# pooling does not survive (its embedding example shares one cache between them instead)
CHAT_SEQUENCES = 1
# Models trained so that a vector's start is a good shorter vector (names as their GGUFs give
# them, lower case): nomic-embed-text v1.5 and v2, EmbeddingGemma, Qwen3-Embedding, mxbai-embed-large,
# Snowflake Arctic Embed M v1.5 and L v2
MATRYOSHKA = (
    "nomic-embed-text-v1.5",
    "nomic-embed-text-v2",
    "embeddinggemma",
    "qwen3-embedding",
    "mxbai-embed-large",
    "snowflake-arctic-embed-m-v1.5",
    "snowflake-arctic-embed-l-v2",
)


@dataclasses.dataclass
class Embeddings:
    vectors: np.ndarray  # (texts, n_embd) float32, each of length 1
    tokens: int  # tokens read in all


class Embedder(Owner):
    """Pooled embeddings from ``source``: a GGUF path (an embedding model) or a loaded ChatModel."""

    def __init__(
        self,
        source: str | Path | ChatModel,
        *,
        device: str = "auto",
        threads: int | None = None,
        max_tokens: int = MAX_TEXT_TOKENS,
    ) -> None:
        super().__init__()
        self._lock = threading.Lock()
        with self._building():
            native.load_backends()
            if isinstance(source, ChatModel):
                llama, self.info, self.threads = source.llama, source.info, source.threads
                sequences, pooling = CHAT_SEQUENCES, "mean"
                self.name = source.name
                self.of_chat_model = True
            else:
                self.info = check_gguf(Path(source))  # native code aborts the process on a malformed file
                self.threads = threads or default_threads()
                llama = self._resources.enter_context(LlamaModel(self.info, select_device(device).device))
                sequences, pooling = SEQUENCES, None
                self.name = self.info.name or Path(source).stem
                self.of_chat_model = False
            self.llama = llama
            per_text = llama.cap_context(max_tokens)
            pool = start_cpu_threadpool(self.threads)
            if pool is not None:
                self._resources.enter_context(pool)
            context = self._context(llama, per_text, sequences, pool, pooling)
            if context.pooling is None:  # the file names no pooling: mean, as sentence-transformers' default
                context.close()
                context = self._context(llama, per_text, sequences, pool, "mean")
            if context.has_memory and sequences > 1:  # a causal model: one text per decode (CHAT_SEQUENCES)
                context.close()
                sequences = CHAT_SEQUENCES
                context = self._context(llama, per_text, sequences, pool, context.pooling)
            if context.pooling == "rank":
                raise ModelLoadError(f"{self.name} is a reranker (rank pooling), not an embedding model")
            self._context_ = self._resources.enter_context(context)
            self._batch = self._resources.enter_context(LlamaBatch(per_text))
            self.max_tokens = per_text
            self.sequences = sequences
            self.n_embd = context.n_embd
            self.pooling = context.pooling
            self.matryoshka = any(name in self._names() for name in MATRYOSHKA)

    def _context(
        self, llama: LlamaModel, per_text: int, sequences: int, pool: CpuThreadpool | None, pooling: str | None
    ) -> LlamaContext:
        # The KV cache (of causal models) is split between the sequences: each gets a text's worth
        return LlamaContext(
            llama,
            n_ctx=per_text * sequences,
            n_batch=per_text,
            n_seq_max=sequences,
            threads=self.threads,
            threadpool=pool,
            embeddings=True,
            pooling=pooling,
        )

    def _names(self) -> str:
        return f"{self.info.name or ''} {self.info.path.name}".lower()

    def tokenize(self, text: str, truncate: bool) -> list[int]:
        """A text's tokens (with the model's own start and end tokens); ContextOverflowError when
        it passes ``max_tokens`` and ``truncate`` is false."""
        tokens = self.llama.tokenize(text.encode(), True)
        if len(tokens) > self.max_tokens:
            if not truncate:
                raise ContextOverflowError(
                    f"a text of {len(tokens)} tokens passes the {self.max_tokens} an embedding reads",
                    len(tokens),
                    self.max_tokens,
                )
            tokens = tokens[: self.max_tokens]
        return tokens or [self.llama.bos if self.llama.bos >= 0 else 0]

    def embed(self, texts: Sequence[list[int]], cancel: CancelToken | None = None) -> Embeddings:
        """The normalised vectors of tokenised ``texts`` (``tokenize``), in their order."""
        vectors = np.empty((len(texts), self.n_embd), dtype=np.float32)
        start = 0
        with self._lock:
            if self.closed:
                raise ModelClosedError("the embedding model is closed")
            context = self._context_
            context.set_abort(cancel)
            try:
                while start < len(texts):
                    end = self._fill(texts, start)
                    with native.NativeLog():
                        rc = context.decode(self._batch)
                    if rc == 2:
                        raise Cancelled("the embeddings were cancelled")
                    if rc != 0:
                        raise DecodeError(f"llama.cpp failed to compute embeddings (llama_decode returned {rc})", rc)
                    for seq in range(end - start):
                        vectors[start + seq] = context.embedding(seq)
                    context.clear()
                    start = end
            finally:
                context.set_abort(None)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return Embeddings(vectors / np.maximum(norms, 1e-12), sum(len(t) for t in texts))

    def _fill(self, texts: Sequence[list[int]], start: int) -> int:
        """Put texts from ``start`` into the batch, as many as fit; return where it stopped."""
        token_at, pos_at, seq_at, logits_at = self._batch.arrays()
        count, end = 0, start
        while end < len(texts) and end - start < self.sequences and count + len(texts[end]) <= self.max_tokens:
            for pos, token in enumerate(texts[end]):
                token_at[count], pos_at[count], seq_at[count][0], logits_at[count] = token, pos, end - start, True
                count += 1
            end += 1
        self._batch.set_count(count)
        return end

    def shorten(self, vectors: np.ndarray, dimensions: int) -> np.ndarray:
        """The first ``dimensions`` of each vector, normalised again (Matryoshka models only);
        InvalidSettingError for other models or sizes."""
        if dimensions == self.n_embd:
            return vectors
        if not 1 <= dimensions <= self.n_embd:
            raise InvalidSettingError(f"dimensions must be 1 to {self.n_embd} for {self.name}")
        if not self.matryoshka:
            raise InvalidSettingError(
                f"{self.name} was not trained for shorter vectors (Matryoshka): only its {self.n_embd} dimensions "
                "are available"
            )
        short = vectors[:, :dimensions]
        shortened: np.ndarray = short / np.maximum(np.linalg.norm(short, axis=1, keepdims=True), 1e-12)
        return shortened
