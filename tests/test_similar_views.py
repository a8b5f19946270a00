"""find_similar through a reader's views (the generation's mapped vectors and chunk rows, as a server and the command
line call it) gives the neighbours it gives through the vector and graph stores, and reads neither store to do so."""

from __future__ import annotations

from typing import Any

import pytest

from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.settings import RetrievalSettings
from trident.tools.similar import find_similar

EXAMPLES: list[dict[str, Any]] = [
    {"text": "rotate the signing keys"},
    {"text": "charge a card", "kinds": ["code"], "top_k": 3},
    {"text": "how are refunds handled", "projects": ["billing"], "top_k": 30},
    {"entity": "PaymentGateway"},
]


def _shown(result: Any) -> list[tuple[str, str, int]]:
    return [(hit.id, hit.citation, hit.rank) for hit in result.result]


@pytest.mark.parametrize("example", EXAMPLES)
def test_the_views_give_the_stores_neighbours(sample_catalog: Catalog, example: dict[str, Any]) -> None:
    directory = GenerationViews(RetrievalSettings()).directory(sample_catalog)
    stores = find_similar(sample_catalog, directory, **example)
    views = find_similar(sample_catalog, directory, views=GenerationViews(RetrievalSettings()), **example)
    assert stores.result, "the example has neighbours"
    assert _shown(views) == _shown(stores)
    assert [hit.score for hit in views.result] == pytest.approx([hit.score for hit in stores.result], abs=1e-5)
    assert views.omitted == stores.omitted


def test_a_chunk_example_through_the_views_reads_neither_store(
    sample_catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    views = GenerationViews(RetrievalSettings())
    directory = views.directory(sample_catalog)
    example = find_similar(sample_catalog, directory, text="verify a token", top_k=1).result[0]
    expected = _shown(find_similar(sample_catalog, directory, chunk_id=example.id))
    views.chunk_vectors(sample_catalog)  # a server's warm-up builds the matrix: only the search is watched

    def untouched(*_: object, **__: object) -> None:
        raise AssertionError("find_similar read a store its reader's views hold")

    for store, method in [("vectors", "search"), ("vectors", "vectors"), ("graph", "get_chunks")]:
        monkeypatch.setattr(getattr(sample_catalog, store), method, untouched)
    found = find_similar(sample_catalog, directory, chunk_id=example.id, views=views)
    assert _shown(found) == expected
    assert example.id not in {hit.id for hit in found.result}, "the example itself is left out"
