"""Search, stage 5: the diagnostics, what a search did and why (the route, the runs, the fusion, the communities)."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

from trident.retrieval.communities import community_of
from trident.retrieval.evidence_flags import EvidenceSummary
from trident.retrieval.fusion import PrimaryFirst
from trident.retrieval.path_names import PathName
from trident.retrieval.router import Plan
from trident.retrieval.search_fuse import Fused
from trident.retrieval.search_hits import SearchHit
from trident.retrieval.search_plan import Scope, SearchPlan, Strategy
from trident.retrieval.search_runs import PathRuns
from trident.retrieval.views import EmbeddingProgress


def _unset(value: object) -> bool:
    return value is None


class CommunitySummary(BaseModel):
    """A community a search drew hits from."""

    id: str = Field(description="The community's id: `community:<level>:<hash of its member ids>`")
    title: str = Field(description="The project most members live in, then its most central members")
    level: int = Field(description="0 for the whole graph's communities, 1 for the parts of a large one")
    size: int = Field(description="Number of member entities")
    score: float = Field(description="How near the query the community's report is")
    projects: dict[str, int] = Field(description="Members per project")
    chunks: list[str] = Field(description="Ids of the chunks the search drew from this community")


class ExplainedRoute(Plan):
    """The route's whole plan for a query, as `explain` shows it."""

    applied: bool = Field(description="False when a forced strategy set the route aside")


class Diagnostics(BaseModel):
    """What a search did. Optional fields are left out of the JSON when they do not apply."""

    fusion: str = Field(description="The fusion that ranked the hits, with its constants")
    strategy: Strategy = Field(description="The strategy the search ran")
    candidates: dict[str, int] = Field(
        description="Candidates per run: a path over the query (`semantic`) or over an expansion (`semantic#2`)"
    )
    entities: list[str] = Field(description="Ids of the entities the graph paths started from (at most 10)")
    timings_ms: dict[str, float] = Field(description="Milliseconds per run, failed ones included")
    failed_paths: dict[str, str] | None = Field(
        default=None, exclude_if=_unset, description="Runs that failed or timed out, and why; the others stand"
    )
    partial_paths: dict[str, str] | None = Field(
        default=None,
        exclude_if=_unset,
        description="Paths that answered from part of the index because an index run is still embedding it (the "
        "lexical and graph paths already reach everything it published); ask again later for the rest",
    )
    communities: list[CommunitySummary] | None = Field(
        default=None, exclude_if=_unset, description="The communities the community path drew hits from"
    )
    hit_communities: dict[str, str] | None = Field(
        default=None, exclude_if=_unset, description="For each hit drawn from a community, that community's id"
    )
    semantic_scope: list[str] | None = Field(
        default=None,
        exclude_if=_unset,
        description="The projects the query's entities live in, to which the "
        "dense path was narrowed (cross-project and pattern questions)",
    )
    conflicts_detected: int | None = Field(
        default=None,
        exclude_if=_unset,
        description="Settings the hits state with values no unit reconciles (each hit involved carries a `conflict` "
        "flag: factual, temporal or scope, with the source to prefer); left out when none",
    )
    stale_references: int | None = Field(
        default=None,
        exclude_if=_unset,
        description="References in the hits' prose to code that is gone or called otherwise now (each flagged on its "
        "hit); left out when none",
    )
    source_agreement: float | None = Field(
        default=None,
        exclude_if=_unset,
        description="When a hit is flagged, or with explain: the fraction of the hits corroborated (found by two "
        "paths or more, merged with a copy elsewhere, or stating a value another file states too)",
    )
    route: str | ExplainedRoute | None = Field(
        default=None,
        exclude_if=_unset,
        description="The route's plan in one line; with explain the whole plan, and whether it was applied",
    )
    primary_led: bool | None = Field(
        default=None,
        exclude_if=_unset,
        description="When the route names a primary path: whether its head leads the hits (it does not when it "
        "found nothing or started from guessed entities)",
    )
    top_per_path: dict[str, list[str]] | None = Field(
        default=None, exclude_if=_unset, description="With explain: each run's top five chunk ids"
    )
    stale_hits: int | None = Field(
        default=None,
        exclude_if=_unset,
        description="How many hits come from files changed on disk or gone since they were indexed (each says so)",
    )
    pending_changes: dict[str, int] | None = Field(
        default=None,
        exclude_if=_unset,
        description="Per project the hits come from: indexed files changed on disk or gone since (projects with none "
        "left out). Counted in the background by a stat pass of at most 20,000 files a project, at most every 30 s "
        "per index generation (so a change shows from a later search on), never fewer than the stale hits' files; "
        "`status` shows the full picture, re-indexing clears it",
    )


# What reads the chunk vectors, or what is synced from them once an index run has embedded every chunk.
NEEDS_VECTORS = (PathName.SEMANTIC, PathName.COMMUNITY, PathName.LOCAL)


def partial_paths(plan: SearchPlan, progress: EmbeddingProgress) -> dict[str, str] | None:
    """The planned paths an index run still filling in chunk vectors leaves short, each with how far they reach."""
    short = [path for path in plan.paths if path in NEEDS_VECTORS]
    if not progress.waiting or not short:
        return None
    done = progress.total - progress.waiting
    reach = f"{done:,} of {progress.total:,} chunks embedded so far; an index run is embedding the rest"
    why = {
        PathName.SEMANTIC: f"reached {reach}",
        PathName.LOCAL: f"reached the instruction files among {reach}",
        PathName.COMMUNITY: f"reports of the communities before this index run ({reach}; they are rebuilt after)",
    }
    return {path.value: why[path] for path in short}


def diagnose(
    query: str,
    plan: SearchPlan,
    scope: Scope,
    runs: PathRuns,
    fused: Fused,
    hits: Sequence[SearchHit],
    explain: bool,
    evidence: EvidenceSummary | None = None,
    embedding: EmbeddingProgress | None = None,
) -> Diagnostics:
    """The diagnostics of one search, from what each stage gave (and, in `embedding`, what an index run has not
    embedded yet of the generation it read)."""
    communities, hit_communities = _communities(runs, hits)
    top_per_path = {run.label: [h.id for h in ranked[:5]] for run, ranked in fused.lists.items()} if explain else None
    primary_led = None
    if plan.route is not None and plan.route.primary is not None:
        primary_led = isinstance(fused.fuser, PrimaryFirst) and bool(fused.fuser.head(fused.lists))
    return Diagnostics(
        fusion=str(fused.fuser),
        strategy=plan.strategy,
        candidates={run.label: len(hits) for run, hits in fused.lists.items()},
        entities=[e.id for e in runs.seeds()[:10]],
        timings_ms={run.label: round(runs.seconds[run] * 1000, 2) for run in plan.runs},
        failed_paths={run.label: runs.failures[run] for run in plan.runs if run in runs.failures} or None,
        partial_paths=partial_paths(plan, embedding) if embedding is not None else None,
        communities=communities,
        hit_communities=hit_communities,
        semantic_scope=list(scope.semantic.projects or ()) if scope.semantic is not None else None,
        route=_route(plan, explain),
        primary_led=primary_led,
        top_per_path=top_per_path,
        conflicts_detected=(evidence.conflicts or None) if evidence else None,
        stale_references=(evidence.stale_references or None) if evidence else None,
        source_agreement=_agreement(evidence, explain),
    )


def _agreement(evidence: EvidenceSummary | None, explain: bool) -> float | None:
    """Shown where it helps weigh the evidence: when something is flagged, or with explain."""
    if evidence is None or not (explain or evidence.conflicts or evidence.stale_references):
        return None
    return evidence.source_agreement


def _communities(
    runs: PathRuns, hits: Sequence[SearchHit]
) -> tuple[list[CommunitySummary] | None, dict[str, str] | None]:
    """Which part of the index each community hit stands for: the reports matched and each hit's community."""
    matches = runs.communities()
    if not matches:
        return None, None
    summaries: dict[str, CommunitySummary] = {}
    for match in matches:
        summaries.setdefault(match.report.id, CommunitySummary.model_validate(match.summary()))
    drawn = {hit.id: community_of(matches, hit.id) for hit in hits}
    return list(summaries.values()), {i: m.report.id for i, m in drawn.items() if m is not None}


def _route(plan: SearchPlan, explain: bool) -> str | ExplainedRoute | None:
    """The route in one line; with explain, the whole plan, also when a forced strategy set it aside."""
    if explain:
        shown = plan.route or plan.routed
        return ExplainedRoute(**shown.model_dump(), applied=plan.route is not None)
    return str(plan.route) if plan.route is not None else None
