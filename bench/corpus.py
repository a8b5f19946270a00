"""The bench corpus: about 100K chunks of text that ships on this machine, indexed once and cached outside the repo.

Sources, in indexing order: the three BEIR corpora in ../shared/eval (SciFact abstracts, 2Wiki passages, CoSQA
code snippets), the Python standard library's sources, then SymPy's sub-packages (installed in the venv) one project
each until the index holds `--target` chunks. The 1K and 10K subsets sample the same documents (every source in
proportion, by a hash of the document id), materialised as folders and BEIR files under the cache.

Usage:
    python bench/corpus.py build [--target 100000]      # the big index (hours of embedding on 2 cores; resumable)
    python bench/corpus.py reindex [--index COPY]       # the no-change re-index of the big index (or a copy of it)
    python bench/corpus.py subsets                      # 1K and 10K indexes, vectors reused from the big build
Environment: TRIDENT_BENCH_CACHE (default ~/.cache/trident/bench), TRIDENT_MODEL (e.g. `...:int8`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from trident.embedding.embedder import open_embedder
from trident.embedding.model_settings import ModelSettings
from trident.ingest.beir import is_beir_folder
from trident.ingest.pipeline import index_beir, index_folder
from trident.store.catalog import Catalog, Writer
from trident.store.manifest import Manifest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from instrument import CachedEmbedder, StageClock, instrument_pipeline, peak_rss_mb

EVAL = Path(__file__).resolve().parent.parent.parent / "shared" / "eval"
STDLIB = Path(f"/usr/lib/python{sys.version_info.major}.{sys.version_info.minor}")
SITE = Path(next(p for p in sys.path if p.endswith("site-packages")))
SUBSET_SIZES = (1_000, 10_000)
MAX_FILE_BYTES = 1_000_000


def bench_home() -> Path:
    return Path(os.environ.get("TRIDENT_BENCH_CACHE", Path.home() / ".cache" / "trident" / "bench"))


def model_slug(model: str) -> str:
    return model.rsplit("/", 1)[-1].replace(":", "-")


def index_dir(size: str, model: str) -> Path:
    return bench_home() / f"index-{size}-{model_slug(model)}"


@dataclass(frozen=True)
class Source:
    project: str
    path: Path

    @property
    def beir(self) -> bool:
        return is_beir_folder(self.path)


def sources() -> list[Source]:
    found = [Source(f"eval-{name}", EVAL / name) for name in ("scifact", "2wiki", "cosqa")]
    found.append(Source("python-stdlib", STDLIB))
    sympy = SITE / "sympy"
    found.extend(
        Source(f"sympy-{d.name}", d) for d in sorted(sympy.iterdir()) if d.is_dir() and d.name != "__pycache__"
    )
    return found


def index_source(writer: Writer, source: Source) -> int:
    if source.beir:
        return index_beir(writer, source.path, source.project).chunks
    return index_folder(writer, source.path, source.project, max_file_bytes=MAX_FILE_BYTES).chunks


def chunk_count(index: Path) -> int:
    return sum(len(e.chunk_ids) for e in Manifest.load(index).documents.values())


def build(target: int) -> None:
    """Index sources in order until the index holds `target` chunks; a finished project is never redone."""
    settings = ModelSettings()
    index = index_dir("100k", settings.model)
    clock = StageClock()
    embedder = CachedEmbedder(
        open_embedder(settings), bench_home() / f"vectors-{model_slug(settings.model)}.sqlite", clock
    )
    log_path = index / "bench-build.jsonl"
    done = {json.loads(line)["project"] for line in log_path.open()} if log_path.exists() else set()
    with instrument_pipeline(clock):
        for source in sources():
            total = chunk_count(index)
            if total >= target:
                break
            if source.project in done:
                continue
            before = dict(clock.seconds)
            started = time.perf_counter()
            catalog = Catalog(index, "default", embedder)
            try:
                with catalog.writer() as writer:  # one published generation per project, as `trident index` does
                    chunks = index_source(writer, source)
            finally:
                catalog.close()
            record = {
                "project": source.project,
                "path": str(source.path),
                "chunks": chunks,
                "seconds": round(time.perf_counter() - started, 2),
                "stages": {k: round(v - before.get(k, 0.0), 3) for k, v in clock.seconds.items()},
                "embedded": embedder.embedded,
                "total_chunks": chunk_count(index),
                "peak_rss_mb": round(peak_rss_mb()),
                "model": settings.model,
            }
            with log_path.open("a") as out:
                out.write(json.dumps(record) + "\n")
            print(json.dumps(record), flush=True)
    print(f"index at {index}: {chunk_count(index)} chunks", flush=True)


def reindex(copy: Path | None = None) -> None:
    """Index every project of the big index again with nothing changed: the no-change re-index figure. A run
    that finds something to do writes, so `copy` (a copy of the big index's folder) keeps the cached one as built."""
    settings = ModelSettings()
    index = copy or index_dir("100k", settings.model)
    clock = StageClock()
    embedder = CachedEmbedder(
        open_embedder(settings), bench_home() / f"vectors-{model_slug(settings.model)}.sqlite", clock
    )
    log_path = index / "bench-build.jsonl"
    done = [json.loads(line)["project"] for line in log_path.open()]
    by_project = {s.project: s for s in sources()}
    opened = time.perf_counter()
    catalog = Catalog(index, "default", embedder)
    started = time.perf_counter()
    with instrument_pipeline(clock), catalog.writer() as writer:
        for project in done:
            index_source(writer, by_project[project])
    seconds = time.perf_counter() - started
    catalog.close()
    record = {
        "index": str(index),
        "chunks": chunk_count(index),
        "projects": len(done),
        "seconds": round(seconds, 2),
        "open_seconds": round(started - opened, 2),
        "unstaged_seconds": round(seconds - sum(clock.seconds.values()), 2),
        "embedded": embedder.embedded,
        "stages": {k: round(v, 3) for k, v in sorted(clock.seconds.items(), key=lambda kv: -kv[1])},
        "peak_rss_mb": round(peak_rss_mb()),
    }
    out = bench_home() / "results" / "reindex-100k.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(record, indent=2) + "\n")
    print(json.dumps(record), flush=True)


def _sampled(doc_id: str, fraction: float) -> bool:
    return int(hashlib.sha1(doc_id.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF < fraction


def materialise_subset(size: int, model: str) -> list[Source]:
    """Copy a hash-sampled share of the big index's documents into folders (and BEIR files) for a smaller index."""
    big = index_dir("100k", model)
    manifest = Manifest.load(big)
    total = chunk_count(big)
    fraction = size / total
    root = bench_home() / f"corpus-{size // 1000}k"
    if root.exists():
        shutil.rmtree(root)
    by_project = {s.project: s for s in sources()}
    picked: dict[str, list[str]] = {}
    for doc_id, entry in manifest.documents.items():
        if _sampled(doc_id, fraction):
            picked.setdefault(entry.project, []).append(entry.path)
    made: list[Source] = []
    for project, paths in sorted(picked.items()):
        source = by_project[project]
        dest = root / project
        dest.mkdir(parents=True)
        if source.beir:
            wanted = set(paths)
            with (source.path / "corpus.jsonl").open() as lines, (dest / "corpus.jsonl").open("w") as out:
                for line in lines:
                    if json.loads(line)["_id"] in wanted:
                        out.write(line)
        else:
            for rel in paths:
                (dest / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source.path / rel, dest / rel)
        made.append(Source(project, dest))
    return made


def subsets() -> None:
    settings = ModelSettings()
    embedder = CachedEmbedder(open_embedder(settings), bench_home() / f"vectors-{model_slug(settings.model)}.sqlite")
    for size in SUBSET_SIZES:
        index = index_dir(f"{size // 1000}k", settings.model)
        if index.exists():
            shutil.rmtree(index)
        catalog = Catalog(index, "default", embedder)
        started = time.perf_counter()
        with catalog.writer() as writer:
            for source in materialise_subset(size, settings.model):
                index_source(writer, source)
        catalog.close()
        print(
            f"{size}: {chunk_count(index)} chunks in {time.perf_counter() - started:.0f}s "
            f"({embedder.embedded} embedded, {embedder.reused} reused)",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=("build", "reindex", "subsets"))
    parser.add_argument("--target", type=int, default=100_000)
    parser.add_argument("--index", type=Path, help="reindex: a copy of the big index to run on instead of it")
    args = parser.parse_args()
    if args.command == "build":
        build(args.target)
    elif args.command == "reindex":
        reindex(args.index)
    else:
        subsets()


if __name__ == "__main__":
    main()
