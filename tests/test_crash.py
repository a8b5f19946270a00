"""Crash consistency: an indexer killed with SIGKILL anywhere leaves an index that the next run completes to exactly
what an uninterrupted run builds, and nothing published before the crash is lost.

A child process indexes the three sample projects (one writer block per project, like three `trident index`
runs) and is killed at one named crash point (store/crashpoints.py). The test then checks what a reader sees
right after the crash (exactly the state after some number of whole projects), completes the indexing, and
compares every engine with a reference index built without crashes: chunk ids in Tantivy, LanceDB and Kùzu,
entities and relations in Kùzu, the documents in the manifest, the entity and relation vectors and the community
reports. Finally the tools answer on the repaired index as on the reference.

Vectors come from the real model, memoised by text (the reference run fills the memo) so that two dozen child
processes need not each load the model and embed the corpus again.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.conftest import EXAMPLES, SAMPLE_PROJECTS
from trident.ingest.community_reports import open_communities
from trident.ingest.graph_vector_sync import open_graph_vectors
from trident.ingest.pipeline import index_folder
from trident.retrieval.reader import Reader
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.search_engine import GenerationViews, search
from trident.store.catalog import Catalog
from trident.store.crashpoints import CRASH_AT, CRASH_TRACE
from trident.store.mapped import current_rows
from trident.store.mapped.community_rows import COMMUNITY_ROWS_DIR
from trident.store.mapped.graph_vector_rows import GRAPH_VECTOR_ROWS_DIR
from trident.store.protocols import Embedder
from trident.tools import explain, trace

REPO = Path(__file__).resolve().parent.parent
TENANT = "default"

# The child: index the given projects one writer block each, with memoised vectors that pass a crash point.
CHILD = """
import os
import sys
from pathlib import Path
import numpy as np
from trident.ingest.pipeline import index_folder
from trident.store.catalog import Catalog
from trident.store.crashpoints import CRASH_TRACE
from tests.test_crash import PROJECT_END, MemoEmbedder

index_dir, memo, *folders = sys.argv[1:]
embedder = MemoEmbedder.load(Path(memo))
for number, folder in enumerate(folders, start=1):
    catalog = Catalog(Path(index_dir), "default", embedder)
    with catalog.writer() as writer:
        index_folder(writer, Path(folder), Path(folder).name, max_file_bytes=1_000_000)
    catalog.close()
    if os.environ.get(CRASH_TRACE):
        with open(os.environ[CRASH_TRACE], "a", encoding="utf-8") as trace:
            trace.write(f"{PROJECT_END}:{number}\\n")
"""
# Written to the trace by the child after each project (not a crash point): which passes belong to which project.
PROJECT_END = "project.end"


def committed_projects(trace: Sequence[tuple[str, int]], point: str, nth: int) -> int:
    """Projects whose run was published when the child dies at this pass: every project ended before it, plus
    the one under way if its manifest was already replaced. (A project with nothing to change publishes nothing;
    it still counts as done once it ended.)"""
    at = trace.index((point, nth))
    ends = [i for i, (name, _) in enumerate(trace[:at]) if name == PROJECT_END]
    current = trace[(ends[-1] + 1 if ends else 0) : at + 1]
    return len(ends) + (1 if any(name == "publish.saved" for name, _ in current) else 0)


class MemoEmbedder:
    """The real model's vectors, memoised by text; passes the crash point `embed` before every batch."""

    def __init__(self, model_name: str, dim: int, memo: dict[str, np.ndarray], real: Embedder | None) -> None:
        self.model_name = model_name
        self.dim = dim
        self._memo = memo
        self._real = real

    @staticmethod
    def key(text: str) -> str:
        return hashlib.sha256(text.encode()).hexdigest()

    @classmethod
    def load(cls, path: Path) -> MemoEmbedder:
        data = np.load(path)
        name, dim = json.loads(str(data["__model__"]))
        return cls(name, dim, {k: data[k] for k in data.files if k != "__model__"}, None)

    def save(self, path: Path) -> None:
        np.savez(path, __model__=np.array(json.dumps([self.model_name, self.dim])), **self._memo)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        from trident.store.crashpoints import crash_point

        crash_point("embed")
        missing = [t for t in dict.fromkeys(texts) if self.key(t) not in self._memo]
        if missing:
            if self._real is None:  # not in the memo (an order of events the reference never saw): the model
                from trident.embedding.embedder import open_embedder
                from trident.embedding.model_settings import ModelSettings

                self._real = open_embedder(ModelSettings())
            for text, vector in zip(missing, self._real.embed(missing), strict=True):
                self._memo[self.key(text)] = vector
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self._memo[self.key(t)] for t in texts]).astype(np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed([text])[0]


@dataclass(frozen=True)
class Snapshot:
    """What an index holds, engine by engine."""

    lexical: frozenset[str]
    semantic: frozenset[str]
    graph_chunks: frozenset[str]
    entities: tuple[str, ...]
    relations: tuple[str, ...]
    documents: tuple[tuple[str, str, tuple[str, ...]], ...]
    graph_vectors: frozenset[str]
    communities: frozenset[str]

    def engines_agree(self) -> bool:
        manifest_chunks = {c for _, _, chunks in self.documents for c in chunks}
        return self.lexical == self.semantic == self.graph_chunks == manifest_chunks

    def committed(self) -> tuple[Any, ...]:
        """What a generation publishes atomically (entity and relation vectors and community reports are synced
        after the graph and completed by the next run, so they are compared after it)."""
        return (self.lexical, self.semantic, self.graph_chunks, self.entities, self.relations, self.documents)


def snapshot(index_dir: Path, embedder: Embedder) -> Snapshot:
    catalog = Catalog.open_reader(index_dir, TENANT, embedder)
    try:
        return Snapshot(
            lexical=frozenset(catalog.text.ids(TENANT)),
            semantic=frozenset(catalog.vectors.ids(TENANT)),
            graph_chunks=frozenset(catalog.graph.chunk_ids(TENANT)),
            entities=tuple(json.dumps(e.model_dump(mode="json"), sort_keys=True) for e in catalog.entities()),
            relations=tuple(
                sorted(json.dumps(r.model_dump(mode="json"), sort_keys=True) for r in catalog.graph.relations(TENANT))
            ),
            documents=tuple(
                sorted((doc, e.content_hash, tuple(e.chunk_ids)) for doc, e in catalog.manifest.documents.items())
            ),
            graph_vectors=frozenset(open_graph_vectors(catalog).keys(TENANT)),
            communities=frozenset(open_communities(catalog).keys(TENANT)),
        )
    finally:
        catalog.close()


def index_projects(index_dir: Path, embedder: Embedder, folders: Sequence[Path]) -> None:
    for folder in folders:
        catalog = Catalog(index_dir, TENANT, embedder)
        with catalog.writer() as writer:
            index_folder(writer, folder, folder.name, max_file_bytes=1_000_000)
        catalog.close()


def tool_answers(index_dir: Path, embedder: Embedder) -> dict[str, Any]:
    """What the retrieval tools answer; every one must work on a repaired index."""
    catalog = Catalog.open_reader(index_dir, TENANT, embedder)
    try:
        views = GenerationViews(RetrievalSettings())
        hits = search(catalog, "how does checkout charge the payment gateway", top_k=5, views=views).hits
        reader = Reader(catalog, views)
        traced = trace.trace_relationships(reader, "OrderService.checkout", direction=trace.Direction.OUT)
        path = explain.explain_path(reader, "OrderService", "PaymentGateway")
        return {
            "search": [h.id for h in hits],
            "trace": sorted(n.id for n in traced.nodes),
            "explain": [p.sentence for p in path.paths],
        }
    finally:
        catalog.close()


# --- the reference run, the crash runs ---


@dataclass(frozen=True)
class Reference:
    index_dir: Path
    memo: Path
    stages: list[Snapshot]  # after 0, 1, 2 and 3 projects
    trace: list[tuple[str, int]]  # the crash points a whole run passes, in order, with their pass number
    answers: dict[str, Any]

    def passes(self, point: str) -> int:
        return max(n for name, n in self.trace if name == point)

    def committed_at(self, point: str, nth: int) -> int:
        return committed_projects(self.trace, point, nth)


@dataclass(frozen=True)
class Crash:
    point: str
    nth: int
    run: Future[int]  # the child's return code
    index_dir: Path

    @property
    def returncode(self) -> int:
        return self.run.result()


CRASHES: list[tuple[str, float]] = [
    # (crash point, where among its passes: 0 = first, 1 = last), spread over every stage and engine
    ("setup.created", 0),  # creating the first, empty generation
    ("embed", 0),  # embedding the first project's chunks, before any write
    ("write.embedded", 1),
    ("session.begin", 0),
    ("generation.graph_copied", 0.5),  # a new generation's graph copied, its lexical files not yet linked
    ("session.copied", 1),
    ("lexical.commit", 0.5),  # Tantivy
    ("write.deleted", 0.5),
    ("write.lexical", 0),
    ("semantic.add", 0.5),  # LanceDB, between delete and add
    ("write.semantic", 1),
    ("graph.batch", 0),  # Kùzu, between batches of one upsert
    ("graph.batch", 1),
    ("write.graph", 0.5),
    ("relations.graph", 0.5),  # deferred and shared-name relations
    ("embed", 0.5),  # the second project's entity and relation vectors (3 embeddings a project: chunks,
    ("embed", 0.625),  # graph vectors, community reports), then its community reports
    ("sync.graph_vector_rows", 0.5),  # the entity and relation vectors' files under their draft name
    ("sync.community_rows", 0.5),  # the community reports' files under their draft name
    ("publish.begin", 0),
    ("publish.graph_closed", 0.5),
    ("publish.chunk_matrix", 0.5),  # the chunk files written under their draft name, not yet renamed
    ("publish.ready", 0.5),  # everything written, the manifest not yet replaced
    ("publish.saved", 0),  # the manifest replaced: the first project is committed
    ("publish.saved", 1),
    ("generation.removing", 0.5),  # removing an old generation folder half-way
]


def _nth(reference: Reference, point: str, where: float) -> int:
    return 1 + round(where * (reference.passes(point) - 1))


def _child(index_dir: Path, memo: Path, env: dict[str, str]) -> int:
    folders = [str(EXAMPLES / p) for p in SAMPLE_PROJECTS]
    result = subprocess.run(
        [sys.executable, "-c", CHILD, str(index_dir), str(memo), *folders],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO), **env},
        capture_output=True,
        text=True,
        timeout=300,
    )
    if result.returncode not in (0, -signal.SIGKILL):
        raise AssertionError(result.stderr[-3000:])
    return result.returncode


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory, embedder: Embedder) -> Reference:
    root = tmp_path_factory.mktemp("crash-reference")
    memo = MemoEmbedder(embedder.model_name, embedder.dim, {}, embedder)
    index_dir = root / "index"
    stages = [snapshot_empty()]
    for project in SAMPLE_PROJECTS:
        index_projects(index_dir, memo, [EXAMPLES / project])
        stages.append(snapshot(index_dir, memo))
    answers = tool_answers(index_dir, memo)
    memo_path = root / "memo.npz"
    memo.save(memo_path)
    trace_file = root / "trace.txt"
    _child(root / "traced", memo_path, {CRASH_TRACE: str(trace_file)})
    passes = [(name, int(n)) for name, _, n in (line.rpartition(":") for line in trace_file.read_text().split())]
    assert snapshot(root / "traced", memo) == stages[-1], "the child builds what the reference built"
    return Reference(index_dir, memo_path, stages, passes, answers)


def snapshot_empty() -> Snapshot:
    empty: frozenset[str] = frozenset()
    return Snapshot(empty, empty, empty, (), (), (), empty, empty)


@pytest.fixture(scope="module")
def crashes(reference: Reference, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Crash]]:
    """Every crash run, two at a time in the background (a child spends most of its time importing), while the
    tests below check and repair the ones that have finished.

    The children are started from two helper processes spawned now, not from this process: a child forked from
    here while a test indexes holds a copy of its open reader locks until it execs, and a writer finds the
    generation it would remove still read."""
    root = tmp_path_factory.mktemp("crashes")
    with ProcessPoolExecutor(max_workers=2, mp_context=multiprocessing.get_context("spawn")) as pool:
        runs: dict[str, Crash] = {}
        for point, where in CRASHES:
            nth = _nth(reference, point, where)
            index_dir = root / f"{point}-{nth}"
            returncode = pool.submit(_child, index_dir, reference.memo, {CRASH_AT: f"{point}:{nth}"})
            runs[f"{point}:{where}"] = Crash(point, nth, returncode, index_dir)
        yield runs


def test_every_stage_and_engine_has_crash_points(reference: Reference) -> None:
    named = {point for point, _ in CRASHES}
    passed = {name for name, _ in reference.trace if name != PROJECT_END}
    assert named == passed, f"points never crashed at: {passed - named}"
    assert len({(p, _nth(reference, p, w)) for p, w in CRASHES}) >= 20


@pytest.mark.parametrize(("point", "where"), CRASHES, ids=[f"{p}@{w}" for p, w in CRASHES])
def test_an_index_killed_mid_run_is_whole_and_the_next_run_completes_it_exactly(
    point: str, where: float, reference: Reference, crashes: dict[str, Crash]
) -> None:
    crash = crashes[f"{point}:{where}"]
    assert crash.returncode == -signal.SIGKILL, f"the child never reached {point}:{crash.nth}"
    memo = MemoEmbedder.load(reference.memo)

    after_crash = snapshot(crash.index_dir, memo)
    assert after_crash.engines_agree(), "right after the crash the three engines hold the same chunks"
    committed = reference.committed_at(point, crash.nth)
    assert after_crash.committed() == reference.stages[committed].committed(), (
        f"a reader sees exactly the {committed} projects published before the crash, no more, no less"
    )

    index_projects(crash.index_dir, memo, [EXAMPLES / p for p in SAMPLE_PROJECTS])  # the restart
    assert snapshot(crash.index_dir, memo) == reference.stages[-1], "the same index as a clean run builds"
    assert tool_answers(crash.index_dir, memo) == reference.answers, "the tools answer as on the clean index"
    generations = sorted(p.name for p in (crash.index_dir / "generations").iterdir())
    assert len(generations) == 1, f"unpublished or unused generations left behind: {generations}"
    for rows_dir in (GRAPH_VECTOR_ROWS_DIR, COMMUNITY_ROWS_DIR):  # the readers' files of the vector tables
        folders = sorted(p.name for p in (crash.index_dir / rows_dir).iterdir() if p.is_dir())
        assert len(folders) == 1, f"drafts or old versions of the {rows_dir} files left behind: {folders}"
        named = current_rows.current(crash.index_dir / rows_dir, TENANT)
        assert folders[0].endswith(f"-{named}"), f"the {rows_dir} version the last sync named is the one left"
    shutil.rmtree(crash.index_dir)


def test_a_crash_during_the_run_that_repairs_an_earlier_crash_is_repaired_too(
    reference: Reference, tmp_path: Path
) -> None:
    index_dir = tmp_path / "index"
    first = _child(index_dir, reference.memo, {CRASH_AT: f"publish.ready:{reference.passes('publish.ready') - 1}"})
    second = _child(index_dir, reference.memo, {CRASH_AT: "session.copied:1"})  # the restart dies too
    assert first == second == -signal.SIGKILL
    memo = MemoEmbedder.load(reference.memo)
    after = snapshot(index_dir, memo)
    assert after.engines_agree() and after.committed() in [stage.committed() for stage in reference.stages]
    index_projects(index_dir, memo, [EXAMPLES / p for p in SAMPLE_PROJECTS])
    assert snapshot(index_dir, memo) == reference.stages[-1]
