"""Running a BEIR query set against an index: metrics overall and per query type, and which path found what."""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence

from pydantic import BaseModel, Field

from trident.evaluation.metrics import mean, query_metrics
from trident.ingest.beir import BeirQuery
from trident.retrieval.fusion import FusionMethod
from trident.retrieval.paths import PATHS
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.search_engine import Strategy, search
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.schema import cited_file

EVAL_TOP_K = 100


class EvalReport(BaseModel):
    dataset: str
    split: str
    strategy: str
    fusion: str = "route"
    queries: int
    metrics: dict[str, float]
    by_type: dict[str, dict[str, float]] = Field(default_factory=dict)
    attribution: dict[str, int] = Field(
        default_factory=dict, description="Relevant documents in the top 10, counted per path that found them"
    )
    seconds: float = 0.0


def ranked_documents(
    catalog: Catalog, query: str, strategy: Strategy, views: GenerationViews, fusion: FusionMethod | None = None
) -> tuple[list[str], dict[str, dict[str, int | None]]]:
    """Document ids in rank order (a document's best chunk counts) and each document's per-path ranks (keyed by
    path name, the best over the query's expansions, as each hit's `sources`). A document whose text a hit holds as
    a merged copy (`SearchHit.duplicates`: the same passage under another id) ranks right after that hit's, as it
    would without the merge: a judged copy is retrieved, not missed."""
    result = search(catalog, query, top_k=EVAL_TOP_K, strategy=strategy, views=views, fusion=fusion)
    ranked: list[str] = []
    sources: dict[str, dict[str, int | None]] = {}
    for hit in result.hits:
        for path in [hit.path, *(cited_file(copy)[1] for copy in hit.duplicates)]:
            if path not in sources:
                ranked.append(path)
                sources[path] = hit.sources
    return ranked, sources


def evaluate(
    catalog: Catalog,
    dataset: str,
    queries: Sequence[BeirQuery],
    qrels: Mapping[str, Mapping[str, int]],
    *,
    split: str,
    retrieval: RetrievalSettings,
    strategy: Strategy = Strategy.AUTO,
    fusion: FusionMethod | None = None,
    on_query: Callable[[], None] | None = None,
) -> EvalReport:
    """Search every judged query (with the `retrieval` settings) and average the metrics; queries without judgments
    are left out."""
    started = time.perf_counter()
    views = GenerationViews(retrieval)
    rows: list[dict[str, float]] = []
    by_type: dict[str, list[dict[str, float]]] = defaultdict(list)
    attribution: Counter[str] = Counter()
    for query in queries:
        relevant = qrels.get(query.id)
        if not relevant:
            continue
        ranked, sources = ranked_documents(catalog, query.text, strategy, views, fusion)
        row = query_metrics(ranked, relevant)
        rows.append(row)
        query_type = query.metadata.get("type")
        if isinstance(query_type, str):
            by_type[query_type].append(row)
        for doc in ranked[:10]:
            if relevant.get(doc, 0) > 0:
                attribution["relevant_in_top10"] += 1
                attribution.update(path for path in PATHS if sources[doc].get(path) is not None)
        if on_query is not None:
            on_query()
    return EvalReport(
        dataset=dataset,
        split=split,
        strategy=strategy.value,
        fusion=fusion.value if fusion is not None else "route",
        queries=len(rows),
        metrics=mean(rows),
        by_type={name: mean(type_rows) for name, type_rows in sorted(by_type.items())},
        attribution=dict(sorted(attribution.items())),
        seconds=round(time.perf_counter() - started, 2),
    )
