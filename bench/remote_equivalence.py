"""The object-storage backend gives the same answers as the local one (#18): push a cached eval index to a SeaweedFS
started here on loopback, pull it into a fresh cache, and run the dataset's judged queries on both folders.

Usage:
    python bench/remote_equivalence.py --index ~/.cache/trident/eval/scifact-96d357e7b97d \
        --dataset ../shared/eval/scifact [--split test] [--limit N]
The index is copied to a temporary folder first (the cached one is never written). Prints one JSON object: whether
every ranking is identical (document ids in order, top 100), nDCG@10 on both, push and pull seconds and bytes, and
the cold-cache time to first answer (pull into an empty folder, open it, answer the first query; the model is loaded
beforehand, as a server loads it in the background).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.s3_server import weed_server
from trident.embedding.embedder import open_embedder
from trident.embedding.model_settings import ModelSettings
from trident.evaluation.evaluate import ranked_documents
from trident.evaluation.metrics import mean, query_metrics
from trident.ingest.beir import BeirQuery, load_qrels, load_queries
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.search_engine import Strategy
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.protocols import Embedder
from trident.store.remote.object_store import ObjectStore, open_object_store
from trident.store.remote.remote_index import pull, push
from trident.store.remote.remote_lease import RemoteLease, held_lease

TENANT = "default"


def rankings(
    index_dir: Path, embedder: Embedder, queries: list[BeirQuery], first_answer_from: float | None = None
) -> tuple[list[list[str]], float | None]:
    """Each query's ranked document ids from the folder; with `first_answer_from` (a perf_counter reading), also the
    seconds from then until the first query was answered."""
    catalog = Catalog.open_reader(index_dir, TENANT, embedder)
    views = GenerationViews(RetrievalSettings())
    first: float | None = None
    ranked: list[list[str]] = []
    try:
        for query in queries:
            ranked.append(ranked_documents(catalog, query.text, Strategy.AUTO, views)[0])
            if first is None and first_answer_from is not None:
                first = time.perf_counter() - first_answer_from
    finally:
        catalog.close()
    return ranked, first


def ndcg(ranked: list[list[str]], relevant: list[dict[str, int]]) -> float:
    return round(mean([query_metrics(r, rel) for r, rel in zip(ranked, relevant, strict=True)])["ndcg@10"], 4)


def push_and_pull(store: ObjectStore, local: Path, cache: Path) -> dict[str, Any]:
    started = time.perf_counter()
    with held_lease(RemoteLease(store, "bench")) as lease:
        pushed = push(store, local, lease)
    push_seconds = time.perf_counter() - started
    started = time.perf_counter()
    pulled = pull(store, cache)
    return {
        "push_s": round(push_seconds, 2),
        "push_files": pushed.files,
        "push_bytes": pushed.bytes,
        "pull_s": round(time.perf_counter() - started, 2),
        "pull_files": pulled.files,
        "pull_bytes": pulled.bytes,
        "pull_started": started,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", type=Path, required=True, help="a cached eval index (never written)")
    parser.add_argument("--dataset", type=Path, required=True, help="the BEIR folder it was built from")
    parser.add_argument("--split", default="test")
    parser.add_argument("--limit", type=int, default=None, help="judged queries to run (default: all)")
    args = parser.parse_args()
    qrels = load_qrels(args.dataset, args.split)
    queries = [query for query in load_queries(args.dataset) if query.id in qrels][: args.limit]
    embedder = open_embedder(ModelSettings())
    with tempfile.TemporaryDirectory(prefix="remote-equivalence-") as tmp:
        root = Path(tmp)
        local = root / "local"
        shutil.copytree(args.index.expanduser(), local, ignore=shutil.ignore_patterns("write.lock"))
        with weed_server(root / "weed", prefix="bench") as settings:
            store = open_object_store(settings, under=f"tenants/{TENANT}")
            figures = push_and_pull(store, local, root / "cache")
            started = figures.pop("pull_started")
            remote_ranked, first_answer = rankings(root / "cache", embedder, queries, first_answer_from=started)
        local_ranked, _ = rankings(local, embedder, queries)
    relevant = [qrels[query.id] for query in queries]
    report = {
        "index": args.index.name,
        "queries": len(queries),
        "identical_rankings": remote_ranked == local_ranked,
        "differing_queries": sum(a != b for a, b in zip(remote_ranked, local_ranked, strict=True)),
        "ndcg@10_local": ndcg(local_ranked, relevant),
        "ndcg@10_remote": ndcg(remote_ranked, relevant),
        **figures,
        "cold_cache_first_answer_s": round(first_answer or 0.0, 2),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
