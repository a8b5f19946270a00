"""Fusion candidates for a walk too unsure to lead (issue #19), replayed on recorded runs instead of re-searching.

Each query's planned runs (lexical, dense, walk) are run once through the search's own stages (plan, scope, runs);
every candidate then fuses the same lists, so a candidate costs milliseconds instead of a full evaluation, and the
candidates differ only in how they fuse. Only the questions whose walk is unsure change between candidates; the
others lead with the walk as the route plans. Documents are ranked by their best chunk, as `trident eval` ranks them
(near-identical chunks are not merged here; on 2Wiki the top ten match the search's own ranking).

  weighted-sum  the walk joins the weighted sum at its planned weight (before)
  rrf           RRF (k=60) of the weighted sum's ranking and the walk's
  walk-x3       the weighted sum with the walk's weight tripled
  interleave    the weighted sum's ranking and the walk's, one hit from each in turn
  merged        fusion.PrimaryMerged: the walk's own finds in its top five merged in where it scores them (kept)

Usage: python bench/fusion_replay.py [--limit N] [--sets unperturbed,typo,scifact,cosqa]
Reads the perturbed sets `bench/perturbed_2wiki.py` wrote; the eval indexes must be cached (`trident eval`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import anyio

from trident.embedding.model_settings import ModelSettings
from trident.evaluation.metrics import mean, query_metrics
from trident.ingest.beir import BeirQuery, load_qrels, load_queries
from trident.retrieval.fusion import RRF, FusedItem, Fuser, Lists, PrimaryFirst, Terms, Weights
from trident.retrieval.path_names import PathName, PathRun
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.search_plan import SearchPlan, plan_search, scope_search
from trident.retrieval.search_runs import run_paths
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.protocols import ScoredId

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import bench_home
from perturbed_2wiki import Variant, open_cached_index

EVAL = Path(__file__).resolve().parents[2] / "shared" / "eval"
# set name -> (dataset folder, split, metrics reported)
SETS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "unperturbed": ("2wiki", "test", ("recall@2", "recall@5")),
    **{v.value: ("2wiki", "test", ("recall@2", "recall@5")) for v in Variant},
    "scifact": ("scifact", "test", ("ndcg@10",)),
    "cosqa": ("cosqa", "dev", ("mrr@10",)),
}
FUSED = PathRun(PathName.LEXICAL, -1)  # the key of an already fused ranking inside a candidate


@dataclass(frozen=True)
class Recorded:
    """One query's runs as the search fused them: its plan, each run's list, whether the walk was sure, and the
    document each chunk belongs to."""

    plan: SearchPlan
    lists: dict[PathRun, list[ScoredId]]
    sure: bool
    documents: dict[str, str]
    relevant: Mapping[str, int]


def _ranking(items: Sequence[FusedItem]) -> list[ScoredId]:
    return [ScoredId(item.id, float(-rank)) for rank, item in enumerate(items)]


@dataclass(frozen=True)
class WithWalk:
    """The inner fusion's ranking and the walk's fused once more: by RRF, or one hit from each in turn."""

    inner: Fuser
    walk: PathName
    interleave: bool = False

    def terms(self, lists: Lists, weights: Weights | None = None) -> Terms:
        return self.inner.terms(lists, weights)

    def fuse(self, lists: Lists, weights: Weights | None = None) -> list[FusedItem]:
        fused = _ranking(self.inner.fuse(lists, weights))
        walk = next((hits for run, hits in lists.items() if run.path == self.walk), [])
        if not self.interleave:
            return RRF().fuse({FUSED: fused, PathRun(self.walk): walk})
        turns = [hit.id for pair in zip(fused, walk, strict=False) for hit in pair]
        order = list(dict.fromkeys([*turns, *(h.id for h in fused), *(h.id for h in walk)]))
        return [FusedItem(id_, -rank) for rank, id_ in enumerate(order)]


@dataclass(frozen=True)
class Reweighted:
    inner: Fuser
    walk: PathName
    scale: float

    def terms(self, lists: Lists, weights: Weights | None = None) -> Terms:
        return self.inner.terms(lists, weights)

    def fuse(self, lists: Lists, weights: Weights | None = None) -> list[FusedItem]:
        scaled = {run: (weights or {}).get(run, 1.0) * (self.scale if run.path == self.walk else 1.0) for run in lists}
        return self.inner.fuse(lists, scaled)


CANDIDATES: dict[str, Callable[[PrimaryFirst], Fuser]] = {
    "weighted-sum": lambda lead: lead.inner,
    "rrf": lambda lead: WithWalk(lead.inner, lead.primary),
    "walk-x3": lambda lead: Reweighted(lead.inner, lead.primary, 3.0),
    "interleave": lambda lead: WithWalk(lead.inner, lead.primary, interleave=True),
    "merged": lambda lead: lead.unsure(),
}


def record(catalog: Catalog, views: GenerationViews, query: BeirQuery, relevant: Mapping[str, int]) -> Recorded:
    """The query's planned runs, run as `search` runs them."""
    plan = plan_search(query.text, "auto", None, None)
    scope = scope_search(plan, views.directory(catalog), query.text, None, catalog.tenant)
    runs = anyio.run(run_paths, catalog, views, plan, scope)
    lists = runs.lists()
    chunks = catalog.graph.get_chunks(sorted({hit.id for hits in lists.values() for hit in hits}))
    sure = not isinstance(plan.fuser, PrimaryFirst) or runs.confident(plan.fuser.primary)
    return Recorded(plan, lists, sure, {id_: chunk.path for id_, chunk in chunks.items()}, relevant)


def replay(recorded: Recorded, candidate: Callable[[PrimaryFirst], Fuser]) -> dict[str, float]:
    """The query's metrics with the candidate fusing an unsure walk (a sure one leads, as planned)."""
    plan, fuser = recorded.plan, recorded.plan.fuser
    weights = {run: plan.route.weights.get(run.path, 1.0) for run in recorded.lists} if plan.route else None
    if isinstance(fuser, PrimaryFirst) and not recorded.sure:
        fuser = candidate(fuser)
    documents = (recorded.documents.get(item.id) for item in fuser.fuse(recorded.lists, weights))
    ranked = list(dict.fromkeys(d for d in documents if d is not None))
    return query_metrics(ranked, recorded.relevant)


def queries_of(name: str, limit: int | None) -> tuple[Path, list[BeirQuery], dict[str, dict[str, int]]]:
    folder, split, _ = SETS[name]
    dataset = EVAL / folder
    qrels = load_qrels(dataset, split)
    if name in {v.value for v in Variant}:
        lines = (bench_home() / "results" / "perturbed-2wiki" / f"{name}.jsonl").read_text().splitlines()
        queries = [BeirQuery.model_validate_json(line) for line in lines if line.strip()]
    else:
        queries = [q for q in load_queries(dataset) if q.id in qrels]
    return dataset, queries[:limit], qrels


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=None, help="the first N queries of each set (default: all)")
    parser.add_argument("--sets", default=",".join(SETS), help="comma-separated, from: " + ",".join(SETS))
    args = parser.parse_args(argv)
    print("| set | n | unsure | " + " | ".join(CANDIDATES) + " |")
    print("|---|---:|---:|" + "---:|" * len(CANDIDATES))
    for name in args.sets.split(","):
        dataset, queries, qrels = queries_of(name, args.limit)
        catalog = open_cached_index(dataset, ModelSettings())
        views = GenerationViews(RetrievalSettings())
        try:
            recorded = [record(catalog, views, q, qrels[q.id]) for q in queries]
        finally:
            catalog.close()
        metrics = SETS[name][2]
        cells = []
        for candidate in CANDIDATES.values():
            averaged = mean([replay(r, candidate) for r in recorded])
            cells.append(" / ".join(f"{averaged.get(m, 0.0):.4f}" for m in metrics))
        unsure = sum(not r.sure for r in recorded)
        print(f"| {name} ({', '.join(metrics)}) | {len(recorded)} | {unsure} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
