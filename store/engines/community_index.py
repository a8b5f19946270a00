"""Community reports and their vectors in LanceDB, plus the hash of the graph they were computed from.

A report is stored whole (JSON) next to the vector of its text; rows are keyed by a hash of the report, so a
community whose members or report changed gets a new row and the stale one is dropped by the next sync. The
graph hash lives in a small state file beside the table and is written last: a sync interrupted half-way leaves
the old hash, and the next run computes again.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from pydantic import BaseModel, ConfigDict, Field

from trident.store.engines.lance_index import sql_in, sql_string, vector_column

if TYPE_CHECKING:
    from lancedb.table import Table as LanceTable

    from trident.store.catalog import Catalog

COMMUNITIES_DIR = "communities"
TABLE = "community_reports"
STATE_FILE = "state.json"
DELETE_BATCH = 500


class CentralEntity(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    type: str
    project: str
    centrality: float = Field(description="PageRank inside the community")


class CommunityReport(BaseModel):
    """What one community of the entity graph is about, drawn from the index itself (no model writes it)."""

    model_config = ConfigDict(frozen=True)

    id: str = Field(description="`community:<level>:<hash of its member ids>`: the same members, the same id")
    level: int = Field(description="0 for the whole graph's communities, 1 for the parts of a large one")
    parent: str | None = None
    size: int = Field(description="Number of member entities")
    title: str
    entities: list[CentralEntity] = Field(description="The most central members, most central first")
    relation_types: dict[str, int] = Field(description="Relations between members, counted per type")
    projects: dict[str, int] = Field(description="Members per project")
    chunks: list[str] = Field(description="Representative chunks: where the central members are defined")
    members: list[str] = Field(description="Ids of all member entities, sorted")
    text: str = Field(description="The report as text, which is what gets embedded")


class CommunityIndex:
    """One LanceDB table of community reports with their vectors; cosine on normalised vectors."""

    def __init__(self, path: Path, dim: int) -> None:
        path.mkdir(parents=True, exist_ok=True)
        self._path = path
        self._dim = dim
        self._schema = pa.schema(
            [
                pa.field("key", pa.string()),
                pa.field("id", pa.string()),
                pa.field("tenant", pa.string()),
                pa.field("report", pa.string()),
                pa.field("vector", pa.list_(pa.float32(), dim)),
            ]
        )
        import lancedb  # here, not at the top: importing it costs a second that a first search need not wait for

        self._table = lancedb.connect(str(path)).create_table(TABLE, schema=self._schema, exist_ok=True)
        self._opened_state = self._read_state()
        self._memory: dict[str, TenantReports] = {}

    def keys(self, tenant: str) -> set[str]:
        rows = self._table.search().where(f"tenant = {sql_string(tenant)}").select(["key"]).limit(None).to_arrow()
        return set(rows["key"].to_pylist())

    def add(self, keyed: Sequence[tuple[str, CommunityReport]], vectors: np.ndarray, tenant: str) -> None:
        if not keyed:
            return
        if vectors.shape != (len(keyed), self._dim):
            raise ValueError(f"expected vectors of shape ({len(keyed)}, {self._dim}), got {vectors.shape}")
        flat = pa.array(np.ascontiguousarray(vectors, dtype=np.float32).reshape(-1))
        self._memory.clear()
        self._table.add(
            pa.table(
                {
                    "key": [key for key, _ in keyed],
                    "id": [report.id for _, report in keyed],
                    "tenant": [tenant] * len(keyed),
                    "report": [report.model_dump_json() for _, report in keyed],
                    "vector": pa.FixedSizeListArray.from_arrays(flat, self._dim),
                },
                schema=self._schema,
            )
        )

    def delete(self, keys: Sequence[str]) -> None:
        self._memory.clear()
        for start in range(0, len(keys), DELETE_BATCH):
            self._table.delete(sql_in("key", keys[start : start + DELETE_BATCH]))

    def search(self, vector: np.ndarray, limit: int, tenant: str) -> list[tuple[CommunityReport, float]]:
        """The reports nearest a query vector with their cosine similarity, best first, ties by id.

        A tenant's report vectors are read once per handle and searched in memory (a few thousand reports: one
        matrix product, well under a millisecond, where a LanceDB query costs tens)."""
        if limit <= 0:
            return []
        memory = self._memory.get(tenant)
        if memory is None:
            memory = self._memory[tenant] = TenantReports.load(self._table, tenant)
        return memory.nearest(np.asarray(vector, dtype=np.float32), limit)

    def tenant_reports(self, tenant: str) -> TenantReports:
        """A tenant's reports and unit vectors as the table holds them now (what a reader's files are written from)."""
        return TenantReports.load(self._table, tenant)

    def reports(self, tenant: str) -> list[CommunityReport]:
        """Every report of a tenant, by level, then largest first, then id."""
        rows = self._table.search().where(f"tenant = {sql_string(tenant)}").select(["report"]).limit(None).to_arrow()
        reports = [CommunityReport.model_validate_json(text) for text in rows["report"].to_pylist()]
        return sorted(reports, key=lambda r: (r.level, -r.size, r.id))

    def stored(self, tenant: str) -> dict[str, tuple[CommunityReport, np.ndarray]]:
        """Every report of a tenant with its vector, by key (what a sync starts from)."""
        query = self._table.search().where(f"tenant = {sql_string(tenant)}").select(["key", "report", "vector"])
        rows = query.limit(None).to_arrow()
        matrix = vector_column(rows, self._dim)
        return {
            key: (CommunityReport.model_validate_json(text), matrix[n])
            for n, (key, text) in enumerate(zip(rows["key"].to_pylist(), rows["report"].to_pylist(), strict=True))
        }

    def count(self, tenant: str) -> int:
        return int(self._table.count_rows(f"tenant = {sql_string(tenant)}"))

    def version(self) -> int:
        """The table's version; it moves on every add or delete."""
        return int(self._table.version)

    def changed_since_open(self) -> bool:
        """True once a sync (here or in another process) has stored reports this handle cannot see."""
        return self._read_state() != self._opened_state

    def graph_hash(self, tenant: str) -> str | None:
        """The hash of the graph the stored reports were computed from; None before the first sync."""
        state = self._read_state()
        value = state.get(tenant)
        return value if isinstance(value, str) else None

    def set_graph_hash(self, tenant: str, value: str) -> None:
        state = self._read_state()
        state[tenant] = value
        partial = self._path / f"{STATE_FILE}.tmp"
        partial.write_text(json.dumps(state, sort_keys=True), encoding="utf-8")
        os.replace(partial, self._path / STATE_FILE)

    def _read_state(self) -> dict[str, object]:
        path = self._path / STATE_FILE
        if not path.exists():
            return {}
        try:
            loaded = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError:
            return {}  # a damaged state only costs one recomputation
        return loaded if isinstance(loaded, dict) else {}


@dataclass(frozen=True)
class TenantReports:
    """One tenant's reports as unit vectors in one matrix (rows in id order), with the report texts parsed when a
    search first returns them (and kept: reports are frozen, and the same few lead many searches)."""

    ids: pa.Array
    texts: pa.Array
    matrix: np.ndarray  # memory-mapped when read from a reader's files (store/mapped/community_rows.py)
    parsed: dict[int, CommunityReport] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def load(cls, table: LanceTable, tenant: str) -> TenantReports:
        query = table.search().where(f"tenant = {sql_string(tenant)}").select(["id", "report", "vector"])
        data = query.limit(None).to_arrow()
        order = pc.sort_indices(data, [("id", "ascending")])
        vectors = data["vector"].combine_chunks()
        matrix = vectors.flatten().to_numpy().reshape(len(data), vectors.type.list_size)[order.to_numpy()]
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        unit = (matrix / np.where(norms > 0, norms, 1.0)).astype(np.float32)
        ids = data["id"].take(order).combine_chunks()
        return cls(ids, data["report"].take(order).combine_chunks(), unit)

    def nearest(self, vector: np.ndarray, limit: int) -> list[tuple[CommunityReport, float]]:
        if not len(self.ids):
            return []
        norm = float(np.linalg.norm(vector))
        scores = self.matrix @ (vector / norm if norm > 0 else vector)
        best = np.lexsort((np.arange(len(self.ids)), -scores))[:limit]  # ties: by id (rows are sorted by id)
        return [(self._report(int(i)), float(scores[i])) for i in best]

    def _report(self, row: int) -> CommunityReport:
        report = self.parsed.get(row)
        if report is None:  # two threads may both parse one: the same frozen value either way
            report = self.parsed[row] = CommunityReport.model_validate_json(self.texts[row].as_py())
        return report


def open_communities(catalog: Catalog) -> CommunityIndex:
    """The community reports of a catalog's index (what indexing syncs and the community path reads)."""
    assert catalog.embedder is not None
    return CommunityIndex(catalog.index_dir / COMMUNITIES_DIR, catalog.embedder.dim)
