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
reader never finds half of it. `meta.json` also names the generation and, per segment, its rows and a checksum of its
ids: a reader checks them and raises `ChunkFilesError` (naming the file and `trident repair`) when the files do not hold
together, never serving something else in their place.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

from trident.store.crashpoints import crash_point
from trident.store.errors import TridentIndexError
from trident.store.mapped.chunk_matrix import CHUNK_MATRIX_DIR, ChunkMatrix
from trident.store.mapped.chunk_rows import ROWS_FILE, ROWS_SCHEMA, ChunkRows, read_rows_table, sorted_rows, write_rows
from trident.store.mapped.file_rows import write_array
from trident.store.mapped.int8_rows import Int8Rows, read_int8, scan_rows, worth_scanning, write_int8
from trident.store.remote.remote_files import link_or_copy

if TYPE_CHECKING:
    from trident.store.protocols import VectorIndex

log = logging.getLogger(__name__)

FORMAT = 4  # 4: segments with their ids' checksums, the generation named (3 and 2 are rewritten by `trident repair`)
MAX_SEGMENTS = 8
COMPACT_SHARE = 0.25  # later segments may hold up to this share of the first one's rows before a compaction
ARRAYS = ("matrix", "ids", "docs", "projects")
INT8_ARRAYS = ("int8", "int8_steps")  # only for a segment `worth_scanning`


@dataclass(frozen=True, eq=False)  # segments are told apart by prefix, never by comparing their arrays
class Segment:
    """One write's chunks: `chunks` in id order, `rows` their chunk rows, the documents whose older rows they
    replace, and the chunk matrix as int8 (None: too few rows to be worth scanning)."""

    prefix: str
    chunks: ChunkMatrix
    rows: pa.Table
    replaces: frozenset[str]
    int8: Int8Rows | None = None

    def live(self, replaced_later: frozenset[str]) -> np.ndarray:
        """Which of its matrix rows no later segment replaces."""
        assert self.chunks.docs is not None
        return _not_replaced(self.chunks.docs, replaced_later)

    def rows_live(self, replaced_later: frozenset[str]) -> np.ndarray:
        """Which of its chunk rows no later segment replaces (they are more than the matrix rows while chunks wait
        for their vectors: a publish before the embedding)."""
        return _not_replaced(np.asarray(self.rows.column("doc_id").to_numpy(zero_copy_only=False)), replaced_later)


def _not_replaced(docs: np.ndarray, replaced: frozenset[str]) -> np.ndarray:
    if not replaced or not len(docs):
        return np.ones(len(docs), dtype=bool)
    return ~np.isin(docs.astype(str), np.array(sorted(replaced), dtype=str))


@dataclass(frozen=True)
class ChunkFiles:
    """The segments of one generation's chunk files, oldest first."""

    segments: tuple[Segment, ...]
    generation: int  # the generation whose publish wrote them

    @cached_property
    def live(self) -> tuple[np.ndarray, ...]:
        """Per segment, which of its matrix rows are live (no later segment replaces their document)."""
        return self._masks(Segment.live)

    @cached_property
    def rows_live(self) -> tuple[np.ndarray, ...]:
        """Per segment, which of its chunk rows are live."""
        return self._masks(Segment.rows_live)

    def _masks(self, of: Callable[[Segment, frozenset[str]], np.ndarray]) -> tuple[np.ndarray, ...]:
        masks: list[np.ndarray] = []
        later: frozenset[str] = frozenset()
        for segment in reversed(self.segments):
            masks.append(of(segment, later))
            later |= segment.replaces
        return tuple(reversed(masks))

    def merged(self) -> ChunkMatrix:
        """Every live row in one matrix, in id order (a copy: for checks and compaction, not for queries)."""
        return ChunkMatrix.concatenated([segment.chunks for segment in self.segments], self.live)

    def chunk_rows(self) -> ChunkRows:
        """The chunk rows to read hits from."""
        return ChunkRows([segment.rows for segment in self.segments], self.rows_live)


class ChunkFilesError(TridentIndexError):
    """A generation's chunk files are missing, of another format, tenant or generation, or do not hold together."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(
            f"{path}: {problem}. Search reads its vectors and hits from the index's chunk files and answers nothing "
            f"in their place; run `trident repair` (with the same TRIDENT_HOME) to write them again from the index's "
            f"stores, then ask again"
        )
        self.path = path


def read_chunk_files(folder: Path, tenant: str, generation: int | None = None) -> ChunkFiles:
    """The chunk files of the generation `folder` for `tenant`, memory-mapped, checked against what `meta.json`
    says of them (format, tenant, the `generation` when given, each segment's rows and ids' checksum).

    Raises:
        ChunkFilesError: they are missing, of another format, tenant or generation, or do not hold together.
    """
    where = folder / CHUNK_MATRIX_DIR
    meta = _meta(where / "meta.json")
    if meta.get("tenant") != tenant:
        raise ChunkFilesError(where / "meta.json", f"written for tenant {meta.get('tenant')!r}, not {tenant!r}")
    written = meta.get("generation")
    if not isinstance(written, int):
        raise ChunkFilesError(where / "meta.json", "it names no generation")
    if generation is not None and written != generation:
        problem = f"written for generation {written}; the manifest names generation {generation}"
        raise ChunkFilesError(where / "meta.json", problem)
    entries = meta.get("segments")
    if not isinstance(entries, list) or not entries or not all(isinstance(e, dict) for e in entries):
        raise ChunkFilesError(where / "meta.json", "its segment list is missing or malformed")
    return ChunkFiles(tuple(_read_segment(where, entry, tenant) for entry in entries), written)


def _meta(path: Path) -> dict[str, object]:
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ChunkFilesError(path, "missing") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ChunkFilesError(path, f"not readable JSON ({exc})") from None
    if not isinstance(meta, dict):
        raise ChunkFilesError(path, "not a JSON object")
    if meta.get("format") != FORMAT:
        raise ChunkFilesError(path, f"of format {meta.get('format')!r}; this Trident reads format {FORMAT}")
    return meta


def _read_segment(where: Path, entry: dict[str, object], tenant: str) -> Segment:
    """One segment as `meta.json` lists it, each of its files checked against the entry."""
    prefix, rows, projects, replaces, checksum = (
        entry.get(k) for k in ("prefix", "rows", "projects", "replaces", "ids_sha256")
    )
    if not (isinstance(prefix, str) and isinstance(rows, int) and isinstance(checksum, str)):
        raise ChunkFilesError(where / "meta.json", f"a segment entry is malformed: {entry!r}"[:300])
    if not (isinstance(projects, list) and isinstance(replaces, list)):
        raise ChunkFilesError(where / "meta.json", f"segment {prefix!r} lists no projects or replaced documents")
    ids, docs, codes = (_array(where / f"{prefix}{name}.npy", rows) for name in ("ids", "docs", "projects"))
    matrix = _array(where / f"{prefix}matrix.npy", rows, mapped=bool(rows))  # numpy cannot map an empty file
    if rows and (matrix.ndim != 2 or matrix.dtype != np.float32):
        raise ChunkFilesError(where / f"{prefix}matrix.npy", f"holds {matrix.dtype} {matrix.shape}, not float32 rows")
    if ids_checksum(ids) != checksum:
        raise ChunkFilesError(where / f"{prefix}ids.npy", "its ids are not those its segment was written with")
    table = read_rows_table(where / f"{prefix}{ROWS_FILE}", tenant)
    if table is None or table.num_rows != entry.get("chunk_rows"):
        found = "missing, or of another tenant or layout" if table is None else f"of {table.num_rows} rows"
        raise ChunkFilesError(
            where / f"{prefix}{ROWS_FILE}", f"{found}; its segment was written with {entry.get('chunk_rows')}"
        )
    int8 = read_int8(where, prefix, matrix.shape)
    if int8 is None and worth_scanning(rows):
        raise ChunkFilesError(where / f"{prefix}int8.npy", "missing, or not the int8 rows of its matrix")
    chunks = ChunkMatrix(ids, codes, tuple(str(p) for p in projects), matrix, docs)
    return Segment(prefix, chunks, table, frozenset(str(r) for r in replaces), int8)


def _array(path: Path, rows: int, *, mapped: bool = False) -> np.ndarray:
    try:
        array: np.ndarray = np.load(path, mmap_mode="r" if mapped else None, allow_pickle=False)
    except FileNotFoundError:
        raise ChunkFilesError(path, "missing") from None
    except (ValueError, OSError, EOFError) as exc:
        raise ChunkFilesError(path, f"not a readable array ({exc})") from None
    if len(array) != rows:
        raise ChunkFilesError(path, f"holds {len(array)} rows; its segment was written with {rows}")
    return array


def ids_checksum(ids: np.ndarray) -> str:
    """What `meta.json` keeps of a segment's ids: a SHA-256 of their array's bytes."""
    return hashlib.sha256(np.ascontiguousarray(ids).tobytes()).hexdigest()


def reusable_files(folder: Path, tenant: str, changed: Collection[str] | None) -> ChunkFiles | None:
    """The chunk files a publish can add the `changed` documents to: those the generation started with (linked from
    the one it was copied from), when the changes are known and they hold rows that hold together; else None (the
    publish writes every row, which is also how `trident repair` mends them)."""
    if changed is None or not (folder / CHUNK_MATRIX_DIR).exists():  # none to add to (`trident repair` removed them)
        return None
    try:
        files = read_chunk_files(folder, tenant)
    except ChunkFilesError as exc:
        log.warning("writing every chunk row again: %s", exc)
        return None
    return files if any(len(segment.chunks.ids) for segment in files.segments) else None


def write_chunk_files(
    folder: Path, vectors: VectorIndex, tenant: str, generation: int, previous: ChunkFiles | None, rows: pa.Table
) -> None:
    """Write the tenant's chunk files of `generation` into its `folder` (replacing any there): with `previous`
    (`reusable_files`), its segments and one more holding the documents `vectors` changed, whose chunk `rows` are
    given (or one segment of every live row, when a compaction is due); without, one segment of every chunk,
    `rows` being every chunk row."""
    segments = _segments(vectors, tenant, previous, rows)
    linked = {segment.prefix for segment in previous.segments} if previous is not None else set()
    _write_files(folder, tenant, generation, segments, linked)


def write_empty_chunk_files(folder: Path, tenant: str, generation: int) -> None:
    """The chunk files of a generation that holds no chunk (an index's first)."""
    empty = ChunkMatrix.from_rows([], [], np.zeros((0, 0), np.float32), [])
    _write_files(
        folder,
        tenant,
        generation,
        [Segment("s0.", empty, sorted_rows(ROWS_SCHEMA.empty_table(), tenant), frozenset())],
        set(),
    )


def _write_files(folder: Path, tenant: str, generation: int, segments: list[Segment], linked: set[str]) -> None:
    """Write `segments` (those of prefixes `linked` linked from the folder's files) under a draft name, then rename
    it into place."""
    target = folder / CHUNK_MATRIX_DIR
    draft = folder / f".{CHUNK_MATRIX_DIR}-{os.getpid()}"
    shutil.rmtree(draft, ignore_errors=True)
    draft.mkdir()
    for segment in segments:
        if segment.prefix in linked:
            for name in [f"{segment.prefix}{a}.npy" for a in ARRAYS] + [f"{segment.prefix}{ROWS_FILE}"]:
                link_or_copy(target / name, draft / name)  # a published segment is never written again
            _link_int8(target, draft, segment)
        else:
            _write_segment(draft, segment)
    entries = [_entry(segment) for segment in segments]
    meta = {"format": FORMAT, "tenant": tenant, "generation": generation, "segments": entries}
    (draft / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
    crash_point("publish.chunk_matrix")
    if target.exists():
        shutil.rmtree(target)
    os.rename(draft, target)


def _segments(vectors: VectorIndex, tenant: str, previous: ChunkFiles | None, rows: pa.Table) -> list[Segment]:
    changed = vectors.changed_documents
    if previous is None or changed is None:
        ids, docs, projects, matrix = vectors.matrix_with_documents(tenant)
        whole = ChunkMatrix.from_rows(ids, projects, matrix, docs)
        return [Segment("s0.", whole, sorted_rows(rows, tenant), frozenset())]
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
    files = ChunkFiles((*previous.segments, fresh), previous.generation)
    base, later = files.segments[0], files.segments[1:]
    replaced = frozenset().union(*(s.replaces for s in later))
    small = ChunkMatrix.concatenated([s.chunks for s in later], files.live[1:])
    live = zip(files.segments, files.rows_live, strict=True)
    tables = [s.rows.filter(pa.array(mask)) for s, mask in live]
    rows = sorted_rows(pa.concat_tables(tables), tenant)
    return Segment(fresh.prefix, base.chunks.updated(set(replaced), small), rows, frozenset())


def _write_segment(draft: Path, segment: Segment) -> None:
    chunks = segment.chunks
    docs = chunks.docs if chunks.docs is not None else np.array([], dtype=str)
    for name, array in (("matrix", chunks.matrix), ("ids", chunks.ids), ("projects", chunks.projects), ("docs", docs)):
        write_array(draft / f"{segment.prefix}{name}.npy", array)
    write_int8(draft, segment.prefix, scan_rows(chunks.matrix))
    write_rows(draft / f"{segment.prefix}{ROWS_FILE}", segment.rows)


def _link_int8(target: Path, draft: Path, segment: Segment) -> None:
    """A published segment's int8 rows linked (it has none when it is too small to be worth scanning)."""
    if segment.int8 is not None:
        for name in INT8_ARRAYS:
            link_or_copy(target / f"{segment.prefix}{name}.npy", draft / f"{segment.prefix}{name}.npy")


def _entry(segment: Segment) -> dict[str, object]:
    return {
        "prefix": segment.prefix,
        "rows": len(segment.chunks.ids),
        "projects": list(segment.chunks.project_names),
        "replaces": sorted(segment.replaces),
        "ids_sha256": ids_checksum(segment.chunks.ids),
        "chunk_rows": segment.rows.num_rows,
    }
