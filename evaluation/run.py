"""What `trident eval` runs: a BEIR dataset indexed once into a cache keyed by its content and configuration, then
scored."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

from trident.embedding.embedder import open_embedder
from trident.evaluation.evaluate import EvalReport, evaluate
from trident.ingest.beir import is_beir_folder, load_qrels, load_queries
from trident.ingest.pipeline import Progress, index_beir
from trident.ingest.tokens import CHUNK_TOKEN_BUDGET
from trident.retrieval.fusion import FusionMethod
from trident.retrieval.search import Strategy
from trident.store.catalog import Catalog
from trident.store.schema import SCHEMA_VERSION
from trident.store.settings import ModelSettings, RetrievalSettings, StoreSettings


def cache_key(dataset: Path, model: str) -> str:
    """Changes whenever the corpus content, the model, the schema or the chunking would change the index (not when
    the same corpus is copied or checked out elsewhere)."""
    digest = hashlib.sha256()
    with open(dataset / "corpus.jsonl", "rb") as corpus:
        for block in iter(lambda: corpus.read(1 << 20), b""):
            digest.update(block)
    parts = [
        digest.hexdigest(),
        model,
        str(SCHEMA_VERSION),
        str(CHUNK_TOKEN_BUDGET),
    ]
    return hashlib.sha256("\x00".join(parts).encode()).hexdigest()[:12]


def run_eval(
    dataset: Path,
    *,
    store: StoreSettings,
    model: ModelSettings,
    retrieval: RetrievalSettings,
    split: str,
    strategy: str,
    limit: int | None,
    progress_bar: Callable[[str], AbstractContextManager[Progress]],
    grid: bool = False,
) -> list[EvalReport]:
    """Index (or reuse) the dataset's cached index under `store.eval_cache`, embedding with `model`, and evaluate
    one strategy on one split (with `grid`, once per fusion method), showing each stage on a `progress_bar(name)`.

    Raises:
        ValueError: not a BEIR folder.
        ArgumentError: an unknown strategy.
        FileNotFoundError: no qrels for the split.
    """
    if not is_beir_folder(dataset):
        raise ValueError(f"{dataset} has no corpus.jsonl; give a BEIR folder (corpus.jsonl, queries.jsonl, qrels/)")
    chosen = Strategy.parse(strategy)
    qrels = load_qrels(dataset, split)
    queries = [q for q in load_queries(dataset) if q.id in qrels][:limit]
    embedder = open_embedder(model)
    name = dataset.resolve().name
    index_dir = store.eval_cache / f"{name}-{cache_key(dataset, embedder.model_name)}"
    catalog = Catalog(index_dir, "default", embedder)
    try:
        with catalog.writer() as writer, progress_bar(name) as progress:
            index_beir(writer, dataset, name, progress=progress)  # incremental: a no-op once cached
        reports = []
        for fusion in [*FusionMethod] if grid else [None]:
            with progress_bar(name) as progress:
                progress.stage("queries", len(queries))
                reports.append(
                    evaluate(
                        catalog,
                        name,
                        queries,
                        qrels,
                        split=split,
                        retrieval=retrieval,
                        strategy=chosen,
                        fusion=fusion,
                        on_query=progress.advance,
                    )
                )
        return reports
    finally:
        catalog.close()
