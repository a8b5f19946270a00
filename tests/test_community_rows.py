"""The community reports as files a reader maps: each sync writes them for the report table's version and names it;
a reader searches them (the same reports, the same scores as the table) without opening the table or importing
LanceDB, opens the table while a sync is changing it, and an index synced before the files gets them at its next
sync."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import EXAMPLES, HashEmbedder, index_into
from trident.ingest.community_reports import sync_communities
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.engines.community_index import CommunityIndex, open_communities
from trident.store.mapped import current_rows
from trident.store.mapped.community_rows import COMMUNITY_ROWS_DIR, CommunitySearch, MappedCommunities


def _indexed(root: Path, embedder: HashEmbedder) -> tuple[Catalog, Path]:
    catalog = Catalog(root / "index", "default", embedder)
    project = root / "billing"
    shutil.copytree(EXAMPLES / "billing", project)
    index_into(catalog, project, "billing")
    return catalog, project


def _answers(search: CommunitySearch, queries: np.ndarray) -> list[list[tuple[str, float]]]:
    return [[(report.id, score) for report, score in search.search(q, 6, "default")] for q in queries]


# A fresh interpreter searches an index's communities as a server's reader does, then says whether LanceDB came in.
SEARCH_WITHOUT_TABLE = """
import json, sys
import numpy as np
from pathlib import Path
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.retrieval.retrieval_settings import RetrievalSettings
catalog = Catalog.open_reader(Path({index!r}), "default", None)
found = GenerationViews(RetrievalSettings()).communities(catalog).search(np.ones({dim}, np.float32), 3, "default")
print(json.dumps([[report.id for report, _ in found], "lancedb" in sys.modules]))
"""


def test_a_reader_searches_the_files_the_last_sync_named_as_it_would_the_table(
    tmp_path: Path, fake_embedder: HashEmbedder
) -> None:
    catalog, _ = _indexed(tmp_path, fake_embedder)
    try:
        table = open_communities(catalog)
        folder = catalog.index_dir / COMMUNITY_ROWS_DIR
        assert current_rows.current(folder, catalog.tenant) == table.version()
        mapped = MappedCommunities.open(folder, catalog.tenant)
        assert mapped is not None
        queries = np.random.default_rng(5).standard_normal((5, fake_embedder.dim)).astype(np.float32)
        assert _answers(mapped, queries) == _answers(table, queries) and _answers(table, queries)[0]
        reports = {report.id: report for report in table.reports(catalog.tenant)}
        assert all(report == reports[report.id] for report, _ in mapped.search(queries[0], 6, catalog.tenant))
        assert isinstance(GenerationViews(RetrievalSettings()).communities(catalog), MappedCommunities)

        code = SEARCH_WITHOUT_TABLE.format(index=str(catalog.index_dir), dim=fake_embedder.dim)
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
        ids, imported = json.loads(done.stdout)
        expected = [report.id for report, _ in table.search(np.ones(fake_embedder.dim, np.float32), 3, "default")]
        assert ids == expected and not imported
    finally:
        catalog.close()


def test_while_a_sync_changes_the_table_readers_open_it_and_the_next_names_its_version(
    tmp_path: Path, fake_embedder: HashEmbedder
) -> None:
    catalog, project = _indexed(tmp_path, fake_embedder)
    folder = catalog.index_dir / COMMUNITY_ROWS_DIR
    try:
        views = GenerationViews(RetrievalSettings())
        first = views.communities(catalog)
        assert isinstance(first, MappedCommunities) and not first.changed_since_open()
        current_rows.withdraw(folder, catalog.tenant)  # a sync between changing the table and writing its files
        assert first.changed_since_open()
        assert isinstance(views.communities(catalog), CommunityIndex)
        (project / "billing" / "refunds.py").unlink()  # the graph changes: the communities are computed again
        index_into(catalog, project, "billing")
        table = open_communities(catalog)
        assert current_rows.current(folder, catalog.tenant) == table.version()
        again = views.communities(catalog)
        assert isinstance(again, MappedCommunities)
        queries = np.random.default_rng(9).standard_normal((4, fake_embedder.dim)).astype(np.float32)
        assert _answers(again, queries) == _answers(table, queries)
        versions = sorted(path.name for path in folder.iterdir() if path.is_dir())
        assert versions == [f"{current_rows.tenant_key(catalog.tenant)}-{table.version()}"], "older versions go"
    finally:
        catalog.close()


def test_an_index_synced_before_the_files_gets_them_at_its_next_sync(
    tmp_path: Path, fake_embedder: HashEmbedder
) -> None:
    catalog, _ = _indexed(tmp_path, fake_embedder)
    folder = catalog.index_dir / COMMUNITY_ROWS_DIR
    try:
        shutil.rmtree(folder)
        assert isinstance(GenerationViews(RetrievalSettings()).communities(catalog), CommunityIndex)
        with catalog.writer() as writer:
            synced = sync_communities(writer)  # the graph is as it was: nothing is computed again
        assert not synced.recomputed
        assert MappedCommunities.open(folder, catalog.tenant) is not None
    finally:
        catalog.close()


def test_a_sync_withdraws_the_named_version_before_it_changes_the_table(
    tmp_path: Path, fake_embedder: HashEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    catalog, project = _indexed(tmp_path, fake_embedder)
    folder = catalog.index_dir / COMMUNITY_ROWS_DIR
    try:
        named_while_changing: list[int | None] = []
        delete = CommunityIndex.delete

        def watched_delete(index: CommunityIndex, keys: Sequence[str]) -> None:
            named_while_changing.append(current_rows.current(folder, catalog.tenant))
            delete(index, keys)

        monkeypatch.setattr(CommunityIndex, "delete", watched_delete)
        (project / "billing" / "refunds.py").unlink()
        index_into(catalog, project, "billing")
        assert named_while_changing and set(named_while_changing) == {None}
        assert current_rows.current(folder, catalog.tenant) == open_communities(catalog).version()
    finally:
        catalog.close()


def test_a_reader_asked_for_another_tenant_maps_that_tenants_reports(
    tmp_path: Path, fake_embedder: HashEmbedder
) -> None:
    first, _ = _indexed(tmp_path / "a", fake_embedder)
    second = Catalog(tmp_path / "b" / "index", "other", fake_embedder)
    shutil.copytree(EXAMPLES / "auth", tmp_path / "b" / "auth")
    index_into(second, tmp_path / "b" / "auth", "auth")
    try:
        views = GenerationViews(RetrievalSettings())
        vector = np.ones(fake_embedder.dim, np.float32)
        assert views.communities(first).search(vector, 3, "default")
        found = views.communities(second).search(vector, 3, "other")
        expected = open_communities(second).search(vector, 3, "other")
        assert found and [r.id for r, _ in found] == [r.id for r, _ in expected]
    finally:
        first.close()
        second.close()
