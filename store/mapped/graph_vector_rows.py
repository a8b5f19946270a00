"""The entity and relation vectors of a tenant as files a reader maps, so that a server keeps none of them in its own
memory: the float32 rows (read with `pread`, `file_rows.py`, for the candidates a search scores), their int8 rows
(scanned, `int8_rows.py`) and the items' keys, kinds and entities (an Arrow file). At 100K chunks the view built from
the table held 156 MB of float32 rows and 39 MB of int8 rows in the server, and reading the table cost 1.6 s.

The vector table stays the record. The sync that changes it writes the files for the table's new version, in a folder
named by the tenant and that version (`graph_vector_rows/<tenant key>-<version>/`), under a draft name renamed into
place, then removes the tenant's folders of other versions (a reader that mapped one keeps reading it), and names
the version it wrote (store/mapped/current_rows.py). A reader maps the folder so named without opening the table;
without one (an index synced before these files, a sync running or that died), it uses the folder of the table version
it opens, and when there is none (another tenant's sync having moved the shared table's version since), reads the table.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from pyarrow import ipc

from trident.store.engines.graph_vectors import GraphVectorIndex
from trident.store.mapped import current_rows
from trident.store.mapped.chunk_matrix import copy_runs
from trident.store.mapped.file_rows import write_array
from trident.store.mapped.int8_rows import Int8Rows, read_int8, scan_rows, write_int8

GRAPH_VECTOR_ROWS_DIR = "graph_vector_rows"
ITEM_COLUMNS = ("key", "kind", "entities")
ITEMS_FILE = "items.arrow"
MATRIX_FILE = "matrix.npy"
META_FILE = "meta.json"


@dataclass(frozen=True)
class GraphVectorRows:
    """A tenant's items ordered by key (equal scores rank by key, as the table's search ranks them) and their vectors
    scaled to unit length (a dot product is the cosine similarity); `int8` when a search would scan them."""

    items: pa.Table
    matrix: np.ndarray  # memory-mapped when read from the files
    int8: Int8Rows | None

    @classmethod
    def of(cls, items: pa.Table, matrix: np.ndarray) -> GraphVectorRows:
        """Rows as the table gives them (any order, any length), ordered by key and scaled to unit length."""
        ordered, rows = _unit_rows(items, matrix)
        return cls(ordered, rows, scan_rows(rows))

    @classmethod
    def empty(cls) -> GraphVectorRows:
        return cls.of(pa.table({name: pa.array([], pa.string()) for name in ITEM_COLUMNS}), np.zeros((0, 0)))


def _unit_rows(items: pa.Table, matrix: np.ndarray) -> tuple[pa.Table, np.ndarray]:
    """The items ordered by key and their rows scaled to unit length, each on its own (a row's bits do not depend on
    the others)."""
    order = pc.sort_indices(items, [("key", "ascending")]).to_numpy() if items.num_rows else np.zeros(0, np.intp)
    ordered = items.select(list(ITEM_COLUMNS)).take(order).combine_chunks()
    rows = np.asarray(matrix, dtype=np.float32)[order] if len(order) else np.zeros((0, 0), np.float32)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    rows /= np.where(norms == 0, 1.0, norms)  # in place: no second copy of every vector
    return ordered, rows


def read_current(folder: Path, tenant: str) -> GraphVectorRows | None:
    """The tenant's rows as the last finished sync wrote them, without opening the table; None when no finished
    sync named its version (`current_rows`) or its folder is not whole."""
    version = current_rows.current(folder, tenant)
    return _read_files(current_rows.version_folder(folder, tenant, version)) if version is not None else None


def read_rows(index: GraphVectorIndex | None, folder: Path | None, tenant: str) -> GraphVectorRows:
    """The tenant's rows of the table as `index` is now: from the files of its version in `folder` when written,
    else read from the table (none when there is no table yet)."""
    if index is None:
        return GraphVectorRows.empty()
    written = _read_files(current_rows.version_folder(folder, tenant, index.version())) if folder is not None else None
    return written or GraphVectorRows.of(*index.rows(tenant))


@dataclass(frozen=True)
class RowChanges:
    """What a sync changed in the table since version `since`: the keys it removed, and the items it added (`key`,
    `kind`, `entities`; a key re-added replaces its row) with their vectors as stored."""

    since: int
    removed: Collection[str]
    added: pa.Table
    vectors: np.ndarray


def keep_rows(index: GraphVectorIndex, folder: Path, tenant: str, changes: RowChanges | None = None) -> None:
    """Write the tenant's rows for the table's current version unless they are there, then remove its other
    versions' folders and the drafts a writer that died left (one writer at a time holds the index's lock). What a
    sync does once it has changed the table (and compacted it: a new version too). With the sync's `changes`, the
    rows are the files of the version before them, updated (at 100K items: about a second instead of 2.5 to read the
    table back); without, or without those files, they are read from the table."""
    version = index.version()
    target = current_rows.version_folder(folder, tenant, version)
    if not target.is_dir():
        updated = _updated(folder, tenant, changes) if changes is not None else None
        _write_files(target, updated or GraphVectorRows.of(*index.rows(tenant)), tenant)
    current_rows.settle(folder, tenant, version)


def _updated(folder: Path, tenant: str, changes: RowChanges) -> GraphVectorRows | None:
    """The rows of version `changes.since` with the changes applied, as reading the changed table gives them (each
    row is scaled on its own, so a row's bits do not depend on the others); None without that version's files."""
    base = _read_files(current_rows.version_folder(folder, tenant, changes.since))
    if base is None or not len(base.items):
        return None
    fresh_items, fresh_rows = _unit_rows(changes.added, changes.vectors)
    dropped = pa.array(sorted({*changes.removed, *fresh_items.column("key").to_pylist()}), pa.string())
    kept = np.flatnonzero(~pc.is_in(base.items.column("key"), value_set=dropped).to_numpy(zero_copy_only=False))
    items = pa.concat_tables([base.items.take(pa.array(kept)), fresh_items.cast(base.items.schema)])
    order = pc.sort_indices(items, [("key", "ascending")]).to_numpy()
    matrix = np.empty((len(order), base.matrix.shape[1]), dtype=np.float32)
    from_base = order < len(kept)
    copy_runs(matrix, np.flatnonzero(from_base), base.matrix, kept[order[from_base]])  # both ascending (by key)
    if len(fresh_items):
        matrix[~from_base] = fresh_rows[order[~from_base] - len(kept)]
    return GraphVectorRows(items.take(pa.array(order)).combine_chunks(), matrix, scan_rows(matrix))


def _write_files(target: Path, rows: GraphVectorRows, tenant: str) -> None:
    with current_rows.new_version(target, "sync.graph_vector_rows") as draft:
        write_array(draft / MATRIX_FILE, rows.matrix)
        write_int8(draft, "", rows.int8)
        with ipc.new_file(str(draft / ITEMS_FILE), rows.items.schema) as items:
            items.write_table(rows.items)
        meta = {"tenant": tenant, "rows": len(rows.matrix)}
        (draft / META_FILE).write_text(json.dumps(meta), encoding="utf-8")


def _read_files(where: Path) -> GraphVectorRows | None:
    """The rows written in `where`, memory-mapped; None when the folder is not there (or not whole)."""
    try:
        meta = json.loads((where / META_FILE).read_text(encoding="utf-8"))
        matrix = np.load(where / MATRIX_FILE, mmap_mode="r", allow_pickle=False)
        items = ipc.open_file(pa.memory_map(str(where / ITEMS_FILE))).read_all()
    except (OSError, ValueError, KeyError):  # not there, or not whole (ArrowInvalid is a ValueError): read the table
        return None
    if items.num_rows != meta["rows"] or len(matrix) != meta["rows"]:
        return None
    return GraphVectorRows(items, matrix, read_int8(where, "", matrix.shape))
