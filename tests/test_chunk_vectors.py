"""Dense search from memory (`ChunkVectors`) answers as the vector store does: the same chunks in the same order,
project filters and ties included."""

from __future__ import annotations

import numpy as np
import pytest

from trident.retrieval.chunk_vectors import ChunkVectors
from trident.store.catalog import Catalog
from trident.store.protocols import SearchFilter

QUERIES = ["verify a token", "charge a card", "rotate the signing key", "order checkout total", "refund"]


@pytest.mark.parametrize("projects", [None, ("billing",), ("auth", "storefront"), ("no-such-project",)])
def test_the_matrix_ranks_as_the_vector_store_does(sample_catalog: Catalog, projects: tuple[str, ...] | None) -> None:
    assert sample_catalog.embedder is not None
    chunks = ChunkVectors.load(sample_catalog)
    assert len(chunks) == sample_catalog.vectors.count("default")
    where = SearchFilter("default", projects)
    for query in QUERIES:
        vector = sample_catalog.embedder.embed_query(query)
        stored = sample_catalog.vectors.search(vector, 20, where)
        found = chunks.search(vector, 20, where)
        assert [hit.id for hit in found] == [hit.id for hit in stored], query
        assert np.allclose([hit.score for hit in found], [hit.score for hit in stored], atol=1e-5)


def test_equal_scores_rank_by_id_and_the_cut_keeps_the_ties_in_order() -> None:
    ids = ["d", "b", "a", "c", "e"]
    matrix = np.array([[1, 0], [0, 1], [1, 0], [1, 0], [0.6, 0.8]], dtype=np.float32)
    chunks = ChunkVectors(ids, ["p"] * 5, matrix)
    found = chunks.search(np.array([1.0, 0.0]), 2, SearchFilter("t"))
    assert [hit.id for hit in found] == ["a", "c"]  # a, c and d tie at 1.0: the first two by id
    assert [hit.id for hit in chunks.search(np.array([1.0, 0.0]), 5, SearchFilter("t"))] == ["a", "c", "d", "e", "b"]


def test_no_projects_or_no_chunks_find_nothing() -> None:
    chunks = ChunkVectors(["a"], ["p"], np.array([[1.0, 0.0]], dtype=np.float32))
    assert chunks.search(np.array([1.0, 0.0]), 5, SearchFilter("t", ())) == []
    assert chunks.search(np.array([1.0, 0.0]), 0, SearchFilter("t")) == []
    assert (
        ChunkVectors([], [], np.zeros((0, 2), dtype=np.float32)).search(np.array([1.0, 0.0]), 5, SearchFilter("t"))
        == []
    )
