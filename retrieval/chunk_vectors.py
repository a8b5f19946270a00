"""Dense search from memory: every chunk vector of an index generation in a few matrices, so a query is a matrix
product and a partial sort per matrix instead of a scan through the vector store per query. The vector store stays
the record; the matrices are the chunk files its generation's publish wrote (memory-mapped, one per segment:
`store/mapped/chunk_files.py`), or, for a generation published without them, read from the vector store once.

Where a segment has its rows as int8 (`store/mapped/int8_rows.py`), a search scans those first (`top_rows.nearest_rows`)
and reads its candidates' float32 rows from the file (`store/mapped/file_rows.py`) rather than through the mapping."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from trident.retrieval.top_rows import nearest_rows
from trident.store.mapped.chunk_files import ChunkFiles
from trident.store.mapped.chunk_matrix import ChunkMatrix
from trident.store.mapped.chunk_rows import live_positions
from trident.store.mapped.file_rows import row_reader
from trident.store.mapped.int8_rows import Int8Rows
from trident.store.protocols import ScoredId, SearchFilter


class ChunkVectors:
    """The chunk vectors of one tenant, in parts (the segments of the generation's chunk files), each part's rows in
    id order and scaled to unit length (a dot product is the cosine similarity). Equal scores rank by id, as the
    vector store ranks them; a row a later part replaced is never found."""

    def __init__(
        self,
        parts: Sequence[ChunkMatrix],
        live: Sequence[np.ndarray | None] | None = None,
        int8: Sequence[Int8Rows | None] | None = None,
    ) -> None:
        masks, scans = live or [None] * len(parts), int8 or [None] * len(parts)
        self._parts = [_Part(*part) for part in zip(parts, masks, scans, strict=True)]

    @classmethod
    def from_rows(cls, ids: list[str], projects: list[str], matrix: np.ndarray) -> ChunkVectors:
        """Rows in any order and of any length (sorted by id and scaled here)."""
        return cls([ChunkMatrix.from_rows(ids, projects, matrix)])

    @classmethod
    def load(cls, files: ChunkFiles) -> ChunkVectors:
        """The generation's chunk `files` (`read_chunk_files`), memory-mapped."""
        segments = files.segments
        return cls([s.chunks for s in segments], files.live, [s.int8 for s in segments])

    def __len__(self) -> int:
        return sum(part.live_rows for part in self._parts)

    def search(self, vector: np.ndarray, limit: int, where: SearchFilter) -> list[ScoredId]:
        """Nearest chunks by cosine similarity in the projects `where` allows, best first, ties ordered by id."""
        if limit <= 0 or where.projects == ():
            return []
        query = np.asarray(vector, dtype=np.float32)
        query = query / (np.linalg.norm(query) or 1.0)
        found = [hit for part in self._parts for hit in part.search(query, limit, where.projects)]
        if len(self._parts) > 1:
            found.sort(key=lambda hit: (-hit.score, hit.id))
        return found[:limit]

    def rows(self, ids: Sequence[str]) -> dict[str, np.ndarray]:
        """The unit-length vectors of these chunks, by id (an id no part holds alive is left out)."""
        found: dict[str, np.ndarray] = {}
        wanted = np.asarray(sorted(set(ids)), dtype=object)
        for part in self._parts:
            found.update(part.rows(wanted))
        return dict(sorted(found.items()))


class _Part:
    def __init__(self, chunks: ChunkMatrix, live: np.ndarray | None, int8: Int8Rows | None) -> None:
        self._ids = chunks.ids
        self._int8 = int8
        self._project_codes = {name: code for code, name in enumerate(chunks.project_names)}
        self._projects = chunks.projects
        self._matrix = chunks.matrix
        self._take = row_reader(chunks.matrix)
        self._dead = None if live is None or live.all() else ~live
        self.live_rows = len(self._ids) - (int(np.count_nonzero(self._dead)) if self._dead is not None else 0)

    def search(self, query: np.ndarray, limit: int, projects: Sequence[str] | None) -> list[ScoredId]:
        if not len(self._ids):
            return []
        rows, scores = nearest_rows(self._matrix, self._int8, query, limit, self._excluded(projects), self._take)
        return [ScoredId(i, s) for i, s in zip(self._ids[rows].tolist(), scores.tolist(), strict=True)]

    def rows(self, wanted: np.ndarray) -> dict[str, np.ndarray]:
        """The live rows of the sorted ids `wanted` that this part holds."""
        live = None if self._dead is None else ~self._dead
        found = live_positions(self._ids, wanted, live)
        vectors = self._take(np.asarray(found, dtype=np.intp)) if self._take is not None else self._matrix[found]
        return {str(self._ids[p]): np.asarray(vector) for p, vector in zip(found, vectors, strict=True)}

    def _excluded(self, projects: Sequence[str] | None) -> np.ndarray | None:
        if projects is None:
            return self._dead
        codes = [self._project_codes[name] for name in projects if name in self._project_codes]
        outside = ~np.isin(self._projects, np.array(codes, dtype=np.int32))
        return outside if self._dead is None else outside | self._dead
