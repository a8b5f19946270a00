"""One search's stages, one after another in one thread, on a cached bench index: each stage's time is then its own
CPU time, not time spent waiting for the interpreter beside the other paths (what `search` runs concurrently).

The stages are the ones `retrieval/search_engine.py` runs: routing, the query's embedding, each planned path (the walk
last, as it reads the lexical and dense heads), fusion, the page's hits, their evidence checks and the diagnostics.
Beside them, the same queries searched as `search` does (concurrently), so the two can be compared in one run.

Usage:
    python bench/search_stages.py [--sizes 1k,10k] [--repeat 3]
Prints, per size, each stage's p50 and mean (ms) over the bench's search queries, and how many queries ran it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

import anyio

from trident.embedding.embedder import open_embedder
from trident.embedding.model_settings import ModelSettings
from trident.retrieval.diagnostics import diagnose
from trident.retrieval.evidence_flags import check_evidence
from trident.retrieval.path_names import PathName
from trident.retrieval.paths import PathQuery, QueryVectors, SharedRuns, run_path
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.search_engine import GenerationViews, Strategy, search_async
from trident.retrieval.search_fuse import fuse_runs
from trident.retrieval.search_hits import collect_hits
from trident.retrieval.search_plan import plan_search, scope_search
from trident.retrieval.search_runs import PathRuns
from trident.store.catalog import Catalog

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import index_dir
from latency import TENANT, load_queries

MAX_TOKENS = 8000  # what the search tool sets by default


class Stages:
    """Each stage's seconds, per search."""

    def __init__(self) -> None:
        self.seconds: dict[str, list[float]] = defaultdict(list)
        self._open: dict[str, float] = {}

    def timed(self, name: str, started: float) -> None:
        self._open[name] = time.perf_counter() - started

    def keep(self) -> None:
        for name, seconds in self._open.items():
            self.seconds[name].append(seconds)
        self.seconds["all, one thread"].append(sum(self._open.values()))
        self._open.clear()


def one_search(catalog: Catalog, views: GenerationViews, query: str, stages: Stages) -> None:
    """The search's stages in order, each timed."""
    started = time.perf_counter()
    plan = plan_search(query, Strategy.AUTO, None, None)
    stages.timed("routing", started)
    directory = views.directory(catalog)
    scope = scope_search(plan, directory, query, None, catalog.tenant)
    assert catalog.embedder is not None
    embed = QueryVectors(catalog.embedder)
    started = time.perf_counter()
    embed(query)
    stages.timed("query embedding", started)
    shared = SharedRuns((run.path, plan.texts[run.expansion], scope.filter_for(run.path)) for run in plan.runs)
    runs = PathRuns(plan.runs)
    for run in sorted(plan.runs, key=lambda r: r.path is PathName.PPR):  # the walk reads the others' heads
        where = scope.filter_for(run.path)
        text = plan.texts[run.expansion]
        path_query = PathQuery(catalog, text, where, views, scope.projects, embed, plan.seed_by_vectors, shared)
        started = time.perf_counter()
        runs.results[run] = run_path(run.path, path_query)
        runs.seconds[run] = time.perf_counter() - started
        stages.timed(f"path {run.path.value}", started)
    started = time.perf_counter()
    fused = fuse_runs(plan, runs, False)
    stages.timed("fusion", started)
    started = time.perf_counter()
    hits = collect_hits(
        catalog, views, fused.items, paths=plan.paths, top_k=10, projects=None, max_tokens=MAX_TOKENS, terms=None
    )
    stages.timed("page hits", started)
    started = time.perf_counter()
    evidence = check_evidence(catalog, directory, hits.hits, views)
    stages.timed("evidence checks", started)
    started = time.perf_counter()
    hits.refit()
    diagnose(query, plan, scope, runs, fused, hits.hits, False, evidence, views.embedding(catalog))
    stages.timed("diagnostics", started)


def measure(size: str, repeat: int) -> None:
    settings = ModelSettings()
    catalog = Catalog(index_dir(size, settings.model), TENANT, open_embedder(settings))
    views = GenerationViews(RetrievalSettings())
    queries = [item["query"] for item in load_queries()["search"]]
    stages = Stages()
    for query in queries:  # warm: the generation's views are built on first use
        one_search(catalog, views, query, Stages())
    concurrent: list[float] = []

    async def alternate() -> None:  # one event loop for every search, as a server has
        for _ in range(repeat):
            for query in queries:
                one_search(catalog, views, query, stages)
                stages.keep()
                started = time.perf_counter()
                await search_async(catalog, query, views=views, max_tokens=MAX_TOKENS)
                concurrent.append(time.perf_counter() - started)

    anyio.run(alternate)
    catalog.close()
    print(f"\n{size}: {len(queries)} queries x {repeat}, ms")
    print(f"{'stage':22s} {'runs':>5s} {'p50':>7s} {'mean':>7s}")
    rows = sorted(stages.seconds.items(), key=lambda item: -statistics.fmean(item[1]))
    for name, seconds in [*rows, ("search, concurrent", concurrent)]:
        p50, mean = statistics.median(seconds) * 1000, statistics.fmean(seconds) * 1000
        print(f"{name:22s} {len(seconds):5d} {p50:7.2f} {mean:7.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1k,10k", help="comma-separated bench index sizes (1k, 10k, 100k)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for size in args.sizes.split(","):
        measure(size.strip(), args.repeat)


if __name__ == "__main__":
    main()
