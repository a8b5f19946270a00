"""The get_entity tool: one entity described (where defined, aliases, relation counts)."""

from __future__ import annotations

from collections import Counter

from pydantic import BaseModel, Field

from trident.retrieval.entities import EntityRef, entity_ref, resolve_entity
from trident.store.catalog import Catalog
from trident.store.directory import EntityDirectory

RELATION_SAMPLE = 500


class EntityResult(BaseModel):
    entity: EntityRef
    qualified_name: str
    description: str
    aliases: list[str]
    relations_out: dict[str, int] = Field(description="Outgoing relation counts by type")
    relations_in: dict[str, int] = Field(description="Incoming relation counts by type")


def get_entity(catalog: Catalog, directory: EntityDirectory, name_or_id: str) -> EntityResult:
    """Describe one entity.

    Raises:
        EntityNotFoundError: see `resolve_entity`.
    """
    entity = resolve_entity(directory, name_or_id)
    relations = catalog.graph.neighbours([entity.id], catalog.tenant, RELATION_SAMPLE)
    out = Counter(r.type for r in relations if r.source == entity.id)
    into = Counter(r.type for r in relations if r.target == entity.id)
    return EntityResult(
        entity=entity_ref(catalog, entity),
        qualified_name=entity.qualified_name,
        description=entity.description,
        aliases=list(entity.aliases),
        relations_out=dict(sorted(out.items())),
        relations_in=dict(sorted(into.items())),
    )
