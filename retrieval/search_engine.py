"""Search: the routed paths (BM25, dense, graph walk or hop, instruction files) run concurrently, then fuse.

A search runs in five stages, one module each: plan (`search_plan`), run the paths (`search_runs`), fuse
(`search_fuse`), collect the hits (`search_hits`) and check their evidence (`evidence_flags`), diagnostics
(`diagnostics`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import replace
from functools import partial
from typing import Any

import anyio
from pydantic import BaseModel, Field

from trident.retrieval.diagnostics import Diagnostics, diagnose
from trident.retrieval.evidence_flags import EvidenceSummary, check_evidence
from trident.retrieval.file_support import FILE_HEAD, lifted_by_file
from trident.retrieval.named_project import named_first, named_project
from trident.retrieval.omitted import OMITTED_HELP, OmitReason, Omitted
from trident.retrieval.routing_rules import QueryType
from trident.retrieval.search_fuse import Fused, fuse_runs
from trident.retrieval.search_hidden import hidden
from trident.retrieval.search_hits import CANDIDATES_PER_HIT, Hits, SearchHit, collect_hits
from trident.retrieval.search_plan import SearchPlan, Strategy, plan_search, scope_search
from trident.retrieval.search_request import SearchRequest
from trident.retrieval.search_runs import PATH_TIMEOUT_S, PathRuns, run_paths
from trident.retrieval.supporting_files import definitions_first
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.schema import Chunk

__all__ = ["Diagnostics", "GenerationViews", "SearchHit", "SearchResult", "Strategy", "search", "search_async"]


class SearchResult(BaseModel):
    query: str
    hits: list[SearchHit]
    diagnostics: Diagnostics
    entities: list[str] = Field(default_factory=list, description="Ids of the indexed entities the query names")
    truncated: bool = Field(False, description="True when the token budget (max_tokens) cut the hits short")
    # The engine leaves the calls empty: the search tool (tools/search.py) builds them from the call's own arguments.
    next_call: str | None = Field(None, description="When truncated, the call that returns more")
    omitted: list[Omitted] = Field(default_factory=list, description=OMITTED_HELP)
    message: str | None = Field(
        None,
        description="When there are no hits: which filters or limits emptied the answer; when a path failed or "
        "was not ready: that the answer is partial, and which paths it lacks and why",
    )


# Query types whose answers are not one definition: their ranking stays as fused.
_WHOLE_RANKING = frozenset({QueryType.RELATIONSHIP, QueryType.OVERVIEW, QueryType.LOCAL_ONLY})


def _reranked(
    plan: SearchPlan,
    fused: Fused,
    read: Callable[[list[str]], Mapping[str, Chunk]],
    request: SearchRequest,
    projects: Collection[str],
) -> Fused:
    """The fused ranking with the head's chunks read once and reordered by what they are: the hits of the project the
    question names (of the index's `projects`) before the others' (retrieval/named_project.py), unless the caller
    scoped the search itself; then tests, examples and change logs after the definitions (retrieval/
    supporting_files.py), and the definitions of a file several head chunks come from lifted (retrieval/
    file_support.py), not when the question asks how things relate (a test calling X answers "what calls X"), for an
    overview (a module's preamble and its docs are read first) nor for the projects' instruction files."""
    named = named_project(request.query, projects) if request.projects is None else None
    whole = plan.route is not None and plan.route.query_type in _WHOLE_RANKING
    if named is None and whole:
        return fused
    depth = (request.offset + request.top_k) * CANDIDATES_PER_HIT  # what the page looks at: each step reorders in it
    chunks = read([item.id for item in fused.items[: max(depth, FILE_HEAD)]])
    items = named_first(fused.items, chunks, named, depth) if named is not None else list(fused.items)
    if not whole:
        items = lifted_by_file(definitions_first(items, chunks, request.query, depth), chunks)
    return replace(fused, items=items)


def search(catalog: Catalog, query: str, **options: Any) -> SearchResult:
    """Blocking form of `search_async` for scripts and the CLI (not for use inside an event loop)."""
    return anyio.run(partial(search_async, catalog, query, **options))


async def search_async(
    catalog: Catalog, query: str, *, views: GenerationViews, path_timeout: float = PATH_TIMEOUT_S, **options: Any
) -> SearchResult:
    """`answer_search` for a query and the request's other arguments as callers write them (`SearchRequest.of`).

    Raises:
        ArgumentError: an unknown strategy or fusion.
        RuntimeError: the catalog has no embedder.
    """
    return await answer_search(catalog, SearchRequest.of(query, **options), views=views, path_timeout=path_timeout)


async def answer_search(
    catalog: Catalog, request: SearchRequest, *, views: GenerationViews, path_timeout: float = PATH_TIMEOUT_S
) -> SearchResult:
    """Ranked, cited chunks for a request's query (and its expansions) over one tenant's index; `views` are what the
    searches of one process share of the index generation (built once, from its retrieval settings).

    The planned paths run concurrently in worker threads; a path that fails or times out is reported in
    `diagnostics.failed_paths` and the others' results stand. `offset` skips the ranking's first hits (a further
    page); `max_tokens` caps the hits' JSON. The caller's limits (top_k, offset, max_tokens, the number of
    expansions) are the search tool's to check (tools/search.py).

    Raises:
        RuntimeError: the catalog has no embedder.
    """
    query, projects = request.query, request.projects
    plan = plan_search(query, request.strategy, request.fusion, request.expansions)
    embedding = views.embedding(catalog)  # of the generation searched (a newer one may be published meanwhile)
    directory = views.built_directory(catalog)  # the first build goes to a worker thread
    if directory is None and not views.walk_pending(catalog):  # else built in the background: answer without it
        directory = await anyio.to_thread.run_sync(views.directory, catalog)
    scope = scope_search(plan, directory, query, projects, catalog.tenant)

    def answer() -> tuple[PathRuns, Fused, Hits, EvidenceSummary, list[Omitted]]:  # one worker thread
        runs = run_paths(catalog, views, plan, scope, path_timeout)
        fused = fuse_runs(plan, runs, request.explain)
        fused = _reranked(plan, fused, partial(views.chunks, catalog), request, catalog.manifest.roots)
        hits = collect_hits(
            catalog,
            views,
            fused.items,
            paths=plan.paths,
            top_k=request.top_k,
            projects=projects,
            max_tokens=request.max_tokens,
            terms=fused.terms if request.explain else None,
            offset=request.offset,
        )
        # An empty page: what each narrowing argument hid, from the counts at hand (the search never runs again).
        hid = hidden(catalog, directory, request, plan, runs, hits.elsewhere) if not hits.hits else []
        return runs, fused, hits, check_evidence(catalog, directory, hits.hits, views), hid

    # A cancelled search returns at once; its runs end unseen.
    runs, fused, hits, evidence, hid = await anyio.to_thread.run_sync(answer, abandon_on_cancel=True)
    hits.refit()  # the flags and times just set count against max_tokens too
    return SearchResult(
        query=query,
        hits=hits.hits,
        diagnostics=diagnose(query, plan, scope, runs, fused, hits.hits, request.explain, evidence, embedding),
        entities=[e.id for e in runs.seeds()[:20]],
        truncated=hits.truncated,
        omitted=[e for e in hits.omitted(len(fused.items)) if not hid or e.reason is not OmitReason.PROJECTS] + hid,
    )
