"""Raw embedding throughput: float32 against the int8 variant, batch sizes, and length-sorted against corpus order.

The texts are a fixed sample of the bench corpus's chunk texts (what the model sees), so the mix of short and long
chunks is the index's own.

Usage: python bench/embed_throughput.py [--size 10k] [--sample 600]
Writes ~/.cache/trident/bench/results/embed-throughput.json.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

import numpy as np

from trident.embedding.embedder import FastEmbedEmbedder, open_embedder
from trident.embedding.model_settings import DEFAULT_MODEL, ModelSettings
from trident.store.catalog import Catalog, embedding_text
from trident.store.manifest import Manifest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import bench_home, index_dir

INT8 = f"{DEFAULT_MODEL}:int8"


def sample_texts(size: str, model: str, sample: int) -> list[str]:
    index = index_dir(size, model)
    ids = sorted(cid for e in Manifest.load(index).documents.values() for cid in e.chunk_ids)
    picked = random.Random(6).sample(ids, min(sample, len(ids)))
    catalog = Catalog(index, "default")
    chunks = catalog.graph.get_chunks(picked)
    catalog.close()
    return [embedding_text(chunks[i]) for i in picked if i in chunks]


def rate(embedder: FastEmbedEmbedder, texts: list[str], *, batch_size: int, sort: bool) -> float:
    embedder.batch_size = batch_size
    embedder.embed(texts[:8])
    started = time.perf_counter()
    if sort:
        embedder.embed(texts)
    else:
        # Corpus order: what fastembed does when handed the chunks as they come.
        list(embedder._model.embed(texts, batch_size=batch_size))
    return len(texts) / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", default="10k")
    parser.add_argument("--sample", type=int, default=600)
    parser.add_argument("--index-model", default=INT8, help="whose bench index to sample chunk texts from")
    args = parser.parse_args()
    texts = sample_texts(args.size, args.index_model, args.sample)
    models: dict[str, FastEmbedEmbedder] = {}
    for name in (DEFAULT_MODEL, INT8):
        embedder = open_embedder(ModelSettings(model=name, vector_cache_mb=0))
        assert isinstance(embedder, FastEmbedEmbedder)
        models[name] = embedder
    rows: list[dict[str, object]] = []
    grid = [(m, b, True) for m in models for b in (8, 32, 128)] + [(m, 32, False) for m in models]
    for name, batch, sort in grid:
        per_s = rate(models[name], texts, batch_size=batch, sort=sort)
        row = {"model": name, "batch_size": batch, "length_sorted": sort, "chunks_per_s": round(per_s, 1)}
        rows.append(row)
        print(json.dumps(row), flush=True)
    fp32, int8 = (models[n].embed(texts) for n in (DEFAULT_MODEL, INT8))
    cosine = (fp32 * int8).sum(axis=1)
    result = {
        "texts": len(texts),
        "mean_chars": round(float(np.mean([len(t) for t in texts]))),
        "cpus": os.cpu_count(),
        "load": os.getloadavg(),
        "rows": rows,
        "int8_cosine_to_fp32": {"min": float(cosine.min()), "mean": float(cosine.mean())},
    }
    out = bench_home() / "results" / "embed-throughput.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result["int8_cosine_to_fp32"]))


if __name__ == "__main__":
    main()
