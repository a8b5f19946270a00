"""A write session writes the graph file afresh (Kùzu's export and import) instead of copying it once the file has
doubled since the last time: the same rows and answers as an index that only ever copied, a baseline the next
sessions measure against, and a copy instead where Kùzu fails part-way."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import EXAMPLES, index_into
from trident.embedding.hash_embedder import HashEmbedder
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.search_engine import GenerationViews, search
from trident.store.catalog import Catalog
from trident.store.engines import graph_compaction
from trident.store.generations import GRAPH_FILE
from trident.store.manifest import Manifest

TENANT = "default"


def _contents(catalog: Catalog) -> tuple[Any, ...]:
    """Everything the graph holds, and what a search answers from it."""
    graph = catalog.graph
    chunks = graph.chunk_table(TENANT).sort_by("id").to_pylist()
    views = GenerationViews(RetrievalSettings())
    answer = search(catalog, "verify the session token before charging the invoice", strategy="auto", views=views)
    return graph.entities(TENANT), graph.relations(TENANT), chunks, [(h.id, h.score) for h in answer.hits]


def _edit(project: Path, n: int) -> None:
    source = sorted(project.rglob("*.py"))[0]
    source.write_text(source.read_text() + f"\n\ndef zq_settle_{n}():\n    return {n}\n", encoding="utf-8")


def _build(root: Path) -> tuple[Catalog, list[Manifest]]:
    """Two projects, then two edits, each its own write session; the manifest published by each."""
    projects = {name: root / name for name in ("billing", "auth")}
    for name, folder in projects.items():
        shutil.copytree(EXAMPLES / name, folder)
    catalog = Catalog(root / "index", TENANT, HashEmbedder())
    published = []
    for name, folder in projects.items():
        index_into(catalog, folder, name)
        published.append(catalog.manifest)
    for n in range(2):
        _edit(projects["billing"], n)
        index_into(catalog, projects["billing"], "billing")
        published.append(catalog.manifest)
    return catalog, published


@pytest.fixture(scope="module")
def copied(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, ...]:
    """What the sessions of `_build` leave in an index whose graph file is only ever copied (it stays small)."""
    catalog, published = _build(tmp_path_factory.mktemp("copied"))
    try:
        assert all(m.graph_baseline_bytes is None for m in published)
        return _contents(catalog)
    finally:
        catalog.close()


def _spied(monkeypatch: pytest.MonkeyPatch, growth: float) -> list[Path]:
    """Every graph file written afresh from, in order, with files of any size worth it past `growth` times."""
    calls: list[Path] = []
    compact = graph_compaction.compact_graph

    def spy(source: Path, target: Path, engine: str) -> None:
        calls.append(source)
        compact(source, target, engine)

    monkeypatch.setattr(graph_compaction, "MIN_BYTES", 0)
    monkeypatch.setattr(graph_compaction, "GROWTH_FACTOR", growth)
    monkeypatch.setattr(graph_compaction, "compact_graph", spy)
    return calls


def test_a_graph_written_afresh_holds_what_a_copied_one_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, copied: tuple[Any, ...]
) -> None:
    calls = _spied(monkeypatch, growth=1e9)  # written afresh once (no baseline yet), then never again
    catalog, published = _build(tmp_path)
    try:
        assert _contents(catalog) == copied
        assert len(calls) == 1
        baseline = published[0].graph_baseline_bytes  # the file's size as the session that wrote it published it
        first = tmp_path / "index" / published[0].generation_dir / GRAPH_FILE  # type: ignore[operator]
        assert baseline is not None and baseline > 0 and calls[0].name == GRAPH_FILE
        assert [m.graph_baseline_bytes for m in published] == [baseline] * len(published), "kept, not re-measured"
        assert not first.exists() or first.stat().st_size == baseline
        export_left = [p for p in (tmp_path / "index").rglob("*.export")]
        assert not export_left, "the export is removed"
    finally:
        catalog.close()


def test_each_session_writes_afresh_once_the_file_has_grown_past_its_baseline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, copied: tuple[Any, ...]
) -> None:
    calls = _spied(monkeypatch, growth=0.0)  # any file has grown past nothing
    catalog, published = _build(tmp_path)
    try:
        assert _contents(catalog) == copied
        sources = [call.parent.name for call in calls]
        assert len(sources) == len(published)  # every session, each from the generation published before it
        assert sources[1:] == [m.generation_dir.rsplit("/", 1)[-1] for m in published[:-1]]  # type: ignore[union-attr]
        assert len({m.graph_baseline_bytes for m in published}) >= 1 and all(m.graph_baseline_bytes for m in published)
    finally:
        catalog.close()


def test_a_graph_kuzu_cannot_write_afresh_is_copied_instead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    project = tmp_path / "billing"
    shutil.copytree(EXAMPLES / "billing", project)
    catalog = Catalog(tmp_path / "index", TENANT, HashEmbedder())
    try:
        index_into(catalog, project, "billing")
        generation = catalog.manifest.generation_dir

        def broken_import(path: Path, statement: str, *, read_only: bool, engine: str) -> None:
            if statement.startswith("IMPORT"):
                (path.parent / GRAPH_FILE).write_bytes(b"half")  # a half-written file in the new generation
                raise RuntimeError("Kùzu could not import")
            run(path, statement, read_only=read_only, engine=engine)

        run = graph_compaction._run
        monkeypatch.setattr(graph_compaction, "MIN_BYTES", 0)
        monkeypatch.setattr(graph_compaction, "_run", broken_import)
        _edit(project, 1)
        index_into(catalog, project, "billing")  # the session starts from a copy, and the edit lands
        assert catalog.manifest.generation_dir != generation
        assert any(e.name == "zq_settle_1" for e in catalog.graph.entities(TENANT))
        assert catalog.manifest.graph_baseline_bytes is None, "copied, not written afresh"
        assert "copying it instead" in caplog.text
        assert not list((tmp_path / "index").rglob("*.export"))

        monkeypatch.setattr(graph_compaction, "_run", run)
        _edit(project, 2)
        index_into(catalog, project, "billing")
        assert any(e.name == "zq_settle_2" for e in catalog.graph.entities(TENANT))
        assert catalog.manifest.graph_baseline_bytes is not None, "written afresh once Kùzu can"
    finally:
        catalog.close()


def _spied_targets(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Path, Path]]:
    """(source, target) of every graph written afresh, with every file worth it (half its baseline will do)."""
    calls: list[tuple[Path, Path]] = []
    compact = graph_compaction.compact_graph

    def spy(source: Path, target: Path, engine: str) -> None:
        calls.append((source, target))
        compact(source, target, engine)

    monkeypatch.setattr(graph_compaction, "MIN_BYTES", 0)
    monkeypatch.setattr(graph_compaction, "GROWTH_FACTOR", 0.5)
    monkeypatch.setattr(graph_compaction, "compact_graph", spy)
    return calls


def _watched(tmp_path: Path) -> tuple[Catalog, Path, Any]:
    from trident.ingest.ingest_settings import IngestSettings
    from trident.ingest.watch import WatchedFolder, catalog_reindexer

    project = tmp_path / "billing"
    shutil.copytree(EXAMPLES / "billing", project)
    catalog = Catalog(tmp_path / "index", TENANT, HashEmbedder())
    reindex = catalog_reindexer(catalog, IngestSettings())
    return catalog, project, lambda: reindex(WatchedFolder(project, "billing"))


def test_a_watched_run_writes_the_graph_afresh_after_it_publishes_and_the_next_session_opens_with_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from trident.store.engines.graph_compaction import SPARE_FILE
    from trident.store.remote.snapshot import published_paths

    calls = _spied_targets(monkeypatch)
    catalog, project, reindex = _watched(tmp_path)
    try:
        reindex()
        first = catalog.index_dir / str(catalog.manifest.generation_dir)
        assert (first / SPARE_FILE).exists() and calls[-1][0] == first / GRAPH_FILE, "written once published"
        assert not any(SPARE_FILE in path for path in published_paths(catalog.index_dir, first.name))
        before = len(calls)
        _edit(project, 0)
        reindex()
        opened_with = calls[before:]
        assert all(target.name != GRAPH_FILE for _, target in opened_with), "the edit's session took the spare"
        assert not (first / SPARE_FILE).exists()
        assert catalog.manifest.graph_baseline_bytes is not None  # a graph written afresh sets the baseline
        assert "zq_settle_0" in {e.name for e in catalog.entities()}
        hits = search(catalog, "zq_settle_0", strategy="lexical", views=GenerationViews(RetrievalSettings())).hits
        assert hits and "zq_settle_0" in hits[0].snippet
    finally:
        catalog.close()


def test_a_spare_kuzu_cannot_write_leaves_nothing_and_the_next_session_copies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from trident.store.engines.graph_compaction import SPARE_FILE

    _spied_targets(monkeypatch)

    def failing(source: Path, target: Path, engine: str) -> None:
        target.write_bytes(b"half")  # what a failed import leaves
        raise RuntimeError("IO exception: disk full")

    monkeypatch.setattr(graph_compaction, "compact_graph", failing)
    catalog, project, reindex = _watched(tmp_path)
    try:
        reindex()
        folder = catalog.index_dir / str(catalog.manifest.generation_dir)
        assert not [p.name for p in folder.iterdir() if p.name.startswith(SPARE_FILE)]
        _edit(project, 0)
        reindex()
        assert "zq_settle_0" in {e.name for e in catalog.entities()}
    finally:
        catalog.close()


def test_a_run_that_publishes_nothing_writes_no_spare(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from trident.store.engines.graph_compaction import SPARE_FILE

    catalog, _, reindex = _watched(tmp_path)
    try:
        reindex()  # the file is too small to be worth writing afresh yet
        folder = catalog.index_dir / str(catalog.manifest.generation_dir)
        assert not (folder / SPARE_FILE).exists()
        _spied_targets(monkeypatch)  # now any file is worth it: a run that changes nothing still writes none
        reindex()
        assert not (folder / SPARE_FILE).exists()
    finally:
        catalog.close()


def test_a_spare_being_written_stays_out_of_snapshots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What a writer killed while writing a spare leaves (the half-written file and Kùzu's export beside it) is not
    part of the published generation a snapshot uploads, and the next spare starts clean."""
    from trident.store.remote.snapshot import published_paths

    catalog, _, reindex = _watched(tmp_path)
    try:
        reindex()
        generation = str(catalog.manifest.generation_dir)
        folder = catalog.index_dir / generation
        before = sorted(published_paths(catalog.index_dir, generation))
        seen: list[list[str]] = []
        compact = graph_compaction.compact_graph

        def killed_after_the_export(source: Path, target: Path, engine: str) -> None:
            dump = target.with_name(target.name + ".export")
            dump.mkdir()
            (dump / "nodes.parquet").write_bytes(b"rows")
            target.write_bytes(b"half")
            seen.append(sorted(published_paths(catalog.index_dir, generation)))
            shutil.rmtree(dump)
            target.unlink()
            compact(source, target, engine)

        monkeypatch.setattr(graph_compaction, "MIN_BYTES", 0)
        monkeypatch.setattr(graph_compaction, "compact_graph", killed_after_the_export)
        assert graph_compaction.write_spare(folder / GRAPH_FILE, None, "kuzu")
        assert seen == [before], "nothing of a spare being written is in the snapshot"
        assert sorted(published_paths(catalog.index_dir, generation)) == before, "nor the spare once written"
    finally:
        catalog.close()
