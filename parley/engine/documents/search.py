"""Finding the passages that answer a question: keyword, vector, and the two fused.

Keywords: the question's words, less the common ones, any of which FTS5 may match (BM25 ranks
passages holding more and rarer of them first; Porter stemming matches "boilers" to "boiler").
Vectors: the question's embedding against every passage's, exactly (a matrix product over the
collections' vectors, kept in memory between questions until the index changes: at 100,000
passages of 384 dimensions that is 150 MB and a few milliseconds, so no approximate index is
needed at the sizes a person's files reach).  Fused: each list's ranks combined by reciprocal
rank fusion (``1 / (RRF_K + rank)`` summed), which needs no calibration between BM25's scores and
cosine similarities.

Every passage found keeps its cosine similarity to the question, which ``grounding`` uses to tell
"nothing relevant" from a weak match.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Literal

import numpy as np

from ..backend.cancel import CancelToken
from ..chat.embeddings import Embedder
from .index import DocumentIndex

Mode = Literal["fused", "keyword", "vector"]
# Reciprocal rank fusion (Cormack et al. 2009) with a small constant and the keywords weighted up:
# with the usual 60, a passage first in one list and absent from the other lost to one thirtieth
# in both.  On the benchmark's 158 questions recall@3 went from 0.775 (60, equal weights) to
# 0.797 (10, 1.5); the keywords alone 0.782, the vectors alone 0.677.
RRF_K = 10
KEYWORD_WEIGHT = 1.5  # the keyword list's weight in the fusion (the vector list's is 1)
CANDIDATES = 50  # from each list, before fusing
MAX_TERMS = 24
MAX_QUESTION_CHARS = 2000
# Words that say nothing of what is asked: matching them would rank every passage alike
STOPWORDS = frozenset(
    """a about above after again all also am an and any are as at be because been before being below
    between both but by can could did do does doing down during each either few for from further get gets
    had has have having he her here hers him his how i if in into is it its itself just me more most my
    no nor not now of off on once only or other our ours out over own please same she should so some
    such tell than that the their them then there these they this those through to too under until up
    us very was we were what when where which while who whom why will with would you your yours""".split()
)


@dataclasses.dataclass(frozen=True)
class Passage:
    id: int
    path: str
    title: str
    place: str
    text: str
    ordinal: int
    score: float  # the mode's: fused reciprocal rank, or a single list's
    similarity: float  # cosine between the question and the passage, -1 to 1


def keyword_query(question: str) -> str:
    """An FTS5 query any of the question's telling words match; "" when it has none.  Each word is
    a quoted string, so nothing in a question is FTS5 syntax."""
    words = []
    for word in re.findall(r"\w+", question.lower()):
        if word not in STOPWORDS and (len(word) > 1 or word.isdigit()) and word not in words:
            words.append(word)
    return " OR ".join(f'"{word}"' for word in words[:MAX_TERMS])


class Searcher:
    """Searches of ``index`` with question embeddings from ``embedder`` (one thread at a time)."""

    def __init__(self, index: DocumentIndex, embedder: Embedder) -> None:
        self.index, self.embedder = index, embedder
        self._cached: tuple[tuple[int, ...], int] | None = None
        self._ids = np.zeros(0, dtype=np.int64)
        self._matrix = np.zeros((0, 0), dtype=np.float32)

    def search(
        self,
        question: str,
        collections: Sequence[str],
        *,
        k: int = 5,
        mode: Mode = "fused",
        cancel: CancelToken | None = None,
    ) -> list[Passage]:
        """The ``k`` passages of ``collections`` that best answer ``question``, best first."""
        ids = self.index.collection_ids(collections)
        question = question[:MAX_QUESTION_CHARS]
        query = self.embedder.embed([self.embedder.tokenize(question, True)], cancel).vectors[0]
        row_ids, matrix = self._vectors(ids)
        similarities = matrix @ query if len(row_ids) else np.zeros(0, dtype=np.float32)
        ranked: list[list[int]] = []
        if mode in ("fused", "keyword"):
            match = keyword_query(question)
            ranked.append(self.index.keyword_hits(match, ids, CANDIDATES) if match else [])
        if mode in ("fused", "vector") and len(row_ids):
            top = np.argpartition(-similarities, min(CANDIDATES, len(row_ids) - 1))[:CANDIDATES]
            top = top[np.argsort(-similarities[top], kind="stable")]
            ranked.append([int(row_ids[i]) for i in top])
        scores: dict[int, float] = {}
        weights = (KEYWORD_WEIGHT, 1.0) if mode == "fused" else (1.0,)
        for weight, ranking in zip(weights, ranked, strict=False):
            for rank, passage_id in enumerate(ranking):
                scores[passage_id] = scores.get(passage_id, 0.0) + weight / (RRF_K + rank + 1)
        best = sorted(scores, key=lambda pid: (-scores[pid], pid))[:k]
        found = self.index.passages(best)
        if not len(row_ids):
            return []
        rows = np.searchsorted(row_ids, best)
        return [
            Passage(pid, *found[pid], scores[pid], float(similarities[row]))
            for pid, row in zip(best, rows, strict=True)
            if pid in found
        ]

    def _vectors(self, ids: list[int]) -> tuple[np.ndarray, np.ndarray]:
        key = (tuple(sorted(ids)), self.index.generation)
        if self._cached != key:
            self._ids, self._matrix = self.index.vectors(list(key[0]))
            self._cached = key
        return self._ids, self._matrix
