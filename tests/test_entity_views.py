"""get_entity through a reader's relation index (what a server and the command line hold in memory) counts the
relations the graph store counts, and asks the graph store nothing to do so."""

from __future__ import annotations

from collections import Counter

import pytest

from trident.retrieval.entities import resolve_entity
from trident.retrieval.reader import Reader
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.tools.get_entity import RELATION_COUNT_CAP, get_entity

NAMES = ["PaymentGateway", "billing.orders.OrderService.checkout", "RotatingKeyStore", "billing.payments"]


def test_the_relation_index_counts_what_the_graph_store_counts(
    sample_catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    graph, tenant = sample_catalog.graph, sample_catalog.tenant
    reader = Reader(sample_catalog, GenerationViews(RetrievalSettings()))
    expected = []
    for name in NAMES:
        entity = resolve_entity(reader.directory(), name)
        stored = graph.neighbours([entity.id], tenant, RELATION_COUNT_CAP)
        out = Counter(r.type for r in stored if r.source == entity.id)
        into = Counter(r.type for r in stored if r.target == entity.id)
        expected.append((dict(sorted(out.items())), dict(sorted(into.items()))))
    assert all(out or into for out, into in expected), "each has relations to count"

    def untouched(*_: object) -> None:
        raise AssertionError("get_entity asked the graph store")

    monkeypatch.setattr(graph, "neighbours", untouched)
    monkeypatch.setattr(graph, "citations", untouched)
    found = [get_entity(reader, name) for name in NAMES]
    assert [(f.relations_out, f.relations_in) for f in found] == expected
