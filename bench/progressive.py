"""Progressive availability (issue #15): how soon a first index of a large folder answers, and what publishing early
costs the run.

Usage: python bench/progressive.py [FOLDER ...]   (default: one project of json, http, email, concurrent, asyncio,
unittest and logging copied from this interpreter's standard library: a first index of one large folder)

Indexes the folders into fresh indexes with the same model (TRIDENT_MODEL's), alternating two kinds of run: as
`trident index` does (lexical and graph published first, then vectors every TRIDENT_PUBLISH_SECONDS), and with early
publication off (one publication at the end, as before); `--rounds` of each, the first kind changing each round.
A reader catalog searches the index at every publication: a lexical question, a graph walk and a dense question,
with what `diagnostics.partial_paths` says. Prints the timeline and one line per figure; nothing is timed inside
the test suite.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from trident.embedding.embedder import open_embedder
from trident.embedding.model_settings import ModelSettings
from trident.ingest.ingest_settings import IngestSettings
from trident.ingest.pipeline import index_folder
from trident.ingest.vector_fill import Publishing
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.search_engine import GenerationViews, search
from trident.store.catalog import Catalog
from trident.store.protocols import Embedder

sys.path.insert(0, str(Path(__file__).resolve().parent))
from instrument import stdlib_sample

STDLIB = ("json", "http", "email", "concurrent", "asyncio", "unittest", "logging")
QUESTIONS = {"lexical": "HTTPConnection request headers", "ppr": "what calls encode_basestring"}
DENSE = "parse an email message with attachments"


@dataclass
class Timeline:
    """The run's progress, timed from its start; at each publication a reader asks its questions."""

    index_dir: Path
    embedder: Embedder
    started: float = field(default_factory=time.perf_counter)
    events: list[str] = field(default_factory=list)
    first_answer_s: float | None = None
    publications: int = 0
    _stage: str = ""

    def _now(self) -> float:
        return time.perf_counter() - self.started

    def stage(self, name: str, total: int) -> None:
        if name != self._stage:
            self.events.append(f"{self._now():7.1f} s  stage {name} ({total})")
            self._stage = name

    def advance(self, n: int = 1) -> None:
        pass

    def published(self, chunks_waiting: int) -> None:
        self.publications += 1
        at = self._now()
        reader = Catalog.open_reader(self.index_dir, "default", self.embedder)
        try:
            views = GenerationViews(RetrievalSettings())
            found = {
                path: len(search(reader, q, views=views, strategy=path, top_k=5).hits) for path, q in QUESTIONS.items()
            }
            dense = search(reader, DENSE, views=views, strategy="semantic", top_k=5)
        finally:
            reader.close()
        if self.first_answer_s is None and all(found.values()):
            self.first_answer_s = self._now()
        partial = (dense.diagnostics.partial_paths or {}).get("semantic", "complete")
        self.events.append(
            f"{at:7.1f} s  published, {chunks_waiting} chunks waiting; hits {found}, dense {len(dense.hits)} "
            f"({partial}); answered by {self._now():.1f} s"
        )


def run(folders: list[Path], embedder: Embedder, publishing: Publishing, root: Path) -> tuple[float, Timeline, int]:
    index_dir = root / "index"
    catalog = Catalog(index_dir, "default", embedder)
    timeline = Timeline(index_dir, embedder)
    chunks = 0
    try:
        with catalog.writer() as writer:
            for folder in folders:
                chunks += index_folder(
                    writer,
                    folder,
                    folder.name,
                    max_file_bytes=1_000_000,
                    progress=timeline,
                    publishing=publishing,
                ).chunks
    finally:
        catalog.close()
    return time.perf_counter() - timeline.started, timeline, chunks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path)
    parser.add_argument("--rounds", type=int, default=2, help="runs of each kind, alternated (default 2)")
    args = parser.parse_args()
    settings = ModelSettings(vector_cache_mb=0)  # measures the model: no vectors read back
    embedder = open_embedder(settings)
    embedder.embed(["warm the model up", "before the first timed run"])
    early = Publishing.from_settings(IngestSettings())
    once = Publishing(progressive_chunks=10**9)
    ends: dict[str, list[float]] = {"progressive": [], "ordinary": []}
    firsts: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        folders = args.folders or [stdlib_sample(Path(tmp) / "stdlib-sample", STDLIB)]
        print(f"model {settings.model}, {len(folders)} folders, {early}, cpus {os.cpu_count()}, load {os.getloadavg()}")
        for round_ in range(args.rounds):
            for kind, publishing in (("progressive", early), ("ordinary", once))[:: 1 if round_ % 2 else -1]:
                seconds, timeline, chunks = run(folders, embedder, publishing, Path(tmp) / f"{kind}-{round_}")
                ends[kind].append(seconds)
                if kind == "progressive":
                    firsts.append(timeline.first_answer_s or float("nan"))
                    print("\n".join(timeline.events))
                print(f"round {round_ + 1}, {kind}: {seconds:.1f} s, {timeline.publications} early publications")
    ordinary, progressive = statistics.median(ends["ordinary"]), statistics.median(ends["progressive"])
    print(f"chunks:                                 {chunks}")
    print(f"one publication at the end (median):    {ordinary:.1f} s to the first answer and to the end")
    print(f"progressive, first answer (lex + walk): {statistics.median(firsts):.1f} s (median)")
    print(f"progressive, to the end (median):       {progressive:.1f} s")
    print(f"cost of publishing early:               {progressive / ordinary - 1:+.1%} of the run")
    print(f"load after:                             {os.getloadavg()}")


if __name__ == "__main__":
    main()
