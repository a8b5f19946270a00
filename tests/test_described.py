"""A question that names one entity and describes another (issue #19): the words left once its names are taken out
find the described passage, and the walk starts from it as from a name, where the lexical and dense rankings of
those words agree on it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import wiki_graph
from tests.wiki_graph import concept, indexed_passages
from trident.retrieval.described import agreed_head, rest_of
from trident.retrieval.path_names import PathName
from trident.retrieval.paths import PathQuery, run_path, walk_seeds
from trident.retrieval.seeds import WalkSeeds
from trident.retrieval.title_match import TitleIndex
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.protocols import Embedder, ScoredId
from trident.store.settings import RetrievalSettings


def test_the_rest_of_a_question_is_what_it_says_beyond_its_names() -> None:
    rest = rest_of("Who was born first, Andy Summers or the Estonian basketball coach?", {"andy", "summers"})
    assert rest is not None and "Estonian basketball coach" in rest and "Summers" not in rest
    # Around its names a question otherwise says only its relation: nothing there describes an entity.
    assert rest_of("Who is Andy Summers's mother-in-law?", {"andy", "summers"}) is None
    assert rest_of("Where was the director of Andy Summers born?", {"andy", "summers"}) is None
    # A capital that only opens the sentence is not a name.
    assert rest_of("Directors of Andy Summers?", {"andy", "summers"}) is None


def test_the_described_passage_is_one_both_heads_hold() -> None:
    lexical = [ScoredId("a", 9.0), ScoredId("b", 8.0), ScoredId("c", 7.0)]
    assert agreed_head(lexical, [ScoredId("c", 0.6), ScoredId("b", 0.5)]) == "b"  # the lexical order decides
    assert agreed_head(lexical, [ScoredId("x", 0.6)]) is None


def test_a_name_written_with_a_typo_is_not_left_in_the_rest() -> None:
    titles = TitleIndex([concept("Michel Houellebecq"), concept("Teutberga")])
    text = "Who is older, Michel Houellbecq or the Estonian coach?"
    assert titles.written_words(text, ["Michel Houellebecq"]) == {"michel", "houellbecq"}


def test_a_described_passage_makes_the_walk_sure_and_weighs_as_a_name() -> None:
    graph = wiki_graph.song_graph()
    song = concept("Changed It")
    seeds = WalkSeeds([song], described=["c-Trinidad"])
    assert seeds.confident and WalkSeeds(described=["c-Trinidad"]).confident
    weights = seeds.restart(graph)
    assert weights[graph.index["c:c-Trinidad"]] > 0.3 * sum(weights.values())


PEOPLE = [
    ("Andy Summers", "Andy Summers is an English guitarist, born on 31 December 1942 in Poulton-le-Fylde."),
    ("Tiit Sokk", "Tiit Sokk is an Estonian basketball coach and former player, born on 15 June 1964 in Tallinn."),
    ("Ott Lepland", "Ott Lepland is an Estonian singer who won the fourth season of Eesti otsib superstaari."),
    ("Dave Brown", "Dave Brown is an American basketball coach at a college in Ohio, born in 1971."),
    ("The Police", "The Police were an English rock band formed in London in 1977 with Andy Summers on guitar."),
    ("Poulton-le-Fylde", "Poulton-le-Fylde is a market town in Lancashire, England."),
]


@pytest.fixture
def people(tmp_path: Path, embedder: Embedder) -> Catalog:
    return indexed_passages(tmp_path, embedder, PEOPLE)


def test_the_walk_starts_from_the_described_person_beside_the_named_one(people: Catalog, embedder: Embedder) -> None:
    views = GenerationViews(RetrievalSettings())

    def query(text: str) -> PathQuery:
        return wiki_graph.question(people, views, embedder, text)

    def title_of(chunk_id: str) -> str:
        return wiki_graph.title_of(people, views, chunk_id)

    try:
        question = query("Who was born first, Andy Summers or the Estonian basketball coach?")
        seeds = walk_seeds(question)
        assert [e.name for e in seeds.named] == ["Andy Summers"]
        assert [title_of(c) for c in seeds.described] == ["Tiit Sokk"]
        walked = [title_of(hit.id) for hit in run_path(PathName.PPR, question).hits[:2]]
        assert sorted(walked) == ["Andy Summers", "Tiit Sokk"]
        # A question saying only its relation around the name walks from the name alone.
        assert not walk_seeds(query("Who was the mother-in-law of Andy Summers?")).described
    finally:
        people.close()
