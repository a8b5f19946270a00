"""A graph store keeps each tenant's entities and relations in memory once read, and every write keeps them exactly
what Kùzu holds: checked against a fresh read of the published file after runs that add, change, move and delete
entities and the relations they own or that point at them, shared tags left orphaned among them, and across writer
sessions that start from what the published store holds."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.conftest import EXAMPLES, index_into
from trident.embedding.hash_embedder import HashEmbedder
from trident.store.catalog import Catalog
from trident.store.engines.kuzu_graph import KuzuGraphStore
from trident.store.generations import GRAPH_FILE
from trident.store.schema import Entity, Relation

TENANT = "default"


def read_fresh(catalog: Catalog) -> tuple[list[Entity], list[Relation]]:
    """The published generation's entities and relations, read from its file by a store that never held any."""
    copy = catalog.index_dir.parent / "fresh-read.kuzu"
    shutil.copyfile(catalog.generation_folder / GRAPH_FILE, copy)
    store = KuzuGraphStore(copy, read_only=True)
    try:
        return store.entities(TENANT), store.relations(TENANT)
    finally:
        store.close()
        copy.unlink()


def held(catalog: Catalog) -> tuple[list[Entity], list[Relation]]:
    return catalog.graph.entities(TENANT), catalog.graph.relations(TENANT)


def test_entities_held_in_memory_stay_what_kuzu_holds_through_edits_moves_and_deletions(tmp_path: Path) -> None:
    project = tmp_path / "billing"
    shutil.copytree(EXAMPLES / "billing", project)
    catalog = Catalog(tmp_path / "index", TENANT, HashEmbedder())
    try:
        index_into(catalog, project, "billing")
        first = held(catalog)
        assert first[0] and first[1] and first == read_fresh(catalog)
        memory = catalog.graph.memory()
        assert memory.entities(TENANT) and memory.relations(TENANT), "read once, now held"

        source = sorted(project.rglob("*.py"))[0]
        source.write_text(source.read_text() + "\n\ndef zq_settle_ledger():\n    return 0\n", encoding="utf-8")
        (project / "TAGS.md").write_text("---\ntags: [zq-only-here]\n---\n# Tags\n\nThe ledger.\n", encoding="utf-8")
        index_into(catalog, project, "billing")  # a session starting from the held entities
        after_edit = held(catalog)
        assert any(e.name == "zq_settle_ledger" for e in after_edit[0])
        assert any(e.name == "zq-only-here" and e.type == "Tag" for e in after_edit[0])
        assert any(r.type == "TAGGED" for r in after_edit[1])
        assert after_edit == read_fresh(catalog)

        moved = source.with_name("moved_" + source.name)
        source.rename(moved)  # its entities move to another document
        (project / "TAGS.md").unlink()  # and a tag only it used is left orphaned
        index_into(catalog, project, "billing")
        after_move = held(catalog)
        assert not any(e.name == "zq-only-here" for e in after_move[0])
        assert after_move == read_fresh(catalog)
        assert after_move[0] != after_edit[0] and after_move[1] != after_edit[1]

        shutil.rmtree(project / sorted(p.name for p in project.iterdir() if p.is_dir())[0], ignore_errors=True)
        index_into(catalog, project, "billing")
        assert held(catalog) == read_fresh(catalog)
    finally:
        catalog.close()


def test_a_catalog_opened_on_an_index_reads_the_same_entities_as_the_one_that_wrote_it(tmp_path: Path) -> None:
    writer = Catalog(tmp_path / "index", TENANT, HashEmbedder())
    try:
        index_into(writer, EXAMPLES / "auth", "auth")
        written = held(writer)
    finally:
        writer.close()
    reader = Catalog.open_reader(tmp_path / "index", TENANT)
    try:
        assert held(reader) == written
    finally:
        reader.close()


def test_records_read_back_share_their_repeated_strings_and_field_sets_and_copy_apart(tmp_path: Path) -> None:
    """A large index's records hold the same ids, projects and types many times: read back, equal strings are one
    object and all records of a kind share one set of field names; a changed copy takes its own set and leaves the
    records read, and their dumps, as they were."""
    catalog = Catalog(tmp_path / "index", TENANT, HashEmbedder())
    try:
        index_into(catalog, EXAMPLES / "billing", "billing")
        entities, relations = read_fresh(catalog)
    finally:
        catalog.close()
    a, b = entities[0], entities[1]
    assert a.project is b.project and a.tenant is b.tenant
    by_id = {e.id: e for e in entities}
    ends = [r for r in relations if r.source in by_id]
    assert ends and all(r.source is by_id[r.source].id for r in ends)
    assert a.__pydantic_fields_set__ is b.__pydantic_fields_set__ == set(Entity.model_fields)
    assert relations[0].__pydantic_fields_set__ == set(Relation.model_fields)
    dumped = b.model_dump(exclude_unset=True)
    changed = a.model_copy(update={"description": "rewritten"})
    assert changed.description == "rewritten" and a.description != "rewritten"
    assert changed.__pydantic_fields_set__ is not a.__pydantic_fields_set__
    assert b.model_dump(exclude_unset=True) == dumped == b.model_dump()
