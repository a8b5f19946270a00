"""Where the graph walk starts (issue #19): names written loosely, and the blend of exact names, loose names and the
lexical and dense heads, so that a question naming its entities the way people write them still walks from them."""

from __future__ import annotations

import pytest

from tests import wiki_graph
from tests.wiki_graph import concept
from trident.retrieval.pagerank import EntityChunkGraph
from trident.retrieval.seeds import WalkSeeds
from trident.retrieval.title_match import MAX_NAMES_PER_WORD, TitleIndex, TitleMatch
from trident.store.protocols import ScoredId
from trident.store.schema import Entity, EntityType

TITLES = [
    "Eduardo De Filippo",
    "Peppino De Filippo",
    "Lothair II",
    "Lothair I",
    "Teutberga",
    "Atomised (Film)",
    "Michel Houellebecq",
    "Princess Margaret Of Connaught",
    # Ordinals are common in titles, so they weigh little in a name.
    *(f"{king} {n}" for king in ("Henry", "Otto", "Louis", "Charles") for n in ("I", "II", "III")),
]


@pytest.fixture
def titles() -> TitleIndex:
    return TitleIndex([concept(name) for name in TITLES])


def names(index: TitleIndex, text: str, named: list[Entity] | None = None) -> list[str]:
    return [m.entity.name for m in index.matches(text, named or [])]


def test_a_family_name_or_a_dropped_qualifier_finds_the_titles(titles: TitleIndex) -> None:
    assert set(names(titles, "When was De Filippo born?")) == {"Eduardo De Filippo", "Peppino De Filippo"}
    assert names(titles, "Who directed the film Atomised?") == ["Atomised (Film)"]
    assert names(titles, "Who was the wife of Lothair?")[:2] == ["Lothair I", "Lothair II"]
    assert names(titles, "who was the father of Margaret of Connaught") == ["Princess Margaret Of Connaught"]


def test_only_words_written_as_names_open_a_match() -> None:
    index = TitleIndex([concept(name) for name in ["Where Was I", "Mother of George", "Wojciech Has", "Teutberga"]])
    assert names(index, "Where was the mother of the director born, and what has she written?") == []
    assert names(index, "Where was Teutberga born?") == ["Teutberga"]
    assert names(index, "who was teutberga") == []  # a lower-case word is not taken for a name


def test_one_typo_in_a_long_word_still_matches_at_a_lower_coverage(titles: TitleIndex) -> None:
    exact = titles.matches("Who wrote Michel Houellebecq's novel?")
    typo = titles.matches("Who wrote Michel Houellbecq's novel?")  # one letter dropped
    swapped = titles.matches("Who was Teutbegra?")  # two letters swapped
    assert [m.entity.name for m in typo] == ["Michel Houellebecq"] == [m.entity.name for m in exact]
    assert typo[0].coverage < exact[0].coverage
    assert [m.entity.name for m in swapped] == ["Teutberga"]
    assert names(titles, "Who was Lotair?") == []  # too short to carry a typo


def test_words_of_a_name_named_exactly_do_not_match_other_names_loosely(titles: TitleIndex) -> None:
    eduardo = concept("Eduardo De Filippo")
    assert names(titles, "Where was Eduardo De Filippo born?", [eduardo]) == []
    # The other name in the question still matches loosely.
    assert names(titles, "Was Eduardo De Filippo older than Houellebecq?", [eduardo]) == ["Michel Houellebecq"]


def test_a_word_in_many_names_opens_no_match_and_a_text_without_names_matches_nothing() -> None:
    common = [concept(f"River Number {i}") for i in range(MAX_NAMES_PER_WORD + 1)]
    index = TitleIndex([*common, concept("Teutberga")])
    assert names(index, "Which river is the longest?") == []
    assert names(index, "what is the capital of a country") == []
    assert names(index, "Number 7 river") == []  # every word common: no single rare word names one of them


def test_matches_are_deterministic_and_code_functions_are_not_titles() -> None:
    entities = [
        *(concept(name) for name in TITLES),
        Entity(id="function:p:charge", name="charge_customer", type=EntityType.FUNCTION, project="p"),
    ]
    first = TitleIndex(entities).matches("ask Lothair about charge_customer")
    assert first == TitleIndex(list(reversed(entities))).matches("ask Lothair about charge_customer")
    assert [m.entity.name for m in first] == ["Lothair I", "Lothair II"]


@pytest.fixture
def song_graph() -> EntityChunkGraph:
    return wiki_graph.song_graph()


def test_a_walk_from_the_heads_alone_reaches_the_second_hop(song_graph: EntityChunkGraph) -> None:
    # No name matched: the lexical head holds the song's passage; the walk goes on to the singer's.
    seeds = WalkSeeds(passages=[[ScoredId("c-Changed It", 3.0), ScoredId("c-Chart 2014", 1.0)]])
    ranked = [hit.id for hit in song_graph.rank_from(seeds.restart(song_graph), limit=10)]
    assert ranked[0] == "c-Changed It"
    assert ranked.index("c-Nicki Minaj") < ranked.index("c-Queen album")
    assert not seeds.confident and WalkSeeds().restart(song_graph) == {}


def test_exact_names_outweigh_the_other_sources(song_graph: EntityChunkGraph) -> None:
    song = concept("Changed It")
    heads = [[ScoredId("c-Chart 2014", 1.0)]]
    blended = WalkSeeds([song], {"concept:wiki:Lil Wayne": TitleMatch(concept("Lil Wayne"), 0.9)}, heads)
    weights = blended.restart(song_graph)
    named = weights[song_graph.index["e:concept:wiki:Changed It"]]
    assert blended.confident and named > 2 * sum(w for p, w in weights.items() if p != song_graph.index["e:" + song.id])
    # Without the exact name, the head and the loose name share the walk.
    loose = WalkSeeds((), blended.loose, heads).restart(song_graph)
    assert loose[song_graph.index["c:c-Chart 2014"]] == pytest.approx(
        loose[song_graph.index["e:concept:wiki:Lil Wayne"]]
    )
    assert [e.name for e in blended.entities()] == ["Changed It", "Lil Wayne"]


def test_only_names_make_a_walk_sure_enough_to_lead() -> None:
    lothair = concept("Lothair II")
    heads = [[ScoredId("c-Lothair II", 2.0)]]
    assert WalkSeeds([lothair]).confident  # named exactly
    # Named loosely, and its passage heads a ranking: two sources agree.
    assert WalkSeeds((), {lothair.id: TitleMatch(lothair, 0.8)}, heads).confident
    assert not WalkSeeds((), {lothair.id: TitleMatch(lothair, 0.8)}, [[ScoredId("c-Other", 2.0)]]).confident
    # An entity only near the text's meaning is a guess, even when its passage heads a ranking.
    assert not WalkSeeds(passages=heads, nearby=[lothair]).confident


# --- titles written without their qualifier, persons by their last name, and ambiguous loose names ---

QUALIFIED = [
    "Illusions (1982 film)",
    "Dark River (1990 film)",
    "Dark River (2017 film)",
    "John Ernest, Duke of Saxe-Eisenach",
    "Pamela Ann Rymer",
    "Guido Lauri",
    "Joris Van Severen",
    "Henri Van Severen",
    "Herman, Count of Verdun",
    "Princess Elene of Georgia",
    "Empire (2002 film)",
    # "Peter" is in more names than a distinctive word is.
    *(f"Peter, Count of {place}" for place in ("Dreux", "Savoy", "Vianden", "Alençon")),
]


@pytest.fixture
def qualified() -> TitleIndex:
    return TitleIndex([concept(name) for name in QUALIFIED])


def test_a_title_without_its_qualifier_matches_as_a_partial_match(qualified: TitleIndex) -> None:
    [illusions] = qualified.matches("Who directed Illusions?")
    assert illusions.entity.name == "Illusions (1982 film)" and illusions.partial
    rivers = qualified.matches("Who directed Dark River?")
    assert {m.entity.name for m in rivers} == {"Dark River (1990 film)", "Dark River (2017 film)"}
    assert len({m.mention for m in rivers}) == 1  # one name in the text, two titles it may mean
    assert names(qualified, "Who is the father-in-law of John Ernest?") == ["John Ernest, Duke of Saxe-Eisenach"]
    # A one-word core names its title only when the word is in few names, and only when written exactly.
    assert names(qualified, "Who was Peter's wife?") == []
    assert names(qualified, "Where was the German regent born?") == []


def test_a_persons_last_name_alone_matches_but_a_place_in_a_title_does_not(qualified: TitleIndex) -> None:
    matches = qualified.matches("Who lived longer, Lauri or Rymer?")
    assert {m.entity.name for m in matches} == {"Guido Lauri", "Pamela Ann Rymer"}
    rymer = next(m for m in matches if m.entity.name == "Pamela Ann Rymer")
    assert rymer.partial and len({m.mention for m in matches}) == 2
    # "Princess Elene of Georgia" is not shaped like a person's name.
    assert names(qualified, "Where was the queen of Georgia born?") == []


def test_a_partial_match_seeds_only_where_a_path_ranks_its_passage(qualified: TitleIndex) -> None:
    [empire] = qualified.matches("Where was the husband of the third wife of the Sultan of the Ottoman Empire born?")
    assert empire.partial
    graph = EntityChunkGraph.build([concept(n) for n in QUALIFIED], [])
    unbacked = WalkSeeds((), {empire.entity.id: empire}, [[ScoredId("c-Guido Lauri", 1.0)]])
    assert unbacked.entities() == [] and graph.index["e:" + empire.entity.id] not in unbacked.restart(graph)
    ranking = [ScoredId("c-Guido Lauri", 1.0), ScoredId("c-Empire (2002 film)", 0.5)]
    backed = WalkSeeds((), {empire.entity.id: empire}, [ranking])
    assert backed.entities() == [empire.entity] and backed.restart(graph)[graph.index["e:" + empire.entity.id]] > 0


def test_the_rankings_tell_apart_the_titles_one_loose_name_may_mean(qualified: TitleIndex) -> None:
    graph = EntityChunkGraph.build([concept(n) for n in QUALIFIED], [])
    weight = lambda weights, name: weights[graph.index[f"e:concept:wiki:{name}"]]  # noqa: E731
    rivers = {m.entity.id: m for m in qualified.matches("Who directed Dark River?")}
    others = [ScoredId(f"c-Other {i}", 0.5) for i in range(6)]
    dense = [[ScoredId("c-Other", 1.0), ScoredId("c-Dark River (2017 film)", 0.9), *others]]
    dense[0].append(ScoredId("c-Dark River (1990 film)", 0.1))  # both ranked, the 2017 film far higher
    weights = WalkSeeds((), rivers, dense).restart(graph)
    assert weight(weights, "Dark River (2017 film)") > 2 * weight(weights, "Dark River (1990 film)")
    # Each name the text writes gets its part: "Lauri" (one person) weighs as much as "Van Severen" (two).
    people = {m.entity.id: m for m in qualified.matches("Who lived longer, Lauri or Van Severen?")}
    heads = [[ScoredId(f"c-{name}", 1.0) for name in ("Guido Lauri", "Joris Van Severen", "Henri Van Severen")]]
    weights = WalkSeeds((), people, heads).restart(graph)
    severens = weight(weights, "Joris Van Severen") + weight(weights, "Henri Van Severen")
    assert weight(weights, "Guido Lauri") > severens / 2


def test_beside_an_exact_name_a_loose_one_of_the_whole_name_counts_as_a_name(qualified: TitleIndex) -> None:
    """ "Which came first, Guido Lauri or Ilusions (1982 film)?": the typo'd title holds its whole name, so it seeds
    beside the exact one as a name, weighed by the rankings' evidence (here as much as the exact name); a loose match
    of only a core or a last name still only fills in (a fifth of the loose share)."""
    graph = EntityChunkGraph.build([concept(n) for n in QUALIFIED], [])
    weight = lambda weights, name: weights[graph.index[f"e:concept:wiki:{name}"]]  # noqa: E731
    lauri, illusions, rymer = (concept(n) for n in ("Guido Lauri", "Illusions (1982 film)", "Pamela Ann Rymer"))
    whole = TitleMatch(illusions, 0.8, mention="ilusions")
    last_name = TitleMatch(rymer, 0.8, mention="rymer", partial=True)
    heads = [[ScoredId("c-Illusions (1982 film)", 1.0), ScoredId("c-Pamela Ann Rymer", 0.9)]]
    heads.append([ScoredId("c-Pamela Ann Rymer", 1.0)])
    weights = WalkSeeds([lauri], {illusions.id: whole, rymer.id: last_name}, heads).restart(graph)
    assert weight(weights, "Illusions (1982 film)") == pytest.approx(weight(weights, "Guido Lauri"))
    assert weight(weights, "Pamela Ann Rymer") == pytest.approx(weight(weights, "Guido Lauri") / 5)
    # Without an exact name, the whole-name match is one of the loose names, as before.
    alone = WalkSeeds((), {illusions.id: whole, rymer.id: last_name}, heads).restart(graph)
    assert weight(alone, "Pamela Ann Rymer") > weight(alone, "Illusions (1982 film)")
