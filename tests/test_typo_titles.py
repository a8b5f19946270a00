"""A title written with one typo (issue #19): a name written exactly inside it is not what the question names, and
a short word carries a typo too where it can only stand for a longer or a shorter name word."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.wiki_graph import concept, indexed_passages
from trident.retrieval.path_names import PathName
from trident.retrieval.paths import PathQuery, QueryVectors, run_path, walk_seeds
from trident.retrieval.title_match import TitleIndex
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.protocols import Embedder, SearchFilter
from trident.store.settings import RetrievalSettings

NAMES = ["Swamp Thing (film)", "The Return of Swamp Thing", "Rosa", "Archduchess Rosa of Austria", "Li Zhong"]


@pytest.fixture
def titles() -> TitleIndex:
    return TitleIndex([concept(name) for name in [*NAMES, "The Umbrella Coup"]])


def test_a_name_inside_a_title_written_with_a_typo_is_not_named(titles: TitleIndex) -> None:
    swamp, rosa = concept("Swamp Thing (film)"), concept("Rosa")
    assert titles.inside_a_typo("Who directed The Retuurn Of Swamp Thing?", [swamp]) == {swamp.id}
    assert titles.inside_a_typo("Who is Archduchess Rosa Of Austriia's mother-in-law?", [rosa, swamp]) == {rosa.id}
    # Written without a typo, the longer title is named exactly (the longest name wins); written apart from it, or
    # with a typo in more than one word, the name stands.
    assert titles.inside_a_typo("Who directed The Return Of Swamp Thing?", [swamp]) == set()
    assert titles.inside_a_typo("Who directed Swamp Thing, and The Retuurn?", [swamp]) == set()
    assert titles.inside_a_typo("Who directed The Retuurn Of Swamp Thnig?", [swamp]) == set()
    # Once the name inside is set aside, the title is matched loosely, before it.
    loose = [m.entity.name for m in titles.matches("Who directed The Retuurn Of Swamp Thing?")]
    assert loose[0] == "The Return of Swamp Thing"


def test_a_four_letter_word_carries_a_typo_against_a_longer_or_shorter_name_word(titles: TitleIndex) -> None:
    assert [m.entity.name for m in titles.matches("Who is Li Zhng's grandmother?")] == ["Li Zhong"]  # dropped
    added = titles.matches("Who directed The Umbrella Cooup?")
    other = titles.matches("Who directed The Umbrella Crash?")
    assert added[0].entity.name == other[0].entity.name == "The Umbrella Coup"
    assert added[0].coverage > other[0].coverage
    assert titles.matches("Who is Li Zang's grandmother?") == []  # two letters off: another name


FILMS = [
    ("Swamp Thing (film)", "Swamp Thing is a 1982 American superhero film written and directed by Wes Craven."),
    (
        "The Return of Swamp Thing",
        "The Return of Swamp Thing is a 1989 American superhero film directed by Jim Wynorski, a sequel.",
    ),
    ("Wes Craven", "Wes Craven was an American film director born in Cleveland, Ohio."),
    ("Jim Wynorski", "Jim Wynorski is an American film director born in Glen Cove, New York."),
    ("Cleveland", "Cleveland is a city in the U.S. state of Ohio."),
]


@pytest.fixture
def films(tmp_path: Path, embedder: Embedder) -> Catalog:
    return indexed_passages(tmp_path, embedder, FILMS)


def test_the_walk_starts_from_the_title_written_with_a_typo(films: Catalog, embedder: Embedder) -> None:
    views = GenerationViews(RetrievalSettings())
    try:
        question = PathQuery(
            films,
            "Where was the director of film The Retuurn Of Swamp Thing born?",
            SearchFilter(films.tenant, None),
            views,
            None,
            QueryVectors(embedder),
        )
        seeds = walk_seeds(question)
        assert "Swamp Thing (film)" not in [e.name for e in seeds.named]
        walked = run_path(PathName.PPR, question).hits
        first = views.chunks(films, [walked[0].id])[walked[0].id].title
        assert first == "The Return of Swamp Thing"
    finally:
        films.close()
