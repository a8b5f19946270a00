"""The chunk-row file a publish writes beside its generation holds exactly the graph store's chunks (through edits:
tests/test_chunk_vectors.py), and searches read their hits from it without changing an answer."""

from __future__ import annotations

import shutil
from pathlib import Path

from trident.retrieval.search import search
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.chunk_files import read_chunk_files
from trident.store.chunk_matrix import CHUNK_MATRIX_DIR
from trident.store.chunk_rows import ROWS_FILE, ChunkRows
from trident.store.settings import RetrievalSettings


def rows_of(catalog: Catalog) -> ChunkRows:
    files = read_chunk_files(catalog.generation_folder, catalog.tenant)
    rows = files.chunk_rows() if files is not None else None
    assert rows is not None, "the publish wrote the chunk rows beside the generation"
    return rows


def assert_rows_are_the_graphs(catalog: Catalog) -> None:
    ids = sorted(catalog.graph.chunk_ids(catalog.tenant))
    rows = rows_of(catalog)
    assert len(rows) == len(ids)
    assert rows.get(ids) == catalog.graph.get_chunks(ids)


def test_a_published_generation_carries_its_chunk_rows(sample_catalog: Catalog) -> None:
    assert_rows_are_the_graphs(sample_catalog)
    rows = rows_of(sample_catalog)
    some = sorted(sample_catalog.graph.chunk_ids("default"))[:3]
    assert rows.get([*some, "no-such-chunk", some[0]]) == sample_catalog.graph.get_chunks(some)
    assert rows.get([]) == {}
    assert read_chunk_files(sample_catalog.generation_folder, "another-tenant") is None


def test_searches_answer_the_same_from_the_rows_and_without_them(sample_catalog: Catalog, tmp_path: Path) -> None:
    shutil.copytree(sample_catalog.index_dir, tmp_path / "index", ignore=shutil.ignore_patterns("write.lock"))
    copy = Catalog.open_reader(tmp_path / "index", "default", sample_catalog.embedder)
    for written in (copy.generation_folder / CHUNK_MATRIX_DIR).glob(f"*{ROWS_FILE}"):
        written.unlink()  # as a generation published before the rows were
    try:
        for query in ["verify a token", "charge a card", "what calls refund"]:
            with_rows = search(sample_catalog, query, top_k=8, views=GenerationViews(RetrievalSettings()))
            without = search(copy, query, top_k=8, views=GenerationViews(RetrievalSettings()))
            assert with_rows.hits, query
            assert [h.model_dump() for h in with_rows.hits] == [h.model_dump() for h in without.hits], query
    finally:
        copy.close()
