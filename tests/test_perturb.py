"""The 2Wiki robustness sets' builder (bench/perturbed_2wiki.py): each variant rewrites the names as it says, and
the same inputs give the same sets."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench" / "perturbed_2wiki.py"


def load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("perturbed_2wiki", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


bench = load_bench()

PASSAGES = [
    bench.Passage("Lothair II", "Lothair II (835 –) was the king of Lotharingia from 855 until his death."),
    bench.Passage("Ermengarde of Tours", "Ermengarde of Tours( died 20 March 851) was the wife of Lothair I."),
    bench.Passage("Eduardo De Filippo", "Eduardo De Filippo( 24 May 1900 – 31 October 1984) was an Italian actor."),
    bench.Passage("Andy Summers", "Andy Summers( born 31 December 1942) is an English guitarist who played in a band."),
    bench.Passage("Atomised (film)", "Atomised is a 2006 German drama film directed by Oskar Roehler."),
]
MOTHER = bench.Question("q1", "When did Lothair Ii's mother die?", ("Lothair II", "Ermengarde of Tours"))
BORN_FIRST = bench.Question("q2", "Who was born first, Eduardo De Filippo or Andy Summers?", ("Eduardo De Filippo",))
DIRECTOR = bench.Question("q3", "Who is the mother of the director of film Atomised (Film)?", ("Atomised (film)",))


@pytest.fixture
def perturber():
    return bench.Perturber(PASSAGES, seed=19)


def test_lower_case_lowers_every_name_gold_or_not(perturber):
    assert perturber.perturb(bench.Variant.LOWER, MOTHER) == "When did lothair ii's mother die?"
    assert (
        perturber.perturb(bench.Variant.LOWER, BORN_FIRST) == "Who was born first, eduardo de filippo or andy summers?"
    )


def test_family_keeps_a_persons_last_name_with_its_particle(perturber):
    assert perturber.perturb(bench.Variant.FAMILY, BORN_FIRST) == "Who was born first, De Filippo or Summers?"


def test_family_leaves_a_question_without_a_family_name_out(perturber):
    assert perturber.perturb(bench.Variant.FAMILY, MOTHER) is None  # "Lothair II" has no family name
    assert perturber.perturb(bench.Variant.FAMILY, DIRECTOR) is None  # a film, not a person


def test_qualifier_drops_ordinals_and_parenthesised_qualifiers(perturber):
    assert perturber.perturb(bench.Variant.QUALIFIER, MOTHER) == "When did Lothair's mother die?"
    assert perturber.perturb(bench.Variant.QUALIFIER, DIRECTOR) == "Who is the mother of the director of film Atomised?"
    assert perturber.perturb(bench.Variant.QUALIFIER, BORN_FIRST) is None


@pytest.mark.parametrize(
    ("name", "plain"),
    [("Sir Walter Scott", "Walter Scott"), ("Maurice, Prince Of Orange", "Maurice"), ("John Smith Jr.", "John Smith")],
)
def test_qualifier_drops_honorifics_comma_titles_and_suffixes(name, plain):
    assert bench.without_qualifier(name) == plain


def test_phrase_puts_the_gold_name_inside_a_phrase_for_its_kind(perturber):
    films = {template.format("Atomised (Film)") for template in bench.PHRASES[bench.Kind.FILM]}
    rewritten = perturber.perturb(bench.Variant.PHRASE, DIRECTOR)
    # "film" before the name is dropped: the phrase names the kind itself
    assert rewritten in {f"Who is the mother of the director of {phrase}?" for phrase in films}


def test_typo_edits_one_inner_letter_of_one_name(perturber):
    rewritten = perturber.perturb(bench.Variant.TYPO, BORN_FIRST)
    assert rewritten is not None
    before, after = BORN_FIRST.text.split(), rewritten.split()
    changed = [(old, new) for old, new in zip(before, after, strict=True) if old != new]
    assert len(changed) == 1
    old, new = changed[0]
    assert old in {"Eduardo", "Filippo"}  # a word of 4+ letters of the gold name, not of the other one
    assert new in inner_edits(old)


def inner_edits(word: str) -> set[str]:
    """Every swap of two neighbours, drop or doubling of one letter that keeps the first and last letters."""
    inner = range(1, len(word) - 1)
    swaps = {word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in inner if i + 1 < len(word) - 1}
    drops = {word[:i] + word[i + 1 :] for i in inner}
    doubles = {word[:i] + word[i] + word[i:] for i in inner}
    return (swaps | drops | doubles) - {word}


def test_described_replaces_the_name_with_its_passages_definition(perturber):
    assert perturber.perturb(bench.Variant.DESCRIBED, MOTHER) == "When did the king of Lotharingia's mother die?"
    assert (
        perturber.perturb(bench.Variant.DESCRIBED, DIRECTOR)
        == "Who is the mother of the director of the 2006 German drama film?"
    )


def test_described_skips_a_passage_that_defines_nothing():
    passage = bench.Passage("Up", "Up( 2009) won two awards.")
    assert bench.describe(passage) is None


def test_the_same_seed_gives_the_same_sets_and_another_seed_may_not():
    questions = [MOTHER, BORN_FIRST, DIRECTOR]
    runs = [
        [bench.Perturber(PASSAGES, seed=seed).perturb(v, q) for v in bench.Variant for q in questions]
        for seed in (19, 19, 20, 21, 22)
    ]
    assert runs[0] == runs[1]
    assert any(run != runs[0] for run in runs[2:])
