"""Indexing on a Ray cluster (#18): chunks/s of a whole index run parsing and embedding in this process, and on 1
and 2 Ray workers, with the vectors compared; and files/s of the parse alone, here and as Ray tasks.

Usage: python bench/ray_throughput.py [FOLDER] [--address HOST:PORT] [--workers 1,2]
    FOLDER (default: json, http, email and concurrent copied from this interpreter's standard library, one project)
    --address: a running cluster (`ray start --head`); without it the script starts one on loopback with as many
    CPUs as this machine has and stops it at the end.
Each run indexes the folder into a fresh index with TRIDENT_MODEL's model (one writer here, embedding local or on
the workers); the chunk vectors of every run are compared with the local run's. Nothing is timed in the tests.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from trident.embedding.embedder import open_embedder
from trident.embedding.model_settings import ModelSettings
from trident.embedding.ray_embedder import RayEmbedder
from trident.host.ray_cluster import ClusterSettings
from trident.ingest.documents import Parsed
from trident.ingest.parsing import LocalParser, Parser
from trident.ingest.pipeline import index_folder
from trident.ingest.ray_parser import RayParser
from trident.ingest.walker import walk
from trident.store.catalog import Catalog
from trident.store.protocols import Embedder

sys.path.insert(0, str(Path(__file__).resolve().parent))
from instrument import stdlib_sample

STDLIB = ("json", "http", "email", "concurrent")
RAY = Path(sys.executable).parent / "ray"


def run(
    folder: Path, embedder: Embedder, index_dir: Path, parser: Parser | None = None
) -> tuple[float, int, dict[str, np.ndarray]]:
    catalog = Catalog(index_dir, "default", embedder)
    try:
        started = time.perf_counter()
        with catalog.writer() as writer:
            chunks = index_folder(writer, folder, folder.name, max_file_bytes=1_000_000, parser=parser).chunks
        seconds = time.perf_counter() - started
        ids = sorted(catalog.vectors.ids("default"))
        return seconds, chunks, catalog.vectors.vectors(ids)
    finally:
        catalog.close()


def parse_alone(folder: Path, parser: Parser) -> tuple[float, list[Parsed]]:
    sources = walk(folder, 1_000_000).files
    started = time.perf_counter()
    parsed = list(parser.parse(folder.name, sources, "default"))
    return time.perf_counter() - started, parsed


def _start_head(folder: Path) -> str:
    port = 6390 + os.getpid() % 50
    head = [f"--port={port}", "--node-ip-address=127.0.0.1", f"--num-cpus={os.cpu_count()}"]
    quiet = ["--include-dashboard=false", "--disable-usage-stats", f"--temp-dir={folder}"]
    subprocess.run([str(RAY), "start", "--head", *head, *quiet], check=True, capture_output=True)
    return f"127.0.0.1:{port}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, nargs="?")
    parser.add_argument("--address")
    parser.add_argument("--workers", default="1,2")
    args = parser.parse_args()
    settings = ModelSettings(vector_cache_mb=0)  # measures the model: no vectors read back
    local = open_embedder(settings)
    local.embed(["warm the model up"])
    with tempfile.TemporaryDirectory(dir="/tmp", prefix="raybench") as tmp:
        folder = args.folder or stdlib_sample(Path(tmp) / "stdlib-sample", STDLIB)
        address = args.address or _start_head(Path(tmp) / "ray")
        try:
            seconds, chunks, reference = run(folder, local, Path(tmp) / "local")
            print(f"model {settings.model}, {chunks} chunks, cpus {os.cpu_count()}, load {os.getloadavg()}")
            print(f"in this process ({local}): {seconds:.1f} s, {chunks / seconds:.1f} chunks/s")
            parse_seconds, parsed = parse_alone(folder, LocalParser())
            print(f"parse alone, here: {parse_seconds:.1f} s, {len(parsed) / parse_seconds:.1f} files/s")
            for workers in (int(w) for w in args.workers.split(",")):
                cluster = ClusterSettings(ray_address=address, ray_workers=workers)
                ray_parser = RayParser(cluster)
                seconds, on_ray = parse_alone(folder, ray_parser)
                print(
                    f"parse alone, {workers} Ray task(s) at a time: {seconds:.1f} s, {len(on_ray) / seconds:.1f} "
                    f"files/s; identical to the local parse: {on_ray == parsed}"
                )
                distributed = RayEmbedder(settings, cluster, local, settings.batch_size)
                try:
                    seconds, chunks, vectors = run(folder, distributed, Path(tmp) / f"ray-{workers}", ray_parser)
                finally:
                    distributed.close()
                same = vectors.keys() == reference.keys() and all(
                    np.array_equal(vectors[i], reference[i]) for i in vectors
                )
                print(
                    f"on {workers} Ray worker(s): {seconds:.1f} s, {chunks / seconds:.1f} chunks/s; "
                    f"vectors identical to the local run: {same}"
                )
        finally:
            if args.address is None:
                subprocess.run([str(RAY), "stop", "--force"], capture_output=True)
    print(f"load after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
