"""A walk over passages the graph does not hold (issue #19): a corpus without titles (CoSQA's functions, a wiki
export without them) gives the walk no entity to go through, so it starts from the lexical and dense heads and ranks
them as nodes without edges, instead of ranking nothing."""

from __future__ import annotations

from pathlib import Path

from tests import wiki_graph
from tests.wiki_graph import concept, indexed_passages, question, title_of
from trident.retrieval.pagerank import DEFAULT_DAMPING
from trident.retrieval.path_names import PathName
from trident.retrieval.paths import run_path
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.seeds import PASSAGE_SHARE, PASSAGES_BESIDE_NAMED, WalkSeeds
from trident.retrieval.views import GenerationViews
from trident.store.protocols import Embedder, ScoredId

UNTITLED = [
    ("", "def read_csv(path): open the file and parse each comma separated line into a dict of columns"),
    ("", "def retry(call, attempts): call again after an exponential backoff until it succeeds"),
    ("", "def flatten(items): yield every element of every nested list in order"),
]


def test_the_walk_over_untitled_passages_ranks_the_heads_it_starts_from(tmp_path: Path, embedder: Embedder) -> None:
    catalog = indexed_passages(tmp_path, embedder, UNTITLED)
    try:
        views = GenerationViews(RetrievalSettings())
        query = question(catalog, views, embedder, "parse a csv file into dicts")
        walked = run_path(PathName.PPR, query)
        lexical = run_path(PathName.LEXICAL, question(catalog, views, embedder, "parse a csv file into dicts"))
        assert walked.hits and walked.hits[0].id == lexical.hits[0].id  # it used to be empty
        assert "comma separated" in views.chunks(catalog, [walked.hits[0].id])[walked.hits[0].id].text
        assert title_of(catalog, views, walked.hits[0].id) == ""
    finally:
        catalog.close()


def test_heads_outside_the_graph_take_their_share_of_the_restart_beside_the_walks_nodes() -> None:
    graph = wiki_graph.song_graph()
    heads = [[ScoredId("untitled", 2.0), ScoredId("c-Changed It", 1.0)]]
    alone = WalkSeeds((), {}, heads)
    # The passages' share is split by 1/rank among both heads, the one the graph lacks included.
    assert alone.outside(graph) == {"untitled": PASSAGE_SHARE * 1.0 / 1.5}
    assert sum(alone.restart(graph).values()) == PASSAGE_SHARE * 0.5 / 1.5
    ranked = [hit.id for hit in alone.walk(graph, 10, DEFAULT_DAMPING)]
    assert set(ranked[:2]) == {"c-Changed It", "untitled"}
    # Beside a named entity the heads only fill in, outside the graph as inside it.
    named = WalkSeeds([concept("Nicki Minaj")], {}, heads)
    assert named.outside(graph) == {"untitled": PASSAGE_SHARE * PASSAGES_BESIDE_NAMED / 1.5}
    walked = [hit.id for hit in named.walk(graph, 10, DEFAULT_DAMPING)]
    assert walked[0] == "c-Nicki Minaj" and "untitled" in walked
