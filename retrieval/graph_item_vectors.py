"""The entity and relation vectors, for seeding graph walks: a scan of their int8 rows and exact scores for the
candidates (`top_rows.nearest_rows`) instead of a search of the vector table. The table stays the record; the rows
come from the files its last sync wrote for its version (`store/mapped/graph_vector_rows.py`: mapped, the candidates'
float32 rows read with `pread`), else from the table, once per index generation. The items' keys, kinds and entities
stay Arrow columns (a hit becomes an object when it is found)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa

from trident.retrieval.top_rows import nearest_rows
from trident.store.catalog import Catalog
from trident.store.engines.graph_vectors import GraphItemHit, GraphVectorIndex, read_graph_vectors
from trident.store.mapped.file_rows import row_reader
from trident.store.mapped.graph_vector_rows import GRAPH_VECTOR_ROWS_DIR, GraphVectorRows, read_current, read_rows


class GraphItemVectors:
    """One tenant's entity and relation vectors (`GraphVectorRows`: ordered by key, unit length)."""

    def __init__(self, rows: GraphVectorRows) -> None:
        self._items = rows.items
        self._matrix = rows.matrix
        self._int8 = rows.int8
        self._take = row_reader(rows.matrix)  # the candidates' rows, without faulting in the file around them

    @classmethod
    def of_catalog(cls, catalog: Catalog) -> GraphItemVectors:
        """A catalog's rows: the files its last finished sync named (no table opened), else as `load` reads them."""
        folder = catalog.index_dir / GRAPH_VECTOR_ROWS_DIR
        rows = read_current(folder, catalog.tenant)
        if rows is not None:
            return cls(rows)
        return cls.load(read_graph_vectors(catalog), catalog.tenant, folder)

    @classmethod
    def load(cls, index: GraphVectorIndex | None, tenant: str, folder: Path | None = None) -> GraphItemVectors:
        """A tenant's rows of the table: from the files written for its version in `folder` when there are, else
        read from the table; none when the index has no table yet."""
        return cls(read_rows(index, folder, tenant))

    def __len__(self) -> int:
        return int(self._items.num_rows)

    def search(self, vector: np.ndarray, limit: int) -> list[GraphItemHit]:
        """Nearest entities and relations, best first, ties by key."""
        if limit <= 0 or not len(self):
            return []
        query = np.asarray(vector, dtype=np.float32)
        unit = query / (np.linalg.norm(query) or 1.0)
        rows, scores = nearest_rows(self._matrix, self._int8, unit, limit, take=self._take)
        found = self._items.take(pa.array(rows)).to_pylist()
        return [
            GraphItemHit(item["key"], item["kind"], tuple(item["entities"]), score)
            for item, score in zip(found, scores.tolist(), strict=True)
        ]
