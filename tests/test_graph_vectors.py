"""Entity and relation vectors stay in step with the graph: new items embedded once, removed ones dropped."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import index_into
from trident.ingest.graph_vector_sync import graph_items, open_graph_vectors, sync_graph_vectors
from trident.retrieval.graph_item_vectors import GraphItemVectors
from trident.store.catalog import Catalog
from trident.store.engines.graph_vectors import GraphVectorIndex
from trident.store.protocols import Embedder
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


@pytest.mark.parametrize("count", [60, 600])
def test_the_vectors_in_memory_rank_as_the_table_does(
    tmp_path: Path, count: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seeding reads the vectors from memory: the same items, order (ties by key) and scores as the table's search,
    whether every row is scored or (above `candidates(limit)` rows) the int8 rows pick the candidates."""
    import numpy as np

    from trident.retrieval.graph_item_vectors import GraphItemVectors
    from trident.retrieval.top_rows import candidates
    from trident.store.engines.graph_vectors import GraphItem, GraphVectorIndex
    from trident.store.mapped import int8_rows

    monkeypatch.setattr(int8_rows, "SCAN_MIN_ROWS", 0)  # a few hundred rows scanned as int8 too
    rng = np.random.default_rng(7)
    vectors = rng.normal(size=(count, 8)).astype(np.float32)
    # The same vector: a tie the keys must order (a multiple of it is no exact tie: normalised, it may differ from it
    # in the last bit, by CPU)
    vectors[41] = vectors[17]
    mine = count * 5 // 6
    items = [
        GraphItem(f"k{i:03d}", "entity" if i % 2 else "relation", (f"e{i}",), f"t{i}", "t1" if i < mine else "t2")
        for i in range(count)
    ]
    table = GraphVectorIndex(tmp_path / "gv", 8)
    table.add(items, vectors)
    memory = GraphItemVectors.load(table, "t1")
    assert len(memory) == mine  # only the tenant's items
    assert (mine > candidates(12)) == (count == 600)
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
        items, matrix = open_graph_vectors(catalog).rows(catalog.tenant)
        passages = [e for e in entities.values() if e.project == "scifact" and e.chunk_id and e.description]
        assert len(passages) == 32
        chunk_vectors = catalog.vectors.vectors([e.chunk_id or "" for e in passages])
        kinds, owners = items.column("kind").to_pylist(), items.column("entities").to_pylist()
        rows = {owner[0]: row for row, (kind, owner) in enumerate(zip(kinds, owners, strict=True)) if kind == "entity"}
        for entity in passages:
            stored = matrix[rows[entity.id]]
            assert np.allclose(stored / np.linalg.norm(stored), chunk_vectors[entity.chunk_id or ""], atol=1e-6)
        memory = GraphItemVectors.load(open_graph_vectors(catalog), catalog.tenant)
        nearest = memory.search(chunk_vectors[passages[0].chunk_id or ""], 1)
        assert nearest[0].entities == (passages[0].id,) and nearest[0].score > 0.999
        assert not [t for t in counting.texts if "(Concept in scifact)" in t], "a passage entity was embedded"
        assert [t for t in counting.texts if t.startswith("PaymentGateway (Class in billing)")], counting.texts[:5]
    finally:
        catalog.close()


def _basket_project(root: Path, total: str = "price_of(self)") -> Path:
    project = root / "shop"
    project.mkdir(exist_ok=True)
    (project / "shop.py").write_text(
        '"""Shop."""\n\n\nclass Basket:\n    """Holds what a customer is about to buy."""\n\n'
        f'    def total(self):\n        """The price of everything in the basket."""\n        return {total}\n\n\n'
        "def price_of(basket):\n    return 1\n"
    )
    (project / "retries.md").write_text(
        "# Retries\n\nTransport failures are retried `three` times with exponential backoff before a charge fails.\n"
    )
    return project


def _stored(catalog: Catalog) -> dict[str, object]:
    """Each entity's id, or a relation's (source, target), mapped to its stored vector."""
    from trident.ingest.graph_vector_sync import graph_items

    items = graph_items(catalog.entities(), catalog.graph.relations(catalog.tenant), catalog.tenant)
    vectors = open_graph_vectors(catalog).vectors([i.key for i in items], catalog.tenant)
    return {(i.entities[0] if i.kind == "entity" else i.entities): vectors[i.key] for i in items}


def test_a_method_a_name_only_function_and_a_section_take_their_chunks_vector_and_a_relation_sums_its_ends(
    tmp_path: Path,
) -> None:
    """Embeddings per chunk on code: only the described class and module are embedded for the graph; a method, a
    function known by its name alone and a markdown section whose text opens its chunk take the chunk's vector, and
    the call between them is the normalised sum of its two ends."""
    import numpy as np

    counting = _Counting()
    catalog = Catalog(tmp_path / "index", "default", counting)  # type: ignore[arg-type]  # a stand-in embedder
    try:
        index_into(catalog, _basket_project(tmp_path), "shop")
        entities = {e.id: e for e in catalog.entities()}
        stored = _stored(catalog)
        taken = ["method:shop:shop.Basket.total", "function:shop:shop.price_of", "section:shop:retries.md#retries"]
        chunks = catalog.vectors.vectors([entities[i].chunk_id or "" for i in taken])
        for entity_id in taken:
            assert np.allclose(stored[entity_id], chunks[entities[entity_id].chunk_id or ""], atol=1e-6), entity_id
        call = (taken[0], taken[1])
        assert call in stored, sorted(k for k in stored if isinstance(k, tuple))
        ends = [np.asarray(stored[end]) for end in call]
        expected = ends[0] / np.linalg.norm(ends[0]) + ends[1] / np.linalg.norm(ends[1])
        assert np.allclose(stored[call], expected / np.linalg.norm(expected), atol=1e-6)
        graph_texts = [t for t in counting.texts if " (" in t.split(":")[0]]
        assert sorted(t.split(" (")[1].split(" in")[0] for t in graph_texts) == ["Class", "Module"], graph_texts
    finally:
        catalog.close()


def test_an_edited_method_body_brings_the_vectors_taken_from_its_chunk_up_to_date(tmp_path: Path) -> None:
    """Same name, same docstring, same key: the method's row and the call summed from it still follow the chunk
    the edit embedded again, and the model embeds nothing for the graph."""
    import numpy as np

    counting = _Counting()
    catalog = Catalog(tmp_path / "index", "default", counting)  # type: ignore[arg-type]  # a stand-in embedder
    try:
        index_into(catalog, _basket_project(tmp_path), "shop")
        method, function = "method:shop:shop.Basket.total", "function:shop:shop.price_of"
        before = _stored(catalog)
        counting.texts.clear()
        index_into(catalog, _basket_project(tmp_path, total="price_of(self) * 2"), "shop")
        after = _stored(catalog)
        chunk_id = next(e.chunk_id for e in catalog.entities() if e.id == method) or ""
        assert np.allclose(after[method], catalog.vectors.vectors([chunk_id])[chunk_id], atol=1e-6)
        assert not np.allclose(after[method], before[method], atol=1e-3)
        assert not np.allclose(after[(method, function)], before[(method, function)], atol=1e-3)
        assert not [t for t in counting.texts if t.startswith(("total (", "price_of (", "Basket ("))], counting.texts
    finally:
        catalog.close()


class _Watching(_Counting):
    """The counting embedder, noting which graph rows the live table holds while it embeds."""

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder
        self.rows_while_embedding: dict[str, set[str]] = {}  # text -> the table's rows when it was embedded

    def embed(self, texts: list[str]) -> object:
        table = GraphVectorIndex.open_existing(self.folder, self.dim)
        rows = table.keys("default") if table is not None else set()
        self.rows_while_embedding.update(dict.fromkeys(texts, rows))
        return super().embed(texts)


def test_a_reader_finds_the_old_row_while_its_replacement_is_embedded(tmp_path: Path) -> None:
    """An edited docstring gives the class a new row: the old one stays in the live table until the new one is
    made, so a search in between still finds the class (retrieval reads the live table, not a generation's)."""
    from trident.store.engines.graph_vectors import GRAPH_VECTORS_DIR

    watching = _Watching(tmp_path / "index" / GRAPH_VECTORS_DIR)
    catalog = Catalog(tmp_path / "index", "default", watching)  # type: ignore[arg-type]  # a stand-in embedder
    try:
        index_into(catalog, _basket_project(tmp_path), "shop")
        old = {i.entities[0]: i.key for i in graph_items(catalog.entities(), [], catalog.tenant)}
        project = tmp_path / "shop"
        source = (project / "shop.py").read_text()
        (project / "shop.py").write_text(source.replace("about to buy", "about to pay for"))
        watching.rows_while_embedding.clear()
        index_into(catalog, project, "shop")
        basket = "class:shop:shop.Basket"
        new = {i.entities[0]: i for i in graph_items(catalog.entities(), [], catalog.tenant)}
        assert new[basket].key != old[basket]
        assert old[basket] in watching.rows_while_embedding[new[basket].text], "the old row was gone meanwhile"
        rows = open_graph_vectors(catalog).keys(catalog.tenant)
        assert new[basket].key in rows and old[basket] not in rows
    finally:
        catalog.close()


LOOSE_QUERIES = [
    ("what is the component that talks to the payment provider", "billing.gateway"),
    ("giving money back to a customer", "refund"),
    ("cancel an order that has not been paid", "method:billing:billing.orders.OrderService.cancel"),
    ("signature attached to each request to the processor", "function:billing:billing.gateway.sign_request"),
    ("what happens when the card is refused", "class:billing:billing.gateway.PaymentDeclined"),
    ("exponential backoff on network failures", "section:billing:docs/retries.md#backoff"),
    ("numbering of bills per year", "billing.invoices"),
]


@pytest.mark.parametrize(("query", "wanted"), LOOSE_QUERIES)
def test_a_loosely_worded_question_seeds_the_entity_it_describes(
    sample_catalog: Catalog, embedder: Embedder, query: str, wanted: str
) -> None:
    """Vector seeding on the sample projects, with methods, name-only entities and sections on their chunks'
    vectors and relations summed from their ends."""
    from trident.retrieval.paths import vector_seeds
    from trident.retrieval.retrieval_settings import RetrievalSettings
    from trident.retrieval.views import GenerationViews

    views = GenerationViews(RetrievalSettings())
    seeds = vector_seeds(sample_catalog, views, embedder.embed_query(query), None)
    assert any(wanted in seed.id for seed in seeds), [seed.id for seed in seeds]


@pytest.mark.parametrize("query", ["what is protein folding in yeast", "recipe for banana bread"])
def test_a_question_about_nothing_indexed_seeds_nothing(
    sample_catalog: Catalog, embedder: Embedder, query: str
) -> None:
    """A sum of two vectors can score above either alone: an unrelated question must still seed no entity."""
    from trident.retrieval.paths import vector_seeds
    from trident.retrieval.retrieval_settings import RetrievalSettings
    from trident.retrieval.views import GenerationViews

    assert vector_seeds(sample_catalog, GenerationViews(RetrievalSettings()), embedder.embed_query(query), None) == []


def test_a_lookup_or_a_delete_touches_only_its_tenants_row_of_a_shared_key(tmp_path: Path) -> None:
    """The same entity indexed under two tenants has the same key in both: each tenant reads and drops its own row."""
    import numpy as np

    from trident.store.engines.graph_vectors import GraphItem

    table = GraphVectorIndex(tmp_path / "gv", 8)
    ones, twos = np.ones((1, 8), dtype=np.float32), np.full((1, 8), 2.0, dtype=np.float32)
    table.add([GraphItem("k", "entity", ("e",), "e", "t1")], ones)
    table.add([GraphItem("k", "entity", ("e",), "e", "t2")], twos)
    assert np.allclose(table.vectors(["k"], "t1")["k"], ones[0])
    assert np.allclose(table.vectors(["k"], "t2")["k"], twos[0])
    assert table.vectors(["k"], "t3") == {}
    table.delete(["k"], "t1")
    assert table.vectors(["k"], "t1") == {} and "k" in table.vectors(["k"], "t2")


def test_a_read_of_an_index_without_graph_vectors_creates_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "gv"
    assert GraphVectorIndex.open_existing(folder, 8) is None and not folder.exists()
    assert len(GraphItemVectors.load(None, "default")) == 0
    GraphVectorIndex(folder, 8)  # a writer's open creates the table
    opened = GraphVectorIndex.open_existing(folder, 8)
    assert opened is not None and opened.count("default") == 0
