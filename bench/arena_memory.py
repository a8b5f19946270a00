"""What ONNX Runtime's CPU memory arena costs a long-lived process: index a folder in-process with the model loaded as
a server loads it (`open_embedder(..., long_lived=True)`, no arena) or as `trident index` does (with it), and print the
resident memory the model and the indexing added, and the time a query embedding and the indexing took.

Usage:
    python bench/arena_memory.py [--folder docs] [--model sentence-transformers/all-MiniLM-L6-v2:int8]
Each variant runs in a fresh process (resident memory is never given back within one), the server's first. Prints
one JSON object.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

VARIANTS = ("long_lived", "default")


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def one_variant(folder: Path, model: str, long_lived: bool) -> dict[str, float]:
    from trident.embedding.embedder import open_embedder
    from trident.embedding.model_settings import ModelSettings
    from trident.ingest.pipeline import index_folder
    from trident.store.catalog import Catalog

    before = _rss_mb()
    embedder = open_embedder(ModelSettings(model=model, vector_cache_mb=0), long_lived=long_lived)
    loaded = _rss_mb()
    started = time.perf_counter()
    for _ in range(20):
        embedder.embed_query("where are failed charges retried?")
    query_ms = (time.perf_counter() - started) / 20 * 1000
    with tempfile.TemporaryDirectory(prefix="trident-arena-") as tmp:
        catalog = Catalog(Path(tmp) / "index", "default", embedder)
        started = time.perf_counter()
        with catalog.writer() as writer:
            report = index_folder(writer, folder, folder.name, max_file_bytes=2_000_000)
        seconds = time.perf_counter() - started
        catalog.close()
    return {
        "model_mb": round(loaded - before, 1),
        "after_indexing_mb": round(_rss_mb() - before, 1),
        "chunks": report.chunks,
        "index_s": round(seconds, 2),
        "query_ms": round(query_ms, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--folder", type=Path, default=Path(__file__).resolve().parent.parent / "docs")
    parser.add_argument("--model", default="sentence-transformers/all-MiniLM-L6-v2:int8")
    parser.add_argument("--variant", choices=VARIANTS, help=argparse.SUPPRESS)  # one variant, in a child process
    args = parser.parse_args()
    if not args.folder.is_dir():
        parser.error(f"--folder: {args.folder} is not a folder")
    if args.variant is not None:
        print(json.dumps(one_variant(args.folder, args.model, args.variant == "long_lived")))
        return
    result: dict[str, object] = {"folder": str(args.folder), "model": args.model}
    for variant in VARIANTS:
        command = [sys.executable, __file__, "--folder", str(args.folder), "--model", args.model, "--variant", variant]
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        result[variant] = json.loads(done.stdout.strip().splitlines()[-1])
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
