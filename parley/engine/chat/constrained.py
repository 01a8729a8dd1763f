"""Sampling under a grammar: every token the reply gets is one the grammar allows.

The grammar (llama.cpp's grammar sampler on a GBNF text, ``handles.LlamaGrammar``) is not run
over the whole vocabulary for every token, which takes milliseconds with a large vocabulary.
As llama.cpp's own common sampler does, the token is first chosen as without a grammar, and only
that one token is checked; when the grammar refuses it, the logits of every token it refuses
are masked (in llama.cpp's buffer, put back afterwards) and the token is chosen again.  A model
that writes what the grammar expects therefore pays for one check a token; only a model that
strays pays for a pass over the vocabulary, and only on the tokens where it strays.

With greedy decoding the choice is exactly the best allowed token, and a refusal does not cost
a pass over the vocabulary either: that pass runs the grammar on every token's text, 40-350 ms
a time for Qwen's 151k tokens on this machine (more for a grammar with string formats), and a
schema whose strings have a length or a format refuses the model's choice every few tokens.
The grammar is asked about the ``CANDIDATES`` largest logits only (then about more); the best
allowed among them is the answer when it scores above every logit left out (a repeat penalty
above 1 only lowers a score), which it nearly always does.  Only when it does not is the whole
vocabulary masked.  With sampling the first draw is discarded when refused (the draw from the
masked logits is a draw from the allowed tokens); the chain's repeat penalty, when one is set,
also counts the refused token.

When the grammar is complete only end-of-generation tokens are allowed, so the reply ends there;
should the grammar allow nothing at all, the sampler returns the model's end-of-generation token
without feeding it to the grammar (llama.cpp aborts on a token its grammar refuses).
"""

from __future__ import annotations

import numpy as np

from ..handles.llama import LlamaContext, LlamaGrammar
from .sampling import GreedySampler, Sampler

CANDIDATES = (64, 2048)  # how many of the largest logits the grammar is asked about, in turn


class ConstrainedSampler:
    """``base``'s choices, restricted to what ``grammar`` allows; ``end`` is the token returned
    when it allows nothing."""

    def __init__(self, base: Sampler, grammar: LlamaGrammar, end: int) -> None:
        self._base = base
        self._grammar = grammar
        self._end = end
        self.refused = 0  # tokens the base sampler chose and the grammar refused (for tests, benchmarks)
        self.full_passes = 0  # of which needed the grammar's pass over the whole vocabulary

    def sample(self, context: LlamaContext, index: int = -1) -> int:
        base, grammar = self._base, self._grammar
        greedy = base if isinstance(base, GreedySampler) else None
        logits = context.logits(index)
        token = greedy.choose(logits) if greedy is not None else base.sample(context, index)
        if not grammar.allows(token):
            self.refused += 1
            found = self._best_allowed(greedy, logits) if greedy is not None else None
            if found is None:
                found = self._choose_again(greedy, context, index, logits)
                if found is None:
                    return self._end
            token = found
        if greedy is not None:
            greedy.note(token)
        grammar.accept(token)
        return token

    def _choose_again(
        self, greedy: GreedySampler | None, context: LlamaContext, index: int, logits: np.ndarray
    ) -> int | None:
        """The choice made again with the logit of every token the grammar refuses masked (one
        pass of the grammar over the vocabulary); None when no allowed token can be chosen."""
        self.full_passes += 1
        refused = ~self._grammar.allowed()
        if refused.all():
            return None
        saved = logits[refused]
        logits[refused] = -np.inf
        try:
            token = greedy.choose(logits) if greedy is not None else self._base.sample(context, index)
        finally:
            logits[refused] = saved
        return None if refused[token] else token  # refused: every allowed token was banned (ignored EOG)

    def _best_allowed(self, greedy: GreedySampler, logits: np.ndarray) -> int | None:
        """The greedy choice among the allowed tokens, found among the largest logits; None when
        they do not settle it (no allowed one among them, or one that a token left out could
        match or beat)."""
        if not greedy.only_lowers:
            return None
        n = logits.size
        for count in CANDIDATES:
            if count >= n:
                return None
            top = np.argpartition(logits, n - count)[n - count :]
            allowed = top[self._grammar.allowed_among(top)]
            if not allowed.size:
                continue
            masked = np.full_like(logits, -np.inf)
            masked[allowed] = logits[allowed]
            token = greedy.choose(masked)
            # every token left out has a logit, and so a score, at most the smallest kept
            if greedy.score(logits, token) > float(logits[top].min()):
                return token
        return None

    def close(self) -> None:
        self._grammar.close()
