"""The find_similar tool: nearest neighbours of a text, an indexed chunk, or an entity's defining chunk, and what its
project scope and kinds filter left out."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from pydantic import BaseModel, Field

from trident.retrieval.entities import resolve_entity
from trident.retrieval.evidence_flags import check_evidence
from trident.retrieval.omitted import OMITTED_HELP, OmitReason, Omitted, breakdown, empty_message
from trident.retrieval.reader import Reader
from trident.retrieval.search_engine import SearchHit
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog, embedding_text
from trident.store.errors import ArgumentError
from trident.store.names.directory import EntityDirectory
from trident.store.protocols import ScoredId, SearchFilter
from trident.store.schema import Chunk
from trident.tools.calls import check_range, suggest_call
from trident.tools.freshness import mark_stale

# A hit costs about 250 tokens: 30 of them stay within the answer budget of every tool (tools.calls.RESPONSE_TOKENS).
MAX_TOP_K = 30
MAX_TEXT_CHARS = 20_000
# Neighbours fetched per hit wanted: the kinds filter and the example itself drop some.
OVERFETCH = 4
# When the kinds filter left too few of those, the nearest this many are looked at once more.
DEEP_FETCH = 1_000


class SimilarResult(BaseModel):
    result: list[SearchHit] = Field(description="The chunks nearest the example, nearest first")
    omitted: list[Omitted] = Field(default_factory=list, description=OMITTED_HELP)
    message: str | None = Field(
        None,
        description="When there are no hits: which filters emptied the answer; while an index run embeds: how many "
        "chunks are not compared yet",
    )


def find_similar(
    reader: Reader,
    *,
    text: str | None = None,
    chunk_id: str | None = None,
    entity: str | None = None,
    top_k: int = 10,
    projects: Sequence[str] | None = None,
    kinds: Sequence[str] | None = None,
) -> SimilarResult:
    """Chunks closest in meaning to exactly one of: a text, a chunk id, an entity. The example itself is left out.
    `omitted` counts the nearer chunks of other kinds the kinds filter passed over and, when the answer is short,
    the neighbours in other projects, each with the call that shows them. The vectors and chunk rows come from the
    reader's views: the generation's memory-mapped files, as `search` reads them.

    Raises:
        ArgumentError: not exactly one input given, a text longer than MAX_TEXT_CHARS, top_k outside
            1..MAX_TOP_K, an unknown chunk id, or an entity without a defining chunk.
        EntityNotFoundError: the entity is unknown or ambiguous.
    """
    given = {"text": text, "chunk_id": chunk_id, "entity": entity}
    if len([value for value in given.values() if value]) != 1:
        named = [name for name, value in given.items() if value]
        raise ArgumentError(f"give exactly one of text, chunk_id or entity (got {named or 'none'})")
    if text is not None and len(text) > MAX_TEXT_CHARS:
        raise ArgumentError(f"text must be at most {MAX_TEXT_CHARS} characters, got {len(text)}")
    check_range("top_k", top_k, 1, MAX_TOP_K)
    catalog, directory, views = reader.catalog, reader.directory(), reader.views
    source = ReaderChunks(catalog, views)
    vector, exclude = _example(catalog, directory, source, text, chunk_id, entity)
    near = Neighbours(catalog.tenant, source, vector, exclude, kinds)
    hits = near.hits(projects, top_k)
    mark_stale(catalog, hits, views.state.hashes)
    # When each hit last changed, and the flags of evidence that disagrees (definitions read where the hits were).
    check_evidence(catalog, directory, hits, views)
    # The call again, every argument as given, for the calls that show what the filters left out.
    again: dict[str, object] = {name: value for name, value in given.items() if value}
    again |= {"top_k": top_k, "projects": list(projects) if projects is not None else None}
    again["kinds"] = list(kinds) if kinds else None
    omitted = []
    if near.passed_over:
        omitted.append(_kinds_entry(near, again))
    if projects is not None and len(hits) < top_k:
        omitted += _elsewhere(near, projects, top_k, again)
    message = empty_message("no chunks like the example", omitted) if not hits else None
    if pending := catalog.manifest.pending_chunks():  # the neighbours are looked for among embedded chunks only
        waiting = f"{pending:,} chunks wait for their vectors (an index run is embedding them): not compared yet"
        message = f"{message}; {waiting}" if message else waiting
    return SimilarResult(result=hits, omitted=omitted, message=message)


@dataclass(frozen=True)
class ReaderChunks:
    """A reader's views of the published generation: its chunk vectors in memory (the dense path's, exact, ties
    by id as the vector store ranks them) and its chunk rows, memory-mapped. On the bench's 10K index find_similar
    took 28-30 ms p50 through the stores (a scan of the vector table, the rows looked up in the graph store) and takes
    2.4 ms through these (`bench/latency.py`)."""

    catalog: Catalog
    views: GenerationViews

    def nearest(self, vector: np.ndarray, limit: int, where: SearchFilter) -> list[ScoredId]:
        return self.views.chunk_vectors(self.catalog).search(vector, limit, where)

    def vector(self, chunk_id: str) -> np.ndarray | None:
        return self.views.chunk_vectors(self.catalog).rows([chunk_id]).get(chunk_id)

    def chunks(self, ids: Sequence[str]) -> dict[str, Chunk]:
        return self.views.chunks(self.catalog, ids)


def _example(
    catalog: Catalog,
    directory: EntityDirectory,
    source: ReaderChunks,
    text: str | None,
    chunk_id: str | None,
    entity: str | None,
) -> tuple[np.ndarray, set[str]]:
    """The example's vector, and the chunk ids to leave out (the example itself).

    Raises:
        ArgumentError: an unknown chunk id, or an entity without a defining chunk.
        EntityNotFoundError: the entity is unknown or ambiguous.
        RuntimeError: the catalog has no embedder.
    """
    if catalog.embedder is None:
        raise RuntimeError("find_similar needs an embedder; open the catalog with one")
    if text:
        return np.asarray(catalog.embedder.embed_query(text)), set()
    if entity:
        found = resolve_entity(directory, entity)
        if not found.chunk_id:
            raise ArgumentError(f"entity: {found.id} has no defining chunk; pass text instead")
        chunk_id = found.chunk_id
    assert chunk_id is not None
    chunk = source.chunks([chunk_id]).get(chunk_id)
    if chunk is None:
        raise ArgumentError(f"chunk_id: no chunk with id '{chunk_id}'; take ids from search results")
    stored = source.vector(chunk.id)
    vector = stored if stored is not None else catalog.embedder.embed([embedding_text(chunk)])[0]
    return np.asarray(vector), {chunk.id}


class Neighbours:
    """The example's nearest chunks in a scope, and what the kinds filter passed over on the way to them."""

    def __init__(
        self, tenant: str, source: ReaderChunks, vector: np.ndarray, exclude: set[str], kinds: Sequence[str] | None
    ):
        self.tenant, self.source, self.vector, self.exclude, self.kinds = tenant, source, vector, exclude, kinds
        self.passed_over: Counter[str] = Counter()  # nearer chunks of other kinds, by kind
        self.looked_at = 0
        self.short = False  # the kinds filter left fewer than asked among every neighbour looked at

    def hits(self, projects: Sequence[str] | None, top_k: int) -> list[SearchHit]:
        """The nearest `top_k` chunks of the kinds asked for in `projects`, counting what the kinds filter passed
        over before them."""
        chunks = self._fetch(projects, top_k)
        hits: list[SearchHit] = []
        self.passed_over.clear()
        for n, (chunk, score) in enumerate(chunks, start=1):
            if self.kinds and str(chunk.kind) not in self.kinds:
                self.passed_over[str(chunk.kind)] += 1
                continue
            hits.append(SearchHit.from_chunk(chunk, len(hits) + 1, score, {"semantic": len(hits) + 1}))
            if len(hits) == top_k:
                self.looked_at = n
                return hits
        self.looked_at, self.short = len(chunks), True
        return hits

    def nearest(self, projects: Sequence[str] | None, count: int) -> list[Chunk]:
        """The nearest `count` chunks of the kinds asked for in `projects` (for counting, not shown)."""
        return self._kept(self._fetch(projects, count))[:count]

    def _fetch(self, projects: Sequence[str] | None, top_k: int) -> list[tuple[Chunk, float]]:
        """Enough of the nearest chunks in `projects` for `top_k` of the kinds asked for, if there are so many:
        a few per hit wanted, and the nearest DEEP_FETCH when the kinds asked for lie further out."""
        fetch = top_k * OVERFETCH + len(self.exclude)
        chunks = self._nearest(projects, fetch)
        if self.kinds and len(self._kept(chunks)) < top_k and len(chunks) == fetch:
            chunks = self._nearest(projects, DEEP_FETCH)
        return chunks

    def _kept(self, chunks: Sequence[tuple[Chunk, float]]) -> list[Chunk]:
        return [chunk for chunk, _ in chunks if not self.kinds or str(chunk.kind) in self.kinds]

    def _nearest(self, projects: Sequence[str] | None, count: int) -> list[tuple[Chunk, float]]:
        where = SearchFilter(self.tenant, tuple(projects) if projects is not None else None)
        scored = self.source.nearest(self.vector, count, where)
        chunks = self.source.chunks([s.id for s in scored if s.id not in self.exclude])
        return [(chunks[s.id], s.score) for s in scored if s.id in chunks]


def _kinds_entry(near: Neighbours, again: dict[str, object]) -> Omitted:
    """The nearer chunks of other kinds the kinds filter passed over (every one it met, when the answer is short);
    the call without the filter, as deep as they lie, shows them."""
    count = sum(near.passed_over.values())
    where = f"among the nearest {near.looked_at}" if near.short else "nearer than the last hit"
    return Omitted(
        reason=OmitReason.KINDS,
        count=count,
        detail=f"{count} chunk(s) of other kinds ({breakdown(near.passed_over)}) {where}",
        next_call=suggest_call("find_similar", **(again | {"top_k": min(near.looked_at, MAX_TOP_K), "kinds": None})),
    )


def _elsewhere(near: Neighbours, projects: Sequence[str], top_k: int, again: dict[str, object]) -> list[Omitted]:
    """For a short answer: the nearest neighbours in other projects (one more search, without the scope)."""
    nearest = near.nearest(None, top_k)
    others = Counter(chunk.project for chunk in nearest if chunk.project not in projects)
    if not others:
        return []
    count = sum(others.values())
    return [
        Omitted(
            reason=OmitReason.PROJECTS,
            count=count,
            at_least=count == top_k,
            detail=f"{count} of the {len(nearest)} nearest chunk(s) in other projects ({breakdown(others)})",
            next_call=suggest_call("find_similar", **(again | {"projects": None})),
        )
    ]
