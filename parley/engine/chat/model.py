"""Chat with a llama.cpp model on the shared ggml build.

- ``ChatModel``: a model's weights and one context on one device (``handles.LlamaModel`` and a
  ``decoder.Decoder``), the locks that give the context to one thread at a time, and the
  tokens: tokenize, evaluate into the KV cache, sample.  Its decoder remembers which tokens the
  KV cache holds, so a prompt that starts like the previous one only evaluates the rest.
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

import contextlib
import dataclasses
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal, overload

from ..backend import auto_choice, cpu_load, cpu_share, native
from ..backend.cancel import CancelToken
from ..backend.devices import DeviceChoice, load_with_fallback, select_device
from ..backend.rpc import remote
from ..backend.threads import default_threads, usable_threads
from ..errors import (
    Cancelled,
    ContextOverflowError,
    ContextSizeError,
    InvalidHistoryError,
    MaxTokensError,
    ModelBusyError,
    ModelClosedError,
    ModelLoadError,
    NothingToRegenerateError,
    ThreadCountError,
)
from ..formats import ROLES
from ..handles.llama import LlamaGrammar, LlamaModel
from ..handles.owner import Owner
from ..modelfiles.gguf_file import check_chat_gguf
from . import tool_prompt
from .chat_template import ChatTemplate
from .constrained import ConstrainedSampler
from .decoder import DecodeAborted, Decoder, common_prefix
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

MIN_REPLY_ROOM = 16  # a message is refused when it leaves fewer tokens than this for the reply
_UNREAD = object()  # a lazily read value not read yet

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


# --------------------------------------------------------------------------- model


class ChatModel(Owner):
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
        super().__init__()
        self.path = Path(path)
        self._lock = threading.RLock()  # the native context: held for each native step, never during a callback
        self._turn = threading.Lock()  # one reply or evaluation at a time, held across its callbacks
        self._turn_thread: int | None = None
        self._cancel: CancelToken | None = None  # the token of the work in progress; close() sets it
        self._closing = False
        self.llama: LlamaModel  # the weights: other contexts (BatchEngine) are made from them
        self._decoder: Decoder
        with self._building():
            self.info = check_chat_gguf(self.path)  # native code aborts the process on a malformed file
            if n_ctx < 2 * MIN_REPLY_ROOM:
                raise ContextSizeError(f"the context length must be at least {2 * MIN_REPLY_ROOM} tokens, not {n_ctx}")
            if threads is not None and threads < 0:
                raise ThreadCountError(f"the number of CPU threads must be at least 1, not {threads}")
            native.load_backends()
            self.threads = usable_threads(threads) if threads else default_threads()
            # No count given: the threads follow the machine's load (cpu_load); a given one stays.
            self.governor = cpu_load.ThreadGovernor(self.threads) if not threads else None
            choice = device if isinstance(device, DeviceChoice) else select_device(device)
            choice = auto_choice.settle("chat", self.path, choice, self.threads, device_trial(self.path, self.threads))
            self.device = load_with_fallback(choice, lambda on: self._load(on, n_ctx, progress))
            self.n_vocab = self.llama.n_vocab
            self.n_ctx = self._decoder.n_ctx
            self.n_batch = self._decoder.n_batch
            self._kv = self._decoder.kv[0]  # the tokens the KV cache holds (the decoder keeps it)
            self._pieces: dict[int, bytes] = {}
            self._eog: frozenset[int] | None = None
            template = self.llama.chat_template()
            self.has_template = template is not None
            # A model that thinks before it answers unless told not to (Qwen3, SmolLM3: their
            # templates take ``enable_thinking``): a voice cannot wait for it, so it is told.
            self.thinks_unless_told = template is not None and "enable_thinking" in template
            self.prompt_format: PromptFormat = pick_format(template)
            self.name = self.info.name or self.path.stem
            self._bos_text = self.llama.piece(self.llama.bos, special=True) if self.llama.adds_bos else b""
            self._tool_template: ChatTemplate | None | object = _UNREAD

    def _load(self, choice: DeviceChoice, n_ctx: int, progress: Callable[[float], Any] | None) -> None:
        """Load the weights and create the context on ``choice``; ModelLoadError on failure,
        RemoteDeviceLost when its server went away meanwhile.  A failure frees what was made."""
        with contextlib.ExitStack() as made:
            llama = made.enter_context(LlamaModel(self.info, choice.device, progress))
            decoder = made.enter_context(
                Decoder(llama, n_ctx=llama.cap_context(n_ctx), sequences=1, threads=self.threads)
            )
            if remote.lost_reason(choice.device):  # the server went away while the weights were sent
                remote.check(choice.device)
            self._resources.enter_context(made.pop_all())
        self.llama, self._decoder = llama, decoder

    def close(self) -> None:
        """Free the context and the weights; every later call raises ModelClosedError.

        Work in progress on another thread (or the reply whose callback calls this) is
        cancelled, not waited for: a reply ends with ``finish="cancelled"`` and its text so far.
        A ``BatchEngine`` made from this model keeps the weights until it closes too.
        """
        self._closing = True
        cancel = self._cancel
        if cancel is not None:
            cancel.cancel()
        with self._lock:
            super().close()

    def tool_template(self) -> ChatTemplate | None:
        """The model's own template when it renders tools safely (``tool_prompt.usable_template``;
        None: the built-in format with the generic tool instructions), read once."""
        if self._tool_template is _UNREAD:
            llama = self.llama
            bos = llama.piece(llama.bos, special=True).decode("utf-8", "replace") if llama.bos >= 0 else ""
            eos = llama.piece(llama.eos, special=True).decode("utf-8", "replace") if llama.eos >= 0 else ""
            self._tool_template = tool_prompt.usable_template(llama.chat_template(), bos, eos)
        return self._tool_template  # type: ignore[return-value]

    # ------------------------------------------------------------------ tokens

    def tokenize(self, text: str | bytes) -> list[int]:
        """Tokens of prompt text; special tokens written in it (``<|im_start|>``) are parsed.

        The BOS token is added when the model wants one and the text does not start with it.
        """
        data = text.encode() if isinstance(text, str) else text
        add_bos = bool(self._bos_text) and not data.startswith(self._bos_text)
        with self._lock:
            self._check_open()
            return self.llama.tokenize(data, add_bos)

    def token_bytes(self, token: int) -> bytes:
        """The bytes a generated token adds to the reply (control tokens add none)."""
        piece = self._pieces.get(token)
        if piece is None:
            with self._lock:
                self._check_open()
                piece = self._pieces[token] = self.llama.piece(token)
        return piece

    def is_eog(self, token: int) -> bool:
        """Whether ``token`` ends a generation (a set lookup: the generation loop asks per token)."""
        return token in self._eog_set()

    def _eog_set(self) -> frozenset[int]:
        eog = self._eog
        if eog is None:
            with self._lock:
                self._check_open()
                eog = self._eog = frozenset(self.llama.eog_tokens())
        return eog

    def sampler(self, params: SamplingParams, recent: list[int]) -> Sampler:
        """A sampler for ``params`` that has seen ``recent`` (for the repeat penalty); under
        ``params.grammar`` when it has one (GrammarError when llama.cpp refuses it)."""
        banned = sorted(self._eog_set()) if params.ignore_eos and not params.grammar else []
        sampler = make_sampler(params, self.n_vocab, banned, recent)
        if params.grammar:
            return ConstrainedSampler(sampler, LlamaGrammar(self.llama, params.grammar), self._end_token())
        return sampler

    def _end_token(self) -> int:
        """An end-of-generation token: the model's EOS when it is one."""
        eog = self._eog_set()
        return self.llama.eos if self.llama.eos in eog or not eog else min(eog)

    # ------------------------------------------------------------------ KV cache

    @property
    def cached_tokens(self) -> list[int]:
        """A copy of the tokens the KV cache holds."""
        return list(self._kv)

    def clear_cache(self) -> None:
        with self._working(None), self._lock:
            self._check_open()
            self._decoder.clear()

    def evaluate(self, tokens: list[int], cancel: CancelToken | None = None) -> None:
        """Append ``tokens`` to the KV cache, ``n_batch`` at a time, computing the logits of the
        last one.  ``cancel`` (or ``close()`` from another thread) stops it within a graph node
        (``Cancelled``); the batches that were complete stay in the cache."""
        with self._working(cancel or CancelToken()), self._lock:
            self._check_open()
            try:
                self._evaluate(tokens)
            except DecodeAborted:
                raise Cancelled("evaluation cancelled") from None

    def _check_open(self) -> None:
        if self.closed:
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
        with self._lock:
            if not self.closed:
                self._decoder.context.set_abort(cancel)

    def _cancelled(self) -> bool:
        """Whether the work in progress was cancelled (its native error lines are then noise)."""
        cancel = self._cancel
        return cancel is not None and cancel.cancelled

    # The native steps of a reply; the caller holds the lock and checked that the model is open.

    def _follow_load(self) -> None:
        """Compute the next decodes on the threads the machine has free now (``cpu_load``): on
        the CPU, when no thread count was given."""
        device = self.device.device
        if self.governor is not None and not device.is_gpu and not device.remote:
            self._decoder.set_threads(self.governor.threads())

    def _evaluate(self, tokens: list[int]) -> None:
        """Decode ``tokens`` into the KV cache."""
        self._follow_load()
        self._decoder.evaluate(0, tokens, self._cancelled)
        remote.check(self.device.device)  # a lost server's stand-in results must not be sampled

    def _evaluate_one(self, token: int) -> None:
        """The generation loop's decode of the token it sampled last, as short as it can be: it
        runs once per token.  Not synchronised: reading the logits next does that."""
        self._follow_load()
        decoder = self._decoder
        decoder.put(0, token, True)
        decoder.decode(self._cancelled)

    def _sample(self, sampler: Sampler) -> int:
        return sampler.sample(self._decoder.context)

    def _reuse(self, tokens: list[int]) -> int:
        """Keep what the KV cache can reuse of ``tokens`` (``Decoder.reuse``); return how many."""
        return self._decoder.reuse(0, tokens)


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

    def record_calls(self, text: str, calls: list[dict[str, Any]]) -> None:
        """The last reply called tools: it becomes ``text`` (its words without the calls) and the
        ``calls`` ({"id", "type": "function", "function": {"name", "arguments": {...}}})."""
        with self.model._working(None):
            if not self.messages or self.messages[-1].role != "assistant":
                raise NothingToRegenerateError("there is no reply whose tool calls to record")
            self.messages[-1] = Message("assistant", text, tool_calls=tuple(calls))

    def add_call_reply(self, user_text: str, calls: list[dict[str, Any]]) -> Reply:
        """The user's message and a reply that only calls ``calls`` (as ``record_calls`` takes
        them), made without the model: a call the request leaves nothing to write for
        (``tools.turn``).  The model reads both with the next prompt."""
        with self.model._working(None):
            self.messages += [Message("user", user_text), Message("assistant", "", tool_calls=tuple(calls))]
        return Reply("", "stop", GenerationStats(0, 0.0, 0, 0.0, 0.0))

    def add_tool_result(self, call_id: str, name: str, content: str) -> None:
        """What the call ``call_id`` of tool ``name`` gave, for the next ``resume``."""
        with self.model._working(None):
            self.messages.append(Message("tool", content, tool_call_id=call_id, name=name))

    def add_reply(self, text: str) -> None:
        """The assistant's answer to the tool results that end the conversation, worded without
        the model (a tool's own answer: ``tools.turn``)."""
        with self.model._working(None):
            if not self.messages or self.messages[-1].role != "tool":
                raise NothingToRegenerateError("there are no tool results to answer")
            self.messages.append(Message("assistant", text))

    def resume(
        self,
        params: SamplingParams | None = None,
        on_text: OnText | None = None,
        cancel: CancelToken | None = None,
        opening: str = "",
    ) -> Reply:
        """The assistant's next message after the tool results that end the conversation
        (NothingToRegenerateError when it does not end with one); ``opening`` as for ``reply``."""
        cancel = cancel or CancelToken()
        with self.model._working(cancel):
            if not self.messages or self.messages[-1].role != "tool":
                raise NothingToRegenerateError("there are no tool results to answer")
            first = self._first
            try:
                return self._generate(params or SamplingParams(), on_text, cancel, prefix=opening)
            except BaseException:
                self._first = first
                raise

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
        opening: str = "",
    ) -> Reply:
        """Add the user's message and generate the assistant's reply (which begins with
        ``opening``, written into the prompt: a forced tool call's start; ``on_text`` gets only
        what follows it, the reply's text holds it).

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
                return self._generate(params or SamplingParams(), on_text, cancel, prefix=opening)
            except BaseException:
                self.messages.pop()
                self._first = first
                raise

    def prefill(self, cancel: CancelToken | None = None, message_start: str = "", whole: bool = False) -> int:
        """Read what the next reply's prompt holds before the next message: the system prompt
        and the turns so far, into the KV cache, so that the reply reads little more than the
        message.  Called while the user is still speaking or typing; the reply's prompt is the
        same tokens either way (``_reuse`` keeps only what it starts with).

        ``message_start``: the words of the message heard so far (a live transcript).  Its
        words but the last, which may still grow, are read too; a message that turns out to
        start otherwise costs nothing more than the words read for it, since the reply reads
        again from where the two part.

        ``whole``: ``message_start`` may be the whole message (the speaker paused): it is read
        with the start of the reply that follows it, the prompt of ``reply(message_start)``, so
        that a reply to it reads one token (its last, again, for the logits).

        Returns how many tokens were read (0: the cache held them already, or there is no room)."""
        cancel = cancel or CancelToken()
        model = self.model
        words = message_start.split()[:-1]
        start = " ".join(words) + " " if words else ""
        with model._working(cancel), model._lock:
            model._check_open()
            head = self.prompt_messages()
            if whole and message_start.strip():
                tokens = model.tokenize(self._prompt([*head, Message("user", message_start.strip())]))
            else:
                # The prompt's tokens before the rest of the message: where two messages that go
                # on differently part.
                one, two = (model.tokenize(self._prompt([*head, Message("user", start + t)])) for t in ("a", "b"))
                tokens = one[: common_prefix(one, two)]
            if not tokens or len(tokens) + MIN_REPLY_ROOM > model.n_ctx:
                return 0
            if common_prefix(model._kv, tokens) == len(tokens):
                return 0  # read already: what the cache holds after it may serve the reply too
            reused = model._reuse(tokens)
            try:
                model._evaluate(tokens[reused:])
            except DecodeAborted:
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
        return self.model.tokenize(self._prompt(self.prompt_messages()).encode() + partial)

    def _prompt(self, messages: list[Message]) -> str:
        """``messages`` as prompt text: the model's prompt format, or, once the conversation
        holds a tool call or result, the model's own template (``tool_prompt``), which lays them
        out as the model was trained to read them."""
        model = self.model
        if model.thinks_unless_told:
            messages = without_thinking(messages)
        if not any(m.with_tools for m in messages):
            return model.prompt_format.render(messages)
        return tool_prompt.render(model.tool_template(), model.prompt_format, [m.turn() for m in messages], None)

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
                if not cancel.cancelled and not model.closed:
                    model._evaluate(tokens[reused:])
                    prompt_done = time.perf_counter()
                    sampler = model.sampler(params, tokens)
            if prompt_done is not None:
                finish, first_token = self._loop(params, sampler, stream, generated, on_text, cancel, prefix.encode())
        except DecodeAborted:
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
                if cancel.cancelled or model.closed:
                    return "cancelled", first
                if pending is not None:
                    if len(model._kv) < model.n_ctx:
                        model._evaluate_one(pending)
                    elif not self._make_room(params, generated, prefix):
                        return "context", first
                token = model._sample(sampler)
                if model.device.device.remote:  # a lost server's stand-in logits are not a token
                    remote.check(model.device.device)
                first = first or time.perf_counter()
                if model.is_eog(token) and not params.ignore_eos:
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


NO_THINK = "/no_think"


def without_thinking(messages: list[Message]) -> list[Message]:
    """``messages`` with the system prompt ending in ``/no_think``, the switch Qwen3 and SmolLM3
    read there, unless the prompt already says ``/think`` or ``/no_think`` (the user's choice)."""
    if messages and messages[0].role == "system":
        system = messages[0].content
        if "/think" in system or NO_THINK in system:
            return messages
        return [Message("system", f"{system}\n{NO_THINK}" if system else NO_THINK), *messages[1:]]
    return [Message("system", NO_THINK), *messages]


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
