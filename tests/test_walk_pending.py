"""While a server's warm-up builds the walk's views of a large index (seconds at 100K chunks), a search answers from
the other paths and says which were not ready, instead of waiting; a small index, or a process without a warm-up,
builds them for the search as before."""

from __future__ import annotations

import threading
from collections.abc import Iterable

import pytest

from trident.retrieval import views as views_module
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.search_engine import SearchResult, search
from trident.retrieval.views import GenerationViews
from trident.server.context import _warm_up
from trident.store.catalog import Catalog
from trident.store.names.directory import EntityDirectory
from trident.store.schema import Entity

DEADLINE_S = 120.0  # generous: each wait below ends in milliseconds on an idle machine
QUERY = "what calls PaymentGateway.charge"  # a relationship question: lexical, semantic, the walk leading


def _search(catalog: Catalog, views: GenerationViews) -> SearchResult:
    return search(catalog, QUERY, views=views)


def test_a_search_during_the_warm_up_of_a_large_index_answers_without_the_graph_and_says_so(
    sample_catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(views_module, "BACKGROUND_WALK_MIN_CHUNKS", 0)  # the sample index counts as large
    building, release = threading.Event(), threading.Event()

    def gated_directory(entities: Iterable[Entity]) -> EntityDirectory:
        building.set()
        release.wait(DEADLINE_S)
        return EntityDirectory(entities)

    monkeypatch.setattr(views_module, "EntityDirectory", gated_directory)
    views = GenerationViews(RetrievalSettings())
    warming = threading.Thread(target=_warm_up, args=(sample_catalog, views, threading.Event()))
    warming.start()
    try:
        assert building.wait(DEADLINE_S)
        early = _search(sample_catalog, views)
    finally:
        release.set()
        warming.join(DEADLINE_S)
    assert early.hits and "lexical" in early.diagnostics.candidates
    failed = early.diagnostics.failed_paths or {}
    assert set(failed) == {"ppr"} and "still being built in the background" in failed["ppr"]
    assert early.entities == [] and views.built_directory(sample_catalog) is not None  # built by the warm-up only

    ready = _search(sample_catalog, views)
    assert ready.diagnostics.failed_paths is None and "ppr" in ready.diagnostics.candidates
    fresh = _search(sample_catalog, GenerationViews(RetrievalSettings()))
    assert ready.model_dump_json(exclude={"diagnostics"}) == fresh.model_dump_json(exclude={"diagnostics"})


def test_a_small_index_or_a_search_without_a_warm_up_builds_the_walk_itself(
    sample_catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    small = GenerationViews(RetrievalSettings())
    with small.warming(sample_catalog):  # the sample index is far below BACKGROUND_WALK_MIN_CHUNKS
        assert not small.walk_pending(sample_catalog)
        during = _search(sample_catalog, small)
    assert during.diagnostics.failed_paths is None and "ppr" in during.diagnostics.candidates

    monkeypatch.setattr(views_module, "BACKGROUND_WALK_MIN_CHUNKS", 0)
    alone = GenerationViews(RetrievalSettings())
    assert not alone.walk_pending(sample_catalog), "no warm-up builds them: the search must"
    unwarmed = _search(sample_catalog, alone)
    assert unwarmed.diagnostics.failed_paths is None and "ppr" in unwarmed.diagnostics.candidates
    with alone.warming(sample_catalog):  # every walk view already built: nothing to wait for
        assert not alone.walk_pending(sample_catalog)
