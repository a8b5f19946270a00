"""A walk whose seeds are not sure (issue #19): it does not lead, yet the second hops it reached stay in the top of
the fused ranking; and entities only near the question's meaning seed it only while no sure name does."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import wiki_graph
from tests.wiki_graph import indexed_passages
from trident.retrieval.fusion import PrimaryFirst, PrimaryMerged, WeightedSum
from trident.retrieval.path_names import PathName, PathRun
from trident.retrieval.paths import PathHits, walk_seeds
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.search_fuse import fuse_runs
from trident.retrieval.search_plan import plan_search
from trident.retrieval.search_runs import PathRuns
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.protocols import Embedder, ScoredId
from trident.store.schema import Entity

LEXICAL, SEMANTIC, PPR = PathRun(PathName.LEXICAL), PathRun(PathName.SEMANTIC), PathRun(PathName.PPR)

# "When did Lothiar II's mother die?": BM25 and the dense path hold Lothair II's passage and noise; the walk from
# them reaches his mother's passage (a second hop), scored below its top seed but above the other heads.
LISTS = {
    LEXICAL: [ScoredId("noise-a", 18.3), ScoredId("noise-b", 18.0), ScoredId("lothair", 17.2), ScoredId("z", 9.0)],
    SEMANTIC: [ScoredId("lothair", 0.57), ScoredId("noise-c", 0.50), ScoredId("noise-a", 0.48), ScoredId("y", 0.1)],
    PPR: [
        ScoredId("lothair", 0.108),
        ScoredId("mother", 0.060),
        ScoredId("noise-a", 0.050),
        ScoredId("noise-c", 0.044),
        ScoredId("noise-b", 0.030),
        ScoredId("far", 0.001),
    ],
}
WEIGHTS = {LEXICAL: 0.6, SEMANTIC: 0.8, PPR: 1.2}


def ids(items: list) -> list[str]:
    return [item.id for item in items]


def test_a_walk_that_does_not_lead_still_places_its_second_hop_where_it_scores_it() -> None:
    plain = ids(WeightedSum().fuse(LISTS, WEIGHTS))
    assert plain.index("mother") >= 4  # the weighted sum sinks the hop below every head
    merged = ids(PrimaryMerged(WeightedSum(), PathName.PPR).fuse(LISTS, WEIGHTS))
    assert merged[:2] == ["lothair", "mother"]
    # Every other hit keeps the weighted sum's order; nothing is lost or added.
    assert [i for i in merged if i != "mother"] == [i for i in plain if i != "mother"]
    assert sorted(merged) == sorted(plain)


def test_a_walk_that_found_nothing_beyond_the_heads_leaves_the_fusion_unchanged() -> None:
    # A corpus without entities (SciFact): the walk only re-ranks the passages it started from.
    lists = {**LISTS, PPR: [ScoredId("noise-c", 0.2), ScoredId("lothair", 0.1), ScoredId("noise-a", 0.05)]}
    merger = PrimaryMerged(WeightedSum(), PathName.PPR)
    assert merger.own(lists) == [] and merger.fuse(lists, WEIGHTS) == WeightedSum().fuse(lists, WEIGHTS)
    # Only the walk's own head counts (a hop it ranks sixth is not merged in), and a weak hop in its head passes
    # only the fused hits the walk scores lower.
    deep = {**LISTS, PPR: [*LISTS[PPR][:1], *LISTS[PPR][2:], ScoredId("mother", 0.0005)]}
    assert merger.own(deep) == ["far"]
    assert ids(merger.fuse(deep, WEIGHTS))[:5] == ["lothair", "noise-a", "noise-c", "noise-b", "far"]


def test_a_search_with_an_unsure_walk_merges_its_hops_and_a_sure_walk_leads() -> None:
    plan = plan_search("When did Lothiar II's mother die?", "auto", None, None)
    assert isinstance(plan.fuser, PrimaryFirst) and plan.fuser.primary is PathName.PPR
    unsure = PathRuns(plan.runs, {run: PathHits(LISTS[run], confident=run.path != PathName.PPR) for run in plan.runs})
    fused = fuse_runs(plan, unsure, explain=False)
    assert isinstance(fused.fuser, PrimaryMerged)
    assert ids(fused.items)[:2] == ["lothair", "mother"]
    sure = PathRuns(plan.runs, {run: PathHits(LISTS[run]) for run in plan.runs})
    assert ids(fuse_runs(plan, sure, explain=False).items)[:5] == [h.id for h in LISTS[PPR][:5]]


@pytest.mark.parametrize(
    ("seed_types", "merged"),
    [
        (["Concept"], True),  # a title: its second hop is what a multi-hop question asks for
        (["Method", "Concept"], True),
        ([], True),  # from the heads only
        (["Method", "Class"], False),  # code: the walk reaches structural neighbours, not answers
        (["Function", "Section"], False),  # ... nor the sections around a project's docs
    ],
)
def test_an_unsure_walk_from_code_only_joins_the_fusion_as_one_more_list(seed_types: list[str], merged: bool) -> None:
    plan = plan_search("When did Lothiar II's mother die?", "auto", None, None)
    seeds = [Entity(id=f"{t}:p:e{i}", name=f"e{i}", type=t, project="p") for i, t in enumerate(seed_types)]
    runs = PathRuns(
        plan.runs,
        {run: PathHits(LISTS[run], seeds if run.path is PathName.PPR else [], confident=False) for run in plan.runs},
    )
    fused = fuse_runs(plan, runs, explain=False)
    assert isinstance(fused.fuser, PrimaryMerged) is merged
    plain = ids(WeightedSum().fuse(LISTS, {run: plan.route.weights.get(run.path, 1.0) for run in LISTS}))
    assert (ids(fused.items) == plain) is not merged
    assert (ids(fused.items)[:2] == ["lothair", "mother"]) is merged


WIKI = [
    ("Lothair II", "Lothair II was a king of Lotharingia. His mother was Ermengarde of Tours."),
    ("Ermengarde of Tours", "Ermengarde of Tours was a Frankish queen. She died in 851 at Erstein."),
    ("Teutberga", "Teutberga was a queen of Lotharingia, married to Lothair II."),
    ("Erstein", "Erstein is a town in Alsace with an abbey founded by a queen."),
]


@pytest.fixture
def wiki(tmp_path: Path, embedder: Embedder) -> Catalog:
    return indexed_passages(tmp_path, embedder, WIKI)


def test_entities_near_the_meaning_seed_the_walk_only_while_no_sure_name_does(
    wiki: Catalog, embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    views = GenerationViews(RetrievalSettings())
    guess = next(e for e in wiki.entities() if e.name == "Erstein")
    asked: list[str] = []

    def nearest(catalog: Catalog, views: GenerationViews, vector: object, projects: object) -> list[Entity]:
        asked.append("nearby")
        return [guess]

    monkeypatch.setattr("trident.retrieval.paths.vector_seeds", nearest)

    def seeds_for(text: str):
        return walk_seeds(wiki_graph.question(wiki, views, embedder, text, seed_by_vectors=True))

    try:
        # One typo: a loose name, and the lexical or dense head holds its passage, so the walk is sure of it.
        sure = seeds_for("Who was the mother of Lothiar II?")
        assert sure.confident and [e.name for e in sure.entities()] == ["Lothair II"] and asked == []
        # No name at all: the entities near the meaning are all the walk has besides the heads.
        vague = seeds_for("which frankish queen died in alsace")
        assert not vague.confident and list(vague.nearby) == [guess] and asked == ["nearby"]
    finally:
        wiki.close()
