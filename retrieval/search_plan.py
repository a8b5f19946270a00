"""Search, stage 1: the plan. Which paths run over which texts, how their lists are fused, and what they search."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from trident.retrieval.enums import parse_member
from trident.retrieval.fusion import Fuser, FusionMethod, PrimaryFirst, make_fuser
from trident.retrieval.path_names import PathName, PathRun
from trident.retrieval.paths import query_entities
from trident.retrieval.router import Plan, route
from trident.store.names.directory import EntityDirectory
from trident.store.protocols import SearchFilter


class Strategy(StrEnum):
    AUTO = "auto"
    HYBRID = "hybrid"
    LEXICAL = "lexical"
    SEMANTIC = "semantic"
    GRAPH = "graph"
    PPR = "ppr"
    COMMUNITY = "community"

    @classmethod
    def parse(cls, name: str) -> Strategy:
        """The strategy a name means.

        Raises:
            ArgumentError: no strategy has that name; the message lists the known ones.
        """
        return parse_member(cls, name, "strategy")


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


@dataclass(frozen=True)
class SearchPlan:
    """One search's plan: the route's plan (None when one path is forced), the paths, and every run of a path over
    the query or an expansion, in the order their lists are fused (which keeps the output stable); `routed` is what
    the router made of the query, applied or set aside (the router runs once a search)."""

    strategy: Strategy
    route: Plan | None
    paths: tuple[PathName, ...]
    texts: tuple[str, ...]  # the query, then each expansion: a run's text is texts[run.expansion]
    runs: tuple[PathRun, ...]
    fuser: Fuser
    routed: Plan

    @property
    def seed_by_vectors(self) -> bool:
        return self.route is not None and self.route.seed_by_vectors


def plan_search(
    query: str, strategy: Strategy | str, fusion: FusionMethod | str | None, expansions: Sequence[str] | None
) -> SearchPlan:
    """The plan for a query and its expansions (blank ones are dropped).

    Raises:
        ArgumentError: an unknown strategy or fusion.
    """
    chosen = Strategy.parse(strategy)
    routed = route(query)
    plan = _route(routed, chosen)
    fuser = make_fuser(fusion or (plan.fusion if plan is not None else FusionMethod.RRF))
    if plan is not None and plan.primary is not None and plan.primary in plan.strategies:
        fuser = PrimaryFirst(fuser, plan.primary, plan.primary_depth, plan.primary_reorders)
    paths = plan.strategies if plan is not None else STRATEGY_PATHS[chosen]
    texts = (query, *(e for e in (expansions or []) if e.strip()))
    runs = tuple(PathRun(path, expansion) for expansion in range(len(texts)) for path in paths)
    return SearchPlan(chosen, plan, paths, texts, runs, fuser, routed)


def _route(plan: Plan, strategy: Strategy) -> Plan | None:
    """The route's plan as applied: whole for `auto`; for `hybrid`, narrowed to the lexical and semantic paths (no
    graph, so no graph-scoped vectors); None when one path is forced."""
    if strategy is Strategy.AUTO:
        return plan
    if strategy is Strategy.HYBRID:
        paths = STRATEGY_PATHS[Strategy.HYBRID]
        return plan.model_copy(
            update={
                "strategies": paths,
                "weights": {p: w for p, w in plan.weights.items() if p in paths},
                "graph_scopes_vector": False,
            }
        )
    return None


@dataclass(frozen=True)
class Scope:
    """What the paths search: the caller's projects, except the semantic path under a graph scope."""

    where: SearchFilter
    projects: Sequence[str] | None
    semantic: SearchFilter | None = None  # the graph's scope for the vectors, when the plan asks for one

    def filter_for(self, path: PathName) -> SearchFilter:
        return self.semantic if self.semantic is not None and path == PathName.SEMANTIC else self.where


def scope_search(
    plan: SearchPlan, directory: EntityDirectory | None, query: str, projects: Sequence[str] | None, tenant: str
) -> Scope:
    """The search's scope; for cross-project and pattern questions, the projects where the query's entities live
    scope the vectors (not while the directory is still being built: None)."""
    where = SearchFilter(tenant, tuple(projects) if projects is not None else None)
    if plan.route is None or not plan.route.graph_scopes_vector or directory is None:
        return Scope(where, projects)
    found = sorted({e.project for e in query_entities(directory, query) if projects is None or e.project in projects})
    return Scope(where, projects, SearchFilter(tenant, tuple(found)) if found else None)
