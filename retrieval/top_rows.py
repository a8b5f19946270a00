"""The best rows of a score vector, deterministically: what every in-memory vector search ranks with."""

from __future__ import annotations

import numpy as np


def top_rows(scores: np.ndarray, k: int) -> np.ndarray:
    """The `k` highest-scoring row numbers, best first, equal scores in row order (rows are kept in id order, so
    ties rank by id). Rows scoring -inf are never chosen."""
    k = min(k, int(np.count_nonzero(scores > -np.inf)))
    if k <= 0:
        return np.zeros(0, dtype=np.intp)
    # Every row scoring at least the k-th best, so rows tied at the cut are all seen and ordered by row.
    threshold = np.partition(scores, len(scores) - k)[len(scores) - k]
    rows = np.flatnonzero(scores >= threshold)
    return rows[np.lexsort((rows, -scores[rows]))][:k]
