"""The ANN index of a LanceDB vector table (IVF_HNSW_SQ, cosine): when to build it, how to keep it current as rows
are written, and the query options that keep its answers exact enough. Shared by the chunk vectors and the entity
and relation vectors; only writers call `optimize`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import timedelta
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:  # LanceDB is imported by whoever opened the table: importing it costs a second
    from lancedb.index import IndexConfig
    from lancedb.query import LanceVectorQueryBuilder
    from lancedb.table import Table

log = logging.getLogger(__name__)

# The ANN index (IVF_HNSW_SQ, cosine) and what queries ask of it; figures from the 61K-chunk bench index.
ANN_MIN_ROWS = 20_000  # below this a flat scan answers in ~15 ms, and an index costs more to build than it saves
VECTOR_INDEX = "vector_idx"
EF_CONSTRUCTION = 150  # half lancedb's 300: half the build time (15-30 s at 61K), recall unchanged once refined
NPROBES = 20  # IVF partitions searched at least (lancedb's default); a narrow filter may search more, up to all
REFINE_FACTOR = 5  # re-rank 5x the candidates on the full vectors: recall@10 1.0 on the bench, exact cosine scores
REFRESH_FRACTION = 0.1  # fold new rows into the index once they are a tenth of it; until then they are scanned flat
MAX_SEGMENTS = 8  # each fold adds an index segment that searches visit; past this (the table ~doubled) rebuild
MAX_FRAGMENTS = 64  # every write adds a fragment; compact (which also folds) when there are more than this
# lancedb's optimize() also deletes the versions older than 7 days by default. One of those may be the version
# readers pin and a writer that dies rolls back to (the published one, if nothing was published since), so no
# version is ever deleted here.
KEEP_VERSIONS = timedelta(days=36_500)


def vector_index(table: Table) -> IndexConfig | None:
    return next((index for index in table.list_indices() if index.name == VECTOR_INDEX), None)


def optimize(table: Table, min_rows: int, filter_columns: Sequence[str]) -> None:
    """Compact the fragments writes leave, build the ANN index and bitmap indexes on `filter_columns` once the
    table has `min_rows` rows, and fold rows written since into them (not a rebuild) once they are
    REFRESH_FRACTION of the index; rebuild only when folds have split the index into more than MAX_SEGMENTS
    segments. Writes nothing (no new version) when there is nothing to do."""
    rows = table.count_rows()
    stats = cast(dict[str, Any], table.stats())  # typed as a dataclass, returned as a dict
    fragments = int(stats["fragment_stats"]["num_fragments"])
    current = vector_index(table)
    if current is None:
        build = rows >= min_rows
        if fragments > MAX_FRAGMENTS or (build and fragments > 1):
            _compact(table)
        if build:
            _build(table, filter_columns)
        return
    unindexed, indexed = current.num_unindexed_rows or 0, current.num_indexed_rows or 0
    if fragments > MAX_FRAGMENTS or unindexed > REFRESH_FRACTION * indexed:
        _compact(table)
        folded = vector_index(table)
        if folded is not None and (folded.num_segments or 1) > MAX_SEGMENTS:
            _build(table, filter_columns)  # retrained on today's rows, in one segment


def tuned(query: LanceVectorQueryBuilder) -> LanceVectorQueryBuilder:
    """The index options every search uses (ignored by an exact search of a table without an index)."""
    return query.minimum_nprobes(NPROBES).maximum_nprobes(0).refine_factor(REFINE_FACTOR)


def _compact(table: Table) -> None:
    """Merge small fragments, and add the rows no index covers yet to every index (as a new segment of it: no
    retraining)."""
    table.optimize(cleanup_older_than=KEEP_VERSIONS)


def _build(table: Table, filter_columns: Sequence[str]) -> None:
    from lancedb.index import Bitmap, HnswSq

    table.create_index(
        "vector", config=HnswSq(distance_type="cosine", ef_construction=EF_CONSTRUCTION), name=VECTOR_INDEX
    )
    for column in filter_columns:
        table.create_index(column, config=Bitmap(), name=f"{column}_idx")
    log.info("built the ANN index of table %s over %d vectors", table.name, table.count_rows())
