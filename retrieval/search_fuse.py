"""Search, stage 3: the runs' lists fused into one ranking, weighted as the route planned."""

from __future__ import annotations

from dataclasses import dataclass

from trident.retrieval.fusion import FusedItem, Fuser, PrimaryFirst, Terms, Weights
from trident.retrieval.path_names import PathRun
from trident.retrieval.search_plan import SearchPlan
from trident.retrieval.search_runs import PathRuns
from trident.store.protocols import ScoredId


@dataclass(frozen=True)
class Fused:
    """The fused ranking, the fuser that made it (what diagnostics name), the lists it fused, and with `explain`
    each hit's terms per run."""

    fuser: Fuser
    lists: dict[PathRun, list[ScoredId]]
    items: list[FusedItem]
    terms: Terms


def fuse_runs(plan: SearchPlan, runs: PathRuns, explain: bool) -> Fused:
    """The runs that answered, fused in plan order (so the output is stable whatever order the threads ended in)."""
    lists = runs.lists()
    # A walk from seeds the text does not surely mean (no exact name, no loose name a lexical or dense head agrees
    # with) joins the fusion at its planned weight but does not lead it: it blends the heads it started from. (It
    # kept a quarter of its weight when it started from entity vectors alone; blended, the full weight measured
    # better on every perturbed 2Wiki set and moved neither SciFact nor CoSQA.)
    weights: Weights | None = None
    if plan.route is not None:
        weights = {run: plan.route.weights.get(run.path, 1.0) for run in lists}
    fuser = plan.fuser
    if isinstance(fuser, PrimaryFirst) and not runs.confident(fuser.primary):
        fuser = fuser.inner
    items = fuser.fuse(lists, weights)
    return Fused(fuser, lists, items, fuser.terms(lists, weights) if explain else {})
