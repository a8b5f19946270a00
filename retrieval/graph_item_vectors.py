"""The entity and relation vectors in memory, for seeding graph walks: one matrix product and a partial sort per
query (exact, well under a millisecond per 10K items) instead of a scan of the vector table. The table stays the
record; the matrix is read from it once per index generation."""

from __future__ import annotations

import numpy as np

from trident.retrieval.top_rows import top_rows
from trident.store.graph_vectors import GraphItemHit, GraphVectorIndex


class GraphItemVectors:
    """One tenant's entity and relation vectors, rows ordered by key (equal scores rank by key, as the table's
    search ranks them), each scaled to unit length (a dot product is the cosine similarity)."""

    def __init__(self, items: list[GraphItemHit], matrix: np.ndarray) -> None:
        order = sorted(range(len(items)), key=lambda row: items[row].key)
        self._items = [items[row] for row in order]
        rows = np.asarray(matrix, dtype=np.float32)[order] if order else np.zeros((0, matrix.shape[1]), np.float32)
        norms = np.linalg.norm(rows, axis=1, keepdims=True)
        self._matrix = rows / np.where(norms == 0, 1.0, norms)

    @classmethod
    def load(cls, index: GraphVectorIndex | None, tenant: str) -> GraphItemVectors:
        """A tenant's rows of the table; none when the index has no table yet."""
        if index is None:
            return cls([], np.zeros((0, 0), np.float32))
        return cls(*index.rows(tenant))

    def __len__(self) -> int:
        return len(self._items)

    def search(self, vector: np.ndarray, limit: int) -> list[GraphItemHit]:
        """Nearest entities and relations, best first, ties by key."""
        if limit <= 0 or not self._items:
            return []
        query = np.asarray(vector, dtype=np.float32)
        scores = self._matrix @ (query / (np.linalg.norm(query) or 1.0))
        return [
            GraphItemHit(self._items[row].key, self._items[row].kind, self._items[row].entities, float(scores[row]))
            for row in top_rows(scores, limit)
        ]
