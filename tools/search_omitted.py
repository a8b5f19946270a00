"""What a search left out, said with the calls that show it: the engine counts what its project filter, top_k and the
budget left out of the page, and for an empty page what each narrowing argument hid (retrieval/search_hidden.py,
from the counts the search has: it never runs again); here each gets the call that shows it, built from the caller's
own arguments, and an empty answer a message naming the arguments that emptied it."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from trident.retrieval.omitted import OmitReason, empty_message
from trident.retrieval.search_engine import SearchResult, Strategy
from trident.retrieval.search_request import SearchRequest
from trident.store.catalog import Catalog
from trident.tools.calls import suggest_call
from trident.tools.detail import Detail


@dataclass(frozen=True)
class SearchCall:
    """A search as the caller asked for it, to suggest with some arguments changed; `detail` shapes the answer only
    (the engine never sees it)."""

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


def accounted(catalog: Catalog, call: SearchCall, result: SearchResult) -> SearchResult:
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
        OmitReason.STRATEGY: call.suggest(strategy=Strategy.AUTO),
        OmitReason.FUSION: call.suggest(fusion=None),
    }
    omitted = [entry.model_copy(update={"next_call": calls.get(entry.reason)}) for entry in result.omitted]
    messages = []
    if not result.hits:
        messages.append(
            _unfilled(catalog, call.request.query) or empty_message(f"no hits for {call.request.query!r}", omitted)
        )
    partial = _partial(result)
    if partial:
        messages.append(partial)
    message = "; ".join(messages) or None
    return result.model_copy(update={"next_call": next_call, "omitted": omitted, "message": message})


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
