"""get_entity through a reader's relation index (what a server and the command line hold in memory) counts the
relations the graph store counts, and asks the graph store nothing to do so."""

from __future__ import annotations

import pytest

from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.tools.get_entity import get_entity

NAMES = ["PaymentGateway", "billing.orders.OrderService.checkout", "RotatingKeyStore", "billing.payments"]


def test_the_relation_index_counts_what_the_graph_store_counts(
    sample_catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    views = GenerationViews(RetrievalSettings())
    directory, relations = views.directory(sample_catalog), views.relations(sample_catalog)
    expected = [get_entity(sample_catalog, directory, name) for name in NAMES]
    assert all(found.relations_out or found.relations_in for found in expected), "each has relations to count"

    def untouched(*_: object) -> None:
        raise AssertionError("get_entity asked the graph store")

    monkeypatch.setattr(sample_catalog.graph, "neighbours", untouched)
    monkeypatch.setattr(sample_catalog.graph, "citations", untouched)
    assert [get_entity(sample_catalog, directory, name, relations) for name in NAMES] == expected
