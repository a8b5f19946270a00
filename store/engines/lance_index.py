"""Dense retrieval over chunk vectors with LanceDB, pre-filtered by tenant and project.

LanceDB is imported and its table opened on first use, not when a generation is opened: importing it takes a second
or more (its namespace client's models), which a server's first lexical or graph answer, and a dense one from the
generation's chunk-vector file, need not wait for."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, cast

import numpy as np

from trident.store.crashpoints import crash_point
from trident.store.engines import ann
from trident.store.engines.ann import ANN_MIN_ROWS
from trident.store.protocols import ScoredId, SearchFilter
from trident.store.schema import Chunk

if TYPE_CHECKING:
    import pyarrow as pa
    from lancedb.index import IndexConfig
    from lancedb.query import LanceVectorQueryBuilder
    from lancedb.table import Table

log = logging.getLogger(__name__)

CHUNKS_TABLE = "chunks"
DELETE_BATCH = 500
TIE_MARGIN = 16
FILTER_COLUMNS = ("tenant", "project")  # bitmap-indexed: prefilters read a bitmap instead of scanning the column


def sql_string(value: str) -> str:
    """A SQL string literal; LanceDB filters are SQL, so quotes in ids or project names must be doubled."""
    return "'" + value.replace("'", "''") + "'"


def sql_in(column: str, values: Iterable[str]) -> str:
    return f"{column} IN ({', '.join(sql_string(v) for v in values)})"


def _chunk_schema(dim: int) -> pa.Schema:
    import pyarrow as pa

    return pa.schema(
        [
            pa.field("id", pa.string()),
            pa.field("doc_id", pa.string()),
            pa.field("project", pa.string()),
            pa.field("tenant", pa.string()),
            pa.field("kind", pa.string()),
            pa.field("vector", pa.list_(pa.float32(), dim)),
        ]
    )


def vector_column(rows: pa.Table, dim: int) -> np.ndarray:
    """The `vector` column of rows read from a table, as one (rows, dim) float32 matrix."""
    flat = rows["vector"].combine_chunks().values.to_numpy(zero_copy_only=False)
    return np.asarray(flat, dtype=np.float32).reshape(len(rows), dim)


class LanceVectorIndex:
    """One LanceDB table of chunk vectors; cosine distance on L2-normalised vectors.

    Every write makes a new table version. A reader pins the version its generation published (`version`), so
    rows a writer adds before publishing stay out of its answers. A writer calls `optimize` before publishing; it
    builds the ANN index once the table has `ann_min_rows` rows (default ANN_MIN_ROWS).
    """

    def __init__(self, path: Path, dim: int, *, version: int | None = None, ann_min_rows: int | None = None) -> None:
        path.mkdir(parents=True, exist_ok=True)
        self._path = path
        self._dim = dim
        self._ann_min_rows = ANN_MIN_ROWS if ann_min_rows is None else ann_min_rows
        self._opened: tuple[Table, pa.Schema] | None = None
        self._version = version
        self._opening = threading.Lock()
        # Documents written or deleted since the version this writer started from (`roll_back_to`); None: unknown,
        # so whatever depends on it (the generation's chunk-vector file) is rebuilt from every row.
        self.changed_documents: set[str] | None = None

    @property
    def _table(self) -> Table:
        return self._open()[0]

    @property
    def _schema(self) -> pa.Schema:
        return self._open()[1]

    def _open(self) -> tuple[Table, pa.Schema]:
        """Connect and open (or create) the table, once; an existing table keeps its own dimension (a reader
        without a model may not know it)."""
        if self._opened is not None:
            return self._opened
        with self._opening:
            if self._opened is None:
                import lancedb

                db = lancedb.connect(str(self._path))
                # (asked, not tried: the error LanceDB raises for a missing table keeps its caller's frames, and what
                # they hold, an index's previous generation, alive until the garbage collector runs)
                if CHUNKS_TABLE in db.list_tables().tables:
                    table = db.open_table(CHUNKS_TABLE)
                    self._dim = table.schema.field("vector").type.list_size
                else:
                    table = db.create_table(CHUNKS_TABLE, schema=_chunk_schema(self._dim), exist_ok=True)
                if self._version is not None:
                    table.checkout(self._version)
                self._opened = (table, table.schema)
            return self._opened

    def version(self) -> int:
        return int(self._table.version)

    def pin(self, version: int) -> None:
        """Read this version from now on (and write nothing)."""
        self._table.checkout(version)

    def roll_back_to(self, version: int) -> None:
        """Make `version` the latest again: drops what a writer that died added after it (a new version that
        equals the old one; nothing is copied)."""
        if self.version() != version:
            self._table.restore(version)
        self.changed_documents = set()

    def upsert(self, chunks: Sequence[Chunk], vectors: np.ndarray) -> None:
        if not chunks:
            return
        import pyarrow as pa

        self._open()  # an existing table's dimension is the one checked
        if vectors.shape != (len(chunks), self._dim):
            raise ValueError(f"expected vectors of shape ({len(chunks)}, {self._dim}), got {vectors.shape}")
        self._note_changed(c.doc_id for c in chunks)
        self._delete_where(sql_in("id", [c.id for c in chunks]))
        crash_point("semantic.add")
        flat = pa.array(np.ascontiguousarray(vectors, dtype=np.float32).reshape(-1))
        table = pa.table(
            {
                "id": [c.id for c in chunks],
                "doc_id": [c.doc_id for c in chunks],
                "project": [c.project for c in chunks],
                "tenant": [c.tenant for c in chunks],
                "kind": [str(c.kind) for c in chunks],
                "vector": pa.FixedSizeListArray.from_arrays(flat, self._dim),
            },
            schema=self._schema,
        )
        self._table.add(table)

    def delete_documents(self, doc_ids: Iterable[str]) -> None:
        ids = list(doc_ids)
        self._note_changed(ids)
        for start in range(0, len(ids), DELETE_BATCH):
            self._delete_where(sql_in("doc_id", ids[start : start + DELETE_BATCH]))

    def _delete_where(self, predicate: str) -> None:
        self._table.delete(predicate)

    def _note_changed(self, doc_ids: Iterable[str]) -> None:
        if self.changed_documents is not None:
            self.changed_documents.update(doc_ids)

    def document_rows(self, tenant: str, doc_ids: Sequence[str]) -> tuple[list[str], list[str], list[str], np.ndarray]:
        """The chunks of these documents in the version read: ids, document ids, projects and vectors (for a
        chunk-vector file brought up to date with what a writer changed)."""
        ids: list[str] = []
        docs: list[str] = []
        projects: list[str] = []
        parts: list[np.ndarray] = [np.zeros((0, self._dim), dtype=np.float32)]
        for start in range(0, len(doc_ids), DELETE_BATCH):
            batch = sql_in("doc_id", doc_ids[start : start + DELETE_BATCH])
            found = self._chunk_rows(f"tenant = {sql_string(tenant)} AND {batch}")
            ids, docs, projects = ids + found[0], docs + found[1], projects + found[2]
            parts.append(found[3])
        return ids, docs, projects, np.concatenate(parts)

    def search(self, vector: np.ndarray, limit: int, where: SearchFilter) -> list[ScoredId]:
        """Nearest chunks by cosine similarity, best first, ties ordered by id."""
        if limit <= 0 or where.projects == ():
            return []
        rows = self._query(vector, limit, where).select(["id", "_distance"]).to_arrow()
        scored = [
            ScoredId(id_, 1.0 - float(distance))
            for id_, distance in zip(rows["id"].to_pylist(), rows["_distance"].to_pylist(), strict=True)
        ]
        return sorted(scored, key=lambda hit: (-hit.score, hit.id))[:limit]

    def explain(self, vector: np.ndarray, limit: int, where: SearchFilter) -> str:
        """The engine's plan for `search` (for diagnostics: it names the ANN index when the search uses one)."""
        return self._query(vector, limit, where).explain_plan(verbose=True)

    def _query(self, vector: np.ndarray, limit: int, where: SearchFilter) -> LanceVectorQueryBuilder:
        """Without an ANN index the search is exact and the index options are ignored; with one, rows written
        since it was built are scanned exactly and merged in."""
        predicate = f"tenant = {sql_string(where.tenant)}"
        if where.projects is not None:
            predicate += f" AND {sql_in('project', where.projects)}"
        query = cast("LanceVectorQueryBuilder", self._table.search(np.asarray(vector, dtype=np.float32), "vector"))
        return ann.tuned(query.distance_type("cosine").where(predicate, prefilter=True)).limit(limit + TIE_MARGIN)

    def vectors(self, ids: Sequence[str]) -> dict[str, np.ndarray]:
        if not ids:
            return {}
        rows = self._table.search().where(sql_in("id", ids)).select(["id", "vector"]).limit(len(ids)).to_arrow()
        return {
            id_: np.asarray(vec, dtype=np.float32)
            for id_, vec in zip(rows["id"].to_pylist(), rows["vector"].to_pylist(), strict=True)
        }

    def matrix_with_documents(self, tenant: str) -> tuple[list[str], list[str], list[str], np.ndarray]:
        """Every chunk of a tenant: ids, document ids, projects and vectors (one scan)."""
        return self._chunk_rows(f"tenant = {sql_string(tenant)}")

    def _chunk_rows(self, where: str) -> tuple[list[str], list[str], list[str], np.ndarray]:
        rows = self._table.search().where(where).select(["id", "doc_id", "project", "vector"]).limit(None).to_arrow()
        matrix = vector_column(rows, self._dim)
        return rows["id"].to_pylist(), rows["doc_id"].to_pylist(), rows["project"].to_pylist(), matrix

    def matrix(self, tenant: str) -> tuple[list[str], list[str], np.ndarray]:
        """Every chunk of a tenant in the version read: ids, projects, and the vectors as one (n, dim) float32 matrix
        (one scan of the table, for a view that answers dense searches from memory)."""
        ids, _, projects, matrix = self.matrix_with_documents(tenant)
        return ids, projects, np.ascontiguousarray(matrix, dtype=np.float32)

    def ids(self, tenant: str) -> set[str]:
        """Every chunk id of a tenant (for consistency checks, not for queries)."""
        rows = self._table.search().where(f"tenant = {sql_string(tenant)}").select(["id"]).limit(None).to_arrow()
        return set(rows["id"].to_pylist())

    def count(self, tenant: str | None = None) -> int:
        if tenant is None:
            return int(self._table.count_rows())
        return int(self._table.count_rows(f"tenant = {sql_string(tenant)}"))

    def ann_index(self) -> IndexConfig | None:
        """The ANN index of the version read (rows it covers, segments), or None: searches of it are exact."""
        return ann.vector_index(self._table)

    def optimize(self) -> None:
        """Ready the table for readers; a writer calls this before it pins the version it publishes, so that
        version holds what this builds. Compacts the fragments writes leave, builds the ANN and filter indexes
        once the table has `ann_min_rows` rows, and folds rows written since into them (not a rebuild) once they
        are REFRESH_FRACTION of the index; rebuilds the index only when folds have split it into more than
        MAX_SEGMENTS segments. Writes nothing (no new version) when there is nothing to do.

        A failure is logged, not raised: the rows are all there as written, searches are only slower.
        """
        try:
            ann.optimize(self._table, self._ann_min_rows, FILTER_COLUMNS)
        except (RuntimeError, OSError) as error:  # lancedb reports its failures as RuntimeError
            log.warning("could not optimize the chunk vectors of %s (searches stay exact): %s", self._path, error)
