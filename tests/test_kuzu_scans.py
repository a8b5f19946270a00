"""A published generation's whole-table reads (entities, relations, chunk rows) go through a database opened for the
read and closed after it, so the pages they read leave the process with it (Kùzu's buffer pool keeps every page it has
read for the database's life): they give what the long-lived connection gives, and they do not wait for its calls."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

from tests.conftest import EXAMPLES, index_into
from tests.wiki_graph import concept
from trident.embedding.hash_embedder import HashEmbedder
from trident.store.catalog import Catalog
from trident.store.engines.kuzu_graph import KuzuGraphStore
from trident.store.generations import GRAPH_FILE

TENANT = "default"
DEADLINE_SECONDS = 60.0


def _published(tmp_path: Path) -> Path:
    """A copy of the graph file of an index of examples/billing."""
    catalog = Catalog(tmp_path / "index", TENANT, HashEmbedder())
    try:
        index_into(catalog, EXAMPLES / "billing", "billing")
        copy = tmp_path / "published.kuzu"
        shutil.copyfile(catalog.generation_folder / GRAPH_FILE, copy)
    finally:
        catalog.close()
    return copy


def test_whole_table_reads_of_a_published_generation_run_beside_its_other_calls(tmp_path: Path) -> None:
    store = KuzuGraphStore(_published(tmp_path), read_only=True)
    try:
        read: dict[str, object] = {}

        def scan() -> None:
            read["entities"] = [e.id for e in store.entities(TENANT)]
            read["relations"] = store.relation_table(TENANT).num_rows
            read["chunks"] = store.chunk_table(TENANT).num_rows

        with store._lock:  # a long call on the store's own connection
            scanning = threading.Thread(target=scan)
            scanning.start()
            scanning.join(DEADLINE_SECONDS)
            assert not scanning.is_alive(), "a whole-table read waited for the store's connection"
        counts = store.counts(TENANT)
        ids = [
            row[0]
            for row in store._rows("MATCH (e:Entity) WHERE e.tenant = $t RETURN e.id ORDER BY e.id", {"t": TENANT})
        ]
        assert read["entities"] == ids and ids
        assert read["relations"] == counts["relations"] > 0
        assert read["chunks"] == counts["chunks"] > 0
    finally:
        store.close()


def test_a_writer_reads_its_own_uncommitted_rows_whole(tmp_path: Path) -> None:
    """A store open for writing scans through its own connection: what it just wrote is in the read."""
    store = KuzuGraphStore(tmp_path / "graph.kuzu")
    try:
        store.upsert([], [concept("Alpha"), concept("Beta")], [])
        assert [e.name for e in store.entities(TENANT)] == ["Alpha", "Beta"]
    finally:
        store.close()
