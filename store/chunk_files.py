"""The chunk files beside a generation (its chunk vectors and chunk rows) as segments, so a publish writes what its
writer changed instead of every chunk again.

Layout, in `<generation>/chunk_vectors/`: `meta.json` (format, tenant, the segments oldest first) and, for each
segment, its chunk matrix (`<prefix>matrix.npy`, `ids.npy`, `docs.npy`, `projects.npy`: `ChunkMatrix`, rows in id
order), the matrix's rows as int8 (`<prefix>int8.npy`, `int8_steps.npy`: `int8_rows.py`, what a dense search scans
first) and chunk rows (`<prefix>rows.arrow`, `chunk_rows.py`). A segment names the documents whose rows it replaces:
those its write changed (deleted ones included), so a row of an older segment is live unless a later one replaces its
document. A publish that knows what its writer changed links the segments of the generation it started from and adds
one holding those documents' rows; once the later segments would hold more than COMPACT_SHARE of the first one's rows,
or number more than MAX_SEGMENTS, it writes a single segment of every live row instead. Every publish writes a new
folder under a draft name and renames it into place before the manifest naming the generation is published, so a
reader never finds half of it. A folder of format 2 (one matrix, no prefix, rows maybe absent) reads as one segment.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Collection
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

from trident.store.chunk_matrix import CHUNK_MATRIX_DIR, ChunkMatrix
from trident.store.chunk_rows import ROWS_FILE, ChunkRows, read_rows_table, sorted_rows, write_rows
from trident.store.crashpoints import crash_point
from trident.store.file_rows import write_array
from trident.store.int8_rows import Int8Rows, read_int8, scan_rows, write_int8
from trident.store.remote_files import link_or_copy

if TYPE_CHECKING:
    from trident.store.lance_index import LanceVectorIndex

FORMAT = 3  # 3: segments (2: one matrix, read as one segment)
LEGACY_FORMAT = 2
MAX_SEGMENTS = 8
COMPACT_SHARE = 0.25  # later segments may hold up to this share of the first one's rows before a compaction
ARRAYS = ("matrix", "ids", "docs", "projects")
INT8_ARRAYS = ("int8", "int8_steps")  # only for a segment `worth_scanning`; one written before them gets them next


@dataclass(frozen=True, eq=False)  # segments are told apart by prefix, never by comparing their arrays
class Segment:
    """One write's chunks: `chunks` in id order, `rows` their chunk rows (None: written without), the documents
    whose older rows they replace, and the chunk matrix as int8 (None: not written yet)."""

    prefix: str
    chunks: ChunkMatrix
    rows: pa.Table | None
    replaces: frozenset[str]
    int8: Int8Rows | None = None

    def live(self, replaced_later: frozenset[str]) -> np.ndarray:
        """Which of its rows no later segment replaces."""
        assert self.chunks.docs is not None
        if not replaced_later or not len(self.chunks.ids):
            return np.ones(len(self.chunks.ids), dtype=bool)
        return ~np.isin(self.chunks.docs, np.array(sorted(replaced_later), dtype=str))


@dataclass(frozen=True)
class ChunkFiles:
    """The segments of one generation's chunk files, oldest first."""

    segments: tuple[Segment, ...]

    @cached_property
    def live(self) -> tuple[np.ndarray, ...]:
        """Per segment, which of its rows are live (no later segment replaces their document)."""
        masks: list[np.ndarray] = []
        later: frozenset[str] = frozenset()
        for segment in reversed(self.segments):
            masks.append(segment.live(later))
            later |= segment.replaces
        return tuple(reversed(masks))

    @property
    def has_rows(self) -> bool:
        return all(segment.rows is not None for segment in self.segments)

    def merged(self) -> ChunkMatrix:
        """Every live row in one matrix, in id order (a copy: for checks and compaction, not for queries)."""
        return ChunkMatrix.concatenated([segment.chunks for segment in self.segments], self.live)

    def chunk_rows(self) -> ChunkRows | None:
        """The chunk rows to read hits from; None when a segment was written without its rows."""
        tables = [segment.rows for segment in self.segments if segment.rows is not None]
        return ChunkRows(tables, self.live) if len(tables) == len(self.segments) else None


def read_chunk_files(folder: Path, tenant: str) -> ChunkFiles | None:
    """The chunk files of the generation `folder` for `tenant`, memory-mapped; None when it has none (published
    before they existed, or for another tenant) or they do not hold together."""
    where = folder / CHUNK_MATRIX_DIR
    try:
        meta = json.loads((where / "meta.json").read_text(encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError):  # none, or damaged: served from the stores instead
        return None
    if not isinstance(meta, dict) or meta.get("tenant") != tenant:
        return None
    entries: list[object]
    if meta.get("format") == LEGACY_FORMAT:
        entries = [{"prefix": "", "rows": meta.get("rows"), "projects": meta.get("projects"), "replaces": []}]
    elif meta.get("format") == FORMAT and isinstance(meta.get("segments"), list):
        entries = meta["segments"]
    else:
        return None
    segments = [_read_segment(where, entry, tenant) if isinstance(entry, dict) else None for entry in entries]
    if not segments or any(segment is None for segment in segments):
        return None
    return ChunkFiles(tuple(s for s in segments if s is not None))


def _read_segment(where: Path, entry: dict[str, object], tenant: str) -> Segment | None:
    """One segment as `meta.json` lists it; None when the entry or its files do not hold together."""
    prefix, rows, projects, replaces = (entry.get(k) for k in ("prefix", "rows", "projects", "replaces"))
    if not (isinstance(prefix, str) and isinstance(rows, int) and isinstance(projects, list)):
        return None
    if not isinstance(replaces, list):
        return None
    try:
        ids = np.load(where / f"{prefix}ids.npy", allow_pickle=False)
        docs = np.load(where / f"{prefix}docs.npy", allow_pickle=False)
        codes = np.load(where / f"{prefix}projects.npy", allow_pickle=False)
        # numpy cannot map an empty file
        matrix = np.load(where / f"{prefix}matrix.npy", mmap_mode="r" if rows else None, allow_pickle=False)
    except FileNotFoundError:
        return None
    if not (len(ids) == len(docs) == len(codes) == len(matrix) == rows):
        return None
    table = read_rows_table(where / f"{prefix}{ROWS_FILE}", tenant)
    if table is not None and table.num_rows != rows:
        return None
    chunks = ChunkMatrix(ids, codes, tuple(projects), matrix, docs)
    return Segment(prefix, chunks, table, frozenset(replaces), read_int8(where, prefix, matrix.shape))


def reusable_files(folder: Path, tenant: str, changed: Collection[str] | None) -> ChunkFiles | None:
    """The chunk files a publish can add the `changed` documents to: those the generation started with (linked from
    the one it was copied from), when the changes are known and every segment has its rows; else None (the publish
    writes every row)."""
    if changed is None:
        return None
    files = read_chunk_files(folder, tenant)
    return files if files is not None and files.has_rows else None


def write_chunk_files(
    folder: Path, vectors: LanceVectorIndex, tenant: str, previous: ChunkFiles | None, rows: pa.Table | None
) -> None:
    """Write the tenant's chunk files into the generation `folder` (replacing any there): with `previous`
    (`reusable_files`), its segments and one more holding the documents `vectors` changed, whose chunk `rows` are
    given (or one segment of every live row, when a compaction is due); without, one segment of every chunk,
    `rows` being every chunk row (or None: no rows)."""
    target = folder / CHUNK_MATRIX_DIR
    draft = folder / f".{CHUNK_MATRIX_DIR}-{os.getpid()}"
    shutil.rmtree(draft, ignore_errors=True)
    draft.mkdir()
    segments = _segments(vectors, tenant, previous, rows)
    linked = {segment.prefix for segment in previous.segments} if previous is not None else set()
    for segment in segments:
        if segment.prefix in linked:
            for name in [f"{segment.prefix}{a}.npy" for a in ARRAYS] + [f"{segment.prefix}{ROWS_FILE}"]:
                link_or_copy(target / name, draft / name)  # a published segment is never written again
            _link_or_write_int8(target, draft, segment)
        else:
            _write_segment(draft, segment)
    meta = {"format": FORMAT, "tenant": tenant, "segments": [_entry(segment) for segment in segments]}
    (draft / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
    crash_point("publish.chunk_matrix")
    if target.exists():
        shutil.rmtree(target)
    os.rename(draft, target)


def _segments(
    vectors: LanceVectorIndex, tenant: str, previous: ChunkFiles | None, rows: pa.Table | None
) -> list[Segment]:
    changed = vectors.changed_documents
    if previous is None or changed is None:
        ids, docs, projects, matrix = vectors.matrix_with_documents(tenant)
        whole = ChunkMatrix.from_rows(ids, projects, matrix, docs)
        return [Segment("s0.", whole, sorted_rows(rows, tenant) if rows is not None else None, frozenset())]
    assert rows is not None, "an incremental write needs the changed documents' rows"
    ids, docs, projects, matrix = vectors.document_rows(tenant, sorted(changed))
    fresh = Segment(
        _next_prefix(previous),
        ChunkMatrix.from_rows(ids, projects, matrix, docs),
        sorted_rows(rows, tenant),
        frozenset(changed),
    )
    if _compaction_due(previous, fresh):
        return [_compacted(previous, fresh, tenant)]
    return [*previous.segments, fresh]


def _next_prefix(previous: ChunkFiles) -> str:
    numbers = [int(s.prefix[1:-1]) for s in previous.segments if s.prefix.startswith("s") and s.prefix[1:-1].isdigit()]
    return f"s{max(numbers, default=0) + 1}."


def _compaction_due(previous: ChunkFiles, fresh: Segment) -> bool:
    base = len(previous.segments[0].chunks.ids)
    later = sum(len(s.chunks.ids) for s in previous.segments[1:]) + len(fresh.chunks.ids)
    return len(previous.segments) + 1 > MAX_SEGMENTS or later > COMPACT_SHARE * base


def _compacted(previous: ChunkFiles, fresh: Segment, tenant: str) -> Segment:
    """One segment of every live row: the first segment's matrix with the later segments' live rows merged in (the
    big matrix copied once)."""
    files = ChunkFiles((*previous.segments, fresh))
    base, later = files.segments[0], files.segments[1:]
    replaced = frozenset().union(*(s.replaces for s in later))
    small = ChunkMatrix.concatenated([s.chunks for s in later], files.live[1:])
    live = zip(files.segments, files.live, strict=True)
    tables = [s.rows.filter(pa.array(mask)) for s, mask in live if s.rows is not None]
    assert len(tables) == len(files.segments), "reusable files and the fresh segment all have their rows"
    rows = sorted_rows(pa.concat_tables(tables), tenant)
    return Segment(fresh.prefix, base.chunks.updated(set(replaced), small), rows, frozenset())


def _write_segment(draft: Path, segment: Segment) -> None:
    chunks = segment.chunks
    docs = chunks.docs if chunks.docs is not None else np.array([], dtype=str)
    for name, array in (("matrix", chunks.matrix), ("ids", chunks.ids), ("projects", chunks.projects), ("docs", docs)):
        write_array(draft / f"{segment.prefix}{name}.npy", array)
    write_int8(draft, segment.prefix, scan_rows(chunks.matrix))
    if segment.rows is not None:
        write_rows(draft / f"{segment.prefix}{ROWS_FILE}", segment.rows)


def _link_or_write_int8(target: Path, draft: Path, segment: Segment) -> None:
    """A published segment's int8 rows linked; quantized from its matrix once when it was written without them."""
    if segment.int8 is not None:
        for name in INT8_ARRAYS:
            link_or_copy(target / f"{segment.prefix}{name}.npy", draft / f"{segment.prefix}{name}.npy")
    else:
        write_int8(draft, segment.prefix, scan_rows(segment.chunks.matrix))


def _entry(segment: Segment) -> dict[str, object]:
    return {
        "prefix": segment.prefix,
        "rows": len(segment.chunks.ids),
        "projects": list(segment.chunks.project_names),
        "replaces": sorted(segment.replaces),
    }
