"""llama.cpp's objects, one owner each: the model, a context, a batch, a sampler chain, and the
CPU threadpool a context computes with.

Thin on purpose: each method is one native call with its result checked or converted; what to
evaluate, keep or sample is decided in ``parley.engine.chat``.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .. import notes
from ..backend import native
from ..backend.cancel import CancelToken
from ..backend.devices import Device
from ..backend.rpc import remote
from ..errors import Cancelled, GrammarError, ModelLoadError, TokenizeError
from ..modelfiles.gguf_file import GGUFInfo
from ..notes import Note
from .owner import NativeHandle

# --------------------------------------------------------------------------- loading progress

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


# --------------------------------------------------------------------------- model


class LlamaModel(NativeHandle):
    """A model's weights on one device, and its vocabulary (which the model owns)."""

    what = "llama.cpp model"

    def __init__(self, info: GGUFInfo, device: Device, progress: Callable[[float], Any] | None = None) -> None:
        """Load the file ``info`` describes: ``info`` is what ``check_gguf`` returned, so no file
        reaches llama.cpp unchecked (it aborts the process on some malformed files).

        The model sits wholly on ``device``: every layer on a GPU, or nothing offloaded at all on
        the CPU.  ``progress(fraction)`` returning False cancels the load (``Cancelled``).
        ModelLoadError when llama.cpp refuses the file.
        """
        super().__init__()
        self.info = info
        self.path = info.path
        ffi, lib = native.ffi(), native.lib()
        _install_progress()
        params = lib.llama_model_default_params()
        # One device, no split: on the CPU the device list is empty (main_gpu -1), so nothing is
        # offloaded, not even the KV cache or large-batch matrix products.
        params.split_mode = lib.LLAMA_SPLIT_MODE_NONE
        devices = ffi.new("ggml_backend_dev_t[2]")
        params.devices = devices  # on the CPU just the terminating NULL
        if device.is_gpu:
            devices[0] = lib.ggml_backend_dev_get(device.index)
            params.n_gpu_layers, params.main_gpu = -1, 0
        else:
            params.n_gpu_layers, params.main_gpu = 0, -1
        state = _LoadProgress(progress)
        user_data = ffi.new_handle(state)
        params.progress_callback = lib.parley_py_load_progress
        params.progress_callback_user_data = user_data
        with self._building():
            with native.NativeLog() as errors:
                model = lib.llama_model_load_from_file(str(self.path).encode(), params)
            if model != ffi.NULL:
                self._adopt(model, lib.llama_model_free)
            if state.error is not None:
                raise state.error
            if state.cancelled:
                raise Cancelled("model loading cancelled")
            if model == ffi.NULL:
                reason = errors.reason()
                where = {"engine": "llama.cpp", "path": self.path, "device": device.name}
                raise ModelLoadError(
                    Note(notes.LOAD_REFUSED, **where, reason=reason)
                    if reason
                    else Note(notes.LOAD_REFUSED_SEE_LOG, **where)
                )
        self.device = device
        self._vocab = lib.llama_model_get_vocab(model)
        self.n_vocab = int(lib.llama_vocab_n_tokens(self._vocab))
        self.adds_bos = bool(lib.llama_vocab_get_add_bos(self._vocab))
        self.bos = int(lib.llama_vocab_bos(self._vocab))
        self.eos = int(lib.llama_vocab_eos(self._vocab))
        # Fill-in-the-middle tokens (prefix, suffix, middle); -1 where the vocabulary has none
        fim = (lib.llama_vocab_fim_pre, lib.llama_vocab_fim_suf, lib.llama_vocab_fim_mid)
        self.fim_tokens = tuple(int(f(self._vocab)) for f in fim)

    @property
    def fills_in(self) -> bool:
        """Whether the vocabulary has the three fill-in-the-middle tokens."""
        return all(t >= 0 for t in self.fim_tokens)

    def cap_context(self, n_ctx: int) -> int:
        """``n_ctx`` capped at the context length the model was trained for (when it says)."""
        train = self.info.context_length or 0
        return min(n_ctx, train) if train > 0 else n_ctx

    def chat_template(self) -> str | None:
        """The model's default chat template (None when it has none)."""
        return native.string(native.lib().llama_model_chat_template(self.handle, native.ffi().NULL)) or None

    def _vocabulary(self) -> Any:
        self._check_open()  # the vocabulary is the model's
        return self._vocab

    def tokenize(self, data: bytes, add_bos: bool) -> list[int]:
        """Tokens of ``data``; special tokens written in it (``<|im_start|>``) are parsed."""
        ffi, lib = native.ffi(), native.lib()
        vocab = self._vocabulary()
        size = len(data) + 8
        for _ in range(2):
            buf = ffi.new("llama_token[]", size)
            n = lib.llama_tokenize(vocab, data, len(data), buf, size, add_bos, True)
            if n >= 0:
                tokens: list[int] = ffi.unpack(buf, n)
                return tokens
            size = -n
        raise TokenizeError(f"llama.cpp could not tokenize the text ({len(data)} bytes)")

    def piece(self, token: int, special: bool = False) -> bytes:
        """The bytes of ``token``; a control token gives none unless ``special``."""
        ffi, lib = native.ffi(), native.lib()
        vocab = self._vocabulary()
        buf = ffi.new("char[]", 256)
        n = lib.llama_token_to_piece(vocab, token, buf, 256, 0, special)
        if n < 0:
            buf = ffi.new("char[]", -n)
            n = lib.llama_token_to_piece(vocab, token, buf, -n, 0, special)
        piece: bytes = ffi.unpack(buf, n)
        return piece

    def eog_tokens(self) -> list[int]:
        """Every end-of-generation token of the vocabulary."""
        is_eog, vocab = native.lib().llama_vocab_is_eog, self._vocabulary()
        return [t for t in range(self.n_vocab) if is_eog(vocab, t)]


# --------------------------------------------------------------------------- CPU threadpool


def _cpu_backend_fn(name: str, signature: str) -> Any:
    """A function the CPU backend module exports (it is loaded at run time, not linked)."""
    ffi, lib = native.ffi(), native.lib()
    for i in range(lib.ggml_backend_dev_count()):
        dev = lib.ggml_backend_dev_get(i)
        if lib.ggml_backend_dev_type(dev) == lib.GGML_BACKEND_DEVICE_TYPE_CPU:
            fn = lib.ggml_backend_reg_get_proc_address(lib.ggml_backend_dev_backend_reg(dev), name.encode())
            return None if fn == ffi.NULL else ffi.cast(signature, fn)
    return None


class CpuThreadpool(NativeHandle):
    """A persistent ggml CPU threadpool, as llama-bench uses: without one, ggml starts and joins
    its worker threads for every graph, i.e. for every generated token."""

    what = "CPU threadpool"

    def __init__(self, pool: Any, free: Callable[[Any], object]) -> None:
        super().__init__()
        self._adopt(pool, free)


def start_cpu_threadpool(threads: int) -> CpuThreadpool | None:
    """A threadpool of ``threads`` threads, or None when the CPU backend offers none."""
    new = _cpu_backend_fn("ggml_threadpool_new", "struct ggml_threadpool *(*)(struct ggml_threadpool_params *)")
    free = _cpu_backend_fn("ggml_threadpool_free", "void (*)(struct ggml_threadpool *)")
    if new is None or free is None:
        return None
    ffi = native.ffi()
    pool = new(ffi.new("struct ggml_threadpool_params *", native.lib().ggml_threadpool_params_default(threads)))
    return None if pool == ffi.NULL else CpuThreadpool(pool, free)


# --------------------------------------------------------------------------- context


@functools.cache
def pooling_types() -> dict[str, int]:
    """llama.cpp's pooling types by name."""
    lib = native.lib()
    return {
        "mean": lib.LLAMA_POOLING_TYPE_MEAN,
        "cls": lib.LLAMA_POOLING_TYPE_CLS,
        "last": lib.LLAMA_POOLING_TYPE_LAST,
        "rank": lib.LLAMA_POOLING_TYPE_RANK,
    }


class LlamaContext(NativeHandle):
    """A context on a model's weights: the KV cache of ``n_seq_max`` sequences and the logits.

    ``n_ctx`` is the whole KV cache; with ``n_seq_max`` > 1 each sequence gets its own part of
    it (``n_ctx / n_seq_max``, which llama.cpp rounds up to a multiple of 256), as llama-server
    does by default.  Several contexts may share one model, each used by one thread at a time.
    """

    what = "llama.cpp context"

    def __init__(
        self,
        model: LlamaModel,
        *,
        n_ctx: int,
        n_batch: int,
        n_seq_max: int,
        threads: int,
        threadpool: CpuThreadpool | None,
        embeddings: bool = False,
        pooling: str | None = None,
    ) -> None:
        """``embeddings``: the context gives pooled embeddings per sequence instead of logits,
        pooled as ``pooling`` says ("mean", "cls", "last"; None: as the model's file says)."""
        super().__init__(model, *([threadpool] if threadpool else []))
        ffi, lib = native.ffi(), native.lib()
        with self._building():
            cparams = lib.llama_context_default_params()
            cparams.n_ctx = n_ctx
            cparams.n_batch = cparams.n_ubatch = n_batch
            cparams.n_seq_max = n_seq_max
            cparams.n_threads = cparams.n_threads_batch = threads
            cparams.abort_callback = ffi.addressof(lib, "parley_abort_flag_cb")
            cparams.abort_callback_data = ffi.NULL
            if embeddings:
                cparams.embeddings = True
                cparams.pooling_type = pooling_types()[pooling] if pooling else lib.LLAMA_POOLING_TYPE_UNSPECIFIED
            with native.NativeLog() as errors:
                ctx = lib.llama_init_from_model(model.handle, cparams)
            if ctx == ffi.NULL:
                reason = errors.reason()
                sequences = f" with {n_seq_max} sequences" if n_seq_max > 1 else ""
                raise ModelLoadError(
                    f"llama.cpp could not create a context{sequences} for {model.path} on {model.device.name}"
                    + (f": {reason}" if reason else " (see the log)")
                )
            self._adopt(ctx, lib.llama_free)
            if threadpool is not None:
                lib.llama_attach_threadpool(ctx, threadpool.handle, threadpool.handle)
        self._lib = lib
        self._device = model.device
        self._memory = lib.llama_get_memory(ctx)
        self._abort_cb = ffi.addressof(lib, "parley_abort_flag_cb")
        self.n_ctx = int(lib.llama_n_ctx(ctx))
        self.n_batch = int(lib.llama_n_batch(ctx))
        self.n_vocab = model.n_vocab
        self._logits: tuple[int, np.ndarray] | None = None  # (address, view) of llama.cpp's buffer
        self.n_embd = int(lib.llama_model_n_embd(model.handle))
        pooled = int(lib.llama_pooling_type(ctx)) if embeddings else lib.LLAMA_POOLING_TYPE_NONE
        self.pooling = next((name for name, value in pooling_types().items() if value == pooled), None)

    def set_threads(self, threads: int) -> None:
        """Compute the next decodes on ``threads`` threads (at most the threadpool's)."""
        self._lib.llama_set_n_threads(self.handle, threads, threads)

    def set_abort(self, cancel: CancelToken | None) -> None:
        """Let ``cancel`` stop a decode between graph nodes (None: nothing stops it)."""
        self._lib.llama_set_abort_callback(
            self.handle, self._abort_cb, cancel.c_pointer if cancel is not None else native.ffi().NULL
        )

    def decode(self, batch: LlamaBatch) -> int:
        """``llama_decode``'s result: 0 done, 2 aborted, another value an error (see its log)."""
        with remote.computing(self._device):
            return int(self._lib.llama_decode(self.handle, batch.struct))

    def synchronize(self) -> None:
        """Wait for the decodes in flight (GPU backends are asynchronous)."""
        self._lib.llama_synchronize(self.handle)

    def logits(self, index: int = -1) -> np.ndarray:
        """llama.cpp's logits of output ``index`` of the last batch (-1: its last token), as a
        numpy view of its buffer (made again only when the buffer moved)."""
        ffi = native.ffi()
        ptr = self._lib.llama_get_logits_ith(self.handle, index)
        if ptr == ffi.NULL:
            raise RuntimeError("llama.cpp returned no logits")  # a bug in the caller, never the user's input
        address = int(ffi.cast("uintptr_t", ptr))
        if self._logits is None or self._logits[0] != address:
            self._logits = address, np.frombuffer(ffi.buffer(ptr, self.n_vocab * 4), dtype=np.float32)
        return self._logits[1]

    @property
    def has_memory(self) -> bool:
        """Whether the context keeps a KV cache (a causal model; an encoder such as BERT has none)."""
        return bool(self._memory != native.ffi().NULL)

    def embedding(self, seq: int) -> np.ndarray:
        """A copy of sequence ``seq``'s pooled embedding after the last decode (a context made
        with ``embeddings`` and a pooling)."""
        ffi = native.ffi()
        ptr = self._lib.llama_get_embeddings_seq(self.handle, seq)
        if ptr == ffi.NULL:
            raise RuntimeError(f"llama.cpp returned no embedding for sequence {seq}")  # a bug in the caller
        vector: np.ndarray = np.frombuffer(ffi.buffer(ptr, self.n_embd * 4), dtype=np.float32).copy()
        return vector

    # KV cache (llama.cpp's "memory"): positions p0 <= p < p1 of one sequence; -1 is open-ended.

    def stored(self, seq: int) -> int:
        """How many positions of sequence ``seq`` the KV cache holds."""
        return int(self._lib.llama_memory_seq_pos_max(self._memory_of_open(), seq)) + 1

    def remove(self, seq: int, p0: int, p1: int) -> bool:
        """Drop positions [p0, p1); False when the memory cannot (e.g. a recurrent state)."""
        return bool(self._lib.llama_memory_seq_rm(self._memory_of_open(), seq, p0, p1))

    def shift(self, seq: int, p0: int, p1: int, delta: int) -> None:
        """Move positions [p0, p1) by ``delta``."""
        self._lib.llama_memory_seq_add(self._memory_of_open(), seq, p0, p1, delta)

    def can_shift(self) -> bool:
        return bool(self._lib.llama_memory_can_shift(self._memory_of_open()))

    def clear(self) -> None:
        """Empty the KV cache of every sequence."""
        self._lib.llama_memory_clear(self._memory_of_open(), True)

    def _memory_of_open(self) -> Any:
        self._check_open()  # the memory is the context's
        return self._memory


# --------------------------------------------------------------------------- batch


class LlamaBatch(NativeHandle):
    """Room for ``n_tokens`` tokens to decode, each in one sequence.  Fill it through ``arrays``
    (fetched once: each field access of a cffi struct makes a new object) and ``set_count``."""

    what = "llama.cpp batch"

    def __init__(self, n_tokens: int) -> None:
        super().__init__()
        lib = native.lib()
        batch = lib.llama_batch_init(n_tokens, 0, 1)
        self._adopt(batch, lib.llama_batch_free)
        for i in range(n_tokens):
            batch.n_seq_id[i] = 1
        self.capacity = n_tokens

    @property
    def struct(self) -> Any:
        """The ``llama_batch`` struct, passed by value to ``llama_decode``."""
        return self.handle

    def arrays(self) -> tuple[Any, Any, Any, Any]:
        """Its token, position, sequence-id (``[i][0]``) and wants-logits arrays."""
        batch = self.handle
        return batch.token, batch.pos, batch.seq_id, batch.logits

    def set_count(self, n_tokens: int) -> None:
        self.handle.n_tokens = n_tokens


# --------------------------------------------------------------------------- sampler chain


class LlamaSampler(NativeHandle):
    """llama.cpp's sampler chain; each sampler added to it belongs to the chain."""

    what = "llama.cpp sampler"

    def __init__(self) -> None:
        super().__init__()
        lib = native.lib()
        self._adopt(lib.llama_sampler_chain_init(lib.llama_sampler_chain_default_params()), lib.llama_sampler_free)

    def _add(self, sampler: Any) -> None:
        native.lib().llama_sampler_chain_add(self.handle, sampler)

    def add_logit_bias(self, n_vocab: int, biases: Sequence[tuple[int, float]]) -> None:
        ffi = native.ffi()
        array = ffi.new("llama_logit_bias[]", list(biases))
        self._add(native.lib().llama_sampler_init_logit_bias(n_vocab, len(biases), array))

    def add_penalties(self, n_vocab: int, last_n: int, repeat: float) -> None:
        self._add(native.lib().llama_sampler_init_penalties(n_vocab, last_n, repeat, 0.0, 0.0))

    def add_greedy(self) -> None:
        self._add(native.lib().llama_sampler_init_greedy())

    def add_top_k(self, k: int) -> None:
        self._add(native.lib().llama_sampler_init_top_k(k))

    def add_top_p(self, p: float) -> None:
        self._add(native.lib().llama_sampler_init_top_p(p, 1))

    def add_min_p(self, p: float) -> None:
        self._add(native.lib().llama_sampler_init_min_p(p, 1))

    def add_temperature(self, temperature: float) -> None:
        self._add(native.lib().llama_sampler_init_temp(temperature))

    def add_distribution(self, seed: int | None) -> None:
        """The seeded draw (None: llama.cpp picks a random seed)."""
        lib = native.lib()
        self._add(lib.llama_sampler_init_dist(lib.LLAMA_DEFAULT_SEED if seed is None else seed & 0xFFFFFFFF))

    def accept(self, token: int) -> None:
        """Count ``token`` as seen (for the repeat penalty)."""
        native.lib().llama_sampler_accept(self.handle, token)

    def sample(self, context: LlamaContext, index: int = -1) -> int:
        return int(native.lib().llama_sampler_sample(self.handle, context.handle, index))


# --------------------------------------------------------------------------- grammar


class LlamaGrammar(NativeHandle):
    """llama.cpp's grammar sampler on a model's vocabulary: which tokens may come next.

    Only ever ``accept`` a token that ``allows`` (or ``allowed``) said may come: llama.cpp aborts
    the process on any other.
    """

    what = "llama.cpp grammar"

    def __init__(self, model: LlamaModel, gbnf: str, root: str = "root") -> None:
        super().__init__(model)
        ffi, lib = native.ffi(), native.lib()
        with self._building():
            with native.NativeLog() as errors:
                sampler = lib.llama_sampler_init_grammar(model._vocabulary(), gbnf.encode(), root.encode())
            if sampler == ffi.NULL:
                reason = errors.reason()
                raise GrammarError("llama.cpp refused the grammar" + (f": {reason}" if reason else ""))
            self._adopt(sampler, lib.llama_sampler_free)
        self._lib = lib
        self.n_vocab = model.n_vocab
        self._one = ffi.new("llama_token_data[1]")
        self._one_array = ffi.new("llama_token_data_array *", {"data": self._one, "size": 1, "selected": -1})
        self._all: np.ndarray | None = None  # every token's (id, logit, p), made on first use
        self._all_array: Any = None

    def allows(self, token: int) -> bool:
        """Whether ``token`` may come next."""
        one = self._one[0]
        one.id, one.logit, one.p = token, 0.0, 0.0
        self._one_array.size, self._one_array.selected = 1, -1
        self._lib.llama_sampler_apply(self.handle, self._one_array)
        return bool(one.logit != float("-inf"))

    def allowed(self) -> np.ndarray:
        """A boolean mask over the vocabulary of the tokens that may come next (one pass of the
        grammar over every token: milliseconds for a large vocabulary)."""
        if self._all is None:
            ffi = native.ffi()
            self._all = np.zeros(self.n_vocab, dtype=[("id", "<i4"), ("logit", "<f4"), ("p", "<f4")])
            self._all["id"] = np.arange(self.n_vocab, dtype=np.int32)
            data = ffi.cast("llama_token_data *", ffi.from_buffer(self._all))
            self._all_array = ffi.new("llama_token_data_array *", {"data": data, "size": self.n_vocab, "selected": -1})
        self._all["logit"] = 0.0
        self._all_array.size, self._all_array.selected, self._all_array.sorted = self.n_vocab, -1, False
        self._lib.llama_sampler_apply(self.handle, self._all_array)
        mask: np.ndarray = self._all["logit"] != -np.inf
        return mask

    def allowed_among(self, tokens: np.ndarray) -> np.ndarray:
        """A boolean mask over ``tokens`` (token ids) of those that may come next: one pass of
        the grammar over these tokens only, so a few hundred cost a small part of ``allowed``."""
        ffi = native.ffi()
        some = np.zeros(len(tokens), dtype=[("id", "<i4"), ("logit", "<f4"), ("p", "<f4")])
        some["id"] = tokens
        data = ffi.cast("llama_token_data *", ffi.from_buffer(some))
        array = ffi.new("llama_token_data_array *", {"data": data, "size": len(some), "selected": -1})
        self._lib.llama_sampler_apply(self.handle, array)
        mask: np.ndarray = some["logit"] != -np.inf
        return mask

    def accept(self, token: int) -> None:
        """``token`` came: the grammar moves past it (it must be one it allows)."""
        self._lib.llama_sampler_accept(self.handle, token)


# --------------------------------------------------------------------------- chat templates


def apply_chat_template(template: str, messages: Sequence[tuple[str, str]]) -> str | None:
    """``(role, content)`` pairs rendered by llama.cpp with ``template``, ending where the
    assistant's reply begins; None when llama.cpp does not recognise the template."""
    ffi, lib = native.ffi(), native.lib()
    c_template = ffi.new("char[]", template.encode())
    keep = [ffi.new("char[]", s.encode()) for pair in messages for s in pair]
    chat = ffi.new("llama_chat_message[]", len(messages))
    for i in range(len(messages)):
        chat[i].role, chat[i].content = keep[2 * i], keep[2 * i + 1]
    size = 2 * sum(len(k) for k in keep) + 256
    for _ in range(2):
        buf = ffi.new("char[]", size)
        n = lib.llama_chat_apply_template(c_template, chat, len(messages), True, buf, size)
        if n < 0:
            return None
        if n <= size:
            text: bytes = ffi.unpack(buf, n)
            return text.decode("utf-8", "replace")
        size = n
    return None
