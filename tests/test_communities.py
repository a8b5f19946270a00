"""Communities: the same on every run, grouping what belongs together, searchable, and recomputed only on change."""

from __future__ import annotations

import random
import threading
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, SAMPLE_PROJECTS, index_into
from trident.ingest.community_reports import detect_communities, open_communities, report_vectors, sync_communities
from trident.ingest.linking import forget_sync
from trident.ingest.pipeline import index_folder
from trident.retrieval.reader import Reader
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.router import QueryType, route
from trident.retrieval.search_engine import Strategy, search
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.engines.community_index import CommunityReport
from trident.store.protocols import Embedder
from trident.store.schema import Entity, EntityType, Relation
from trident.store.sync_state import NOT_SYNCED
from trident.tools.status import status

GATEWAY = "class:billing:billing.gateway.PaymentGateway"
VERIFIER = "class:auth:internal.tokens.verifier.TokenVerifier"


def _reports(catalog: Catalog) -> list[CommunityReport]:
    return open_communities(catalog).reports(catalog.tenant)


def _community_of(reports: list[CommunityReport], entity_id: str) -> CommunityReport:
    return next(r for r in reports if r.level == 0 and entity_id in r.members)


def test_community_detection_is_the_same_on_two_indexing_runs(
    sample_catalog: Catalog, tmp_path: Path, embedder: Embedder
) -> None:
    again = Catalog(tmp_path / "index", "default", embedder)
    try:
        with again.writer() as writer:  # as the sample catalog is built
            for project in SAMPLE_PROJECTS:
                index_folder(writer, EXAMPLES / project, project, max_file_bytes=1_000_000)
        first, second = _reports(sample_catalog), _reports(again)
    finally:
        again.close()
    assert len(first) >= 4
    assert [r.id for r in first] == [r.id for r in second]
    assert [r.members for r in first] == [r.members for r in second]
    assert [r.model_dump_json() for r in first] == [r.model_dump_json() for r in second]


def test_detection_ignores_input_order_and_leaves_project_hubs_out(sample_catalog: Catalog) -> None:
    entities = sample_catalog.entities()
    relations = sample_catalog.graph.relations(sample_catalog.tenant)
    reports = detect_communities(entities, relations)
    for turn in range(5):  # Leiden is randomised: only the fixed seed makes every call agree
        shuffled = random.Random(turn).sample(relations, len(relations))
        again = detect_communities(random.Random(turn).sample(entities, len(entities)), shuffled)
        assert [r.model_dump_json() for r in again] == [r.model_dump_json() for r in reports]
    assert not any(m.startswith("project:") for r in reports for m in r.members)
    level0 = [set(r.members) for r in reports if r.level == 0]
    assert all(a.isdisjoint(b) for i, a in enumerate(level0) for b in level0[i + 1 :])


def test_billing_entities_land_together_and_apart_from_auth(sample_catalog: Catalog) -> None:
    reports = _reports(sample_catalog)
    billing = _community_of(reports, GATEWAY)
    auth = _community_of(reports, VERIFIER)
    assert billing.id != auth.id
    assert {
        "method:billing:billing.gateway.PaymentGateway.charge",
        "method:billing:billing.gateway.PaymentGateway.refund",
        "class:billing:billing.gateway.StripeGateway",
        "module:billing:billing.gateway",
    } <= set(billing.members)
    assert {
        "method:auth:internal.tokens.verifier.TokenVerifier.Verify",
        "function:auth:internal.tokens.verifier.parseClaims",
        "module:auth:internal.tokens.verifier",
    } <= set(auth.members)
    assert set(billing.projects) == {"billing"}
    assert set(auth.projects) == {"auth"}


def test_a_report_names_its_central_entities_relations_and_defining_chunks(sample_catalog: Catalog) -> None:
    billing = _community_of(_reports(sample_catalog), GATEWAY)
    gateway = next(e for e in sample_catalog.entities() if e.id == GATEWAY)
    assert "PaymentGateway" in billing.title
    assert billing.entities[0].centrality >= billing.entities[-1].centrality
    assert billing.relation_types.get("CALLS", 0) > 0
    assert gateway.chunk_id in billing.chunks
    stored = sample_catalog.graph.get_chunks(billing.chunks)
    assert set(stored) == set(billing.chunks)
    assert "PaymentGateway" in billing.text and "billing" in billing.text


def test_large_communities_are_split_into_parts_of_their_own(sample_catalog: Catalog) -> None:
    entities = sample_catalog.entities()
    relations = sample_catalog.graph.relations(sample_catalog.tenant)
    reports = detect_communities(entities, relations, split_size=12)
    parents = {r.id: r for r in reports if r.level == 0}
    parts = [r for r in reports if r.level == 1]
    assert parts
    for part in parts:
        assert part.parent in parents
        assert set(part.members) < set(parents[part.parent].members)


def test_an_overview_question_is_answered_from_the_community_path(sample_catalog: Catalog) -> None:
    query = "give me an overview of the billing system"
    assert route(query).query_type == QueryType.OVERVIEW
    result = search(sample_catalog, query, top_k=5, views=GenerationViews(RetrievalSettings()))
    assert "community" in str(result.diagnostics.route)
    head = result.hits[:3]
    assert all(hit.sources["community"] is not None for hit in head)
    assert all(hit.project == "billing" for hit in head)
    communities = result.diagnostics.communities
    assert communities and "billing" in communities[0].projects
    drawn = result.diagnostics.hit_communities
    assert drawn is not None and all(hit.id in drawn for hit in head)


def test_the_community_strategy_can_be_forced_and_scoped_to_projects(sample_catalog: Catalog) -> None:
    result = search(
        sample_catalog,
        "how are customer tokens verified",
        strategy=Strategy.COMMUNITY,
        projects=["auth"],
        views=GenerationViews(RetrievalSettings()),
    )
    assert result.hits
    assert all(set(hit.sources) == {"community"} for hit in result.hits)
    assert all(hit.project == "auth" for hit in result.hits)
    communities = result.diagnostics.communities
    assert communities is not None
    assert all("auth" in c.projects for c in communities)


def test_an_unchanged_reindex_does_not_recompute_and_a_change_does(tmp_path: Path, catalog: Catalog) -> None:
    project = tmp_path / "shop"
    project.mkdir()
    (project / "cart.py").write_text(
        '"""Baskets."""\n\nfrom prices import price_of\n\n\nclass Basket:\n    def total(self):\n'
        "        return sum(price_of(item) for item in self.items)\n\n"
        "    def empty(self):\n        return not self.items\n"
    )
    (project / "prices.py").write_text(
        '"""Prices."""\n\n\ndef price_of(item):\n    return discount(item.price)\n\n\n'
        "def discount(amount):\n    return amount\n"
    )
    index_into(catalog, project, "shop", max_file_bytes=100_000)
    store = open_communities(catalog)
    before = (store.version(), store.graph_hash(catalog.tenant), _reports(catalog))
    assert before[2], "the small project forms at least one community"

    index_into(catalog, project, "shop", max_file_bytes=100_000)
    store = open_communities(catalog)
    assert (store.version(), store.graph_hash(catalog.tenant), _reports(catalog)) == before
    with catalog.writer() as writer:
        assert not sync_communities(writer).recomputed

    (project / "prices.py").write_text(
        '"""Prices."""\n\n\ndef price_of(item):\n    return discount(item.price)\n\n\n'
        "def discount(amount):\n    return round_cents(amount)\n\n\ndef round_cents(amount):\n    return amount\n"
    )
    index_into(catalog, project, "shop", max_file_bytes=100_000)
    store = open_communities(catalog)
    assert store.version() != before[0]
    assert store.graph_hash(catalog.tenant) != before[1]
    members = {m for r in _reports(catalog) for m in r.members}
    assert "function:shop:prices.round_cents" in members


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_two_tight_groups_joined_by_one_mention_are_two_communities(seed: int) -> None:
    def entity(name: str) -> Entity:
        return Entity(id=f"class:p:{name}", name=name, type=EntityType.CLASS, project="p", chunk_id=f"chunk-{name}")

    left, right = [entity(f"L{i}") for i in range(4)], [entity(f"R{i}") for i in range(4)]
    hub = Entity(id="project:p:p", name="p", type=EntityType.PROJECT, project="p")

    def calls(group: list[Entity]) -> list[Relation]:
        return [Relation(source=a.id, type="CALLS", target=b.id, project="p") for a in group for b in group if a != b]

    bridge = Relation(source=left[0].id, type="MENTIONS", target=right[0].id, project="p")
    contains = [Relation(source=hub.id, type="CONTAINS", target=e.id, project="p") for e in left + right]
    reports = detect_communities([hub, *left, *right], [*calls(left), *calls(right), bridge, *contains], seed=seed)
    assert sorted(r.members for r in reports) == [[e.id for e in left], [e.id for e in right]]


def _calls(weights: dict[tuple[int, int], float]) -> tuple[list[Entity], list[Relation]]:
    """Functions f0.. joined by CALLS relations of the given weights (CALLS counts in full toward communities)."""
    names = sorted({n for pair in weights for n in pair})
    entities = [
        Entity(id=f"function:p:f{n}", name=f"f{n}", type=EntityType.FUNCTION, project="p", qualified_name=f"f{n}")
        for n in names
    ]
    relations = [
        Relation(source=f"function:p:f{a}", type="CALLS", target=f"function:p:f{b}", weight=w, project="p")
        for (a, b), w in weights.items()
    ]
    return entities, relations


def test_detection_ends_on_a_graph_whose_leiden_labels_never_settle() -> None:
    # igraph 1.x relabels this partition on every pass, so Leiden "until stable" (n_iterations=-1) never returned.
    weights = {(0, 5): 0.1, (0, 6): 0.1, (1, 5): 2.0, (2, 5): 1.0, (3, 6): 2.0, (4, 6): 1.0}
    entities, relations = _calls(weights)
    found: list[list[CommunityReport]] = []
    worker = threading.Thread(target=lambda: found.append(detect_communities(entities, relations)), daemon=True)
    worker.start()
    worker.join(120)  # it takes milliseconds; a generous bound so that a hang fails instead of stalling the suite
    assert found, "community detection did not return"
    groups = [set(r.members) for r in found[0]]
    assert len(groups) == 2
    assert any({"function:p:f1", "function:p:f2", "function:p:f5"} <= g for g in groups)
    assert any({"function:p:f3", "function:p:f4", "function:p:f6"} <= g for g in groups)


def test_detection_past_its_bound_publishes_the_index_without_new_communities(
    tmp_path: Path, fake_embedder: Embedder
) -> None:
    catalog = Catalog(tmp_path / "index", "default", fake_embedder)
    try:
        index_into(catalog, EXAMPLES / "billing", "billing", community_seconds=1e-9)
        given_up = status(Reader.open(catalog))
        assert given_up.consistent and given_up.projects[0].chunks > 0
        assert list(given_up.stale) == ["communities"]
        assert "community detection exceeded" in given_up.stale["communities"]
        assert _reports(catalog) == []
        views = GenerationViews(RetrievalSettings())
        assert search(catalog, "PaymentGateway charge", top_k=3, views=views).hits  # the rest of the index answers

        index_into(catalog, EXAMPLES / "billing", "billing")  # nothing changed, but it finishes the sync given up
        assert status(Reader.open(catalog)).stale == {}
        assert _reports(catalog)
    finally:
        catalog.close()


def test_a_sync_cut_short_lists_both_derived_stores_as_stale(tmp_path: Path, fake_embedder: Embedder) -> None:
    catalog = Catalog(tmp_path / "index", "default", fake_embedder)
    try:
        index_into(catalog, EXAMPLES / "billing", "billing")
        assert status(Reader.open(catalog)).stale == {}
        with catalog.writer() as writer:
            forget_sync(writer)  # what a sync does first: a run killed after it leaves the stores unconfirmed
        assert status(Reader.open(catalog)).stale == {"graph_vectors": NOT_SYNCED, "communities": NOT_SYNCED}
    finally:
        catalog.close()


def _ring_of_cliques(count: int, size: int) -> tuple[list[Entity], list[Relation]]:
    """`count` cliques of `size` functions in a ring, each joined to the next by one call: for 8 triangles, the
    triangles alone and the triangles in adjacent pairs partition it equally well (modularity 0.625 both)."""
    pairs = [(a, b) for a in range(size) for b in range(a + 1, size)]
    weights = {(size * t + a, size * t + b): 1.0 for t in range(count) for a, b in pairs}
    weights.update({(size * t + size - 1, size * ((t + 1) % count)): 1.0 for t in range(count)})
    return _calls(weights)


def test_detection_starts_from_the_previous_communities_and_keeps_what_is_as_good() -> None:
    """Given the communities before a write, detection starts from them: where they are as good as what it would
    find from scratch, it keeps them (so an edit does not relabel the rest of the index)."""
    entities, relations = _ring_of_cliques(8, 3)
    ids = [e.id for e in sorted(entities, key=lambda e: e.id)]
    by_number = {int(e.name[1:]): e.id for e in entities}
    from_scratch = detect_communities(entities, relations)
    assert sorted(len(r.members) for r in from_scratch) == [3] * 8, "from scratch: the triangles alone"
    pairs = [sorted(by_number[3 * t + i] for t in (2 * p, 2 * p + 1) for i in range(3)) for p in range(4)]
    previous = [CommunityReport.model_construct(level=0, members=members) for members in pairs]
    kept = detect_communities(entities, relations, previous=previous)
    assert sorted(r.members for r in kept) == sorted(pairs)
    assert sorted(m for r in kept for m in r.members) == ids


def test_an_edit_is_placed_without_moving_the_other_communities() -> None:
    """A function added to one clique joins it; every other community keeps its members."""
    entities, relations = _ring_of_cliques(8, 4)
    before = detect_communities(entities, relations)
    added = Entity(id="function:p:f99", name="f99", type=EntityType.FUNCTION, project="p", qualified_name="f99")
    calls = Relation(source=added.id, type="CALLS", target="function:p:f0", project="p")
    calls_back = Relation(source="function:p:f1", type="CALLS", target=added.id, project="p")
    after = detect_communities([*entities, added], [*relations, calls, calls_back], previous=before)
    grown = [r for r in after if added.id in r.members]
    assert len(grown) == 1 and {"function:p:f0", "function:p:f1"} <= set(grown[0].members)
    untouched = [r.members for r in before if "function:p:f0" not in r.members]
    assert all(members in [r.members for r in after] for members in untouched)


def test_a_report_whose_text_is_stored_is_not_embedded_again(fake_embedder: Embedder) -> None:
    """Reports that changed only beyond their text (members past the ones it names) take the stored vector."""
    stored = CommunityReport.model_construct(text="billing: PaymentGateway, refund")
    vector = fake_embedder.embed([stored.text])[0]
    embedded: list[str] = []

    class Counting:
        dim = fake_embedder.dim
        model_name = fake_embedder.model_name

        def embed(self, texts: list[str]) -> object:
            embedded.extend(texts)
            return fake_embedder.embed(texts)

    texts = [stored.text, "auth: TokenVerifier", "auth: TokenVerifier"]
    vectors, count = report_vectors(Counting(), texts, {"key": (stored, vector)})  # type: ignore[arg-type]
    assert count == 1 and embedded == ["auth: TokenVerifier"], "each new text once, the stored one never"
    assert (vectors[0] == vector).all() and (vectors[1] == vectors[2]).all()


def test_a_searched_report_is_parsed_once_and_is_the_stored_one(sample_catalog: Catalog) -> None:
    communities = open_communities(sample_catalog)
    vector = sample_catalog.embedder.embed_query("give me an overview of the billing system")  # type: ignore[union-attr]
    first = communities.search(vector, 5, sample_catalog.tenant)
    again = communities.search(vector, 5, sample_catalog.tenant)
    stored = {r.id: r for r in _reports(sample_catalog)}
    assert first and [(r.id, s) for r, s in first] == [(r.id, s) for r, s in again]
    assert all(r == stored[r.id] for r, _ in first)
    # The second search hands back the reports the first parsed, not new copies.
    assert all(a is b for (a, _), (b, _) in zip(first, again, strict=True))
