"""Several folders in one writer block (`trident index a b c`): each run links what it wrote, and the graph vectors
and communities are synced once, after the last: the same links and graph vectors as a sync after every run, and
the communities detected over the whole graph."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import SAMPLE_PROJECTS, HashEmbedder
from trident.ingest import run_syncs
from trident.ingest.community_reports import detect_communities, open_communities
from trident.ingest.graph_vector_sync import graph_items, open_graph_vectors
from trident.ingest.pipeline import IndexReport, index_folder
from trident.ingest.progress import Silent
from trident.ingest.run_syncs import BlockSyncs
from trident.store.catalog import Catalog
from trident.store.engines.graph_memory import relation_key
from trident.store.sync_state import syncs_current

TENANT = "default"


@pytest.fixture
def syncs_made(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The syncs run, by name, in order."""
    made: list[str] = []

    def counted(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def spy(*args: Any, **kwargs: Any) -> Any:
            made.append(name)
            return real(*args, **kwargs)

        return spy

    for name in ("sync_graph_vectors", "sync_communities"):
        monkeypatch.setattr(run_syncs, name, counted(name, getattr(run_syncs, name)))
    return made


def _catalog(path: Path) -> Iterator[Catalog]:
    catalog = Catalog(path, TENANT, HashEmbedder())
    try:
        yield catalog
    finally:
        catalog.close()


@pytest.fixture
def block(tmp_path: Path) -> Iterator[Catalog]:
    yield from _catalog(tmp_path / "block")


@pytest.fixture
def alone(tmp_path: Path) -> Iterator[Catalog]:
    yield from _catalog(tmp_path / "alone")


def _index_block(catalog: Catalog, root: Path, names: tuple[str, ...] = SAMPLE_PROJECTS) -> list[IndexReport]:
    syncs = BlockSyncs()
    with catalog.writer() as writer:
        reports = [index_folder(writer, root / n, n, max_file_bytes=1_000_000, syncs=syncs) for n in names]
        syncs.finish(writer, Silent())
    return reports


def _index_alone(catalog: Catalog, root: Path) -> None:
    with catalog.writer() as writer:
        for name in SAMPLE_PROJECTS:
            index_folder(writer, root / name, name, max_file_bytes=1_000_000)


def _graph_vector_keys(catalog: Catalog) -> set[str]:
    return open_graph_vectors(catalog).keys(TENANT)


def _graph_items(catalog: Catalog) -> set[str]:
    """The keys of the graph vectors the graph as it stands asks for."""
    return {i.key for i in graph_items(catalog.entities(), catalog.graph.relations(TENANT), TENANT)}


def test_a_block_of_folders_is_synced_once_and_ends_in_step_with_the_whole_graph(
    block: Catalog, alone: Catalog, projects: Path, syncs_made: list[str]
) -> None:
    _index_block(block, projects)
    assert syncs_made == ["sync_graph_vectors", "sync_communities"], "one sync of each after the last folder"
    syncs_made.clear()
    _index_alone(alone, projects)
    assert len(syncs_made) == 2 * len(SAMPLE_PROJECTS)

    assert syncs_current(block)
    relations = {relation_key(r) for r in block.graph.relations(TENANT)}
    assert relations == {relation_key(r) for r in alone.graph.relations(TENANT)}, "each run still links"
    assert _graph_vector_keys(block) == _graph_items(block) == _graph_vector_keys(alone)
    # The communities of a sync start from the last sync's; the block's one sync starts from none.
    fresh = detect_communities(block.entities(), block.graph.relations(TENANT))
    assert open_communities(block).reports(TENANT) == sorted(fresh, key=lambda r: (r.level, -r.size, r.id))


def test_a_link_to_a_folder_later_in_the_block_resolves(block: Catalog, projects: Path) -> None:
    _index_block(block, projects, ("billing", "auth"))  # billing's docs link to auth's, indexed after them
    flow = block.manifest.documents["billing/docs/payment-flow.md"]
    assert not any("token-design" in p.target for p in flow.unresolved)
    links = [r for r in block.graph.relations(TENANT) if r.type == "LINKS_TO"]
    assert any(r.project == "billing" and r.target.endswith("auth:docs/token-design.md") for r in links), links


def test_a_block_where_one_folder_changed_syncs_it_and_one_where_none_did_syncs_nothing(
    block: Catalog, projects: Path, syncs_made: list[str]
) -> None:
    _index_block(block, projects)
    gateway = projects / "billing" / "billing" / "gateway.py"
    gateway.write_text(gateway.read_text() + "\n\ndef audit_refund_ledger(entries):\n    return len(entries)\n")
    syncs_made.clear()

    reports = _index_block(block, projects)  # billing first, then two folders that did not change

    assert [r.indexed for r in reports] == [1, 0, 0]
    assert syncs_made == ["sync_graph_vectors", "sync_communities"]
    assert syncs_current(block)
    assert "audit_refund_ledger" in {e.name for e in block.entities()}
    assert _graph_vector_keys(block) == _graph_items(block)
    syncs_made.clear()
    generation = block.manifest.generation

    _index_block(block, projects)

    assert syncs_made == [] and block.manifest.generation == generation and syncs_current(block)
