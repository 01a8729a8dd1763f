"""Chat with a llama.cpp model on the shared ggml build.

Two layers, as in llama-cpp-python:
- ``ChatModel``: one model and one context on one device, and the thin low-level operations
  on them (tokenize, evaluate tokens into the KV cache, sample).  It remembers which tokens
  its KV cache holds, so a prompt that starts like the previous one only evaluates the rest.
- ``ChatSession``: a conversation.  Each turn renders the whole conversation with the model's
  prompt format, tokenizes it and lets the model reuse the cached prefix.  Re-tokenizing the
  rendered text rather than remembering the sampled tokens is what keeps the cache honest: a
  reply that ended on an end-of-turn token, was cut at a stop string, or tokenizes slightly
  differently diverges only where it really differs, and only from there is anything evaluated.

A turn's prompt must leave ``min(max_tokens, n_ctx / 2)`` tokens free for the reply.  When
the conversation outgrows that, the oldest user/assistant turns are left out of the prompt
(they stay in ``messages``); the system prompt and the current message are always kept, and a
message that does not fit even alone is refused with a ContextOverflowError.  The KV entries of the
turns that remain are shifted down (``llama_memory_seq_rm`` + ``llama_memory_seq_add``)
instead of being evaluated again.  A reply that reaches the end of the context drops older
turns the same way and goes on; with nothing left to drop it ends with ``finish="context"``.

A context serves one thread at a time.  Two locks keep it so without ever holding one while
the caller's code runs: the model's native lock is held for each native step (a decode, a
sample, a KV cache edit) and released around every ``on_text`` callback; the "turn" is held
for a whole reply or evaluation, so that replies from two threads take turns instead of
mixing their tokens.  A callback may therefore read the model (tokenize, cached tokens) and
may close it; starting other work on the model from inside its own reply raises
ModelBusyError.  ``close()`` from another thread cancels the work in progress (a reply ends
as "cancelled", with its text so far) instead of waiting for it.  ``llama_decode`` runs
without the GIL (cffi API mode), and a ``CancelToken`` stops it between graph nodes.
The model sits wholly on one device: every layer on the chosen GPU, or nothing offloaded at
all on the CPU, where a persistent threadpool serves all decodes.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal, overload

from ..backend import auto_choice, cpu_share, native, remote
from ..backend.cancel import CancelToken
from ..backend.devices import DeviceChoice, load_with_fallback, select_device
from ..backend.threads import default_threads
from ..errors import (
    Cancelled,
    ContextOverflowError,
    ContextSizeError,
    DecodeError,
    InvalidHistoryError,
    MaxTokensError,
    ModelBusyError,
    ModelClosedError,
    ModelLoadError,
    NothingToRegenerateError,
    ThreadCountError,
    TokenizeError,
)
from ..formats import ROLES
from ..modelfiles.gguf_file import check_gguf
from .prompt_format import Message, PromptFormat, ReplyStream, pick_format
from .sampling import Sampler, SamplingParams, make_sampler

__all__ = [
    "ChatModel",
    "ChatSession",
    "GenerationStats",
    "Message",
    "Reply",
    "SamplingParams",
    "default_threads",
]

N_BATCH = 512  # tokens per llama_decode call while evaluating a prompt
MIN_REPLY_ROOM = 16  # a message is refused when it leaves fewer tokens than this for the reply
MIN_SHIFT_TOKENS = 8  # shorter matching runs are evaluated again rather than shifted

OnText = Callable[[str], None]


@dataclasses.dataclass
class GenerationStats:
    prompt_tokens: int  # tokens evaluated for the prompt (the cached prefix is not counted)
    prompt_seconds: float
    generated_tokens: int  # tokens sampled for the reply, the end-of-generation token excluded
    generation_seconds: float
    time_to_first_token: float  # from the call to the first sampled token
    cached_tokens: int = 0  # prompt tokens reused from the KV cache
    context_tokens: int = 0  # tokens in the context when the reply ended
    dropped_messages: int = 0  # older messages left out of the prompt to make room

    @property
    def prompt_tps(self) -> float:
        return self.prompt_tokens / self.prompt_seconds if self.prompt_seconds > 0 else 0.0

    @property
    def gen_tps(self) -> float:
        return self.generated_tokens / self.generation_seconds if self.generation_seconds > 0 else 0.0


@dataclasses.dataclass
class Reply:
    text: str
    finish: str  # "eog" | "stop" | "max_tokens" | "cancelled" | "context"
    stats: GenerationStats


class _Aborted(Exception):
    """llama_decode stopped because the cancel token was set."""


# --------------------------------------------------------------------------- model loading

_progress_installed = False
_progress_lock = threading.Lock()


class _LoadProgress:
    def __init__(self, callback: Callable[[float], Any] | None) -> None:
        self.callback = callback
        self.cancelled = False
        self.error: BaseException | None = None


def _install_progress() -> None:
    global _progress_installed
    with _progress_lock:
        if _progress_installed:
            return
        ffi = native.ffi()

        @native.def_extern(ffi)
        def parley_py_load_progress(progress: float, user_data: Any) -> bool:
            state: _LoadProgress = ffi.from_handle(user_data)
            try:
                if state.callback is not None and state.callback(float(progress)) is False:
                    state.cancelled = True
            except BaseException as exc:  # re-raised once llama.cpp has returned
                state.error = exc
            return state.error is None and not state.cancelled

        _progress_installed = True


def _cpu_backend_fn(name: str, signature: str) -> Any:
    """A function the CPU backend module exports (it is loaded at run time, not linked)."""
    ffi, lib = native.ffi(), native.lib()
    for i in range(lib.ggml_backend_dev_count()):
        dev = lib.ggml_backend_dev_get(i)
        if lib.ggml_backend_dev_type(dev) == lib.GGML_BACKEND_DEVICE_TYPE_CPU:
            fn = lib.ggml_backend_reg_get_proc_address(lib.ggml_backend_dev_backend_reg(dev), name.encode())
            return None if fn == ffi.NULL else ffi.cast(signature, fn)
    return None


def attach_threadpool(ctx: Any, threads: int) -> Any:
    """Attach a persistent CPU threadpool to ``ctx``, as llama-bench does: without one, ggml
    starts and joins its worker threads for every graph, i.e. for every generated token.
    Returns the pool (free it with ``free_threadpool`` after the context), or None."""
    new = _cpu_backend_fn("ggml_threadpool_new", "struct ggml_threadpool *(*)(struct ggml_threadpool_params *)")
    if new is None:
        return None
    params = native.ffi().new("struct ggml_threadpool_params *", native.lib().ggml_threadpool_params_default(threads))
    pool = new(params)
    if pool == native.ffi().NULL:
        return None
    native.lib().llama_attach_threadpool(ctx, pool, pool)
    return pool


def new_context(model: Any, n_ctx: int, n_seq_max: int, threads: int) -> tuple[Any, native.NativeLog]:
    """A llama.cpp context on the loaded weights ``model`` (NULL on failure, with the log).

    ``n_ctx`` is the whole KV cache; with ``n_seq_max`` > 1 each sequence gets its own part of
    it (``n_ctx / n_seq_max``, which llama.cpp rounds up to a multiple of 256), as llama-server
    does by default.  Several contexts may share one model, each used by one thread at a time.
    """
    ffi, lib = native.ffi(), native.lib()
    cparams = lib.llama_context_default_params()
    cparams.n_ctx = n_ctx
    cparams.n_batch = cparams.n_ubatch = min(N_BATCH, n_ctx)
    cparams.n_seq_max = n_seq_max
    cparams.n_threads = cparams.n_threads_batch = threads
    cparams.abort_callback = ffi.addressof(lib, "parley_abort_flag_cb")
    cparams.abort_callback_data = ffi.NULL
    with native.NativeLog() as errors:
        ctx = lib.llama_init_from_model(model, cparams)
    return ctx, errors


def free_threadpool(pool: Any) -> None:
    free = _cpu_backend_fn("ggml_threadpool_free", "void (*)(struct ggml_threadpool *)")
    if free is not None:
        free(pool)


# --------------------------------------------------------------------------- model


class ChatModel:
    """A llama.cpp model and its context on one device."""

    def __init__(
        self,
        path: str | Path,
        device: str | DeviceChoice = "auto",
        n_ctx: int = 4096,
        threads: int | None = None,
        progress: Callable[[float], Any] | None = None,
    ) -> None:
        """Load ``path`` (GGUF).  ``device``: a policy for ``select_device`` or a choice.

        ``n_ctx`` is capped at the model's training context.  ``progress(fraction)`` is called
        while the weights load; returning False cancels the load (``Cancelled``).
        """
        self.path = Path(path)
        self.info = check_gguf(self.path)  # native code aborts the process on a malformed file
        if n_ctx < 2 * MIN_REPLY_ROOM:
            raise ContextSizeError(f"the context length must be at least {2 * MIN_REPLY_ROOM} tokens, not {n_ctx}")
        if threads is not None and threads < 0:
            raise ThreadCountError(f"the number of CPU threads must be at least 1, not {threads}")
        native.load_backends()
        _install_progress()
        self.threads = threads or default_threads()
        self._lock = threading.RLock()  # the native context: held for each native step, never during a callback
        self._turn = threading.Lock()  # one reply or evaluation at a time, held across its callbacks
        self._turn_thread: int | None = None
        self._cancel: CancelToken | None = None  # the token of the work in progress; close() sets it
        self._closing = False
        self._model: Any = None
        self._ctx: Any = None
        self._batch: Any = None
        self._threadpool: Any = None
        choice = device if isinstance(device, DeviceChoice) else select_device(device)
        choice = auto_choice.settle("chat", self.path, choice, self.threads, device_trial(self.path, self.threads))
        self.device = load_with_fallback(choice, lambda on: self._load(on, n_ctx, progress))
        ffi, lib = native.ffi(), native.lib()
        self._vocab = lib.llama_model_get_vocab(self._model)
        self.n_vocab = int(lib.llama_vocab_n_tokens(self._vocab))
        self.n_ctx = min(int(lib.llama_n_ctx(self._ctx)), self._capped_ctx(n_ctx))
        self.n_batch = min(N_BATCH, self.n_ctx)
        self._batch = lib.llama_batch_init(self.n_batch, 0, 1)
        for i in range(self.n_batch):
            self._batch.n_seq_id[i] = 1
            self._batch.seq_id[i][0] = 0
        # The batch's arrays, fetched once: each struct field access makes a new cffi object.
        self._batch_token, self._batch_pos, self._batch_logits = self._batch.token, self._batch.pos, self._batch.logits
        self._mem = lib.llama_get_memory(self._ctx)
        self._abort_cb = ffi.addressof(lib, "parley_abort_flag_cb")
        self._kv: list[int] = []  # the tokens the KV cache holds, at positions 0..len-1
        self._pieces: dict[int, bytes] = {}
        self._eog: list[int] | None = None
        self._eog_set: frozenset[int] | None = None
        template = native.string(lib.llama_model_chat_template(self._model, ffi.NULL)) or None
        self.has_template = template is not None
        self.prompt_format: PromptFormat = pick_format(template)
        self.name = self.info.name or self.path.stem
        self._bos_text = self._bos_prefix()

    # ------------------------------------------------------------------ loading

    def _capped_ctx(self, n_ctx: int) -> int:
        train = self.info.context_length or 0
        return min(n_ctx, train) if train > 0 else n_ctx

    def _load(self, choice: DeviceChoice, n_ctx: int, progress: Callable[[float], Any] | None) -> None:
        """Load the weights and create the context on ``choice``; ModelLoadError on failure,
        RemoteDeviceLost when its server went away meanwhile."""
        ffi, lib = native.ffi(), native.lib()
        params = lib.llama_model_default_params()
        # One device, no split: on the CPU the device list is empty (main_gpu -1), so nothing is
        # offloaded, not even the KV cache or large-batch matrix products.
        params.split_mode = lib.LLAMA_SPLIT_MODE_NONE
        devices = ffi.new("ggml_backend_dev_t[2]")
        if choice.device.is_gpu:
            devices[0] = lib.ggml_backend_dev_get(choice.device.index)
            params.devices = devices
            params.n_gpu_layers = -1
            params.main_gpu = 0
        else:
            params.devices = devices  # just the terminating NULL
            params.n_gpu_layers = 0
            params.main_gpu = -1
        state = _LoadProgress(progress)
        handle = ffi.new_handle(state)
        params.progress_callback = lib.parley_py_load_progress
        params.progress_callback_user_data = handle
        with native.NativeLog() as errors:
            model = lib.llama_model_load_from_file(str(self.path).encode(), params)
        if state.error is not None:
            if model != ffi.NULL:
                lib.llama_model_free(model)
            raise state.error
        if state.cancelled:
            if model != ffi.NULL:
                lib.llama_model_free(model)
            raise Cancelled("model loading cancelled")
        if model == ffi.NULL:
            raise ModelLoadError(self._failure("llama.cpp could not load", choice, errors))
        ctx, errors = new_context(model, self._capped_ctx(n_ctx), 1, self.threads)
        if ctx == ffi.NULL:
            lib.llama_model_free(model)
            raise ModelLoadError(self._failure("llama.cpp could not create a context for", choice, errors))
        if remote.lost_reason(choice.device):  # the server went away while the weights were sent
            lib.llama_free(ctx)
            lib.llama_model_free(model)
            remote.check(choice.device)
        self._model, self._ctx = model, ctx
        self._threadpool = attach_threadpool(ctx, self.threads)

    def _failure(self, what: str, choice: DeviceChoice, errors: native.NativeLog) -> str:
        reason = errors.reason()
        return f"{what} {self.path} on {choice.device.name}" + (f": {reason}" if reason else " (see the log)")

    def _bos_prefix(self) -> bytes:
        lib = native.lib()
        if not lib.llama_vocab_get_add_bos(self._vocab):
            return b""
        return self._piece(int(lib.llama_vocab_bos(self._vocab)), special=True)

    def close(self) -> None:
        """Free the context and the weights; every later call raises ModelClosedError.

        Work in progress on another thread (or the reply whose callback calls this) is
        cancelled, not waited for: a reply ends with ``finish="cancelled"`` and its text so far.
        """
        self._closing = True
        cancel = self._cancel
        if cancel is not None:
            cancel.cancel()
        with self._lock:
            lib = native.lib()
            if self._batch is not None:
                lib.llama_batch_free(self._batch)
            if self._ctx is not None:
                lib.llama_free(self._ctx)
            if self._threadpool is not None:
                free_threadpool(self._threadpool)
            if self._model is not None:
                lib.llama_model_free(self._model)
            self._batch = self._ctx = self._model = self._threadpool = None
            self._kv = []

    def __enter__(self) -> ChatModel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    # ------------------------------------------------------------------ tokens

    def tokenize(self, text: str | bytes) -> list[int]:
        """Tokens of prompt text; special tokens written in it (``<|im_start|>``) are parsed.

        The BOS token is added when the model wants one and the text does not start with it.
        """
        ffi, lib = native.ffi(), native.lib()
        data = text.encode() if isinstance(text, str) else text
        add_bos = bool(self._bos_text) and not data.startswith(self._bos_text)
        size = len(data) + 8
        with self._lock:
            self._check_open()
            for _ in range(2):
                buf = ffi.new("llama_token[]", size)
                n = lib.llama_tokenize(self._vocab, data, len(data), buf, size, add_bos, True)
                if n >= 0:
                    tokens: list[int] = ffi.unpack(buf, n)
                    return tokens
                size = -n
        raise TokenizeError(f"llama.cpp could not tokenize the text ({len(data)} bytes)")

    def _piece(self, token: int, special: bool = False) -> bytes:
        ffi, lib = native.ffi(), native.lib()
        buf = ffi.new("char[]", 256)
        n = lib.llama_token_to_piece(self._vocab, token, buf, 256, 0, special)
        if n < 0:
            buf = ffi.new("char[]", -n)
            n = lib.llama_token_to_piece(self._vocab, token, buf, -n, 0, special)
        piece: bytes = ffi.unpack(buf, n)
        return piece

    def token_bytes(self, token: int) -> bytes:
        """The bytes a generated token adds to the reply (control tokens add none)."""
        piece = self._pieces.get(token)
        if piece is None:
            with self._lock:
                self._check_open()
                piece = self._pieces[token] = self._piece(token)
        return piece

    def is_eog(self, token: int) -> bool:
        with self._lock:
            self._check_open()
            return bool(native.lib().llama_vocab_is_eog(self._vocab, token))

    def _eog_tokens(self) -> list[int]:
        if self._eog is None:
            is_eog, vocab = native.lib().llama_vocab_is_eog, self._vocab
            self._eog = [t for t in range(self.n_vocab) if is_eog(vocab, t)]
        return self._eog

    # ------------------------------------------------------------------ KV cache

    @property
    def cached_tokens(self) -> list[int]:
        """A copy of the tokens the KV cache holds."""
        return list(self._kv)

    def clear_cache(self) -> None:
        with self._working(None), self._lock:
            self._check_open()
            native.lib().llama_memory_clear(self._mem, True)
            self._kv = []

    def evaluate(self, tokens: list[int], cancel: CancelToken | None = None) -> None:
        """Append ``tokens`` to the KV cache, ``n_batch`` at a time, computing the logits of the
        last one.  ``cancel`` (or ``close()`` from another thread) stops it within a graph node
        (``Cancelled``); the batches that were complete stay in the cache."""
        with self._working(cancel or CancelToken()), self._lock:
            self._check_open()
            try:
                self._evaluate(tokens)
            except _Aborted:
                raise Cancelled("evaluation cancelled") from None

    def _check_open(self) -> None:
        if self._ctx is None:
            raise ModelClosedError("the chat model is closed")

    @contextmanager
    def _working(self, cancel: CancelToken | None) -> Iterator[None]:
        """Hold the model's turn for one reply or evaluation, with ``cancel`` as its abort flag.

        Other threads wait for their turn; the thread that holds it (a callback of the work in
        progress) gets ModelBusyError instead of waiting for itself.  ``close()`` sets
        ``cancel``, which aborts llama_decode between graph nodes.
        """
        me = threading.get_ident()
        if self._turn_thread == me:
            raise ModelBusyError(
                "the chat model is busy with a reply on this thread: it cannot start other work "
                "from that reply's callback",
            )
        with self._turn:
            self._turn_thread, self._cancel = me, cancel
            if cancel is not None and self._closing:
                cancel.cancel()
            self._set_abort_flag(cancel)
            try:
                yield
            finally:
                self._set_abort_flag(None)
                self._turn_thread = self._cancel = None

    def _set_abort_flag(self, cancel: CancelToken | None) -> None:
        lib, ffi = native.lib(), native.ffi()
        with self._lock:
            if self._ctx is not None:
                lib.llama_set_abort_callback(self._ctx, self._abort_cb, cancel.c_pointer if cancel else ffi.NULL)

    def _cancelled(self) -> bool:
        """Whether the work in progress was cancelled (its native error lines are then noise)."""
        cancel = self._cancel
        return cancel is not None and cancel.cancelled

    def _evaluate(self, tokens: list[int]) -> None:
        """Decode ``tokens`` into the KV cache; the caller holds the lock and checked it is open."""
        lib = native.lib()
        if len(self._kv) + len(tokens) > self.n_ctx:
            total = len(self._kv) + len(tokens)
            raise ContextOverflowError(
                f"{total} tokens do not fit in the {self.n_ctx}-token context",
                total,
                self.n_ctx,
            )
        batch, token_at, pos_at, logits_at = self._batch, self._batch_token, self._batch_pos, self._batch_logits
        for start in range(0, len(tokens), self.n_batch):
            chunk = tokens[start : start + self.n_batch]
            pos0 = len(self._kv)
            for i, token in enumerate(chunk):
                token_at[i] = token
                pos_at[i] = pos0 + i
                logits_at[i] = 0
            logits_at[len(chunk) - 1] = 1
            batch.n_tokens = len(chunk)
            with native.NativeLog(silenced=self._cancelled) as errors:
                rc = lib.llama_decode(self._ctx, batch)
            if rc != 0:
                self._decode_failed(rc, tokens[start:], errors)
            self._kv.extend(chunk)
        lib.llama_synchronize(self._ctx)  # so that timings include the work (GPU backends are async)
        remote.check(self.device.device)  # a lost server's stand-in results must not be sampled

    def _evaluate_one(self, token: int) -> None:
        """``_evaluate([token])`` for the generation loop, as short as it can be: it runs once
        per token, right after a decode has pushed everything else out of the caches.  Not
        synchronised: reading the logits next does that."""
        pos = len(self._kv)
        self._batch_token[0], self._batch_pos[0], self._batch_logits[0] = token, pos, 1
        self._batch.n_tokens = 1
        with native.NativeLog(silenced=self._cancelled) as errors:
            rc = native.lib().llama_decode(self._ctx, self._batch)
        if rc != 0:
            self._decode_failed(rc, [token], errors)
        self._kv.append(token)

    def _decode_failed(self, rc: int, pending: list[int], errors: native.NativeLog) -> None:
        self._resync(pending)
        if rc == 2:
            raise _Aborted
        reason = errors.reason()
        raise DecodeError(
            f"llama.cpp failed to evaluate {len(pending)} tokens (llama_decode returned {rc})"
            + (f": {reason}" if reason else ""),
            rc,
        )

    def _resync(self, pending: list[int]) -> None:
        """After a failed or aborted decode: keep the ubatches that llama.cpp did store."""
        stored = int(native.lib().llama_memory_seq_pos_max(self._mem, 0)) + 1
        self._kv = (self._kv + pending)[:stored]

    def _remove_from(self, n: int) -> None:
        """Drop the cached tokens from position ``n`` on."""
        if n >= len(self._kv):
            return
        if not native.lib().llama_memory_seq_rm(self._mem, 0, n, -1):
            native.lib().llama_memory_clear(self._mem, True)  # e.g. recurrent state: start over
            n = 0
        del self._kv[n:]

    def _reuse(self, tokens: list[int]) -> int:
        """Keep what the KV cache can reuse of ``tokens``, drop the rest; return how many are kept.

        The common prefix is kept.  After it, the longest run of cached tokens that the new
        prompt continues with (the turns that stay when older ones are left out) is shifted
        down into place instead of being evaluated again.  The last token is never kept: it is
        evaluated again for its logits.
        """
        n = min(common_prefix(self._kv, tokens), len(tokens) - 1)
        if n < len(self._kv):
            b, m = self._find_run(tokens, n)
            lib = native.lib()
            if (
                m >= MIN_SHIFT_TOKENS
                and lib.llama_memory_seq_rm(self._mem, 0, b + m, -1)
                and lib.llama_memory_seq_rm(self._mem, 0, n, b)
            ):
                lib.llama_memory_seq_add(self._mem, 0, b, b + m, n - b)
                self._kv = self._kv[:n] + self._kv[b : b + m]
                return n + m
            self._remove_from(n)
        return len(self._kv)

    def _find_run(self, tokens: list[int], n: int) -> tuple[int, int]:
        """Start and length of the longest cached run after ``n`` equal to ``tokens[n:]``'s start."""
        if not native.lib().llama_memory_can_shift(self._mem):
            return 0, 0
        kv, limit = self._kv, len(tokens) - 1 - n
        best_start, best_len = 0, 0
        for b in range(n + 1, len(kv)):
            m = 0
            while m < limit and b + m < len(kv) and kv[b + m] == tokens[n + m]:
                m += 1
            if m > best_len:
                best_start, best_len = b, m
        return best_start, best_len

    # ------------------------------------------------------------------ sampling

    def _sampler(self, params: SamplingParams, recent: list[int]) -> Sampler:
        """A sampler for ``params`` that has seen ``recent`` (for the repeat penalty)."""
        return make_sampler(params, self.n_vocab, self._eog_tokens() if params.ignore_eos else [], recent)

    def _is_eog(self, token: int) -> bool:
        """``is_eog`` for the generation loop: a set lookup rather than a native call."""
        if self._eog_set is None:
            self._eog_set = frozenset(self._eog_tokens())
        return token in self._eog_set


def common_prefix(a: list[int], b: list[int]) -> int:
    n = min(len(a), len(b))
    for i in range(n):
        if a[i] != b[i]:
            return i
    return n


# --------------------------------------------------------------------------- session


class ChatSession:
    """A conversation with a ``ChatModel``.

    ``messages`` is the whole conversation (the system prompt first, when there is one); the
    prompt may leave out its oldest turns when the context is too small for all of them.
    """

    def __init__(self, model: ChatModel, system_prompt: str = "", history: list[Message] | None = None) -> None:
        self.model = model
        self.messages: list[Message] = []
        self.stats: list[GenerationStats] = []
        self._first = 0  # index in messages of the oldest non-system message in the prompt
        self.reset(system_prompt, history)

    @property
    def last_stats(self) -> GenerationStats | None:
        return self.stats[-1] if self.stats else None

    def reset(self, system_prompt: str = "", history: list[Message] | None = None) -> None:
        """Start over with a new system prompt and optional earlier messages.

        A system message at the start of ``history`` is used when ``system_prompt`` is empty.
        Raises InvalidHistoryError for other roles than user and assistant after it.
        """
        history = list(history or [])
        if history and history[0].role == "system":
            system_prompt = system_prompt or history[0].content
            history = history[1:]
        for m in history:
            if m.role not in ROLES or m.role == "system":
                raise InvalidHistoryError(f"earlier messages must be 'user' or 'assistant', not {m.role!r}")
        with self.model._working(None):  # not while a reply on another thread reads the messages
            self.messages = ([Message("system", system_prompt)] if system_prompt else []) + history
            self._first = 1 if system_prompt else 0
            self.stats = []

    def prompt_messages(self) -> list[Message]:
        """The messages the next prompt is rendered from: the system prompt and the recent turns."""
        head = self.messages[:1] if self.messages and self.messages[0].role == "system" else []
        return head + self.messages[self._first :]

    def reply(
        self,
        user_text: str,
        params: SamplingParams | None = None,
        on_text: OnText | None = None,
        cancel: CancelToken | None = None,
    ) -> Reply:
        """Add the user's message and generate the assistant's reply.

        ``on_text(piece)`` is called on this thread with each new piece of reply text, with no
        lock held.  The reply is added to ``messages``, also when cancelled (with the text so
        far).  On an error (e.g. ContextOverflowError: the message does not fit in the
        context) ``messages`` is left unchanged.
        """
        cancel = cancel or CancelToken()
        with self.model._working(cancel):
            first = self._first
            self.messages.append(Message("user", user_text))
            try:
                return self._generate(params or SamplingParams(), on_text, cancel)
            except BaseException:
                self.messages.pop()
                self._first = first
                raise

    def prefill(self, cancel: CancelToken | None = None) -> int:
        """Read what the next reply's prompt holds before the next message: the system prompt
        and the turns so far, into the KV cache, so that the reply reads little more than the
        message.  Called while the user is still speaking or typing; the reply's prompt is the
        same tokens either way (``_reuse`` keeps only what it starts with).  Returns how many
        tokens were read (0: the cache held them already, or there is no room)."""
        cancel = cancel or CancelToken()
        model = self.model
        with model._working(cancel), model._lock:
            model._check_open()
            head = self.prompt_messages()
            # The prompt's tokens before the message: where two different messages part.
            one, two = (
                model.tokenize(model.prompt_format.render([*head, Message("user", text)]).encode())
                for text in ("a", "b")
            )
            tokens = one[: common_prefix(one, two)]
            if not tokens or len(tokens) + MIN_REPLY_ROOM > model.n_ctx:
                return 0
            if common_prefix(model._kv, tokens) == len(tokens):
                return 0  # read already: what the cache holds after it may serve the reply too
            reused = model._reuse(tokens)
            try:
                model._evaluate(tokens[reused:])
            except _Aborted:
                raise Cancelled("reading the conversation was cancelled") from None
            return len(tokens) - reused

    def regenerate(
        self, params: SamplingParams | None = None, on_text: OnText | None = None, cancel: CancelToken | None = None
    ) -> Reply:
        """Replace the last assistant reply with a new one for the same user message
        (NothingToRegenerateError when the conversation does not end with a reply)."""
        cancel = cancel or CancelToken()
        with self.model._working(cancel):
            if not self.messages or self.messages[-1].role != "assistant":
                raise NothingToRegenerateError("there is no reply to regenerate")
            first, previous = self._first, self.messages.pop()
            try:
                return self._generate(params or SamplingParams(), on_text, cancel)
            except BaseException:
                self.messages.append(previous)
                self._first = first
                raise

    def continue_reply(
        self, params: SamplingParams | None = None, on_text: OnText | None = None, cancel: CancelToken | None = None
    ) -> Reply:
        """Carry on writing the last assistant reply from where its text ends (a reply that was
        stopped, or interrupted when Parley last closed).  The prompt ends with that text, so
        the model continues it rather than starting again; ``on_text`` gets only the new
        pieces, and the returned reply (which replaces the last message) is the whole text.
        NothingToRegenerateError when the conversation does not end with a reply."""
        cancel = cancel or CancelToken()
        with self.model._working(cancel):
            if not self.messages or self.messages[-1].role != "assistant":
                raise NothingToRegenerateError("there is no reply to continue")
            first, previous = self._first, self.messages.pop()
            try:
                return self._generate(params or SamplingParams(), on_text, cancel, prefix=previous.content)
            except BaseException:
                self.messages.append(previous)
                self._first = first
                raise

    # ------------------------------------------------------------------ internals

    def _render(self, partial: bytes = b"") -> list[int]:
        return self.model.tokenize(self.model.prompt_format.render(self.prompt_messages()).encode() + partial)

    @overload
    def _fit(self, room: int, partial: bytes = ..., strict: Literal[True] = ...) -> list[int]: ...

    @overload
    def _fit(self, room: int, partial: bytes, strict: Literal[False]) -> list[int] | None: ...

    def _fit(self, room: int, partial: bytes = b"", strict: bool = True) -> list[int] | None:
        """Prompt tokens leaving ``room`` tokens free, older turns left out as needed.

        When even the shortest prompt leaves less room: ``strict`` raises ContextOverflowError
        if it does not leave MIN_REPLY_ROOM, otherwise None is returned.
        """
        n_ctx = self.model.n_ctx
        tokens = self._render(partial)
        while len(tokens) + room > n_ctx and self._drop_oldest_turn():
            tokens = self._render(partial)
        if len(tokens) + room <= n_ctx:
            return tokens
        if not strict:
            return None
        if len(tokens) + MIN_REPLY_ROOM <= n_ctx:
            return tokens
        what = "the system prompt and the message" if self.messages[0].role == "system" else "the message"
        raise ContextOverflowError(
            f"{what} take {len(tokens)} tokens, too many for the {n_ctx}-token context "
            f"(at least {MIN_REPLY_ROOM} tokens must be left for the reply); shorten it or use a larger context",
            len(tokens),
            n_ctx,
        )

    def _drop_oldest_turn(self) -> bool:
        """Leave the oldest user turn (and its reply) out of the prompt, never the current message."""
        last_user = max((i for i, m in enumerate(self.messages) if m.role == "user"), default=-1)
        nxt = next((i for i in range(self._first + 1, last_user + 1) if self.messages[i].role == "user"), None)
        if nxt is None:
            return False
        self._first = nxt
        return True

    def _dropped(self) -> int:
        return self._first - (1 if self.messages and self.messages[0].role == "system" else 0)

    def _generate(self, params: SamplingParams, on_text: OnText | None, cancel: CancelToken, prefix: str = "") -> Reply:
        """One reply, continuing ``prefix`` (the start of the reply, already written); the caller
        holds the model's turn with ``cancel`` as its abort flag."""
        model = self.model
        if params.max_tokens < 1:
            raise MaxTokensError(f"the longest reply must be at least 1 token, not {params.max_tokens}")
        started = time.perf_counter()
        with model._lock:
            model._check_open()
            tokens = self._fit(min(params.max_tokens, model.n_ctx // 2), prefix.encode())
            reused = model._reuse(tokens)
        stream = ReplyStream([*params.stop, *model.prompt_format.stop], text=prefix)
        generated: list[int] = []
        first_token = prompt_done = None
        finish = "cancelled"
        try:
            with model._lock:
                if not cancel.cancelled and model._ctx is not None:
                    model._evaluate(tokens[reused:])
                    prompt_done = time.perf_counter()
                    sampler = model._sampler(params, tokens)
            if prompt_done is not None:
                finish, first_token = self._loop(params, sampler, stream, generated, on_text, cancel, prefix.encode())
        except _Aborted:
            finish = "cancelled"
        if prompt_done is None:  # cancelled before or while evaluating the prompt
            prompt_done = time.perf_counter()
            evaluated = max(0, len(model._kv) - reused)
        else:
            evaluated = len(tokens) - reused
        tail = stream.finish()
        if tail and on_text is not None:
            on_text(tail)
        ended = time.perf_counter()
        self.messages.append(Message("assistant", stream.text))
        stats = GenerationStats(
            prompt_tokens=evaluated,
            prompt_seconds=prompt_done - started,
            generated_tokens=len(generated),
            generation_seconds=ended - prompt_done,
            time_to_first_token=(first_token or ended) - started,
            cached_tokens=reused,
            context_tokens=len(model._kv),
            dropped_messages=self._dropped(),
        )
        self.stats.append(stats)
        return Reply(stream.text, finish, stats)

    def _loop(
        self,
        params: SamplingParams,
        sampler: Any,
        stream: ReplyStream,
        generated: list[int],
        on_text: OnText | None,
        cancel: CancelToken,
        prefix: bytes,
    ) -> tuple[str, float | None]:
        """Sample, stream and evaluate tokens until a finish condition; return it and the
        time the first token was sampled.

        Each step holds the model's lock for its native work only: ``on_text`` runs without
        it, so the callback may use the model, and ``close()`` from another thread gets the
        lock between two tokens (the step after it then finds the model closed).  On the CPU,
        each step first lets urgent work (the voice's first words) have the cores: ``cpu_share``.
        """
        model = self.model
        device = model.device.device
        shares_cpu = not device.remote and (not device.is_gpu or device.software)
        first: float | None = None
        pending: int | None = None  # the last sampled token, evaluated before the next is sampled
        while True:
            if shares_cpu:
                cpu_share.step_aside()
            with model._lock:
                if cancel.cancelled or model._ctx is None:
                    return "cancelled", first
                if pending is not None:
                    if len(model._kv) < model.n_ctx:
                        model._evaluate_one(pending)
                    elif not self._make_room(params, generated, prefix):
                        return "context", first
                token = sampler.sample(model._ctx)
                if model.device.device.remote:  # a lost server's stand-in logits are not a token
                    remote.check(model.device.device)
                first = first or time.perf_counter()
                if model._is_eog(token) and not params.ignore_eos:
                    return "eog", first
                generated.append(token)
                piece = stream.push(model.token_bytes(token))
            if piece and on_text is not None:
                on_text(piece)
            if stream.stopped:
                return "stop", first
            if len(generated) >= params.max_tokens:
                return "max_tokens", first
            pending = token

    def _make_room(self, params: SamplingParams, generated: list[int], prefix: bytes) -> bool:
        """The context is full mid-reply: leave older turns out and re-place the reply so far."""
        model = self.model
        partial = prefix + b"".join(model.token_bytes(t) for t in generated)
        room = min(params.max_tokens - len(generated), model.n_ctx // 2)
        tokens = self._fit(room, partial, strict=False)
        if tokens is None:
            return False
        model._evaluate(tokens[model._reuse(tokens) :])  # up to and including the last sampled token
        return True


TRIAL_PROMPT = "In two sentences: why is the sky blue, and why are sunsets red?"
TRIAL_TOKENS = 16


def device_trial(path: Path, threads: int) -> auto_choice.Measure:
    """Auto's measurement for chat: seconds for one short greedy reply (the prompt evaluated in
    full, then ``TRIAL_TOKENS`` tokens) on a device; on a GPU the run after one warm-up."""

    def measure(choice: DeviceChoice) -> float:
        on = dataclasses.replace(choice, requested="trial", note=None)
        with ChatModel(path, device=on, n_ctx=512, threads=threads) as model:
            if model.device.device.index != choice.device.index:
                raise ModelLoadError(f"{choice.device.name} could not load {path.name}: {model.device.fallback_reason}")
            params = SamplingParams(temperature=0, max_tokens=TRIAL_TOKENS)
            best = float("inf")
            for _ in range(2 if choice.device.is_gpu else 1):
                model.clear_cache()
                started = time.perf_counter()
                ChatSession(model).reply(TRIAL_PROMPT, params)
                best = min(best, time.perf_counter() - started)
        return best

    return measure
