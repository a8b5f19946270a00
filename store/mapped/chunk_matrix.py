"""A tenant's chunk vectors as one matrix in id order: what a segment of the chunk files beside a generation holds
(`chunk_files.py`) and what dense search from memory scores (`retrieval/chunk_vectors.py`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

CHUNK_MATRIX_DIR = "chunk_vectors"


@dataclass(frozen=True)
class ChunkMatrix:
    """Every chunk vector of one tenant: rows in id order (equal scores then rank by id, as the vector store ranks
    them), each of unit length (a dot product is the cosine similarity)."""

    ids: np.ndarray  # str, one per row
    projects: np.ndarray  # int32 index into project_names, one per row
    project_names: tuple[str, ...]  # sorted
    matrix: np.ndarray  # float32 (rows, dim); memory-mapped when read from a file
    docs: np.ndarray | None = None  # str, each row's document id (None: not known, e.g. read from an older file)

    @classmethod
    def from_rows(
        cls, ids: list[str], projects: list[str], matrix: np.ndarray, docs: list[str] | None = None
    ) -> ChunkMatrix:
        """Sort rows by id and scale each to unit length (a zero row stays zero)."""
        rows = np.asarray(matrix, dtype=np.float32)
        norms = np.linalg.norm(rows, axis=1, keepdims=True) if len(rows) else np.ones((0, 1), np.float32)
        return cls._ordered(ids, projects, rows / np.where(norms == 0, 1, norms), docs)

    @classmethod
    def _ordered(
        cls, ids: list[str], projects: list[str], unit_rows: np.ndarray, docs: list[str] | None
    ) -> ChunkMatrix:
        names = tuple(sorted(set(projects)))
        codes = {name: code for code, name in enumerate(names)}
        return cls._sorted(
            np.array(ids, dtype=str),
            np.array([codes[p] for p in projects], dtype=np.int32),
            names,
            unit_rows,
            np.array(docs, dtype=str) if docs is not None else None,
        )

    @classmethod
    def _sorted(
        cls, ids: np.ndarray, codes: np.ndarray, names: tuple[str, ...], rows: np.ndarray, docs: np.ndarray | None
    ) -> ChunkMatrix:
        """These rows in id order (ids are unique, so the order is total)."""
        if not len(ids):
            empty = np.array([], dtype=str)
            return cls(empty, np.zeros(0, np.int32), names, np.zeros((0, 0), np.float32), empty)
        order = np.argsort(ids, kind="stable")
        return cls(
            ids[order],
            codes[order],
            names,
            np.ascontiguousarray(np.asarray(rows, dtype=np.float32)[order]),
            docs[order] if docs is not None else None,
        )

    @classmethod
    def concatenated(cls, parts: Sequence[ChunkMatrix], masks: Sequence[np.ndarray]) -> ChunkMatrix:
        """The rows of `parts` that `masks` select (ids distinct across them), in id order."""
        names = tuple(sorted({part.project_names[c] for part in parts for c in np.unique(part.projects)}))
        position = {name: code for code, name in enumerate(names)}
        chosen = [(part, np.flatnonzero(mask)) for part, mask in zip(parts, masks, strict=True)]
        chosen = [(part, rows) for part, rows in chosen if len(rows)]
        if not chosen:
            empty = np.array([], dtype=str)
            return cls(empty, np.zeros(0, np.int32), (), np.zeros((0, 0), np.float32), empty)
        recode = [np.array([position[n] for n in part.project_names], dtype=np.int32) for part, _ in chosen]
        return cls._sorted(
            np.concatenate([part.ids[rows] for part, rows in chosen]),
            np.concatenate([codes[part.projects[rows]] for codes, (part, rows) in zip(recode, chosen, strict=True)]),
            names,
            np.concatenate([np.asarray(part.matrix[rows], dtype=np.float32) for part, rows in chosen]),
            np.concatenate([part.docs[rows] for part, rows in chosen if part.docs is not None]),
        )

    def updated(self, changed: set[str], fresh: ChunkMatrix) -> ChunkMatrix:
        """These rows without those of the `changed` documents, with `fresh` (those documents' rows now, in id
        order) merged in by id. The matrix is copied once, in runs between the rows that leave or arrive: an edit
        in a large index moves a few rows of a matrix of hundreds of megabytes."""
        assert self.docs is not None and fresh.docs is not None
        keep = np.flatnonzero(~np.isin(self.docs, np.array(sorted(changed), dtype=str)))
        kept_ids = self.ids[keep]
        arriving = np.searchsorted(kept_ids, fresh.ids)  # where each fresh row goes among the kept ones
        fresh_at = arriving + np.arange(len(fresh.ids))
        kept_at = np.arange(len(keep)) + np.searchsorted(arriving, np.arange(len(keep)), side="right")
        total = len(keep) + len(fresh.ids)
        kept_names = {self.project_names[code] for code in np.unique(self.projects[keep])}
        names = tuple(sorted(kept_names | set(fresh.project_names)))
        position = {name: code for code, name in enumerate(names)}
        old_codes = np.array([position.get(name, -1) for name in self.project_names], dtype=np.int32)
        new_codes = np.array([position[name] for name in fresh.project_names], dtype=np.int32)
        ids = np.empty(total, dtype=np.result_type(self.ids, fresh.ids))
        docs = np.empty(total, dtype=np.result_type(self.docs, fresh.docs))
        codes = np.empty(total, dtype=np.int32)
        ids[kept_at], ids[fresh_at] = kept_ids, fresh.ids
        docs[kept_at], docs[fresh_at] = self.docs[keep], fresh.docs
        codes[kept_at], codes[fresh_at] = old_codes[self.projects[keep]], new_codes[fresh.projects]
        if not total:
            return ChunkMatrix._sorted(ids, codes, names, np.zeros((0, 0), np.float32), docs)
        dim = self.matrix.shape[1] if len(self.ids) else fresh.matrix.shape[1]
        matrix = np.empty((total, dim), dtype=np.float32)
        if len(fresh.ids):
            matrix[fresh_at] = fresh.matrix
        copy_runs(matrix, kept_at, self.matrix, keep)
        return ChunkMatrix(ids, codes, names, matrix, docs)


def copy_runs(target: np.ndarray, target_rows: np.ndarray, source: np.ndarray, source_rows: np.ndarray) -> None:
    """target[target_rows] = source[source_rows], both ascending, copied a run of consecutive rows at a time (no
    temporary the size of the matrix)."""
    if not len(source_rows):
        return
    breaks = np.flatnonzero((np.diff(target_rows) != 1) | (np.diff(source_rows) != 1)) + 1
    for begin, end in zip([0, *breaks.tolist()], [*breaks.tolist(), len(source_rows)], strict=True):
        at, start = int(target_rows[begin]), int(source_rows[begin])
        target[at : at + end - begin] = source[start : start + end - begin]
