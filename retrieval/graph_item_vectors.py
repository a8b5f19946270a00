"""The entity and relation vectors in memory, for seeding graph walks: a scan of their int8 rows and exact scores
for the candidates (`top_rows.nearest_rows`) instead of a search of the vector table. The table stays the record;
the rows are read from it once per index generation. The items' keys, kinds and entities stay Arrow columns (a hit
becomes an object when it is found), a fraction of the memory of one object per item."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from trident.retrieval.top_rows import nearest_rows
from trident.store.graph_vectors import GraphItemHit, GraphVectorIndex
from trident.store.int8_rows import scan_rows

ITEM_COLUMNS = ("key", "kind", "entities")


class GraphItemVectors:
    """One tenant's entity and relation vectors, rows ordered by key (equal scores rank by key, as the table's
    search ranks them), each scaled to unit length (a dot product is the cosine similarity)."""

    def __init__(self, items: pa.Table, matrix: np.ndarray) -> None:
        order = pc.sort_indices(items, [("key", "ascending")]).to_numpy() if items.num_rows else np.zeros(0, np.intp)
        self._items = items.select(list(ITEM_COLUMNS)).take(order).combine_chunks()
        rows = np.asarray(matrix, dtype=np.float32)[order] if len(order) else np.zeros((0, 0), np.float32)
        norms = np.linalg.norm(rows, axis=1, keepdims=True)
        rows /= np.where(norms == 0, 1.0, norms)  # in place: no second copy of every vector
        self._matrix = rows
        self._int8 = scan_rows(self._matrix)

    @classmethod
    def load(cls, index: GraphVectorIndex | None, tenant: str) -> GraphItemVectors:
        """A tenant's rows of the table; none when the index has no table yet."""
        if index is None:
            return cls(pa.table({name: pa.array([], pa.string()) for name in ITEM_COLUMNS}), np.zeros((0, 0)))
        return cls(*index.rows(tenant))

    def __len__(self) -> int:
        return int(self._items.num_rows)

    def search(self, vector: np.ndarray, limit: int) -> list[GraphItemHit]:
        """Nearest entities and relations, best first, ties by key."""
        if limit <= 0 or not len(self):
            return []
        query = np.asarray(vector, dtype=np.float32)
        rows, scores = nearest_rows(self._matrix, self._int8, query / (np.linalg.norm(query) or 1.0), limit)
        found = self._items.take(pa.array(rows)).to_pylist()
        return [
            GraphItemHit(item["key"], item["kind"], tuple(item["entities"]), score)
            for item, score in zip(found, scores.tolist(), strict=True)
        ]
