"""The router on a labelled set of varied queries: at least 90% routed to the right type."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.routing_cases import CASES
from trident.retrieval.router import PRECEDENCE, QueryType, route

REQUIRED_ACCURACY = 0.90


def test_the_labelled_set_is_large_and_covers_every_type() -> None:
    counts = Counter(label for _, label in CASES)
    assert len(CASES) >= 150
    assert set(counts) == {t.value for t in QueryType}
    assert min(counts.values()) >= 15


def test_routing_accuracy_on_the_labelled_set_is_at_least_90_percent() -> None:
    misrouted = [(q, expected, route(q).query_type.value) for q, expected in CASES if route(q).query_type != expected]
    accuracy = 1 - len(misrouted) / len(CASES)
    report = "\n".join(f"  {expected:>14} <- {got:<14} {q!r}" for q, expected, got in misrouted)
    print(f"routing accuracy {accuracy:.1%} ({len(CASES) - len(misrouted)}/{len(CASES)}); misrouted:\n{report}")
    assert accuracy >= REQUIRED_ACCURACY, f"accuracy {accuracy:.1%}; misrouted:\n{report}"


def test_precedence_decides_when_several_types_fire() -> None:
    plan = route("what does CLAUDE.md say about code similar to this")
    assert plan.query_type == QueryType.LOCAL_ONLY
    assert "instruction-file" in plan.rules_fired and "similar-phrase" in plan.rules_fired
    assert PRECEDENCE[0] == QueryType.LOCAL_ONLY and PRECEDENCE[-1] == QueryType.GENERAL


@pytest.mark.parametrize("query", ["", "   ", "((((", "a" * 10_000, "\x00", "SELECT * FROM x; --"])
def test_routing_never_fails_and_is_deterministic(query: str) -> None:
    assert route(query) == route(query)


def test_plans_are_frozen_and_readable() -> None:
    plan = route("what calls PaymentGateway.charge")
    with pytest.raises(ValueError):
        plan.query_type = QueryType.GENERAL  # type: ignore[misc]
    assert str(plan).startswith("relationship [")


def test_every_retrieval_path_has_a_runner_and_an_unknown_name_is_refused() -> None:
    from trident.retrieval.path_names import PathName
    from trident.retrieval.paths import PATH_RUNNERS, PATHS

    assert set(PATH_RUNNERS) == set(PathName) == set(PATHS)  # evaluation credits every path, `local` included
    with pytest.raises(ValueError, match="unknown retrieval path 'semantc'; known: lexical, semantic"):
        PathName.parse("semantc")


def test_a_plan_naming_a_path_that_does_not_exist_is_refused() -> None:
    from pydantic import ValidationError

    from trident.retrieval.router import Plan, QueryType

    with pytest.raises(ValidationError):
        Plan(query_type=QueryType.GENERAL, weights={"lexicl": 1.0}, strategies=("lexicl",))
