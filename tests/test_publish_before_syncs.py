"""A watched re-index publishes what it wrote before it syncs the graph vectors and communities: readers find the
edit while those catch up, and the syncs end in step with the generation it published. A writer block indexing
folders itself keeps publishing at its end."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import HashEmbedder
from trident.ingest import run_syncs
from trident.ingest.ingest_settings import IngestSettings
from trident.ingest.pipeline import index_folder
from trident.ingest.watch import WatchedFolder, catalog_reindexer
from trident.store.catalog import Catalog
from trident.store.sync_state import stale_stores

TENANT = "default"


def _app(tmp_path: Path) -> tuple[Path, Catalog]:
    """A one-file project and an index to write it to."""
    root = tmp_path / "app"
    root.mkdir()
    (root / "a.py").write_text("def alpha():\n    return 1\n")
    return root, Catalog(tmp_path / "index", TENANT, HashEmbedder())


def _names_read_during_community_sync(monkeypatch: pytest.MonkeyPatch, index_dir: Path) -> list[set[str]]:
    """What a reader of the index (another process's view: the manifest on disk) finds as each community sync
    begins."""
    seen: list[set[str]] = []
    real: Callable[..., Any] = run_syncs.sync_communities

    def spy(writer: Any, *args: Any, **kwargs: Any) -> Any:
        reader = Catalog.open_reader(index_dir, TENANT)
        try:
            seen.append({e.name for e in reader.entities()})
        finally:
            reader.close()
        return real(writer, *args, **kwargs)

    monkeypatch.setattr(run_syncs, "sync_communities", spy)
    return seen


def test_a_watched_edit_is_published_before_its_syncs_which_end_in_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, catalog = _app(tmp_path)
    try:
        reindex = catalog_reindexer(catalog, IngestSettings())
        folder = WatchedFolder(root, "app")
        reindex(folder)
        seen = _names_read_during_community_sync(monkeypatch, catalog.index_dir)
        (root / "b.py").write_text("def beta():\n    return alpha()\n")
        reindex(folder)
        assert len(seen) == 1 and {"alpha", "beta"} <= seen[0], "the edit is published before the syncs"
        assert stale_stores(catalog) == {}, "the syncs are recorded in step with the generation published"
        assert len(list(catalog.index_dir.joinpath("generations").iterdir())) == 1
    finally:
        catalog.close()


def test_a_watched_run_hands_the_generation_it_published_to_the_readers_before_it_syncs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, catalog = _app(tmp_path)
    try:
        folder = WatchedFolder(root, "app")
        catalog_reindexer(catalog, IngestSettings())(folder)
        seen = _names_read_during_community_sync(monkeypatch, catalog.index_dir)
        handed: list[tuple[int, set[str], int]] = []

        def readers_first(generation: int) -> None:  # what a server's warm-up is given to build first
            handed.append((generation, {e.name for e in catalog.entities()}, len(seen)))

        (root / "b.py").write_text("def beta():\n    return alpha()\n")
        catalog_reindexer(catalog, IngestSettings(), readers_first)(folder)
        assert len(handed) == 1
        generation, names, syncs_begun = handed[0]
        assert {"alpha", "beta"} <= names and syncs_begun == 0, "handed over once published, before the syncs"
        assert seen and catalog.manifest.generation >= generation
    finally:
        catalog.close()


def test_a_writer_block_indexing_a_folder_publishes_it_at_its_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, catalog = _app(tmp_path)
    try:
        seen = _names_read_during_community_sync(monkeypatch, catalog.index_dir)
        with catalog.writer() as writer:
            index_folder(writer, root, "app", max_file_bytes=1_000_000)
        assert seen == [set()], "nothing is published before the block ends"
        assert {e.name for e in catalog.entities()} >= {"alpha"}
        assert stale_stores(catalog) == {}
    finally:
        catalog.close()
