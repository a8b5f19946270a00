"""Dense search from memory (`ChunkVectors`) answers as the vector store does: the same chunks in the same order,
project filters and ties included."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from tests.conftest import EXAMPLES
from tests.test_chunk_rows import assert_rows_are_the_graphs
from trident.ingest.pipeline import index_folder
from trident.retrieval.chunk_vectors import ChunkVectors
from trident.store.catalog import Catalog
from trident.store.chunk_matrix import CHUNK_MATRIX_DIR, ChunkMatrix, read_chunk_matrix
from trident.store.kuzu_graph import KuzuGraphStore
from trident.store.protocols import Embedder, SearchFilter

QUERIES = ["verify a token", "charge a card", "rotate the signing key", "order checkout total", "refund"]


@pytest.mark.parametrize("projects", [None, ("billing",), ("auth", "storefront"), ("no-such-project",)])
def test_the_matrix_ranks_as_the_vector_store_does(sample_catalog: Catalog, projects: tuple[str, ...] | None) -> None:
    assert sample_catalog.embedder is not None
    chunks = ChunkVectors.load(sample_catalog)
    assert len(chunks) == sample_catalog.vectors.count("default")
    where = SearchFilter("default", projects)
    for query in QUERIES:
        vector = sample_catalog.embedder.embed_query(query)
        stored = sample_catalog.vectors.search(vector, 20, where)
        found = chunks.search(vector, 20, where)
        assert [hit.id for hit in found] == [hit.id for hit in stored], query
        assert np.allclose([hit.score for hit in found], [hit.score for hit in stored], atol=1e-5)


def test_equal_scores_rank_by_id_and_the_cut_keeps_the_ties_in_order() -> None:
    ids = ["d", "b", "a", "c", "e"]
    matrix = np.array([[1, 0], [0, 1], [1, 0], [1, 0], [0.6, 0.8]], dtype=np.float32)
    chunks = ChunkVectors.from_rows(ids, ["p"] * 5, matrix)
    found = chunks.search(np.array([1.0, 0.0]), 2, SearchFilter("t"))
    assert [hit.id for hit in found] == ["a", "c"]  # a, c and d tie at 1.0: the first two by id
    assert [hit.id for hit in chunks.search(np.array([1.0, 0.0]), 5, SearchFilter("t"))] == ["a", "c", "d", "e", "b"]


def test_no_projects_or_no_chunks_find_nothing() -> None:
    chunks = ChunkVectors.from_rows(["a"], ["p"], np.array([[1.0, 0.0]], dtype=np.float32))
    assert chunks.search(np.array([1.0, 0.0]), 5, SearchFilter("t", ())) == []
    assert chunks.search(np.array([1.0, 0.0]), 0, SearchFilter("t")) == []
    empty = ChunkVectors.from_rows([], [], np.zeros((0, 2), dtype=np.float32))
    assert empty.search(np.array([1.0, 0.0]), 5, SearchFilter("t")) == []


def test_a_published_generation_carries_its_chunk_matrix_and_readers_map_it(sample_catalog: Catalog) -> None:
    written = read_chunk_matrix(sample_catalog.generation_folder, "default")
    assert written is not None, "the publish wrote the chunk vectors beside the generation"
    assert isinstance(written.matrix, np.memmap)
    built = ChunkMatrix.from_rows(*sample_catalog.vectors.matrix("default"))
    assert list(written.ids) == list(built.ids)
    assert written.project_names == built.project_names
    assert np.array_equal(written.projects, built.projects)
    assert np.array_equal(np.asarray(written.matrix), built.matrix)
    assert read_chunk_matrix(sample_catalog.generation_folder, "another-tenant") is None


def test_a_generation_published_without_the_file_is_served_from_the_vector_store(
    sample_catalog: Catalog, tmp_path: Path
) -> None:
    assert sample_catalog.embedder is not None
    mapped = ChunkVectors.load(sample_catalog)
    shutil.copytree(sample_catalog.index_dir, tmp_path / "index", ignore=shutil.ignore_patterns("write.lock"))
    copy = Catalog.open_reader(tmp_path / "index", "default", sample_catalog.embedder)
    shutil.rmtree(copy.generation_folder / CHUNK_MATRIX_DIR)
    try:
        rebuilt = ChunkVectors.load(copy)
        vector = sample_catalog.embedder.embed_query(QUERIES[0])
        assert rebuilt.search(vector, 20, SearchFilter("default")) == mapped.search(vector, 20, SearchFilter("default"))
    finally:
        copy.close()


def test_the_chunk_matrix_of_each_write_replaces_the_last_and_goes_with_its_generation(
    tmp_path: Path, embedder: Embedder
) -> None:
    catalog = Catalog(tmp_path / "index", "default", embedder)
    try:
        with catalog.writer() as writer:
            index_folder(writer, EXAMPLES / "auth", "auth", max_file_bytes=1_000_000)
        first = catalog.generation_folder
        with catalog.writer() as writer:
            index_folder(writer, EXAMPLES / "billing", "billing", max_file_bytes=1_000_000)
        written = read_chunk_matrix(catalog.generation_folder, "default")
        assert written is not None and written.project_names == ("auth", "billing")
        assert len(written.ids) == catalog.vectors.count("default")
        assert not first.exists(), "the old generation, its chunk matrix with it, was removed"
        assert not list(catalog.generation_folder.glob(f".{CHUNK_MATRIX_DIR}-*")), "no draft is left behind"
    finally:
        catalog.close()


def test_a_publish_rewrites_only_the_changed_documents_rows_and_equals_a_full_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After an edit, an addition and a removal, each publish's files (the last one's rows, the changed documents'
    rows read again) hold exactly what reading every row gives; only the first publish reads every row."""
    from tests.conftest import HashEmbedder
    from trident.store.lance_index import LanceVectorIndex

    full_reads: list[str] = []
    read_all = LanceVectorIndex.matrix_with_documents

    def counted(self: LanceVectorIndex, tenant: str) -> tuple[list[str], list[str], list[str], np.ndarray]:
        full_reads.append(tenant)
        return read_all(self, tenant)

    monkeypatch.setattr(LanceVectorIndex, "matrix_with_documents", counted)
    full_row_reads: list[str] = []
    read_rows = KuzuGraphStore.chunk_table

    def counted_rows(self: KuzuGraphStore, tenant: str, doc_ids: list[str] | None = None) -> pa.Table:
        if doc_ids is None:
            full_row_reads.append(tenant)
        return read_rows(self, tenant, doc_ids)

    monkeypatch.setattr(KuzuGraphStore, "chunk_table", counted_rows)
    project = tmp_path / "billing"
    shutil.copytree(EXAMPLES / "billing", project)
    catalog = Catalog(tmp_path / "index", "default", HashEmbedder())  # plumbing: which rows, not their meaning
    try:
        edits = [
            lambda: None,
            lambda: (project / "billing" / "gateway.py").write_text("def charge_again():\n    return 2\n"),
            lambda: (project / "billing" / "extra.py").write_text("def brand_new():\n    return 3\n"),
            lambda: (project / "billing" / "payments.py").unlink(),
        ]
        for edit in edits:
            edit()
            with catalog.writer() as writer:
                index_folder(writer, project, "billing", max_file_bytes=1_000_000)
            written = read_chunk_matrix(catalog.generation_folder, "default")
            ids, docs, projects, matrix = catalog.vectors.matrix_with_documents("default")
            expected = ChunkMatrix.from_rows(ids, projects, matrix, docs)
            assert written is not None and written.docs is not None and expected.docs is not None
            assert written.ids.tolist() == expected.ids.tolist() and written.docs.tolist() == expected.docs.tolist()
            assert [written.project_names[c] for c in written.projects] == ["billing"] * len(expected.ids)
            assert np.array_equal(np.asarray(written.matrix), expected.matrix)
            assert_rows_are_the_graphs(catalog)  # the chunk rows beside them too
        assert len(full_reads) == 1 + len(edits), "each publish after the first read only the changed documents"
        assert full_row_reads == ["default"], "only the first publish read every chunk row"
    finally:
        catalog.close()
