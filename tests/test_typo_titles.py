"""A title written with one typo (issue #19): a name written exactly inside it is not what the question names, and
a short word carries a typo too where it can only stand for a longer or a shorter name word."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import wiki_graph
from tests.wiki_graph import concept, indexed_passages, title_of
from trident.retrieval.path_names import PathName
from trident.retrieval.paths import run_path, walk_seeds
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.title_match import TitleIndex
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.protocols import Embedder

NAMES = ["Swamp Thing (film)", "The Return of Swamp Thing", "Rosa", "Archduchess Rosa of Austria", "Li Zhong"]


@pytest.fixture
def titles() -> TitleIndex:
    return TitleIndex([concept(name) for name in [*NAMES, "The Umbrella Coup", "Back in the U.S.A.", "Back"]])


def named(titles: TitleIndex, text: str, exact: list[str]) -> tuple[list[str], list[str]]:
    """The titles the text writes with a typo, and the names written exactly inside them."""
    entities = [concept(name) for name in exact]
    found, inside = titles.written_with_a_typo(text, entities)
    return [e.name for e in found], [e.name for e in entities if e.id in inside]


def test_a_title_written_whole_with_one_typo_is_named_and_not_the_name_inside_it(titles: TitleIndex) -> None:
    swamp = ["Swamp Thing (film)"]
    assert named(titles, "Who directed The Retuurn Of Swamp Thing?", swamp) == (["The Return of Swamp Thing"], swamp)
    assert named(titles, "Who is Archduchess Rosa Of Austriia's mother-in-law?", ["Rosa", *swamp]) == (
        ["Archduchess Rosa of Austria"],
        ["Rosa"],
    )
    # Written exactly, the title is an exact name (the longest name wins there); written apart from the name, or
    # with a typo in two words, or as one word, it is not named, and the name stands.
    assert named(titles, "Who directed The Return Of Swamp Thing?", swamp) == ([], [])
    assert named(titles, "Who directed Swamp Thing, and The Retuurn?", swamp) == ([], [])
    assert named(titles, "Who directed The Retuurn Of Swamp Thnig?", swamp) == ([], [])
    assert named(titles, "Who was Rossa?", []) == ([], [])
    # Inside a title written otherwise exactly, two letters swapped in a four-letter word are a typo too.
    assert named(titles, "Who wrote Bcak In The U.S.A.?", []) == (["Back in the U.S.A."], [])
    assert named(titles, "Who wrote Bcak?", []) == ([], [])


def test_a_title_written_exactly_is_named_and_not_one_a_letter_away_from_it() -> None:
    titles = TitleIndex([concept("The Umbrella Coup"), concept("The Umbrella Coupe")])
    assert named(titles, "Who wrote The Umbrella Coupe?", ["The Umbrella Coupe"]) == ([], [])
    assert named(titles, "Who wrote The Umbrella Coupe?", []) == (["The Umbrella Coup"], [])


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
        question = wiki_graph.question(
            films, views, embedder, "Where was the director of film The Retuurn Of Swamp Thing born?"
        )
        seeds = walk_seeds(question)
        assert "Swamp Thing (film)" not in [e.name for e in seeds.named]
        walked = run_path(PathName.PPR, question).hits
        assert title_of(films, views, walked[0].id) == "The Return of Swamp Thing"
    finally:
        films.close()
