"""Search latency on a pulled cache next to the same index local (#18), and the cold-cache time to first answer.

A copy of a cached eval index is pushed to a SeaweedFS started here on loopback, then pulled into an empty cache:
the time from the start of that pull to the first `search` answered from the cache is the cold start (the model is
loaded beforehand, as a server loads it in the background while it starts). Then both folders are opened, each
warmed with the same few queries, and every query is searched on both, interleaved (local first on even queries,
cache first on odd ones, so neither always runs on a warmer CPU cache), timing the `search` tool's own function.

Usage:
    python bench/remote_latency.py --index ~/.cache/trident/eval/scifact-96d357e7b97d \
        --dataset ../shared/eval/scifact [--queries 200]
Prints one JSON object: p50, p95 and mean milliseconds per search for each folder, and the cold-start seconds.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.s3_server import weed_server
from trident.embedding.embedder import open_embedder
from trident.embedding.model_settings import ModelSettings
from trident.ingest.beir import load_queries
from trident.retrieval.reader import Reader
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.protocols import Embedder
from trident.store.remote.object_store import open_object_store
from trident.store.remote.remote_index import pull, push
from trident.store.remote.remote_lease import RemoteLease, held_lease
from trident.tools.search import search

TENANT = "default"
WARM_UP = 10  # queries run on each folder before timing


def cold_start(local: Path, cache: Path, embedder: Embedder, query: str, settings: Any) -> dict[str, Any]:
    """Push `local`, then time pulling it into the empty `cache`, opening it and answering `query`."""
    store = open_object_store(settings, under=f"tenants/{TENANT}")
    with held_lease(RemoteLease(store, "bench")) as lease:
        push(store, local, lease)
    started = time.perf_counter()
    pulled = pull(store, cache)
    catalog = Catalog.open_reader(cache, TENANT, embedder)
    try:
        search(Reader(catalog, GenerationViews(RetrievalSettings())), query)
    finally:
        catalog.close()
    return {"cold_first_answer_s": round(time.perf_counter() - started, 2), "pulled_bytes": pulled.bytes}


def interleaved(folders: dict[str, Path], embedder: Embedder, queries: list[str]) -> dict[str, list[float]]:
    """Milliseconds per search on each folder, the folders taking turns at going first."""
    catalogs = {name: Catalog.open_reader(folder, TENANT, embedder) for name, folder in folders.items()}
    views = GenerationViews(RetrievalSettings())
    timings: dict[str, list[float]] = {name: [] for name in folders}
    try:
        for query in queries[:WARM_UP]:
            for catalog in catalogs.values():
                search(Reader(catalog, views), query)
        for number, query in enumerate(queries):
            order = list(catalogs) if number % 2 == 0 else list(reversed(catalogs))
            for name in order:
                started = time.perf_counter()
                search(Reader(catalogs[name], views), query)
                timings[name].append((time.perf_counter() - started) * 1000)
    finally:
        for catalog in catalogs.values():
            catalog.close()
    return timings


def summary(milliseconds: list[float]) -> dict[str, float]:
    ordered = sorted(milliseconds)
    return {
        "p50_ms": round(statistics.median(ordered), 1),
        "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))], 1),
        "mean_ms": round(statistics.fmean(ordered), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", type=Path, required=True, help="a cached eval index (never written)")
    parser.add_argument("--dataset", type=Path, required=True, help="the BEIR folder it was built from")
    parser.add_argument("--queries", type=int, default=200, help="queries timed on each folder")
    args = parser.parse_args()
    queries = [query.text for query in load_queries(args.dataset)][: args.queries]
    embedder = open_embedder(ModelSettings())
    with tempfile.TemporaryDirectory(prefix="remote-latency-") as tmp:
        root = Path(tmp)
        local, cache = root / "local", root / "cache"
        shutil.copytree(args.index.expanduser(), local, ignore=shutil.ignore_patterns("write.lock"))
        with weed_server(root / "weed", prefix="bench") as settings:
            cold = cold_start(local, cache, embedder, queries[0], settings)
        timings = interleaved({"local": local, "pulled_cache": cache}, embedder, queries)
    report = {
        "index": args.index.name,
        "queries": len(queries),
        **{name: summary(values) for name, values in timings.items()},
        **cold,
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
