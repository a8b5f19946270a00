"""Search, stage 3: the runs' lists fused into one ranking, weighted as the route planned."""

from __future__ import annotations

from dataclasses import dataclass

from trident.retrieval.fusion import FusedItem, Fuser, PrimaryFirst, Terms, Weights
from trident.retrieval.path_names import PathRun
from trident.retrieval.paths import GUESSED_WALK_SHARE
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
    weights: Weights | None = None
    if plan.route is not None:
        route = plan.route
        # A walk from entities only near the query's meaning is a guess: it keeps a share of its planned weight.
        weights = {
            run: route.weights.get(run.path, 1.0) * (1.0 if runs.results[run].named else GUESSED_WALK_SHARE)
            for run in lists
        }
    fuser = plan.fuser
    if isinstance(fuser, PrimaryFirst) and not runs.named(fuser.primary):
        fuser = fuser.inner  # a primary walk from guessed seeds joins the fusion but does not lead it
    items = fuser.fuse(lists, weights)
    return Fused(fuser, lists, items, fuser.terms(lists, weights) if explain else {})
