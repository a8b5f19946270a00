"""The entity and relation vectors as files a reader maps: each sync that changes the vector table writes them for
its new version and removes the old version's; a reader maps them (the same rows, the same hits as the table read
whole), reads the table when they are missing, and keeps reading the files it mapped after a sync removed them."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.conftest import EXAMPLES, HashEmbedder, index_into
from trident.retrieval.graph_item_vectors import GraphItemVectors
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.engines.graph_vectors import GraphVectorIndex, open_graph_vectors
from trident.store.mapped import current_rows, int8_rows
from trident.store.mapped.graph_vector_rows import GRAPH_VECTOR_ROWS_DIR, GraphVectorRows, read_current, read_rows


@pytest.fixture
def catalog(tmp_path: Path, fake_embedder: HashEmbedder) -> Iterator[Catalog]:
    """An empty index written with the plumbing embedder."""
    opened = Catalog(tmp_path / "index", "default", fake_embedder)
    yield opened
    opened.close()


def _project(root: Path) -> Path:
    project = root / "billing"
    shutil.copytree(EXAMPLES / "billing", project)
    return project


def _folders(catalog: Catalog) -> list[str]:
    return sorted(path.name for path in (catalog.index_dir / GRAPH_VECTOR_ROWS_DIR).iterdir() if path.is_dir())


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
    tmp_path: Path, catalog: Catalog
) -> None:
    index_into(catalog, _project(tmp_path), "billing")
    table = open_graph_vectors(catalog)
    assert len(_folders(catalog)) == 1 and _folders(catalog)[0].endswith(f"-{table.version()}")
    mapped = _assert_same_rows(catalog, table)
    queries = np.asarray(mapped.matrix[::5]) + 0.05
    from_files = GenerationViews(RetrievalSettings()).vectors(catalog)
    assert _hits(from_files, queries) == _hits(GraphItemVectors.load(table, catalog.tenant), queries)


def test_an_edit_writes_the_new_versions_rows_and_a_reader_keeps_the_files_it_mapped(
    tmp_path: Path, catalog: Catalog, fake_embedder: HashEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project(tmp_path)
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


def _entity_ids(catalog: Catalog, table: GraphVectorIndex) -> list[str]:
    items, _ = table.rows(catalog.tenant)
    return [owner[0] for owner in items.column("entities").to_pylist()]


def test_without_the_files_a_reader_reads_the_table_and_the_next_write_writes_them(
    tmp_path: Path, catalog: Catalog
) -> None:
    project = _project(tmp_path)
    index_into(catalog, project, "billing")
    shutil.rmtree(catalog.index_dir / GRAPH_VECTOR_ROWS_DIR)  # an index synced before the files existed
    table = open_graph_vectors(catalog)
    read = read_rows(table, catalog.index_dir / GRAPH_VECTOR_ROWS_DIR, catalog.tenant)
    assert not isinstance(read.matrix, np.memmap) and len(read.items) > 0
    (project / "billing" / "gateway.py").write_text('"""A gateway edited."""\n', encoding="utf-8")
    index_into(catalog, project, "billing")  # the next sync writes them
    _assert_same_rows(catalog, open_graph_vectors(catalog))


def test_the_int8_rows_are_written_scanned_and_give_the_tables_hits(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(int8_rows, "SCAN_MIN_ROWS", 0)  # the sample's few hundred items scanned as int8 too
    index_into(catalog, _project(tmp_path), "billing")
    table = open_graph_vectors(catalog)
    mapped = _assert_same_rows(catalog, table)
    assert mapped.int8 is not None and isinstance(mapped.int8.codes, np.memmap)
    queries = np.asarray(mapped.matrix[::3]) + 0.02
    assert _hits(GraphItemVectors(mapped), queries) == _hits(GraphItemVectors.load(table, catalog.tenant), queries)


# A fresh interpreter reads a synced index's vectors as a server does, then says whether LanceDB was imported.
READ_WITHOUT_TABLE = """
import json, sys
from pathlib import Path
from trident.retrieval.graph_item_vectors import GraphItemVectors
from trident.store.catalog import Catalog
catalog = Catalog.open_reader(Path({index!r}), "default", None)
vectors = GraphItemVectors.of_catalog(catalog)
print(json.dumps([len(vectors), "lancedb" in sys.modules]))
"""


def test_a_reader_maps_the_rows_the_last_sync_named_without_opening_the_table(
    tmp_path: Path, catalog: Catalog, fake_embedder: HashEmbedder
) -> None:
    project = _project(tmp_path)
    index_into(catalog, project, "billing")
    table = open_graph_vectors(catalog)
    folder = catalog.index_dir / GRAPH_VECTOR_ROWS_DIR
    assert current_rows.current(folder, catalog.tenant) == table.version()
    code = READ_WITHOUT_TABLE.format(index=str(catalog.index_dir))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert json.loads(done.stdout) == [len(GraphVectorRows.of(*table.rows(catalog.tenant)).items), False]

    # A sync that changed the table and died before writing its rows: readers read the table, not older files.
    current_rows.withdraw(folder, catalog.tenant)
    stale_rows = read_current(folder, catalog.tenant)
    assert stale_rows is None
    queries = np.random.default_rng(3).standard_normal((4, fake_embedder.dim)).astype(np.float32)
    from_table = GraphItemVectors.of_catalog(catalog)
    assert _hits(from_table, queries) == _hits(GraphItemVectors.load(table, catalog.tenant), queries)
    # The next sync that changes the table names its version again.
    with open(project / "billing" / "gateway.py", "a", encoding="utf-8") as source:
        source.write('\n\ndef void_charge(charge_id):\n    """Void a pending charge."""\n    return charge_id\n')
    index_into(catalog, project, "billing")
    table = open_graph_vectors(catalog)
    assert current_rows.current(folder, catalog.tenant) == table.version()
    mapped = read_current(folder, catalog.tenant)
    assert mapped is not None and isinstance(mapped.matrix, np.memmap)
    assert mapped.items.equals(GraphVectorRows.of(*table.rows(catalog.tenant)).items)


def test_a_sync_withdraws_the_named_version_before_it_changes_the_table(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project(tmp_path)
    folder = catalog.index_dir / GRAPH_VECTOR_ROWS_DIR
    index_into(catalog, project, "billing")
    named_while_adding: list[int | None] = []
    add = GraphVectorIndex.add

    def watched_add(index: GraphVectorIndex, items: Any, vectors: Any) -> None:
        named_while_adding.append(current_rows.current(folder, catalog.tenant))
        add(index, items, vectors)

    monkeypatch.setattr(GraphVectorIndex, "add", watched_add)
    (project / "billing" / "gateway.py").write_text('"""A gateway edited."""\n', encoding="utf-8")
    index_into(catalog, project, "billing")
    assert named_while_adding and set(named_while_adding) == {None}
    assert current_rows.current(folder, catalog.tenant) == open_graph_vectors(catalog).version()
