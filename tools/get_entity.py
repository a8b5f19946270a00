"""The get_entity tool: one entity described (where defined, aliases, relation counts)."""

from __future__ import annotations

from collections import Counter

from pydantic import BaseModel, Field

from trident.retrieval.definitions import ChunkReader, definition_span
from trident.retrieval.entities import EntityRef, entity_refs, resolve_entity
from trident.retrieval.omitted import OMITTED_HELP, OmitReason, Omitted
from trident.retrieval.reader import Reader
from trident.store.catalog import Catalog
from trident.store.schema import Entity
from trident.tools.calls import suggest_call

# Relations counted at most: the reader's relation index finds every relation of the entity in memory, so counting
# them all costs little more than counting a sample; the cap only bounds a freak hub.
RELATION_COUNT_CAP = 100_000


class EntityResult(BaseModel):
    entity: EntityRef
    qualified_name: str
    description: str
    aliases: list[str]
    relations_out: dict[str, int] = Field(description="Outgoing relation counts by type")
    relations_in: dict[str, int] = Field(description="Incoming relation counts by type")
    omitted: list[Omitted] = Field(default_factory=list, description=OMITTED_HELP)


def get_entity(reader: Reader, name_or_id: str) -> EntityResult:
    """Describe one entity; its relations counted by type and direction (all of them, up to RELATION_COUNT_CAP, past
    which `omitted` says the counts are short), from the reader's relations in memory (what trace_relationships
    walks; 0.34 ms p50 at 100K chunks). The citation spans the whole definition, read from the reader's chunk rows.

    Raises:
        EntityNotFoundError: see `resolve_entity`.
    """
    catalog, source = reader.catalog, reader.relations()
    entity = resolve_entity(reader.directory(), name_or_id)
    found = source.neighbours([entity.id], catalog.tenant, RELATION_COUNT_CAP + 1)
    omitted = []
    if len(found) > RELATION_COUNT_CAP:
        found = found[:RELATION_COUNT_CAP]
        omitted.append(
            Omitted(
                reason=OmitReason.RELATION_COUNT,
                count=1,
                at_least=True,
                detail=f"relations past the first {RELATION_COUNT_CAP:,} counted (in source, type, target order)",
                next_call=suggest_call("trace_relationships", entity=entity.id, max_hops=1, limit=500),
            )
        )
    out = Counter(r.type for r in found if r.source == entity.id)
    into = Counter(r.type for r in found if r.target == entity.id)
    return EntityResult(
        entity=_whole(catalog, entity, entity_refs(source, [entity])[0], reader.chunks),
        qualified_name=entity.qualified_name,
        description=entity.description,
        aliases=list(entity.aliases),
        relations_out=dict(sorted(out.items())),
        relations_in=dict(sorted(into.items())),
        omitted=omitted,
    )


def _whole(catalog: Catalog, entity: Entity, ref: EntityRef, read: ChunkReader) -> EntityRef:
    """The reference citing the entity's whole definition, when it is longer than its defining chunk."""
    document = catalog.manifest.documents.get(entity.doc_id or "")
    if ref.citation is None or entity.chunk_id is None or document is None or len(document.chunk_ids) < 2:
        return ref
    chunk = read([entity.chunk_id]).get(entity.chunk_id)
    if chunk is None:
        return ref
    start, end = definition_span(chunk, document.chunk_ids, read)
    return ref.model_copy(update={"citation": f"{chunk.project}/{chunk.path}:L{start}-L{end}"})
