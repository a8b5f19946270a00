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


class _Counting:
    """The hash embedder, remembering every text it was asked to embed."""

    def __init__(self) -> None:
        from tests.conftest import HashEmbedder

        self._inner = HashEmbedder()
        self.model_name, self.dim = self._inner.model_name, self._inner.dim
        self.texts: list[str] = []

    def embed(self, texts: list[str]) -> object:
        self.texts.extend(texts)
        return self._inner.embed(texts)

    def embed_query(self, text: str) -> object:
        return self._inner.embed_query(text)


def test_a_passage_entity_takes_its_chunks_vector_and_a_code_entity_is_embedded(tmp_path: Path) -> None:
    """Embeddings per chunk: an entity whose description opens its chunk (a BEIR passage) reuses the chunk's vector
    instead of embedding the same words again; a class described by its docstring is embedded for itself."""
    import numpy as np

    from tests.conftest import EXAMPLES
    from trident.ingest.pipeline import index_beir, index_folder
    from trident.retrieval.graph_item_vectors import GraphItemVectors

    counting = _Counting()
    catalog = Catalog(tmp_path / "index", "default", counting)  # type: ignore[arg-type]  # a stand-in embedder
    try:
        with catalog.writer() as writer:
            index_beir(writer, EXAMPLES.parent / "tests" / "data" / "scifact-excerpt", "scifact")
            index_folder(writer, EXAMPLES / "billing", "billing", max_file_bytes=1_000_000)
        entities = {e.id: e for e in catalog.entities()}
        memory = GraphItemVectors.load(open_graph_vectors(catalog), catalog.tenant)
        passages = [e for e in entities.values() if e.project == "scifact" and e.chunk_id and e.description]
        assert len(passages) == 32
        chunk_vectors = catalog.vectors.vectors([e.chunk_id or "" for e in passages])
        rows = {item.entities[0]: row for row, item in enumerate(memory._items) if item.kind == "entity"}
        for entity in passages:
            assert np.allclose(memory._matrix[rows[entity.id]], chunk_vectors[entity.chunk_id or ""], atol=1e-6)
        assert not [t for t in counting.texts if "(Concept in scifact)" in t], "a passage entity was embedded"
        assert [t for t in counting.texts if t.startswith("PaymentGateway (Class in billing)")], counting.texts[:5]
    finally:
        catalog.close()
