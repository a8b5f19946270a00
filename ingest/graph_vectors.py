"""Keeping the entity and relation vectors in step with the graph: embed what is new, drop what is gone."""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

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
# An entity whose description is the opening of its defining chunk (a passage: the text under its title) takes the
# chunk's vector: embedding the same words again adds nothing. A description this short says too little to stand for
# its chunk. (A class described by its docstring is not the opening of its chunk, which starts with the code.)
SHARED_TEXT_MIN_CHARS = 40
LOOKUP_BATCH = 500
_SPACE = re.compile(r"\s+")


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
        index.add(missing, _vectors(writer, missing, entities))
    removed = sorted(stored - set(wanted))
    index.delete(removed)
    if missing or removed:
        index.optimize()  # the ANN index past 20K vectors, extended as rows are added (store/ann.py)
    return len(missing)


def _vectors(writer: Writer, items: Sequence[GraphItem], entities: Sequence[Entity]) -> np.ndarray:
    """The items' vectors: a chunk's own vector for an entity whose description opens that chunk (see
    SHARED_TEXT_MIN_CHARS), the model's for every other item."""
    assert writer.embedder is not None
    shared = _shared_chunk_vectors(writer, items, entities)
    vectors = np.zeros((len(items), writer.embedder.dim), dtype=np.float32)
    to_embed = [n for n in range(len(items)) if n not in shared]
    if to_embed:
        vectors[to_embed] = writer.embedder.embed([items[n].text for n in to_embed])
    for n, vector in shared.items():
        vectors[n] = vector
    return vectors


def _shared_chunk_vectors(
    writer: Writer, items: Sequence[GraphItem], entities: Sequence[Entity]
) -> dict[int, np.ndarray]:
    """Item position -> its defining chunk's vector, for the entities whose description opens that chunk."""
    by_id = {e.id: e for e in entities}
    wanted: dict[int, Entity] = {}
    for n, item in enumerate(items):
        entity = by_id.get(item.entities[0]) if item.kind == "entity" else None
        if entity is not None and entity.chunk_id and len(entity.description.strip()) >= SHARED_TEXT_MIN_CHARS:
            wanted[n] = entity
    chunk_ids = sorted({entity.chunk_id for entity in wanted.values() if entity.chunk_id})
    texts: dict[str, str] = {}
    vectors: dict[str, np.ndarray] = {}
    for start in range(0, len(chunk_ids), LOOKUP_BATCH):
        batch = chunk_ids[start : start + LOOKUP_BATCH]
        texts.update({i: chunk.text for i, chunk in writer.graph.get_chunks(batch).items()})
        vectors.update(writer.vectors.vectors(batch))
    shared: dict[int, np.ndarray] = {}
    for n, entity in wanted.items():
        chunk_id = entity.chunk_id or ""
        if chunk_id in vectors and _opens(entity.description, texts.get(chunk_id, "")):
            shared[n] = vectors[chunk_id]
    return shared


def _opens(description: str, text: str) -> bool:
    """Whether the chunk's text begins with `description` (spacing aside)."""
    words = _SPACE.sub(" ", description).strip()
    return _SPACE.sub(" ", text).strip().startswith(words)
