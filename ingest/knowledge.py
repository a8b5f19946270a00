"""Agent-authored facts: entities and relations an AI client adds, validated, attributed and searchable.

The facts of one call become a note of the `knowledge` project, a document of one chunk that is the evidence of
every relation. It is resolved as an indexed document is (ingest/documents.py), so a known name its text mentions
gets its MENTIONS edge, and written through the caller's writer.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Protocol

from trident.ingest.code_index import CodeIndex
from trident.ingest.documents import Parsed, project_entity, resolve_document
from trident.ingest.knowledge_input import KnowledgeResult, NewEntity, NewRelation
from trident.ingest.linking import Resolver
from trident.ingest.model import Extraction
from trident.store.catalog import Writer
from trident.store.errors import ArgumentError
from trident.store.names.directory import EntityDirectory
from trident.store.schema import Chunk, Document, DocumentKind, Entity, Relation, chunk_id, entity_id, stable_hash

KNOWLEDGE_PROJECT = "knowledge"


class FindEntity(Protocol):
    """The one entity a relation end names, by id, name, qualified name or alias (the query side's
    `trident.retrieval.entities.resolve_entity`, which ingestion does not import); raises when there is none."""

    def __call__(self, directory: EntityDirectory, name_or_id: str) -> Entity: ...


def add_knowledge(
    writer: Writer,
    directory: EntityDirectory,
    entities: list[NewEntity],
    relations: list[NewRelation],
    *,
    find_entity: FindEntity,
    author: str = "agent",
) -> KnowledgeResult:
    """Store the facts as one searchable note whose chunk is the evidence of every relation. `directory` holds
    the index's entities as the writer reads them; relation ends are looked up there (and among the entities added
    here) with `find_entity`, and the names the note mentions become MENTIONS edges from the entity it adds last.

    Raises:
        ArgumentError: nothing to add.
        EntityNotFoundError: (from `find_entity`) a relation names an entity that neither exists nor is added here.
    """
    if not entities and not relations:
        raise ArgumentError("entities, relations: both are empty; give at least one entity or relation")
    lines = [f"Knowledge added by {author}:"]
    lines += [f"{e.name} ({e.type}): {e.description}".rstrip(": ") for e in entities]
    lines += [f"{r.source} {r.type} {r.target}" + (f": {r.note}" if r.note else "") for r in relations]
    note = _note(writer.tenant, author, "\n".join(lines), len(lines), entities)
    added = note.extraction.entities
    local = EntityDirectory([*directory.by_id.values(), *added])
    note.extraction.relations = [
        Relation(
            source=find_entity(local, r.source).id,
            type=r.type,
            target=find_entity(local, r.target).id,
            evidence=note.extraction.chunks[0].id,
            project=KNOWLEDGE_PROJECT,
            doc_id=note.document.id,
            tenant=writer.tenant,
        )
        for r in relations
    ]
    project = project_entity(KNOWLEDGE_PROJECT, writer.tenant)
    # No references to bind: the resolver only finds the names the note mentions (its own are left out).
    write = resolve_document(note, Resolver(directory, CodeIndex([])), project)
    writer.write([write], shared_entities=[project])
    return KnowledgeResult(
        document=note.document.id,
        entities=[e.id for e in added],
        relations=len(relations),
        citation=note.extraction.chunks[0].citation,
    )


def _note(tenant: str, author: str, text: str, line_count: int, entities: list[NewEntity]) -> Parsed:
    """The note as a parsed document: one chunk, and the entities it adds defined there."""
    path = f"facts/{stable_hash(author, text)}.md"
    doc = Document(
        id=f"{KNOWLEDGE_PROJECT}/{path}",
        project=KNOWLEDGE_PROJECT,
        path=path,
        kind=DocumentKind.TEXT,
        content_hash=stable_hash(text, length=40),
        tenant=tenant,
    )
    cid = chunk_id(KNOWLEDGE_PROJECT, path, 1, line_count)
    chunk = Chunk(
        id=cid,
        doc_id=doc.id,
        project=KNOWLEDGE_PROJECT,
        path=path,
        text=text,
        start_line=1,
        end_line=line_count,
        kind=DocumentKind.TEXT,
        title=f"Added by {author} on {datetime.now(UTC).date()}",
        symbols=tuple(e.name for e in entities),
        tenant=tenant,
    )
    added = [
        Entity(
            id=entity_id(e.type, KNOWLEDGE_PROJECT, e.name),
            name=e.name,
            type=e.type,
            project=KNOWLEDGE_PROJECT,
            qualified_name=e.name,
            aliases=tuple(e.aliases),
            description=e.description,
            chunk_id=cid,
            doc_id=doc.id,
            path=path,
            tenant=tenant,
        )
        for e in entities
    ]
    return Parsed(doc, Extraction(chunks=[chunk], entities=added))
