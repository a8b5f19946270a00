"""The chunk-row file a publish writes beside its generation holds exactly the graph store's chunks (through edits:
tests/test_chunk_vectors.py); what a search reads its hits from (checked: tests/test_chunk_files_checked.py)."""

from __future__ import annotations

import pytest

from trident.store.catalog import Catalog
from trident.store.mapped.chunk_files import ChunkFilesError, read_chunk_files
from trident.store.mapped.chunk_rows import ChunkRows


def rows_of(catalog: Catalog) -> ChunkRows:
    return read_chunk_files(catalog.generation_folder, catalog.tenant).chunk_rows()


def assert_rows_are_the_graphs(catalog: Catalog) -> None:
    ids = sorted(catalog.graph.chunk_ids(catalog.tenant))
    rows = rows_of(catalog)
    assert len(rows) == len(ids)
    assert rows.get(ids) == catalog.graph.get_chunks(ids)


def test_a_published_generation_carries_its_chunk_rows(sample_catalog: Catalog) -> None:
    assert_rows_are_the_graphs(sample_catalog)
    rows = rows_of(sample_catalog)
    some = sorted(sample_catalog.graph.chunk_ids("default"))[:3]
    assert rows.get([*some, "no-such-chunk", some[0]]) == sample_catalog.graph.get_chunks(some)
    assert rows.get([]) == {}
    with pytest.raises(ChunkFilesError, match="another-tenant"):
        read_chunk_files(sample_catalog.generation_folder, "another-tenant")
