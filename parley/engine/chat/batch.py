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
call the engine (hand them to a queue).  The engine's context keeps the model's weights
allocated until it closes, also when the ``ChatModel`` is closed first.

The engine and ``ChatModel`` feed their contexts through the same ``decoder.Decoder``: the same
decode step, with the same handling of a failed or aborted decode.
"""

from __future__ import annotations

import collections
import dataclasses
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from ..backend.cancel import CancelToken
from ..backend.rpc import remote
from ..errors import (
    ChatError,
    ContextOverflowError,
    ContextSizeError,
    DecodeError,
    InvalidSettingError,
    MaxTokensError,
    ModelClosedError,
    QueueFullError,
    TokenizeError,
)
from ..handles.owner import Owner
from .decoder import DecodeAborted, Decoder, common_prefix
from .model import MIN_REPLY_ROOM, ChatModel
from .prompt_format import ReplyStream
from .sampling import Sampler, SamplingParams, token_logprobs

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
    # Under a grammar: the tokens it refused (chosen again), and of those the ones that needed
    # its pass over the whole vocabulary (``constrained``; for tests and benchmarks)
    refused_tokens: int = 0
    full_passes: int = 0


OnDone = Callable[[BatchResult], None]


@dataclasses.dataclass
class TokenLogprob:
    """A generated token's bytes and log-probability, and the most likely tokens at its place
    (``SamplingParams.logprobs`` of them) with theirs."""

    data: bytes
    logprob: float
    top: list[tuple[bytes, float]]


OnLogprob = Callable[[TokenLogprob], None]


class BatchJob:
    """One request in the engine: made by ``BatchEngine.submit``; ``cancel()`` from any thread."""

    def __init__(
        self,
        engine: BatchEngine,
        tokens: list[int],
        params: SamplingParams,
        on_text: OnText,
        on_done: OnDone,
        on_logprob: OnLogprob | None = None,
    ) -> None:
        self.tokens = tokens
        self.params = params
        self.on_text = on_text
        self.on_done = on_done
        self.on_logprob = on_logprob
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

    def __init__(self, seq_id: int, kv: list[int]) -> None:
        self.seq_id = seq_id
        self.kv = kv  # the tokens its KV cache holds, at positions 0..len-1 (the decoder keeps it)
        self.job: BatchJob | None = None
        self.pending: list[int] = []  # prompt tokens still to evaluate
        self.next_token: int | None = None  # sampled, evaluated in the next batch
        self.sampler: Sampler | None = None
        self.stream = ReplyStream(())
        self.generated = 0
        self.reused = 0
        self.first_token: float | None = None


class BatchEngine(Owner):
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
        super().__init__()
        self._cond = threading.Condition()
        self._closing = False
        self._abort = CancelToken()  # set by close(): stops a decode between graph nodes
        self._thread = threading.Thread(target=self._run, name="parley-batch", daemon=True)
        with self._building():
            if not 1 <= parallel <= MAX_PARALLEL:
                raise InvalidSettingError(
                    f"the number of parallel sequences must be 1 to {MAX_PARALLEL}, not {parallel}"
                )
            if max_queue < 0:
                raise InvalidSettingError(f"the waiting line must hold 0 or more requests, not {max_queue}")
            per_seq = model.llama.cap_context(n_ctx or model.n_ctx)
            if per_seq < 2 * MIN_REPLY_ROOM:
                raise ContextSizeError(
                    f"the context length must be at least {2 * MIN_REPLY_ROOM} tokens, not {per_seq}"
                )
            self.model = model
            self.parallel = parallel
            self.max_queue = max_queue
            decoder = Decoder(model.llama, n_ctx=per_seq, sequences=parallel, threads=model.threads)
            self._decoder = self._resources.enter_context(decoder)
            decoder.context.set_abort(self._abort)
            self.n_ctx = decoder.n_ctx
            self.n_batch = decoder.n_batch
            self._stops = model.prompt_format.stop
            self._sequences = [_Sequence(i, decoder.kv[i]) for i in range(parallel)]
            self._queue: collections.deque[BatchJob] = collections.deque()
            self._running = 0  # sequences with a job (read from other threads for ``busy``)
            self._thread.start()

    # ------------------------------------------------------------------ any thread

    def submit(
        self,
        tokens: list[int],
        params: SamplingParams,
        on_text: OnText | None = None,
        on_done: OnDone | None = None,
        on_logprob: OnLogprob | None = None,
    ) -> BatchJob:
        """Queue a reply to the prompt ``tokens``; ContextOverflowError when the prompt leaves
        no room for a reply in a sequence, QueueFullError when the line is full.

        ``on_logprob`` (with ``params.logprobs`` set) gets each sampled token's log-probability
        before the text it adds reaches ``on_text``."""
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
        job = BatchJob(self, list(tokens), params, on_text or _ignore, on_done or _ignore, on_logprob)
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
        engine thread unless called from it (a callback).  The engine thread frees the context
        as it ends (here when it never started)."""
        with self._cond:
            self._closing = True
            self._cond.notify_all()
        self._abort.cancel()
        if self._thread.ident is None:
            super().close()
        elif threading.current_thread() is not self._thread:
            self._thread.join()

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
            super().close()

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
        keep = min(common_prefix(seq.kv, job.tokens), len(job.tokens) - 1)  # the last one is evaluated for its logits
        seq.reused = self._decoder.keep(seq.seq_id, keep)
        seq.pending = job.tokens[seq.reused :]
        seq.next_token = None
        seq.generated = 0
        seq.first_token = None
        completion = job.params.completion
        seq.stream = ReplyStream([*job.params.stop, *(() if completion else self._stops)], strip=not completion)
        try:
            seq.sampler = self.model.sampler(job.params, job.tokens)
        except ChatError as error:  # a grammar llama.cpp refused: this reply fails, not the engine
            self._finish(seq, "error", error)

    def _step(self) -> None:
        """One batch: each generating sequence's last token, then prompt chunks as room allows."""
        decoder = self._decoder
        outputs: list[tuple[_Sequence, int]] = []
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
                outputs.append((seq, decoder.put(seq.seq_id, seq.next_token, True)))
                seq.next_token = None
        for seq in self._sequences:
            if seq.job is None or not seq.pending or not decoder.room:
                continue
            chunk = seq.pending[: decoder.room]
            del seq.pending[: len(chunk)]
            for i, token in enumerate(chunk):
                index = decoder.put(seq.seq_id, token, not seq.pending and i == len(chunk) - 1)
            if not seq.pending:
                outputs.append((seq, index))
        if decoder.room == self.n_batch:
            return
        device = self.model.device.device
        if self.model.governor is not None and not device.is_gpu and not device.remote:
            several = self.n_batch - decoder.room > 1  # tokens in this step: sequences, or a prompt
            decoder.set_threads(self.model.governor.threads(batch=several))  # the cores other programs leave free
        try:
            decoder.decode(silenced=lambda: self._abort.cancelled)
        except DecodeAborted:
            return  # closing: the loop ends and cancels every reply
        except DecodeError as error:  # every sequence in the batch kept what llama.cpp stored
            if self._abort.cancelled:
                return
            for seq in self._sequences:
                if seq.job is not None:
                    self._finish(seq, "error", error)
            return
        if self.model.device.device.remote:  # a lost server's stand-in logits are not tokens
            remote.check(self.model.device.device)
        for seq, index in outputs:
            self._sample(seq, index)

    def _sample(self, seq: _Sequence, index: int) -> None:
        job, sampler = seq.job, seq.sampler
        assert job is not None and sampler is not None
        token = sampler.sample(self._decoder.context, index)
        seq.first_token = seq.first_token or time.perf_counter()
        params = job.params
        if self.model.is_eog(token) and not params.ignore_eos:
            self._finish(seq, "eog")
            return
        if params.logprobs is not None and job.on_logprob is not None:
            _call(job, job.on_logprob, self._logprob(token, index, params.logprobs))
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

    def _logprob(self, token: int, index: int, top: int) -> TokenLogprob:
        logprob, best = token_logprobs(self._decoder.context.logits(index), token, top)
        piece = self.model.token_bytes
        return TokenLogprob(piece(token), logprob, [(piece(t), p) for t, p in best])

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
            refused_tokens=getattr(seq.sampler, "refused", 0),
            full_passes=getattr(seq.sampler, "full_passes", 0),
        )
        close = getattr(seq.sampler, "close", None)
        if close is not None:
            close()
        seq.job, seq.sampler, seq.pending, seq.next_token = None, None, [], None
        with self._cond:
            self._running -= 1
        _report(job, result)


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
