"""The `search` tool: the caller's arguments checked against the tool's limits, the search engine run within a token
budget, and, when the budget cut the hits short, the call that returns the rest (the next page); the answer's hits
in full or compact (tools/search_compact.py)."""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Any

import anyio

from trident.retrieval import search_engine as engine
from trident.retrieval.reader import Reader
from trident.retrieval.search_engine import Diagnostics, SearchHit, SearchResult, Strategy
from trident.retrieval.search_request import SearchRequest
from trident.store.errors import ArgumentError
from trident.tools.calls import RESPONSE_TOKENS, check_range
from trident.tools.detail import Detail
from trident.tools.freshness import mark_stale, pending_changes
from trident.tools.search_compact import CompactHit, SearchAnswer, compact_answer
from trident.tools.search_omitted import SearchCall, accounted

__all__ = [
    "DEFAULT_MAX_TOKENS",
    "MAX_EXPANSIONS",
    "MAX_MAX_TOKENS",
    "MAX_OFFSET",
    "MAX_QUERY_CHARS",
    "MAX_TOP_K",
    "MIN_MAX_TOKENS",
    "CompactHit",
    "Detail",
    "Diagnostics",
    "SearchAnswer",
    "SearchHit",
    "SearchResult",
    "Strategy",
    "answer",
    "answer_async",
    "check_arguments",
    "search",
    "search_async",
]

MAX_QUERY_CHARS = 4_000
MAX_TOP_K = 100
MAX_OFFSET = 1_000
MAX_EXPANSIONS = 5
# Unless the caller sets max_tokens, the hits stop at the answer budget of every tool (a hit costs 100-250 tokens,
# so 10 hits always fit and top_k=100 comes in pages).
DEFAULT_MAX_TOKENS = RESPONSE_TOKENS
# Below 50 tokens not one hit fits (a page still returns its first); top_k hits stay far below the upper bound.
MIN_MAX_TOKENS = 50
MAX_MAX_TOKENS = 100_000


def check_arguments(request: SearchRequest) -> None:
    """Refuse a request outside the tool's limits.

    Raises:
        ArgumentError: a blank or overlong query, top_k outside 1..MAX_TOP_K, offset outside 0..MAX_OFFSET, more
            than MAX_EXPANSIONS expansions, or max_tokens outside MIN_MAX_TOKENS..MAX_MAX_TOKENS; the message names
            the argument.
    """
    query, expansions, max_tokens = request.query, request.expansions, request.max_tokens
    if not query.strip():
        raise ArgumentError("query must not be empty")
    if len(query) > MAX_QUERY_CHARS:
        raise ArgumentError(f"query: at most {MAX_QUERY_CHARS} characters, got {len(query)}")
    check_range("top_k", request.top_k, 1, MAX_TOP_K)
    check_range("offset", request.offset, 0, MAX_OFFSET)
    if expansions is not None and len(expansions) > MAX_EXPANSIONS:
        raise ArgumentError(f"expansions: at most {MAX_EXPANSIONS} alternative phrasings, got {len(expansions)}")
    if max_tokens is not None:
        check_range("max_tokens", max_tokens, MIN_MAX_TOKENS, MAX_MAX_TOKENS)


async def search_async(reader: Reader, query: str, *, detail: Detail = Detail.FULL, **options: Any) -> SearchResult:
    """Ranked, cited chunks for a query (`options`: the rest of the request, `SearchRequest.of`), as the `search`
    tool answers: the hits after the first `offset`, within `max_tokens` (DEFAULT_MAX_TOKENS when None); when the
    budget cut them short, `next_call` is the same call for the rest: the next page. `omitted` says what the project
    scope, top_k and the budget left out, each with the call that shows it; an empty answer also says what each
    narrowing argument hid, and `message` names them. `detail` is kept in those calls; the hits are in full
    (`answer_async` makes them compact).

    Raises:
        ArgumentError: an argument outside the tool's limits (see `check_arguments`), an unknown strategy or fusion.
        RuntimeError: the catalog has no embedder.
    """
    request = SearchRequest.of(query, **options)
    check_arguments(request)
    catalog, views = reader.catalog, reader.views
    budgeted = request if request.max_tokens is not None else replace(request, max_tokens=DEFAULT_MAX_TOKENS)
    result = await engine.answer_search(catalog, budgeted, views=views)
    stale = await anyio.to_thread.run_sync(mark_stale, catalog, result.hits, views.state.hashes)
    if stale:
        result.diagnostics.stale_hits = stale
    pending = pending_changes(catalog, result.hits, views.state)  # never waits: counted in the background
    if pending:
        result.diagnostics.pending_changes = pending
    return accounted(catalog, SearchCall(request, detail), result)


async def answer_async(
    reader: Reader, query: str, *, detail: Detail | str = Detail.FULL, **options: Any
) -> SearchAnswer:
    """The `search` tool's answer: `search_async`'s (`options` are its arguments), its hits in full or, with
    detail='compact', compact.

    Raises:
        ArgumentError: an unknown detail; as `search_async`.
        RuntimeError: as `search_async`.
    """
    chosen = Detail.parse(detail)
    result = await search_async(reader, query, detail=chosen, **options)
    if chosen is Detail.FULL:
        return SearchAnswer.full(result)
    # The directory names what the hits define; it is built by now unless the walk is still pending (then: titles).
    directory = reader.views.built_directory(reader.catalog)
    return await anyio.to_thread.run_sync(compact_answer, result, directory, reader.chunks)


def search(reader: Reader, query: str, **options: Any) -> SearchResult:
    """Blocking form of `search_async` for the CLI and scripts (not for use inside an event loop).

    Raises:
        ArgumentError: as `search_async`.
        RuntimeError: as `search_async`.
    """
    return anyio.run(partial(search_async, reader, query, **options))


def answer(reader: Reader, query: str, **options: Any) -> SearchAnswer:
    """Blocking form of `answer_async` for the CLI and scripts (not for use inside an event loop).

    Raises:
        ArgumentError: as `answer_async`.
        RuntimeError: as `answer_async`.
    """
    return anyio.run(partial(answer_async, reader, query, **options))
