"""Mentions of entity names in text: the span lookup that answers queries finds what the automaton finds."""

from __future__ import annotations

import random

import pytest

from trident.retrieval.paths import query_entities
from trident.store.catalog import Catalog
from trident.store.names import directory as directory_module
from trident.store.names.directory import EntityDirectory
from trident.store.schema import Entity, EntityType, Resolution


def _entity(name: str, type_: EntityType, *aliases: str) -> Entity:
    return Entity(id=f"p:{name}", name=name, type=type_, project="p", tenant="default", aliases=aliases, doc_id="p:doc")


def _both_ways(directory: EntityDirectory, text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[str]]:
    spans = directory.mentioned_in(text)
    with monkeypatch.context() as patched:
        patched.setattr(directory_module, "SPAN_LOOKUP_MAX_CHARS", -1)  # every text goes through the automaton
        automaton = directory.mentioned_in(text)
    return spans, automaton


def test_a_short_text_finds_whole_word_mentions_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    entities = [
        _entity("PaymentGateway", EntityType.CLASS),
        _entity("Gateway", EntityType.CLASS),
        _entity("charge_card", EntityType.FUNCTION),
        _entity("Billing Guide", EntityType.DOCUMENT),
    ]
    text = "Does PaymentGateway call charge card? See the billing guide; NotPaymentGateway and gateway do not count."
    spans, automaton = _both_ways(EntityDirectory(entities), text, monkeypatch)
    # A class named by one word matches its exact case only; phrases match case-folded; no match inside a word.
    assert spans == ["p:PaymentGateway", "p:charge_card", "p:Billing Guide"]
    assert spans == automaton


def test_a_long_text_uses_the_automaton_and_finds_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    entities = [_entity("PaymentGateway", EntityType.CLASS), _entity("RefundPolicy", EntityType.CONCEPT)]
    text = "filler words " * 100 + "RefundPolicy then PaymentGateway"
    assert len(text) > directory_module.SPAN_LOOKUP_MAX_CHARS
    directory = EntityDirectory(entities)
    assert directory.mentioned_in(text) == ["p:RefundPolicy", "p:PaymentGateway"]
    assert directory._automaton is not None  # the long text was read by the automaton


def test_spans_and_automaton_agree_on_an_indexed_corpus(
    sample_catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    entities = sample_catalog.entities()
    directory = EntityDirectory(entities)
    names = sorted({e.name for e in entities})
    chunks = sample_catalog.graph.get_chunks(sorted({e.chunk_id for e in entities if e.chunk_id}))
    texts = [chunk.text[:900] for _, chunk in sorted(chunks.items())]
    rng = random.Random(7)
    # Queries made of indexed names in other cases and with punctuation around them.
    for _ in range(200):
        picked = rng.sample(names, 3)
        texts.append(f"how does {picked[0]} relate to {picked[1].lower()}, ({picked[2]})?")
    compared = found = 0
    for text in texts:
        spans, automaton = _both_ways(directory, text, monkeypatch)
        assert spans == automaton, text
        compared += 1
        found += bool(spans)
    assert compared == len(texts) and found > len(texts) // 4


def test_a_title_is_mentioned_without_its_qualifier_when_that_names_it_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    entities = [
        _entity("Kiss and Tell (1945 film)", EntityType.CONCEPT),
        _entity("Shirley Temple", EntityType.CONCEPT),
        _entity("John Ernest, Duke of Saxe-Eisenach", EntityType.CONCEPT),
        _entity("Dark River (1990 film)", EntityType.CONCEPT),  # two titles share the core "Dark River"
        _entity("Dark River (2017 film)", EntityType.CONCEPT),
        _entity("Paris (band)", EntityType.CONCEPT),  # a one-word core is too common a word
        _entity("New York (magazine)", EntityType.CONCEPT),  # the core is another entity's name
        _entity("New York", EntityType.CONCEPT),
        _entity("Genomic imprinting in development (review)", EntityType.CONCEPT),  # a sentence, not a name
        _entity("Vitamin D, calcium and bone health", EntityType.CONCEPT),  # a comma inside a sentence-like title
    ]
    directory = EntityDirectory(entities)
    text = (
        "Shirley Temple starred in Kiss and Tell; John Ernest saw Dark River in Paris, New York. Genomic imprinting "
        "in development needs vitamin D."
    )
    spans, automaton = _both_ways(directory, text, monkeypatch)
    assert spans == [
        "p:Shirley Temple",
        "p:Kiss and Tell (1945 film)",
        "p:John Ernest, Duke of Saxe-Eisenach",
        "p:New York",
    ]
    assert spans == automaton


def test_a_mention_through_a_titles_core_says_it_was_inferred() -> None:
    entities = [_entity("Kiss and Tell (1945 film)", EntityType.CONCEPT), _entity("Shirley Temple", EntityType.CONCEPT)]
    directory = EntityDirectory(entities)
    assert directory.mentions("Shirley Temple starred in Kiss and Tell.") == [
        ("p:Shirley Temple", Resolution.EXACT),
        ("p:Kiss and Tell (1945 film)", Resolution.INFERRED),
    ]
    # Written whole, the title is an exact mention, even though its core is inside it.
    assert directory.mentions("Kiss and Tell (1945 film) starred Shirley Temple.")[0] == (
        "p:Kiss and Tell (1945 film)",
        Resolution.EXACT,
    )


def test_a_query_writing_names_with_capitals_does_not_name_a_phrase_of_prose_in_lower_case() -> None:
    entities = [
        _entity("Place of birth", EntityType.CONCEPT),
        _entity("Billing Guide", EntityType.DOCUMENT),
        _entity("Rector", EntityType.CONCEPT),
    ]
    directory = EntityDirectory(entities)
    text = "What is the place of birth of Rector's husband, says the billing guide?"
    # Indexing reads every mention as before; a query that writes a name with a capital reads "place of birth" as
    # prose, while "billing guide" (a name of capitalised words) still names the guide.
    assert directory.mentioned_in(text) == ["p:Place of birth", "p:Rector", "p:Billing Guide"]
    assert directory.mentioned_in(text, lower_case_phrases=False) == ["p:Rector", "p:Billing Guide"]
    assert directory.mentioned_in("Place of birth of Rector?", lower_case_phrases=False)[0] == "p:Place of birth"
    assert [e.name for e in query_entities(directory, text)] == ["Rector", "Billing Guide"]
    # A query written all in lower case tells no name from prose by its case: the phrase still names the title.
    lower = [e.name for e in query_entities(directory, "what is the place of birth of the billing guide's author")]
    assert lower == ["Place of birth", "Billing Guide"]


def test_a_core_belongs_to_one_title_even_when_several_passages_share_that_title() -> None:
    def passage(name: str, doc: str) -> Entity:
        return Entity(id=f"concept:p:{name}#{doc}", name=name, type=EntityType.CONCEPT, project="p", doc_id=f"p/{doc}")

    # Two paragraphs of one article: "Dark River" names both of them.
    shared = EntityDirectory([passage("Dark River (2017 film)", "1"), passage("Dark River (2017 film)", "2")])
    assert shared.mentioned_in("Who directed Dark River?") == [
        "concept:p:Dark River (2017 film)#1",
        "concept:p:Dark River (2017 film)#2",
    ]
    # Two films of that name: "Dark River" names neither.
    films = EntityDirectory([passage("Dark River (2017 film)", "1"), passage("Dark River (1990 film)", "2")])
    assert films.mentioned_in("Who directed Dark River?") == []


def test_a_text_names_the_longest_name_it_writes_not_the_names_inside_it() -> None:
    entities = [
        _entity("Blind Man's Eyes", EntityType.CONCEPT),
        _entity("Blind Man", EntityType.CONCEPT),
        _entity("Brother Rat", EntityType.CONCEPT),
    ]
    directory = EntityDirectory(entities)
    text = "Which film came out first, Blind Man's Eyes or Brother Rat?"
    assert directory.mentioned_in(text) == ["p:Blind Man's Eyes", "p:Brother Rat"]
    assert [e.name for e in query_entities(directory, text)] == ["Blind Man's Eyes", "Brother Rat"]
    # A long text (a chunk at indexing, read by the automaton) mentions the same.
    assert directory.mentioned_in("filler " * 100 + text) == ["p:Blind Man's Eyes", "p:Brother Rat"]
    # Written on its own, the shorter name is named.
    assert [e.name for e in query_entities(directory, "Who directed Blind Man?")] == ["Blind Man"]
