"""Plain hybrid search: BM25 + dense + one graph hop from the entities the query names, fused with RRF."""

from __future__ import annotations

import re
import time
from collections.abc import Sequence

from pydantic import BaseModel, Field
from trident.store.catalog import Catalog
from trident.store.directory import EntityDirectory
from trident.store.protocols import SearchFilter
from trident.store.schema import Chunk, Entity
from trident.tools.fusion import RRF

CANDIDATES_PER_PATH = 50
GRAPH_EDGES = 60
SNIPPET_CHARS = 320
PATHS = ("lexical", "semantic", "graph")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")


class SearchHit(BaseModel):
    rank: int
    id: str
    project: str
    path: str
    start_line: int
    end_line: int
    score: float
    snippet: str
    title: str = ""
    citation: str
    sources: dict[str, int | None] = Field(description="Rank of this hit in each retrieval path, null if absent")

    @classmethod
    def from_chunk(cls, chunk: Chunk, rank: int, score: float, sources: dict[str, int | None]) -> SearchHit:
        return cls(
            rank=rank,
            id=chunk.id,
            project=chunk.project,
            path=chunk.path,
            start_line=chunk.start_line,
            end_line=chunk.end_line,
            score=round(score, 6),
            snippet=snippet(chunk),
            title=chunk.title,
            citation=chunk.citation,
            sources=sources,
        )


class SearchResult(BaseModel):
    query: str
    hits: list[SearchHit]
    diagnostics: dict[str, object]


class EntityNames:
    """The entity directory of one index generation, built once and reused until the index changes."""

    def __init__(self) -> None:
        self._generation = -1
        self._directory = EntityDirectory(())

    def get(self, catalog: Catalog) -> EntityDirectory:
        if self._generation != catalog.manifest.generation:
            self._directory = EntityDirectory(catalog.entities())
            self._generation = catalog.manifest.generation
        return self._directory


def query_entities(directory: EntityDirectory, query: str) -> list[Entity]:
    """Entities the query names, rarest name first (a name shared by many entities says less)."""
    ids = directory.mentioned_in(query)
    for token in _IDENTIFIER.findall(query):
        looks_like_code = "_" in token or "." in token or any(c.isupper() for c in token[1:])
        if looks_like_code:
            ids.extend(e.id for e in directory.named(token.rsplit(".", 1)[-1]))
            ids.extend(e.id for e in directory.named(token))
    unique = list(dict.fromkeys(ids))
    entities = [directory.by_id[i] for i in unique if i in directory.by_id]
    return sorted(entities, key=lambda e: (len(directory.named(e.name)), unique.index(e.id)))


def graph_candidates(catalog: Catalog, entities: Sequence[Entity], limit: int) -> list[str]:
    """Chunks of the named entities first, then the evidence of their one-hop relations and their neighbours."""
    ordered: list[str] = [e.chunk_id for e in entities if e.chunk_id]
    if entities:
        relations = catalog.graph.neighbours([e.id for e in entities], catalog.tenant, GRAPH_EDGES)
        relations = sorted(relations, key=lambda r: (-r.weight, r.type, r.source, r.target, r.evidence or ""))
        ordered.extend(r.evidence for r in relations if r.evidence)
        neighbour_ids = {r.target for r in relations} | {r.source for r in relations}
        neighbours = catalog.graph.get_entities(sorted(neighbour_ids - {e.id for e in entities}))
        ordered.extend(n.chunk_id for n in neighbours if n.chunk_id)
    return list(dict.fromkeys(c for c in ordered if c))[:limit]


def snippet(chunk: Chunk) -> str:
    text = chunk.text.strip()
    return text if len(text) <= SNIPPET_CHARS else text[:SNIPPET_CHARS].rstrip() + " …"


def search(
    catalog: Catalog,
    query: str,
    *,
    top_k: int = 10,
    projects: Sequence[str] | None = None,
    names: EntityNames | None = None,
    fuser: RRF | None = None,
) -> SearchResult:
    """Ranked, cited chunks for a query over one tenant's index.

    Raises:
        ValueError: for an empty query or a top_k outside 1..100.
    """
    if not query.strip():
        raise ValueError("query must not be empty")
    if not 1 <= top_k <= 100:
        raise ValueError(f"top_k must be between 1 and 100, got {top_k}")
    if catalog.embedder is None:
        raise RuntimeError("search needs an embedder; open the catalog with one")
    fuser = fuser or RRF()
    where = SearchFilter(catalog.tenant, tuple(projects) if projects is not None else None)
    timings: dict[str, float] = {}

    started = time.perf_counter()
    lexical = [h.id for h in catalog.text.search(query, CANDIDATES_PER_PATH, where)]
    timings["lexical"] = time.perf_counter() - started

    started = time.perf_counter()
    semantic = [h.id for h in catalog.vectors.search(catalog.embedder.embed_query(query), CANDIDATES_PER_PATH, where)]
    timings["semantic"] = time.perf_counter() - started

    started = time.perf_counter()
    seeds = query_entities((names or EntityNames()).get(catalog), query)
    if projects is not None:
        seeds = [e for e in seeds if e.project in projects]
    graph_ids = graph_candidates(catalog, seeds, CANDIDATES_PER_PATH)
    timings["graph"] = time.perf_counter() - started

    fused = fuser.fuse({"lexical": lexical, "semantic": semantic, "graph": graph_ids})
    chunks = catalog.graph.get_chunks([item.id for item in fused[: top_k * 3]])
    allowed = set(projects) if projects is not None else None
    hits: list[SearchHit] = []
    for item in fused:
        chunk = chunks.get(item.id)
        if chunk is None or (allowed is not None and chunk.project not in allowed):
            continue
        hits.append(SearchHit.from_chunk(chunk, len(hits) + 1, item.score, item.ranks))
        if len(hits) == top_k:
            break
    diagnostics: dict[str, object] = {
        "fusion": str(fuser),
        "candidates": {"lexical": len(lexical), "semantic": len(semantic), "graph": len(graph_ids)},
        "entities": [e.id for e in seeds[:10]],
        "timings_ms": {k: round(v * 1000, 2) for k, v in timings.items()},
    }
    return SearchResult(query=query, hits=hits, diagnostics=diagnostics)
