"""Choosing the next token from llama.cpp's logits.

Sampled decoding (temperature > 0) uses llama.cpp's own sampler chain: logit bias, repeat
penalty, top-k, top-p, min-p, temperature, a seeded draw.  Greedy decoding gives exactly the
token that chain would (logit bias of -inf on end-of-generation tokens when they are ignored,
repeat penalty over the last 64 tokens, then the first largest logit) but computes it in numpy
on the logits in place.  The chain does work over the whole vocabulary for every token: it
copies every logit into a candidate array and looks each candidate up in the penalty's hash
map, about 0.3 ms a token for a 49k vocabulary on this machine's cores, several percent of a
small model's token time.  The answer depends only on the largest logit and the window's few
tokens: a repeat penalty above 1 only lowers the logits of the tokens in the window, so when
the largest logit belongs to no such token it is the answer, and otherwise only a copy with
the window's logits penalised is searched.
"""

from __future__ import annotations

import dataclasses
from typing import Protocol

import numpy as np

from ..handles.llama import LlamaContext, LlamaSampler

PENALTY_LAST_N = 64  # the repeat penalty looks at this many recent tokens


@dataclasses.dataclass
class SamplingParams:
    temperature: float = 0.7  # 0: greedy
    top_k: int = 40
    top_p: float = 0.95
    min_p: float = 0.05
    repeat_penalty: float = 1.1  # over the last 64 tokens; 1.0 turns it off
    seed: int | None = None  # None: a random seed
    max_tokens: int = 512
    stop: list[str] = dataclasses.field(default_factory=list)
    ignore_eos: bool = False  # keep going past end-of-generation tokens (tests, benchmarks)
    grammar: str | None = None  # GBNF the reply must match (``constrained``); it ends where the grammar does
    logprobs: int | None = None  # the chosen token's log-probability and this many alternatives (0-20)
    # A text completion, not a chat reply: its leading and trailing whitespace is kept, and the
    # chat format's own stop strings do not apply
    completion: bool = False


class Sampler(Protocol):
    def sample(self, context: LlamaContext, index: int = -1) -> int:
        """The next token from the logits of ``context``'s output ``index`` (a position in the
        last batch; -1: its last token); it then counts as generated."""


def make_sampler(params: SamplingParams, n_vocab: int, banned: list[int], recent: list[int]) -> Sampler:
    """A sampler for ``params`` that never picks ``banned`` (the end-of-generation tokens when
    they are ignored) and has seen ``recent`` (the prompt, for the repeat penalty)."""
    if params.temperature <= 0:
        return GreedySampler(params.repeat_penalty, banned, recent)
    return ChainSampler(params, n_vocab, banned, recent)


class GreedySampler:
    """The token llama.cpp's greedy chain picks, found without a pass over all candidates.

    Every token, a decode streams the whole model through the caches, so whatever runs
    between two decodes starts cold: the per-token path is kept to a few operations.
    """

    def __init__(self, repeat_penalty: float, banned: list[int], recent: list[int]) -> None:
        self._penalty = float(np.float32(repeat_penalty))  # llama.cpp keeps it as a C float
        self._window = list(recent[-PENALTY_LAST_N:])  # penalised tokens (repeats are harmless)
        self._banned_set = frozenset(banned)
        self._banned = np.array(sorted(self._banned_set), dtype=np.int64)

    def sample(self, context: LlamaContext, index: int = -1) -> int:
        token = self.choose(context.logits(index))
        self.note(token)
        return token

    def choose(self, logits: np.ndarray) -> int:
        """The token the chain would pick from ``logits`` (nothing is counted as generated)."""
        token = int(logits.argmax())
        if (self._penalty != 1 and (self._penalty < 1 or token in self._window)) or token in self._banned_set:
            token = self._search(logits)
        return token

    @property
    def only_lowers(self) -> bool:
        """Whether the chain only ever lowers a logit (no penalty below 1), so that no token
        can score above its own logit."""
        return self._penalty >= 1

    def score(self, logits: np.ndarray, token: int) -> float:
        """``token``'s logit as the chain compares it: penalised when in the window, -inf when
        banned."""
        if token in self._banned_set:
            return float("-inf")
        value = float(logits[token])
        if self._penalty != 1 and token in self._window:
            penalty = self._penalty
            value = float(np.float32(value * penalty if value <= 0 else value / penalty))
        return value

    def note(self, token: int) -> None:
        """Count ``token`` as generated (the repeat penalty's window)."""
        window = self._window
        if len(window) == PENALTY_LAST_N:
            del window[0]
        window.append(token)

    def _search(self, logits: np.ndarray) -> int:
        """The chain's result when the largest logit is banned or penalised.

        The best of the other tokens is found with the window's and the banned tokens' logits
        masked for a moment (in llama.cpp's buffer, which nothing else reads meanwhile, rather
        than in a copy of all of them), and compared with the window's penalised logits
        (llama.cpp: a logit <= 0 is multiplied by the penalty, a positive one divided; a single
        float32 operation computed in double and rounded gives the same float32).  On a tie
        the lowest token id wins, as the chain's greedy step keeps the first largest.
        """
        window = [t for t in self._window if t not in self._banned_set] if self._penalty != 1 else []
        masked = np.array(window + self._banned.tolist(), dtype=np.int64)
        saved = logits[masked]
        logits[masked] = -np.inf
        other = int(logits.argmax())
        best = float(logits[other])
        logits[masked] = saved
        penalty, token = self._penalty, other
        for t, value in zip(window, saved.tolist(), strict=False):
            value = float(np.float32(value * penalty if value <= 0 else value / penalty))
            if value > best or (value == best and t < token):
                best, token = value, t
        return token


class ChainSampler:
    """llama.cpp's sampler chain: used for sampled decoding (and, greedy, as the reference
    ``GreedySampler`` is tested against)."""

    def __init__(self, params: SamplingParams, n_vocab: int, banned: list[int], recent: list[int]) -> None:
        chain = self._chain = LlamaSampler()
        if banned:
            chain.add_logit_bias(n_vocab, [(t, float("-inf")) for t in banned])
        if params.repeat_penalty != 1.0:
            chain.add_penalties(n_vocab, PENALTY_LAST_N, params.repeat_penalty)
        if params.temperature <= 0:
            chain.add_greedy()
        else:
            if params.top_k > 0:
                chain.add_top_k(params.top_k)
            chain.add_top_p(params.top_p)
            chain.add_min_p(params.min_p)
            chain.add_temperature(params.temperature)
            chain.add_distribution(params.seed)
        for token in recent[-PENALTY_LAST_N:]:
            chain.accept(token)

    def sample(self, context: LlamaContext, index: int = -1) -> int:
        return self._chain.sample(context, index)


def token_logprobs(logits: np.ndarray, token: int, top: int) -> tuple[float, list[tuple[int, float]]]:
    """``token``'s log-probability under ``logits`` (softmax at temperature 1, as the API reports
    them) and the ``top`` most likely tokens with theirs, most likely first."""
    peak = float(logits.max())
    log_total = peak + float(np.log(np.exp(logits - peak, dtype=np.float64).sum()))
    best: list[tuple[int, float]] = []
    if top > 0:
        ids = np.argpartition(logits, -top)[-top:]
        ranked = sorted(ids.tolist(), key=lambda t: (-float(logits[t]), t))
        best = [(t, float(logits[t]) - log_total) for t in ranked]
    return float(logits[token]) - log_total, best
