"""Re-indexing what did not change writes nothing (no generation is published, nothing is embedded, the graph is
not even read), while a change, a sync cut short or a write by another writer is still carried through."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import SAMPLE_PROJECTS, HashEmbedder
from trident.ingest import pipeline, run_syncs
from trident.ingest.community_reports import open_communities
from trident.ingest.graph_vector_sync import graph_items, open_graph_vectors
from trident.ingest.pipeline import index_beir, index_folder
from trident.store.catalog import Catalog, DocumentWrite
from trident.store.engines.kuzu_graph import KuzuGraphStore
from trident.store.generations import GENERATIONS_DIR
from trident.store.manifest import manifest_identity, write_sync_stamp
from trident.store.schema import Chunk, Document, DocumentKind, Entity, EntityType, Relation
from trident.store.sync_state import syncs_current

GATEWAY = "billing/billing/gateway.py"


class CountingEmbedder(HashEmbedder):
    """The plumbing embedder, counting what it is asked to embed."""

    def __init__(self) -> None:
        self.calls: list[int] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(len(texts))
        return super().embed(texts)

    @property
    def texts(self) -> int:
        return sum(self.calls)


class GraphReads:
    """Counts whole-graph reads (every entity, every relation): what an unchanged run must not do."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        entities, relations = KuzuGraphStore.entities, KuzuGraphStore.relations

        def counted_entities(store: KuzuGraphStore, tenant: str) -> list[Entity]:
            self.count += 1
            return entities(store, tenant)

        def counted_relations(store: KuzuGraphStore, tenant: str) -> list[Relation]:
            self.count += 1
            return relations(store, tenant)

        monkeypatch.setattr(KuzuGraphStore, "entities", counted_entities)
        monkeypatch.setattr(KuzuGraphStore, "relations", counted_relations)


@pytest.fixture
def counting() -> CountingEmbedder:
    return CountingEmbedder()


@pytest.fixture
def catalog(tmp_path: Path, counting: CountingEmbedder) -> Iterator[Catalog]:
    cat = Catalog(tmp_path / "index", "default", counting)
    yield cat
    cat.close()


def _index(catalog: Catalog, root: Path, names: Sequence[str] = SAMPLE_PROJECTS) -> list[pipeline.IndexReport]:
    with catalog.writer() as writer:
        return [index_folder(writer, root / name, name, max_file_bytes=1_000_000) for name in names]


def _published(index_dir: Path) -> tuple[object, list[str]]:
    """The manifest file's identity (a publication replaces it) and the generation folders on disk."""
    return manifest_identity(index_dir), sorted(p.name for p in (index_dir / GENERATIONS_DIR).iterdir())


def _graph_vectors_match_the_graph(catalog: Catalog) -> bool:
    wanted = {i.key for i in graph_items(catalog.entities(), catalog.graph.relations("default"), "default")}
    return open_graph_vectors(catalog).keys("default") == wanted


def test_reindexing_an_unchanged_corpus_publishes_nothing_embeds_nothing_and_reads_no_graph(
    catalog: Catalog, projects: Path, counting: CountingEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    _index(catalog, projects)
    assert syncs_current(catalog)
    before, embedded = _published(catalog.index_dir), counting.texts
    reads = GraphReads(monkeypatch)

    reports = _index(catalog, projects)

    assert [r.indexed + r.deleted for r in reports] == [0, 0, 0]
    assert all(r.unchanged == r.files_seen > 0 for r in reports)
    assert _published(catalog.index_dir) == before
    assert counting.texts == embedded
    assert reads.count == 0


def test_a_later_run_opening_the_index_afresh_writes_nothing_either(
    catalog: Catalog, projects: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _index(catalog, projects)
    catalog.close()
    before = _published(catalog.index_dir)
    other = CountingEmbedder()
    reads = GraphReads(monkeypatch)
    again = Catalog(catalog.index_dir, "default", other)
    try:
        _index(again, projects)
    finally:
        again.close()
    assert _published(catalog.index_dir) == before
    assert other.calls == [] and reads.count == 0


def test_changing_one_file_embeds_only_its_chunks_and_keeps_the_syncs_in_step(
    catalog: Catalog, projects: Path, counting: CountingEmbedder
) -> None:
    _index(catalog, projects)
    chunks_before = {doc_id: e.chunk_ids for doc_id, e in catalog.manifest.documents.items()}
    gateway = projects / "billing" / "billing" / "gateway.py"
    gateway.write_text(gateway.read_text() + "\n\ndef audit_refund_ledger(entries):\n    return len(entries)\n")
    counting.calls.clear()

    billing, auth, storefront = _index(catalog, projects)

    assert (billing.indexed, auth.indexed, storefront.indexed) == (1, 0, 0)
    assert counting.calls[0] == billing.chunks == len(catalog.manifest.documents[GATEWAY].chunk_ids)
    changed = {d for d, e in catalog.manifest.documents.items() if e.chunk_ids != chunks_before.get(d)}
    assert changed == {GATEWAY}
    names = {e.name for e in catalog.entities()}
    assert "audit_refund_ledger" in names
    assert syncs_current(catalog) and _graph_vectors_match_the_graph(catalog)
    assert "session" in {e.name for e in catalog.entities() if e.type == EntityType.CONCEPT}


def test_a_cross_project_link_resolves_when_its_target_project_is_indexed_later(
    catalog: Catalog, projects: Path
) -> None:
    _index(catalog, projects, ["billing"])
    flow = catalog.manifest.documents["billing/docs/payment-flow.md"]
    assert any("token-design" in p.target for p in flow.unresolved)

    _index(catalog, projects, ["auth"])

    flow = catalog.manifest.documents["billing/docs/payment-flow.md"]
    assert not any("token-design" in p.target for p in flow.unresolved)
    links = [r for r in catalog.graph.relations("default") if r.type == "LINKS_TO"]
    assert any(r.project == "billing" and r.target.endswith("auth:docs/token-design.md") for r in links), links


def test_syncs_cut_short_after_the_writes_were_published_are_finished_by_the_next_unchanged_run(
    catalog: Catalog, projects: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def killed(*_: object, **__: object) -> None:
        raise KeyboardInterrupt("killed while syncing")

    with catalog.writer() as writer:  # the block goes on past the cut: its writes are published without the syncs
        for project in SAMPLE_PROJECTS[:-1]:
            index_folder(writer, projects / project, project, max_file_bytes=1_000_000)
        synced = open_communities(catalog).reports("default")
        monkeypatch.setattr(run_syncs, "sync_communities", killed)
        with pytest.raises(KeyboardInterrupt):
            index_folder(writer, projects / SAMPLE_PROJECTS[-1], SAMPLE_PROJECTS[-1], max_file_bytes=1_000_000)
    assert SAMPLE_PROJECTS[-1] in catalog.manifest.projects()
    catalog.close()
    monkeypatch.undo()
    assert open_communities(catalog).reports("default") == synced

    other = CountingEmbedder()
    again = Catalog(catalog.index_dir, "default", other)
    try:
        assert not syncs_current(again)
        before = _published(again.index_dir)
        reports = _index(again, projects)
        assert sum(r.indexed for r in reports) == 0
        assert _published(again.index_dir) == before  # nothing to link: the syncs alone wrote no generation
        assert open_communities(again).reports("default") != synced
        assert syncs_current(again) and _graph_vectors_match_the_graph(again)
        other.calls.clear()
        _index(again, projects)
        assert other.calls == [] and _published(again.index_dir) == before
    finally:
        again.close()


def test_a_reset_sync_state_makes_the_next_run_embed_exactly_what_is_missing(
    catalog: Catalog, projects: Path, counting: CountingEmbedder
) -> None:
    _index(catalog, projects)
    vectors = open_graph_vectors(catalog)
    lost = sorted(vectors.keys("default"))[:5]
    vectors.delete(lost, "default")
    write_sync_stamp(catalog.index_dir, "default", None)  # as a run killed half-way through its syncs leaves it
    counting.calls.clear()

    _index(catalog, projects)

    # At most the lost rows reach the model (a relation's row, or a row taken from its chunk, is rebuilt without it).
    assert sum(counting.calls) <= len(lost)
    assert _graph_vectors_match_the_graph(catalog) and syncs_current(catalog)


def test_a_write_by_another_writer_is_synced_by_the_next_run_even_if_no_file_changed(
    catalog: Catalog, projects: Path
) -> None:
    _index(catalog, projects)
    doc = Document(id="knowledge/note", project="knowledge", path="note", kind=DocumentKind.TEXT, content_hash="x")
    chunk = Chunk(
        id="note-1",
        doc_id=doc.id,
        project="knowledge",
        path="note",
        text="Ledgers",
        start_line=1,
        end_line=1,
        kind=DocumentKind.TEXT,
    )
    ledger = Entity(
        id="concept:knowledge:Ledger",
        name="Ledger",
        type=EntityType.CONCEPT,
        project="knowledge",
        description="where refunds are audited",
        chunk_id=chunk.id,
        doc_id=doc.id,
    )
    with catalog.writer() as writer:
        writer.write([DocumentWrite(doc, [chunk], [ledger])])
    assert not syncs_current(catalog)

    _index(catalog, projects)

    assert syncs_current(catalog) and _graph_vectors_match_the_graph(catalog)


def test_syncs_of_a_run_that_was_never_published_are_undone_by_the_next_run(catalog: Catalog, projects: Path) -> None:
    _index(catalog, projects)
    gateway = projects / "billing" / "billing" / "gateway.py"
    original = gateway.read_text()
    gateway.write_text(original + "\n\nclass RefundLedgerAuditor:\n    pass\n")
    with pytest.raises(RuntimeError), catalog.writer() as writer:  # the run dies before its session publishes
        index_folder(writer, projects / "billing", "billing", max_file_bytes=1_000_000)
        raise RuntimeError("killed before publishing")
    gateway.write_text(original)
    assert not syncs_current(catalog) and not _graph_vectors_match_the_graph(catalog)

    _index(catalog, projects)

    assert syncs_current(catalog) and _graph_vectors_match_the_graph(catalog)


def test_a_generation_left_by_a_writer_that_died_is_removed_by_an_unchanged_run(
    catalog: Catalog, projects: Path
) -> None:
    _index(catalog, projects)
    published = _published(catalog.index_dir)
    left = catalog.index_dir / GENERATIONS_DIR / "g99999999"
    left.mkdir()
    (left / ".readers").touch()

    _index(catalog, projects)

    assert not left.exists() and _published(catalog.index_dir) == published


def test_an_unchanged_beir_collection_is_not_written_again(
    catalog: Catalog, tmp_path: Path, counting: CountingEmbedder
) -> None:
    folder = tmp_path / "beir"
    folder.mkdir()
    rows = [{"_id": f"d{i}", "title": "Refunds", "text": f"Refund {i} is audited in the ledger."} for i in range(5)]
    (folder / "corpus.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    with catalog.writer() as writer:
        first = index_beir(writer, folder, "beir")
    before, embedded = _published(catalog.index_dir), counting.texts
    with catalog.writer() as writer:
        second = index_beir(writer, folder, "beir")
    assert (first.indexed, second.indexed, second.unchanged) == (5, 0, 5)
    assert _published(catalog.index_dir) == before and counting.texts == embedded
