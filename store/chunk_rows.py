"""The chunks of a generation as one Arrow file beside it, so a search reads its hits' rows (text, place, title) from
the page cache instead of looking each page up in the graph store.

`rows.arrow` lives in the generation's chunk-vector folder (`chunk_matrix.py`) and is written with it: in the same
draft folder, renamed into place before the manifest naming the generation is published, linked into the next
generation and brought up to date there with the documents its writer changed. Rows are in id order, one per chunk,
the columns of `Chunk`; readers memory-map the file (an Arrow IPC file, uncompressed) and find a row by binary
search. A generation published without the file is read from the graph store instead.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.ipc as ipc

from trident.store.schema import Chunk, DocumentKind

if TYPE_CHECKING:
    from trident.store.kuzu_graph import KuzuGraphStore

ROWS_FILE = "rows.arrow"
TENANT_KEY = b"trident.tenant"
ROWS_SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("doc_id", pa.string()),
        ("project", pa.string()),
        ("tenant", pa.string()),
        ("path", pa.string()),
        ("start_line", pa.int64()),
        ("end_line", pa.int64()),
        ("text", pa.large_string()),
        ("title", pa.string()),
        ("kind", pa.string()),
        ("language", pa.string()),
        ("symbols", pa.list_(pa.string())),
    ]
)


def current_rows(folder: Path, graph: KuzuGraphStore, changed: Collection[str] | None, tenant: str) -> pa.Table:
    """The tenant's chunk rows as the writer leaves them, in id order: the file in `folder` (a generation's
    chunk-vector folder) when the generation started (linked from the one it was copied from), without the
    `changed` documents' rows, and those documents' rows read from `graph`; every row read from `graph` when the
    changes are not known or there is no such file."""
    previous = _read_table(folder / ROWS_FILE, tenant) if changed is not None else None
    if changed is None or previous is None:
        rows = graph.chunk_table(tenant)
    else:
        documents = pa.array(sorted(changed), pa.string())
        kept = previous.filter(pc.invert(pc.is_in(previous.column("doc_id"), value_set=documents)))
        rows = pa.concat_tables([kept, graph.chunk_table(tenant, sorted(changed)).cast(ROWS_SCHEMA)])
    return rows.cast(ROWS_SCHEMA).sort_by("id").replace_schema_metadata({TENANT_KEY: tenant.encode()})


def write_rows(folder: Path, rows: pa.Table) -> None:
    """Write `rows` (as `current_rows` gives them) into `folder` (a draft of the chunk-vector folder), synced."""
    with open(folder / ROWS_FILE, "wb") as handle:
        with ipc.new_file(handle, rows.schema) as file:
            file.write_table(rows)
        handle.flush()
        os.fsync(handle.fileno())


def _read_table(path: Path, tenant: str) -> pa.Table | None:
    """The rows of the file at `path`, memory-mapped; None when there is none, or it is another tenant's or of
    another layout."""
    try:
        table = ipc.open_file(pa.memory_map(str(path))).read_all()
    except FileNotFoundError:
        return None
    metadata = table.schema.metadata or {}
    if metadata.get(TENANT_KEY) != tenant.encode() or not table.schema.remove_metadata().equals(ROWS_SCHEMA):
        return None
    return table


class ChunkRows:
    """The chunk rows of one generation, memory-mapped: chunks by id without a query to the graph store."""

    def __init__(self, table: pa.Table) -> None:
        self._table = table
        self._ids = np.asarray(table.column("id").to_numpy(zero_copy_only=False))

    @classmethod
    def read(cls, folder: Path, tenant: str) -> ChunkRows | None:
        """The rows written for `tenant` in `folder` (a generation's chunk-vector folder); None when it has none."""
        table = _read_table(folder / ROWS_FILE, tenant)
        return cls(table) if table is not None else None

    def __len__(self) -> int:
        return len(self._ids)

    def get(self, ids: Sequence[str]) -> dict[str, Chunk]:
        """The chunks of these ids that the generation holds (an unknown id is left out), as the graph store's
        `get_chunks` gives them."""
        wanted = sorted(set(ids))
        if not wanted or not len(self._ids):
            return {}
        places = np.searchsorted(self._ids, np.asarray(wanted, dtype=object))
        rows = [int(p) for p, i in zip(places, wanted, strict=True) if p < len(self._ids) and self._ids[p] == i]
        return {row["id"]: _chunk(row) for row in self._table.take(rows).to_pylist()}


def _chunk(row: dict[str, Any]) -> Chunk:
    return Chunk.model_construct(  # validated when written
        id=row["id"],
        doc_id=row["doc_id"],
        project=row["project"],
        tenant=row["tenant"],
        path=row["path"],
        start_line=row["start_line"],
        end_line=row["end_line"],
        text=row["text"],
        title=row["title"] or "",
        kind=DocumentKind(row["kind"]),
        language=row["language"] or None,
        symbols=tuple(row["symbols"] or ()),
    )
