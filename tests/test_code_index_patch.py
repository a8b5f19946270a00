"""A patched code index (code entities removed, added or changed) is the code index built afresh over the same
entities and class bases: the same entities under every qualified name, import name, tail, short name and
module-level name, in the same order, and so the same bindings; a Python package appearing or going (which renames
what is under it) is handled too; the index patched from is left as it was."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.conftest import EXAMPLES, SAMPLE_PROJECTS, index_into
from trident.embedding.hash_embedder import HashEmbedder
from trident.ingest.code_index import CodeIndex, is_code
from trident.store.catalog import Catalog
from trident.store.schema import Entity, RelationType


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Entity], list[tuple[str, str]]]:
    catalog = Catalog(tmp_path_factory.mktemp("patch") / "index", "default", HashEmbedder())
    try:
        for project in SAMPLE_PROJECTS:
            index_into(catalog, EXAMPLES / project, project)
        return catalog.entities(), catalog.graph.links("default", RelationType.INHERITS)
    finally:
        catalog.close()


def state(index: CodeIndex) -> dict[str, Any]:
    return {
        "by_id": list(index._by_id.items()),
        "packages": index._imports.packages,
        "names": index._names,
        "by_name": dict(index._by_name),
        "by_tail": dict(index._by_tail),
        "by_short": dict(index._by_short),
        "top_level": dict(index._top_level),
        "bases": dict(index._bases),
    }


def moved(entity: Entity, n: int) -> Entity:
    """The entity as an edit leaves it: renamed, or moved to another file of its language."""
    folder, _, file = (entity.path or "").rpartition("/")
    if n % 2:
        return entity.model_copy(update={"name": f"{entity.name}_v2", "qualified_name": f"{entity.qualified_name}_v2"})
    return entity.model_copy(update={"path": f"{folder}/sub/{file}" if folder else f"sub/{file}"})


def test_a_patched_code_index_is_the_code_index_built_afresh(
    indexed: tuple[list[Entity], list[tuple[str, str]]],
) -> None:
    entities, bases = indexed
    code = [e for e in entities if is_code(e)]
    assert {e.path.rsplit(".", 1)[-1] for e in code if e.path} >= {"py", "go"}, "more than one language"
    rng = random.Random(11)
    index = CodeIndex(entities, bases)
    for round_ in range(4):
        before = state(CodeIndex(entities, bases)) if round_ == 0 else None
        picked = rng.sample(code, 10)
        removed = {e.id for e in picked[:5]}
        added = [moved(e, i) for i, e in enumerate(picked[5:])]
        added.append(picked[0].model_copy(update={"id": f"{picked[0].id}_copy", "qualified_name": "copied.name"}))
        kept_bases = [b for b in bases if b[0] not in removed][round_:]
        patched = index.patched(removed, added, kept_bases)
        fresh = CodeIndex([*(e for e in entities if e.id not in removed), *added], kept_bases)
        assert state(patched) == state(fresh)
        if before is not None:
            assert state(index) == before, "the index patched from is left as it was"
        entities = [*(e for e in entities if e.id not in removed), *added]
        code = [e for e in entities if is_code(e)]
        index = patched


def test_a_python_package_appearing_or_going_renames_what_is_under_it(
    indexed: tuple[list[Entity], list[tuple[str, str]]],
) -> None:
    entities, bases = indexed
    packages = [e for e in entities if e.type == "Module" and (e.path or "").endswith("__init__.py")]
    assert packages, "the sample projects have a Python package"
    index = CodeIndex(entities, bases)
    gone = {packages[0].id}
    without = index.patched(gone, [], bases)
    assert without._imports.packages != index._imports.packages
    assert state(without) == state(CodeIndex([e for e in entities if e.id not in gone], bases))
    back = without.patched(set(), [packages[0]], bases)
    assert state(back) == state(index)
