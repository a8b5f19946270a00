"""A large index run publishes its lexical and graph engines before it embeds, then its vectors as they come: a
first index of a large folder answers within seconds, searches say how far the dense path reaches, and a run cut
short leaves a readable index whose next run embeds what is left."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import HashEmbedder
from tests.test_chunk_rows import assert_rows_are_the_graphs
from trident.ingest import pipeline
from trident.ingest.pipeline import IndexReport, index_folder
from trident.ingest.vector_fill import Publishing
from trident.retrieval.reader import Reader
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.search_engine import GenerationViews, search
from trident.store.catalog import Catalog
from trident.store.crashpoints import CRASH_AT
from trident.store.sync_state import FILLING, stale_stores
from trident.tools.search import search as tool_search
from trident.tools.similar import find_similar
from trident.tools.status import status

REPO = Path(__file__).resolve().parent.parent
FILES = 24
EVERY_PUBLICATION = Publishing(progressive_chunks=10, every_seconds=0.0)


def write_notes(folder: Path) -> Path:
    """Notes with a word of their own each (`quillNN`), linked in a chain, two sections a note."""
    folder.mkdir(parents=True)
    for n in range(FILES):
        following = f"See [the next note](note{n + 1:02d}.md)." if n + 1 < FILES else "The last note."
        (folder / f"note{n:02d}.md").write_text(
            f"# Note {n}\n\nThe quill{n:02d} procedure keeps ledger {n} balanced. {following}\n\n"
            f"## Details {n}\n\nLedger {n} closes nightly after the quill{n:02d} check.\n",
            encoding="utf-8",
        )
    return folder


@dataclass
class Seen:
    """What a reader of the index saw at one publication made before the run ended."""

    waiting: int
    manifest_waiting: int
    lexical_found_last_note: bool
    semantic_chunks: int
    partial: dict[str, str] | None
    message: str | None  # the search tool's, of the dense search
    similar_message: str | None  # find_similar's
    consistent: bool
    status_waiting: int | None


@dataclass
class Observer:
    """The run's progress: at each early publication, searches the index the way a reader would."""

    catalog: Catalog
    views: GenerationViews
    fail_after_fill_batches: int | None = None
    seen: list[Seen] = field(default_factory=list)
    stages: list[str] = field(default_factory=list)
    _filled: int = 0

    def stage(self, name: str, total: int) -> None:
        self.stages.append(name)

    def advance(self, n: int = 1) -> None:
        if self.stages[-1] != "embedding" or not self.seen:
            return
        self._filled += 1
        if self.fail_after_fill_batches is not None and self._filled >= self.fail_after_fill_batches:
            raise KeyboardInterrupt("the run is stopped while it embeds")

    def published(self, chunks_waiting: int) -> None:
        lexical = search(self.catalog, f"quill{FILES - 1:02d}", views=self.views, strategy="lexical", top_k=3)
        dense = tool_search(Reader(self.catalog, self.views), "ledger procedure", strategy="semantic", top_k=3)
        report = status(Reader.open(self.catalog))
        similar = find_similar(Reader(self.catalog, self.views), text="ledger procedure", top_k=3)
        last_note = f"notes/note{FILES - 1:02d}.md"
        self.seen.append(
            Seen(
                waiting=chunks_waiting,
                manifest_waiting=self.catalog.manifest.pending_chunks(),
                lexical_found_last_note=any(h.citation.startswith(last_note) for h in lexical.hits),
                semantic_chunks=self.catalog.vectors.count(self.catalog.tenant),
                partial=dense.diagnostics.partial_paths,
                message=dense.message,
                similar_message=similar.message,
                consistent=report.consistent,
                status_waiting=report.engines["semantic"].get("waiting"),
            )
        )


@pytest.fixture
def small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Write (and so embed) a few notes a batch, so a small folder fills in over several publications."""
    monkeypatch.setattr(pipeline, "WRITE_BATCH_CHUNKS", 10)


@pytest.fixture
def notes_catalog(tmp_path: Path) -> Iterator[Catalog]:
    catalog = Catalog(tmp_path / "index", "default", HashEmbedder())
    yield catalog
    catalog.close()


def index_notes(catalog: Catalog, folder: Path, progress: Observer | None, publishing: Publishing) -> IndexReport:
    with catalog.writer() as writer:
        return index_folder(writer, folder, "notes", max_file_bytes=1_000_000, progress=progress, publishing=publishing)


def test_a_large_run_answers_lexical_and_graph_questions_before_its_vectors_are_embedded(
    tmp_path: Path, notes_catalog: Catalog, small_batches: None
) -> None:
    observer = Observer(notes_catalog, GenerationViews(RetrievalSettings()))
    report = index_notes(notes_catalog, write_notes(tmp_path / "notes"), observer, EVERY_PUBLICATION)

    first = observer.seen[0]
    assert observer.stages[:3] == ["parsing", "writing", "linking"] and "embedding" in observer.stages
    assert first.waiting == first.manifest_waiting == first.status_waiting == report.chunks
    assert first.lexical_found_last_note, "every note answers lexical search before any is embedded"
    assert first.semantic_chunks == 0 and first.consistent
    assert first.partial is not None and f"0 of {report.chunks} chunks embedded" in first.partial["semantic"]
    assert first.message is not None and "partial answer: the semantic path answered from" in first.message
    assert f"0 of {report.chunks} chunks embedded" in first.message
    assert first.similar_message is not None
    assert f"{report.chunks:,} chunks wait for their vectors" in first.similar_message
    waiting = [s.waiting for s in observer.seen]
    assert len(waiting) >= 3 and waiting == sorted(waiting, reverse=True) and waiting[-1] > 0
    assert all(s.semantic_chunks + s.waiting == report.chunks and s.consistent for s in observer.seen)

    assert notes_catalog.manifest.vectors_pending == []
    assert notes_catalog.vectors.count(notes_catalog.tenant) == report.chunks
    done = status(Reader.open(notes_catalog))
    assert done.consistent and "waiting" not in done.engines["semantic"]
    assert stale_stores(notes_catalog) == {}, "the graph vectors and communities are synced after the fill"
    dense = search(notes_catalog, "ledger procedure", views=GenerationViews(RetrievalSettings()), strategy="semantic")
    assert dense.diagnostics.partial_paths is None and dense.hits
    assert_rows_are_the_graphs(notes_catalog)  # rows written before their vectors, then replaced as they came


def test_filled_vectors_are_the_ones_an_ordinary_run_writes(tmp_path: Path, small_batches: None) -> None:
    folder = write_notes(tmp_path / "notes")
    vectors: list[dict[str, np.ndarray]] = []
    for name, publishing in (("progressive", EVERY_PUBLICATION), ("ordinary", Publishing(progressive_chunks=10**6))):
        catalog = Catalog(tmp_path / name, "default", HashEmbedder())
        try:
            index_notes(catalog, folder, None, publishing)
            ids = [c for entry in catalog.manifest.documents.values() for c in entry.chunk_ids]
            vectors.append(catalog.vectors.vectors(ids))
        finally:
            catalog.close()
    progressive, ordinary = vectors
    assert progressive.keys() == ordinary.keys() and len(ordinary) > FILES
    assert all(np.array_equal(progressive[i], ordinary[i]) for i in ordinary)


def test_a_run_cut_short_while_embedding_stays_searchable_and_the_next_run_embeds_the_rest(
    tmp_path: Path, notes_catalog: Catalog, small_batches: None
) -> None:
    folder = write_notes(tmp_path / "notes")
    observer = Observer(notes_catalog, GenerationViews(RetrievalSettings()), fail_after_fill_batches=2)
    with pytest.raises(KeyboardInterrupt):
        index_notes(notes_catalog, folder, observer, EVERY_PUBLICATION)

    reader = Catalog.open_reader(notes_catalog.index_dir, "default", HashEmbedder())
    try:
        waiting = reader.manifest.pending_chunks()
        assert waiting > 0 and status(Reader.open(reader)).consistent
        assert stale_stores(reader) == {"graph_vectors": FILLING, "communities": FILLING}
        views = GenerationViews(RetrievalSettings())
        lexical = search(reader, f"quill{FILES - 1:02d}", views=views, strategy="lexical", top_k=3)
        assert lexical.hits and lexical.hits[0].citation.startswith(f"notes/note{FILES - 1:02d}.md")
    finally:
        reader.close()

    again = index_notes(notes_catalog, folder, None, Publishing())  # nothing changed on disk
    assert again.indexed == 0
    assert notes_catalog.manifest.vectors_pending == []
    total = notes_catalog.manifest.chunk_count()
    assert notes_catalog.vectors.count(notes_catalog.tenant) == total and status(Reader.open(notes_catalog)).consistent
    assert stale_stores(notes_catalog) == {}


def test_a_run_below_the_threshold_embeds_as_it_writes_and_publishes_once(
    tmp_path: Path, notes_catalog: Catalog
) -> None:
    observer = Observer(notes_catalog, GenerationViews(RetrievalSettings()))
    report = index_notes(notes_catalog, write_notes(tmp_path / "notes"), observer, Publishing(progressive_chunks=1000))
    assert 0 < report.chunks < 1000
    assert observer.seen == [] and "writing" not in observer.stages and "embedding" in observer.stages
    assert notes_catalog.vectors.count(notes_catalog.tenant) == report.chunks


# A child indexing the notes progressively, a few a batch; killed by a crash point while it fills in vectors.
CHILD = """
import sys
from pathlib import Path
from trident.embedding.hash_embedder import HashEmbedder
from trident.ingest import pipeline
from trident.ingest.vector_fill import Publishing
from trident.store.catalog import Catalog
from trident.store.crashpoints import CRASH_AT

pipeline.WRITE_BATCH_CHUNKS = 10
catalog = Catalog(Path(sys.argv[1]), "default", HashEmbedder())
with catalog.writer() as writer:
    publishing = Publishing(progressive_chunks=10, every_seconds=0.0)
    pipeline.index_folder(writer, Path(sys.argv[2]), "notes", max_file_bytes=1_000_000, publishing=publishing)
"""


def engines(index_dir: Path) -> tuple[object, ...]:
    catalog = Catalog.open_reader(index_dir, "default", HashEmbedder())
    try:
        ids = sorted(catalog.text.ids("default"))
        vectors = catalog.vectors.vectors(ids)
        return (
            ids,
            sorted(catalog.graph.chunk_ids("default")),
            sorted(vectors),
            [vectors[i].tobytes() for i in sorted(vectors)],
            sorted(e.id for e in catalog.entities()),
            catalog.manifest.vectors_pending,
        )
    finally:
        catalog.close()


def test_an_indexer_killed_while_filling_in_vectors_leaves_what_it_published_and_the_next_run_completes_it(
    tmp_path: Path, small_batches: None
) -> None:
    folder = write_notes(tmp_path / "notes")
    killed = subprocess.run(
        [sys.executable, "-c", CHILD, str(tmp_path / "killed"), str(folder)],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO), CRASH_AT: "fill.semantic:3"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert killed.returncode == -signal.SIGKILL, killed.stderr[-3000:]

    reader = Catalog.open_reader(tmp_path / "killed", "default", HashEmbedder())
    try:
        total = reader.manifest.chunk_count()
        # published: the lexical and graph engines, then two fill batches of 10; the third died unpublished
        assert reader.vectors.count("default") == 20 and reader.manifest.pending_chunks() == total - 20
        assert status(Reader.open(reader)).consistent
    finally:
        reader.close()

    for name in ("killed", "reference"):
        catalog = Catalog(tmp_path / name, "default", HashEmbedder())
        try:
            index_notes(catalog, folder, None, EVERY_PUBLICATION)
        finally:
            catalog.close()
    repaired, reference = engines(tmp_path / "killed"), engines(tmp_path / "reference")
    assert repaired == reference and reference[-1] == []
