"""Several replies at once: N sequences in one llama.cpp context, decoded together.

A ``BatchEngine`` opens a second context on the weights a ``ChatModel`` already holds (no
second copy of the model) with ``n_seq_max = parallel``: each sequence gets its own part of
the KV cache (``n_ctx`` tokens), as llama-server's slots do.  One thread, the engine's own,
does every native step on that context.  Each step builds one batch from every busy
sequence (the token each sampled last, and chunks of the prompts still to evaluate) and
decodes it with one ``llama_decode``; then each sequence samples its next token from its own
row of logits with its own sampler, and checks its own stop strings, ``max_tokens`` and
cancel flag.  A reply cancelled from any thread therefore stops within one token.

Requests beyond ``parallel`` wait in a bounded line (``QueueFullError`` when it is full).  A
sequence keeps what its KV cache holds when its reply ends; the next request goes to the free
sequence that shares the longest prefix with its prompt and evaluates only the rest (a
conversation's next turn, a fixed system prompt).

Results reach the caller through callbacks run on the engine thread (``on_text`` with each
new piece of text, ``on_done`` once with the ``BatchResult``); they must be quick and must not
call the engine (hand them to a queue).  ``close()`` must come before the model's own
``close()``: the context uses the model's weights.
"""

from __future__ import annotations

import collections
import dataclasses
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from ..backend import native, remote
from ..backend.cancel import CancelToken
from ..errors import (
    ContextOverflowError,
    ContextSizeError,
    DecodeError,
    InvalidSettingError,
    MaxTokensError,
    ModelClosedError,
    ModelLoadError,
    QueueFullError,
    TokenizeError,
)
from .model import MIN_REPLY_ROOM, ChatModel, attach_threadpool, common_prefix, free_threadpool, new_context
from .prompt_format import ReplyStream
from .sampling import Sampler, SamplingParams

log = logging.getLogger("parley.chat")

MAX_PARALLEL = 64  # sequences in one context; llama.cpp's own limit is 256
DEFAULT_MAX_QUEUE = 32  # requests that may wait for a free sequence

OnText = Callable[[str], None]


@dataclasses.dataclass
class BatchResult:
    text: str
    finish: str  # "eog" | "stop" | "max_tokens" | "context" | "cancelled" | "error"
    prompt_tokens: int  # the whole prompt, as an API counts it
    cached_tokens: int  # of which were reused from the sequence's KV cache
    generated_tokens: int  # sampled tokens, the end-of-generation token excluded
    time_to_first_token: float | None  # seconds from submit() to the first sampled token
    error: BaseException | None = None  # why, when finish is "error"


OnDone = Callable[[BatchResult], None]


class BatchJob:
    """One request in the engine: made by ``BatchEngine.submit``; ``cancel()`` from any thread."""

    def __init__(
        self, engine: BatchEngine, tokens: list[int], params: SamplingParams, on_text: OnText, on_done: OnDone
    ) -> None:
        self.tokens = tokens
        self.params = params
        self.on_text = on_text
        self.on_done = on_done
        self.submitted = time.perf_counter()
        self._engine = engine
        self._cancelled = False

    @property
    def cancelled(self) -> bool:
        return self._cancelled

    def cancel(self) -> None:
        """Stop the reply: a waiting one leaves the line at once, a running one ends before its
        next token; ``on_done`` gets ``finish="cancelled"`` with the text so far."""
        self._cancelled = True
        self._engine._withdraw(self)


class _Sequence:
    """One of the context's sequences and the reply it is producing (on the engine thread only)."""

    def __init__(self, seq_id: int) -> None:
        self.seq_id = seq_id
        self.kv: list[int] = []  # the tokens its KV cache holds, at positions 0..len-1
        self.job: BatchJob | None = None
        self.pending: list[int] = []  # prompt tokens still to evaluate
        self.next_token: int | None = None  # sampled, evaluated in the next batch
        self.sampler: Sampler | None = None
        self.stream = ReplyStream(())
        self.generated = 0
        self.reused = 0
        self.first_token: float | None = None


class BatchEngine:
    """``parallel`` replies decoded together on ``model``'s weights (see the module docstring)."""

    def __init__(
        self,
        model: ChatModel,
        parallel: int = 4,
        n_ctx: int | None = None,
        max_queue: int = DEFAULT_MAX_QUEUE,
    ) -> None:
        """``n_ctx``: tokens per sequence (default: the model's context length), capped at the
        model's training context; the KV cache holds ``parallel * n_ctx`` tokens."""
        if not 1 <= parallel <= MAX_PARALLEL:
            raise InvalidSettingError(f"the number of parallel sequences must be 1 to {MAX_PARALLEL}, not {parallel}")
        if max_queue < 0:
            raise InvalidSettingError(f"the waiting line must hold 0 or more requests, not {max_queue}")
        per_seq = model._capped_ctx(n_ctx or model.n_ctx)
        if per_seq < 2 * MIN_REPLY_ROOM:
            raise ContextSizeError(f"the context length must be at least {2 * MIN_REPLY_ROOM} tokens, not {per_seq}")
        model._check_open()
        self.model = model
        self.parallel = parallel
        self.max_queue = max_queue
        ffi, lib = native.ffi(), native.lib()
        ctx, errors = new_context(model._model, per_seq * parallel, parallel, model.threads)
        if ctx == ffi.NULL:
            reason = errors.reason()
            raise ModelLoadError(
                f"llama.cpp could not create a {parallel}-sequence context for {model.path}"
                + (f": {reason}" if reason else " (see the log)")
            )
        self._ctx = ctx
        self._threadpool = attach_threadpool(ctx, model.threads)
        self.n_ctx = min(int(lib.llama_n_ctx(ctx)) // parallel, per_seq)
        self.n_batch = int(lib.llama_n_batch(ctx))
        self._batch = lib.llama_batch_init(self.n_batch, 0, 1)
        for i in range(self.n_batch):
            self._batch.n_seq_id[i] = 1
        self._token_at, self._pos_at, self._logits_at = self._batch.token, self._batch.pos, self._batch.logits
        self._seq_at = self._batch.seq_id
        self._mem = lib.llama_get_memory(ctx)
        self._abort = CancelToken()  # set by close(): stops a decode between graph nodes
        lib.llama_set_abort_callback(ctx, ffi.addressof(lib, "parley_abort_flag_cb"), self._abort.c_pointer)
        self._stops = model.prompt_format.stop
        self._sequences = [_Sequence(i) for i in range(parallel)]
        self._queue: collections.deque[BatchJob] = collections.deque()
        self._cond = threading.Condition()
        self._closing = False
        self._running = 0  # sequences with a job (read from other threads for ``busy``)
        self._thread = threading.Thread(target=self._run, name="parley-batch", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------------ any thread

    def submit(
        self,
        tokens: list[int],
        params: SamplingParams,
        on_text: OnText | None = None,
        on_done: OnDone | None = None,
    ) -> BatchJob:
        """Queue a reply to the prompt ``tokens``; ContextOverflowError when the prompt leaves
        no room for a reply in a sequence, QueueFullError when the line is full."""
        if not tokens:
            raise TokenizeError("the prompt is empty")
        if params.max_tokens < 1:
            raise MaxTokensError(f"the longest reply must be at least 1 token, not {params.max_tokens}")
        if len(tokens) >= self.n_ctx:
            raise ContextOverflowError(
                f"the prompt takes {len(tokens)} tokens, too many for the {self.n_ctx}-token context",
                len(tokens),
                self.n_ctx,
            )
        job = BatchJob(self, list(tokens), params, on_text or _ignore, on_done or _ignore)
        with self._cond:
            if self._closing:
                raise ModelClosedError("the batch engine is closed")
            if self._running + len(self._queue) >= self.parallel + self.max_queue:
                raise QueueFullError(
                    f"all {self.parallel} sequences are busy and {self.max_queue} requests are already waiting"
                )
            self._queue.append(job)
            self._cond.notify()
        return job

    @property
    def busy(self) -> bool:
        """Whether a reply is running or waiting."""
        return self._running > 0 or bool(self._queue)

    @property
    def waiting(self) -> int:
        return len(self._queue)

    def close(self) -> None:
        """Cancel every reply (each gets ``on_done``) and free the context; waits for the
        engine thread unless called from it (a callback)."""
        with self._cond:
            self._closing = True
            self._cond.notify_all()
        self._abort.cancel()
        if threading.current_thread() is not self._thread:
            self._thread.join()

    def __enter__(self) -> BatchEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _withdraw(self, job: BatchJob) -> None:
        """A cancelled job that still waits leaves the line now."""
        with self._cond:
            try:
                self._queue.remove(job)
            except ValueError:
                return  # running (it ends at the next step) or already done
        _report(job, BatchResult("", "cancelled", len(job.tokens), 0, 0, None))

    # ------------------------------------------------------------------ the engine thread

    def _run(self) -> None:
        error: BaseException | None = None
        try:
            while True:
                with self._cond:
                    while not self._closing and not self._queue and not self._running:
                        self._cond.wait()
                    if self._closing:
                        break
                    started = self._admit()
                for seq, job in started:
                    self._start(seq, job)
                self._step()
        except BaseException as exc:  # reported to every job, then the engine is closed
            log.exception("the batch engine stopped")
            error = exc
        finally:
            with self._cond:
                self._closing = True
                queued = list(self._queue)
                self._queue.clear()
            for seq in self._sequences:
                if seq.job is not None:
                    self._finish(seq, "error" if error else "cancelled", error)
            for job in queued:
                _report(job, BatchResult("", "error" if error else "cancelled", len(job.tokens), 0, 0, None, error))
            self._free()

    def _admit(self) -> list[tuple[_Sequence, BatchJob]]:
        """Waiting jobs for the free sequences, each to the one whose cache shares most of its
        prompt (the caller holds the condition)."""
        started = []
        free = [s for s in self._sequences if s.job is None]
        while free and self._queue:
            job = self._queue.popleft()
            seq = max(free, key=lambda s: common_prefix(s.kv, job.tokens))
            free.remove(seq)
            seq.job = job
            self._running += 1
            started.append((seq, job))
        return started

    def _start(self, seq: _Sequence, job: BatchJob) -> None:
        """Keep the cached prefix of the job's prompt in the sequence, drop the rest."""
        lib = native.lib()
        keep = min(common_prefix(seq.kv, job.tokens), len(job.tokens) - 1)  # the last one is evaluated for its logits
        if keep < len(seq.kv):
            if not lib.llama_memory_seq_rm(self._mem, seq.seq_id, keep, -1):
                lib.llama_memory_seq_rm(self._mem, seq.seq_id, -1, -1)  # e.g. a recurrent state: start over
                keep = 0
            del seq.kv[keep:]
        seq.reused = keep
        seq.pending = job.tokens[keep:]
        seq.next_token = None
        seq.generated = 0
        seq.first_token = None
        seq.sampler = self.model._sampler(job.params, job.tokens)
        seq.stream = ReplyStream([*job.params.stop, *self._stops])

    def _step(self) -> None:
        """One batch: each generating sequence's last token, then prompt chunks as room allows."""
        outputs: list[tuple[_Sequence, int]] = []
        n = 0
        for seq in self._sequences:
            job = seq.job
            if job is None:
                continue
            if job.cancelled:
                self._finish(seq, "cancelled")
            elif seq.next_token is not None:
                if len(seq.kv) >= self.n_ctx:
                    self._finish(seq, "context")
                    continue
                self._put(n, seq, seq.next_token, True)
                outputs.append((seq, n))
                seq.next_token = None
                n += 1
        for seq in self._sequences:
            if seq.job is None or not seq.pending or n >= self.n_batch:
                continue
            chunk = seq.pending[: self.n_batch - n]
            del seq.pending[: len(chunk)]
            for i, token in enumerate(chunk):
                self._put(n, seq, token, not seq.pending and i == len(chunk) - 1)
                n += 1
            if not seq.pending:
                outputs.append((seq, n - 1))
        if n == 0:
            return
        self._batch.n_tokens = n
        with native.NativeLog(silenced=lambda: self._abort.cancelled) as errors:
            rc = native.lib().llama_decode(self._ctx, self._batch)
        if rc != 0:
            self._decode_failed(rc, errors)
            return
        if self.model.device.device.remote:  # a lost server's stand-in logits are not tokens
            remote.check(self.model.device.device)
        for seq, index in outputs:
            self._sample(seq, index)

    def _put(self, i: int, seq: _Sequence, token: int, logits: bool) -> None:
        self._token_at[i] = token
        self._pos_at[i] = len(seq.kv)
        self._seq_at[i][0] = seq.seq_id
        self._logits_at[i] = logits
        seq.kv.append(token)

    def _sample(self, seq: _Sequence, index: int) -> None:
        job, sampler = seq.job, seq.sampler
        assert job is not None and sampler is not None
        token = sampler.sample(self._ctx, index)
        seq.first_token = seq.first_token or time.perf_counter()
        params = job.params
        if self.model._is_eog(token) and not params.ignore_eos:
            self._finish(seq, "eog")
            return
        seq.generated += 1
        piece = seq.stream.push(self.model.token_bytes(token))
        if piece:
            _call(job, job.on_text, piece)
        if seq.stream.stopped:
            self._finish(seq, "stop")
        elif seq.generated >= params.max_tokens:
            self._finish(seq, "max_tokens")
        else:
            seq.next_token = token

    def _decode_failed(self, rc: int, errors: native.NativeLog) -> None:
        """Every sequence in the failed batch keeps what llama.cpp stored and its reply ends."""
        lib = native.lib()
        for seq in self._sequences:
            stored = int(lib.llama_memory_seq_pos_max(self._mem, seq.seq_id)) + 1
            del seq.kv[stored:]
        if rc == 2 or self._abort.cancelled:
            return  # closing: the loop ends and cancels every reply
        reason = errors.reason()
        error = DecodeError(
            f"llama.cpp failed to evaluate a batch (llama_decode returned {rc})" + (f": {reason}" if reason else ""),
            rc,
        )
        for seq in self._sequences:
            if seq.job is not None:
                self._finish(seq, "error", error)

    def _finish(self, seq: _Sequence, finish: str, error: BaseException | None = None) -> None:
        job = seq.job
        assert job is not None
        tail = seq.stream.finish()
        if tail:
            _call(job, job.on_text, tail)
        first = seq.first_token
        result = BatchResult(
            text=seq.stream.text,
            finish=finish,
            prompt_tokens=len(job.tokens),
            cached_tokens=seq.reused,
            generated_tokens=seq.generated,
            time_to_first_token=None if first is None else first - job.submitted,
            error=error,
        )
        seq.job, seq.sampler, seq.pending, seq.next_token = None, None, [], None
        with self._cond:
            self._running -= 1
        _report(job, result)

    def _free(self) -> None:
        lib = native.lib()
        if self._batch is not None:
            lib.llama_batch_free(self._batch)
        if self._ctx is not None:
            lib.llama_free(self._ctx)
        if self._threadpool is not None:
            free_threadpool(self._threadpool)
        self._batch = self._ctx = self._threadpool = None


def _ignore(_: Any) -> None:
    pass


def _call(job: BatchJob, callback: Callable[[Any], None], value: Any) -> None:
    """A job's callback; one that raises cancels its own job, never the engine."""
    try:
        callback(value)
    except Exception:
        log.exception("a batch job's callback failed; the job is cancelled")
        job._cancelled = True


def _report(job: BatchJob, result: BatchResult) -> None:
    try:
        job.on_done(result)
    except Exception:
        log.exception("a batch job's on_done callback failed")
