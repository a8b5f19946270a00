"""Search: the routed paths (BM25, dense, graph walk or hop, instruction files) run concurrently, then fuse."""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from enum import StrEnum
from functools import partial
from typing import Any

import anyio
from pydantic import BaseModel, Field
from trident.retrieval.communities import community_of
from trident.retrieval.fusion import FusionMethod, PrimaryFirst, make_fuser
from trident.retrieval.path_names import PathName
from trident.retrieval.paths import (
    GUESSED_WALK_SHARE,
    PATHS,
    PathHits,
    QueryVectors,
    query_entities,
    run_path,
)
from trident.retrieval.router import Plan, route
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.directory import EntityDirectory
from trident.store.protocols import SearchFilter
from trident.store.schema import Chunk, Entity
from trident.store.tokens import estimate_tokens
from trident.tools.calls import suggest_call

__all__ = ["PATHS", "GenerationViews", "SearchHit", "SearchResult", "Strategy", "search", "search_async"]

SNIPPET_CHARS = 320


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
    entities: list[str] = Field(default_factory=list, description="Names of the symbols this chunk defines")
    duplicates: list[str] = Field(
        default_factory=list, description="Citations of near-identical chunks merged into this hit"
    )
    explanation: dict[str, float] | None = Field(
        default=None, description="With explain: each path's (and expansion's) contribution to the fused score"
    )

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
            entities=list(chunk.symbols[:10]),
        )


class SearchResult(BaseModel):
    query: str
    hits: list[SearchHit]
    diagnostics: dict[str, object]
    entities: list[str] = Field(default_factory=list, description="Ids of the indexed entities the query names")
    truncated: bool = Field(False, description="True when max_tokens cut the hits short")
    next_call: str | None = Field(None, description="When truncated, the call that returns more")


def snippet(chunk: Chunk) -> str:
    text = chunk.text.strip()
    return text if len(text) <= SNIPPET_CHARS else text[:SNIPPET_CHARS].rstrip() + " …"


class Strategy(StrEnum):
    AUTO = "auto"
    HYBRID = "hybrid"
    LEXICAL = "lexical"
    SEMANTIC = "semantic"
    GRAPH = "graph"
    PPR = "ppr"
    COMMUNITY = "community"


# `auto` runs what the route plans; `hybrid` is BM25 + dense fused as the route would fuse them; a forced single
# strategy runs one path, unfused, for comparison.
STRATEGY_PATHS: dict[Strategy, tuple[PathName, ...]] = {
    Strategy.AUTO: (PathName.LEXICAL, PathName.SEMANTIC, PathName.GRAPH),
    Strategy.HYBRID: (PathName.LEXICAL, PathName.SEMANTIC),
    Strategy.LEXICAL: (PathName.LEXICAL,),
    Strategy.SEMANTIC: (PathName.SEMANTIC,),
    Strategy.GRAPH: (PathName.GRAPH,),
    Strategy.PPR: (PathName.PPR,),
    Strategy.COMMUNITY: (PathName.COMMUNITY,),
}
MAX_EXPANSIONS = 5
PATH_TIMEOUT_S = 10.0
FETCH_MARGIN = 5  # chunks fetched beyond top_k at first, for the duplicates and filtered ones a page may hold


def _validate(query: str, top_k: int, expansions: Sequence[str] | None, max_tokens: int | None) -> None:
    if not query.strip():
        raise ValueError("query must not be empty")
    if not 1 <= top_k <= 100:
        raise ValueError(f"top_k must be between 1 and 100, got {top_k}")
    if expansions is not None and len(expansions) > MAX_EXPANSIONS:
        raise ValueError(f"expansions: at most {MAX_EXPANSIONS} alternative phrasings, got {len(expansions)}")
    if max_tokens is not None and max_tokens < 50:
        raise ValueError(f"max_tokens must be at least 50, got {max_tokens}")


def search(catalog: Catalog, query: str, **options: Any) -> SearchResult:
    """Blocking form of `search_async` for scripts and the CLI (not for use inside an event loop)."""
    return anyio.run(partial(search_async, catalog, query, **options))


async def search_async(
    catalog: Catalog,
    query: str,
    *,
    top_k: int = 10,
    projects: Sequence[str] | None = None,
    strategy: Strategy | str = Strategy.AUTO,
    expansions: Sequence[str] | None = None,
    fusion: FusionMethod | str | None = None,
    max_tokens: int | None = None,
    explain: bool = False,
    views: GenerationViews | None = None,
    path_timeout: float = PATH_TIMEOUT_S,
) -> SearchResult:
    """Ranked, cited chunks for a query (and its expansions) over one tenant's index.

    The planned paths run concurrently in worker threads; a path that fails or times out is reported in
    diagnostics["failed_paths"] and the others' results stand.

    Raises:
        ValueError: an empty query, top_k outside 1..100, an unknown strategy or fusion, too many expansions,
            or max_tokens below 50.
    """
    _validate(query, top_k, expansions, max_tokens)
    try:
        chosen = Strategy(strategy)
    except ValueError:
        raise ValueError(f"unknown strategy '{strategy}'; known: {', '.join(s.value for s in Strategy)}") from None
    plan = _plan(query, chosen)
    fuser = make_fuser(fusion or (plan.fusion if plan is not None else FusionMethod.RRF))
    if plan is not None and plan.primary in plan.strategies:
        fuser = PrimaryFirst(fuser, plan.primary, plan.primary_depth, plan.primary_reorders)
    paths = plan.strategies if plan is not None else STRATEGY_PATHS[chosen]
    if catalog.embedder is None:
        raise RuntimeError("search needs an embedder; open the catalog with one")
    where = SearchFilter(catalog.tenant, tuple(projects) if projects is not None else None)
    views = views or GenerationViews()
    directory = await anyio.to_thread.run_sync(views.directory, catalog)
    scoped = _graph_scope(plan, directory, query, projects, catalog.tenant) if plan is not None else None
    texts = [query, *(e for e in (expansions or []) if e.strip())]
    jobs = [(path if i == 0 else f"{path}#{i}", path, text) for i, text in enumerate(texts) for path in paths]
    embed = QueryVectors(catalog.embedder)
    results: dict[str, PathHits] = {}
    timings: dict[str, float] = {}
    failures: dict[str, str] = {}

    async def run(key: str, path: str, text: str) -> None:
        started = time.perf_counter()
        with anyio.move_on_after(path_timeout) as scope:
            try:
                path_where = scoped if scoped is not None and path == "semantic" else where
                results[key] = await anyio.to_thread.run_sync(
                    run_path,
                    catalog,
                    path,
                    text,
                    path_where,
                    views,
                    projects,
                    embed,
                    plan is not None and plan.seed_by_vectors,
                    abandon_on_cancel=True,
                )
            except Exception as exc:  # one failing engine must not sink the other paths; it is reported
                failures[key] = f"{type(exc).__name__}: {exc}"
        if scope.cancelled_caught:
            failures[key] = f"timed out after {path_timeout:g} s"
        timings[key] = time.perf_counter() - started

    async with anyio.create_task_group() as group:
        for key, path, text in jobs:
            group.start_soon(run, key, path, text)
    # Fuse in plan order, whatever order the threads finished in, so output stays byte-for-byte stable.
    lists = {key: results[key].hits for key, _, _ in jobs if key in results}
    seeds: list[Entity] = []
    for key, _, _ in jobs:
        seeds.extend(e for e in (results[key].seeds if key in results else []) if e not in seeds)

    weights = None
    if plan is not None:
        weights = {
            key: plan.weights.get(key.split("#", 1)[0], 1.0) * (1.0 if results[key].named else GUESSED_WALK_SHARE)
            for key in lists
        }
    if isinstance(fuser, PrimaryFirst) and not any(
        results[key].named for key in lists if key.split("#", 1)[0] == fuser.primary
    ):
        fuser = fuser.inner
    fused = fuser.fuse(lists, weights)
    terms = fuser.terms(lists, weights) if explain else {}
    allowed = set(projects) if projects is not None else None
    hits_out: list[SearchHit] = []
    by_text: dict[str, SearchHit] = {}
    used_tokens, truncated = 0, False
    considered = fused[: top_k * 3]
    # Chunks are fetched a window at a time: most searches need little more than top_k of them, and each costs a
    # lookup; a window more is fetched only when duplicates or the project filter used some up.
    window = top_k + FETCH_MARGIN
    for start in range(0, len(considered), window):
        block = considered[start : start + window]
        chunks = await anyio.to_thread.run_sync(catalog.graph.get_chunks, [item.id for item in block])
        for item in block:
            chunk = chunks.get(item.id)
            if chunk is None or (allowed is not None and chunk.project not in allowed):
                continue
            first = by_text.get(_fingerprint(chunk.text))
            if first is not None:
                # The same text in another file (a copy, a vendored module): one hit, the copy kept as corroboration.
                first.duplicates.append(chunk.citation)
                first.sources = _best_ranks(first.sources, _path_ranks(item.ranks, paths))
                continue
            hit = SearchHit.from_chunk(chunk, len(hits_out) + 1, item.score, _path_ranks(item.ranks, paths))
            if explain:
                hit.explanation = {key: round(value, 6) for key, value in terms.get(item.id, {}).items()}
            cost = estimate_tokens(hit.snippet) + 20
            if max_tokens is not None and used_tokens + cost > max_tokens:
                truncated = True
                break
            used_tokens += cost
            hits_out.append(hit)
            by_text[_fingerprint(chunk.text)] = hit
            if len(hits_out) == top_k:
                break
        if truncated or len(hits_out) == top_k:
            break
    diagnostics: dict[str, object] = {
        "fusion": str(fuser),
        "strategy": chosen.value,
        "candidates": {key: len(value) for key, value in lists.items()},
        "entities": [e.id for e in seeds[:10]],
        "timings_ms": {k: round(timings[k] * 1000, 2) for k, _, _ in jobs},
    }
    if failures:
        diagnostics["failed_paths"] = failures
    matches = [m for key, _, _ in jobs if key in results for m in results[key].communities]
    if matches:
        # Which part of the index each community hit stands for: the reports matched and each hit's community.
        summaries: dict[str, dict[str, object]] = {}
        for match in matches:
            summaries.setdefault(match.report.id, match.summary())
        diagnostics["communities"] = list(summaries.values())
        drawn = {hit.id: community_of(matches, hit.id) for hit in hits_out}
        diagnostics["hit_communities"] = {i: m.report.id for i, m in drawn.items() if m is not None}
    if scoped is not None:
        diagnostics["semantic_scope"] = list(scoped.projects or ())
    if plan is not None:
        diagnostics["route"] = str(plan)
    if plan is not None and plan.primary is not None:
        diagnostics["primary_led"] = isinstance(fuser, PrimaryFirst) and bool(fuser.head(lists))
    if explain:
        diagnostics["route"] = (plan or route(query)).model_dump(mode="json") | {"applied": plan is not None}
        diagnostics["top_per_path"] = {key: [h.id for h in value[:5]] for key, value in lists.items()}
    next_call = None
    if truncated:
        next_call = suggest_call(
            "search",
            query=query,
            top_k=top_k,
            projects=list(projects) if projects is not None else None,
            strategy=chosen if chosen is not Strategy.AUTO else None,
            expansions=list(expansions) if expansions else None,
            fusion=FusionMethod(fusion) if fusion else None,
            max_tokens=max_tokens * 2 if max_tokens else None,
        )
    return SearchResult(
        query=query,
        hits=hits_out,
        diagnostics=diagnostics,
        entities=[e.id for e in seeds[:20]],
        truncated=truncated,
        next_call=next_call,
    )


def _plan(query: str, strategy: Strategy) -> Plan | None:
    """The route's plan for `auto`; for `hybrid`, the same plan narrowed to the lexical and semantic paths (no
    graph, so no graph-scoped vectors)."""
    if strategy is Strategy.AUTO:
        return route(query)
    if strategy is Strategy.HYBRID:
        plan = route(query)
        paths = STRATEGY_PATHS[Strategy.HYBRID]
        return plan.model_copy(
            update={
                "strategies": paths,
                "weights": {p: w for p, w in plan.weights.items() if p in paths},
                "graph_scopes_vector": False,
            }
        )
    return None


def _path_ranks(ranks: dict[str, int | None], planned: Sequence[str]) -> dict[str, int | None]:
    """Each planned path's best rank for a hit over the query and its expansions (keys like `semantic#2`); None
    where the path did not find it, failed or timed out."""
    out: dict[str, int | None] = dict.fromkeys(planned)
    for key, rank in ranks.items():
        path, current = key.split("#", 1)[0], out.get(key.split("#", 1)[0])
        if rank is not None and (current is None or rank < current):
            out[path] = rank
    return out


_SPACE = re.compile(r"\s+")


def _fingerprint(text: str) -> str:
    """Chunks equal up to whitespace and case count as one (copied or vendored code, duplicated docs)."""
    return _SPACE.sub(" ", text).strip().lower()


def _best_ranks(a: dict[str, int | None], b: dict[str, int | None]) -> dict[str, int | None]:
    return {k: min((r for r in (a.get(k), b.get(k)) if r is not None), default=None) for k in {**a, **b}}


def _graph_scope(
    plan: Plan, directory: EntityDirectory, query: str, projects: Sequence[str] | None, tenant: str
) -> SearchFilter | None:
    """For cross-project and pattern questions, the projects where the query's entities live scope the vectors."""
    if not plan.graph_scopes_vector:
        return None
    found = sorted({e.project for e in query_entities(directory, query) if projects is None or e.project in projects})
    if not found:
        return None
    return SearchFilter(tenant, tuple(found))
