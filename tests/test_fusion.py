"""The fusers on hand-built ranked lists: RRF, weighted sum, max, intersection, and the primary path leading."""

from __future__ import annotations

import pytest

from trident.retrieval.fusion import (
    RRF,
    FusionMethod,
    Intersection,
    MaxScore,
    PrimaryFirst,
    WeightedSum,
    make_fuser,
)
from trident.retrieval.path_names import PathName, PathRun
from trident.retrieval.router import QueryType, route
from trident.store.errors import ArgumentError
from trident.store.protocols import ScoredId

LEXICAL, SEMANTIC, GRAPH = PathRun(PathName.LEXICAL), PathRun(PathName.SEMANTIC), PathRun(PathName.GRAPH)


def ranked(*ids: str) -> list[ScoredId]:
    """A list scored like an engine would: descending, 10, 9, 8, ..."""
    return [ScoredId(id_, 10.0 - i) for i, id_ in enumerate(ids)]


def test_rrf_rewards_agreement_and_breaks_ties_by_id() -> None:
    fused = RRF().fuse({LEXICAL: ranked("x", "y"), SEMANTIC: ranked("y", "x")})
    assert [item.id for item in fused] == ["x", "y"]  # equal scores: the smaller id first
    assert fused[0].score == pytest.approx(fused[1].score)
    fused = RRF().fuse({LEXICAL: ranked("x", "y", "z"), SEMANTIC: ranked("y", "z")})
    assert fused[0].id == "y"


def test_rrf_refuses_a_k_that_is_not_positive() -> None:
    with pytest.raises(ValueError, match="k must be > 0"):
        make_fuser("rrf", k=0)


def test_weighted_sum_keeps_a_clear_winner_that_rrf_would_flatten() -> None:
    lists = {
        LEXICAL: [ScoredId("sure", 50.0), ScoredId("b", 5.0), ScoredId("c", 4.9)],
        SEMANTIC: [ScoredId("b", 0.60), ScoredId("c", 0.59), ScoredId("sure", 0.58), ScoredId("d", 0.10)],
    }
    assert WeightedSum().fuse(lists)[0].id == "sure"
    assert RRF().fuse(lists)[0].id != "sure"


def test_weights_change_which_path_wins() -> None:
    lists = {LEXICAL: ranked("l1", "l2"), SEMANTIC: ranked("s1", "s2")}
    assert WeightedSum().fuse(lists, {LEXICAL: 1.0, SEMANTIC: 0.2})[0].id == "l1"
    assert WeightedSum().fuse(lists, {LEXICAL: 0.2, SEMANTIC: 1.0})[0].id == "s1"
    assert MaxScore().fuse(lists, {LEXICAL: 0.2, SEMANTIC: 1.0})[0].id == "s1"


def test_the_primary_head_leads_even_when_other_lists_agree_on_something_else() -> None:
    lists = {
        GRAPH: ranked("g1", "g2", "g3"),
        LEXICAL: [ScoredId("noise", 10.0), ScoredId("g2", 9.5), ScoredId("z", 0.0)],
        SEMANTIC: ranked("noise", "g3"),
    }
    plain = WeightedSum().fuse(lists)
    assert plain[0].id == "noise"
    led = PrimaryFirst(WeightedSum(), PathName.GRAPH, depth=2).fuse(lists)
    # The head is the primary's top two in its own order; the rest follows in the inner fusion's order.
    assert [item.id for item in led] == ["g1", "g2", "noise", "g3", "z"]
    assert sorted(i.id for i in led) == sorted(i.id for i in plain)
    reordered = PrimaryFirst(WeightedSum(), PathName.GRAPH, depth=2, reorder=True).fuse(lists)
    # Reordering lets the others order the head (g2 gains from lexical) but not displace it.
    assert [item.id for item in reordered] == ["g2", "g1", "noise", "g3", "z"]


def test_a_primary_path_that_found_nothing_leaves_the_fusion_unchanged() -> None:
    lists = {GRAPH: [], LEXICAL: ranked("a", "b"), SEMANTIC: ranked("b", "c")}
    inner = WeightedSum()
    assert PrimaryFirst(inner, PathName.GRAPH).fuse(lists) == inner.fuse(lists)


def test_an_intersection_under_a_leading_primary_keeps_only_what_every_list_found() -> None:
    # The primary's head holds ids the intersection drops: they stay dropped, the rest of the head still leads.
    lists = {GRAPH: ranked("g1", "both", "g3"), LEXICAL: ranked("x", "both", "g3")}
    led = PrimaryFirst(Intersection(), PathName.GRAPH, depth=3).fuse(lists)
    assert [item.id for item in led] == ["both", "g3"]
    merged = PrimaryFirst(Intersection(), PathName.GRAPH, depth=3).unsure().fuse(lists)
    assert sorted(item.id for item in merged) == ["both", "g3"]


def test_the_primary_head_counts_its_expansions_too() -> None:
    lists = {GRAPH: ranked("g1"), PathRun(PathName.GRAPH, 1): ranked("g9"), LEXICAL: ranked("x", "y")}
    led = PrimaryFirst(WeightedSum(), PathName.GRAPH, depth=1).fuse(lists)
    assert [item.id for item in led[:2]] == ["g1", "g9"]
    assert led[1].ranks == {GRAPH: None, PathRun(PathName.GRAPH, 1): 1, LEXICAL: None}


def test_a_run_is_labelled_by_its_path_and_the_expansion_it_searched() -> None:
    assert GRAPH.label == str(GRAPH) == "graph"
    assert PathRun(PathName.SEMANTIC, 2).label == "semantic#2"
    assert PathRun(PathName.SEMANTIC, 2) == PathRun(PathName.SEMANTIC, 2) != PathRun(PathName.SEMANTIC)


def test_primary_depth_must_be_positive() -> None:
    with pytest.raises(ValueError, match="depth"):
        PrimaryFirst(WeightedSum(), PathName.GRAPH, depth=0)


def test_unknown_fusion_names_list_the_known_ones() -> None:
    with pytest.raises(ArgumentError, match="unknown fusion 'borda'; known: rrf, weighted_sum, max, intersection"):
        make_fuser("borda")
    assert str(make_fuser(FusionMethod.INTERSECTION)).startswith("intersection(rrf")


@pytest.mark.parametrize(
    "query",
    [
        "python check if a variable is iterable",
        "how to join two data frames",
        "remove a directory recursively in golang",
    ],
)
def test_a_programming_task_in_words_lets_the_dense_path_lead(query: str) -> None:
    plan = route(query)
    assert plan.query_type == QueryType.GENERAL
    assert "code-task-in-words" in plan.rules_fired
    assert plan.primary == "semantic"
    assert plan.weights["lexical"] < plan.weights["semantic"]


@pytest.mark.parametrize(
    "query",
    [
        "python retry_with_backoff helper",  # a code name BM25 can match exactly
        "where is PaymentGateway.charge defined",
        "protein misfolding causes amyloid plaques",
    ],
)
def test_queries_with_code_names_or_no_code_keep_their_preset(query: str) -> None:
    plan = route(query)
    assert "code-task-in-words" not in plan.rules_fired
    assert plan.primary != "semantic"
