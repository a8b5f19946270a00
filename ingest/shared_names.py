"""Joining same-named entities of different projects through one shared concept node.

`Session` in the storefront and the `session` package in auth are separate entities, each in its own project; a
shared concept `session` with an INSTANCE_OF edge from each lets a cross-project question walk from one to the
other ("how do other teams handle sessions") without merging what the projects define.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from trident.store.names.identifiers import split_identifier
from trident.store.schema import SHARED_PROJECT, Entity, EntityType, Relation, RelationType, entity_id

# Names people reuse across projects on purpose: types, services, packages and titled concepts. Functions and
# methods are left out: `get` or `run` in two projects is a coincidence, not a shared idea.
LINKED_TYPES = frozenset({EntityType.CLASS, EntityType.SERVICE, EntityType.MODULE, EntityType.CONCEPT})

MIN_KEY_LENGTH = 4


def name_key(entity: Entity) -> str:
    """The folded, split-identifier form of an entity's short name: `SessionManager`, `session_manager` and
    `session-manager` share `session manager`."""
    short = entity.name.rsplit(".", 1)[-1].rsplit("/", 1)[-1]
    return " ".join(split_identifier(short))


def shared_concepts(entities: Sequence[Entity], tenant: str) -> tuple[list[Entity], list[Relation]]:
    """One concept per name found in two or more projects, and an INSTANCE_OF edge from every holder of it."""
    groups: dict[str, list[Entity]] = defaultdict(list)
    for entity in entities:
        if entity.type in LINKED_TYPES and entity.project != SHARED_PROJECT and entity.doc_id:
            key = name_key(entity)
            if len(key) >= MIN_KEY_LENGTH:
                groups[key].append(entity)
    concepts: list[Entity] = []
    relations: list[Relation] = []
    for key, members in sorted(groups.items()):
        if len({m.project for m in members}) < 2:
            continue
        names = sorted({m.name.rsplit(".", 1)[-1] for m in members})
        concept = Entity(
            id=entity_id(EntityType.CONCEPT, SHARED_PROJECT, key),
            name=key,
            type=EntityType.CONCEPT,
            project=SHARED_PROJECT,
            aliases=tuple(names),
            description=f"the name '{key}' as used in projects {', '.join(sorted({m.project for m in members}))}",
            tenant=tenant,
        )
        concepts.append(concept)
        relations.extend(
            Relation(
                source=member.id,
                type=RelationType.INSTANCE_OF,
                target=concept.id,
                evidence=member.chunk_id,
                project=member.project,
                doc_id=member.doc_id,
                tenant=tenant,
            )
            for member in sorted(members, key=lambda m: m.id)
        )
    return concepts, relations
