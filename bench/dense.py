"""Dense search from memory against the vector store, on any index: the same ranking, and how long each takes.

For each query (the index's own BEIR queries, or bench/queries.jsonl) the query is embedded once, then searched
with LanceDB (the store of record) and with `ChunkVectors` (every chunk vector of the generation in one matrix, what
the semantic path now reads). Prints the agreement (same ids in the same order, top 50) and the milliseconds of
each (median and p95), with the time to load the matrix.

Usage:
    python bench/dense.py INDEX_DIR [--queries FILE] [--limit 200]
INDEX_DIR is a tenant's index folder, e.g. an eval cache (~/.cache/trident/eval/2wiki-...) or
$TRIDENT_HOME/tenants/default.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from trident.embedding.embedder import open_embedder
from trident.embedding.model_settings import ModelSettings
from trident.retrieval.chunk_vectors import ChunkVectors
from trident.store.catalog import Catalog
from trident.store.mapped.chunk_files import read_chunk_files
from trident.store.protocols import SearchFilter

QUERIES = Path(__file__).resolve().parent / "queries.jsonl"
TOP = 50


def queries(path: Path, limit: int) -> list[str]:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [row.get("query") or row.get("text") or "" for row in rows if row.get("query") or row.get("text")][:limit]


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("index", type=Path)
    parser.add_argument("--queries", type=Path, default=QUERIES)
    parser.add_argument("--limit", type=int, default=200)
    args = parser.parse_args()
    embedder = open_embedder(ModelSettings())
    catalog = Catalog(args.index, "default", embedder)
    try:
        started = time.perf_counter()
        matrix = ChunkVectors.load(read_chunk_files(catalog.generation_folder, catalog.tenant))
        load_ms = (time.perf_counter() - started) * 1000
        where = SearchFilter(catalog.tenant)
        store_ms, matrix_ms, same = [], [], 0
        texts = queries(args.queries, args.limit)
        for text in texts:
            vector = embedder.embed_query(text)
            # Each right after the embedding, as the semantic path runs it (the model's threads still warm).
            started = time.perf_counter()
            found = matrix.search(vector, TOP, where)
            matrix_ms.append((time.perf_counter() - started) * 1000)
            vector = embedder.embed_query(text)
            started = time.perf_counter()
            stored = catalog.vectors.search(vector, TOP, where)
            store_ms.append((time.perf_counter() - started) * 1000)
            same += [hit.id for hit in stored] == [hit.id for hit in found]
    finally:
        catalog.close()
    print(f"{len(matrix)} chunks; matrix loaded in {load_ms:.0f} ms; {len(texts)} queries, top {TOP}")
    print(f"same ranking: {same}/{len(texts)}")
    for name, samples in (("vector store", store_ms), ("matrix", matrix_ms)):
        p50, p95 = statistics.median(samples), percentile(samples, 0.95)
        print(f"{name:<13} p50 {p50:6.2f} ms  p95 {p95:6.2f} ms")


if __name__ == "__main__":
    main()
