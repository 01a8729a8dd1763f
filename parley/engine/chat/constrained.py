"""Sampling under a grammar: every token the reply gets is one the grammar allows.

The grammar (llama.cpp's grammar sampler on a GBNF text, ``handles.LlamaGrammar``) is not run
over the whole vocabulary for every token, which takes milliseconds with a large vocabulary.
As llama.cpp's own common sampler does, the token is first chosen as without a grammar, and only
that one token is checked; when the grammar refuses it, the logits of every token it refuses
are masked (in llama.cpp's buffer, put back afterwards) and the token is chosen again.  A model
that writes what the grammar expects therefore pays for one check a token; only a model that
strays pays for a pass over the vocabulary, and only on the tokens where it strays.

With greedy decoding the choice is exactly the best allowed token.  With sampling the first
draw is discarded when refused (the draw from the masked logits is a draw from the allowed
tokens); the chain's repeat penalty, when one is set, also counts the refused token.

When the grammar is complete only end-of-generation tokens are allowed, so the reply ends there;
should the grammar allow nothing at all, the sampler returns the model's end-of-generation token
without feeding it to the grammar (llama.cpp aborts on a token its grammar refuses).
"""

from __future__ import annotations

import numpy as np

from ..handles.llama import LlamaContext, LlamaGrammar
from .sampling import GreedySampler, Sampler


class ConstrainedSampler:
    """``base``'s choices, restricted to what ``grammar`` allows; ``end`` is the token returned
    when it allows nothing."""

    def __init__(self, base: Sampler, grammar: LlamaGrammar, end: int) -> None:
        self._base = base
        self._grammar = grammar
        self._end = end
        self.refused = 0  # tokens the base sampler chose and the grammar refused (for tests, benchmarks)

    def sample(self, context: LlamaContext, index: int = -1) -> int:
        base, grammar = self._base, self._grammar
        greedy = base if isinstance(base, GreedySampler) else None
        logits = context.logits(index)
        token = greedy.choose(logits) if greedy is not None else base.sample(context, index)
        if not grammar.allows(token):
            self.refused += 1
            refused = ~grammar.allowed()
            if refused.all():
                return self._end
            saved = logits[refused]
            logits[refused] = -np.inf
            try:
                token = greedy.choose(logits) if greedy is not None else base.sample(context, index)
            finally:
                logits[refused] = saved
            if refused[token]:  # every allowed token was banned (end-of-generation, ignored)
                return self._end
        if greedy is not None:
            greedy.note(token)
        grammar.accept(token)
        return token

    def close(self) -> None:
        self._grammar.close()
