"""The chunk-row file a publish writes beside its generation holds exactly the graph store's chunks, stays so through
edits (only the changed documents read again), and searches read their hits from it without changing an answer."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, HashEmbedder
from trident.ingest.pipeline import index_folder
from trident.retrieval.search import search
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.chunk_matrix import CHUNK_MATRIX_DIR
from trident.store.chunk_rows import ROWS_FILE, ChunkRows
from trident.store.kuzu_graph import KuzuGraphStore
from trident.store.settings import RetrievalSettings


def _rows(catalog: Catalog) -> ChunkRows:
    rows = ChunkRows.read(catalog.generation_folder / CHUNK_MATRIX_DIR, catalog.tenant)
    assert rows is not None, "the publish wrote the chunk rows beside the generation"
    return rows


def _assert_rows_are_the_graphs(catalog: Catalog) -> None:
    ids = sorted(catalog.graph.chunk_ids(catalog.tenant))
    rows = _rows(catalog)
    assert len(rows) == len(ids)
    assert rows.get(ids) == catalog.graph.get_chunks(ids)


def test_a_published_generation_carries_its_chunk_rows(sample_catalog: Catalog) -> None:
    _assert_rows_are_the_graphs(sample_catalog)
    rows = _rows(sample_catalog)
    some = sorted(sample_catalog.graph.chunk_ids("default"))[:3]
    assert rows.get([*some, "no-such-chunk", some[0]]) == sample_catalog.graph.get_chunks(some)
    assert rows.get([]) == {}
    assert ChunkRows.read(sample_catalog.generation_folder / CHUNK_MATRIX_DIR, "another-tenant") is None


def test_each_publish_brings_the_rows_up_to_date_reading_only_the_changed_documents(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    full_reads: list[str] = []
    read = KuzuGraphStore.chunk_table

    def counted(self: KuzuGraphStore, tenant: str, doc_ids: list[str] | None = None) -> object:
        if doc_ids is None:
            full_reads.append(tenant)
        return read(self, tenant, doc_ids)

    monkeypatch.setattr(KuzuGraphStore, "chunk_table", counted)
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
            _assert_rows_are_the_graphs(catalog)
        texts = [c.text for c in _rows(catalog).get(sorted(catalog.graph.chunk_ids("default"))).values()]
        assert any("brand_new" in t for t in texts) and not any("def charge(" in t for t in texts)
        assert full_reads == ["default"], "only the first publish read every chunk"
    finally:
        catalog.close()


def test_searches_answer_the_same_from_the_rows_and_without_them(sample_catalog: Catalog, tmp_path: Path) -> None:
    shutil.copytree(sample_catalog.index_dir, tmp_path / "index", ignore=shutil.ignore_patterns("write.lock"))
    copy = Catalog.open_reader(tmp_path / "index", "default", sample_catalog.embedder)
    (copy.generation_folder / CHUNK_MATRIX_DIR / ROWS_FILE).unlink()  # as a generation published before the file
    try:
        for query in ["verify a token", "charge a card", "what calls refund"]:
            with_rows = search(sample_catalog, query, top_k=8, views=GenerationViews(RetrievalSettings()))
            without = search(copy, query, top_k=8, views=GenerationViews(RetrievalSettings()))
            assert with_rows.hits, query
            assert [h.model_dump() for h in with_rows.hits] == [h.model_dump() for h in without.hits], query
    finally:
        copy.close()
