"""The in-memory relation index answers every walk exactly as the graph store does, and a reader's holds the
store's relations with their citations."""

from __future__ import annotations

import pytest

from trident.retrieval.execution_edges import derived_relations
from trident.retrieval.pagerank import EntityChunkGraph
from trident.retrieval.reader import Reader
from trident.retrieval.relation_index import RelationIndex
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.search_engine import GenerationViews
from trident.store.catalog import Catalog
from trident.store.engines.kuzu_graph import KuzuGraphStore
from trident.store.schema import Relation, Resolution


def _index(catalog: Catalog, *, execution: bool = False) -> RelationIndex:
    """The stored relations in memory (with `execution`, those execution implies too, as servers hold them)."""
    graph = catalog.graph
    return RelationIndex.from_table(
        graph.relation_table(catalog.tenant), catalog.tenant, graph.all_citations(catalog.tenant), execution=execution
    )


def test_the_execution_view_adds_exactly_the_derived_relations(sample_catalog: Catalog) -> None:
    stored, executed = _index(sample_catalog), _index(sample_catalog, execution=True)
    derived = derived_relations(sample_catalog.graph.relation_table(sample_catalog.tenant))
    assert derived.num_rows > 0 and len(executed) == len(stored) + derived.num_rows
    added = set(executed.all()) - set(stored.all())
    assert {(r.source, r.type, r.target) for r in added} == {
        (row["source"], row["type"], row["target"]) for row in derived.to_pylist()
    }
    assert any(r.type == "OVERRIDES" for r in added) and any(r.resolution == Resolution.DISPATCH for r in added)


def test_neighbours_match_the_graph_store_for_every_entity_alone_and_in_groups(sample_catalog: Catalog) -> None:
    index = _index(sample_catalog)
    ids = sorted(e.id for e in sample_catalog.entities())
    assert len(index) > 100 and len(ids) > 50
    for entity_id in ids:
        expected = sample_catalog.graph.neighbours([entity_id], sample_catalog.tenant, 500)
        assert index.neighbours([entity_id], sample_catalog.tenant, 500) == expected, entity_id
    for start in range(0, len(ids), 7):
        group = ids[start : start + 7]
        for limit in (3, 40, 2_000):
            expected = sample_catalog.graph.neighbours(group, sample_catalog.tenant, limit)
            assert index.neighbours(group, sample_catalog.tenant, limit) == expected, (group, limit)


def test_every_relation_comes_back_once_in_the_graph_store_order(sample_catalog: Catalog) -> None:
    index = _index(sample_catalog)
    assert index.all() == sample_catalog.graph.relations(sample_catalog.tenant)


def test_citations_match_the_chunks_of_the_graph_store(sample_catalog: Catalog) -> None:
    index = _index(sample_catalog)
    ids = sorted(sample_catalog.graph.chunk_ids(sample_catalog.tenant))
    chunks = sample_catalog.graph.get_chunks(ids)
    expected = {i: chunk.citation for i, chunk in chunks.items()}
    assert index.citations([*ids, "missing"]) == expected == sample_catalog.graph.citations([*ids, "missing"])
    assert len(expected) == len(ids) > 0


def test_unknown_entities_and_other_tenants_get_nothing(sample_catalog: Catalog) -> None:
    index = _index(sample_catalog)
    some = sample_catalog.entities()[0].id
    assert index.neighbours(["no-such-entity"], sample_catalog.tenant, 10) == []
    assert index.neighbours([some], "another-tenant", 10) == []
    assert index.neighbours([some], sample_catalog.tenant, 10) != []


def test_relations_of_other_tenants_are_left_out_of_the_index() -> None:
    mine = Relation(source="a", type="CALLS", target="b", project="p", tenant="t1", evidence="c1", doc_id="d1")
    theirs = Relation(source="a", type="CALLS", target="x", project="p", tenant="t2", evidence="c2", doc_id="d2")
    index = RelationIndex.build([mine, theirs], "t1", {"c1": "p/a.py:L1-L2"})
    assert index.neighbours(["a"], "t1", 10) == [mine]
    assert len(index) == 1
    empty = RelationIndex.build([], "t1", {})
    assert (empty.neighbours(["a"], "t1", 10), empty.all(), list(empty.edges()), len(empty)) == ([], [], [], 0)


def test_a_readers_relations_are_the_stores_with_what_execution_implies(sample_catalog: Catalog) -> None:
    held = Reader.open(sample_catalog).relations()  # citations read from the generation's mapped chunk rows
    stored = _index(sample_catalog, execution=True)  # citations read from the graph store
    assert held.all() == stored.all() and held.all()
    evidence = sorted({r.evidence for r in stored.all() if r.evidence})
    assert evidence and held.citations(evidence) == stored.citations(evidence)


def test_the_walk_graph_built_from_the_index_ranks_as_the_one_built_from_relations(sample_catalog: Catalog) -> None:
    index = _index(sample_catalog)
    entities = sample_catalog.entities()
    from_relations = EntityChunkGraph.build(entities, sample_catalog.graph.relations(sample_catalog.tenant))
    from_index = EntityChunkGraph.from_edges(entities, index.edges())
    assert from_index.nodes == from_relations.nodes
    assert (from_index.transition != from_relations.transition).nnz == 0
    seeds = [e for e in entities if e.name in ("OrderService", "PaymentGateway")]
    assert seeds and from_index.rank(seeds, 20) == from_relations.rank(seeds, 20) != []


def test_an_index_from_the_store_table_equals_one_from_relation_objects(sample_catalog: Catalog) -> None:
    graph = sample_catalog.graph
    citations = graph.all_citations(sample_catalog.tenant)
    table, relations = graph.relation_table(sample_catalog.tenant), graph.relations(sample_catalog.tenant)
    for execution in (False, True):
        from_table = RelationIndex.from_table(table, sample_catalog.tenant, citations, execution=execution)
        from_objects = RelationIndex.build(relations, sample_catalog.tenant, citations, execution=execution)
        assert from_table.all() == from_objects.all()
        assert (from_table.all() == relations) is not execution  # derived relations: in memory only


def test_chunks_and_entities_by_id_come_back_whole_for_any_number_of_ids(sample_catalog: Catalog) -> None:
    graph = sample_catalog.graph
    ids = sorted(graph.chunk_ids(sample_catalog.tenant))
    every = graph.get_chunks(ids + ["x"] * 300)  # past PK_LOOKUPS_MAX: one scan of the table
    assert len(every) == len(ids) > 40
    for count in (1, 2, 3, 4, 5, 16, 17, 21, 40):
        picked = ids[::3][:count]
        assert graph.get_chunks([*picked, "missing", picked[0]]) == {i: every[i] for i in picked}
    entity_ids = sorted(e.id for e in sample_catalog.entities())[:19]
    assert [e.id for e in graph.get_entities([*entity_ids, "missing"])] == entity_ids


def test_a_readers_relations_cite_every_chunk_as_the_graph_store_does(
    sample_catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reader's relations look citations up in the generation's chunk rows (no scan of every chunk's location):
    the graph store's citations, in the order asked, an unknown id left out."""
    scanned: list[str] = []
    every = KuzuGraphStore.all_citations
    monkeypatch.setattr(
        KuzuGraphStore, "all_citations", lambda store, tenant: scanned.append(tenant) or every(store, tenant)
    )
    views = GenerationViews(RetrievalSettings())
    assert views._rows(sample_catalog) is not None, "the sample index has its chunk rows"
    ids = sorted(cid for entry in sample_catalog.manifest.documents.values() for cid in entry.chunk_ids)[::-1]
    found = views.relations(sample_catalog).citations([*ids, "no-such-chunk"])
    assert list(found) == ids and found == sample_catalog.graph.citations(ids)
    assert scanned == []
