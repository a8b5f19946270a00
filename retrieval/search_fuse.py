"""Search, stage 3: the runs' lists fused into one ranking, weighted as the route planned."""

from __future__ import annotations

from dataclasses import dataclass

from trident.retrieval.fusion import FusedItem, Fuser, PrimaryFirst, Terms, Weights
from trident.retrieval.path_names import PathRun
from trident.retrieval.search_plan import SearchPlan
from trident.retrieval.search_runs import PathRuns
from trident.store.protocols import ScoredId
from trident.store.schema import Entity, EntityType


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
    # with) does not lead: the fusion's order stands, and the second hops in the walk's head go in where the walk
    # scores them above a fused hit (fusion.PrimaryMerged). Left to the weighted sum, they sank below the lexical
    # and dense heads, and `auto` ended 0.008-0.021 below the walk alone at R@5 on the perturbed 2Wiki sets. A walk
    # from code entities only joins the fusion as one more list (`_hops_answer`).
    weights: Weights | None = None
    if plan.route is not None:
        weights = {run: plan.route.weights.get(run.path, 1.0) for run in lists}
    fuser: Fuser = plan.fuser
    if isinstance(fuser, PrimaryFirst) and not runs.confident(fuser.primary):
        fuser = fuser.unsure() if _hops_answer(runs.seeds()) else fuser.inner
    items = fuser.fuse(lists, weights)
    return Fused(fuser, lists, items, fuser.terms(lists, weights) if explain else {})


# Where an unsure walk's own finds answer the question: from documents and concepts (titles), the passage a title
# leads to is the second hop a multi-hop question asks for. From code entities and the sections of a project's docs,
# the walk reaches their structural neighbours (members, callers, callees, the sections around them), which a
# "where is X done" question did not ask for: merged in, they took rank one from the definition the lexical and dense
# paths agreed on. Measured on the code questions of bench/code_search.py: MRR@10 0.637 -> 0.644 (held out 0.684 ->
# 0.693); 2Wiki (perturbed sets included), SciFact and CoSQA unchanged, their entities being concepts.
_TITLES = frozenset({EntityType.DOCUMENT, EntityType.CONCEPT})


def _hops_answer(seeds: list[Entity]) -> bool:
    """Whether an unsure walk from these seeds merges its own finds in (`PrimaryFirst.unsure`), or only joins the
    fusion as one more weighted list: it merges unless it starts from entities none of which is a title."""
    return not seeds or any(seed.type in _TITLES for seed in seeds)
