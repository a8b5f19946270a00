"""How long a query embedding takes depending on what ran just before it: back to back (as the floor in
`bench/latency.py` times it) or after what a search does between two embeddings (a matrix product over the chunk
vectors, Python work, the machine idle between two queries).

The floor of issue #15 embeds the bench queries one after another in a tight loop, where the model's weights stay
in the processor's caches; inside a search, and between a user's searches, they do not. This script measures that
difference alone, with the same model and the same queries, so a ratio to the floor can be read against it.

Usage:
    python bench/embedding_after.py [--repeat 3] [--rows 9254]
The model is TRIDENT_MODEL's (the bench's is `sentence-transformers/all-MiniLM-L6-v2:int8`); TRIDENT_THREADS sets
the model's threads. Prints the p50 (ms) of one embedding of each bench search query after each kind of work.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from trident.embedding.embedder import open_embedder
from trident.embedding.model_settings import ModelSettings

sys.path.insert(0, str(Path(__file__).resolve().parent))
from latency import load_queries


def busy(seconds: float) -> None:
    """The interpreter kept busy for `seconds`, touching little memory."""
    until = time.perf_counter() + seconds
    while time.perf_counter() < until:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rows", type=int, default=9254, help="chunk vectors in the matrix product (the 10K index)")
    args = parser.parse_args()
    embedder = open_embedder(ModelSettings())
    queries = [item["query"] for item in load_queries()["search"]]
    for query in queries:  # the model loaded and every query's shape seen once
        embedder.embed_query(query)
    matrix = np.random.default_rng(0).standard_normal((args.rows, 384)).astype(np.float32)
    records = [{"a": i, "b": str(i)} for i in range(20_000)]
    before: dict[str, Callable[[], object]] = {
        "back to back (the floor's loop)": lambda: None,
        "after 0.3 ms idle": lambda: time.sleep(0.0003),
        "after 3 ms idle": lambda: time.sleep(0.003),
        "after 3 ms of a busy interpreter": lambda: busy(0.003),
        f"after a product over {args.rows:,} vectors": lambda: matrix @ matrix[0],
        "after Python work over 20,000 dicts": lambda: sum(record["a"] for record in records),
    }
    print(f"query embedding p50 (ms), {len(queries)} queries x {args.repeat}")
    for name, work in before.items():
        samples: list[float] = []
        for _ in range(args.repeat):
            for query in queries:
                work()
                started = time.perf_counter()
                embedder.embed_query(query)
                samples.append(time.perf_counter() - started)
        print(f"  {name:45s} {statistics.median(samples) * 1000:6.2f}")


if __name__ == "__main__":
    main()
