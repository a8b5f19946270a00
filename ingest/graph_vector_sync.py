"""Keeping the entity and relation vectors in step with the graph: embed what is new, drop what is gone.

The model embeds only the items whose words say something their chunk does not (embeddings per chunk, issue #15).
An entity takes its defining chunk's vector when that chunk is the same words (a passage under its title, a
markdown section), when it is a code entity known by its name alone, or when it is a method; a class, function or
module with a docstring keeps its own (on its chunk's vector, code dilutes the docstring). A relation sentence is the
normalised sum of its two ends' vectors. Measured with bench/vector_seeding.py (loosely worded questions about the
sample projects and three standard-library packages): seeding finds as many of the described entities as with
every item embedded, for about a fifth of the graph items' model calls.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import pyarrow as pa

from trident.store.catalog import Writer
from trident.store.engines.graph_vectors import GraphItem, GraphVectorIndex, open_graph_vectors
from trident.store.mapped.current_rows import withdraw
from trident.store.mapped.graph_vector_rows import GRAPH_VECTOR_ROWS_DIR, RowChanges, keep_rows
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
CODE_ENTITIES = frozenset({EntityType.MODULE, EntityType.CLASS, EntityType.FUNCTION, EntityType.METHOD})
# Code entities that take their chunk's vector whatever their docstring says (see the module's docstring).
CHUNK_VECTOR_ENTITIES = frozenset({EntityType.METHOD})
DESCRIPTION_CHARS = 300
# An entity whose description is the opening of its defining chunk (a passage: the text under its title) takes the
# chunk's vector: embedding the same words again adds nothing. A description this short says too little to stand for
# its chunk. (A class described by its docstring is not the opening of its chunk, which starts with the code.)
SHARED_TEXT_MIN_CHARS = 40
LOOKUP_BATCH = 500
_WORD = re.compile(r"\w+")
_HEADINGS = re.compile(r"^(?:#[^\n]*(?:\n\s*|$))+")


def entity_text(entity: Entity) -> str:
    """Name, kind and home, then what it is: "PaymentAdapter (Class in billing): retries failed charges"."""
    about = entity.description or entity.qualified_name
    return f"{entity.name} ({entity.type} in {entity.project}): {about[:DESCRIPTION_CHARS]}".rstrip(": ")


def relation_text(relation: Relation, names: dict[str, str]) -> str:
    verb = str(relation.type).lower().replace("_", " ")
    return f"{names.get(relation.source, relation.source)} {verb} {names.get(relation.target, relation.target)}"


def graph_items(entities: Sequence[Entity], relations: Sequence[Relation], tenant: str) -> list[GraphItem]:
    """One item per entity, one per relation sentence between two of them. A relation's key holds its ends' keys:
    its vector is made from theirs, so it is made again when either changes."""
    names = {e.id: e.qualified_name or e.name for e in entities}
    items = [
        GraphItem(_entity_key(e.id, text := entity_text(e)), "entity", (e.id,), text, tenant)
        for e in entities
        if e.type not in SKIPPED_ENTITIES
    ]
    keys = {item.entities[0]: item.key for item in items}
    sentences = {
        (r.source, r.target, relation_text(r, names))
        for r in relations
        if r.type in EMBEDDED_RELATIONS and r.source != r.target and r.source in keys and r.target in keys
    }  # one row per sentence, however many chunks show it
    items.extend(
        GraphItem(stable_hash(s, t, text, keys[s], keys[t], length=24), "relation", (s, t), text, tenant)
        for s, t, text in sorted(sentences)
    )
    return items


def sync_graph_vectors(
    writer: Writer, entities: Sequence[Entity] | None = None, relations: Sequence[Relation] | None = None
) -> int:
    """Add the entities and relation sentences that have no vector yet, drop the vectors of removed ones, and make
    again those taken from a chunk this writer changed; returns how many texts the model embedded. Idempotent, so
    an interrupted run is finished by the next one.

    `entities` and `relations`, when given, must be the whole graph as read (a run reads it once for all passes).
    """
    if writer.embedder is None:
        return 0
    index = open_graph_vectors(writer.catalog)
    since = index.version()
    if entities is None:
        entities = writer.entities()
    if relations is None:
        relations = writer.graph.relations(writer.tenant)
    by_id = {e.id: e for e in entities}
    wanted = {i.key: i for i in graph_items(entities, relations, writer.tenant)}
    stored = index.keys(writer.tenant)
    removed = stored - wanted.keys()
    stale = _taken_from_changed_chunks(writer, [wanted[key] for key in sorted(stored & wanted.keys())], by_id)
    missing = sorted([wanted[key] for key in wanted.keys() - stored] + stale, key=lambda item: item.key)
    # Embedding takes seconds: done before the table changes, so a reader (retrieval reads the live table) never
    # finds an entity's row gone while its replacement is being made, and a crash while embedding loses nothing.
    vectors, embedded = _vectors(writer, index, missing, by_id)
    rows = writer.catalog.index_dir / GRAPH_VECTOR_ROWS_DIR
    if missing or removed or stale:
        withdraw(rows, writer.tenant)  # readers read the table until the rows of its new version are written
    index.delete(sorted(removed) + [item.key for item in stale], writer.tenant)  # a stale row: its new one's key
    index.add(missing, vectors)
    if missing or removed:
        index.optimize()  # the ANN index past 20K vectors, extended as rows are added (store/engines/ann.py)
    keep_rows(index, rows, writer.tenant, RowChanges(since, removed, _item_table(missing), vectors))  # readers map
    return embedded


def _item_table(items: Sequence[GraphItem]) -> pa.Table:
    return pa.table(
        {
            "key": pa.array([i.key for i in items], pa.string()),
            "kind": pa.array([i.kind for i in items], pa.string()),
            "entities": pa.array([list(i.entities) for i in items], pa.list_(pa.string())),
        }
    )


def _taken_from_changed_chunks(
    writer: Writer, stored: Sequence[GraphItem], by_id: dict[str, Entity]
) -> list[GraphItem]:
    """The stored items whose vector came from a chunk this writer embedded again (a method's body edited: same
    text, same key, a new chunk vector), and the relations summed from them."""
    changed = writer.vectors.changed_documents  # None: unknown, so every document may have changed
    if changed is not None and not changed:
        return []
    entities = [
        item
        for item in stored
        if item.kind == "entity" and (changed is None or by_id[item.entities[0]].doc_id in changed)
    ]
    taken = _shared_chunk_vectors(writer, entities, by_id)
    stale = {entities[n].entities[0] for n in taken}
    relations = [i for i in stored if i.kind == "relation" and not stale.isdisjoint(i.entities)]
    return [entities[n] for n in sorted(taken)] + relations


def _vectors(
    writer: Writer, index: GraphVectorIndex, items: Sequence[GraphItem], by_id: dict[str, Entity]
) -> tuple[np.ndarray, int]:
    """The items' vectors and how many texts the model embedded for them: a chunk's own vector for an entity that
    takes it, the sum of its ends for a relation, the model's for every other item (each distinct text once)."""
    assert writer.embedder is not None
    vectors = np.zeros((len(items), writer.embedder.dim), dtype=np.float32)
    known = _shared_chunk_vectors(writer, items, by_id)
    for n, vector in known.items():
        vectors[n] = vector
    entities = [n for n, item in enumerate(items) if item.kind == "entity" and n not in known]
    embedded = _embed(writer, items, entities, vectors)
    relations = [n for n, item in enumerate(items) if item.kind == "relation"]
    ends = {items[n].entities[0]: vectors[n] for n in range(len(items)) if items[n].kind == "entity"}
    wanted_ends = sorted({e for n in relations for e in items[n].entities} - set(ends))
    keys = {id_: _entity_key(id_, entity_text(by_id[id_])) for id_ in wanted_ends if id_ in by_id}
    stored = index.vectors(sorted(keys.values()), writer.tenant)
    ends.update({id_: stored[key] for id_, key in keys.items() if key in stored})
    unsummed = []
    for n in relations:
        source, target = (ends.get(id_) for id_ in items[n].entities)
        if source is None or target is None:
            unsummed.append(n)  # an end without a vector (not expected): the sentence is embedded
        else:
            vectors[n] = _unit(_unit(source) + _unit(target))
    return vectors, embedded + _embed(writer, items, unsummed, vectors)


def _embed(writer: Writer, items: Sequence[GraphItem], rows: Sequence[int], vectors: np.ndarray) -> int:
    """Fill `rows` of `vectors` with the model's vectors of their texts, each distinct text embedded once."""
    assert writer.embedder is not None
    texts = list(dict.fromkeys(items[n].text for n in rows))
    if not texts:
        return 0
    embedded = dict(zip(texts, writer.embedder.embed(texts), strict=True))
    for n in rows:
        vectors[n] = embedded[items[n].text]
    return len(texts)


def _entity_key(entity_id: str, text: str) -> str:
    """An entity's row key: a new text (an edited description) makes a new row."""
    return stable_hash(entity_id, text, length=24)


def _unit(vector: np.ndarray) -> np.ndarray:
    return vector / (float(np.linalg.norm(vector)) or 1.0)


def _takes_chunk_vector_by_kind(entity: Entity) -> bool:
    """A method, or a code entity known by its name alone (its text would be its name; its chunk holds it too)."""
    return entity.type in CHUNK_VECTOR_ENTITIES or (entity.type in CODE_ENTITIES and not entity.description.strip())


def _may_open_its_chunk(entity: Entity) -> bool:
    """Text whose description may be its chunk's opening words; a code entity's docstring is not its chunk's words
    (a module's chunk opens with its docstring, then imports and code the docstring does not speak for)."""
    return entity.type not in CODE_ENTITIES and len(entity.description.strip()) >= SHARED_TEXT_MIN_CHARS


def _shared_chunk_vectors(
    writer: Writer, items: Sequence[GraphItem], by_id: dict[str, Entity]
) -> dict[int, np.ndarray]:
    """Item position -> its defining chunk's vector, for the entities that take it (see the module's docstring)."""
    wanted: dict[int, tuple[Entity, str]] = {}  # item position -> the entity and its chunk's id
    for n, item in enumerate(items):
        entity = by_id.get(item.entities[0]) if item.kind == "entity" else None
        if (
            entity is not None
            and entity.chunk_id
            and (_takes_chunk_vector_by_kind(entity) or _may_open_its_chunk(entity))
        ):
            wanted[n] = (entity, entity.chunk_id)
    chunk_ids = sorted({chunk_id for _, chunk_id in wanted.values()})
    read_text = {chunk_id for e, chunk_id in wanted.values() if not _takes_chunk_vector_by_kind(e)}
    texts: dict[str, str] = {}
    vectors: dict[str, np.ndarray] = {}
    for start in range(0, len(chunk_ids), LOOKUP_BATCH):
        batch = chunk_ids[start : start + LOOKUP_BATCH]
        texts.update({i: c.text for i, c in writer.graph.get_chunks([i for i in batch if i in read_text]).items()})
        vectors.update(writer.vectors.vectors(batch))
    shared: dict[int, np.ndarray] = {}
    for n, (entity, chunk_id) in wanted.items():
        if chunk_id in vectors and (
            _takes_chunk_vector_by_kind(entity) or _opens(entity.description, texts.get(chunk_id, ""))
        ):
            shared[n] = vectors[chunk_id]
    return shared


def _opens(description: str, text: str) -> bool:
    """Whether the chunk's text begins with `description`, spacing, case and markup aside, after any heading lines
    (a markdown section's description is its text without the markup)."""
    words = _words(description)
    return bool(words) and _words(_HEADINGS.sub("", text.lstrip())).startswith(words)


def _words(text: str) -> str:
    return " ".join(_WORD.findall(text.lower()))
