"""The entity and relation vectors as files a reader maps: each sync that changes the vector table writes them for
its new version and removes the old version's; a reader maps them (the same rows, the same hits as the table read
whole), reads the table when they are missing, and keeps reading the files it mapped after a sync removed them."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import EXAMPLES, HashEmbedder, index_into
from trident.retrieval.graph_item_vectors import GraphItemVectors
from trident.retrieval.views import GenerationViews
from trident.store import int8_rows
from trident.store.catalog import Catalog
from trident.store.graph_vector_rows import GRAPH_VECTOR_ROWS_DIR, GraphVectorRows, read_rows
from trident.store.graph_vectors import GraphVectorIndex, open_graph_vectors
from trident.store.settings import RetrievalSettings


def _project(root: Path) -> Path:
    project = root / "billing"
    shutil.copytree(EXAMPLES / "billing", project)
    return project


def _folders(catalog: Catalog) -> list[str]:
    return sorted(path.name for path in (catalog.index_dir / GRAPH_VECTOR_ROWS_DIR).iterdir())


def _assert_same_rows(catalog: Catalog, table: GraphVectorIndex) -> GraphVectorRows:
    """The files of the table's version hold what the table does (ordered by key, unit rows); returns them."""
    mapped = read_rows(table, catalog.index_dir / GRAPH_VECTOR_ROWS_DIR, catalog.tenant)
    whole = GraphVectorRows.of(*table.rows(catalog.tenant))
    assert isinstance(mapped.matrix, np.memmap), "read from the files, not the table"
    assert mapped.items.equals(whole.items) and len(whole.items) > 0
    assert np.array_equal(mapped.matrix, whole.matrix)
    return mapped


def _hits(vectors: GraphItemVectors, queries: np.ndarray) -> list[list[tuple[str, float]]]:
    return [[(hit.key, hit.score) for hit in vectors.search(query, 7)] for query in queries]


def test_a_sync_writes_the_rows_of_its_table_version_and_readers_find_the_same_hits(
    tmp_path: Path, fake_embedder: HashEmbedder
) -> None:
    catalog = Catalog(tmp_path / "index", "default", fake_embedder)
    try:
        index_into(catalog, _project(tmp_path), "billing")
        table = open_graph_vectors(catalog)
        assert len(_folders(catalog)) == 1 and _folders(catalog)[0].endswith(f"-{table.version()}")
        mapped = _assert_same_rows(catalog, table)
        queries = np.asarray(mapped.matrix[::5]) + 0.05
        from_files = GenerationViews(RetrievalSettings()).vectors(catalog)
        assert _hits(from_files, queries) == _hits(GraphItemVectors.load(table, catalog.tenant), queries)
    finally:
        catalog.close()


def test_an_edit_writes_the_new_versions_rows_and_a_reader_keeps_the_files_it_mapped(
    tmp_path: Path, fake_embedder: HashEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    catalog = Catalog(tmp_path / "index", "default", fake_embedder)
    project = _project(tmp_path)
    try:
        index_into(catalog, project, "billing")
        before = _folders(catalog)
        earlier = GenerationViews(RetrievalSettings()).vectors(catalog)
        queries = np.random.default_rng(7).standard_normal((6, fake_embedder.dim)).astype(np.float32)
        earlier_hits = _hits(earlier, queries)
        dead_draft = catalog.index_dir / GRAPH_VECTOR_ROWS_DIR / f".{before[0]}-0"  # a sync killed while writing
        dead_draft.mkdir()
        with open(project / "billing" / "gateway.py", "a", encoding="utf-8") as source:
            source.write('\n\ndef settle_batch(ids):\n    """Settle every pending charge."""\n    return ids\n')
        read_back: list[str] = []
        table_rows = GraphVectorIndex.rows
        monkeypatch.setattr(
            GraphVectorIndex, "rows", lambda index, tenant: read_back.append(tenant) or table_rows(index, tenant)
        )
        index_into(catalog, project, "billing")
        assert read_back == [], "the sync updates the last version's files instead of reading the table back"
        table = open_graph_vectors(catalog)
        assert len(_folders(catalog)) == 1 and _folders(catalog) != before, "the old version and the draft go"
        _assert_same_rows(catalog, table)
        assert any("settle_batch" in entity for entity in _entity_ids(catalog, table))
        assert _hits(earlier, queries) == earlier_hits, "a reader that mapped the old files still reads them"

        read_back.clear()
        (project / "billing" / "refunds.py").unlink()  # rows removed, none added
        index_into(catalog, project, "billing")
        assert read_back == []
        table = open_graph_vectors(catalog)
        _assert_same_rows(catalog, table)
        assert not any("refunds" in entity for entity in _entity_ids(catalog, table))
    finally:
        catalog.close()


def _entity_ids(catalog: Catalog, table: GraphVectorIndex) -> list[str]:
    items, _ = table.rows(catalog.tenant)
    return [owner[0] for owner in items.column("entities").to_pylist()]


def test_without_the_files_a_reader_reads_the_table_and_the_next_write_writes_them(
    tmp_path: Path, fake_embedder: HashEmbedder
) -> None:
    catalog = Catalog(tmp_path / "index", "default", fake_embedder)
    project = _project(tmp_path)
    try:
        index_into(catalog, project, "billing")
        shutil.rmtree(catalog.index_dir / GRAPH_VECTOR_ROWS_DIR)  # an index synced before the files existed
        table = open_graph_vectors(catalog)
        read = read_rows(table, catalog.index_dir / GRAPH_VECTOR_ROWS_DIR, catalog.tenant)
        assert not isinstance(read.matrix, np.memmap) and len(read.items) > 0
        (project / "billing" / "gateway.py").write_text('"""A gateway edited."""\n', encoding="utf-8")
        index_into(catalog, project, "billing")  # the next sync writes them
        _assert_same_rows(catalog, open_graph_vectors(catalog))
    finally:
        catalog.close()


def test_the_int8_rows_are_written_scanned_and_give_the_tables_hits(
    tmp_path: Path, fake_embedder: HashEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(int8_rows, "SCAN_MIN_ROWS", 0)  # the sample's few hundred items scanned as int8 too
    catalog = Catalog(tmp_path / "index", "default", fake_embedder)
    try:
        index_into(catalog, _project(tmp_path), "billing")
        table = open_graph_vectors(catalog)
        mapped = _assert_same_rows(catalog, table)
        assert mapped.int8 is not None and isinstance(mapped.int8.codes, np.memmap)
        queries = np.asarray(mapped.matrix[::3]) + 0.02
        assert _hits(GraphItemVectors(mapped), queries) == _hits(GraphItemVectors.load(table, catalog.tenant), queries)
    finally:
        catalog.close()
