"""The read tools beside `search`, timed on a cached bench index through a reader's views (as the server and the
command line read).

  get_entity        the bench's graph entities, each five times
  stale scan        the scan of one index generation that status and find_stale start (at most 20,000 chunks)
  status            once the scan is done, six calls

Usage:
    python bench/read_tools.py [--sizes 10k,100k]
The model is TRIDENT_MODEL's (the bench's is `sentence-transformers/all-MiniLM-L6-v2:int8`). Prints p50 / p95 ms
per tool; a size not built is skipped.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from trident.embedding.model_settings import ModelSettings
from trident.retrieval.reader import Reader
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.stale_scan import scan_stale
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.names.directory import EntityDirectory
from trident.tools.get_entity import get_entity
from trident.tools.status import status

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import index_dir
from latency import TENANT, graph_inputs, load_queries


def timed(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """p50 and p95 of `repeat` calls, ms."""
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - started)
    samples.sort()
    return statistics.median(samples) * 1000, samples[min(len(samples) - 1, int(len(samples) * 0.95))] * 1000


def measure(size: str) -> None:
    catalog = Catalog(index_dir(size, ModelSettings().model), TENANT, None)
    views = GenerationViews(RetrievalSettings())
    reader = Reader(catalog, views)
    reader.directory(), reader.relations()  # built once per generation, as a server's warm-up builds them
    by_tool = load_queries()
    names = [item["entity"] for item in graph_inputs(catalog, by_tool).get("trace_relationships", [])]
    print(f"\n{size}: {len(names)} entities")
    samples: list[float] = []
    for name in names:
        started = time.perf_counter()
        for _ in range(5):
            get_entity(reader, name)
        samples.append((time.perf_counter() - started) / 5 * 1000)
    print(f"  get_entity p50 {statistics.median(samples):7.2f} ms  max {max(samples):7.2f} ms")
    fresh = EntityDirectory(catalog.entities())  # a directory of its own: a scan of its own, not the one before
    started = time.perf_counter()
    scan = scan_stale(catalog, fresh, views)
    print(f"  stale scan {time.perf_counter() - started:7.2f} s ({scan.checked} chunks)")
    status(reader, stale=True, stale_wait=None)  # the generation's scan done before timing
    p50, p95 = timed(lambda: status(reader, stale=True), 6)
    print(f"  status (scan done)  p50 {p50:7.2f} ms  p95 {p95:7.2f} ms")
    catalog.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10k,100k")
    args = parser.parse_args()
    for size in args.sizes.split(","):
        if (index_dir(size, ModelSettings().model) / "manifest.json").exists():
            measure(size)
        else:
            print(f"{size}: no bench index (bench/corpus.py builds it); skipped")


if __name__ == "__main__":
    main()
