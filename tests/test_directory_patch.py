"""A patched entity directory (some entities removed, others added or changed) is the directory built afresh over
the same entities: the same entities by id, name, folded name and path in the same order, the same mention forms in
every group (title cores that become unique or stop being so included), and so the same answers; the directory it
was patched from is left as it was."""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import EXAMPLES, SAMPLE_PROJECTS, index_into
from trident.embedding.hash_embedder import HashEmbedder
from trident.retrieval.retrieval_settings import RetrievalSettings
from trident.retrieval.views import GenerationViews
from trident.store.catalog import Catalog
from trident.store.names.directory import EntityDirectory
from trident.store.schema import Entity


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> list[Entity]:
    """The entities of the three sample projects, and titled passages whose cores are unique or shared."""
    catalog = Catalog(tmp_path_factory.mktemp("patch") / "index", "default", HashEmbedder())
    try:
        for project in SAMPLE_PROJECTS:
            index_into(catalog, EXAMPLES / project, project)
        return [*catalog.entities(), *titles()]
    finally:
        catalog.close()


def titles() -> list[Entity]:
    """Passage titles: "Kiss and Tell" is the core of one title, "Dark River" of two (so of neither)."""
    names = [
        "Kiss and Tell (1945 film)",
        "Dark River (1990 film)",
        "Dark River (2017 film)",
        "Guy of Ibelin",
        "Lothair II",
    ]
    return [
        Entity(
            id=f"concept:wiki:{name}",
            name=name,
            type="Concept",
            project="wiki",
            qualified_name=name,
            doc_id=f"wiki/{i}",
            path=str(i),
        )
        for i, name in enumerate(names)
    ]


def state(directory: EntityDirectory) -> dict[str, Any]:
    forms = directory._get_forms()
    return {
        "by_id": list(directory.by_id.items()),
        "by_name": dict(directory._by_name),
        "by_folded": dict(directory._by_folded),
        "by_path": dict(directory._by_path),
        "modules": directory.modules,
        "forms": forms,
        "longest": directory._longest,
    }


def changed(entity: Entity, n: int) -> Entity:
    """The entity as an edit leaves it: renamed, with an alias, or moved."""
    edits = [
        {"name": entity.name + "Renamed"},
        {"aliases": (*entity.aliases, f"Alias Of {entity.name}")},
        {"path": f"moved/{entity.path}", "project": entity.project},
    ]
    return entity.model_copy(update=edits[n % len(edits)])


def edit(entities: list[Entity], rng: random.Random, round_: int) -> tuple[set[str], list[Entity]]:
    """Ids to remove and entities to add: some removed, some changed, new ones (one taking a removed title's core,
    one a name another entity has), and one added twice (the first counts)."""
    picked = rng.sample(entities, 12)
    removed = {e.id for e in picked[:6]}
    added = [changed(e, i) for i, e in enumerate(picked[6:])]
    added += [
        Entity(id=f"class:new:Fresh{round_}", name=f"Fresh{round_}", type="Class", project="new", qualified_name="x"),
        Entity(id=f"class:new:Fresh{round_}", name="Second", type="Class", project="new", qualified_name="y"),
        Entity(id=f"concept:new:{round_}", name="Kiss and Tell", type="Concept", project="new", qualified_name="k"),
        Entity(id=f"module:new:m{round_}", name=picked[0].name, type="Module", project="new", qualified_name="m"),
        Entity(
            id=f"concept:new:river{round_}",
            name="Dark River (2030 film)",
            type="Concept",
            project="new",
            qualified_name="d",
        ),
    ]
    if round_ == 1:
        removed |= {e.id for e in entities if e.name.startswith("Dark River")}  # "Dark River" becomes unique
    return removed, added


def afresh(entities: list[Entity], removed: set[str], added: list[Entity]) -> EntityDirectory:
    return EntityDirectory([*(e for e in entities if e.id not in removed), *added])


@pytest.mark.parametrize("forms_first", [True, False], ids=["forms-built", "forms-not-built"])
def test_a_patched_directory_is_the_directory_built_afresh_over_its_entities(
    indexed: list[Entity], forms_first: bool
) -> None:
    rng = random.Random(7)
    entities = list(indexed)
    directory = EntityDirectory(entities)
    for round_ in range(4):
        if forms_first:
            directory._get_forms()
        before = state(EntityDirectory(entities)) if round_ == 0 else None
        removed, added = edit(entities, rng, round_)
        patched = directory.patched(removed, added)
        fresh = afresh(entities, removed, added)
        assert state(patched) == state(fresh)
        if before is not None:
            assert state(directory) == before, "the directory patched from is left as it was"
        text = " ".join(e.name for e in rng.sample(list(fresh.by_id.values()), 40))
        assert patched.mentions(text) == fresh.mentions(text)
        entities = list(fresh.by_id.values())
        directory = patched


def test_a_patch_that_changes_nothing_keeps_every_entity_and_form(indexed: list[Entity]) -> None:
    directory = EntityDirectory(indexed)
    forms = dict(directory._get_forms())
    patched = directory.patched(set(), [])
    assert patched is not directory and state(patched) == state(directory) and patched._get_forms() == forms


def test_cores_that_become_unique_or_shared_are_mentioned_accordingly(indexed: list[Entity]) -> None:
    directory = EntityDirectory(indexed)
    text = "Dark River was shot before Kiss and Tell."
    assert [i for i, _ in directory.mentions(text)] == ["concept:wiki:Kiss and Tell (1945 film)"]
    rivers = {e.id for e in indexed if e.name.startswith("Dark River (2017")}
    kiss = Entity(
        id="concept:new:kiss", name="Kiss and Tell (2020 film)", type="Concept", project="new", qualified_name="k"
    )
    patched = directory.patched(rivers, [kiss])
    assert [i for i, _ in patched.mentions(text)] == ["concept:wiki:Dark River (1990 film)"]
    assert state(patched) == state(afresh(indexed, rivers, [kiss]))


def test_a_readers_directory_of_the_next_generation_is_the_last_one_patched(tmp_path: Path) -> None:
    """After an edit, the directory queries read is the last generation's patched (sharing its unchanged lists),
    equal to one built afresh from the new generation's entities."""
    project = tmp_path / "billing"
    shutil.copytree(EXAMPLES / "billing", project)
    catalog = Catalog(tmp_path / "index", "default", HashEmbedder())
    views = GenerationViews(RetrievalSettings())
    try:
        index_into(catalog, project, "billing")
        first = views.directory(catalog)
        first._get_forms()
        source = sorted(project.rglob("*.py"))[0]
        source.write_text(source.read_text() + "\n\nclass ZqLedgerBook:\n    pass\n", encoding="utf-8")
        index_into(catalog, project, "billing")
        second = views.directory(catalog)
        assert second is not first and second.named("ZqLedgerBook") and not first.named("ZqLedgerBook")
        assert state(second) == state(EntityDirectory(catalog.entities()))
        assert any(second._by_name[name] is first._by_name[name] for name in first._by_name), "patched, not built"
    finally:
        catalog.close()
