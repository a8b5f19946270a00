"""find_similar through a reader's views (the generation's mapped vectors and chunk rows, as a server and the command
line call it) gives the vector store's nearest chunks, and reads neither store to do so."""

from __future__ import annotations

from typing import Any

import pytest

from trident.retrieval.entities import resolve_entity
from trident.retrieval.reader import Reader
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.protocols import SearchFilter
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
def test_the_views_give_the_vector_stores_neighbours(sample_catalog: Catalog, example: dict[str, Any]) -> None:
    """The neighbours read from the reader's mapped files are the vector store's nearest chunks, in its order, with
    the filters applied as the store applies them."""
    assert sample_catalog.embedder is not None
    views = GenerationViews(RetrievalSettings())
    directory = views.directory(sample_catalog)
    found = find_similar(Reader(sample_catalog, views), **example)
    assert found.result, "the example has neighbours"
    if "text" in example:
        vector = sample_catalog.embedder.embed_query(example["text"])
    else:
        (example_chunk,) = _example_ids(example, directory)
        vector = sample_catalog.vectors.vectors([example_chunk])[example_chunk]
    where = SearchFilter("default", tuple(example["projects"]) if "projects" in example else None)
    left_out = _example_ids(example, directory)
    stored = [hit for hit in sample_catalog.vectors.search(vector, 200, where) if hit.id not in left_out]
    chunks = sample_catalog.graph.get_chunks([hit.id for hit in stored])
    kinds = set(example.get("kinds", ())) or None
    expected = [hit for hit in stored if kinds is None or chunks[hit.id].kind.value in kinds][: len(found.result)]
    assert [hit.id for hit in found.result] == [hit.id for hit in expected]
    assert [hit.score for hit in found.result] == pytest.approx([hit.score for hit in expected], abs=1e-5)
    again = find_similar(Reader(sample_catalog, GenerationViews(RetrievalSettings())), **example)
    assert _shown(again) == _shown(found) and again.omitted == found.omitted, "another reader, the same answer"


def _example_ids(example: dict[str, Any], directory: Any) -> set[str]:
    if "entity" not in example:
        return set()
    chunk = resolve_entity(directory, example["entity"]).chunk_id
    return {chunk} if chunk else set()


def test_a_chunk_example_through_the_views_reads_neither_store(
    sample_catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    views = GenerationViews(RetrievalSettings())
    example = find_similar(Reader(sample_catalog, views), text="verify a token", top_k=1).result[0]
    expected = _shown(find_similar(Reader(sample_catalog, GenerationViews(RetrievalSettings())), chunk_id=example.id))
    views.chunk_vectors(sample_catalog)  # a server's warm-up builds the matrix: only the search is watched

    def untouched(*_: object, **__: object) -> None:
        raise AssertionError("find_similar read a store its reader's views hold")

    for store, method in [("vectors", "search"), ("vectors", "vectors"), ("graph", "get_chunks")]:
        monkeypatch.setattr(getattr(sample_catalog, store), method, untouched)
    found = find_similar(Reader(sample_catalog, views), chunk_id=example.id)
    assert _shown(found) == expected
    assert example.id not in {hit.id for hit in found.result}, "the example itself is left out"
