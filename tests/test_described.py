"""A question that names one entity and describes another, or describes the one it starts from (issue #19): the
words left once its names are taken out (all of them, when it names nothing) find the described passage, one that
writes every name-like word of them, and the walk starts from it: as from a name where the lexical and dense
rankings of those words agree on it, at a lower weight and not surely where only the lexical one holds it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests import wiki_graph
from tests.wiki_graph import concept, indexed_passages
from trident.retrieval.described import Described, described_passage, rest_of
from trident.retrieval.path_names import PathName
from trident.retrieval.paths import PathQuery, run_path, walk_seeds
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.seeds import UNAGREED_WEIGHT, WalkSeeds
from trident.retrieval.title_match import TitleIndex
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.protocols import Embedder, ScoredId
from trident.store.schema import Chunk, DocumentKind


def test_the_rest_of_a_question_is_what_it_says_beyond_its_names() -> None:
    rest = rest_of("Who was born first, Andy Summers or the Estonian basketball coach?", {"andy", "summers"})
    assert rest is not None and "Estonian basketball coach" in rest and "Summers" not in rest
    # Around its names a question otherwise says only its relation: nothing there describes an entity.
    assert rest_of("Who is Andy Summers's mother-in-law?", {"andy", "summers"}) is None
    assert rest_of("Where was the director of Andy Summers born?", {"andy", "summers"}) is None
    # A capital that only opens the sentence is not a name.
    assert rest_of("Directors of Andy Summers?", {"andy", "summers"}) is None


def _passage(chunk_id: str, title: str, text: str) -> Chunk:
    return Chunk(
        id=chunk_id,
        doc_id=chunk_id,
        project="wiki",
        path=chunk_id,
        text=text,
        start_line=1,
        end_line=1,
        kind=DocumentKind.TEXT,
        title=title,
    )


def _head(*ids: str) -> Callable[[], list[ScoredId]]:
    """A dense head of the rest, given when asked (scores falling in the given order)."""
    return lambda: [ScoredId(chunk_id, 1.0 - rank / 10) for rank, chunk_id in enumerate(ids)]


PASSAGES = {
    "a": _passage("a", "Place of birth", "The place of birth is where a person was born."),
    "b": _passage("b", "Tiit Sokk", "Tiit Sokk is an Estonian basketball coach."),
    "c": _passage("c", "Ott Lepland", "Ott Lepland is an Estonian singer."),
}


def test_the_described_passage_writes_every_name_like_word_of_the_rest() -> None:
    rest = "Who was born first , or the Estonian basketball coach ?"
    lexical = [ScoredId("a", 9.0), ScoredId("b", 8.0), ScoredId("c", 7.0)]
    # Both heads hold it: walked from as a name.
    assert described_passage(rest, lexical, _head("c", "b"), PASSAGES) == Described("b", agreed=True)
    # Only the lexical head holds it: still the first passage writing "Estonian", but unagreed.
    assert described_passage(rest, lexical, _head("x"), PASSAGES) == Described("b", agreed=False)
    # A passage both heads hold that does not write the rest's names describes nothing the question meant.
    assert described_passage(rest, lexical[:1], _head("a"), PASSAGES) is None
    # A name-like word no head writes (a qualifier with a typo: "Flm") leaves nothing described.
    assert described_passage("the director of film ( Flm )", lexical, _head("a"), PASSAGES) is None
    # The lexical order decides between two passages that write the words.
    assert described_passage("the Estonian", lexical, _head(), PASSAGES) == Described("b", agreed=False)


def test_the_dense_head_is_read_only_where_a_lexical_head_passage_writes_the_words() -> None:
    """The dense head of a rest beside names is one more query embedding: a rest no passage of its lexical head
    writes has nothing for it to agree on."""
    asked: list[str] = []

    def dense() -> list[ScoredId]:
        asked.append("dense")
        return [ScoredId("b", 0.9)]

    lexical = [ScoredId("a", 9.0), ScoredId("c", 7.0)]
    assert described_passage("Who was born first , or the Latvian coach ?", lexical, dense, PASSAGES) is None
    assert asked == []
    assert described_passage("the Estonian coach", lexical, dense, PASSAGES) == Described("c", agreed=False)
    assert asked == ["dense"]


def test_a_text_naming_nothing_is_about_the_first_passage_both_its_heads_open_with() -> None:
    text = "Who coached the Estonian basketball team?"
    lexical = [ScoredId("a", 9.0), ScoredId("b", 8.0), ScoredId("c", 7.0)]
    # Both heads open with "a", which does not write "Estonian": nothing is seeded over it.
    assert described_passage(text, lexical, _head("a", "b"), PASSAGES, whole=True) is None
    # A rest beside names has no such first: the passage writing the words is described.
    assert described_passage(text, lexical, _head("a", "b"), PASSAGES) == Described("b", agreed=True)
    # Heads opening with different passages: the words decide, as for any rest.
    assert described_passage(text, lexical, _head("b"), PASSAGES, whole=True) == Described("b", agreed=True)


def test_a_name_written_with_a_typo_is_not_left_in_the_rest() -> None:
    titles = TitleIndex([concept("Michel Houellebecq"), concept("Teutberga")])
    text = "Who is older, Michel Houellbecq or the Estonian coach?"
    assert titles.written_words(text, ["Michel Houellebecq"]) == {"michel", "houellbecq"}


def test_a_described_passage_makes_the_walk_sure_and_weighs_as_a_name() -> None:
    graph = wiki_graph.song_graph()
    song = concept("Changed It")
    agreed = [Described("c-Trinidad", agreed=True)]
    seeds = WalkSeeds([song], described=agreed)
    assert seeds.confident and WalkSeeds(described=agreed).confident
    weights = seeds.restart(graph)
    assert weights[graph.index["c:c-Trinidad"]] > 0.3 * sum(weights.values())


def test_an_unagreed_described_passage_weighs_less_and_leaves_the_walk_unsure() -> None:
    graph = wiki_graph.song_graph()
    song = concept("Changed It")
    unagreed = [Described("c-Trinidad", agreed=False)]
    assert not WalkSeeds(described=unagreed).confident
    sure = WalkSeeds([song], described=[Described("c-Trinidad", agreed=True)]).restart(graph)
    unsure = WalkSeeds([song], described=unagreed).restart(graph)
    position = graph.index["c:c-Trinidad"]
    assert 0 < unsure[position] < sure[position]
    named = graph.restart_of({song.id: 1.0}, {})

    def against_the_name(weights: dict[int, float]) -> float:
        return weights[position] / sum(weights[p] for p in named)

    # Beside the name, the unagreed passage weighs UNAGREED_WEIGHT of what an agreed one does.
    assert abs(against_the_name(unsure) / against_the_name(sure) - UNAGREED_WEIGHT) < 1e-9


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
        assert [(title_of(d.chunk_id), d.agreed) for d in seeds.described] == [("Tiit Sokk", True)]
        walked = [title_of(hit.id) for hit in run_path(PathName.PPR, question).hits[:2]]
        assert sorted(walked) == ["Andy Summers", "Tiit Sokk"]
        # A question saying only its relation around the name walks from the name alone.
        assert not walk_seeds(query("Who was the mother-in-law of Andy Summers?")).described
        # A question naming nothing is its own rest: the walk starts, surely, from the passage it describes.
        nameless = walk_seeds(query("Where was the Estonian basketball coach born?"))
        assert not nameless.named
        assert [(title_of(d.chunk_id), d.agreed) for d in nameless.described] == [("Tiit Sokk", True)]
        assert nameless.confident
    finally:
        people.close()


def test_the_dense_head_of_a_whole_text_is_asked_for_once() -> None:
    asked: list[str] = []

    def dense() -> list[ScoredId]:
        asked.append("dense")
        return [ScoredId("c", 0.9), ScoredId("b", 0.8)]

    lexical = [ScoredId("a", 9.0), ScoredId("b", 8.0)]
    found = described_passage("Who coached the Estonian team?", lexical, dense, PASSAGES, whole=True)
    assert found == Described("b", agreed=True)
    assert asked == ["dense"]
