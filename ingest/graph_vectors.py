"""Keeping the entity and relation vectors in step with the graph: embed what is new, drop what is gone."""

from __future__ import annotations

from collections.abc import Sequence

from trident.store.catalog import Writer
from trident.store.graph_vectors import GraphItem, open_graph_vectors
from trident.store.schema import Entity, EntityType, Relation, RelationType, stable_hash

# Relations that say something a name alone does not; mentions, containment and tags are too many and too weak.
EMBEDDED_RELATIONS = frozenset(
    {
        RelationType.CALLS,
        RelationType.INHERITS,
        RelationType.IMPORTS,
        RelationType.DEPENDS_ON,
        RelationType.LINKS_TO,
        RelationType.RELATED_TO,
    }
)
SKIPPED_ENTITIES = frozenset({EntityType.PROJECT})
DESCRIPTION_CHARS = 300


def entity_text(entity: Entity) -> str:
    """Name, kind and home, then what it is: "PaymentAdapter (Class in billing): retries failed charges"."""
    about = entity.description or entity.qualified_name
    return f"{entity.name} ({entity.type} in {entity.project}): {about[:DESCRIPTION_CHARS]}".rstrip(": ")


def relation_text(relation: Relation, names: dict[str, str]) -> str:
    verb = str(relation.type).lower().replace("_", " ")
    return f"{names.get(relation.source, relation.source)} {verb} {names.get(relation.target, relation.target)}"


def graph_items(entities: Sequence[Entity], relations: Sequence[Relation], tenant: str) -> list[GraphItem]:
    names = {e.id: e.qualified_name or e.name for e in entities}
    items = [
        GraphItem(stable_hash(e.id, text := entity_text(e), length=24), "entity", (e.id,), text, tenant)
        for e in entities
        if e.type not in SKIPPED_ENTITIES
    ]
    sentences = {
        (r.source, r.target, relation_text(r, names)) for r in relations if r.type in EMBEDDED_RELATIONS
    }  # one row per sentence, however many chunks show it
    items.extend(
        GraphItem(stable_hash(source, target, text, length=24), "relation", (source, target), text, tenant)
        for source, target, text in sorted(sentences)
    )
    return items


def sync_graph_vectors(
    writer: Writer, entities: Sequence[Entity] | None = None, relations: Sequence[Relation] | None = None
) -> int:
    """Embed the entities and relation sentences that have no vector yet and drop vectors of removed ones;
    returns how many were embedded. Idempotent, so an interrupted run is finished by the next one.

    `entities` and `relations`, when given, must be the whole graph as read (a run reads it once for all passes).
    """
    if writer.embedder is None:
        return 0
    index = open_graph_vectors(writer.catalog)
    if entities is None:
        entities = writer.entities()
    if relations is None:
        relations = writer.graph.relations(writer.tenant)
    wanted = {i.key: i for i in graph_items(entities, relations, writer.tenant)}
    stored = index.keys(writer.tenant)
    missing = [wanted[key] for key in sorted(set(wanted) - stored)]
    if missing:
        index.add(missing, writer.embedder.embed([item.text for item in missing]))
    removed = sorted(stored - set(wanted))
    index.delete(removed)
    if missing or removed:
        index.optimize()  # the ANN index past 20K vectors, extended as rows are added (store/ann.py)
    return len(missing)
