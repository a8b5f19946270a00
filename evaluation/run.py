"""What `trident eval` runs: a BEIR dataset indexed once into a cache keyed by its content and configuration, then
scored.

With TRIDENT_STORAGE set, that index is shared too, under `eval/<dataset>-<key>/` of the bucket (beside the tenants,
never one of them): the local cache folder is pulled from it first, the first machine to evaluate a dataset indexes
and publishes it, and every other machine evaluates the published index. So the figures of two machines are those
of one index, and the object-storage backend is what is measured."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

from trident.embedding.embedder import open_embedder
from trident.embedding.model_settings import ModelSettings
from trident.evaluation.evaluate import EvalReport, evaluate
from trident.ingest.beir import is_beir_folder, load_qrels, load_queries
from trident.ingest.chunk_tokens import CHUNK_TOKEN_BUDGET
from trident.ingest.pipeline import Progress, index_beir
from trident.retrieval.fusion import FusionMethod
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.search_engine import Strategy
from trident.store.catalog import Catalog
from trident.store.protocols import Embedder
from trident.store.remote.object_store import open_object_store
from trident.store.remote.remote_catalog import RemoteCatalog
from trident.store.remote.remote_index import pull
from trident.store.schema import SCHEMA_VERSION
from trident.store.settings import StorageSettings, StoreSettings

EVAL_PREFIX = "eval"  # in the bucket of TRIDENT_STORAGE: eval/<dataset>-<key>/, apart from tenants/


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
    storage: StorageSettings | None = None,
) -> list[EvalReport]:
    """Index (or reuse) the dataset's cached index under `store.eval_cache`, embedding with `model`, and evaluate
    one strategy on one split (with `grid`, once per fusion method), showing each stage on a `progress_bar(name)`.
    With TRIDENT_STORAGE in `storage` (read from the environment when not given) the index is the shared one.

    Raises:
        ValueError: not a BEIR folder.
        ArgumentError: an unknown strategy.
        FileNotFoundError: no qrels for the split.
        ObjectStoreError: the shared index could not be read or published.
    """
    if not is_beir_folder(dataset):
        raise ValueError(f"{dataset} has no corpus.jsonl; give a BEIR folder (corpus.jsonl, queries.jsonl, qrels/)")
    chosen = Strategy.parse(strategy)
    qrels = load_qrels(dataset, split)
    queries = [q for q in load_queries(dataset) if q.id in qrels][:limit]
    embedder = open_embedder(model)
    name = dataset.resolve().name
    cached = f"{name}-{cache_key(dataset, embedder.model_name)}"
    catalog = open_eval_catalog(store.eval_cache / cached, embedder, StorageSettings() if storage is None else storage)
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


def open_eval_catalog(index_dir: Path, embedder: Embedder, storage: StorageSettings) -> Catalog:
    """The catalog of a dataset's cached index: the local folder, or with TRIDENT_STORAGE the cache of the shared
    index under `eval/<folder name>/` (pulled to its published generation first; a write publishes there).

    Raises:
        ObjectStoreError: the shared index could not be read.
    """
    if storage.bucket is None:
        return Catalog(index_dir, "default", embedder)
    remote = open_object_store(storage, under=f"{EVAL_PREFIX}/{index_dir.name}")
    pull(remote, index_dir)
    return RemoteCatalog(index_dir, "default", embedder, remote=remote)
