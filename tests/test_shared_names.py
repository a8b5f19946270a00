"""Same-named entities of different projects meet at one shared concept, so cross-project questions can traverse."""

from __future__ import annotations

from trident.ingest.shared_names import shared_concepts
from trident.retrieval.reader import Reader
from trident.store.catalog import Catalog
from trident.store.schema import Entity, EntityType
from trident.tools.explain import explain_path


def entity(project: str, name: str, entity_type: EntityType = EntityType.CLASS) -> Entity:
    return Entity(
        id=f"{entity_type.lower()}:{project}:{name}",
        name=name,
        type=entity_type,
        project=project,
        chunk_id=f"chunk-{project}-{name}",
        doc_id=f"doc-{project}",
    )


def test_a_name_in_two_projects_gets_one_concept_with_an_edge_from_each() -> None:
    concepts, relations = shared_concepts(
        [
            entity("billing", "SessionManager"),
            entity("auth", "session_manager", EntityType.MODULE),
            entity("auth", "Token"),
            entity("billing", "run", EntityType.FUNCTION),
            entity("auth", "run", EntityType.FUNCTION),
        ],
        "default",
    )
    assert [c.id for c in concepts] == ["concept:*:session manager"]
    assert {r.source for r in relations} == {"class:billing:SessionManager", "module:auth:session_manager"}
    assert all(r.type == "INSTANCE_OF" and r.target == concepts[0].id and r.evidence for r in relations)


def test_names_within_one_project_or_of_functions_are_not_linked() -> None:
    concepts, relations = shared_concepts(
        [
            entity("billing", "Invoice"),
            entity("billing", "invoice", EntityType.MODULE),
            entity("auth", "Invoice", EntityType.FUNCTION),
        ],
        "default",
    )
    assert concepts == [] and relations == []


def test_the_sample_projects_share_the_session_concept(sample_catalog: Catalog) -> None:
    relations = [r for r in sample_catalog.graph.relations("default") if r.type == "INSTANCE_OF"]
    by_concept: dict[str, set[str]] = {}
    for r in relations:
        by_concept.setdefault(r.target, set()).add(r.project)
    assert by_concept.get("concept:*:session") == {"auth", "storefront"}


def test_explain_path_crosses_projects_through_the_shared_concept(sample_catalog: Catalog) -> None:
    auth_session = next(e for e in sample_catalog.entities() if e.project == "auth" and e.name == "session")
    store_session = next(
        e
        for e in sample_catalog.entities()
        if e.project == "storefront" and e.type == EntityType.CLASS and e.name == "Session"
    )
    result = explain_path(
        Reader.open(sample_catalog), store_session.id, auth_session.id, relation_types=["INSTANCE_OF"]
    )
    assert result.paths, result.message
    hops = result.paths[0].hops
    assert [h.type for h in hops] == ["INSTANCE_OF", "INSTANCE_OF"]
    assert hops[0].target == "concept:*:session" and all(h.evidence for h in hops)
