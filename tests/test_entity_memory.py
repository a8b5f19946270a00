"""A graph store keeps each tenant's entities in memory once read, and every write keeps them exactly what Kùzu
holds: checked against a fresh read of the published file after runs that add, change, move and delete entities,
shared tags left orphaned among them, and across writer sessions that start from the published store's entities."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.conftest import EXAMPLES, index_into
from trident.embedding.hash_embedder import HashEmbedder
from trident.store.catalog import Catalog
from trident.store.generations import GRAPH_FILE
from trident.store.kuzu_graph import KuzuGraphStore
from trident.store.schema import Entity

TENANT = "default"


def read_fresh(catalog: Catalog) -> list[Entity]:
    """The published generation's entities, read from its file by a store that never held any."""
    copy = catalog.index_dir.parent / "fresh-read.kuzu"
    shutil.copyfile(catalog.generation_folder / GRAPH_FILE, copy)
    store = KuzuGraphStore(copy, read_only=True)
    try:
        return store.entities(TENANT)
    finally:
        store.close()
        copy.unlink()


def test_entities_held_in_memory_stay_what_kuzu_holds_through_edits_moves_and_deletions(tmp_path: Path) -> None:
    project = tmp_path / "billing"
    shutil.copytree(EXAMPLES / "billing", project)
    catalog = Catalog(tmp_path / "index", TENANT, HashEmbedder())
    try:
        index_into(catalog, project, "billing")
        held = catalog.graph.entities(TENANT)
        assert held and held == read_fresh(catalog)
        assert catalog.graph.known_entities()[TENANT], "read once, now held"

        source = sorted(project.rglob("*.py"))[0]
        source.write_text(source.read_text() + "\n\ndef zq_settle_ledger():\n    return 0\n", encoding="utf-8")
        (project / "TAGS.md").write_text("---\ntags: [zq-only-here]\n---\n# Tags\n\nThe ledger.\n", encoding="utf-8")
        index_into(catalog, project, "billing")  # a session starting from the held entities
        after_edit = catalog.graph.entities(TENANT)
        assert any(e.name == "zq_settle_ledger" for e in after_edit)
        assert any(e.name == "zq-only-here" and e.type == "Tag" for e in after_edit)
        assert after_edit == read_fresh(catalog)

        moved = source.with_name("moved_" + source.name)
        source.rename(moved)  # its entities move to another document
        (project / "TAGS.md").unlink()  # and a tag only it used is left orphaned
        index_into(catalog, project, "billing")
        after_move = catalog.graph.entities(TENANT)
        assert not any(e.name == "zq-only-here" for e in after_move)
        assert after_move == read_fresh(catalog)
        assert after_move != after_edit

        shutil.rmtree(project / sorted(p.name for p in project.iterdir() if p.is_dir())[0], ignore_errors=True)
        index_into(catalog, project, "billing")
        assert catalog.graph.entities(TENANT) == read_fresh(catalog)
    finally:
        catalog.close()


def test_a_catalog_opened_on_an_index_reads_the_same_entities_as_the_one_that_wrote_it(tmp_path: Path) -> None:
    writer = Catalog(tmp_path / "index", TENANT, HashEmbedder())
    try:
        index_into(writer, EXAMPLES / "auth", "auth")
        written = writer.graph.entities(TENANT)
    finally:
        writer.close()
    reader = Catalog.open_reader(tmp_path / "index", TENANT)
    try:
        assert reader.graph.entities(TENANT) == written
    finally:
        reader.close()
