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
from trident.store.engines.kuzu_graph import KuzuGraphStore
from trident.store.mapped import chunk_files
from trident.store.mapped.chunk_files import ChunkFilesError, read_chunk_files
from trident.store.mapped.chunk_matrix import CHUNK_MATRIX_DIR, ChunkMatrix
from trident.store.protocols import Embedder, SearchFilter


def _loaded(catalog: Catalog) -> ChunkVectors:
    return ChunkVectors.load(read_chunk_files(catalog.generation_folder, catalog.tenant))


QUERIES = ["verify a token", "charge a card", "rotate the signing key", "order checkout total", "refund"]


@pytest.mark.parametrize("projects", [None, ("billing",), ("auth", "storefront"), ("no-such-project",)])
def test_the_matrix_ranks_as_the_vector_store_does(sample_catalog: Catalog, projects: tuple[str, ...] | None) -> None:
    assert sample_catalog.embedder is not None
    chunks = _loaded(sample_catalog)
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
    files = read_chunk_files(sample_catalog.generation_folder, "default")
    assert all(isinstance(segment.chunks.matrix, np.memmap) for segment in files.segments)
    written = files.merged()
    built = ChunkMatrix.from_rows(*sample_catalog.vectors.matrix("default"))
    assert list(written.ids) == list(built.ids)
    assert written.project_names == built.project_names
    assert np.array_equal(written.projects, built.projects)
    assert np.array_equal(np.asarray(written.matrix), built.matrix)
    with pytest.raises(ChunkFilesError, match="written for tenant 'default', not 'another-tenant'"):
        read_chunk_files(sample_catalog.generation_folder, "another-tenant")


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
        files = read_chunk_files(catalog.generation_folder, "default")
        written = files.merged()
        assert written.project_names == ("auth", "billing")
        assert len(written.ids) == catalog.vectors.count("default")
        assert not first.exists(), "the old generation, its chunk matrix with it, was removed"
        assert not list(catalog.generation_folder.glob(f".{CHUNK_MATRIX_DIR}-*")), "no draft is left behind"
    finally:
        catalog.close()


@pytest.mark.parametrize("max_segments", [8, 2])
def test_a_publish_rewrites_only_the_changed_documents_rows_and_equals_a_full_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, max_segments: int
) -> None:
    """After an edit, an addition and a removal, each publish's files (the last one's segments and one of the
    changed documents' rows, or all of them compacted into one) hold exactly what reading every row gives; only the
    first publish reads every row."""
    from tests.conftest import HashEmbedder
    from trident.store.engines.lance_index import LanceVectorIndex

    full_reads: list[str] = []
    read_all = LanceVectorIndex.matrix_with_documents

    def counted(self: LanceVectorIndex, tenant: str) -> tuple[list[str], list[str], list[str], np.ndarray]:
        full_reads.append(tenant)
        return read_all(self, tenant)

    monkeypatch.setattr(LanceVectorIndex, "matrix_with_documents", counted)
    monkeypatch.setattr(chunk_files, "MAX_SEGMENTS", max_segments)
    segments: list[int] = []
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
            files = read_chunk_files(catalog.generation_folder, "default")
            segments.append(len(files.segments))
            written = files.merged()
            ids, docs, projects, matrix = catalog.vectors.matrix_with_documents("default")
            expected = ChunkMatrix.from_rows(ids, projects, matrix, docs)
            assert written.docs is not None and expected.docs is not None
            assert written.ids.tolist() == expected.ids.tolist() and written.docs.tolist() == expected.docs.tolist()
            assert [written.project_names[c] for c in written.projects] == ["billing"] * len(expected.ids)
            assert np.array_equal(np.asarray(written.matrix), expected.matrix)
            assert_rows_are_the_graphs(catalog)  # the chunk rows beside them too
        assert len(full_reads) == 1 + len(edits), "each publish after the first read only the changed documents"
        assert full_row_reads == ["default"], "only the first publish read every chunk row"
        # each edit adds a segment, until there would be more than max_segments: then they are compacted into one
        assert segments == ([1, 2, 3, 4] if max_segments == 8 else [1, 2, 1, 2]), segments
    finally:
        catalog.close()


def test_an_update_gives_the_rows_a_full_rebuild_gives() -> None:
    """`updated` merges the changed documents' rows into a matrix without re-sorting it: the same ids, documents,
    projects and rows, in the same order, as building the matrix again from every row it now holds."""
    rng = np.random.default_rng(15)
    for trial in range(200):
        size = int(rng.choice([0, 1, 4, 40]))
        ids = [f"c{i:03d}" for i in rng.choice(300, size=size, replace=False)]
        docs = [f"d{i}" for i in rng.integers(0, 8, size)]
        projects = [f"p{i}" for i in rng.integers(0, 3, size)]
        base = ChunkMatrix.from_rows(ids, projects, rng.standard_normal((size, 4)).astype(np.float32), docs)
        changed = {f"d{i}" for i in rng.choice(10, size=int(rng.integers(0, 4)), replace=False)}
        new_ids = [f"c{i:03d}" for i in range(300, 320)][: int(rng.integers(0, 6)) if changed else 0]
        new_docs = [sorted(changed)[int(i) % max(len(changed), 1)] for i in rng.integers(0, 8, len(new_ids))]
        new_projects = [f"p{i}" for i in rng.integers(0, 5, len(new_ids))]
        new_rows = rng.standard_normal((len(new_ids), 4)).astype(np.float32)
        fresh = ChunkMatrix.from_rows(new_ids, new_projects, new_rows, new_docs)
        updated = base.updated(changed, fresh)
        assert base.docs is not None and fresh.docs is not None
        kept = [i for i, doc in enumerate(base.docs.tolist()) if doc not in changed]
        rebuilt = ChunkMatrix.from_rows(
            [*base.ids[kept].tolist(), *fresh.ids.tolist()],
            [*(base.project_names[c] for c in base.projects[kept]), *(fresh.project_names[c] for c in fresh.projects)],
            np.concatenate([np.asarray(base.matrix[kept]).reshape(len(kept), 4), fresh.matrix.reshape(-1, 4)]),
            [*base.docs[kept].tolist(), *fresh.docs.tolist()],
        )
        assert updated.ids.tolist() == rebuilt.ids.tolist(), trial
        assert updated.docs is not None and rebuilt.docs is not None
        assert updated.docs.tolist() == rebuilt.docs.tolist(), trial
        assert updated.project_names == rebuilt.project_names, trial
        assert updated.projects.tolist() == rebuilt.projects.tolist(), trial
        # the rebuild scales the (already unit) rows again, which may move a last bit
        assert np.allclose(updated.matrix.reshape(-1, 4), rebuilt.matrix.reshape(-1, 4), rtol=0, atol=1e-6), trial


def _auth_and_billing(tmp_path: Path, embedder: Embedder) -> tuple[dict[str, Path], Catalog]:
    """Copies of the auth and billing examples, each indexed by a writer block of its own."""
    projects = {"auth": tmp_path / "auth", "billing": tmp_path / "billing"}
    catalog = Catalog(tmp_path / "index", "default", embedder)
    for name, folder in projects.items():
        shutil.copytree(EXAMPLES / name, folder)
        with catalog.writer() as writer:
            index_folder(writer, folder, name, max_file_bytes=1_000_000)
    return projects, catalog


def test_dense_search_over_segments_ranks_as_the_vector_store_does(tmp_path: Path, embedder: Embedder) -> None:
    """After edits that leave the chunk files in several segments (a changed file's rows replaced, a file removed),
    the chunks found and their order are the vector store's, project filters included; no replaced row is found."""
    projects, catalog = _auth_and_billing(tmp_path, embedder)
    try:
        (projects["billing"] / "billing" / "gateway.py").write_text("def charge_a_card_again():\n    return 2\n")
        (projects["billing"] / "billing" / "payments.py").unlink()
        with catalog.writer() as writer:
            index_folder(writer, projects["billing"], "billing", max_file_bytes=1_000_000)
        files = read_chunk_files(catalog.generation_folder, "default")
        assert len(files.segments) > 1 and not all(mask.all() for mask in files.live)
        chunks = _loaded(catalog)
        assert len(chunks) == catalog.vectors.count("default")
        for where in [
            SearchFilter("default"),
            SearchFilter("default", ("billing",)),
            SearchFilter("default", ("auth",)),
        ]:
            for query in QUERIES:
                vector = embedder.embed_query(query)
                stored = catalog.vectors.search(vector, 30, where)
                found = chunks.search(vector, 30, where)
                assert [hit.id for hit in found] == [hit.id for hit in stored], (query, where)
                assert np.allclose([h.score for h in found], [h.score for h in stored], atol=1e-5)
    finally:
        catalog.close()


def test_instruction_files_are_found_from_the_chunk_files_as_from_the_stores(
    tmp_path: Path, embedder: Embedder
) -> None:
    """The local path's instruction files (README, CLAUDE.md, ...) and their vectors, read from the generation's
    chunk files in segments (an edited README's old rows replaced, a CLAUDE.md added), are the graph store's chunks
    and the vector store's vectors, per project filter."""
    from trident.retrieval.views import INSTRUCTION_FILES

    projects, catalog = _auth_and_billing(tmp_path, embedder)
    try:
        (projects["billing"] / "README.md").write_text("# Billing\n\nCharges cards; see the gateway.\n")
        (projects["auth"] / "CLAUDE.md").write_text("# Notes for agents\n\nRun the tests before a change.\n")
        for name, folder in projects.items():
            with catalog.writer() as writer:
                index_folder(writer, folder, name, max_file_bytes=1_000_000)
        files = read_chunk_files(catalog.generation_folder, "default")
        assert len(files.segments) > 1 and not all(mask.all() for mask in files.live)
        rows, chunks = files.chunk_rows(), _loaded(catalog)
        for where in [None, ("billing",), ("auth",), ("auth", "billing"), ("no-such-project",)]:
            expected = catalog.graph.chunks_of_files("default", INSTRUCTION_FILES, where)
            assert rows.of_files(INSTRUCTION_FILES, where) == expected, where
            stored = catalog.vectors.vectors(expected)
            held = chunks.rows(expected)
            assert list(held) == sorted(stored), where
            for chunk_id, vector in held.items():
                assert np.allclose(vector, stored[chunk_id] / np.linalg.norm(stored[chunk_id]), atol=1e-6)
        assert len(rows.of_files(INSTRUCTION_FILES, None)) >= 3  # both READMEs and the two CLAUDE.md files
        assert chunks.rows(["no-such-chunk"]) == {}
    finally:
        catalog.close()
