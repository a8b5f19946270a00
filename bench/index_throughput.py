"""Indexing throughput: chunks/s of a full index run against raw embedding of the same chunks.

Usage: python bench/index_throughput.py [FOLDER ...]   (default: the three sample projects in examples/)
Prints one line per figure; nothing is timed inside the test suite.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from trident.ingest.beir import is_beir_folder
from trident.ingest.pipeline import index_beir, index_folder
from trident.store.catalog import Catalog, embedding_text
from trident.store.embedder import open_embedder
from trident.store.settings import ModelSettings

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def main(folders: list[Path]) -> None:
    embedder = open_embedder(ModelSettings())
    with tempfile.TemporaryDirectory() as tmp:
        catalog = Catalog(Path(tmp) / "index", "default", embedder)
        started = time.perf_counter()
        chunks = 0
        for folder in folders:
            if is_beir_folder(folder):
                report = index_beir(catalog, folder, folder.name)
            else:
                report = index_folder(catalog, folder, folder.name, max_file_bytes=1_000_000)
            chunks += report.chunks
        full = time.perf_counter() - started

        ids = [cid for entry in catalog.manifest.documents.values() for cid in entry.chunk_ids]
        texts = [embedding_text(c) for c in catalog.graph.get_chunks(ids).values()]
        started = time.perf_counter()
        embedder.embed(texts)
        raw = time.perf_counter() - started

        started = time.perf_counter()
        for folder in folders:
            if is_beir_folder(folder):
                index_beir(catalog, folder, folder.name)
            else:
                index_folder(catalog, folder, folder.name, max_file_bytes=1_000_000)
        noop = time.perf_counter() - started
        catalog.close()

    print(f"chunks indexed:            {chunks}")
    print(f"full index:                {full:.2f} s  ({chunks / full:.1f} chunks/s)")
    print(f"raw embedding, same texts: {raw:.2f} s  ({len(texts) / raw:.1f} chunks/s)")
    print(f"indexing overhead:         {(full - raw) / full:.0%} of the run outside embedding")
    print(f"no-change re-index:        {noop:.2f} s")


if __name__ == "__main__":
    args = [Path(a) for a in sys.argv[1:]] or [EXAMPLES / p for p in ("billing", "auth", "storefront")]
    main(args)
