"""Vectors of entities and relation sentences (LightRAG's dual index), to seed graph walks from inexact names.

A query that says "the thing that retries failed charges" names no entity exactly; its nearest entity
("PaymentAdapter (Class in billing): retries failed charges ...") or relation sentence ("OrderService.checkout
calls PaymentAdapter.process") does. Rows are keyed by a hash of the item's id and text, so an edited description
gets a new row and the stale one is dropped by the next sync.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, cast

import numpy as np
import pyarrow as pa

from trident.store.engines import ann
from trident.store.engines.lance_index import sql_in, sql_string, vector_column

if TYPE_CHECKING:
    from lancedb.query import LanceVectorQueryBuilder
    from lancedb.table import Table

    from trident.store.catalog import Catalog

log = logging.getLogger(__name__)

GRAPH_VECTORS_DIR = "graph_vectors"
TABLE = "graph_items"
DELETE_BATCH = 500
LOOKUP_BATCH = 500  # keys per vector lookup: one SQL `IN` list of a size LanceDB filters quickly


@dataclass(frozen=True)
class GraphItem:
    """One embedded entity (`entities` = its id) or relation (`entities` = source and target ids)."""

    key: str
    kind: str  # "entity" or "relation"
    entities: tuple[str, ...]
    text: str
    tenant: str


@dataclass(frozen=True)
class GraphItemHit:
    key: str
    kind: str
    entities: tuple[str, ...]
    score: float


class GraphVectorIndex:
    """One LanceDB table of entity and relation vectors; cosine on normalised vectors, exact below ANN sizes."""

    def __init__(self, path: Path, dim: int, table: Table | None = None) -> None:
        """The table at `path`, created when missing (a writer's open; readers use `open_existing`)."""
        self._dim = dim
        self._schema = _schema(dim)
        if table is None:
            import lancedb  # here, not at the top: importing it costs a second a first search need not wait for

            path.mkdir(parents=True, exist_ok=True)
            table = lancedb.connect(str(path)).create_table(TABLE, schema=self._schema, exist_ok=True)
        self._table = table

    @classmethod
    def open_existing(cls, path: Path, dim: int) -> GraphVectorIndex | None:
        """The table at `path` opened for reading, or None when no sync has written it yet (a read never
        creates it)."""
        if not path.is_dir():
            return None
        import lancedb

        try:
            table = lancedb.connect(str(path)).open_table(TABLE)
        except ValueError:  # lancedb's answer for a table that does not exist
            return None
        return cls(path, dim, table)

    def keys(self, tenant: str) -> set[str]:
        rows = self._table.search().where(f"tenant = {sql_string(tenant)}").select(["key"]).limit(None).to_arrow()
        return set(rows["key"].to_pylist())

    def add(self, items: Sequence[GraphItem], vectors: np.ndarray) -> None:
        if not items:
            return
        if vectors.shape != (len(items), self._dim):
            raise ValueError(f"expected vectors of shape ({len(items)}, {self._dim}), got {vectors.shape}")
        flat = pa.array(np.ascontiguousarray(vectors, dtype=np.float32).reshape(-1))
        self._table.add(
            pa.table(
                {
                    "key": [i.key for i in items],
                    "kind": [i.kind for i in items],
                    "entities": [list(i.entities) for i in items],
                    "tenant": [i.tenant for i in items],
                    "vector": pa.FixedSizeListArray.from_arrays(flat, self._dim),
                },
                schema=self._schema,
            )
        )

    def delete(self, keys: Sequence[str], tenant: str) -> None:
        """Drop a tenant's items with these keys (another tenant's rows of the same keys stay)."""
        for start in range(0, len(keys), DELETE_BATCH):
            self._table.delete(f"tenant = {sql_string(tenant)} AND {sql_in('key', keys[start : start + DELETE_BATCH])}")

    def vectors(self, keys: Sequence[str], tenant: str) -> dict[str, np.ndarray]:
        """The stored vectors of a tenant's items with these keys (keys not stored are left out); a key is unique
        within a tenant only, as the same entity may be indexed under two."""
        found: dict[str, np.ndarray] = {}
        for start in range(0, len(keys), LOOKUP_BATCH):
            where = f"tenant = {sql_string(tenant)} AND {sql_in('key', keys[start : start + LOOKUP_BATCH])}"
            rows = self._table.search().where(where).select(["key", "vector"]).limit(None).to_arrow()
            found.update(zip(rows["key"].to_pylist(), vector_column(rows, self._dim), strict=True))
        return found

    def search(self, vector: np.ndarray, limit: int, tenant: str) -> list[GraphItemHit]:
        """Nearest entities and relations, best first, ties by key."""
        if limit <= 0 or self._table.count_rows() == 0:
            return []
        query = cast("LanceVectorQueryBuilder", self._table.search(np.asarray(vector, dtype=np.float32), "vector"))
        rows = (
            ann.tuned(query.distance_type("cosine").where(f"tenant = {sql_string(tenant)}", prefilter=True))
            .select(["key", "kind", "entities", "_distance"])
            .limit(limit)
            .to_arrow()
            .to_pylist()
        )
        hits = [GraphItemHit(r["key"], r["kind"], tuple(r["entities"]), 1.0 - float(r["_distance"])) for r in rows]
        return sorted(hits, key=lambda hit: (-hit.score, hit.key))

    def rows(self, tenant: str) -> tuple[pa.Table, np.ndarray]:
        """Every item of a tenant (its `key`, `kind` and `entities` columns) and its vector, one row each, in the
        table's order."""
        table = (
            self._table.search()
            .where(f"tenant = {sql_string(tenant)}")
            .select(["key", "kind", "entities", "vector"])
            .limit(None)
            .to_arrow()
        )
        return table.select(["key", "kind", "entities"]), vector_column(table, self._dim)

    def optimize(self) -> None:
        """After a sync: compact, and build or extend the ANN index once the table is large (`store/engines/ann.py`); a
        failure only leaves searches exact."""
        try:
            ann.optimize(self._table, ann.ANN_MIN_ROWS, ("tenant",))
        except (RuntimeError, OSError) as error:  # lancedb reports its failures as RuntimeError
            log.warning("could not optimize the entity and relation vectors (searches stay exact): %s", error)

    def version(self) -> int:
        """The table's version: every change (and compaction) makes a new one."""
        return int(self._table.version)

    def count(self, tenant: str) -> int:
        return int(self._table.count_rows(f"tenant = {sql_string(tenant)}"))


def _schema(dim: int) -> pa.Schema:
    return pa.schema(
        [
            pa.field("key", pa.string()),
            pa.field("kind", pa.string()),
            pa.field("entities", pa.list_(pa.string())),
            pa.field("tenant", pa.string()),
            pa.field("vector", pa.list_(pa.float32(), dim)),
        ]
    )


def read_graph_vectors(catalog: Catalog) -> GraphVectorIndex | None:
    """The entity and relation vectors for reading, or None when the index has none yet."""
    assert catalog.embedder is not None
    return GraphVectorIndex.open_existing(catalog.index_dir / GRAPH_VECTORS_DIR, catalog.embedder.dim)


def open_graph_vectors(catalog: Catalog) -> GraphVectorIndex:
    """The entity and relation vectors of a catalog's index (what indexing syncs and vector seeding reads)."""
    assert catalog.embedder is not None
    return GraphVectorIndex(catalog.index_dir / GRAPH_VECTORS_DIR, catalog.embedder.dim)
