"""Bounded traversal and explained paths on the sample corpus: hop bounds, direction, type filters, evidence."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import index_into
from trident.retrieval.connections import best_paths
from trident.retrieval.reader import Reader
from trident.store.catalog import Catalog
from trident.store.errors import ArgumentError
from trident.store.names.directory import EntityDirectory
from trident.store.schema import Relation, Resolution
from trident.store.tokens import json_tokens
from trident.tools.explain import explain_path
from trident.tools.trace import HUB_EDGES, Direction, trace_relationships


@pytest.fixture(scope="module")
def directory(sample_catalog: Catalog) -> EntityDirectory:
    return EntityDirectory(sample_catalog.entities())


def _covers(citation: str | None, path: str, line: int) -> bool:
    """Whether a citation like `billing/billing/gateway.py:L27-L35` is in `path` and spans `line`."""
    match = re.fullmatch(r"(.+):L(\d+)-L(\d+)", citation or "")
    return bool(match) and match.group(1).endswith(path) and int(match.group(2)) <= line <= int(match.group(3))


def test_a_three_hop_call_chain_cites_the_line_of_every_call(
    sample_catalog: Catalog, directory: EntityDirectory
) -> None:
    result = explain_path(
        Reader.open(sample_catalog), "OrderService.checkout", "sign_request", relation_types=["CALLS"], max_hops=3
    )
    assert result.paths, result.message
    hops = result.paths[0].hops
    assert [h.target.rsplit(".", 1)[-1] for h in hops] == ["process", "charge", "sign_request"]
    assert all(h.forward and h.type == "CALLS" for h in hops)
    # Each hop's evidence is the caller's chunk holding the call (lines from examples/billing).
    assert _covers(hops[0].evidence, "billing/orders.py", 24)
    assert _covers(hops[1].evidence, "billing/payments.py", 24)
    assert _covers(hops[2].evidence, "billing/gateway.py", 32)
    sentence = result.paths[0].sentence
    assert (
        sentence.index("PaymentAdapter.process")
        < sentence.index("PaymentGateway.charge")
        < sentence.index("sign_request")
    )


def test_a_path_longer_than_the_hop_bound_is_not_returned(sample_catalog: Catalog, directory: EntityDirectory) -> None:
    result = explain_path(
        Reader.open(sample_catalog), "OrderService.checkout", "sign_request", relation_types=["CALLS"], max_hops=2
    )
    assert result.paths == [] and result.message and "max_hops" in result.message


def test_traversal_stays_within_its_hop_bound(sample_catalog: Catalog, directory: EntityDirectory) -> None:
    one = trace_relationships(Reader.open(sample_catalog), "OrderService.checkout", direction=Direction.OUT, max_hops=1)
    two = trace_relationships(Reader.open(sample_catalog), "OrderService.checkout", direction=Direction.OUT, max_hops=2)
    assert all(len(path) == 2 for path in one.paths)
    assert max(len(path) for path in two.paths) == 3
    assert {n.id for n in one.nodes} < {n.id for n in two.nodes}


def test_direction_and_type_filters_are_respected(sample_catalog: Catalog, directory: EntityDirectory) -> None:
    callers = trace_relationships(
        Reader.open(sample_catalog), "PaymentGateway.charge", direction=Direction.IN, relation_types=["CALLS"]
    )
    assert callers.edges and all(e.type == "CALLS" for e in callers.edges)
    first_hop = [e for e in callers.edges if e.target.endswith("PaymentGateway.charge")]
    assert {e.source.rsplit(".", 1)[-1] for e in first_hop} == {"process"}
    callees = trace_relationships(
        Reader.open(sample_catalog),
        "PaymentGateway.charge",
        direction=Direction.OUT,
        relation_types=["CALLS"],
        max_hops=1,
    )
    assert all(e.source.endswith("PaymentGateway.charge") for e in callees.edges)
    assert "function:billing:billing.gateway.sign_request" in {e.target for e in callees.edges}


def test_a_limit_truncates_and_the_next_call_gets_the_next_page(
    sample_catalog: Catalog, directory: EntityDirectory
) -> None:
    whole = trace_relationships(Reader.open(sample_catalog), "OrderService", max_hops=3, limit=6)
    first = trace_relationships(Reader.open(sample_catalog), "OrderService", max_hops=3, limit=2)
    assert len(first.edges) == 2 and first.truncated
    assert first.next_call and "limit=2, min_resolution='dispatch', offset=2)" in first.next_call
    second = trace_relationships(Reader.open(sample_catalog), "OrderService", max_hops=3, limit=2, offset=2)
    assert first.edges + second.edges == whole.edges[:4]
    assert {n.id for n in second.nodes} <= {end for e in second.edges for end in (e.source, e.target)}
    assert len(second.paths) == len(second.nodes)


def test_a_token_budget_cuts_a_trace_into_pages_that_continue_the_walk(
    sample_catalog: Catalog, directory: EntityDirectory
) -> None:
    whole = trace_relationships(Reader.open(sample_catalog), "OrderService", max_hops=2, max_tokens=100_000)
    assert len(whole.edges) > 4
    first = trace_relationships(Reader.open(sample_catalog), "OrderService", max_hops=2, max_tokens=600)
    assert first.truncated and 0 < len(first.edges) < len(whole.edges)
    assert json_tokens(first) <= 600
    n = len(first.edges)
    assert first.next_call is not None and first.next_call.endswith(f"offset={n}, max_tokens=600)")
    second = trace_relationships(Reader.open(sample_catalog), "OrderService", max_hops=2, max_tokens=600, offset=n)
    assert (first.edges + second.edges)[: n + len(second.edges)] == whole.edges[: n + len(second.edges)]


def test_the_suggested_next_trace_keeps_every_argument_and_moves_the_offset(
    sample_catalog: Catalog, directory: EntityDirectory
) -> None:
    result = trace_relationships(
        Reader.open(sample_catalog), "OrderService", direction=Direction.OUT, max_hops=3, limit=1
    )
    assert result.truncated
    assert result.next_call == (
        f"trace_relationships(entity={result.root.id!r}, direction='out', max_hops=3, limit=1, "
        "min_resolution='dispatch', offset=1)"
    )


def test_a_truncated_trace_of_callers_suggests_a_call_with_the_same_direction_and_types(
    sample_catalog: Catalog, directory: EntityDirectory
) -> None:
    result = trace_relationships(
        Reader.open(sample_catalog),
        "PaymentGateway.charge",
        direction=Direction.IN,
        relation_types=["CALLS"],
        max_hops=4,
        limit=1,
        min_resolution=Resolution.NAME,
    )
    assert result.truncated and result.next_call
    assert "direction='in'" in result.next_call and "relation_types=['CALLS']" in result.next_call
    assert "max_hops=4" in result.next_call and "limit=1" in result.next_call and "offset=1" in result.next_call
    assert "min_resolution='name'" in result.next_call


@pytest.mark.parametrize(
    ("arguments", "named"),
    [({"max_hops": 0}, "max_hops must be between 1 and 4, got 0"), ({"limit": 501}, "limit must be between 1 and 500")],
)
def test_a_trace_out_of_its_limits_names_the_argument_the_value_and_the_range(
    sample_catalog: Catalog, directory: EntityDirectory, arguments: dict[str, int], named: str
) -> None:
    with pytest.raises(ArgumentError, match=named):
        trace_relationships(Reader.open(sample_catalog), "OrderService", **arguments)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("arguments", "named"),
    [({"max_hops": 7}, "max_hops must be between 1 and 6, got 7"), ({"max_paths": 0}, "max_paths must be between")],
)
def test_an_explanation_out_of_its_limits_names_the_argument_the_value_and_the_range(
    sample_catalog: Catalog, directory: EntityDirectory, arguments: dict[str, int], named: str
) -> None:
    with pytest.raises(ArgumentError, match=named):
        explain_path(Reader.open(sample_catalog), "OrderService", "PaymentGateway", **arguments)  # type: ignore[arg-type]


def test_a_relation_shown_by_two_chunks_is_one_path_and_never_breaks_the_search() -> None:
    def rel(source: str, target: str, evidence: str) -> Relation:
        return Relation(source=source, type="MENTIONS", target=target, evidence=evidence, project="p")

    edges = [rel("a", "b", "c1"), rel("a", "b", "c2"), rel("b", "t", "c3"), rel("b", "t", "c4"), rel("a", "t", "c5")]
    adjacency: dict[str, list] = {}
    for edge in edges:
        adjacency.setdefault(edge.source, []).append((edge.target, edge))
        adjacency.setdefault(edge.target, []).append((edge.source, edge))
    paths = best_paths(adjacency, "a", "t", max_hops=2, max_paths=5)
    assert [[(r.source, r.target) for r in path] for path in paths] == [[("a", "t")], [("a", "b"), ("b", "t")]]
    assert paths == best_paths(dict(reversed(list(adjacency.items()))), "a", "t", max_hops=2, max_paths=5)


def test_a_long_path_over_calls_ranks_before_shorter_ones_through_prose_or_test_code() -> None:
    def rel(source: str, rtype: str, target: str) -> Relation:
        return Relation(source=source, type=rtype, target=target, evidence=f"{source}-{target}", project="p")

    edges = [
        *(rel(a, "CALLS", b) for a, b in [("send", "c1"), ("c1", "c2"), ("c2", "c3"), ("c3", "pool")]),
        rel("changelog", "MENTIONS", "send"),
        rel("changelog", "MENTIONS", "pool"),
        rel("send", "CALLS", "test_helper"),
        rel("test_helper", "CALLS", "pool"),
    ]
    adjacency: dict[str, list] = {}
    for edge in edges:
        adjacency.setdefault(edge.source, []).append((edge.target, edge))
        adjacency.setdefault(edge.target, []).append((edge.source, edge))
    paths = best_paths(adjacency, "send", "pool", 4, 3, in_tests=lambda node: node == "test_helper")
    assert [r.target for r in paths[0]] == ["c1", "c2", "c3", "pool"]  # four calls before two hops aside
    assert len(paths) == 3 and all(len(p) == 2 for p in paths[1:])


def test_of_two_equally_long_call_chains_the_one_over_calls_bound_to_one_target_comes_first() -> None:
    # jinja2's `visit -> visit_EvalContextModifier -> as_const` (a method named at run time, one of sixty `visit_*`)
    # against `visit -> Optimizer.generic_visit -> as_const` (a call bound to one method): the first goes first by
    # name alone, the second is the likelier run
    def rel(source: str, target: str, weight: float) -> Relation:
        return Relation(
            source=source,
            type="CALLS",
            target=target,
            evidence=f"{source}-{target}",
            project="p",
            weight=weight,
            resolution=Resolution.DISPATCH,
        )

    edges = [rel("visit", "a_visit_one", 1 / 60), rel("a_visit_one", "as_const", 1.0)]
    edges += [rel("visit", "b_generic", 1.0), rel("b_generic", "as_const", 1.0)]

    def chains(edges: list[Relation]) -> list[list[str]]:
        forward: dict[str, list] = {}
        backward: dict[str, list] = {}
        for edge in edges:
            forward.setdefault(edge.source, []).append((edge.target, edge))
            backward.setdefault(edge.target, []).append((edge.source, edge))
        return [[r.target for r in path] for path in best_paths(forward, "visit", "as_const", 2, 2, towards=backward)]

    paths = chains(edges)
    assert paths == [["b_generic", "as_const"], ["a_visit_one", "as_const"]]
    edges[0] = rel("visit", "a_visit_one", 1.0)  # bound alike: the order is the names'
    assert [path[0] for path in chains(edges)] == ["a_visit_one", "b_generic"]


def test_a_hubs_trace_keeps_to_its_own_relations_and_counts_the_second_hop(tmp_path: Path, catalog: Catalog) -> None:
    callers = "".join(
        f"def caller_{n}():\n    log_event('c{n}')\n    audit_{n}()\n\n\ndef audit_{n}():\n    return {n}\n\n\n"
        for n in range(HUB_EDGES + 5)
    )
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "events.py").write_text(f"def log_event(name):\n    return name\n\n\n{callers}")
    index_into(catalog, tmp_path / "proj", "proj")
    hub = trace_relationships(Reader.open(catalog), "log_event", relation_types=["CALLS"])
    assert len(hub.edges) == HUB_EDGES + 5 and all(len(path) == 2 for path in hub.paths), "the first hop only"
    (further,) = [entry for entry in hub.omitted if entry.reason == "max_hops"]
    assert "(a hub)" in further.detail and further.next_call is not None and "max_hops=2" in further.next_call
    both = trace_relationships(Reader.open(catalog), "log_event", relation_types=["CALLS"], max_hops=2)
    assert any(len(path) == 3 for path in both.paths), "asked for, the second hop is walked"
    small = trace_relationships(Reader.open(catalog), "caller_1", relation_types=["CALLS"])
    assert any(len(path) == 3 for path in small.paths), "an entity that is no hub is walked two hops by default"
