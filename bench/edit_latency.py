"""Edit to searchable: how long after a one-file edit the new content is found by every path.

A copy of the folder is indexed once; then, EDITS times, one Python file gets a new function with a unique name and
docstring, the watcher's re-index runs (`ingest.watch.catalog_reindexer`, one writer block, as `trident watch`
does on a change) in a thread of its own, as in a server, beside a server's warm-up thread (which builds the views of
each generation published; the run waits for it before its syncs, as a server's watcher does, unless
`--no-readers-first`), while the main thread searches every 100 ms; the clock stops when a lexical search, a
semantic search and the entity directory each find the new function (a watched run publishes before it syncs the
graph vectors and communities, so that is before the run ends). Prints p50 / p95 of
when the searching thread first saw the new generation published, of the whole (edit written -> all three find it)
and of the re-index run, and the time of a re-index that finds nothing changed. Nothing here runs in the test suite.

With `--base INDEX` the folder is added as one more project to a copy of that index (e.g. a bench index from
bench/corpus.py, with the same TRIDENT_MODEL), so each edit pays what an index of that size costs a write.

Usage:
    python bench/edit_latency.py [FOLDER] [--edits 20] [--base INDEX] [--no-readers-first]   (default: examples/billing)
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import threading
import time
from pathlib import Path

from trident.embedding.embedder import open_embedder
from trident.embedding.model_settings import ModelSettings
from trident.ingest.ingest_settings import IngestSettings
from trident.ingest.watch import Reindex, WatchedFolder, catalog_reindexer
from trident.retrieval.reader import Reader
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.views import GenerationViews
from trident.server.context import _keep_warm
from trident.server.warmed import WarmedGenerations
from trident.store.catalog import Catalog
from trident.tools.search import search

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
DEADLINE_SECONDS = 300
WORDS = ["amber", "basalt", "cobalt", "dune", "ember", "fjord", "garnet", "harbor", "indigo", "juniper"]


def marker(n: int) -> str:
    """A name no corpus has, different on every edit."""
    return f"zq_{WORDS[n % len(WORDS)]}_{WORDS[(n // len(WORDS)) % len(WORDS)]}_{n}"


def found_everywhere(catalog: Catalog, views: GenerationViews, name: str) -> bool:
    text = f"{name} reconciles the {name.split('_')[1]} ledger"
    lexical = search(Reader(catalog, views), name, top_k=5, strategy="lexical").hits
    semantic = search(Reader(catalog, views), text, top_k=5, strategy="semantic").hits
    named = views.directory(catalog).named(name)
    found = [any(name in h.snippet or name in h.entities for h in hits) for hits in (lexical, semantic)]
    return all(found) and bool(named)


def timed_run(reindex: Reindex, folder: WatchedFolder, started: float, ended: list[float]) -> None:
    """The watcher's re-index, and when it ended (seconds after `started`)."""
    reindex(folder)
    ended.append(time.perf_counter() - started)


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path, nargs="?", default=EXAMPLES / "billing")
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--base", type=Path, help="an index folder to copy and add the folder to")
    parser.add_argument(
        "--no-readers-first", action="store_true", help="the run syncs at once after publishing (before 2026-11-27)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / args.folder.name
        shutil.copytree(args.folder, root)
        if args.base is not None:
            shutil.copytree(args.base, Path(tmp) / "index", ignore=shutil.ignore_patterns("write.lock"))
        target = sorted(root.rglob("*.py"))[0]
        catalog = Catalog(Path(tmp) / "index", "default", open_embedder(ModelSettings(vector_cache_mb=0)))
        views, stopping, warmed = GenerationViews(RetrievalSettings()), threading.Event(), WarmedGenerations()
        reindex = catalog_reindexer(catalog, IngestSettings(), None if args.no_readers_first else warmed.wait_for)
        folder = WatchedFolder(root, root.name)
        warming = threading.Thread(target=_keep_warm, args=(catalog, views, stopping, warmed), name="warm-up")
        warming.start()  # as a server's: each generation published is warmed up
        started = time.perf_counter()
        reindex(folder)
        warmed.wait_for(catalog.manifest.generation, timeout=DEADLINE_SECONDS)
        chunks = sum(len(entry.chunk_ids) for entry in catalog.manifest.documents.values())
        print(f"first index of {args.folder}: {time.perf_counter() - started:.1f} s; the index holds {chunks:,} chunks")
        whole, runs, published = [], [], []
        for n in range(args.edits):
            name = marker(n)
            started = time.perf_counter()
            body = f'\n\ndef {name}():\n    """{name} reconciles the {WORDS[n % 10]} ledger."""\n    return 0\n'
            with target.open("a", encoding="utf-8") as handle:
                handle.write(body)
            ended: list[float] = []
            generation = catalog.manifest.generation
            run = threading.Thread(target=timed_run, args=(reindex, folder, started, ended))
            run.start()
            seen_published: float | None = None
            while True:
                if seen_published is None and catalog.manifest.generation != generation:
                    seen_published = time.perf_counter() - started
                if found_everywhere(catalog, views, name):
                    break
                if time.perf_counter() - started > DEADLINE_SECONDS:
                    raise SystemExit(f"{name} not found by every path {DEADLINE_SECONDS} s after its edit")
                time.sleep(0.1)
            whole.append(time.perf_counter() - started)
            published.append(seen_published if seen_published is not None else whole[-1])
            run.join()
            runs.append(ended[0])
        started = time.perf_counter()
        reindex(folder)
        unchanged = time.perf_counter() - started
        stopping.set()
        warming.join()
        catalog.close()
    for label, samples in (
        ("edit -> published (seen by a reader)", published),
        ("edit -> found by all three paths", whole),
        ("re-index run alone", runs),
    ):
        print(f"{label:34s} p50 {statistics.median(samples):.2f} s  p95 {percentile(samples, 0.95):.2f} s")
        print(f"{'':34s} each: {' '.join(f'{sample:.2f}' for sample in samples)}")
    print(f"{'re-index with nothing changed':34s} {unchanged:.2f} s")


if __name__ == "__main__":
    main()
