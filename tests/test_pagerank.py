"""Personalized PageRank on small hand-built graphs: what a walk from the query's entities reaches first."""

from __future__ import annotations

import itertools

import pytest

from tests import wiki_graph
from tests.wiki_graph import concept
from trident.retrieval.pagerank import EntityChunkGraph
from trident.store.schema import Entity, EntityType


@pytest.fixture
def song_graph() -> EntityChunkGraph:
    return wiki_graph.song_graph()


def test_the_seed_passage_comes_first_and_a_two_hop_passage_beats_a_one_hop_distractor(
    song_graph: EntityChunkGraph,
) -> None:
    ranked = [hit.id for hit in song_graph.rank([concept("Changed It")], limit=10)]
    assert ranked[0] == "c-Changed It"
    # The singer's passage is two hops away (song -> its passage -> the singer it names -> her passage); the chart
    # passage is one hop away but only mentions the song in passing.
    assert ranked.index("c-Nicki Minaj") < ranked.index("c-Chart 2014")


def test_rare_seeds_weigh_more_than_common_ones(song_graph: EntityChunkGraph) -> None:
    weights = song_graph.seed_weights([concept("Trinidad"), concept("Nicki Minaj")])
    by_name = {song_graph.nodes[i]: w for i, w in weights.items()}
    assert by_name["e:concept:wiki:Trinidad"] > by_name["e:concept:wiki:Nicki Minaj"]


def test_without_a_known_seed_the_walk_returns_nothing(song_graph: EntityChunkGraph) -> None:
    assert song_graph.rank([concept("Unknown")], limit=10) == []
    assert song_graph.rank([], limit=10) == []


def test_the_ranking_is_deterministic_and_respects_the_limit(song_graph: EntityChunkGraph) -> None:
    first = song_graph.rank([concept("Changed It"), concept("Trinidad")], limit=3)
    assert first == song_graph.rank([concept("Changed It"), concept("Trinidad")], limit=3)
    assert len(first) == 3
    assert [h.score for h in first] == sorted((h.score for h in first), reverse=True)


def test_damping_outside_zero_to_one_is_refused(song_graph: EntityChunkGraph) -> None:
    with pytest.raises(ValueError, match="damping"):
        song_graph.rank([concept("Changed It")], limit=5, damping=1.0)


def test_project_hubs_are_left_out_of_the_walk() -> None:
    hub = Entity(id="project:wiki:wiki", name="wiki", type=EntityType.PROJECT, project="wiki")
    graph = EntityChunkGraph.build([concept("A"), hub], [])
    assert "e:project:wiki:wiki" not in graph.index


def test_spreading_from_the_active_nodes_equals_the_matrix_product() -> None:
    """The walk reads its active columns from the matrix's arrays: the same sum as slicing the matrix."""
    import numpy as np
    from scipy import sparse

    rng = np.random.default_rng(3)
    graph = EntityChunkGraph.__new__(EntityChunkGraph)
    for density in (0.02, 0.2):
        transition = sparse.random(40, 40, density=density, random_state=rng, format="csc")
        object.__setattr__(graph, "transition", transition)
        for active in (np.array([0]), np.array([3, 7, 39]), np.arange(40)):
            pushed = rng.random(len(active))
            residual = rng.random(40)
            expected = residual + transition[:, active] @ pushed
            graph._spread(residual, active, pushed)
            assert np.allclose(residual, expected)


def _random_walk_graph() -> tuple[EntityChunkGraph, list[dict[int, float]]]:
    """300 passages with random mentions, a hub among them, a passage with nowhere to go; three restarts."""
    import random

    rng = random.Random(5)
    names = [f"P{i}" for i in range(300)]
    relations = [wiki_graph.mentions(rng.choice(names), rng.choice(names)) for _ in range(900)]
    relations += [wiki_graph.mentions("P0", name) for name in names[1:200]]  # a hub: pushes along 200 edges
    edges = [(r.source, str(r.type), r.target, r.evidence or "", r.weight) for r in relations]
    # A passage whose only edge weighs nothing: a walker there has nowhere to go and restarts at the seeds.
    edges.append(("concept:wiki:P1", "MENTIONS", "concept:wiki:P2", "x", 0.0))
    graph = EntityChunkGraph.from_edges([concept(n) for n in names], edges)
    assert graph.dangling[graph.index["c:x"]]
    restarts = [
        graph.seed_weights([concept("P0")]),
        graph.seed_weights([concept("P7"), concept("P9")]),
        graph.restart_of({"concept:wiki:P3": 1.0}, {"x": 0.5, "c-P5": 0.25}),
    ]
    return graph, restarts


def test_the_walk_scores_the_same_to_the_last_bit_however_its_rounds_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rounds from a few nodes run in plain Python, larger ones on the arrays: the same sums in the same order."""
    from trident.retrieval import pagerank

    graph, restarts = _random_walk_graph()
    rankings = []
    for plain_round in (0, pagerank.PLAIN_ROUND, 10**9):  # every round on the arrays, either, every round plain
        monkeypatch.setattr(pagerank, "PLAIN_ROUND", plain_round)
        rankings.append([[(h.id, h.score) for h in graph.rank_from(r, limit=300)] for r in restarts])
    assert rankings[0] == rankings[1] == rankings[2]
    assert all(len(ranking) > 50 for ranking in rankings[0])


def test_the_walk_is_within_its_push_error_of_the_exact_pagerank() -> None:
    """The push leaves at most PUSH_THRESHOLD unspread at each node: every chunk's score is within that much mass of
    the exact personalized PageRank (iterated to convergence), and chunks the exact one tells apart by more keep
    their order."""
    import numpy as np

    from trident.retrieval.pagerank import DEFAULT_DAMPING, PUSH_THRESHOLD

    graph, restarts = _random_walk_graph()
    for weights in restarts:
        restart = np.zeros(len(graph.nodes))
        for position, weight in weights.items():
            restart[position] = weight
        restart /= restart.sum()
        exact = restart.copy()
        for _ in range(500):  # pi = (1 - d) s + d (T pi + dangling mass of pi * s)
            spread = graph.transition @ exact + exact[graph.dangling].sum() * restart
            exact = (1 - DEFAULT_DAMPING) * restart + DEFAULT_DAMPING * spread
        bound = PUSH_THRESHOLD * len(graph.nodes)  # all of the unspread residual, wherever it would have gone
        walked = {h.id: h.score for h in graph.rank_from(weights, limit=len(graph.nodes))}
        for node in graph.chunk_nodes.tolist():
            assert abs(walked.get(graph.nodes[node][2:], 0.0) - exact[node]) <= bound
        ranked = list(walked)
        for a, b in itertools.pairwise(ranked):
            assert exact[graph.index[f"c:{a}"]] > exact[graph.index[f"c:{b}"]] - 2 * bound


def test_chunks_outside_the_graph_rank_as_nodes_without_edges_would() -> None:
    """Seeded chunks the graph does not hold (no title, no edge) rank beside the walk's nodes as the exact
    personalized PageRank ranks them over the graph with those chunks added as nodes without edges."""
    import numpy as np
    from scipy import sparse

    from trident.retrieval.pagerank import DEFAULT_DAMPING, PUSH_THRESHOLD

    graph, restarts = _random_walk_graph()
    outside = {"untitled-a": 0.4, "untitled-b": 0.1}
    size = len(graph.nodes) + len(outside)
    transition = sparse.block_diag((graph.transition, sparse.csc_matrix((len(outside), len(outside))))).tocsc()
    dangling = np.concatenate([graph.dangling, np.ones(len(outside), dtype=bool)])
    for weights in restarts:
        restart = np.zeros(size)
        for position, weight in weights.items():
            restart[position] = weight
        restart[len(graph.nodes) :] = list(outside.values())
        restart /= restart.sum()
        exact = restart.copy()
        for _ in range(500):
            spread = transition @ exact + exact[dangling].sum() * restart
            exact = (1 - DEFAULT_DAMPING) * restart + DEFAULT_DAMPING * spread
        walked = {h.id: h.score for h in graph.rank_from(weights, limit=size, outside=outside)}
        # The walk's scores are the exact mass over one common factor, read off an outside chunk.
        factor = exact[len(graph.nodes)] / walked["untitled-a"]
        assert exact[len(graph.nodes) + 1] == pytest.approx(walked["untitled-b"] * factor)
        bound = PUSH_THRESHOLD * size * factor
        for node in graph.chunk_nodes.tolist():
            assert abs(walked.get(graph.nodes[node][2:], 0.0) * factor - exact[node]) <= bound
    # Seeded only outside the graph, the walk ranks those chunks by their weight (it used to rank nothing).
    assert [(h.id, h.score) for h in graph.rank_from({}, limit=5, outside=outside)] == [
        ("untitled-a", 0.8),
        ("untitled-b", pytest.approx(0.2)),
    ]
    # A chunk the graph holds is walked, not ranked beside it.
    assert graph.rank_from({}, limit=5, outside={"c-P3": 1.0}) == []


def test_a_walk_cut_at_its_round_bound_says_so(
    song_graph: EntityChunkGraph, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from trident.retrieval import pagerank

    monkeypatch.setattr(pagerank, "MAX_ROUNDS", 3)
    with caplog.at_level("WARNING", logger="trident.retrieval.pagerank"):
        ranked = song_graph.rank([concept("Changed It")], limit=10)
    assert ranked and ranked[0].id == "c-Changed It"
    assert "stopped after 3 push rounds" in caplog.text
