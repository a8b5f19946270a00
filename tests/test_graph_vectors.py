"""Entity and relation vectors stay in step with the graph: new items embedded once, removed ones dropped."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import index_into
from trident.ingest.graph_vectors import graph_items, open_graph_vectors, sync_graph_vectors
from trident.store.catalog import Catalog
from trident.store.schema import Entity, EntityType, Relation


def test_items_are_entities_and_one_sentence_per_embedded_relation() -> None:
    a = Entity(id="class:p:A", name="A", type=EntityType.CLASS, project="p", description="does a")
    b = Entity(id="function:p:b", name="b", type=EntityType.FUNCTION, project="p", qualified_name="m.b")
    hub = Entity(id="project:p:p", name="p", type=EntityType.PROJECT, project="p")
    calls = [Relation(source=a.id, type="CALLS", target=b.id, evidence=f"c{i}", project="p") for i in range(3)]
    mention = Relation(source=b.id, type="MENTIONS", target=a.id, evidence="c9", project="p")
    items = graph_items([a, b, hub], [*calls, mention], "default")
    assert [i.text for i in items] == ["A (Class in p): does a", "b (Function in p): m.b", "A calls m.b"]
    assert items[2].entities == (a.id, b.id)


def test_sync_embeds_new_items_once_and_drops_removed_ones(tmp_path: Path, catalog: Catalog) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    (project / "shop.py").write_text("class Basket:\n    def total(self):\n        return price_of(self)\n")
    (project / "prices.py").write_text("def price_of(basket):\n    return 1\n")
    index_into(catalog, project, "proj", max_file_bytes=100_000)
    vectors = open_graph_vectors(catalog)
    first = vectors.count(catalog.tenant)
    assert first > 0
    with catalog.writer() as writer:
        assert sync_graph_vectors(writer) == 0  # nothing new: nothing embedded again
    (project / "prices.py").unlink()
    index_into(catalog, project, "proj", max_file_bytes=100_000)
    assert open_graph_vectors(catalog).count(catalog.tenant) < first
    texts = " ".join(i.text for i in graph_items(catalog.entities(), [], catalog.tenant))
    assert "price_of" not in texts


def test_the_vectors_in_memory_rank_as_the_table_does(tmp_path: Path) -> None:
    """Seeding reads the vectors from memory: the same items, order (ties by key) and scores as the table's search."""
    import numpy as np

    from trident.retrieval.graph_item_vectors import GraphItemVectors
    from trident.store.graph_vectors import GraphItem, GraphVectorIndex

    rng = np.random.default_rng(7)
    vectors = rng.normal(size=(60, 8)).astype(np.float32)
    vectors[41] = vectors[17] * 3.0  # the same direction: a tie the keys must order
    items = [
        GraphItem(f"k{i:03d}", "entity" if i % 2 else "relation", (f"e{i}",), f"t{i}", "t1" if i < 50 else "t2")
        for i in range(60)
    ]
    table = GraphVectorIndex(tmp_path / "gv", 8)
    table.add(items, vectors)
    memory = GraphItemVectors.load(table, "t1")
    assert len(memory) == 50  # only the tenant's items
    for query in [vectors[17], *rng.normal(size=(10, 8)).astype(np.float32)]:
        expected = table.search(query, 12, "t1")
        found = memory.search(query, 12)
        assert [(h.key, h.kind, h.entities) for h in found] == [(h.key, h.kind, h.entities) for h in expected]
        assert np.allclose([h.score for h in found], [h.score for h in expected], atol=1e-5)
    tied = [h.key for h in memory.search(vectors[17], 2)]
    assert tied == ["k017", "k041"]
