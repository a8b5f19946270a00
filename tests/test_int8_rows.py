"""Dense search scans int8 rows for candidates, then scores them from the float32 rows: the ranking is the exact
one's, and every publish writes the int8 rows beside the chunk matrix (a segment written before them gets them on
the next publish)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import EXAMPLES, HashEmbedder
from trident.ingest.pipeline import index_folder
from trident.retrieval.chunk_vectors import ChunkVectors
from trident.retrieval.top_rows import candidates
from trident.store.catalog import Catalog
from trident.store.mapped import int8_rows
from trident.store.mapped.chunk_files import ChunkFilesError, read_chunk_files
from trident.store.mapped.chunk_matrix import CHUNK_MATRIX_DIR, ChunkMatrix
from trident.store.mapped.int8_rows import Int8Rows, quantize
from trident.store.protocols import SearchFilter


def _unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=-1, keepdims=True)).astype(np.float32)


def test_int8_scores_stay_within_their_rounding_bound() -> None:
    """Each approximate score is the exact dot product within what rounding each component to half a step allows;
    a zero row scores 0."""
    rng = np.random.default_rng(3)
    matrix = _unit(rng.standard_normal((500, 384)))
    matrix[7] = 0
    rows = quantize(matrix)
    assert rows.codes.dtype == np.int8 and rows.codes.shape == matrix.shape and len(rows) == 500
    for query in _unit(rng.standard_normal((20, 384))):
        exact = matrix @ query
        approximate = rows.scores(query)
        query_step = np.abs(query).max() / 127
        bound = (np.abs(query).sum() * rows.steps + np.abs(matrix).sum(axis=1) * query_step) / 2
        bound += matrix.shape[1] * rows.steps * query_step / 4
        assert np.all(np.abs(approximate - exact) <= bound + 1e-6)
        assert approximate[7] == 0
        assert np.array_equal(rows.scores(query), approximate)  # the same on every call


class _CountedRows(Int8Rows):
    scans = 0

    def scores(self, query: np.ndarray) -> np.ndarray:
        _CountedRows.scans += 1
        return super().scores(query)


def _clustered(rng: np.random.Generator, rows: int, dim: int) -> tuple[list[str], list[str], np.ndarray]:
    """Rows around a few centres (many near ties, as chunks of one topic are), some exact duplicates."""
    centres = rng.standard_normal((12, dim))
    matrix = _unit(centres[rng.integers(0, 12, rows)] + 0.35 * rng.standard_normal((rows, dim)))
    matrix[rows // 2 : rows // 2 + 40] = matrix[:40]  # equal scores: ranked by id
    ids = [f"c{i:05d}" for i in rng.permutation(rows)]
    return ids, [f"p{i}" for i in rng.integers(0, 3, rows)], matrix


@pytest.fixture
def small_matrices_scanned(monkeypatch: pytest.MonkeyPatch) -> None:
    """Matrices of a few thousand rows scanned as int8 too (below SCAN_MIN_ROWS the float32 product is as fast)."""
    monkeypatch.setattr(int8_rows, "SCAN_MIN_ROWS", 0)


@pytest.mark.parametrize("limit", [1, 10, 50, 120])
def test_a_scan_of_int8_rows_ranks_as_the_float_rows_do(limit: int, small_matrices_scanned: None) -> None:
    """The chunks found, their order (ties by id) and their scores are those of the float32 product over every row,
    with project filters and rows a later segment replaced."""
    rng = np.random.default_rng(limit)
    ids, projects, matrix = _clustered(rng, 6000, 64)
    chunks = ChunkMatrix.from_rows(ids, projects, matrix)
    live = rng.random(len(ids)) > 0.1
    exact = ChunkVectors([chunks], [live])
    int8 = quantize(chunks.matrix)
    scanned = ChunkVectors([chunks], [live], [_CountedRows(int8.codes, int8.steps)])
    before = _CountedRows.scans
    queries = _unit(matrix[rng.integers(0, 6000, 30)] + 0.3 * rng.standard_normal((30, 64)))
    for where in [SearchFilter("t"), SearchFilter("t", ("p1",)), SearchFilter("t", ("p0", "p2"))]:
        for query in queries:
            want, got = exact.search(query, limit, where), scanned.search(query, limit, where)
            assert [hit.id for hit in got] == [hit.id for hit in want]
            assert np.allclose([h.score for h in got], [h.score for h in want], rtol=0, atol=1e-6)
    assert _CountedRows.scans - before == 90, "every search scanned the int8 rows first"
    assert candidates(limit) < 6000


def test_a_matrix_below_the_int8_threshold_is_scored_whole() -> None:
    """Below SCAN_MIN_ROWS rows the float32 product answers, int8 rows or not."""
    rng = np.random.default_rng(2)
    ids, projects, matrix = _clustered(rng, 3000, 32)
    chunks = ChunkMatrix.from_rows(ids, projects, matrix)
    int8 = quantize(chunks.matrix)
    scanned = ChunkVectors([chunks], None, [_CountedRows(int8.codes, int8.steps)])
    before = _CountedRows.scans
    assert len(scanned.search(matrix[0], 10, SearchFilter("t"))) == 10
    assert _CountedRows.scans == before and int8_rows.SCAN_MIN_ROWS > 3000


def _int8_files(folder: Path) -> dict[str, int]:
    return {p.name: p.stat().st_ino for p in sorted((folder / CHUNK_MATRIX_DIR).glob("*int8*.npy"))}


def test_every_publish_writes_int8_rows_links_them_and_a_missing_one_is_written_again(
    tmp_path: Path, small_matrices_scanned: None
) -> None:
    """Each segment's int8 rows are its matrix quantized, and a later publish links them; a segment whose int8 rows
    are missing is an error naming the file, and the next publish writes every row again, int8 rows included."""
    project = tmp_path / "billing"
    shutil.copytree(EXAMPLES / "billing", project)
    catalog = Catalog(tmp_path / "index", "default", HashEmbedder())  # plumbing: which files, not their meaning
    try:
        with catalog.writer() as writer:
            index_folder(writer, project, "billing", max_file_bytes=1_000_000)
        (project / "billing" / "gateway.py").write_text("def charge_again():\n    return 2\n")
        with catalog.writer() as writer:
            index_folder(writer, project, "billing", max_file_bytes=1_000_000)
        files = read_chunk_files(catalog.generation_folder, "default")
        assert [s.prefix for s in files.segments] == ["s0.", "s1."]
        for segment in files.segments:
            assert segment.int8 is not None and isinstance(segment.int8.codes, np.memmap)
            assert np.array_equal(segment.int8.codes, quantize(np.asarray(segment.chunks.matrix)).codes)
            assert np.array_equal(segment.int8.steps, quantize(np.asarray(segment.chunks.matrix)).steps)
        kept = _int8_files(catalog.generation_folder)["s1.int8.npy"]
        (project / "billing" / "extra.py").write_text("def brand_new():\n    return 3\n")
        with catalog.writer() as writer:
            index_folder(writer, project, "billing", max_file_bytes=1_000_000)
        assert [s.prefix for s in read_chunk_files(catalog.generation_folder, "default").segments] == [
            "s0.",
            "s1.",
            "s2.",
        ]
        assert _int8_files(catalog.generation_folder)["s1.int8.npy"] == kept, "a segment's int8 rows are linked"
        (catalog.generation_folder / CHUNK_MATRIX_DIR / "s0.int8.npy").unlink()
        with pytest.raises(ChunkFilesError, match=r"s0\.int8\.npy: missing.*trident repair"):
            read_chunk_files(catalog.generation_folder, "default")
        (project / "billing" / "extra.py").write_text("def brand_new():\n    return 4\n")
        with catalog.writer() as writer:
            index_folder(writer, project, "billing", max_file_bytes=1_000_000)
        (whole,) = read_chunk_files(catalog.generation_folder, "default").segments
        assert whole.int8 is not None
        assert np.array_equal(whole.int8.codes, quantize(np.asarray(whole.chunks.matrix)).codes)
    finally:
        catalog.close()


def _resident_kb(path: Path) -> int:
    """How much of the file's mapping into this process is resident (Linux's /proc/self/smaps)."""
    resident, mapping = 0, ""
    for line in Path("/proc/self/smaps").read_text().splitlines():
        if "-" in line.split(" ", 1)[0] and not line.startswith(("Rss", "Pss")):
            mapping = line.split()[-1]
        elif line.startswith("Rss:") and mapping == str(path):
            resident += int(line.split()[1])
    return resident


def test_candidates_are_read_from_the_matrix_file_not_through_its_mapping(
    tmp_path: Path, small_matrices_scanned: None
) -> None:
    """Over a memory-mapped chunk matrix, searches and row reads answer as over the same rows in memory, and leave
    no page of the mapped float32 file resident (the kernel would fault in 64 KB around each row read through it)."""
    rng = np.random.default_rng(5)
    ids, projects, matrix = _clustered(rng, 6000, 64)
    chunks = ChunkMatrix.from_rows(ids, projects, matrix)
    np.save(tmp_path / "matrix.npy", chunks.matrix)
    mapped = np.load(tmp_path / "matrix.npy", mmap_mode="r")
    on_file = ChunkMatrix(chunks.ids, chunks.projects, chunks.project_names, mapped, chunks.docs)
    int8 = quantize(chunks.matrix)
    np.save(tmp_path / "int8.npy", int8.codes)  # the int8 rows scanned from their mapped file, as published
    mapped_int8 = Int8Rows(np.load(tmp_path / "int8.npy", mmap_mode="r"), int8.steps)
    in_memory = ChunkVectors([chunks], None, [int8])
    from_file = ChunkVectors([on_file], None, [mapped_int8])
    for query in _unit(rng.standard_normal((20, 64))):
        assert from_file.search(query, 10, SearchFilter("t")) == in_memory.search(query, 10, SearchFilter("t"))
    wanted = [ids[7], ids[4000], ids[5], "no-such-chunk"]
    held = from_file.rows(wanted)
    assert list(held) == sorted(wanted[:3])
    for chunk_id, vector in in_memory.rows(wanted).items():
        assert np.array_equal(held[chunk_id], vector)
    assert from_file.rows([]) == {}
    assert _resident_kb(tmp_path / "matrix.npy") == 0
    assert np.asarray(mapped[3]).sum() != 0 and _resident_kb(tmp_path / "matrix.npy") > 0  # the check can see one


def test_a_segment_too_small_to_scan_gets_no_int8_rows(tmp_path: Path) -> None:
    """Below SCAN_MIN_ROWS a publish writes no int8 rows (a search would not read them) and the segment is read
    without them."""
    catalog = Catalog(tmp_path / "index", "default", HashEmbedder())
    try:
        with catalog.writer() as writer:
            index_folder(writer, EXAMPLES / "billing", "billing", max_file_bytes=1_000_000)
        files = read_chunk_files(catalog.generation_folder, "default")
        assert all(segment.int8 is None for segment in files.segments)
        assert _int8_files(catalog.generation_folder) == {}
    finally:
        catalog.close()
