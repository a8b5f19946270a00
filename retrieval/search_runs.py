"""Search, stage 2: the planned path runs, concurrently in worker threads, each bounded by a timeout."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import anyio

from trident.retrieval.communities import CommunityMatch
from trident.retrieval.path_names import PathName, PathRun
from trident.retrieval.paths import PathHits, PathQuery, QueryVectors, SharedRuns, run_path
from trident.retrieval.search_plan import Scope, SearchPlan
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.protocols import ScoredId
from trident.store.schema import Entity

PATH_TIMEOUT_S = 10.0


@dataclass
class PathRuns:
    """What the planned runs gave: each finished run's hits, each failed one's reason, every run's time (s)."""

    planned: tuple[PathRun, ...]
    results: dict[PathRun, PathHits] = field(default_factory=dict)
    failures: dict[PathRun, str] = field(default_factory=dict)
    seconds: dict[PathRun, float] = field(default_factory=dict)

    def finished(self) -> list[PathRun]:
        """The runs that answered, in plan order, whatever order their threads finished in."""
        return [run for run in self.planned if run in self.results]

    def lists(self) -> dict[PathRun, list[ScoredId]]:
        """Each finished run's ranked hits, in plan order: what is fused."""
        return {run: self.results[run].hits for run in self.finished()}

    def seeds(self) -> list[Entity]:
        """The entities the runs started from, each once, in plan order."""
        seeds: list[Entity] = []
        for run in self.finished():
            seeds.extend(e for e in self.results[run].seeds if e not in seeds)
        return seeds

    def confident(self, path: PathName) -> bool:
        """Whether some run of `path` started from entities the text surely means (`WalkSeeds.confident`)."""
        return any(self.results[run].confident for run in self.finished() if run.path == path)

    def communities(self) -> list[CommunityMatch]:
        return [match for run in self.finished() for match in self.results[run].communities]


async def run_paths(
    catalog: Catalog, views: GenerationViews, plan: SearchPlan, scope: Scope, timeout: float = PATH_TIMEOUT_S
) -> PathRuns:
    """Every planned run at once; a run that fails or times out is recorded and the others' results stand.

    Raises:
        RuntimeError: the catalog has no embedder.
    """
    if catalog.embedder is None:
        raise RuntimeError("search needs an embedder; open the catalog with one")
    embed = QueryVectors(catalog.embedder)
    # The walk reads the lexical and dense heads: each runs once, and the walk waits at most half the timeout.
    shared = SharedRuns((run.path, plan.texts[run.expansion], scope.filter_for(run.path)) for run in plan.runs)
    runs = PathRuns(plan.runs)

    async def run(path_run: PathRun) -> None:
        path = path_run.path
        query = PathQuery(
            catalog,
            plan.texts[path_run.expansion],
            scope.filter_for(path),
            views,
            scope.projects,
            embed,
            plan.seed_by_vectors,
            shared,
            timeout / 2,
        )
        started = time.perf_counter()
        with anyio.move_on_after(timeout) as cancel_scope:
            try:
                runs.results[path_run] = await anyio.to_thread.run_sync(run_path, path, query, abandon_on_cancel=True)
            except Exception as exc:  # one failing engine must not sink the other paths; it is reported
                runs.failures[path_run] = f"{type(exc).__name__}: {exc}"
        if cancel_scope.cancelled_caught:
            runs.failures[path_run] = f"timed out after {timeout:g} s"
        runs.seconds[path_run] = time.perf_counter() - started

    async with anyio.create_task_group() as group:
        for path_run in plan.runs:
            group.start_soon(run, path_run)
    return runs
