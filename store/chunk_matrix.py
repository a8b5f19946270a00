"""The chunk vectors of a generation as files beside it, written once at publish and memory-mapped by readers, so a
server's first dense search reads a matrix from the page cache instead of scanning the vector store.

Layout, in `<generation>/chunk_vectors/`: `matrix.npy` (float32, one unit-length row per chunk, rows in id order),
`ids.npy` (the chunk ids, same order), `docs.npy` (each row's document id), `projects.npy` (int32, each row's index
into `meta.json`'s project names), `meta.json` (tenant, rows, dimension, project names) and the chunk rows
(`rows.arrow`, `chunk_rows.py`; a folder written before it existed has none). A new generation starts
with a link to the file of the one it was copied from, and its publish rewrites only the rows of the documents its
writer changed, read from the vector store (the rest are the file's own); without that file, or when the changes
are not known, every row is read. The folder is written under a temporary name and renamed
into place before the manifest naming the generation is published, so a reader never finds half of it; a
generation published before this existed has none, and readers build the matrix from the vector store instead.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from trident.store.chunk_rows import write_rows
from trident.store.crashpoints import crash_point

if TYPE_CHECKING:
    import pyarrow as pa

    from trident.store.lance_index import LanceVectorIndex

CHUNK_MATRIX_DIR = "chunk_vectors"
FORMAT = 2  # 2: with docs.npy


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
        order = sorted(range(len(ids)), key=ids.__getitem__)
        names = tuple(sorted(set(projects)))
        codes = {name: code for code, name in enumerate(names)}
        if not order:
            empty = np.array([], dtype=str)
            return cls(empty, np.zeros(0, np.int32), names, np.zeros((0, 0), np.float32), empty)
        return cls(
            np.array([ids[i] for i in order], dtype=str),
            np.array([codes[projects[i]] for i in order], dtype=np.int32),
            names,
            np.ascontiguousarray(unit_rows[order], dtype=np.float32),
            np.array([docs[i] for i in order], dtype=str) if docs is not None else None,
        )

    def updated(self, changed: set[str], fresh: ChunkMatrix) -> ChunkMatrix:
        """These rows without those of the `changed` documents, with `fresh` (those documents' rows now) added."""
        assert self.docs is not None and fresh.docs is not None
        keep = np.flatnonzero(~np.isin(self.docs, sorted(changed)))
        ids = [*self.ids[keep].tolist(), *fresh.ids.tolist()]
        docs = [*self.docs[keep].tolist(), *fresh.docs.tolist()]
        projects = [self.project_names[c] for c in self.projects[keep]]
        projects += [fresh.project_names[c] for c in fresh.projects]
        parts = [np.asarray(self.matrix[keep], dtype=np.float32)] if len(keep) else []
        if len(fresh.ids):
            parts.append(np.asarray(fresh.matrix, dtype=np.float32))
        rows = np.concatenate(parts) if parts else np.zeros((0, 0), np.float32)
        return ChunkMatrix._ordered(ids, projects, rows, docs)


def write_chunk_matrix(folder: Path, vectors: LanceVectorIndex, tenant: str, rows: pa.Table | None = None) -> None:
    """Write the tenant's chunk vectors, as `vectors` reads them, and its chunk `rows` (`chunk_rows.current_rows`)
    into the generation folder `folder` (replacing any there)."""
    chunks = _current(folder, vectors, tenant)
    target = folder / CHUNK_MATRIX_DIR
    draft = folder / f".{CHUNK_MATRIX_DIR}-{os.getpid()}"
    shutil.rmtree(draft, ignore_errors=True)
    draft.mkdir()
    docs = chunks.docs if chunks.docs is not None else np.array([], dtype=str)
    for name, array in (("matrix", chunks.matrix), ("ids", chunks.ids), ("projects", chunks.projects), ("docs", docs)):
        with open(draft / f"{name}.npy", "wb") as handle:
            np.save(handle, array, allow_pickle=False)
            handle.flush()
            os.fsync(handle.fileno())
    meta = {"format": FORMAT, "tenant": tenant, "rows": len(chunks.ids), "projects": list(chunks.project_names)}
    (draft / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
    if rows is not None:
        write_rows(draft, rows)
    crash_point("publish.chunk_matrix")
    if target.exists():
        shutil.rmtree(target)
    os.rename(draft, target)


def _current(folder: Path, vectors: LanceVectorIndex, tenant: str) -> ChunkMatrix:
    """The tenant's rows now: the file the generation started with, brought up to date with the documents its
    writer changed; every row read again when there is no such file or the changes are not known."""
    changed = vectors.changed_documents
    previous = read_chunk_matrix(folder, tenant) if changed is not None else None
    if changed is None or previous is None or previous.docs is None:
        ids, docs, projects, matrix = vectors.matrix_with_documents(tenant)
        return ChunkMatrix.from_rows(ids, projects, matrix, docs)
    ids, docs, projects, matrix = vectors.document_rows(tenant, sorted(changed))
    return previous.updated(changed, ChunkMatrix.from_rows(ids, projects, matrix, docs))


def read_chunk_matrix(folder: Path, tenant: str) -> ChunkMatrix | None:
    """The tenant's chunk vectors written beside the generation `folder`, the matrix memory-mapped; None when the
    generation has none for this tenant (written before this existed, or for another tenant)."""
    where = folder / CHUNK_MATRIX_DIR
    try:
        meta = json.loads((where / "meta.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    if meta.get("format") != FORMAT or meta.get("tenant") != tenant:
        return None
    ids = np.load(where / "ids.npy", allow_pickle=False)
    docs = np.load(where / "docs.npy", allow_pickle=False)
    projects = np.load(where / "projects.npy", allow_pickle=False)
    # numpy cannot map an empty file
    matrix = np.load(where / "matrix.npy", mmap_mode="r" if meta["rows"] else None, allow_pickle=False)
    if not (len(ids) == len(docs) == len(projects) == len(matrix) == meta["rows"]):
        return None
    return ChunkMatrix(ids, projects, tuple(meta["projects"]), matrix, docs)
