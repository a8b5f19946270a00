"""Indexing throughput: chunks/s of a full index run against raw embedding of the same chunks, split by stage.

Usage: python bench/index_throughput.py [FOLDER ...]   (default: the three sample projects in examples/)
    e.g. python bench/index_throughput.py ~/.cache/trident/bench/corpus-10k/*   (after `bench/corpus.py subsets`)
Each folder is one project (a BEIR folder is indexed as a collection). The model is TRIDENT_MODEL's. Prints one
line per figure and writes ~/.cache/trident/bench/results/index-throughput-<model>.json; nothing is timed inside
the test suite.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from trident.embedding.embedder import open_embedder
from trident.embedding.model_settings import ModelSettings
from trident.ingest.beir import is_beir_folder
from trident.ingest.pipeline import IndexReport, index_beir, index_folder
from trident.ingest.progress import Silent
from trident.ingest.run_syncs import BlockSyncs
from trident.store.catalog import Catalog, Writer, embedding_text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import bench_home, model_slug
from instrument import StageClock, instrument_pipeline, peak_rss_mb

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


class ClockedEmbedder:
    """Books the model's time as "embed: <stage>" on the clock, so parse and engine stages exclude it."""

    def __init__(self, inner: object, clock: StageClock) -> None:
        self.inner = inner
        self.clock = clock
        self.texts = 0  # every text embedded: chunks, entity and relation items, community reports
        self.by_stage: Counter[str] = Counter()  # the same per stage ("other" is the chunks)

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)

    def embed(self, texts: object) -> object:
        self.texts += len(texts)  # type: ignore[arg-type]
        stage = "chunks" if self.clock.current == "other" else self.clock.current
        self.by_stage[stage] += len(texts)  # type: ignore[arg-type]
        with self.clock.stage(f"embed: {self.clock.current}"):
            return self.inner.embed(texts)  # type: ignore[attr-defined]


def index_all(catalog: Catalog, folders: list[Path]) -> int:
    """Index the folders in one writer block as one `trident index` run does (one publication; several folders
    synced once, after the last); the chunks written."""
    chunks = 0
    syncs = BlockSyncs() if len(folders) > 1 else None
    with catalog.writer() as writer:
        for folder in folders:
            chunks += _index_one(writer, folder, syncs).chunks
        if syncs is not None:
            syncs.finish(writer, Silent())
    return chunks


def _index_one(writer: Writer, folder: Path, syncs: BlockSyncs | None) -> IndexReport:
    if is_beir_folder(folder):
        return index_beir(writer, folder, folder.name, syncs=syncs)
    return index_folder(writer, folder, folder.name, max_file_bytes=1_000_000, syncs=syncs)


def main(folders: list[Path]) -> None:
    settings = ModelSettings(vector_cache_mb=0)  # measures the model: no vectors read back
    model = open_embedder(settings)
    clock = StageClock()
    embedder = ClockedEmbedder(model, clock)
    with tempfile.TemporaryDirectory() as tmp:
        catalog = Catalog(Path(tmp) / "index", "default", embedder)  # type: ignore[arg-type]
        started = time.perf_counter()
        with instrument_pipeline(clock), clock.stage("other"):
            chunks = index_all(catalog, folders)
        full = time.perf_counter() - started
        rss_indexing = peak_rss_mb()

        ids = [cid for entry in catalog.manifest.documents.values() for cid in entry.chunk_ids]
        got = catalog.graph.get_chunks(ids)
        texts = [embedding_text(got[i]) for i in ids if i in got]
        started = time.perf_counter()
        model.embed(texts)
        raw = time.perf_counter() - started

        started = time.perf_counter()
        index_all(catalog, folders)
        noop = time.perf_counter() - started
        catalog.close()

    stages = {k: round(v, 2) for k, v in sorted(clock.seconds.items(), key=lambda kv: -kv[1])}
    embedding = sum(v for k, v in clock.seconds.items() if k.startswith("embed"))
    chunk_embedding = clock.seconds.get("embed: other", 0.0)
    rest = full - embedding
    result = {
        "model": settings.model,
        "folders": [str(f) for f in folders],
        "chunks": chunks,
        "full_s": round(full, 2),
        "chunks_per_s": round(chunks / full, 1),
        "embeddings_per_chunk": round(embedder.texts / max(chunks, 1), 3),
        "embeddings_per_chunk_by_stage": {k: round(v / max(chunks, 1), 3) for k, v in embedder.by_stage.items()},
        "raw_embedding_s": round(raw, 2),
        "raw_chunks_per_s": round(len(texts) / raw, 1),
        "embedding_in_index_s": round(embedding, 2),
        "chunk_embedding_in_index_s": round(chunk_embedding, 2),
        "everything_but_embedding_s": round(rest, 2),
        "overhead_vs_raw": round(rest / raw, 3),
        "noop_reindex_s": round(noop, 2),
        "peak_rss_indexing_mb": round(rss_indexing),
        "stages_s": stages,
        "cpus": os.cpu_count(),
        "onnx_threads": settings.threads,  # None: ONNX Runtime's default, one intra-op thread per core
        "load": os.getloadavg(),
    }
    per_stage = ", ".join(f"{stage} {count}" for stage, count in embedder.by_stage.most_common())
    print(f"chunks indexed:               {chunks}")
    print(f"full index:                   {full:.1f} s  ({chunks / full:.1f} chunks/s)")
    print(f"embeddings per chunk:         {embedder.texts / max(chunks, 1):.2f} ({embedder.texts} texts: {per_stage})")
    print(f"raw embedding, same texts:    {raw:.1f} s  ({len(texts) / raw:.1f} chunks/s)")
    print(f"embedding inside the index:   {embedding:.1f} s (chunks {chunk_embedding:.1f} s, the rest graph items)")
    print(f"everything but embedding:     {rest:.1f} s = {rest / raw:.1%} of raw embedding time")
    print(f"no-change re-index:           {noop:.2f} s")
    print(f"peak RSS while indexing:      {rss_indexing:.0f} MiB")
    threads = settings.threads or "ONNX Runtime's default, one per core"
    print(f"embedding threads:            {threads} ({os.cpu_count()} cores; TRIDENT_THREADS sets them)")
    print("stages (s):", json.dumps(stages))
    out = bench_home() / "results" / f"index-throughput-{model_slug(settings.model)}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    args = [Path(a) for a in sys.argv[1:]] or [EXAMPLES / p for p in ("billing", "auth", "storefront")]
    main(args)
