"""The find_similar tool: nearest neighbours of a text, an indexed chunk, or an entity's defining chunk."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from trident.retrieval.entities import resolve_entity
from trident.retrieval.search import SearchHit
from trident.store.catalog import Catalog, embedding_text
from trident.store.directory import EntityDirectory
from trident.store.errors import ArgumentError
from trident.store.protocols import SearchFilter
from trident.tools.calls import check_range
from trident.tools.freshness import mark_stale

# A hit costs about 250 tokens: 30 of them stay within the answer budget of every tool (tools.calls.RESPONSE_TOKENS).
MAX_TOP_K = 30
MAX_TEXT_CHARS = 20_000
# Neighbours fetched per hit wanted: the kinds filter and the example itself drop some.
OVERFETCH = 4


def find_similar(
    catalog: Catalog,
    directory: EntityDirectory,
    *,
    text: str | None = None,
    chunk_id: str | None = None,
    entity: str | None = None,
    top_k: int = 10,
    projects: Sequence[str] | None = None,
    kinds: Sequence[str] | None = None,
) -> list[SearchHit]:
    """Chunks closest in meaning to exactly one of: a text, a chunk id, an entity. The example itself is left out.

    Raises:
        ArgumentError: not exactly one input given, a text longer than MAX_TEXT_CHARS, top_k outside
            1..MAX_TOP_K, an unknown chunk id, or an entity without a defining chunk.
        EntityNotFoundError: the entity is unknown or ambiguous.
    """
    given = [name for name, value in (("text", text), ("chunk_id", chunk_id), ("entity", entity)) if value]
    if len(given) != 1:
        raise ArgumentError(f"give exactly one of text, chunk_id or entity (got {given or 'none'})")
    if text is not None and len(text) > MAX_TEXT_CHARS:
        raise ArgumentError(f"text must be at most {MAX_TEXT_CHARS} characters, got {len(text)}")
    check_range("top_k", top_k, 1, MAX_TOP_K)
    if catalog.embedder is None:
        raise RuntimeError("find_similar needs an embedder; open the catalog with one")
    exclude: set[str] = set()
    if text:
        vector = catalog.embedder.embed_query(text)
    else:
        if entity:
            found = resolve_entity(directory, entity)
            if not found.chunk_id:
                raise ArgumentError(f"entity: {found.id} has no defining chunk; pass text instead")
            chunk_id = found.chunk_id
        assert chunk_id is not None
        chunk = catalog.graph.get_chunks([chunk_id]).get(chunk_id)
        if chunk is None:
            raise ArgumentError(f"chunk_id: no chunk with id '{chunk_id}'; take ids from search results")
        exclude.add(chunk.id)
        stored = catalog.vectors.vectors([chunk.id]).get(chunk.id)
        vector = stored if stored is not None else catalog.embedder.embed([embedding_text(chunk)])[0]
    where = SearchFilter(catalog.tenant, tuple(projects) if projects is not None else None)
    scored = catalog.vectors.search(np.asarray(vector), top_k * OVERFETCH + len(exclude), where)
    chunks = catalog.graph.get_chunks([s.id for s in scored if s.id not in exclude])
    hits: list[SearchHit] = []
    for s in scored:
        found_chunk = chunks.get(s.id)
        if found_chunk is None or (kinds and str(found_chunk.kind) not in kinds):
            continue
        hits.append(SearchHit.from_chunk(found_chunk, len(hits) + 1, s.score, {"semantic": len(hits) + 1}))
        if len(hits) == top_k:
            break
    mark_stale(catalog, hits)
    return hits
