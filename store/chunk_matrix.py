"""The chunk vectors of a generation as files beside it, written once at publish and memory-mapped by readers, so a
server's first dense search reads a matrix from the page cache instead of scanning the vector store.

Layout, in `<generation>/chunk_vectors/`: `matrix.npy` (float32, one unit-length row per chunk, rows in id order),
`ids.npy` (the chunk ids, same order), `projects.npy` (int32, each row's index into `meta.json`'s project names)
and `meta.json` (tenant, rows, dimension, project names). The folder is written under a temporary name and renamed
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

from trident.store.crashpoints import crash_point

if TYPE_CHECKING:
    from trident.store.lance_index import LanceVectorIndex

CHUNK_MATRIX_DIR = "chunk_vectors"
FORMAT = 1


@dataclass(frozen=True)
class ChunkMatrix:
    """Every chunk vector of one tenant: rows in id order (equal scores then rank by id, as the vector store ranks
    them), each of unit length (a dot product is the cosine similarity)."""

    ids: np.ndarray  # str, one per row
    projects: np.ndarray  # int32 index into project_names, one per row
    project_names: tuple[str, ...]  # sorted
    matrix: np.ndarray  # float32 (rows, dim); memory-mapped when read from a file

    @classmethod
    def from_rows(cls, ids: list[str], projects: list[str], matrix: np.ndarray) -> ChunkMatrix:
        """Sort rows by id and scale each to unit length (a zero row stays zero)."""
        order = sorted(range(len(ids)), key=ids.__getitem__)
        names = tuple(sorted(set(projects)))
        codes = {name: code for code, name in enumerate(names)}
        if not order:
            return cls(np.array([], dtype=str), np.zeros(0, np.int32), names, np.zeros((0, 0), np.float32))
        rows = np.asarray(matrix, dtype=np.float32)[order]
        norms = np.linalg.norm(rows, axis=1, keepdims=True)
        return cls(
            np.array([ids[i] for i in order], dtype=str),
            np.array([codes[projects[i]] for i in order], dtype=np.int32),
            names,
            np.ascontiguousarray(rows / np.where(norms == 0, 1, norms), dtype=np.float32),
        )


def write_chunk_matrix(folder: Path, vectors: LanceVectorIndex, tenant: str) -> None:
    """Write the tenant's chunk vectors, as `vectors` reads them, into the generation folder `folder` (replacing
    any there)."""
    chunks = ChunkMatrix.from_rows(*vectors.matrix(tenant))
    target = folder / CHUNK_MATRIX_DIR
    draft = folder / f".{CHUNK_MATRIX_DIR}-{os.getpid()}"
    shutil.rmtree(draft, ignore_errors=True)
    draft.mkdir()
    for name, array in (("matrix", chunks.matrix), ("ids", chunks.ids), ("projects", chunks.projects)):
        with open(draft / f"{name}.npy", "wb") as handle:
            np.save(handle, array, allow_pickle=False)
            handle.flush()
            os.fsync(handle.fileno())
    meta = {"format": FORMAT, "tenant": tenant, "rows": len(chunks.ids), "projects": list(chunks.project_names)}
    (draft / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
    crash_point("publish.chunk_matrix")
    if target.exists():
        shutil.rmtree(target)
    os.rename(draft, target)


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
    projects = np.load(where / "projects.npy", allow_pickle=False)
    # numpy cannot map an empty file
    matrix = np.load(where / "matrix.npy", mmap_mode="r" if meta["rows"] else None, allow_pickle=False)
    if not (len(ids) == len(projects) == len(matrix) == meta["rows"]):
        return None
    return ChunkMatrix(ids, projects, tuple(meta["projects"]), matrix)
