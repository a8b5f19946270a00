"""What a search left out, said with the calls that show it: the engine counts what its project filter, top_k and the
budget left out of the page; here each gets the call that shows it, built from the caller's own arguments, and an
empty answer is searched again with each narrowing argument loosened in turn (an empty search is rare; a full one
pays nothing more) so its message names the arguments that emptied it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from trident.retrieval import search_engine as engine
from trident.retrieval.fusion import FusionMethod
from trident.retrieval.omitted import OmitReason, Omitted, breakdown, empty_message
from trident.retrieval.search_engine import SearchResult, Strategy
from trident.retrieval.search_request import SearchRequest
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.tools.calls import RESPONSE_TOKENS, suggest_call
from trident.tools.detail import Detail


@dataclass(frozen=True)
class SearchCall:
    """A search as the caller asked for it, to run again or suggest with some arguments changed; `detail` shapes the
    answer only (the engine never sees it)."""

    request: SearchRequest
    detail: Detail = Detail.FULL

    def suggest(self, **changed: Any) -> str:
        """The call with `changed` arguments, every other one as given (defaults left out, so it pastes back)."""
        c = replace(self.request, **changed)
        return suggest_call(
            "search",
            query=c.query,
            top_k=c.top_k,
            offset=c.offset or None,
            projects=list(c.projects) if c.projects is not None else None,
            strategy=c.strategy if c.strategy is not Strategy.AUTO else None,
            expansions=list(c.expansions) if c.expansions else None,
            fusion=c.fusion,
            max_tokens=c.max_tokens,
            explain=c.explain or None,
            detail=self.detail if self.detail is not Detail.FULL else None,
        )

    async def run(self, catalog: Catalog, views: GenerationViews, **changed: Any) -> SearchResult:
        """The engine's answer to the call with `changed` arguments (within the tool's budget when it set none)."""
        c = replace(self.request, **changed)
        budgeted = c if c.max_tokens is not None else replace(c, max_tokens=RESPONSE_TOKENS)
        return await engine.answer_search(catalog, budgeted, views=views)


async def accounted(catalog: Catalog, views: GenerationViews, call: SearchCall, result: SearchResult) -> SearchResult:
    """The answer with the call for its next page when the budget cut it, the call that shows each thing it left
    out, and, when it is empty, what each narrowing argument hid and a message naming them."""
    shown = len(result.hits)
    next_call = None
    if result.truncated:
        # Every argument the caller gave is kept, so the call pastes back as is; the page moves on past these hits.
        next_call = call.suggest(top_k=call.request.top_k - shown, offset=call.request.offset + shown)
    calls = {
        OmitReason.PROJECTS: call.suggest(projects=None),
        OmitReason.TOP_K: call.suggest(offset=call.request.offset + shown),
        OmitReason.OFFSET: call.suggest(offset=0),
    }
    omitted = [entry.model_copy(update={"next_call": calls.get(entry.reason)}) for entry in result.omitted]
    messages = []
    if not result.hits:
        omitted = [e for e in omitted if e.reason is not OmitReason.PROJECTS] + await _loosened(catalog, views, call)
        messages.append(
            _unfilled(catalog, call.request.query) or empty_message(f"no hits for {call.request.query!r}", omitted)
        )
    partial = _partial(result)
    if partial:
        messages.append(partial)
    message = "; ".join(messages) or None
    return result.model_copy(update={"next_call": next_call, "omitted": omitted, "message": message})


async def _loosened(catalog: Catalog, views: GenerationViews, call: SearchCall) -> list[Omitted]:
    """For each argument that narrows the search (projects, a forced strategy, intersection fusion), the hits the same
    search finds with that one loosened."""
    loosen: list[tuple[OmitReason, dict[str, Any], str]] = []
    if call.request.projects is not None:
        loosen.append((OmitReason.PROJECTS, {"projects": None}, "in other projects"))
    if call.request.strategy is not Strategy.AUTO:
        loosen.append((OmitReason.STRATEGY, {"strategy": Strategy.AUTO}, "from the paths strategy='auto' runs"))
    if call.request.fusion is FusionMethod.INTERSECTION:
        loosen.append((OmitReason.FUSION, {"fusion": None}, "found by some of the paths but not all"))
    omitted = []
    for reason, changed, where in loosen:
        found = await call.run(catalog, views, **changed)
        hits = found.hits
        if reason is OmitReason.PROJECTS:
            hits = [h for h in hits if call.request.projects is not None and h.project not in call.request.projects]
        if not hits:
            continue
        full = len(found.hits) == call.request.top_k or found.truncated
        detail = f"{'at least ' if full else ''}{len(hits)} hit(s) {where}"
        if reason is OmitReason.PROJECTS:
            detail += f" ({breakdown(Counter(h.project for h in hits))})"
        omitted.append(
            Omitted(reason=reason, count=len(hits), at_least=full, detail=detail, next_call=call.suggest(**changed))
        )
    return omitted


def _unfilled(catalog: Catalog, query: str) -> str | None:
    """Why an empty answer is empty when the index holds nothing (yet) to find."""
    if catalog.manifest.documents:
        return None
    return (
        f"no hits for {query!r}: the index at {catalog.index_dir} is empty; index a folder first (index_path, or "
        "`trident index PATH` in a terminal)"
    )


def _partial(result: SearchResult) -> str | None:
    """That an answer with hits is partial: the paths that failed or were not ready, and those that reached only the
    part of the index embedded so far, each with why."""
    failed, partial = result.diagnostics.failed_paths or {}, result.diagnostics.partial_paths or {}
    short = [f"the {path} path did not answer ({why})" for path, why in failed.items()]
    short += [f"the {path} path answered from part of the index ({why})" for path, why in partial.items()]
    return "partial answer: " + "; ".join(short) if short else None
