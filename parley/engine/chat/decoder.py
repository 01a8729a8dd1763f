"""The one decode step that ``ChatModel`` and ``BatchEngine`` share.

A ``Decoder`` is a llama.cpp context on a model's weights (with its CPU threadpool and its
batch) and, for each of its sequences, the tokens its KV cache holds at positions 0..len-1.
``put`` places a token at the next position of a sequence, ``decode`` runs what was put.  When
a decode fails, every sequence keeps what llama.cpp did store, and the failure is raised the
same way for every caller: ``DecodeAborted`` when the context's cancel flag stopped it,
DecodeError with llama.cpp's own reason otherwise.

A decoder serves one thread at a time; its owner holds the lock.
"""

from __future__ import annotations

from collections.abc import Callable

from ..backend import native
from ..errors import ContextOverflowError, DecodeError, ModelClosedError
from ..handles.llama import LlamaBatch, LlamaContext, LlamaModel, start_cpu_threadpool
from ..handles.owner import Owner

N_BATCH = 512  # tokens per llama_decode call while evaluating a prompt
MIN_SHIFT_TOKENS = 8  # shorter matching runs are evaluated again rather than shifted


class DecodeAborted(Exception):
    """llama_decode stopped because the context's cancel flag was set (caught in this package)."""


class Decoder(Owner):
    """A context of ``sequences`` sequences of ``n_ctx`` tokens each on ``model``'s weights."""

    def __init__(self, model: LlamaModel, *, n_ctx: int, sequences: int, threads: int) -> None:
        super().__init__()
        self.kv: list[list[int]] = [[] for _ in range(sequences)]  # what each sequence's cache holds
        with self._building():
            pool = start_cpu_threadpool(threads)
            if pool is not None:
                self._resources.enter_context(pool)
            total = n_ctx * sequences
            self.context = self._resources.enter_context(
                LlamaContext(
                    model,
                    n_ctx=total,
                    n_batch=min(N_BATCH, total),
                    n_seq_max=sequences,
                    threads=threads,
                    threadpool=pool,
                )
            )
            self._batch = self._resources.enter_context(LlamaBatch(self.context.n_batch))
        self.threads = threads  # what the decodes compute with now (``set_threads``)
        self.n_ctx = min(self.context.n_ctx // sequences, n_ctx)  # tokens per sequence
        self.n_batch = self.context.n_batch
        # The batch's arrays, fetched once: each struct field access makes a new cffi object.
        self._token_at, self._pos_at, self._seq_at, self._logits_at = self._batch.arrays()
        self._count = 0  # tokens put in the batch since the last decode

    def set_threads(self, threads: int) -> None:
        """Compute the next decodes on ``threads`` threads (at most the count it was made with)."""
        if threads != self.threads:
            self.context.set_threads(threads)
            self.threads = threads

    @property
    def room(self) -> int:
        """How many more tokens the batch takes before the next decode."""
        return self.n_batch - self._count

    def put(self, seq: int, token: int, logits: bool) -> int:
        """Place ``token`` at the next position of sequence ``seq``; return its index in the
        batch (its row of logits after the decode, when ``logits``)."""
        if self._closed:
            raise ModelClosedError("the llama.cpp context is closed")
        i, kv = self._count, self.kv[seq]
        self._token_at[i] = token
        self._pos_at[i] = len(kv)
        self._seq_at[i][0] = seq
        self._logits_at[i] = logits
        kv.append(token)
        self._count = i + 1
        return i

    def decode(self, silenced: Callable[[], bool] | None = None) -> None:
        """Decode what was put.  ``silenced``: while it is true, the native error lines are
        noise (a cancel aborted the decode) and are not kept for the error message."""
        n, self._count = self._count, 0
        self._batch.set_count(n)
        with native.NativeLog(silenced=silenced) as errors:
            rc = self.context.decode(self._batch)
        if rc == 0:
            return
        for seq, kv in enumerate(self.kv):
            del kv[self.context.stored(seq) :]
        if rc == 2:
            raise DecodeAborted
        reason = errors.reason()
        raise DecodeError(
            f"llama.cpp failed to evaluate {n} tokens (llama_decode returned {rc})" + (f": {reason}" if reason else ""),
            rc,
        )

    def evaluate(self, seq: int, tokens: list[int], silenced: Callable[[], bool] | None = None) -> None:
        """Append ``tokens`` to sequence ``seq``, ``n_batch`` at a time, computing the logits of
        the last one; ContextOverflowError when they do not fit.  The batches that were decoded
        stay in the cache when a later one fails."""
        kv = self.kv[seq]
        total = len(kv) + len(tokens)
        if total > self.n_ctx:
            raise ContextOverflowError(
                f"{total} tokens do not fit in the {self.n_ctx}-token context", total, self.n_ctx
            )
        for start in range(0, len(tokens), self.n_batch):
            chunk = tokens[start : start + self.n_batch]
            last = len(chunk) - 1
            for i, token in enumerate(chunk):
                self.put(seq, token, i == last)
            self.decode(silenced)
        self.context.synchronize()  # so that timings include the work (GPU backends are async)

    def keep(self, seq: int, n: int) -> int:
        """Drop sequence ``seq``'s cached tokens from position ``n`` on; return how many are
        kept (none when its memory can only be emptied, e.g. a recurrent state)."""
        kv = self.kv[seq]
        if n >= len(kv):
            return len(kv)
        if not self.context.remove(seq, n, -1):
            self.context.remove(seq, -1, -1)
            n = 0
        del kv[n:]
        return n

    def reuse(self, seq: int, tokens: list[int]) -> int:
        """Keep what sequence ``seq``'s cache can reuse of ``tokens``, drop the rest; return how
        many are kept.

        The common prefix is kept.  After it, the longest run of cached tokens that the new
        prompt continues with (the turns that stay when older ones are left out) is shifted
        down into place instead of being evaluated again.  The last token is never kept: it is
        evaluated again for its logits.
        """
        kv = self.kv[seq]
        n = min(common_prefix(kv, tokens), len(tokens) - 1)
        if n < len(kv):
            b, m = self._find_run(seq, tokens, n)
            context = self.context
            if m >= MIN_SHIFT_TOKENS and context.remove(seq, b + m, -1) and context.remove(seq, n, b):
                context.shift(seq, b, b + m, n - b)
                kv[n:] = kv[b : b + m]
                return n + m
            self.keep(seq, n)
        return len(kv)

    def _find_run(self, seq: int, tokens: list[int], n: int) -> tuple[int, int]:
        """Start and length of the longest cached run after ``n`` equal to ``tokens[n:]``'s start."""
        if not self.context.can_shift():
            return 0, 0
        kv, limit = self.kv[seq], len(tokens) - 1 - n
        best_start, best_len = 0, 0
        for b in range(n + 1, len(kv)):
            m = 0
            while m < limit and b + m < len(kv) and kv[b + m] == tokens[n + m]:
                m += 1
            if m > best_len:
                best_start, best_len = b, m
        return best_start, best_len

    def close(self) -> None:
        """Free the context, its threadpool and the batch; the caches then hold nothing."""
        super().close()
        for kv in self.kv:
            kv.clear()

    def clear(self) -> None:
        """Empty every sequence's cache."""
        self.context.clear()
        for kv in self.kv:
            kv.clear()


def common_prefix(a: list[int], b: list[int]) -> int:
    n = min(len(a), len(b))
    for i in range(n):
        if a[i] != b[i]:
            return i
    return n
